import Foundation

/// The clock the store times its work on: nanoseconds on the system's monotonic clock, which
/// never jumps when the wall clock is set.
package enum MonotonicClock {
    /// Nanoseconds since an arbitrary point (the system's boot), never decreasing.
    @inline(__always)
    package static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
