import Foundation

/// A program run in a real pseudo-terminal: a tmux server of its own (its socket in a
/// temporary folder), keys sent with `send-keys`, the screen read with `capture-pane`.
/// Every wait polls the screen until a text appears or a deadline passes, sleeping (not
/// blocking a thread) between looks.
public final class TerminalSession: Sendable {
    /// Where tmux is, or `nil` when it is not installed.
    public static let tmux: String? = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].first(where: FileManager.default.isExecutableFile)

    private let socket: String
    private let tmux: String
    /// The folder of the socket: it stays until the server was told to stop.
    private let directory: TemporaryDirectory
    /// Where tmux commands write what they print.
    private let output: String

    /// Starts `command` (a program and its arguments) with `environment` added, in a window of
    /// 100 × 40. When the program exits, the pane prints `[exited STATUS]`.
    public nonisolated(nonsending) init(_ command: [String], environment: [String: String] = [:], in directory: TemporaryDirectory) async throws {
        guard let tmux = Self.tmux else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "tmux is not installed"])
        }
        self.tmux = tmux
        self.directory = directory
        socket = directory.path("tmux-\(UUID().uuidString.prefix(8))")
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\(Self.quoted($0.value))" }
        let line = (["env", "TERM=xterm-256color"] + assignments + command.map(Self.quoted)).joined(separator: " ")
        let script = "\(line); echo \"[exited $?]\"; sleep 60"
        output = directory.path("tmux-\(UUID().uuidString.prefix(8)).out")
        try await tmuxCommand(["-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "40", "/bin/sh", "-c", script])
    }

    deinit {
        Subprocess.startWithDefaultSignals([tmux, "-S", socket, "kill-server"], outputTo: "/dev/null", keepingAlive: directory)
    }

    /// Sends keys as `tmux send-keys` takes them: text, or names such as `Enter`, `Tab`,
    /// `Up`, `C-c`, `C-d`.
    public nonisolated(nonsending) func send(_ keys: String...) async throws {
        try await tmuxCommand(["send-keys", "-t", "0"] + keys)
    }

    /// Sends text literally (no key names).
    public nonisolated(nonsending) func type(_ text: String) async throws {
        try await tmuxCommand(["send-keys", "-t", "0", "-l", text])
    }

    /// The screen's text now.
    public nonisolated(nonsending) func screen() async throws -> String {
        try await tmuxCommand(["capture-pane", "-p", "-t", "0"])
    }

    /// Waits until the screen holds `text`; returns the screen.
    ///
    /// - Throws: ``TimedOut`` with the screen's last text after `timeout` seconds.
    @discardableResult
    public nonisolated(nonsending) func waitFor(_ text: String, timeout: Double = 60) async throws -> String {
        let deadline = Patience.date(after: timeout)
        var last = ""
        while Date() < deadline {
            // Until the server is up, there is no screen to read.
            last = (try? await screen()) ?? last
            if last.contains(text) { return last }
            try await Task.sleep(for: .milliseconds(30))
        }
        throw TimedOut(text: text, screen: last)
    }

    /// Waits until `count` lines of the screen hold `text`.
    @discardableResult
    public nonisolated(nonsending) func waitFor(_ text: String, count: Int, timeout: Double = 60) async throws -> String {
        let deadline = Patience.date(after: timeout)
        var last = ""
        while Date() < deadline {
            last = (try? await screen()) ?? last
            if last.split(separator: "\n").filter({ $0.contains(text) }).count >= count { return last }
            try await Task.sleep(for: .milliseconds(30))
        }
        throw TimedOut(text: "\(count) × \(text)", screen: last)
    }

    /// A text that did not appear in time.
    public struct TimedOut: Error, CustomStringConvertible {
        /// The text waited for.
        public let text: String
        /// The screen when the wait gave up.
        public let screen: String

        public var description: String {
            "'\(text)' did not appear; the screen:\n\(screen)"
        }
    }

    /// Runs a tmux command on this session's server. Not through `Subprocess.run`: a server
    /// started with a test thread's blocked signals never hears `kill-server`, and its client
    /// lingers (see ``Subprocess/runWithDefaultSignals(_:outputTo:seconds:)``).
    @discardableResult
    private nonisolated(nonsending) func tmuxCommand(_ arguments: [String]) async throws -> String {
        let run = try await Subprocess.runWithDefaultSignals([tmux, "-S", socket] + arguments, outputTo: output, seconds: 10)
        guard run.status == 0 else {
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "tmux \(arguments.first ?? "") failed: \(run.output)"])
        }
        return run.output
    }

    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
