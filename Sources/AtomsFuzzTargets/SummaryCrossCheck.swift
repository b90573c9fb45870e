import AtomsJournal

/// Two readers of a journal's transactions that must give one verdict: the summary's envelope
/// scan (whole, and in two halves on two threads) and an envelope-only read of each
/// transaction, as `stats` and `log` do. Either both succeed and count the same, or both fail
/// with the same error (the same line, the same reason).
enum SummaryCrossCheck {
    /// A disagreement: its kind and which reader said what.
    typealias Disagreement = (kind: String, detail: String)

    /// The most transactions read one by one; past it, only a failure among them is compared.
    static let transactionBound = 8_192

    /// What the readers of `reader`'s journal disagree about (nothing when they agree).
    static func disagreements(in reader: JournalReader) -> [Disagreement] {
        let whole = Result { () throws(JournalError) in try reader.summary() }
        // A threshold of one byte: every segment is scanned in two halves, joined after.
        let halves = Result { () throws(JournalError) in try reader.summary(splittingAbove: 1) }
        var found: [Disagreement] = []
        switch (whole, halves) {
        case (.success(let one), .success(let two)) where Counts(one) != Counts(two):
            found.append(("halves-count-differently", "summary: \(Counts(one)); in halves: \(Counts(two))"))
        case (.success, .failure(let error)):
            found.append(("halves-reject", "summary succeeds; in halves: \(error)"))
        case (.failure(let error), .success):
            found.append(("halves-accept", "summary: \(error); in halves it succeeds"))
        case (.failure(let one), .failure(let two)) where one != two:
            found.append(("halves-fail-differently", "summary: \(one); in halves: \(two)"))
        default:
            break
        }
        let reads = EnvelopeReads(reader, bound: transactionBound)
        switch (whole, reads.failure) {
        case (.success, let failure?):
            found.append(("summary-accepts", "summary succeeds; transaction(\(failure.seq), decodingValuesOf: []): \(failure.error)"))
        case (.failure(let error), nil) where reads.isComplete:
            found.append(("summary-rejects", "summary: \(error); every transaction's envelope reads"))
        case (.failure(let error), let failure?) where error != failure.error:
            // One verdict is one line and one reason, not only a failure somewhere.
            found.append(("reads-fail-differently", "summary: \(error); transaction(\(failure.seq), decodingValuesOf: []): \(failure.error)"))
        case (.success(let summary), nil) where reads.isComplete && Counts(summary) != reads.counts:
            found.append(("counts-differ", "summary: \(Counts(summary)); envelopes read one by one: \(reads.counts)"))
        default:
            break
        }
        // `log`'s listing (envelopes in place) against the records read one by one.
        let listed = ListedReads(reader, bound: transactionBound)
        if listed.counts != reads.counts || listed.failure?.seq != reads.failure?.seq || listed.failure?.error != reads.failure?.error {
            let failure = { (failure: (seq: Int, error: JournalError)?) in failure.map { "transaction \($0.seq): \($0.error)" } ?? "no failure" }
            found.append(("listing-differs", "listed: \(listed.counts), \(failure(listed.failure)); read one by one: \(reads.counts), \(failure(reads.failure))"))
        }
        return found
    }
}

/// What the summary counts, keyframes aside: equal when the counts and times are (a NaN time
/// equals a NaN time), described in a stable order.
private struct Counts: Equatable, CustomStringConvertible {
    var causes: [String: Int] = [:]
    var valueWrites: [Int: Int] = [:]
    var equalWrites: [Int: Int] = [:]
    var firstTime: Double?
    var lastTime: Double?

    init() {}

    init(_ summary: JournalSummary) {
        (causes, valueWrites, equalWrites, firstTime, lastTime) = (summary.causes, summary.valueWrites, summary.equalWrites, summary.firstTime, summary.lastTime)
    }

    static func == (one: Counts, two: Counts) -> Bool {
        func same(_ a: Double?, _ b: Double?) -> Bool {
            a == b || (a?.isNaN == true && b?.isNaN == true)
        }
        return one.causes == two.causes && one.valueWrites == two.valueWrites && one.equalWrites == two.equalWrites
            && same(one.firstTime, two.firstTime) && same(one.lastTime, two.lastTime)
    }

    var description: String {
        let causes = causes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let writes = valueWrites.sorted { $0.key < $1.key }.map { "#\($0.key)=\($0.value)" }
        let equal = equalWrites.sorted { $0.key < $1.key }.map { "#\($0.key)=\($0.value)" }
        let times = "\(firstTime.map { "\($0)" } ?? "-")…\(lastTime.map { "\($0)" } ?? "-")"
        return "causes [\(causes.joined(separator: " "))], writes [\(writes.joined(separator: " "))], equal writes [\(equal.joined(separator: " "))], times \(times)"
    }
}

/// Every transaction's envelope read one by one and applied to the state before it, no value
/// decoded (`apply(_:to:decodingValuesOf: [])`, which also checks that the atoms it refers to
/// are declared), up to a bound, tallied as the summary tallies them (keyframes aside).
private struct EnvelopeReads {
    /// What was counted.
    var counts = Counts()
    /// The first transaction that could not be read.
    var failure: (seq: Int, error: JournalError)?
    /// Whether every transaction was read (none failed, none past the bound).
    var isComplete = false

    init(_ reader: JournalReader, bound: Int) {
        let first = reader.firstStep + 1
        let last = min(reader.lastStep, reader.firstStep + bound)
        // A first keyframe no state reads from (the readers then check no atom number).
        var state = try? reader.state(at: reader.firstStep, decodingValuesOf: [])
        for seq in stride(from: first, through: last, by: 1) {
            do {
                let record = if state != nil {
                    try reader.apply(seq, to: &state!, decodingValuesOf: [])
                } else {
                    try reader.transaction(seq, decodingValuesOf: [])
                }
                counts.causes[record.cause, default: 0] += 1
                // As the summary counts: atoms numbered outside 0..<2^24 are not counted.
                for entry in record.values ?? [] where entry.id >= 0 && entry.id < 1 << 24 {
                    counts.valueWrites[entry.id, default: 0] += 1
                    if entry.unchanged == true { counts.equalWrites[entry.id, default: 0] += 1 }
                }
                if counts.firstTime == nil { counts.firstTime = record.t }
                counts.lastTime = record.t
            } catch {
                failure = (seq, error)
                return
            }
        }
        isComplete = last == reader.lastStep
    }
}

/// The same transactions listed as `log` lists them (`JournalReader.forEachTransaction`: a
/// line in the common shape as its envelope's bytes), tallied as ``EnvelopeReads`` tallies.
private struct ListedReads {
    var counts = Counts()
    var failure: (seq: Int, error: JournalError)?

    init(_ reader: JournalReader, bound: Int) {
        let first = reader.firstStep + 1
        let last = min(reader.lastStep, reader.firstStep + bound)
        guard first <= last else { return }
        var next = first
        var counts = Counts()
        func count(cause: String, t: Double, atoms: some Sequence<Int>, equal: some Sequence<Int>) {
            counts.causes[cause, default: 0] += 1
            for id in atoms where id >= 0 && id < 1 << 24 {
                counts.valueWrites[id, default: 0] += 1
            }
            for id in equal where id >= 0 && id < 1 << 24 {
                counts.equalWrites[id, default: 0] += 1
            }
            if counts.firstTime == nil { counts.firstTime = t }
            counts.lastTime = t
            next += 1
        }
        do {
            try reader.forEachTransaction(from: first, through: last) { listed in
                switch listed {
                case .envelope(let envelope):
                    count(cause: String(decoding: envelope.cause, as: UTF8.self), t: Double(String(decoding: envelope.time, as: UTF8.self)) ?? .nan, atoms: envelope.atoms,
                          equal: envelope.atoms.indices.filter(envelope.isEqualWrite).map { envelope.atoms[$0] })
                case .record(let record):
                    count(cause: record.cause, t: record.t, atoms: (record.values ?? []).map(\.id),
                          equal: (record.values ?? []).filter { $0.unchanged == true }.map(\.id))
                }
                return true
            }
        } catch {
            failure = (next, error)
        }
        self.counts = counts
    }
}
