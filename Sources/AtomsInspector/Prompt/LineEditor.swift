#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
private let systemRead = Glibc.read
#elseif canImport(Darwin)
import Darwin
private let systemRead = Darwin.read
#endif
import Synchronization

/// A prompt with line editing, history and Tab completion on a terminal, through libedit
/// (``LibEdit``): cursor movement and Emacs keys, Up/Down through earlier lines, Ctrl-C to
/// cancel the line, Ctrl-D on an empty line to leave.
///
/// One editor per process: libedit's readline functions keep their state in globals. While
/// it is open, SIGINT sets ``interruptRequested`` instead of ending the process, so Ctrl-C
/// also stops a long search (``SearchProgress``) and returns to the prompt.
package final class LineEditor {
    /// What the user entered.
    package enum Input: Equatable, Sendable {
        /// A line, without its newline.
        case line(String)
        /// Ctrl-C: the line was dropped.
        case cancelled
        /// Ctrl-D on an empty line, or the terminal closed.
        case end
    }

    /// Completions for the word being typed: given the line before it and the word, the whole
    /// words that may replace it.
    package typealias Completer = (_ before: String, _ word: String) -> [String]

    /// Why libedit could not be used.
    package struct Unavailable: Error {
        /// The loader's words.
        package let reason: String
    }

    private let library: LibEdit

    private init(library: LibEdit) {
        self.library = library
    }

    /// Loads libedit and sets it up: `history` (oldest first) for Up/Down, `completer` for
    /// Tab, SIGINT caught.
    ///
    /// - Returns: The editor, or why libedit could not be loaded (the caller reads plain
    ///   lines then, after saying so).
    package static func open(history: [String], limit: Int, completer: @escaping Completer) -> Swift.Result<LineEditor, Unavailable> {
        switch LibEdit.load() {
        case .failure(let error):
            return .failure(Unavailable(reason: error.reason))
        case .success(let library):
            Hooks.completer = completer
            Hooks.lineBuffer = library.lineBuffer
            // libedit leaves signals alone; the handler below makes `read` return EINTR.
            library.catchSignals.pointee = 0
            library.getCharacter.pointee = { _ in LineEditor.readCharacter() }
            library.attemptedCompletion.pointee = { text, start, _ in LineEditor.complete(text, start: Int(start)) }
            library.completionEntry.pointee = { _, _ in nil }
            library.readlineName.pointee = UnsafePointer(Hooks.name)
            library.stifleHistory(Int32(limit))
            for line in history {
                line.withCString { _ = library.addHistory($0) }
            }
            installInterruptHandler()
            return .success(LineEditor(library: library))
        }
    }

    /// Shows `prompt` and reads one line.
    package func read(prompt: String) -> Input {
        _ = Self.takeInterrupt()
        guard let text = prompt.withCString({ library.readline($0) }) else {
            return Self.takeInterrupt() ? .cancelled : .end
        }
        defer { free(text) }
        return .line(String(cString: text))
    }

    /// Adds a line to the history Up/Down walk through.
    package func remember(_ line: String) {
        line.withCString { _ = library.addHistory($0) }
    }

    // MARK: Ctrl-C

    private static let interrupt = Atomic<Bool>(false)

    /// Whether Ctrl-C arrived since the last call; clears it.
    package static func takeInterrupt() -> Bool {
        interrupt.exchange(false, ordering: .relaxed)
    }

    /// Whether Ctrl-C arrived (without clearing it).
    package static var interruptRequested: Bool {
        interrupt.load(ordering: .relaxed)
    }

    /// SIGINT sets the flag, and interrupts a blocked `read` (no `SA_RESTART`).
    private static func installInterruptHandler() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in LineEditor.interrupt.store(true, ordering: .relaxed) }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(SIGINT, &action, nil)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigprocmask(SIG_UNBLOCK, &set, nil)
    }

    // MARK: Hooks libedit calls

    /// What the C hooks reach. Unchecked: set once before the first `readline`, and read only
    /// by the hooks libedit calls from inside `readline`, on the thread that called it.
    private enum Hooks {
        nonisolated(unsafe) static var completer: Completer?
        nonisolated(unsafe) static var lineBuffer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        /// `rl_readline_name`, for `~/.editrc`'s `atoms-inspect:` lines; never freed.
        nonisolated(unsafe) static let name = strdup("atoms-inspect")
    }

    /// One character from stdin as a Unicode scalar (UTF-8 decoded), or -1 at the end of input
    /// or on Ctrl-C.
    private static func readCharacter() -> Int32 {
        var lead: UInt8 = 0
        guard readByte(&lead) else { return -1 }
        let length = lead < 0x80 ? 1 : lead >> 5 == 0b110 ? 2 : lead >> 4 == 0b1110 ? 3 : lead >> 3 == 0b11110 ? 4 : 1
        var scalar = length == 1 ? UInt32(lead) : UInt32(lead) & (0x7F >> UInt32(length))
        for _ in 1..<length {
            var next: UInt8 = 0
            guard readByte(&next) else { return -1 }
            scalar = scalar << 6 | UInt32(next & 0x3F)
        }
        return Int32(bitPattern: scalar)
    }

    private static func readByte(_ byte: inout UInt8) -> Bool {
        while true {
            let count = systemRead(STDIN_FILENO, &byte, 1)
            if count == 1 { return true }
            if count < 0, errno == EINTR, !interruptRequested { continue }
            return false
        }
    }

    /// readline's completion list: the text to put in place of the word (the one match, or
    /// what all matches start with), then the matches; `nil` for none. libedit frees it.
    private static func complete(_ text: UnsafePointer<CChar>?, start: Int) -> UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        guard let completer = Hooks.completer else { return nil }
        let word = text.map { String(cString: $0) } ?? ""
        let line = Hooks.lineBuffer?.pointee.map { String(cString: $0) } ?? ""
        let before = String(decoding: line.utf8.prefix(start), as: UTF8.self)
        let matches = completer(before, word)
        guard !matches.isEmpty else { return nil }
        let entries = matches.count == 1 ? matches : [commonPrefix(matches)] + matches
        let list = malloc((entries.count + 1) * MemoryLayout<UnsafeMutablePointer<CChar>?>.stride)!
            .bindMemory(to: UnsafeMutablePointer<CChar>?.self, capacity: entries.count + 1)
        for (index, entry) in entries.enumerated() {
            list[index] = strdup(entry)
        }
        list[entries.count] = nil
        return list
    }

    /// The longest text every one of `words` starts with.
    static func commonPrefix(_ words: [String]) -> String {
        guard var prefix = words.first.map(Array.init) else { return "" }
        for word in words.dropFirst() {
            prefix = Array(zip(prefix, word).prefix { $0 == $1 }.map(\.0))
        }
        return String(prefix)
    }
}
