import AtomsJournal

/// A reader answers for a step that a reader which read nothing before reads as it does,
/// whatever it read before: the same transaction. A long-lived reader (the step prompt, the
/// debug adapter, `find`'s halves) reads steps in any order.
///
/// Where the fresh reader fails, the other may answer or fail elsewhere: a fresh reader reads
/// a step's locations from the keyframe before it and finds the step by searching the file, so
/// it meets lines (that keyframe, a second copy of the journal after its end) which a reader
/// standing nearby passes by, as reading in order does. Which damaged line such reads name is
/// not compared (not yet one verdict).
///
/// Not yet part of the journal-summary target: a keyframe whose locations disagree with the
/// location lines before it reads one way from the keyframe and another in order, and a
/// fuzzer makes such keyframes at once. `CorpusReplayTests` runs it on every seed and
/// regression.
enum ReadOrderCrossCheck {
    /// The most steps compared: each is read by a reader of its own.
    static let stepBound = 48

    /// Where a reader that read other steps before answers otherwise than a fresh one that
    /// answers, on the journal at `path` (nothing when they agree). The order of the reads
    /// comes from `seed`.
    static func disagreements(at path: String, seed: UInt64 = 1) -> [SummaryCrossCheck.Disagreement] {
        guard let opened = try? JournalReader(path: path), opened.lastStep > opened.firstStep else { return [] }
        let steps = Array((opened.firstStep + 1)...min(opened.lastStep, opened.firstStep + stepBound))
        var fresh: [Int: Result<TransactionRecord, JournalError>] = [:]
        for step in steps {
            guard let reader = try? JournalReader(path: path) else { return [] }
            fresh[step] = read(reader, step)
        }
        // Every step once in an order of the seed's, then every step again in order, then
        // back to front, all on one reader.
        var generator = SplitMix(seed)
        var order = steps
        order.shuffle(using: &generator)
        order += steps + steps.reversed()
        guard let reader = try? JournalReader(path: path) else { return [] }
        var history: [Int] = []
        for step in order {
            let answer = read(reader, step)
            if case .success = fresh[step], answer != fresh[step] {
                return [("read-order-differs", "transaction(\(step)) after reading \(history.suffix(6)): \(answer); read first: \(fresh[step].map(String.init(describing:)) ?? "")")]
            }
            history.append(step)
        }
        return []
    }

    /// A step's transaction as read, or the error.
    private static func read(_ reader: JournalReader, _ step: Int) -> Result<TransactionRecord, JournalError> {
        do throws(JournalError) {
            return .success(try reader.transaction(step))
        } catch {
            return .failure(error)
        }
    }

    /// A small generator with a fixed sequence for a seed (the fuzzer's input decides it).
    private struct SplitMix: RandomNumberGenerator {
        var state: UInt64

        init(_ seed: UInt64) {
            state = seed
        }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }
}
