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

/// `step` at a terminal: the prompt with line editing (``LineEditor``), history kept across
/// sessions (``PromptHistory``), Tab completion (``StepCompletion``), Enter repeating the last
/// movement or search (``CommandRepeat``), Ctrl-C cancelling the line or stopping a long
/// search, Ctrl-D leaving. Without libedit, plain lines after a one-line notice.
///
/// Piped input never comes here: the executable reads it line by line, as before.
package enum StepPrompt {
    /// Runs the prompt until `quit`, Ctrl-D or the end of input.
    ///
    /// - Parameters:
    ///   - environment: Where the history file goes (`XDG_STATE_HOME`, `HOME`).
    ///   - write: Writes text on stdout as it is (no newline added).
    ///   - notice: Writes one line on stderr.
    package static func run(_ session: some PromptSession, environment: [String: String], write: (String) -> Void, notice: (String) -> Void) {
        var history = PromptHistory.path(environment: environment).map(PromptHistory.init(path:))
        var editor: LineEditor?
        switch LineEditor.open(history: history?.lines ?? [], limit: PromptHistory.limit, completer: { before, word in
            session.completion.candidates(before: before, word: word)
        }) {
        case .success(let opened):
            editor = opened
        case .failure(let error):
            notice("atoms-inspect: line editing is off (\(error.reason)) — install libedit2 for history and Tab completion; reading plain lines")
        }
        var drawn = false
        session.searchProgress = { step, steps in
            let done = steps.count > 1 ? (step - steps.lowerBound) * 100 / (steps.count - 1) : 100
            StandardStream.error.write("\rsearching: step \(step) of \(steps.lowerBound)…\(steps.upperBound) (\(done)%), Ctrl-C stops".utf8)
            drawn = true
            return !LineEditor.interruptRequested
        }
        var repeats = CommandRepeat()
        var historyWritable = true
        while true {
            let line: String
            if let editor {
                switch editor.read(prompt: session.prompt) {
                case .end:
                    write("\n")
                    return
                case .cancelled:
                    write("\n")
                    continue
                case .line(let text):
                    line = text
                }
                if historyWritable, history != nil {
                    do {
                        if try history!.add(line) { editor.remember(line) }
                    } catch {
                        notice("atoms-inspect: \(error.message)")
                        historyWritable = false
                    }
                }
            } else {
                write(session.prompt)
                guard let text = readLine() else { return }
                line = text
            }
            let (output, quit) = session.handle(repeats.resolve(line))
            if drawn {
                StandardStream.error.write("\r\u{1B}[K".utf8)
                drawn = false
            }
            if !output.isEmpty {
                write(output.hasSuffix("\n") ? output : output + "\n")
            }
            if quit { return }
        }
    }
}
