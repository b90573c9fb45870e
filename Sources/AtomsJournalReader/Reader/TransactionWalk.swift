#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Moves a state through a journal's transactions in order, deciding on each line's bytes
/// whether it must be read at all: the search behind `find --where` and the step prompt's
/// `f`/`w`, and every walk that applies each transaction (export, the report, `compare`,
/// `AtomsTesting`). It reads on the one engine of in-order reading (``StepScan``).
///
/// A line in the common shape (``TransactionEnvelope``: only value entries, numbers and
/// literals, no graph change) that writes only atoms declared and live already changes
/// nothing in the state but its step and the values of the atoms it keeps: it is checked by
/// the envelope scanner (which judges damage as ``TransactionLine`` does) and skipped without
/// building a record. The bytes of a kept atom's new value are held as they are
/// (``pendingValue(of:)``, for deciding a condition on them) and decoded into the state only
/// when something reads it (``settle(_:)``; every decoded line settles first). Every other
/// line is decoded with ``LineScanner`` from the same buffer and applied as ``JournalReader/apply(_:to:decodingValuesOf:)`` does; an
/// unusual line (an end line where a step is due) is left to that function, so its error is
/// worded as before; another transaction where the next is due is named by its line, as
/// reading in order names it.
///
/// ## Example
/// ```swift
/// var state = try reader.state(at: 0, decodingValuesOf: [3])
/// let walk = TransactionWalk(reader, after: state, decodingValuesOf: [3])
/// while walk.nextStep <= reader.lastStep {
///     if let record = try walk.advance(&state) { /* atom 3 may have changed */ }
/// }
/// ```
package final class TransactionWalk {
    private let reader: JournalReader
    private var atoms: Set<Int>
    /// Per atom number: bit 0 declared, bit 1 live, bit 2 one of ``atoms``.
    private var flags: [UInt8] = []
    /// Where the next line is read, while reading a segment in order.
    private var place: StepScan?
    /// The bytes of kept atoms' values written by lines skipped since the state was last
    /// settled, one slot per atom. Behind a pointer the walk owns: a search reads and writes
    /// it at every step, and a stored `var` of a class costs a dynamic exclusivity check at
    /// each access.
    private let pendingSlots: UnsafeMutablePointer<[PendingValue]> = {
        let slots = UnsafeMutablePointer<[PendingValue]>.allocate(capacity: 1)
        slots.initialize(to: [])
        return slots
    }()
    /// The line the walk's first step was found at (``LinePlace``); `nil` before it, or when
    /// the reader read that step by seeking.
    package private(set) var startedAt: LinePlace?
    /// The locations the walk knew at ``startedAt`` (from the keyframe before it, and the
    /// lines between), to compare with those a walk that read on to it knows.
    package private(set) var startLocations: [Int: String]?

    /// The locations declared up to where the walk stands (`nil` when it stands in no
    /// segment's lines: nothing read yet, or the last step read by the reader).
    package var locations: [Int: String]? {
        place?.locations
    }
    /// The walk's first step.
    private let firstStep: Int
    /// Whether the last line ``advance(_:)`` skipped wrote a value of a kept atom.
    package private(set) var wroteKept = false
    /// The transaction ``advance(_:)`` applies next.
    package private(set) var nextStep: Int

    /// A kept atom's value bytes, in memory the walk owns (a value is a number or a literal:
    /// a few bytes, grown when longer).
    // Unchecked: `storage` is allocated by `init` or `hold` and freed only by `hold` (when it
    // grows) and `deinit`; `count` never exceeds `capacity`.
    private struct PendingValue {
        let id: Int
        var storage: UnsafeMutableRawPointer
        var capacity: Int
        var count = 0
        var isSet = false

        init(id: Int) {
            self.id = id
            capacity = 32
            storage = .allocate(byteCount: capacity, alignment: 1)
        }

        var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage, count: count) }
    }

    /// Flags above this atom number are not kept: such atoms' lines are always read in full.
    private static let flagLimit = 1 << 22

    /// Every transaction is read and handed over (no line skipped on its bytes), for walks
    /// that use each record: export, the report, `replay-test`.
    private let readsEvery: Bool
    /// Every atom's values are kept (``atoms`` is not used).
    private let decodesAll: Bool
    /// The atoms of ``atoms`` whose values are also resolved into the state (deltas applied);
    /// `nil` for all of them. The others' entries are only parsed, for the caller to read.
    private var resolved: Set<Int>?
    /// The value each atom is first declared with is decoded and resolved too.
    private var decodesFirstValues = false

    /// Starts after `state`'s step, keeping the values of `atoms` (as `state` was read).
    package convenience init(_ reader: JournalReader, after state: JournalState, decodingValuesOf atoms: Set<Int>) {
        self.init(reader, after: state, keeping: atoms, readsEvery: false)
    }

    /// Starts after `state`'s step, to read every transaction: ``advance(_:)`` never skips a
    /// line, and returns each record with the values of `atoms` (all when `nil`, as `state`
    /// was read).
    package convenience init(everyTransactionOf reader: JournalReader, after state: JournalState, decodingValuesOf atoms: Set<Int>?) {
        self.init(reader, after: state, keeping: atoms, readsEvery: true)
    }

    /// Starts after `state`'s step, to read every transaction, parsing the entries of
    /// `atoms` in each record but resolving into the state only the values of `resolved` (a
    /// replay compares a checked atom's recorded delta with today's, and needs its whole value
    /// only where they differ). `state` keeps the values it had of the others, which no longer
    /// follow the journal.
    ///
    /// With `firstValues`, the value an atom is first declared with (in the line declaring
    /// it) is decoded and resolved too, whatever `atoms` holds: a caller that learns which
    /// atoms it keeps from their declarations, as it meets them, adds them
    /// (``decodeValues(alsoOf:)``, ``resolveValues(of:)``) without missing their first value.
    package convenience init(
        everyTransactionOf reader: JournalReader, after state: JournalState, decodingValuesOf atoms: Set<Int>, resolvingValuesOf resolved: Set<Int>,
        firstValues: Bool = false
    ) {
        self.init(reader, after: state, keeping: atoms, readsEvery: true)
        self.resolved = resolved
        decodesFirstValues = firstValues
    }

    /// The recorded deltas of the atoms named by ``keepDeltaBytes(of:)`` in the transaction
    /// ``advance(_:)`` returned last, as the journal's bytes; their entries in the record
    /// carry `null` as their delta. Empty after a transaction read by the reader (a fallback,
    /// a format 1 line): those entries carry their parsed deltas.
    package private(set) var deltaBytes = RecordedDeltaBytes()
    /// The atoms whose deltas are kept as bytes while their values are not resolved.
    private var bytesKept: Set<Int> = []

    /// Keeps the recorded deltas of `atom` as bytes (``deltaBytes``) rather than parsed, from
    /// the next transaction on, for as long as its values are not resolved: a replay that
    /// compares them with today's bytes parses one only where they differ.
    package func keepDeltaBytes(of atom: Int) {
        bytesKept.insert(atom)
    }

    /// Resolves the values of `atoms` into the state from the next transaction on, besides
    /// those resolved already (the state must hold their values at the current step).
    package func resolveValues(of atoms: Set<Int>) {
        resolved?.formUnion(atoms)
    }

    private init(_ reader: JournalReader, after state: JournalState, keeping atoms: Set<Int>?, readsEvery: Bool) {
        self.reader = reader
        self.atoms = atoms ?? []
        decodesAll = atoms == nil
        self.readsEvery = readsEvery
        nextStep = state.step + 1
        firstStep = nextStep
        for id in state.declarations.keys { mark(id, 1) }
        for id in state.liveIDs { mark(id, 2) }
        for id in atoms ?? [] { mark(id, 4) }
    }

    deinit {
        for slot in pendingSlots.pointee { slot.storage.deallocate() }
        pendingSlots.deinitialize(count: 1)
        pendingSlots.deallocate()
    }

    /// Keeps the values of `atoms` from the next transaction on (the state must hold them).
    package func decodeValues(of atoms: Set<Int>) {
        for id in self.atoms where id < flags.count { flags[id] &= ~4 }
        self.atoms = atoms
        for id in atoms { mark(id, 4) }
    }

    /// Keeps the values of `atom` too from the next transaction on (the state must hold it).
    package func decodeValues(alsoOf atom: Int) {
        atoms.insert(atom)
        mark(atom, 4)
    }

    /// Applies transaction ``nextStep`` to `state`.
    ///
    /// - Returns: The transaction, with the values of the atoms kept; `nil` when it was
    ///   skipped on its bytes (it writes none of them and changes nothing else).
    /// - Throws: ``JournalError`` as ``JournalReader/apply(_:to:decodingValuesOf:)``.
    package func advance(_ state: inout JournalState) throws(JournalError) -> TransactionRecord? {
        let seq = nextStep
        wroteKept = false
        deltaBytes.removeAll()
        let record = try reader.checkingForChanges { () throws(JournalError) -> TransactionRecord? in
            guard seq <= reader.lastStep, let place = try placed(at: seq) else {
                return try fallback(seq, &state)
            }
            let (readsEvery, flags, ids, ranges) = (self.readsEvery, self.flags, place.atoms, place.valueRanges)
            var outcome = Outcome.unread
            try place.run { line, raw, bytes throws(JournalError) -> StepScan.Verdict in
                switch line {
                case .envelope(let envelope, let count):
                    var kept = false
                    guard !readsEvery, envelope.seq == seq, place.declares(location: envelope.at), skips(count, ids, ranges, raw, flags: flags, kept: &kept) else {
                        return .readInFull
                    }
                    try place.take(.transaction(seq: seq), at: bytes.offset)
                    place.lastSkippedLine = bytes.offset
                    if kept { wroteKept = true }
                    outcome = .skipped
                    return .stopAfter
                case .other(.transaction(seq)):
                    try place.take(.transaction(seq: seq), at: bytes.offset)
                    try settle(&state)
                    outcome = .decoded(try decoded(raw, bytes, in: place, into: &state))
                    return .stopAfter
                case .other(.transaction(let other)):
                    // Another transaction where `seq`'s is due (a run of steps repeated, or a
                    // step missing) is named by its line, as reading in order names it: the
                    // reader would find `seq` by seeking and pass it by.
                    try place.take(.transaction(seq: other), at: bytes.offset)
                    return .stopBefore
                default:
                    // A sequence break, an end line: worded by the reader.
                    return try place.passesBetweenSteps(line, raw, bytes) ? .next : .stopBefore
                }
            }
            switch outcome {
            case .unread:
                return try fallback(seq, &state)
            case .skipped:
                state.skip(to: seq)
                self.place = place
                if seq == place.lastStep { try place.segment.checkToEnd() }
                return nil
            case .decoded(let record):
                self.place = place
                if seq == place.lastStep { try place.segment.checkToEnd() }
                return record
            }
        }
        nextStep = seq + 1
        return record
    }

    /// A line of a journal: the first step of the segment holding it, and its offset there.
    package struct LinePlace: Equatable, Sendable {
        /// The first step of the segment (the step its first keyframe holds).
        package let segmentFirstStep: Int
        /// The line's offset in the segment's file.
        package let offset: Int
    }

    /// Reads on from the last step to the line of ``nextStep``, without reading that line,
    /// taking each line between as ``advance(_:)`` takes them: a walk that stops short of the
    /// journal's end checks, as reading on in order would, that the step due comes next (a
    /// search's first half, where the second half starts at that step found by seeking).
    /// Nothing is read past a segment's last step (``advance(_:)`` checked its lines to the
    /// end), nor after a step the reader read by seeking.
    ///
    /// - Returns: The line of ``nextStep`` (to compare with where a walk from it started:
    ///   ``startedAt``); `nil` when nothing was read.
    /// - Throws: ``JournalError`` for a damaged line before it, or another transaction where
    ///   it is due.
    @discardableResult
    package func readOnToTheNextStep() throws(JournalError) -> LinePlace? {
        let seq = nextStep
        guard let place, seq <= place.lastStep else { return nil }
        var found = false
        try reader.checkingForChanges { () throws(JournalError) in
            try place.run { line, raw, bytes throws(JournalError) -> StepScan.Verdict in
                switch line {
                case .envelope(let envelope, _):
                    found = envelope.seq == seq
                    return found ? .stopBefore : .readInFull
                case .other(.transaction(let other)):
                    if other != seq { try place.take(.transaction(seq: other), at: bytes.offset) }
                    found = other == seq
                    return .stopBefore
                default:
                    return try place.passesBetweenSteps(line, raw, bytes) ? .next : .stopBefore
                }
            }
        }
        return found ? LinePlace(segmentFirstStep: place.segment.firstStep, offset: place.offset) : nil
    }

    /// Transaction `seq`, the last the walk skipped on its bytes, read in full with the
    /// locations the walk knows there: as reading in order reads it, where the reader,
    /// seeking, takes them from the keyframe before it (the two differ only where a keyframe
    /// disagrees with the location lines before it). `nil` when the walk stands in no
    /// segment's lines, or that line is not `seq`'s, or does not read. The line is read apart
    /// from the walk's buffer, which stays where the walk goes on from.
    package func lastSkippedTransaction(_ seq: Int, decodingValuesOf atoms: Set<Int>) -> TransactionRecord? {
        guard let place, place.lastSkippedLine >= 0 else { return nil }
        let locations = place.locations
        let record = try? place.segment.lines.read(lineAt: place.lastSkippedLine) { scanner, raw, range in
            try scanner.transaction(in: raw, range, locations: locations, decoding: { atoms.contains($0) })
        }
        return record?.seq == seq ? record : nil
    }

    /// What ``advance(_:)`` did with the next transaction's line.
    private enum Outcome {
        /// Not reached: the reader reads it.
        case unread
        /// Skipped on its bytes.
        case skipped
        /// Read in full and applied.
        case decoded(TransactionRecord)
    }

    /// The place to read transaction `seq` from: where the last one ended, or found by the
    /// segment holding it; `nil` when no segment does.
    private func placed(at seq: Int) throws(JournalError) -> StepScan? {
        if let place, seq <= place.lastStep {
            self.place = nil
            return place
        }
        guard let segment = reader.allSegments.last(where: { $0.firstStep < seq }) else { return nil }
        let scan = try StepScan(segment: segment, transaction: seq)
        if seq == firstStep {
            startedAt = LinePlace(segmentFirstStep: segment.firstStep, offset: scan.offset)
            startLocations = scan.locations
        }
        return scan
    }

    /// Whether the envelope the scan handed over (of transaction `seq`) writes only atoms
    /// declared and live, and the kept ones among them whole; their values' bytes are then
    /// held, and `kept` set.
    @inline(__always)
    private func skips(
        _ count: Int, _ ids: UnsafeMutablePointer<Int>, _ ranges: UnsafeMutablePointer<Range<Int>>, _ raw: UnsafeRawBufferPointer, flags: [UInt8], kept: inout Bool
    ) -> Bool {
        var writesKept = false
        for index in 0..<count {
            let id = ids[index]
            guard id >= 0, id < flags.count else { return false }
            switch flags[id] {
            case 3: continue
            // A kept atom written whole (`[id,"="]` is decoded: it needs the value before).
            case 7 where !ranges[index].isEmpty: writesKept = true
            default: return false
            }
        }
        if writesKept {
            for index in 0..<count where flags[ids[index]] == 7 {
                hold(ids[index], UnsafeRawBufferPointer(rebasing: raw[ranges[index]]))
            }
            kept = true
        }
        return true
    }

    /// Skips, in one loop over the read buffer, the transactions from ``nextStep`` through
    /// `last` that ``advance(_:)`` would skip on their bytes, with the timing, location and
    /// keyframe lines between them: one call for a run of steps, not one per step. After each
    /// one that wrote a kept atom (its bytes are then ``pendingValue(of:)``), `wrote` decides,
    /// given the values the state holds, whether to go on; `false` stops the run after that
    /// step.
    ///
    /// - Returns: How many transactions were skipped. 0 when the next one is for
    ///   ``advance(_:)``: before the walk's first step, at a line not in the common shape, at
    ///   a segment's last step (whose following lines ``advance(_:)`` checks) or past it.
    /// - Throws: ``JournalError`` for a damaged line, as ``advance(_:)`` words it.
    package func skip(through last: Int, _ state: inout JournalState, wrote: (_ values: [Int: ValueEntry]) -> Bool) throws(JournalError) -> Int {
        guard let place else { return 0 }
        let end = min(last, place.lastStep - 1)
        let first = nextStep
        guard first <= end, place.offset < place.dataEnd else { return 0 }
        let (flags, ids, ranges) = (self.flags, place.atoms, place.valueRanges)
        // The state's values do not change while lines are skipped (what they write is held):
        // taken once, not copied out of the state at every step.
        let values = state.values
        var seq = first
        var lastKept = false
        try place.run { line, raw, bytes throws(JournalError) -> StepScan.Verdict in
            switch line {
            case .envelope(let envelope, let count):
                var kept = false
                guard envelope.seq == seq, place.declares(location: envelope.at), skips(count, ids, ranges, raw, flags: flags, kept: &kept) else { return .readInFull }
                try place.take(.transaction(seq: seq), at: bytes.offset)
                place.lastSkippedLine = bytes.offset
                seq += 1
                lastKept = kept
                let goesOn = !kept || wrote(values)
                return goesOn && seq <= end ? .next : .stopAfter
            default:
                return try place.passesBetweenSteps(line, raw, bytes) ? .next : .stopBefore
            }
        }
        if seq > first {
            state.skip(to: seq - 1)
            nextStep = seq
            wroteKept = lastKept
        }
        return seq - first
    }

    /// Holds the bytes of a kept atom's new value.
    private func hold(_ id: Int, _ bytes: UnsafeRawBufferPointer) {
        if !pendingSlots.pointee.contains(where: { $0.id == id }) { pendingSlots.pointee.append(PendingValue(id: id)) }
        // One access to the slots for the whole copy (an access per element costs a
        // dynamic exclusivity check each, per step of a search).
        pendingSlots.pointee.withUnsafeMutableBufferPointer { slots in
            for slot in slots.indices where slots[slot].id == id {
                if slots[slot].capacity < bytes.count {
                    slots[slot].storage.deallocate()
                    slots[slot].capacity = bytes.count
                    slots[slot].storage = .allocate(byteCount: bytes.count, alignment: 1)
                }
                if let base = bytes.baseAddress { slots[slot].storage.copyMemory(from: base, byteCount: bytes.count) }
                slots[slot].count = bytes.count
                slots[slot].isSet = true
                return
            }
        }
    }

    /// The bytes of `id`'s value written by a line skipped since the state was settled: a
    /// number, `true`, `false` or `null` as the journal spells it; `nil` when the state holds
    /// its value. The bytes stay valid until the next call to ``advance(_:)``.
    package func pendingValue(of id: Int) -> UnsafeRawBufferPointer? {
        for slot in pendingSlots.pointee where slot.id == id && slot.isSet {
            return slot.bytes
        }
        return nil
    }

    /// Decodes the values held for skipped lines into `state`, as applying those lines would
    /// have set them.
    package func settle(_ state: inout JournalState) throws(JournalError) {
        for index in pendingSlots.pointee.indices where pendingSlots.pointee[index].isSet {
            pendingSlots.pointee[index].isSet = false
            var scanner = JSONScanner(pendingSlots.pointee[index].bytes)
            let value = try? scanner.value()
            guard let value else {
                // Unreachable: the envelope scanner checked these bytes by the same rules.
                throw .malformedLine(path: reader.path, line: 0, reason: "a value held for a skipped line does not read back")
            }
            state.settle(ValueEntry(id: pendingSlots.pointee[index].id, v: value))
        }
    }

    /// Reads the transaction line `line` in full and applies it, as the reader does.
    private func decoded(_ raw: UnsafeRawBufferPointer, _ line: LineReader.Line, in place: StepScan, into state: inout JournalState) throws(JournalError) -> TransactionRecord {
        let (atoms, all, flags, firstValues) = (self.atoms, decodesAll, self.flags, decodesFirstValues)
        // An atom not declared before this line: its value here is the one it is declared with.
        let decoding = { (id: Int) in all || atoms.contains(id) || (firstValues && (id >= flags.count || flags[id] & 1 == 0)) }
        let record: TransactionRecord
        do {
            if bytesKept.isEmpty {
                record = try place.scanner.transaction(in: raw, line.range, locations: place.locations, decoding: decoding)
            } else {
                let (kept, resolved) = (bytesKept, self.resolved)
                // A resolved value needs its delta parsed, to apply it.
                let keep = { (id: Int) in kept.contains(id) && resolved?.contains(id) == false }
                record = try place.scanner.transaction(in: raw, line.range, locations: place.locations, decoding: decoding, keepingDeltaBytesOf: keep, into: &deltaBytes)
            }
        } catch {
            throw place.damaged(error, raw, line)
        }
        do {
            if let resolved {
                if firstValues, let declared = record.declare, !declared.isEmpty {
                    let new = Set(declared.map(\.id))
                    try state.apply(record) { resolved.contains($0) || new.contains($0) }
                } else {
                    try state.apply(record) { resolved.contains($0) }
                }
            } else {
                try state.apply(record, decoding: decoding)
            }
        } catch {
            throw .malformedLine(path: place.segment.path, line: place.segment.lineNumber(at: line.offset), reason: error.message)
        }
        learn(record)
        return record
    }

    /// Transaction `seq` read by the reader, which finds it and words what is wrong with it.
    private func fallback(_ seq: Int, _ state: inout JournalState) throws(JournalError) -> TransactionRecord {
        place = nil
        try settle(&state)
        // Only the values this walk resolves: the others' values in the state are stale.
        var decoding = decodesAll ? nil : resolved ?? atoms
        if decodesFirstValues, decoding != nil {
            // And those of the atoms the line declares, read once more for its declarations.
            decoding?.formUnion((try reader.transaction(seq, decodingValuesOf: []).declare ?? []).map(\.id))
        }
        let record = try reader.apply(seq, to: &state, decodingValuesOf: decoding)
        learn(record)
        return record
    }

    private func learn(_ record: TransactionRecord) {
        for declaration in record.declare ?? [] { mark(declaration.id, 1) }
        for value in record.values ?? [] { mark(value.id, 2) }
        for id in record.released ?? [] where id >= 0 && id < flags.count { flags[id] &= ~2 }
    }

    private func mark(_ id: Int, _ bit: UInt8) {
        guard id >= 0, id < Self.flagLimit else { return }
        if id >= flags.count {
            flags += [UInt8](repeating: 0, count: max(id + 1 - flags.count, flags.count))
        }
        flags[id] |= bit
    }
}
