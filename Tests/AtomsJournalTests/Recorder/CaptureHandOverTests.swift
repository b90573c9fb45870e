import Foundation
import Synchronization
import Testing
import TestSupport
@testable import AtomsJournal

/// The lock-free hand-over between the app's thread and the recorder's: run by two threads as
/// hard as they can, every capture reaches the recorder's thread once, whole, and in order
/// (under ThreadSanitizer in CI, which sees the atomics the sides are exchanged with).
@Suite(.timeLimit(.minutes(Patience.minutes(2))))
struct CaptureHandOverTests {
    /// What the recorder's thread found: the captures it took, and the first one out of place.
    struct Taken: Sendable {
        var count = 0
        var batches = 0
        var misplaced: String?
    }

    /// The batches the recorder's thread took so far, for the app's thread to wait on.
    final class Batches: Sendable {
        let taken = Atomic<Int>(0)
    }

    @Test func everyCaptureIsTakenOnceWholeAndInOrder() async throws {
        let total = 100_000
        let handOver = CaptureHandOver()
        let deadline = Patience.date(after: 60)
        let batches = Batches()

        async let taken = OwnThread.run { () -> Taken in
            var taken = Taken()
            while taken.count < total && taken.misplaced == nil && Date() < deadline {
                guard handOver.hasCaptures else {
                    sched_yield()
                    continue
                }
                let side = handOver.take()
                taken.batches += 1
                batches.taken.store(taken.batches, ordering: .relaxed)
                // Each capture staged its number as one word, and an item naming that word.
                for item in side.items {
                    guard case .timing(let staged) = item, staged.words.count == 1 else {
                        taken.misplaced = "capture \(taken.count): an item other than the one staged"
                        break
                    }
                    let number = side.timingWords[staged.words.lowerBound]
                    guard number == UInt64(taken.count) else {
                        taken.misplaced = "capture \(taken.count) came as \(number)"
                        break
                    }
                    taken.count += 1
                }
                side.finishBatch()
            }
            return taken
        }
        let staged = try await OwnThread.run { () -> Int in
            for number in 0..<total {
                // Halfway, until the recorder's thread has taken a side: the rest go to the
                // other, so the sides are exchanged while captures go on.
                while number == total / 2 && batches.taken.load(ordering: .relaxed) == 0 && Date() < deadline {
                    sched_yield()
                }
                let side = handOver.beginCapture()
                let word = side.timingWords.count
                side.timingWords.append(UInt64(number))
                side.items.append(.timing(StagedTimings(words: word..<word + 1, atoms: 0, locations: 0)))
                _ = handOver.endCapture()
            }
            return total
        }

        let result = try await taken
        #expect(result.misplaced == nil, "\(result.misplaced ?? "")")
        #expect(result.count == staged, "the recorder's thread took \(result.count) of \(staged) captures")
        #expect(!handOver.hasCaptures)
        #expect(result.batches > 1, "the sides were exchanged while captures went on")
    }
}
