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
/// `f`/`w`.
///
/// A line in the common shape (``TransactionEnvelope``: only value entries, numbers and
/// literals, no graph change) that writes only atoms declared and live already changes
/// nothing in the state but its step and the values of the atoms it keeps: it is checked by
/// the envelope scanner (which judges damage as ``TransactionLine`` does) and skipped without
/// building a record. The bytes of a kept atom's new value are held as they are
/// (``pendingValue(of:)``, for deciding a condition on them) and decoded into the state only
/// when something reads it (``settle(_:)``; every decoded line settles first). Every other line is decoded with ``LineScanner`` from
/// the same buffer and applied as ``JournalReader/apply(_:to:decodingValuesOf:)`` does; an
/// unusual line (a sequence break, a line missing) is left to that function, so every error is
/// worded as before.
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
    private var place: Place?
    private let ids = UnsafeMutablePointer<Int>.allocate(capacity: TransactionEnvelope.idCapacity)
    private let ranges = UnsafeMutablePointer<Range<Int>>.allocate(capacity: TransactionEnvelope.idCapacity)
    /// The bytes of kept atoms' values written by lines skipped since the state was last
    /// settled, one slot per atom. Behind a pointer the walk owns: a search reads and writes
    /// it at every step, and a stored `var` of a class costs a dynamic exclusivity check at
    /// each access.
    private let pendingSlots: UnsafeMutablePointer<[PendingValue]> = {
        let slots = UnsafeMutablePointer<[PendingValue]>.allocate(capacity: 1)
        slots.initialize(to: [])
        return slots
    }()
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

    /// A reference, so that reading on moves no copy of it in and out of the walk.
    private final class Place {
        let segment: any JournalSegment
        var lines: LineReader
        var offset: Int
        var locations: [Int: String]
        var check: SequenceCheck
        /// The segment's format version, data end and last step, read once.
        let version: Int
        let dataEnd: Int
        let lastStep: Int

        init(segment: any JournalSegment, lines: LineReader, offset: Int, locations: [Int: String], check: SequenceCheck) {
            self.segment = segment
            version = segment.header.version
            dataEnd = segment.dataEnd
            lastStep = segment.lastStep
            self.lines = lines
            self.offset = offset
            self.locations = locations
            self.check = check
        }
    }

    /// Flags above this atom number are not kept: such atoms' lines are always read in full.
    private static let flagLimit = 1 << 22

    /// Every transaction is read and handed over (no line skipped on its bytes), for walks
    /// that use each record: export, the report, `replay-test`.
    private let readsEvery: Bool
    /// Every atom's values are kept (``atoms`` is not used).
    private let decodesAll: Bool

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

    private init(_ reader: JournalReader, after state: JournalState, keeping atoms: Set<Int>?, readsEvery: Bool) {
        self.reader = reader
        self.atoms = atoms ?? []
        decodesAll = atoms == nil
        self.readsEvery = readsEvery
        nextStep = state.step + 1
        for id in state.declarations.keys { mark(id, 1) }
        for id in state.liveIDs { mark(id, 2) }
        for id in atoms ?? [] { mark(id, 4) }
    }

    deinit {
        ids.deallocate()
        ranges.deallocate()
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

    /// Applies transaction ``nextStep`` to `state`.
    ///
    /// - Returns: The transaction, with the values of the atoms kept; `nil` when it was
    ///   skipped on its bytes (it writes none of them and changes nothing else).
    /// - Throws: ``JournalError`` as ``JournalReader/apply(_:to:decodingValuesOf:)``.
    package func advance(_ state: inout JournalState) throws(JournalError) -> TransactionRecord? {
        let seq = nextStep
        wroteKept = false
        let record = try reader.checkingForChanges { () throws(JournalError) -> TransactionRecord? in
            guard seq <= reader.lastStep, let place = try placed(at: seq) else {
                return try fallback(seq, &state)
            }
            while place.offset < place.dataEnd {
                let line = try place.lines.line(at: place.offset)
                if !readsEvery, try skips(line, seq: seq, in: place) {
                    try take(.transaction(seq: seq), at: line.offset, in: place)
                    place.offset = line.next
                    state.skip(to: seq)
                    self.place = place
                    if seq == place.lastStep { try place.segment.checkToEnd() }
                    return nil
                }
                let scanner = place.segment.scanner
                let kind = try readLine(&place.lines, at: line.offset, scanner: scanner) { scanner, raw, range in
                    try scanner.kind(of: range, in: raw)
                }
                switch kind {
                case .transaction(seq):
                    try take(kind, at: line.offset, in: place)
                    try settle(&state)
                    let record = try decoded(at: line.offset, in: place, into: &state)
                    place.offset = line.next
                    self.place = place
                    if seq == place.lastStep { try place.segment.checkToEnd() }
                    return record
                case .location:
                    let location = try readLine(&place.lines, at: line.offset, scanner: scanner) { scanner, raw, range in
                        try scanner.location(in: raw, range)
                    }
                    place.locations[location.id] = location.at
                case .keyframe:
                    try take(kind, at: line.offset, in: place)
                case .timing, .unknown:
                    // A timing line, or a type of a later minor version: read on.
                    break
                default:
                    // A sequence break, an end line: worded by the reader.
                    return try fallback(seq, &state)
                }
                place.offset = line.next
            }
            return try fallback(seq, &state)
        }
        nextStep = seq + 1
        return record
    }

    /// The place to read transaction `seq` from: where the last one ended, or found by the
    /// segment holding it; `nil` when no segment does.
    private func placed(at seq: Int) throws(JournalError) -> Place? {
        if let place, seq <= place.lastStep {
            self.place = nil
            return place
        }
        guard let segment = reader.allSegments.last(where: { $0.firstStep < seq }) else { return nil }
        let (offset, locations) = try segment.transactionLine(seq)
        return Place(segment: segment, lines: LineReader(file: segment.file), offset: offset, locations: locations, check: SequenceCheck(after: seq - 1))
    }

    /// Whether the line is transaction `seq` in the common shape, writing only atoms declared
    /// and live, and the kept ones among them whole; their values' bytes are then held.
    @inline(__always)
    private func skips(_ line: LineReader.Line, seq: Int, in place: Place) throws(JournalError) -> Bool {
        let (version, flags) = (place.version, self.flags)
        var kept = false
        let skips = place.lines.withBuffer { raw in self.skips(raw, line.range, seq: seq, version: version, flags: flags, kept: &kept) }
        if kept { wroteKept = true }
        return skips
    }

    /// ``skips(_:seq:in:)`` on a line's bytes, with the walk's flags; `kept` is set when the
    /// line wrote a kept atom.
    @inline(__always)
    private func skips(
        _ raw: UnsafeRawBufferPointer, _ range: Range<Int>, seq: Int, version: Int, flags: [UInt8], kept: inout Bool
    ) -> Bool {
        var count = 0
        let (ids, ranges) = (self.ids, self.ranges)
        guard let envelope = TransactionEnvelope.read(raw, range, version: version, ids: ids, count: &count, values: ranges), envelope.seq == seq else {
            return false
        }
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
        let (version, scanner, segment, flags) = (place.version, place.segment.scanner, place.segment, self.flags)
        var seq = first
        // The sequence check is the place's, kept in a local for the loop (no exclusivity
        // check per line) and put back however the loop ends.
        var check = place.check
        defer { place.check = check }
        var lastKept = false
        place.offset = try place.lines.readOn(from: place.offset, to: place.dataEnd) { raw, line throws(JournalError) -> LineReader.Reading in
            // After the end line, any line is damage: the sequence check says so.
            if !check.isEnded, scanner.isPackedTiming(line.range, in: raw) { return .next }
            var kept = false
            do {
                if skips(raw, line.range, seq: seq, version: version, flags: flags, kept: &kept) {
                    try check.take(.transaction(seq: seq))
                    seq += 1
                    lastKept = kept
                    let goesOn = !kept || wrote(state.values)
                    return goesOn && seq <= end ? .next : .stopAfter
                }
                switch try scanner.kind(of: line.range, in: raw) {
                case .timing, .unknown:
                    return .next
                case .location:
                    let location = try scanner.location(in: raw, line.range)
                    place.locations[location.id] = location.at
                    return .next
                case .keyframe(let step):
                    try check.take(.keyframe(seq: step))
                    return .next
                default:
                    return .stopBefore
                }
            } catch let violation as SequenceCheck.Violation {
                throw violation.error(path: segment.path, line: segment.lineNumber(at: line.offset))
            } catch {
                throw JournalError.line(error, path: segment.path, bytes: raw, range: line.range, number: segment.lineNumber(at: line.offset))
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

    private func take(_ kind: LineKind, at offset: Int, in place: Place) throws(JournalError) {
        do {
            try place.check.take(kind)
        } catch {
            throw error.error(path: place.segment.path, line: place.segment.lineNumber(at: offset))
        }
    }

    /// Reads the transaction at `offset` in full and applies it, as the reader does.
    private func decoded(at offset: Int, in place: Place, into state: inout JournalState) throws(JournalError) -> TransactionRecord {
        let (locations, atoms, all) = (place.locations, self.atoms, decodesAll)
        let decoding = { (id: Int) in all || atoms.contains(id) }
        let record = try readLine(&place.lines, at: offset, scanner: place.segment.scanner) { scanner, raw, range in
            try scanner.transaction(in: raw, range, locations: locations, decoding: decoding)
        }
        do {
            try state.apply(record, decoding: decoding)
        } catch {
            throw .malformedLine(path: place.segment.path, line: place.segment.lineNumber(at: offset), reason: error.message)
        }
        learn(record)
        return record
    }

    /// Transaction `seq` read by the reader, which finds it and words what is wrong with it.
    private func fallback(_ seq: Int, _ state: inout JournalState) throws(JournalError) -> TransactionRecord {
        place = nil
        try settle(&state)
        let record = try reader.apply(seq, to: &state, decodingValuesOf: decodesAll ? nil : atoms)
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
