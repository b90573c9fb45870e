#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A transaction line of format 2 and later, read with ``JSONScanner``:
/// `[seq, t, cause, origin, at, [values], graph changes]`, the last element only when the
/// graph changed: an object before format 4.4, positional lists from it (``PositionalGraph``).
/// `origin` and `at` are numbers, 0 for none.
///
/// Value payloads are kept as byte ranges of the line and parsed only for the atoms a caller
/// asks for, so listing transactions never decodes a value.
package struct TransactionLine {
    var seq: Int
    var t: Double
    /// The time's bytes, as written.
    var timeText: Range<Int> = 0..<0
    var cause: String
    var origin: Int
    var at: Int
    var values: [Value]
    /// The graph changes, when present: read with the envelope, since what is wrong in them
    /// makes the line malformed for every reader, `stats` included.
    var graph: GraphChanges?

    /// One value entry, not yet decoded.
    struct Value {
        enum Kind {
            /// `[id, "v", json]`: the whole value.
            case whole
            /// `[id, "p", {members}, [unset]]` (format 2): members replaced, members removed.
            case patch(unset: Range<Int>?)
            /// `[id, "d", delta]` (format 3): a ``ValueDelta``.
            case delta
            /// `[id, "="]` (format 3): written, equal to the previous value.
            case unchanged
            /// `{"id": N, …}`: a keyed ``ValueEntry``.
            case keyed
        }

        var id: Int
        var kind: Kind
        /// The payload: the JSON, patch or delta; the whole object for a keyed entry.
        var range: Range<Int>
    }

    /// The graph changes of a compact transaction, named as in format 1.
    struct GraphChanges {
        var declare: [Declaration]?
        var created: [Int]?
        var released: [Int]?
        var edgesAdded: [EdgeEntry]?
        var edgesRemoved: [EdgeEntry]?
        var subsAdded: [Subscription]?
        var subsRemoved: [Subscription]?
    }

    /// A name a line refers to: by the number of a location line (format 4.2 on for
    /// subscribers' locations, 4.4 for declarations' types) or spelled out.
    enum Reference: Equatable {
        /// `"loc":N`, or a number in a positional list.
        case number(Int)
        /// The text itself (`"at":"fileID:line"`, `"type":"App.UserAtom"`).
        case spelled(String)
    }

    /// An atom declaration as a line writes it: whole (an object, before 4.4) or positional
    /// (4.4 on: its type by number, its label left out when the type's name gives it).
    /// ``record(bytes:locations:decoding:)`` resolves it to an ``AtomDeclaration``.
    struct Declaration: Equatable {
        var id: Int
        var type: Reference
        /// `nil`: the label ``AtomDeclaration/label(ofType:scope:)`` gives.
        var label: String?
        var key: String?
        var scope: Int?
    }

    /// A subscription as a transaction's graph changes name it: the subscriber's location by
    /// number (format 4.2 on, declared by a location line as write sites are) or spelled out
    /// (earlier formats). ``record(bytes:locations:decoding:)`` resolves the number.
    struct Subscription: Equatable {
        typealias Location = Reference

        var atom: Int
        var location: Location
    }

    /// The location numbers the line refers to, in the order they are checked: its write
    /// site, then each added and each removed subscription's, then each declared type's.
    /// Every reader resolves them in this order, so the first one undeclared is the one an
    /// error names.
    var locationReferences: [Int] {
        var numbers = at == 0 ? [] : [at]
        for subscription in (graph?.subsAdded ?? []) + (graph?.subsRemoved ?? []) {
            if case .number(let number) = subscription.location { numbers.append(number) }
        }
        for declaration in graph?.declare ?? [] {
            if case .number(let number) = declaration.type { numbers.append(number) }
        }
        return numbers
    }

    /// Scans a whole line.
    ///
    /// - Throws: A description of what is malformed.
    init(bytes: UnsafeRawBufferPointer, range: Range<Int>, version: Int) throws {
        var scanner = JSONScanner(bytes, range: range)
        var fields: (seq: Int, t: Double, cause: String, origin: Int, at: Int) = (0, 0, "", 0, 0)
        var values: [Value] = []
        var graph: GraphChanges?
        var timeRange = 0..<0
        var index = 0
        try scanner.forEachElement { scanner throws(JSONScanner.SyntaxError) in
            defer { index += 1 }
            switch index {
            case 0: fields.seq = try scanner.integer()
            case 1:
                let start = scanner.position
                fields.t = try scanner.double()
                timeRange = start..<scanner.position
            case 2: fields.cause = try scanner.string()
            case 3: fields.origin = try scanner.integer()
            case 4: fields.at = try scanner.integer()
            case 5:
                try scanner.forEachElement { scanner throws(JSONScanner.SyntaxError) in
                    values.append(try Self.value(&scanner, version: version))
                }
            case 6:
                switch scanner.peek() {
                case UInt8(ascii: "{"): graph = try GraphChanges(scanning: &scanner)
                // Format 4.4's positional form; read in any minor version of 4, as it cannot be
                // mistaken for the object.
                case UInt8(ascii: "[") where version >= 4: graph = try GraphChanges(scanningPositional: &scanner)
                default: throw scanner.error("the graph changes must be an object or an array")
                }
            default:
                // Later minor versions may add trailing elements.
                try scanner.skipValue()
            }
        }
        try scanner.expectEnd()
        guard index >= 6 else {
            throw JSONScanner.SyntaxError(offset: range.upperBound, message: "a transaction has at least six elements")
        }
        seq = fields.seq
        t = fields.t
        timeText = timeRange
        cause = fields.cause
        origin = fields.origin
        at = fields.at
        self.values = values
        self.graph = graph
    }

    private static func value(_ scanner: inout JSONScanner, version: Int) throws(JSONScanner.SyntaxError) -> Value {
        if scanner.peek() == UInt8(ascii: "{") {
            let start = scanner.position
            var id: Int?
            try scanner.forEachMember { key, scanner throws(JSONScanner.SyntaxError) in
                if key == "id" {
                    id = try scanner.integer()
                } else {
                    try scanner.skipValue()
                }
            }
            guard let id else { throw scanner.error("a value entry has no id") }
            return Value(id: id, kind: .keyed, range: start..<scanner.position)
        }
        var id = 0
        var kind = Value.Kind.whole
        var payload = 0..<0
        var index = 0
        try scanner.forEachElement { scanner throws(JSONScanner.SyntaxError) in
            defer { index += 1 }
            switch index {
            case 0:
                id = try scanner.integer()
            case 1:
                let name = try scanner.string()
                switch (name, version) {
                case ("v", _): kind = .whole
                case ("p", 2): kind = .patch(unset: nil)
                case ("d", 3...): kind = .delta
                case ("=", 3...): kind = .unchanged
                default: throw scanner.error("unknown value entry kind \(name.debugDescription)")
                }
            case 2:
                payload = try scanner.skipValue()
            case 3:
                guard case .patch = kind, scanner.peek() == UInt8(ascii: "[") else {
                    throw scanner.error("a value entry has too many elements")
                }
                kind = .patch(unset: try scanner.skipValue())
            default:
                throw scanner.error("a value entry has too many elements")
            }
        }
        let expected = if case .unchanged = kind { 2 } else if case .patch(let unset) = kind, unset != nil { 4 } else { 3 }
        guard index == expected else {
            throw scanner.error("a value entry has \(index) elements")
        }
        return Value(id: id, kind: kind, range: payload)
    }

    /// The transaction as a format 1 record, with its write site's, its subscriptions' and its
    /// declared types' location numbers looked up in `locations` (``locationReferences``, in
    /// that order). Only the
    /// values of atoms `decoding` accepts are decoded; the others carry only their `id`.
    func record(bytes: UnsafeRawBufferPointer, locations: [Int: String], decoding: (Int) -> Bool) throws -> TransactionRecord {
        var none = RecordedDeltaBytes()
        return try record(bytes: bytes, locations: locations, decoding: decoding, keepingDeltaBytesOf: { _ in false }, into: &none)
    }

    /// ``record(bytes:locations:decoding:)``, keeping the delta of each atom `keep` accepts as
    /// its bytes in `kept` instead of parsing it: its entry's `delta` is `null` in the record,
    /// a placeholder no journal writes (a delta is an array).
    func record(
        bytes: UnsafeRawBufferPointer, locations: [Int: String], decoding: (Int) -> Bool, keepingDeltaBytesOf keep: (Int) -> Bool,
        into kept: inout RecordedDeltaBytes
    ) throws -> TransactionRecord {
        func resolve(_ number: Int) throws -> String {
            guard let known = locations[number] else {
                throw LineScanner.Problem("refers to location \(number), which no earlier line declares")
            }
            return known
        }
        let location = at == 0 ? nil : try resolve(at)
        func resolved(_ subscriptions: [Subscription]?) throws -> [SubscriptionEntry]? {
            try subscriptions?.map { subscription in
                switch subscription.location {
                case .number(let number): SubscriptionEntry(atom: subscription.atom, at: try resolve(number))
                case .spelled(let at): SubscriptionEntry(atom: subscription.atom, at: at)
                }
            }
        }
        let subsAdded = try resolved(graph?.subsAdded)
        let subsRemoved = try resolved(graph?.subsRemoved)
        let declare = try graph?.declare?.map { declaration in
            let type = switch declaration.type {
            case .number(let number): try resolve(number)
            case .spelled(let type): type
            }
            return AtomDeclaration(
                id: declaration.id, label: declaration.label ?? AtomDeclaration.label(ofType: type, scope: declaration.scope), type: type,
                key: declaration.key, scope: declaration.scope
            )
        }
        var entries: [ValueEntry] = []
        entries.reserveCapacity(values.count)
        for value in values {
            guard decoding(value.id) else {
                // An equal write stays recognizable without decoding (blame skips it).
                let unchanged: Bool? = if case .unchanged = value.kind { true } else { nil }
                entries.append(ValueEntry(id: value.id, unchanged: unchanged))
                continue
            }
            if case .delta = value.kind, keep(value.id) {
                kept.append(id: value.id, from: bytes, range: value.range)
                entries.append(ValueEntry(id: value.id, delta: .null))
                continue
            }
            entries.append(try value.entry(in: bytes))
        }
        return TransactionRecord(
            type: "tx", seq: seq, t: t, cause: cause, origin: origin == 0 ? nil : origin, at: location,
            declare: declare, values: entries.isEmpty ? nil : entries, created: graph?.created,
            released: graph?.released, edgesAdded: graph?.edgesAdded, edgesRemoved: graph?.edgesRemoved,
            subsAdded: subsAdded, subsRemoved: subsRemoved
        )
    }
}

extension TransactionLine.Value {
    /// The decoded entry.
    func entry(in bytes: UnsafeRawBufferPointer) throws -> ValueEntry {
        func parse(_ range: Range<Int>) throws -> JSONValue {
            var scanner = JSONScanner(bytes, range: range)
            return try scanner.value()
        }
        switch kind {
        case .whole:
            return ValueEntry(id: id, v: try parse(range))
        case .delta:
            return ValueEntry(id: id, delta: try parse(range))
        case .unchanged:
            return ValueEntry(id: id, unchanged: true)
        case .patch(let unset):
            guard case .object(let members) = try parse(range) else {
                throw JSONScanner.SyntaxError(offset: range.lowerBound, message: "a patch must be an object")
            }
            var names: [String]?
            if let unset {
                guard case .array(let elements) = try parse(unset) else {
                    throw JSONScanner.SyntaxError(offset: unset.lowerBound, message: "removed members must be an array")
                }
                names = try elements.map { element in
                    guard case .string(let name) = element else {
                        throw JSONScanner.SyntaxError(offset: unset.lowerBound, message: "a removed member must be a string")
                    }
                    return name
                }
            }
            return ValueEntry(id: id, patch: members, unset: names)
        case .keyed:
            return try ValueEntry(json: try parse(range))
        }
    }
}

extension ValueEntry {
    /// An entry from its JSON object (`{"id":N,"v":…}`), read without `JSONDecoder`.
    init(json: JSONValue) throws {
        guard case .object(let members) = json, let id = members["id"]?.integer else {
            throw JSONScanner.SyntaxError(offset: 0, message: "a value entry must be an object with an id")
        }
        func string(_ key: String) throws -> String? {
            switch members[key] {
            case nil: return nil
            case .string(let text)?: return text
            default: throw JSONScanner.SyntaxError(offset: 0, message: "field \"\(key)\" must be a string")
            }
        }
        func bool(_ key: String) throws -> Bool? {
            switch members[key] {
            case nil: return nil
            case .bool(let flag)?: return flag
            default: throw JSONScanner.SyntaxError(offset: 0, message: "field \"\(key)\" must be true or false")
            }
        }
        self.init(
            id: id, v: members["v"], dump: try string("dump"), redacted: try bool("redacted"),
            phase: try string("phase"), norestore: try bool("norestore"), error: try string("error")
        )
    }
}
