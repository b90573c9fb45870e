/// The atoms a journal's lines have declared so far, for the readers that check a line's atom
/// numbers the way reading its state does (``JournalState/apply(_:decoding:)``) without
/// building a state: the summary's scan and `log`'s listing.
///
/// Reading in order, the atoms declared are the first keyframe's and those each transaction
/// declares; a transaction that refers to another atom (a value written, an edge or a
/// subscription added) is damage, named by ``undeclaredMessage(_:)``.
struct DeclaredAtoms {
    /// Atoms numbered below this are kept as bits; the few above (and negative numbers) in a
    /// set, so that a line naming atom 16,000,000 costs an entry, not a table of 2 MB.
    private static let bitLimit = 1 << 20

    private var bits: [UInt64] = []
    private var others: Set<Int> = []

    /// No atom declared.
    init() {}

    /// The atoms of `ids`.
    init(_ ids: some Sequence<Int>) {
        for id in ids { insert(id) }
    }

    /// Whether `id` is declared.
    @inline(__always)
    func contains(_ id: Int) -> Bool {
        let word = UInt(bitPattern: id) >> 6
        if word < UInt(bits.count) {
            return bits[Int(word)] & (1 << UInt64(id & 63)) != 0
        }
        return !others.isEmpty && others.contains(id)
    }

    /// Declares `id`.
    mutating func insert(_ id: Int) {
        guard id >= 0, id < Self.bitLimit else {
            others.insert(id)
            return
        }
        let word = id >> 6
        if word >= bits.count {
            bits += [UInt64](repeating: 0, count: max(word + 1, bits.count * 2) - bits.count)
        }
        bits[word] |= 1 << UInt64(id & 63)
    }

    /// Declares every atom of `other`.
    mutating func formUnion(_ other: DeclaredAtoms) {
        if other.bits.count > bits.count {
            bits += [UInt64](repeating: 0, count: other.bits.count - bits.count)
        }
        for (index, word) in other.bits.enumerated() where word != 0 {
            bits[index] |= word
        }
        others.formUnion(other.others)
    }

    /// Takes one transaction's atoms: declares `declared`, then returns the first of
    /// `referred` that is not declared, in their order (`nil` when all are).
    mutating func take(declaring declared: some Sequence<Int>, referring referred: some Sequence<Int>) -> Int? {
        for id in declared { insert(id) }
        return referred.first { !contains($0) }
    }

    /// Takes one transaction record's atoms, as ``take(declaring:referring:)`` takes a
    /// line's, without listing them.
    mutating func take(_ record: TransactionRecord) -> Int? {
        for declaration in record.declare ?? [] { insert(declaration.id) }
        let atoms = self
        do {
            try record.forEachAtomReference { (id: Int) throws(UndeclaredAtom) in
                if !atoms.contains(id) { throw UndeclaredAtom(id: id) }
            }
        } catch {
            return error.id
        }
        return nil
    }

    /// The first atom a record refers to that is not declared.
    struct UndeclaredAtom: Error {
        let id: Int
    }

    /// What a line referring to the undeclared atom `id` is told, in the words reading its
    /// state uses.
    static func undeclaredMessage(_ id: Int) -> String {
        "refers to atom \(id), which was never declared"
    }
}

extension TransactionRecord {
    /// Calls `body` with each atom the transaction refers to, in the one order every reader
    /// checks them (after taking its declarations): the values written, each added edge's two
    /// ends, each added subscription's atom. ``JournalState/apply(_:decoding:)`` checks them
    /// through here, and the readers that check atoms without a state list them from here
    /// (``atomReferences``), so a line with two undeclared atoms gets the same verdict.
    @inline(__always)
    func forEachAtomReference<Failure: Error>(_ body: (Int) throws(Failure) -> Void) throws(Failure) {
        for value in values ?? [] { try body(value.id) }
        for edge in edgesAdded ?? [] {
            try body(edge.from)
            try body(edge.to)
        }
        for subscription in subsAdded ?? [] { try body(subscription.atom) }
    }

    /// The atoms the transaction refers to, in ``forEachAtomReference(_:)``'s order.
    var atomReferences: [Int] {
        var references: [Int] = []
        forEachAtomReference { references.append($0) }
        return references
    }
}

extension TransactionLine {
    /// The atoms the line declares.
    var declaredAtoms: [Int] {
        (graph?.declare ?? []).map(\.id)
    }

    /// The atoms the line refers to, in the order ``TransactionRecord/forEachAtomReference(_:)``
    /// takes a record's (the line's values, then its graph's added edges and subscriptions).
    var atomReferences: [Int] {
        var references = values.map(\.id)
        for edge in graph?.edgesAdded ?? [] { references += [edge.from, edge.to] }
        for subscription in graph?.subsAdded ?? [] { references.append(subscription.atom) }
        return references
    }
}
