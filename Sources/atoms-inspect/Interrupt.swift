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
import Synchronization

/// Ctrl-C (SIGINT) as a request to stop, for commands that run until then (`log --follow`):
/// they finish the line they are on, flush and exit 0.
enum Interrupt {
    private static let flag = Atomic<Bool>(false)

    /// Whether SIGINT arrived.
    static var requested: Bool {
        flag.load(ordering: .relaxed)
    }

    /// Replaces SIGINT's default (dying by the signal) with setting the flag.
    static func install() {
        signal(SIGINT) { _ in
            Interrupt.flag.store(true, ordering: .relaxed)
        }
        // A parent may have started this process with SIGINT blocked (signal masks are
        // inherited): unblock it, or Ctrl-C would never arrive.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigprocmask(SIG_UNBLOCK, &set, nil)
    }
}
