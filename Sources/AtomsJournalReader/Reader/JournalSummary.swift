#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a pass over every transaction's envelope finds: counts by cause and by atom, the
/// time span and the keyframes. Values are skipped, never decoded.
package struct JournalSummary: Sendable, Equatable {
    /// Keyframes in the journal (a bounded journal's segments each start with one).
    package var keyframes = 0
    /// Transactions per cause.
    package var causes: [String: Int] = [:]
    /// Per atom number: the transactions that wrote its value (equal writes included).
    package var valueWrites: [Int: Int] = [:]
    /// Per atom number: the transactions that wrote it a value equal to the one before
    /// (`[id,"="]`); its changes are its writes less these.
    package var equalWrites: [Int: Int] = [:]
    /// The time of the first and the last transaction, in milliseconds since recording
    /// started (`nil` without transactions).
    package var firstTime: Double?
    package var lastTime: Double?
}

extension JournalReader {
    /// Reads every transaction's envelope once: the cause, the time and the atoms written,
    /// skipping the values' bytes without decoding them, and checks that no step is missing.
    ///
    /// - Complexity: One pass over the journal's bytes.
    /// - Throws: ``JournalError`` naming the line when one is malformed or out of sequence.
    package func summary() throws(JournalError) -> JournalSummary {
        try summary(splittingAbove: 8 << 20)
    }

    /// ``summary()``, scanning a file in two halves on two threads when it is larger than
    /// `threshold` bytes (tests and the fuzz targets make it small).
    package func summary(splittingAbove threshold: Int) throws(JournalError) -> JournalSummary {
        try checkingForChanges { () throws(JournalError) in
            var tally = EnvelopeTally()
            var summary = JournalSummary()
            for segment in allSegments {
                try tally.scan(segment, from: segment.firstStep, splittingAbove: threshold, summary: &summary)
            }
            tally.finish(into: &summary)
            return summary
        }
    }
}

/// The counting behind ``JournalReader/summary()``: a byte-level reader of transaction
/// envelopes, which only looks for the brackets and quotes that end each value.
struct EnvelopeTally {
    private var causeNames: [String] = []
    private var causeCounts: [Int] = []
    /// Write counts by atom: a table for atoms numbered below ``WriteTable/limit``, as long
    /// as the highest of them; the few above (up to 2^24) by number, so that a journal naming
    /// atom 16,000,000 costs an entry, not a table of 128 MB to zero and walk.
    private var writes: [Int] = []
    private var writesAbove: [Int: Int] = [:]
    /// Equal writes by atom: few, so by number.
    private var equalWrites: [Int: Int] = [:]
    private var firstTime: Double?
    private var lastTime: Double?

    /// Counts one transaction.
    mutating func count(cause: String, time: Double, atoms: [Int], equal: [Int]) {
        countCause(Array(cause.utf8)[...])
        for atom in atoms { countWrite(atom) }
        for atom in equal { countEqualWrite(atom) }
        if firstTime == nil { firstTime = time }
        lastTime = time
    }

    func finish(into summary: inout JournalSummary) {
        for (name, count) in zip(causeNames, causeCounts) where count > 0 {
            summary.causes[name, default: 0] += count
        }
        for (atom, count) in writes.enumerated() where count > 0 {
            summary.valueWrites[atom] = count
        }
        for (atom, count) in writesAbove {
            summary.valueWrites[atom] = count
        }
        summary.equalWrites.merge(equalWrites, uniquingKeysWith: +)
        summary.firstTime = firstTime
        summary.lastTime = lastTime
    }

    private mutating func countCause(_ bytes: ArraySlice<UInt8>) {
        // A handful of causes: a linear search over their bytes beats hashing a string.
        for index in causeNames.indices where causeNames[index].utf8.elementsEqual(bytes) {
            causeCounts[index] += 1
            return
        }
        causeNames.append(String(decoding: bytes, as: UTF8.self))
        causeCounts.append(1)
    }

    /// Counts an equal write, as ``countWrite(_:times:)`` counts writes (the same atoms).
    private mutating func countEqualWrite(_ atom: Int) {
        guard atom >= 0, atom < 1 << 24 else { return }
        equalWrites[atom, default: 0] += 1
    }

    private mutating func countWrite(_ atom: Int, times: Int = 1) {
        guard atom >= 0, atom < 1 << 24 else { return }
        guard atom < WriteTable.limit else {
            writesAbove[atom, default: 0] += times
            return
        }
        if atom >= writes.count {
            writes += [Int](repeating: 0, count: atom + 1 - writes.count)
        }
        writes[atom] += times
    }

    /// Scans a segment's lines after its first keyframe: the two halves of the file on two
    /// threads, each with its own tally, joined where the halves meet.
    mutating func scan(_ segment: any JournalSegment, from firstStep: Int, splittingAbove threshold: Int, summary: inout JournalSummary) throws(JournalError) {
        let size = segment.dataEnd
        // Line 3 starts after the header and the first keyframe.
        var reader = LineReader(file: segment.file)
        let header = try reader.line(at: 0)
        // (A keyframe that is the file's last line, without a newline, ends at its size.)
        let body = header.next >= size ? size : min(size, try reader.line(at: header.next).next)
        var bounds = [body, size]
        if size - body > threshold {
            let middle = try reader.line(at: body + (size - body) / 2).next
            if middle < size { bounds = [body, middle, size] }
        }
        // The locations every transaction may refer to: all of a format 2–3 file's, or the
        // first keyframe's (format 4; later ones are declared by `loc` lines before use).
        // The atoms: those of the keyframe a state at the first step is read from (the last
        // one there, when a damaged file has several), then those transactions declare; none
        // checked when no state reads from that keyframe. Read with the locations when that
        // keyframe is the first line, as it is in a journal that is not damaged.
        var declared: Set<Int> = segment.locationsAnywhere ?? []
        var keyframeAtoms: [Int]? = []
        if header.next < size {
            let keyframe = try segment.keyframe(atOrBefore: segment.firstStep).offset
            let numbered = segment.locationsAnywhere == nil
            if keyframe == header.next || !numbered {
                let atoms = try segment.lines.read(lineAt: keyframe) { _, raw, range in
                    try KeyframeLine.declarations(in: raw, range, withLocations: numbered)
                }
                keyframeAtoms = atoms.atoms
                if numbered { declared = Set(atoms.locations.map(\.id)) }
            } else {
                declared = Set(try segment.lines.read(lineAt: header.next) { _, raw, range in try KeyframeLine.locations(in: raw, range).map(\.id) })
                keyframeAtoms = try segment.lines.read(lineAt: keyframe) { _, raw, range in KeyframeLine.declaredAtoms(in: raw, range) }
            }
        }
        var declaredAtoms = DeclaredAtoms(keyframeAtoms ?? [])
        let partCount = bounds.count - 1
        let parts = PartResults(count: partCount)
        let limits = bounds
        let (known, knownAtoms) = (declared, keyframeAtoms == nil ? nil : declaredAtoms)
        DispatchQueue.concurrentPerform(iterations: partCount) { index in
            var tally = EnvelopeTally()
            let part = tally.scanPart(
                segment, range: limits[index]..<limits[index + 1], after: index == 0 ? firstStep : nil, locations: known, atoms: knownAtoms
            )
            parts.set(index, (tally, part))
        }
        // The order of the lines read so far, carried from part to part.
        var check = SequenceCheck(after: firstStep)
        for index in 0..<partCount {
            let (tally, part) = parts.get(index)
            if check.isEnded, limits[index] < limits[index + 1] {
                // Reading in order reads a line's kind before its place: a first line whose
                // kind cannot be read is named for that, as reading the whole file names it.
                if let failure = part.failure, part.unreadableKind == limits[index] {
                    throw failure.error
                }
                throw SequenceCheck.Violation.afterEnd.error(path: segment.path, line: segment.lineNumber(at: limits[index]))
            }
            // The part's first step line comes before any line it failed at: it is taken where
            // the part joins the one before first, by the same check as every other line, so
            // both halves name the line, and say what, reading in order does.
            if let first = part.first {
                do throws(SequenceCheck.Violation) {
                    try check.take(first.kind)
                } catch {
                    throw error.error(path: segment.path, line: segment.lineNumber(at: first.offset))
                }
            }
            // A location the part refers to before declaring it must come from the parts before;
            // the earlier of that line and the line the part failed at is the one named.
            let unresolved = part.references.filter { !declared.contains($0.key) }.map(\.value).min()
            // So must an atom it refers to before declaring it; on one line, its locations are
            // resolved first (reading the line resolves them, applying it checks its atoms).
            let unresolvedAtom = keyframeAtoms == nil ? nil : part.atomReferences.filter { !declaredAtoms.contains($0.key) }.map(\.value).min()
            if let unresolvedAtom, unresolvedAtom < min(unresolved ?? .max, part.failure?.offset ?? .max) {
                let references = part.atomReferences
                let atoms = declaredAtoms
                let reason = try segment.lines.read(lineAt: unresolvedAtom) { scanner, raw, range in
                    let referred = try scanner.transactionEnvelope(in: raw, range).referred
                    let first = referred.first { !atoms.contains($0) && references[$0] == unresolvedAtom } ?? 0
                    return DeclaredAtoms.undeclaredMessage(first)
                }
                throw JournalError.malformedLine(path: segment.path, line: segment.lineNumber(at: unresolvedAtom), reason: reason)
            }
            if let unresolved, unresolved < (part.failure?.offset ?? .max) {
                let line = segment.lineNumber(at: unresolved)
                // The line's first location undeclared there, in the order every reader
                // resolves them: one first referred to on this line and not by an earlier part.
                let references = part.references
                let reason = try segment.lines.read(lineAt: unresolved) { scanner, raw, range in
                    let numbers = try scanner.transactionEnvelope(in: raw, range).locations
                    let first = numbers.first { !declared.contains($0) && references[$0] == unresolved } ?? 0
                    return "refers to location \(first), which no earlier line declares"
                }
                throw JournalError.malformedLine(path: segment.path, line: line, reason: reason)
            }
            if let failure = part.failure {
                throw failure.error
            }
            declared.formUnion(part.locations)
            declaredAtoms.formUnion(part.atomsDeclared)
            if let last = part.check, part.first != nil {
                check = last
            }
            merge(tally)
            summary.keyframes += part.keyframes
            if let time = part.lastTime { lastTime = time }
        }
        // The first keyframe was line 2.
        summary.keyframes += 1
    }

    /// Results of the parts of a parallel scan: one box per part, each written by its own
    /// thread (the list itself is never mutated, so no two threads touch the same memory).
    private final class PartResults: @unchecked Sendable {
        // Unchecked: each box is written by one thread, and read after all have finished.
        private final class Box {
            var result: (EnvelopeTally, Part)?
        }
        private let boxes: [Box]
        init(count: Int) { boxes = (0..<count).map { _ in Box() } }
        func set(_ index: Int, _ result: (EnvelopeTally, Part)) { boxes[index].result = result }
        func get(_ index: Int) -> (EnvelopeTally, Part) { boxes[index].result! }
    }

    /// What one part of a scan found besides the counts.
    struct Part {
        var keyframes = 0
        /// The part's first transaction, keyframe or end line, and its offset.
        var first: (kind: LineKind, offset: Int)?
        /// The order check after the part's last line.
        var check: SequenceCheck?
        var lastTime: Double?
        var failure: (error: JournalError, offset: Int)?
        /// The offset of the line it failed at when that line's kind could not be read.
        var unreadableKind: Int?
        /// Locations declared by the part's `loc` lines.
        var locations: Set<Int> = []
        /// Locations the part refers to before it declares them, with the first line that
        /// does (the parts before it must declare them).
        var references: [Int: Int] = [:]
        /// Atoms declared by the part's transactions.
        var atomsDeclared = DeclaredAtoms()
        /// Atoms the part refers to before it declares them, with the first line that does.
        var atomReferences: [Int: Int] = [:]
    }

    /// Adds another tally's counts to this one (the other covers later lines).
    private mutating func merge(_ other: EnvelopeTally) {
        for (name, count) in zip(other.causeNames, other.causeCounts) {
            if let index = causeNames.firstIndex(of: name) {
                causeCounts[index] += count
            } else {
                causeNames.append(name)
                causeCounts.append(count)
            }
        }
        if other.writes.count > writes.count {
            writes += [Int](repeating: 0, count: other.writes.count - writes.count)
        }
        for (atom, count) in other.writes.enumerated() { writes[atom] += count }
        writesAbove.merge(other.writesAbove, uniquingKeysWith: +)
        equalWrites.merge(other.equalWrites, uniquingKeysWith: +)
        if firstTime == nil { firstTime = other.firstTime }
    }

    /// Scans the lines in `range`; `step` is the step before them when known.
    private mutating func scanPart(_ segment: any JournalSegment, range: Range<Int>, after step: Int?, locations known: Set<Int>, atoms knownAtoms: DeclaredAtoms?) -> Part {
        var part = Part()
        var check = step.map { SequenceCheck(after: $0) } ?? SequenceCheck(startsAnywhere: true)
        let scanner = segment.scanner
        var reader = LineReader(file: segment.file)
        // The last cause seen, as up to 16 bytes and a length, and its index: comparing two
        // words per line, with no array to retain.
        var causeKey: (UInt64, UInt64, Int) = (0, 0, -1)
        var causeIndex = 0
        let ids = UnsafeMutablePointer<Int>.allocate(capacity: TransactionEnvelope.idCapacity)
        defer { ids.deallocate() }
        // Where each entry's value is: empty for an equal write.
        let values = UnsafeMutablePointer<Range<Int>>.allocate(capacity: TransactionEnvelope.idCapacity)
        defer { values.deallocate() }
        var idCount = 0
        // Write counts of atoms numbered below 65,536 (all but the largest journals' atoms), in
        // a table as large as the highest atom seen: a small journal zeroes and walks a few
        // words, not 512 KB per part.
        var fastWrites = WriteTable()
        defer {
            fastWrites.forEachCount { atom, count in countWrite(atom, times: count) }
            fastWrites.deallocate()
        }
        var lastTransaction: Int?
        var lineOffset = range.lowerBound
        // Consecutive transactions mostly come from one place: its check is not repeated.
        var lastChecked = Int.min
        /// Notes a location a line refers to: a write site other than 0 (none), any
        /// subscription's location (0 included, which no line declares: reading the
        /// transaction rejects it, and so does the summary) or a declared type's.
        // Inlined: called from the loop's closure on every line, it would otherwise check its
        // accesses to `lastChecked` and `part` at run time.
        @inline(__always)
        func refer(_ location: Int, at offset: Int) {
            guard location != lastChecked else { return }
            lastChecked = location
            guard !known.contains(location), !part.locations.contains(location), part.references[location] == nil else { return }
            part.references[location] = offset
        }
        // The atoms declared for this part's lines so far, as far as it knows (the first
        // keyframe's and its own), and those it noted a reference to: one test per atom
        // written.
        // Only the segment's transactions: the lines after its last one are read by every
        // reader as reading a transaction reads what follows it, which checks no atom.
        let atoms = PartAtoms(known: knownAtoms ?? DeclaredAtoms())
        // No atom checked when the first keyframe's are not known.
        let lastStep = knownAtoms == nil ? Int.min : segment.lastStep
        func take(_ kind: LineKind, _ offset: Int) throws(JournalError) {
            do throws(SequenceCheck.Violation) {
                try check.take(kind)
            } catch {
                throw error.error(path: segment.path, line: segment.lineNumber(at: offset))
            }
            if part.first == nil, kind.step != nil {
                part.first = (kind, offset)
            }
            if case .keyframe = kind { part.keyframes += 1 }
        }
        do {
            var offset = range.lowerBound
            while offset < range.upperBound {
                offset = try reader.readOn(from: offset, to: range.upperBound) { raw, line throws(JournalError) -> LineReader.Reading in
                    // A timing line has no place in the sequence and nothing to count (after
                    // the end line, any line is damage: the check below says so).
                    if !check.isEnded, scanner.isPackedTiming(line.range, in: raw) { return .next }
                    lineOffset = line.offset
                    let kind: LineKind
                    if let envelope = TransactionEnvelope.read(raw, line.range, version: scanner.version, ids: ids, count: &idCount, values: values),
                        JournalFormat.stepRange.contains(envelope.seq)
                    {
                        let base = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                        if firstTime == nil { firstTime = Self.time(base, envelope.time) }
                        lastTransaction = line.offset
                        let key = Self.causeKey(base, envelope.cause)
                        if key.0 == causeKey.0, key.1 == causeKey.1, key.2 == causeKey.2 {
                            causeCounts[causeIndex] += 1
                        } else {
                            let cause = UnsafeBufferPointer(start: base + envelope.cause.lowerBound, count: envelope.cause.count)
                            countCause(Array(cause)[...])
                            causeIndex = causeNames.firstIndex { $0.utf8.elementsEqual(cause) } ?? 0
                            causeKey = key
                        }
                        for index in 0..<idCount {
                            let atom = ids[index]
                            if values[index].isEmpty { countEqualWrite(atom) }
                            // Declared atoms stay declared: an atom's first write in the part
                            // is the one to check.
                            if fastWrites.count(atom) {
                                guard fastWrites.isFirst(atom) else { continue }
                            } else {
                                countWrite(atom)
                            }
                            if !atoms.visible.contains(atom), envelope.seq <= lastStep {
                                atoms.refer(atom, at: line.offset)
                            }
                        }
                        if envelope.at != 0 { refer(envelope.at, at: line.offset) }
                        kind = .transaction(seq: envelope.seq)
                    } else {
                        do {
                            kind = try scanner.kind(of: line.range, in: raw)
                        } catch {
                            part.unreadableKind = line.offset
                            throw JournalError.line(error, path: segment.path, bytes: raw, range: line.range, number: segment.lineNumber(at: line.offset))
                        }
                        // Its place first, then its contents: the order every reader checks a line in.
                        try take(kind, line.offset)
                        do {
                            if case .transaction = kind {
                                // Not in the common shape: the general reader, which checks it the same way.
                                let envelope = try scanner.transactionEnvelope(in: raw, line.range)
                                count(cause: envelope.cause, time: envelope.t, atoms: envelope.atoms, equal: envelope.equal)
                                for location in envelope.locations { refer(location, at: line.offset) }
                                if envelope.seq <= lastStep {
                                    atoms.take(declaring: envelope.declared, referring: envelope.referred, at: line.offset)
                                }
                                lastTransaction = line.offset
                            } else if kind == .location {
                                part.locations.insert(try scanner.location(in: raw, line.range).id)
                            }
                        } catch {
                            throw JournalError.line(error, path: segment.path, bytes: raw, range: line.range, number: segment.lineNumber(at: line.offset))
                        }
                        return .next
                    }
                    try take(kind, line.offset)
                    return .next
                }
            }
            if let lastTransaction {
                // The time of the part's last transaction, read again.
                part.lastTime = try segment.lines.read(lineAt: lastTransaction) { scanner, raw, range in
                    try scanner.transactionEnvelope(in: raw, range).t
                }
            }
        } catch {
            part.failure = (error, lineOffset)
        }
        part.check = check
        (part.atomsDeclared, part.atomReferences) = (atoms.declared, atoms.references)
        return part
    }

    /// The atoms one part of a scan has seen declared and referred to. A class, so that the
    /// scanning loop's closure captures a reference: a captured variable it mutates would cost
    /// dynamic exclusivity checks on every line.
    private final class PartAtoms {
        // Unchecked exclusivity: touched by one thread, one access at a time.
        /// The first keyframe's atoms, the part's declarations so far, and the atoms it
        /// referred to (their first reference is noted once).
        @exclusivity(unchecked) var visible: DeclaredAtoms
        /// The atoms the part's transactions declare.
        @exclusivity(unchecked) var declared = DeclaredAtoms()
        /// The atoms referred to before the part declared them, with the first line that does.
        @exclusivity(unchecked) var references: [Int: Int] = [:]

        init(known: DeclaredAtoms) {
            visible = known
        }

        /// Takes the atoms a transaction line at `offset` declares and refers to.
        @inline(never)
        func take(declaring declaredNow: [Int], referring referred: [Int], at offset: Int) {
            for atom in declaredNow {
                visible.insert(atom)
                declared.insert(atom)
            }
            for atom in referred where !visible.contains(atom) {
                refer(atom, at: offset)
            }
        }

        /// Notes the first reference to `atom`, not declared so far, at `offset`.
        func refer(_ atom: Int, at offset: Int) {
            references[atom] = offset
            visible.insert(atom)
        }
    }

    /// A cause's bytes as two words and a length (causes longer than 16 bytes get length -2,
    /// so they never match and are compared in full).
    @inline(__always)
    static func causeKey(_ base: UnsafePointer<UInt8>, _ range: Range<Int>) -> (UInt64, UInt64, Int) {
        guard range.count <= 16 else { return (0, 0, -2) }
        var words: (UInt64, UInt64) = (0, 0)
        _ = withUnsafeMutableBytes(of: &words) { memcpy($0.baseAddress!, base + range.lowerBound, range.count) }
        return (words.0, words.1, range.count)
    }

    /// The number at `range`, as a `Double`.
    private static func time(_ base: UnsafePointer<UInt8>, _ range: Range<Int>) -> Double {
        Double(String(decoding: UnsafeBufferPointer(start: base + range.lowerBound, count: range.count), as: UTF8.self)) ?? 0
    }
}
