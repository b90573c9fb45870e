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

/// A mutex with a condition to wait on, for a thread that waits for another's data (what
/// Foundation's `NSCondition` is; FoundationEssentials has none).
package final class ConditionLock: @unchecked Sendable {
    // Unchecked: the pthread objects are what make it safe to share.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    package init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    package func lock() {
        pthread_mutex_lock(mutex)
    }

    package func unlock() {
        pthread_mutex_unlock(mutex)
    }

    /// Wakes every thread waiting on the condition.
    package func broadcast() {
        pthread_cond_broadcast(condition)
    }

    /// Waits, with the lock held, until woken or `deadline`; the lock is held again on return.
    ///
    /// - Returns: `false` when the deadline passed.
    package func wait(until deadline: Date) -> Bool {
        let seconds = deadline.timeIntervalSince1970
        var time = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        return pthread_cond_timedwait(condition, mutex, &time) == 0
    }
}
