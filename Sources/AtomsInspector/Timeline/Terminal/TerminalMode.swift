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

/// The terminal put in raw mode on the alternate screen, and put back on every way out.
///
/// ``enter(input:output:)`` saves the terminal's settings, then installs handlers for the
/// signals that end a process (SIGINT, SIGTERM, SIGHUP, SIGQUIT from outside; SIGSEGV,
/// SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT from a crash) that put the terminal back and end
/// the process as the signal would have: a crash goes on to the handler that was there before
/// (Swift's backtracer reports it on the restored screen), a signal sent from outside ends the
/// process by its default action. ``restore()`` puts the terminal back on a normal exit. Raw
/// mode turns ISIG off: Ctrl-C arrives as a key.
package enum TerminalMode {
    /// What a signal handler needs, in memory allocated once and never freed: a handler may
    /// not allocate.
    private struct Saved {
        var settings = termios()
        var descriptor: Int32 = 0
        var output: Int32 = 1
        var active = false
    }

    private typealias SignalAction = sigaction

    // Unchecked: written on the main thread before the handlers are installed and after they
    // are removed; handlers only read it (and clear `active` on the way out).
    nonisolated(unsafe) private static let saved = UnsafeMutablePointer<Saved>.allocate(capacity: 1)
    // Unchecked: as `saved`; the actions found before, by signal number.
    nonisolated(unsafe) private static let previousActions: UnsafeMutablePointer<SignalAction> = {
        let actions = UnsafeMutablePointer<SignalAction>.allocate(capacity: 65)
        actions.initialize(repeating: SignalAction(), count: 65)
        return actions
    }()
    // Unchecked: a constant byte string, written once before any handler can run.
    nonisolated(unsafe) private static let leave: (bytes: UnsafeMutablePointer<UInt8>, count: Int) = {
        // Show the cursor, wrap lines again, reset colours, leave the alternate screen.
        let text = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?7h\u{1B}[?1049l".utf8)
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: text.count)
        bytes.initialize(from: text, count: text.count)
        return (bytes, text.count)
    }()

    private static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGFPE, SIGABRT]

    /// Raw mode, the alternate screen, the cursor hidden.
    ///
    /// - Throws: ``InspectorError`` (usage) when `input` is not a terminal.
    package static func enter(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) throws(InspectorError) {
        var settings = termios()
        guard tcgetattr(input, &settings) == 0 else {
            throw InspectorError(.usage, "step --tui needs a terminal to read keys from — use step without --tui for scripts")
        }
        saved.initialize(to: Saved(settings: settings, descriptor: input, output: output, active: true))
        _ = leave
        _ = previousActions
        for signal in signals {
            var action = SignalAction()
            action.__sigaction_handler.sa_sigaction = { signal, info, _ in
                TerminalMode.putBack()
                let code = info?.pointee.si_code ?? 0
                let isFault = signal == SIGSEGV || signal == SIGBUS || signal == SIGILL || signal == SIGFPE || signal == SIGTRAP
                if isFault, code > 0 {
                    // A real fault: the handler found before (Swift's backtracer, or the
                    // default) takes it when the instruction faults again on return.
                    sigaction(signal, TerminalMode.previousActions + Int(signal), nil)
                } else if signal == SIGABRT, code == -6 {
                    // abort() (SI_TKILL): the handler found before, then abort() ends the
                    // process itself.
                    sigaction(signal, TerminalMode.previousActions + Int(signal), nil)
                    raise(signal)
                } else {
                    // Sent by someone (SIGTERM, a hang-up, kill -SEGV): end as that signal
                    // ends a process, delivered when this handler returns.
                    TerminalMode.defaultAction(signal)
                    raise(signal)
                }
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_SIGINFO
            sigaction(signal, &action, previousActions + Int(signal))
        }
        var raw = settings
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_oflag &= ~tcflag_t(OPOST)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        tcsetattr(input, TCSAFLUSH, &raw)
        // The alternate screen, the cursor hidden, no wrapping at the last column.
        let enter = Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[2J".utf8)
        _ = enter.withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
    }

    /// Puts the terminal back as ``enter(input:output:)`` found it and removes the signal
    /// handlers. Safe to call more than once.
    package static func restore() {
        guard saved.pointee.active else { return }
        putBack()
        for signal in signals {
            sigaction(signal, previousActions + Int(signal), nil)
        }
    }

    /// `signal`'s default action; only async-signal-safe calls.
    private static func defaultAction(_ signal: Int32) {
        var action = SignalAction()
        action.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&action.sa_mask)
        sigaction(signal, &action, nil)
    }

    /// The settings and the screen back; only async-signal-safe calls.
    private static func putBack() {
        guard saved.pointee.active else { return }
        saved.pointee.active = false
        _ = write(saved.pointee.output, leave.bytes, leave.count)
        tcsetattr(saved.pointee.descriptor, TCSADRAIN, &saved.pointee.settings)
    }
}
