#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A transaction's graph changes as format 4.4 writes them: an array of up to four lists,
/// `[lifecycle, subscriptions, edges, declare]`, the empty ones at the end left out. They come
/// in the order a session whose atoms come and go needs them: showing a family member
/// creates, declares and subscribes; hiding it releases and unsubscribes.
///
/// - `lifecycle`: the atoms created and released, in order: a number is an atom created (and
///   declared before), a number negated an atom released, and a declaration an atom declared
///   and created here.
/// - `subscriptions`: pairs `atom, location` in one list; a removed subscription has its
///   location negated.
/// - `edges`: pairs `from, to` in one list; a removed edge has its `to` negated.
/// - `declare`: the atoms declared here but not created here (an atom an edge, a value or a
///   release refers to after a keyframe left it out).
///
/// A declaration is `[id, type]`, `[id, type, key]`, `[id, type, key, label]` or
/// `[id, type, key, label, scope]` (`null` for a key or label left out before a later element);
/// `type` is the number of a location line that spells the type's name, so a family's type is
/// written once and each member only by its key; the label is left out when it is the one the
/// type's name gives (``AtomDeclaration/label(ofType:scope:)``).
///
/// Added edges and subscriptions come before removed ones, as in the object form of earlier
/// versions, and declarations are read back in the order of their numbers (the order a
/// recorder gives them), so a line reads to the same record in either form.
package struct PositionalGraph {
    /// One declaration: its type by number, its label only where the type's name does not
    /// give it.
    package struct Declaration: Equatable {
        /// The atom's number.
        package var id: Int
        /// The number of the location line that spells the atom's type.
        package var type: Int
        /// The key of an atom-family member.
        package var key: String?
        /// The label, when the type's name does not give it.
        package var label: String?
        /// The scope the atom is stored in.
        package var scope: Int?

        /// A declaration with every part given.
        package init(id: Int, type: Int, key: String?, label: String?, scope: Int?) {
            self.id = id
            self.type = type
            self.key = key
            self.label = label
            self.scope = scope
        }

        /// `declaration` as a writer writes it, its type by the number `type`: its label left
        /// out when its type's name gives it (``AtomDeclaration/label(ofType:scope:)``).
        package init(_ declaration: AtomDeclaration, type: Int) {
            let derived = AtomDeclaration.label(ofType: declaration.type, scope: declaration.scope)
            self.init(
                id: declaration.id, type: type, key: declaration.key, label: declaration.label == derived ? nil : declaration.label,
                scope: declaration.scope
            )
        }
    }

    /// The atoms declared, in the order of their numbers.
    package var declare: [Declaration] = []
    /// The atoms created, in order.
    package var created: [Int] = []
    /// The atoms released, in order.
    package var released: [Int] = []
    /// The dependency edges added.
    package var edgesAdded: [EdgeEntry] = []
    /// The dependency edges removed.
    package var edgesRemoved: [EdgeEntry] = []
    /// Subscriptions added: atoms and their subscribers' location numbers.
    package var subsAdded: [(atom: Int, location: Int)] = []
    /// Subscriptions removed, as `subsAdded`.
    package var subsRemoved: [(atom: Int, location: Int)] = []

    /// No changes.
    package init() {}

    /// Whether the graph did not change.
    package var isEmpty: Bool {
        declare.isEmpty && created.isEmpty && released.isEmpty && edgesAdded.isEmpty && edgesRemoved.isEmpty
            && subsAdded.isEmpty && subsRemoved.isEmpty
    }

    // MARK: Writing

    /// Appends the array, without a leading comma. Lists before the last non-empty one are
    /// written even when empty (`[]`): they are placed by position.
    package func append(to output: inout [UInt8]) {
        // A recorder's numbers are positive and each created atom is declared once; a record
        // read from a damaged journal (written again by a replay) is written without a trap:
        // its last declaration of a created atom in place of the atom's first creation.
        let createdIDs = Set(created)
        var declaredHere = Dictionary(declare.filter { createdIDs.contains($0.id) }.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        let declaredOnly = declare.filter { !createdIDs.contains($0.id) }
        let present = [
            !created.isEmpty || !released.isEmpty, !subsAdded.isEmpty || !subsRemoved.isEmpty,
            !edgesAdded.isEmpty || !edgesRemoved.isEmpty, !declaredOnly.isEmpty,
        ]
        let count = (present.lastIndex(of: true) ?? -1) + 1
        output.append(UInt8(ascii: "["))
        for position in 0..<count {
            if position > 0 { output.append(UInt8(ascii: ",")) }
            switch position {
            case 0:
                Self.appendList(created.map { ($0, true) } + released.map { ($0, false) }, to: &output) { change, output in
                    if change.1, let declaration = declaredHere.removeValue(forKey: change.0) {
                        declaration.append(to: &output)
                    } else {
                        output.appendDecimal(change.1 ? change.0 : 0 &- change.0)
                    }
                }
            case 1:
                Self.appendPairs(subsAdded.map { ($0.atom, $0.location) } + subsRemoved.map { ($0.atom, 0 &- $0.location) }, to: &output)
            case 2:
                Self.appendPairs(edgesAdded.map { ($0.from, $0.to) } + edgesRemoved.map { ($0.from, 0 &- $0.to) }, to: &output)
            default:
                Self.appendList(declaredOnly, to: &output) { declaration, output in declaration.append(to: &output) }
            }
        }
        output.append(UInt8(ascii: "]"))
    }

    private static func appendList<Element>(_ elements: [Element], to output: inout [UInt8], _ append: (Element, inout [UInt8]) -> Void) {
        output.append(UInt8(ascii: "["))
        for (index, element) in elements.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            append(element, &output)
        }
        output.append(UInt8(ascii: "]"))
    }

    private static func appendPairs(_ pairs: [(Int, Int)], to output: inout [UInt8]) {
        output.append(UInt8(ascii: "["))
        for (index, pair) in pairs.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            output.appendDecimal(pair.0)
            output.append(UInt8(ascii: ","))
            output.appendDecimal(pair.1)
        }
        output.append(UInt8(ascii: "]"))
    }
}

extension PositionalGraph.Declaration {
    /// `[id,type]`, then the key, label and scope as far as the last one present.
    func append(to output: inout [UInt8]) {
        output.append(UInt8(ascii: "["))
        output.appendDecimal(id)
        output.append(UInt8(ascii: ","))
        output.appendDecimal(type)
        let count = scope != nil ? 3 : label != nil ? 2 : key != nil ? 1 : 0
        if count >= 1 { appendOptional(key, to: &output) }
        if count >= 2 { appendOptional(label, to: &output) }
        if count >= 3, let scope {
            output.append(UInt8(ascii: ","))
            output.appendDecimal(scope)
        }
        output.append(UInt8(ascii: "]"))
    }

    private func appendOptional(_ text: String?, to output: inout [UInt8]) {
        output.append(UInt8(ascii: ","))
        if let text {
            output.appendJSONString(text)
        } else {
            output.append(contentsOf: "null".utf8)
        }
    }
}

// MARK: Reading

extension TransactionLine.GraphChanges {
    /// Reads the graph changes array of a format 4.4 transaction; the declarations' types
    /// stay numbers until ``TransactionLine/record(bytes:locations:decoding:)`` resolves them.
    init(scanningPositional scanner: inout JSONScanner) throws(JSONScanner.SyntaxError) {
        var changes = Self()
        var declared: [TransactionLine.Declaration] = []
        var created: [Int] = [], released: [Int] = []
        var edgesAdded: [EdgeEntry] = [], edgesRemoved: [EdgeEntry] = []
        var subsAdded: [TransactionLine.Subscription] = [], subsRemoved: [TransactionLine.Subscription] = []
        var position = 0
        try scanner.forEachElement { scanner throws(JSONScanner.SyntaxError) in
            defer { position += 1 }
            switch position {
            case 0:
                try scanner.forEachElement { scanner throws(JSONScanner.SyntaxError) in
                    if scanner.peek() == UInt8(ascii: "[") {
                        let declaration = try scanner.positionalDeclaration()
                        declared.append(declaration)
                        created.append(declaration.id)
                        return
                    }
                    let number = try scanner.integer()
                    guard number != 0, number != .min else { throw scanner.error("atom \(number) is created or released") }
                    if number > 0 {
                        created.append(number)
                    } else {
                        released.append(-number)
                    }
                }
            case 1:
                try scanner.forEachPair(what: "subscriptions") { atom, location, scanner throws(JSONScanner.SyntaxError) in
                    guard atom > 0, location != 0, location != .min else {
                        throw scanner.error("a subscription refers to atom \(atom) or location \(location)")
                    }
                    let subscription = TransactionLine.Subscription(atom: atom, location: .number(abs(location)))
                    if location > 0 {
                        subsAdded.append(subscription)
                    } else {
                        subsRemoved.append(subscription)
                    }
                }
            case 2:
                try scanner.forEachPair(what: "edges") { from, to, scanner throws(JSONScanner.SyntaxError) in
                    guard from > 0, to != 0, to != .min else { throw scanner.error("an edge refers to atom \(from) or \(to)") }
                    if to > 0 {
                        edgesAdded.append(EdgeEntry(from: from, to: to))
                    } else {
                        edgesRemoved.append(EdgeEntry(from: from, to: -to))
                    }
                }
            case 3:
                declared += try scanner.array { scanner throws(JSONScanner.SyntaxError) in try scanner.positionalDeclaration() }
            default:
                // Later minor versions may add lists.
                try scanner.skipValue()
            }
        }
        // Absent lists stay `nil`, as the object form's absent members do.
        func present<Element>(_ elements: [Element]) -> [Element]? { elements.isEmpty ? nil : elements }
        (changes.created, changes.released) = (present(created), present(released))
        (changes.edgesAdded, changes.edgesRemoved) = (present(edgesAdded), present(edgesRemoved))
        (changes.subsAdded, changes.subsRemoved) = (present(subsAdded), present(subsRemoved))
        if !declared.isEmpty {
            // In the order of their numbers, which is the order a recorder declared them in.
            changes.declare = declared.enumerated().sorted { ($0.element.id, $0.offset) < ($1.element.id, $1.offset) }.map(\.element)
        }
        self = changes
    }
}

extension JSONScanner {
    /// Reads a positional declaration (format 4.4).
    mutating func positionalDeclaration() throws(SyntaxError) -> TransactionLine.Declaration {
        var id = 0, type = 0, key: String?, label: String?, scope: Int?
        var index = 0
        try forEachElement { scanner throws(SyntaxError) in
            defer { index += 1 }
            switch index {
            case 0: id = try scanner.integer()
            case 1: type = try scanner.integer()
            case 2: key = try scanner.optional { scanner throws(SyntaxError) in try scanner.string() }
            case 3: label = try scanner.optional { scanner throws(SyntaxError) in try scanner.string() }
            case 4: scope = try scanner.optional { scanner throws(SyntaxError) in try scanner.integer() }
            default: throw scanner.error("a declaration has more than five elements")
            }
        }
        guard index >= 2 else { throw error("a declaration has no type") }
        guard id > 0, type > 0 else { throw error("a declaration names atom \(id) or type \(type)") }
        return TransactionLine.Declaration(id: id, type: .number(type), label: label, key: key, scope: scope)
    }

    /// Reads a list of integers taken two at a time, handing each pair to `body`.
    mutating func forEachPair(what: String, _ body: (Int, Int, inout JSONScanner) throws(SyntaxError) -> Void) throws(SyntaxError) {
        var first: Int?
        try forEachElement { scanner throws(SyntaxError) in
            let number = try scanner.integer()
            if let pending = first {
                first = nil
                try body(pending, number, &scanner)
            } else {
                first = number
            }
        }
        guard first == nil else { throw error("the \(what) list has an odd number of elements") }
    }
}

extension AtomDeclaration {
    /// The label a type's module-qualified name gives, as `String(describing:)` prints most
    /// types: every name (a run of ASCII letters, digits, `_`, bytes of non-ASCII scalars and
    /// dots) shortened to its part after its last dot (`Atoms.ModifiedAtom<App.QueryAtom,
    /// Swift.Int>` gives `ModifiedAtom<QueryAtom, Int>`), then ` scope:<scope>` for a scoped
    /// atom. The recorder leaves a declaration's label out only when it is this one.
    package static func label(ofType type: String, scope: Int?) -> String {
        // Over the UTF-8 bytes: every reader of a 4.4 journal derives a label per declaration.
        // A name is a run of identifier bytes and dots (any byte of a non-ASCII scalar counts
        // as an identifier byte); only its part after the last dot is kept.
        var label: [UInt8] = []
        label.reserveCapacity(type.utf8.count)
        var partStart = 0
        for byte in type.utf8 {
            let isNamePart = byte >= 0x80 || byte == UInt8(ascii: "_") || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            if isNamePart {
                label.append(byte)
            } else if byte == UInt8(ascii: ".") {
                label.removeSubrange(partStart...)
            } else {
                label.append(byte)
                partStart = label.count
            }
        }
        let text = String(decoding: label, as: UTF8.self)
        return scope.map { "\(text) scope:\($0)" } ?? text
    }
}
