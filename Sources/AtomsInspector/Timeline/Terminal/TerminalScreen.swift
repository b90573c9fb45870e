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

/// The terminal as the timeline uses it: its size, a frame drawn in one write, and keys read
/// with a time limit. ``TerminalMode`` sets the terminal up and puts it back.
package struct TerminalScreen {
    /// Where keys come from and frames go.
    package let input: Int32, output: Int32

    // Set by SIGWINCH; its arrival also wakes a waiting `poll`.
    private static let resized = Atomic<Bool>(false)

    /// A screen on `input` and `output`, redrawn when SIGWINCH says the size changed.
    package init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.input = input
        self.output = output
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in TerminalScreen.resized.store(true, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        // No SA_RESTART: the signal interrupts `poll`, so a resize redraws at once.
        action.sa_flags = 0
        sigaction(SIGWINCH, &action, nil)
    }

    /// The size, as the terminal reports it (80×24 when it does not).
    package func size() -> (columns: Int, rows: Int) {
        var size = winsize()
        guard ioctl(output, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
            return (80, 24)
        }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Whether SIGWINCH arrived since the last call.
    package func takeResize() -> Bool {
        Self.resized.exchange(false, ordering: .relaxed)
    }

    /// Draws `lines` from the top left, each erased to its end, in one write; `clearing`
    /// erases the whole screen first (after a resize).
    package func draw(_ lines: [String], clearing: Bool = false) {
        var bytes = Array(((clearing ? "\u{1B}[2J" : "") + "\u{1B}[H").utf8)
        for (index, line) in lines.enumerated() {
            if index > 0 { bytes += Array("\r\n".utf8) }
            bytes += Array(line.utf8)
            bytes += Array("\u{1B}[0m\u{1B}[K".utf8)
        }
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }

    /// The keys typed within `timeout` milliseconds (-1: wait for one), or `nil` when the
    /// terminal is gone (end of input, a hang-up).
    ///
    /// An empty list means the time ran out or a signal (a resize) came first.
    package func keys(timeout: Int32) -> [TimelineKey]? {
        guard let bytes = read(timeout: timeout) else { return nil }
        let (keys, rest) = KeyDecoder.decode(bytes)
        guard !rest.isEmpty else { return keys }
        // An ESC alone is the Escape key unless the rest of a sequence follows at once.
        let more = read(timeout: 30) ?? []
        return keys + KeyDecoder.decode(rest + more, final: true).keys
    }

    private func read(timeout: Int32) -> [UInt8]? {
        var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
        let ready = poll(&descriptor, 1, timeout)
        if ready <= 0 { return ready < 0 && errno != EINTR ? nil : [] }
        guard descriptor.revents & Int16(POLLIN) != 0 else {
            // POLLHUP or POLLERR without data: the terminal is gone.
            return nil
        }
        var buffer = [UInt8](repeating: 0, count: 4096)
        #if canImport(Glibc)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(input, $0.baseAddress, $0.count) }
        #else
        let count = buffer.withUnsafeMutableBytes { Darwin.read(input, $0.baseAddress, $0.count) }
        #endif
        if count < 0, errno == EINTR || errno == EAGAIN { return [] }
        return count > 0 ? Array(buffer[..<count]) : nil
    }
}
