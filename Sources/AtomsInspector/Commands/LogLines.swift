import AtomsJournalReader

/// The names `log` prints, kept current as transactions declare atoms, with each name's
/// bytes (as text and as a JSON string) made once.
struct LogNames {
    private(set) var naming: Naming
    private let pattern: String?
    /// The atoms `--atom` selects (`nil` without it).
    private(set) var selected: Set<Int>?
    /// Names by atom number, as text and as JSON strings, made when first printed: by index
    /// for numbers below ``tableLimit`` (no hashing per atom printed), else by number.
    private var textNames: [[UInt8]?] = []
    private var jsonNames: [[UInt8]?] = []
    private var otherNames: [Int: (text: [UInt8], json: [UInt8])] = [:]
    private static let tableLimit = 1 << 16

    /// With `--atom`: the identities it selects, and every number of each identity declared.
    private var selectedIdentities: Set<String> = []
    private var numbersByIdentity: [String: [Int]] = [:]

    init(declarations: [Int: AtomDeclaration], pattern: String?) {
        naming = Naming(declarations: declarations)
        self.pattern = pattern
        selectAgain()
    }

    /// `--atom`'s selection from every declaration (``AtomSelection``'s rule: every number
    /// of an identity a declaration matching the pattern has).
    private mutating func selectAgain() {
        guard let pattern else { return }
        let glob = Glob(pattern)
        selectedIdentities = Set(naming.declarations.values.filter(glob.matches).map(\.identityKey))
        numbersByIdentity = Dictionary(grouping: naming.declarations.values, by: \.identityKey).mapValues { $0.map(\.id) }
        selected = Set(selectedIdentities.flatMap { numbersByIdentity[$0] ?? [] })
    }

    /// Takes the atoms a transaction declares. A number is never reused, so only the new
    /// numbers' names change, and `--atom` selects a new number when its identity is selected
    /// or its declaration matches (then with every number of its identity): a session whose
    /// atoms come and go declares every few steps, and going over every declaration each time
    /// made `log` quadratic. A damaged journal that declares a number again (here or before)
    /// is selected anew.
    mutating func declare(_ declared: [AtomDeclaration]) {
        let numberReused = declared.contains { naming.declarations[$0.id] != nil } || Set(declared.map(\.id)).count != declared.count
        naming.declare(declared)
        if let pattern {
            if numberReused {
                selectAgain()
            } else {
                let glob = Glob(pattern)
                for atom in declared {
                    let identity = atom.identityKey
                    numbersByIdentity[identity, default: []].append(atom.id)
                    if glob.matches(atom), selectedIdentities.insert(identity).inserted {
                        selected?.formUnion(numbersByIdentity[identity] ?? [])
                    } else if selectedIdentities.contains(identity) {
                        selected?.insert(atom.id)
                    }
                }
            }
        }
        for atom in declared {
            if atom.id >= 0, atom.id < textNames.count { textNames[atom.id] = nil }
            if atom.id >= 0, atom.id < jsonNames.count { jsonNames[atom.id] = nil }
            otherNames[atom.id] = nil
        }
    }

    /// Whether `--atom` selects the atom (every atom without it).
    func isSelected(_ id: Int) -> Bool {
        selected?.contains(id) ?? true
    }

    /// An atom's name as ``Naming/name(_:)`` gives it, as bytes.
    mutating func text(_ id: Int) -> [UInt8] {
        if id >= 0, id < textNames.count, let known = textNames[id] { return known }
        return made(id).text
    }

    /// An atom's name as the JSON string `--json` prints.
    mutating func json(_ id: Int) -> [UInt8] {
        if id >= 0, id < jsonNames.count, let known = jsonNames[id] { return known }
        return made(id).json
    }

    /// Makes an atom's name bytes and keeps them.
    private mutating func made(_ id: Int) -> (text: [UInt8], json: [UInt8]) {
        if let known = otherNames[id] { return known }
        let name = naming.name(id)
        let made = (Array(name.utf8), Array(JSONOutput.encodeLine(name).utf8))
        guard id >= 0, id < Self.tableLimit else {
            otherNames[id] = made
            return made
        }
        if id >= textNames.count {
            textNames += [[UInt8]?](repeating: nil, count: id + 1 - textNames.count)
            jsonNames += [[UInt8]?](repeating: nil, count: id + 1 - jsonNames.count)
        }
        textNames[id] = made.0
        jsonNames[id] = made.1
        return made
    }

    /// The entry of a listed envelope (a line in the common shape creates and releases nothing).
    func entry(of envelope: ListedEnvelope) -> LogCommand.Entry {
        LogCommand.Entry(
            step: envelope.seq,
            t: Double(String(decoding: envelope.time, as: UTF8.self)) ?? 0,
            cause: String(decoding: envelope.cause, as: UTF8.self),
            origin: envelope.origin == 0 ? nil : naming.name(envelope.origin),
            at: envelope.location,
            changed: envelope.atoms.indices.filter { !envelope.isEqualWrite(at: $0) }.map { naming.name(envelope.atoms[$0]) },
            equal: envelope.atoms.indices.filter { envelope.isEqualWrite(at: $0) }.map { naming.name(envelope.atoms[$0]) },
            created: [],
            released: []
        )
    }
}

/// `log`'s output as bytes, built line by line from envelopes in place.
struct LogBytes {
    private var buffer = OutputBytes(capacity: LogBytes.blockSize + 4096)
    /// The last cause and location printed as JSON, and their JSON strings.
    private var cause: (bytes: [UInt8], json: [UInt8]) = ([], [])
    private var location: (id: Int, json: [UInt8]) = (0, [])

    /// Bytes handed over at a time.
    static let blockSize = 64 << 10

    /// Frees the buffer (after the last ``drain(_:)``).
    mutating func free() {
        buffer.free()
    }

    /// Hands the bytes to `chunk` when a block is full.
    mutating func drainIfFull(_ chunk: (UnsafeRawBufferPointer) -> Void) {
        if buffer.count >= Self.blockSize { drain(chunk) }
    }

    /// Hands every byte to `chunk`.
    mutating func drain(_ chunk: (UnsafeRawBufferPointer) -> Void) {
        guard buffer.count > 0 else { return }
        chunk(buffer.bytes)
        buffer.count = 0
    }

    /// Appends a string's UTF-8.
    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { buffer.append(UnsafeRawBufferPointer($0)) }
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(bytes)
    }

    private mutating func spaces(_ count: Int) {
        buffer.append(repeating: 0x20, count: count)
    }

    private mutating func paint(_ code: StaticString, _ style: Style, _ body: (inout LogBytes) -> Void) {
        guard style.isColored else { return body(&self) }
        buffer.append(0x1B)
        buffer.append(UInt8(ascii: "["))
        code.withUTF8Buffer { buffer.append(UnsafeRawBufferPointer($0)) }
        buffer.append(UInt8(ascii: "m"))
        body(&self)
        append("\u{1B}[0m")
    }

    /// A decimal integer, right-aligned in `width` columns.
    private mutating func integer(_ value: Int, width: Int = 0) {
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        let count = withUnsafeMutableBytes(of: &digits) { raw -> Int in
            var magnitude = value.magnitude
            var index = raw.count
            repeat {
                index -= 1
                raw[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                index -= 1
                raw[index] = UInt8(ascii: "-")
            }
            return raw.count - index
        }
        spaces(width - count)
        withUnsafeBytes(of: &digits) { buffer.append(UnsafeRawBufferPointer(rebasing: $0[($0.count - count)...])) }
    }

    /// The text line of an envelope, as ``LogCommand/text(of:style:)`` writes its entry
    /// (without the newline).
    mutating func appendText(_ envelope: ListedEnvelope, names: inout LogNames, style: Style) {
        paint("1", style) { $0.integer(envelope.seq, width: 5) }
        buffer.append(0x20)
        paint("2", style) { out in
            if let (total, negative) = Self.roundedMilliseconds(envelope.time) {
                // `LogCommand.seconds`: whole seconds, a point, three digits of milliseconds.
                let sign = negative && total > 0 ? 1 : 0
                var width = sign + 4
                var whole = total / 1000
                repeat {
                    width += 1
                    whole /= 10
                } while whole > 0
                out.spaces(9 - width)
                if sign == 1 { out.buffer.append(UInt8(ascii: "-")) }
                out.integer(total / 1000)
                out.buffer.append(UInt8(ascii: "."))
                let fraction = total % 1000
                out.buffer.append(UInt8(ascii: "0") + UInt8(fraction / 100))
                out.buffer.append(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
                out.buffer.append(UInt8(ascii: "0") + UInt8(fraction % 10))
            } else {
                let milliseconds = Double(String(decoding: envelope.time, as: UTF8.self)) ?? 0
                out.append(LogCommand.seconds(milliseconds: milliseconds).leftPadded(to: 9))
            }
            out.buffer.append(UInt8(ascii: "s"))
        }
        spaces(2)
        paint("36", style) { out in
            out.append(envelope.cause)
            out.spaces(12 - envelope.cause.count)
        }
        spaces(2)
        if envelope.atoms.isEmpty {
            buffer.append(UInt8(ascii: "-"))
        }
        // As `LogCommand.listedAtoms`: the atoms changed, then those written an equal value.
        var listed = 0
        for pass in 0..<2 {
            // No array literal on this path, which runs once per line.
            let equal = pass == 1
            for (index, id) in envelope.atoms.enumerated() where envelope.isEqualWrite(at: index) == equal {
                if listed > 0 { append(", ") }
                listed += 1
                buffer.append(names.text(id))
                if equal { buffer.append(UInt8(ascii: "=")) }
            }
        }
        if let at = envelope.location {
            spaces(2)
            paint("2", style) { out in
                out.append("@ ")
                out.append(at)
            }
        }
    }

    /// The milliseconds of a time's text rounded as `LogCommand.seconds` rounds them
    /// (`Double.rounded()`, half away from zero), decided on the digits; `nil` when the digits
    /// cannot decide it exactly (more than three decimals, or nine digits before the point),
    /// and the `Double` must.
    static func roundedMilliseconds(_ text: UnsafeRawBufferPointer) -> (total: Int, negative: Bool)? {
        var index = 0
        let negative = text.first == UInt8(ascii: "-")
        if negative { index = 1 }
        var whole = 0
        let wholeStart = index
        while index < text.count, case let digit = text[index] &- 0x30, digit < 10 {
            whole = whole * 10 + Int(digit)
            index += 1
            guard index - wholeStart <= 9 else { return nil }
        }
        guard index > wholeStart else { return nil }
        guard index < text.count else { return (whole, negative) }
        // Below 10^9 with at most three decimals, a value's nearest `Double` is nearer to it
        // than to any other three-decimal value: it rounds as its digits do.
        guard text[index] == UInt8(ascii: "."), text.count - index - 1 <= 3, text.count - index > 1 else { return nil }
        for position in (index + 1)..<text.count where text[position] &- 0x30 >= 10 {
            return nil
        }
        return (whole + (text[index + 1] >= UInt8(ascii: "5") ? 1 : 0), negative)
    }

    /// An entry as `--json` prints it inside the array (pretty-printed, keys sorted, indented
    /// by two), without a newline after its closing brace.
    mutating func appendJSON(_ listed: ListedTransaction, names: inout LogNames) {
        guard case .envelope(let envelope) = listed else {
            if case .record(let record) = listed {
                // Written by the encoder, indented one level deeper.
                let text = JSONOutput.encode(LogCommand.entry(of: record, names: names.naming))
                var first = true
                for line in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
                    if !first { buffer.append(0x0A) }
                    first = false
                    if !line.isEmpty { spaces(2) }
                    for byte in line { buffer.append(byte) }
                }
            }
            return
        }
        append("  {\n")
        if let at = envelope.location {
            if location.id != envelope.locationID || location.json.isEmpty {
                location = (envelope.locationID, Array(JSONOutput.encodeLine(at).utf8))
            }
            append("    \"at\" : ")
            buffer.append(location.json)
            append(",\n")
        }
        if !cause.bytes.elementsEqual(envelope.cause) {
            cause = (Array(envelope.cause), Array(JSONOutput.encodeLine(String(decoding: envelope.cause, as: UTF8.self)).utf8))
        }
        append("    \"cause\" : ")
        buffer.append(cause.json)
        append(",\n    \"changed\" : [\n")
        appendJSONNames(envelope, equal: false, names: &names)
        append("    ],\n    \"created\" : [\n\n    ],\n    \"equal\" : [\n")
        appendJSONNames(envelope, equal: true, names: &names)
        append("    ],\n")
        if envelope.origin != 0 {
            append("    \"origin\" : ")
            buffer.append(names.json(envelope.origin))
            append(",\n")
        }
        append("    \"released\" : [\n\n    ],\n    \"step\" : ")
        integer(envelope.seq)
        append(",\n    \"t\" : ")
        append(Self.jsonNumber(envelope.time))
        append("\n  }")
    }

    /// The names in a JSON array's brackets, as the encoder writes them: the atoms changed, or
    /// those written an equal value.
    private mutating func appendJSONNames(_ envelope: ListedEnvelope, equal: Bool, names: inout LogNames) {
        var listed = 0
        for (index, id) in envelope.atoms.enumerated() where envelope.isEqualWrite(at: index) == equal {
            append(listed > 0 ? ",\n      " : "      ")
            listed += 1
            buffer.append(names.json(id))
        }
        append("\n")
    }

    /// A time as `JSONEncoder` writes the `Double` its text reads as: the shortest text that
    /// reads back as it, without a trailing `.0`; the encoder itself where that text has an
    /// exponent.
    static func jsonNumber(_ text: UnsafeRawBufferPointer) -> String {
        let value = Double(String(decoding: text, as: UTF8.self)) ?? 0
        let description = value.description
        guard value.isFinite, !description.utf8.contains(UInt8(ascii: "e")) else {
            return JSONOutput.encodeLine(value)
        }
        return description.hasSuffix(".0") ? String(description.dropLast(2)) : description
    }
}

/// Bytes appended to memory of its own, freed by ``free()``: `log`'s output block, written a
/// field at a time without the checks an array makes on each append.
struct OutputBytes {
    // Unchecked: `base` holds `capacity` bytes, of which `count` are written; every append
    // grows it first; it is freed once, by `free()`.
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    mutating func free() {
        base.deallocate()
        capacity = 0
        count = 0
    }

    /// The bytes written.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    private mutating func reserve(_ more: Int) {
        guard count + more > capacity else { return }
        let grown = max(2 * capacity, count + more)
        let larger = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
        larger.update(from: base, count: count)
        base.deallocate()
        base = larger
        capacity = grown
    }

    mutating func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    mutating func append(_ raw: UnsafeRawBufferPointer) {
        guard let source = raw.baseAddress, !raw.isEmpty else { return }
        reserve(raw.count)
        UnsafeMutableRawPointer(base + count).copyMemory(from: source, byteCount: raw.count)
        count += raw.count
    }

    mutating func append(_ array: [UInt8]) {
        array.withUnsafeBytes { append($0) }
    }

    mutating func append(repeating byte: UInt8, count repeated: Int) {
        guard repeated > 0 else { return }
        reserve(repeated)
        (base + count).update(repeating: byte, count: repeated)
        count += repeated
    }
}
