import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How the main actor hands captured transactions to the recorder's thread without a lock:
/// two staging sides that the threads exchange by epoch.
///
/// The main actor stages each transaction into the side of the current epoch (the epoch's
/// parity). The recorder's thread takes that side by starting the next epoch, waits out a
/// capture under way when it did, and then holds the side alone: it records the side's
/// transactions, empties it, and leaves on it what the main actor is to release, all before
/// it starts the epoch after, which gives the side back.
///
/// Two words carry it, each written by one thread, with sequentially consistent atomics
/// (which ThreadSanitizer sees, so its runs check the hand-over): `epoch`, written by the
/// recorder's thread, and `captures`, written by the main actor: twice the captures it
/// ended, plus one while a capture is under way. A capture stores `captures` before it loads
/// `epoch`; the recorder stores `epoch` before it loads `captures`. In the single order of
/// those four operations, either the capture loads the new epoch (and stages into the other
/// side), or the recorder loads the capture under way (and waits for it to end).
///
/// The same pattern wakes the recorder: it stores `sleeps` before it loads `captures` to see
/// whether anything was staged, and a capture stores `captures` before it loads `sleeps`,
/// so a capture that ends as the recorder goes to sleep either is seen by it or wakes it.
final class CaptureHandOver: @unchecked Sendable {
    // Unchecked: `ended` is the main actor's and `capturesTaken` the recorder's
    // thread's; the sides are each held by one thread at a time, as above.

    /// The side of even epochs, and of odd ones.
    let even = CaptureStaging(parity: 0)
    let odd = CaptureStaging(parity: 1)
    private let epoch = Atomic<Int>(0)
    private let captures = Atomic<Int>(0)
    /// Whether the recorder's thread sleeps (or is about to), to be woken by a capture.
    private let sleeps = Atomic<Bool>(false)
    /// Captures the main actor ended (its own count, which `captures` publishes).
    @exclusivity(unchecked) private var ended = 0
    /// Captures the recorder's thread took (each staged one item).
    @exclusivity(unchecked) private var capturesTaken = 0

    // MARK: The main actor

    /// Announces a capture and returns the side to stage it into.
    @inline(__always)
    func beginCapture() -> CaptureStaging {
        captures.store(ended &* 2 &+ 1, ordering: .sequentiallyConsistent)
        return epoch.load(ordering: .sequentiallyConsistent) & 1 == 0 ? even : odd
    }

    /// Ends the capture (which staged one item); returns whether the recorder's thread sleeps
    /// and is to be woken.
    @inline(__always)
    func endCapture() -> Bool {
        ended &+= 1
        captures.store(ended &* 2, ordering: .sequentiallyConsistent)
        return sleeps.load(ordering: .sequentiallyConsistent)
    }

    /// The captures the main actor ended so far (read on any thread).
    var capturesEnded: Int {
        captures.load(ordering: .sequentiallyConsistent) >> 1
    }

    // MARK: The recorder's thread

    /// Whether captures wait that the recorder's thread has not taken.
    var hasCaptures: Bool {
        capturesEnded > capturesTaken
    }

    /// Marks the recorder's thread as going to sleep, and returns whether it may: `false`
    /// when captures wait (then it is marked awake again).
    func prepareToSleep() -> Bool {
        sleeps.store(true, ordering: .sequentiallyConsistent)
        if hasCaptures {
            sleeps.store(false, ordering: .sequentiallyConsistent)
            return false
        }
        return true
    }

    /// Marks the recorder's thread awake.
    func wake() {
        sleeps.store(false, ordering: .sequentiallyConsistent)
    }

    /// Starts the next epoch and returns the side of the one before, once no capture into it
    /// is under way: the recorder's thread holds it (and counts its captures as taken) until
    /// the next call, which gives it back to the main actor.
    func take() -> CaptureStaging {
        let taken = epoch.load(ordering: .relaxed)
        epoch.store(taken &+ 1, ordering: .sequentiallyConsistent)
        let seen = captures.load(ordering: .sequentiallyConsistent)
        if seen & 1 == 1 {
            // A capture is under way: it may have loaded the epoch before it changed. It is
            // short (the main actor copies values), so the thread yields until it ends.
            while captures.load(ordering: .sequentiallyConsistent) == seen {
                sched_yield()
            }
        }
        let side = taken & 1 == 0 ? even : odd
        capturesTaken += side.items.count
        return side
    }
}
