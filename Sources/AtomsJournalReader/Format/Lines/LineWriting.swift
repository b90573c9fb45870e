/// How each line kind, and each part of one, is written: the recorder writes every line with
/// these, and `JournalFormatExampleTests` reads every example of the format's documentation
/// and writes it back with them, byte for byte.

extension AtomDeclaration {
    /// The declaration as the recorder writes it: `{"id":…,"label":…,"type":…,"key":…,"scope":…}`.
    package var json: String {
        var line = JSONLine()
        line.field("id", id)
        line.field("label", label)
        line.field("type", type)
        if let key { line.field("key", key) }
        if let scope { line.field("scope", scope) }
        return line.finished()
    }
}

extension LocationDeclaration {
    /// `{"id":…,"at":…}`, as a keyframe's `locs` lists it.
    package var json: String {
        var entry = JSONLine()
        entry.field("id", id)
        entry.field("at", at)
        return entry.finished()
    }
}

extension LocationRecord {
    /// The location line `{"type":"loc","id":…,"at":…}`.
    package static func line(id: Int, at: String) -> String {
        var line = JSONLine()
        line.field("type", "loc")
        line.field("id", id)
        line.field("at", at)
        return line.finished()
    }
}

extension EndRecord {
    /// The end line `{"type":"end","seq":…,"t":…}`, with `"waits":…` when the program waited
    /// for its recorder; `time` is the time's JSON number.
    package static func line(seq: Int, time: some Sequence<UInt8>, waits: Int = 0) -> String {
        var line = JSONLine()
        line.field("type", "end")
        line.field("seq", seq)
        line.raw("t", String(decoding: Array(time), as: UTF8.self))
        if waits > 0 {
            line.field("waits", waits)
        }
        return line.finished()
    }
}

extension KeyframeLine {
    /// The keyframe line after step `seq`, from its parts as JSON texts: declarations, keyed
    /// value entries, edges, subscriptions and location declarations.
    package static func line(seq: Int, atoms: [String], values: [String], edges: [String], subs: [String], locs: [String]) -> String {
        var line = JSONLine()
        line.field("type", "keyframe")
        line.field("seq", seq)
        line.raw("atoms", "[" + atoms.joined(separator: ",") + "]")
        line.raw("values", "[" + values.joined(separator: ",") + "]")
        line.raw("edges", "[" + edges.joined(separator: ",") + "]")
        line.raw("subs", "[" + subs.joined(separator: ",") + "]")
        line.raw("locs", "[" + locs.joined(separator: ",") + "]")
        return line.finished()
    }
}

extension TransactionLine {
    /// The start of a transaction line, `[seq,t,"cause",origin,at,[`; `time` is the time's
    /// JSON number.
    ///
    /// This writer, ``appendWhole(id:json:to:)`` and ``appendDelta(id:delta:to:)`` take arrays,
    /// not any sequence of bytes: the recorder calls them on every transaction from another
    /// module, where a generic parameter goes through protocol witnesses that cost more than
    /// the line itself.
    package static func appendEnvelope(seq: Int, time: [UInt8], cause: String, origin: Int, at location: Int, to line: inout [UInt8]) {
        line.append(UInt8(ascii: "["))
        line.appendDecimal(seq)
        line.append(UInt8(ascii: ","))
        line.append(contentsOf: time)
        line.append(UInt8(ascii: ","))
        line.appendJSONString(cause)
        line.append(UInt8(ascii: ","))
        line.appendDecimal(origin)
        line.append(UInt8(ascii: ","))
        line.appendDecimal(location)
        line.append(UInt8(ascii: ","))
        line.append(UInt8(ascii: "["))
    }

    /// Appends bytes through their contiguous storage when they have one (arrays, slices,
    /// buffers): the recorder calls these writers on every transaction from another module,
    /// where a generic `append(contentsOf:)` costs more than the line itself.
    private static func appendBytes(_ bytes: some Sequence<UInt8>, to output: inout [UInt8]) {
        let appended: Void? = bytes.withContiguousStorageIfAvailable { output.append(contentsOf: $0) }
        if appended == nil {
            output.append(contentsOf: bytes)
        }
    }

    /// `[id,"v",json]`: a whole value.
    package static func appendWhole(id: Int, json: [UInt8], to output: inout [UInt8]) {
        appendEntry(id: id, kind: UInt8(ascii: "v"), payload: json, to: &output)
    }

    /// `{"id":N,fields}`: a keyed entry, for values that are not plain JSON.
    package static func appendKeyed(id: Int, fields: some Sequence<UInt8>, to output: inout [UInt8]) {
        output.append(contentsOf: #"{"id":"#.utf8)
        output.appendDecimal(id)
        output.append(UInt8(ascii: ","))
        appendBytes(fields, to: &output)
        output.append(UInt8(ascii: "}"))
    }

    /// `[id,"d",delta]`: a change to the previous value.
    package static func appendDelta(id: Int, delta: [UInt8], to output: inout [UInt8]) {
        appendEntry(id: id, kind: UInt8(ascii: "d"), payload: delta, to: &output)
    }

    /// `[id,"kind",payload]`.
    private static func appendEntry(id: Int, kind: UInt8, payload: [UInt8], to output: inout [UInt8]) {
        output.append(UInt8(ascii: "["))
        output.appendDecimal(id)
        output.append(UInt8(ascii: ","))
        output.append(UInt8(ascii: "\""))
        output.append(kind)
        output.append(UInt8(ascii: "\""))
        output.append(UInt8(ascii: ","))
        output.append(contentsOf: payload)
        output.append(UInt8(ascii: "]"))
    }

    /// `[id,"="]`: a value equal to the previous one.
    package static func appendUnchanged(id: Int, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "["))
        output.appendDecimal(id)
        output.append(contentsOf: #","="]"#.utf8)
    }
}

extension EdgeEntry {
    /// The edge as the recorder writes it: `{"from":…,"to":…}`.
    package var json: String {
        "{\"from\":\(from),\"to\":\(to)}"
    }

    /// The order a keyframe lists edges in: by source, then target.
    package static func precedes(_ lhs: EdgeEntry, _ rhs: EdgeEntry) -> Bool {
        (lhs.from, lhs.to) < (rhs.from, rhs.to)
    }
}

extension SubscriptionEntry {
    /// The subscription as a keyframe lists it: `{"atom":…,"at":…}`.
    package var json: String {
        "{\"atom\":\(atom),\"at\":\(JSONLine.quoted(at))}"
    }

    /// The order a keyframe lists subscriptions in: by atom, then location.
    package static func precedes(_ lhs: SubscriptionEntry, _ rhs: SubscriptionEntry) -> Bool {
        (lhs.atom, lhs.at) < (rhs.atom, rhs.at)
    }
}
