import Foundation
import TestSupport

/// A program run in a pane of its own tmux server (its own socket, so tests never touch a
/// user's tmux nor each other's), driven with `send-keys` and read with `capture-pane`.
///
/// The pane runs `script` under `sh` in a folder of its own; ``close()`` (or deinit) kills the
/// server. Every wait polls with a deadline, sleeping between looks.
final class TmuxPane {
    /// tmux, when installed.
    static let executable = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// What a wait that timed out last saw.
    struct TimedOut: Error, CustomStringConvertible {
        let waitingFor: String
        let screen: String
        var description: String { "timed out waiting for \(waitingFor); the pane shows:\n\(screen)" }
    }

    /// The pane's folder: the script's working directory.
    let directory: TemporaryDirectory
    private let socket: String
    private var closed = false

    /// Starts `script` in a `columns`×`rows` pane with `environment` added.
    nonisolated(nonsending) init(_ script: String, columns: Int = 80, rows: Int = 24, environment: [String: String] = [:]) async throws {
        directory = try TemporaryDirectory()
        socket = directory.path("tmux.sock")
        try directory.write("pane.sh", script)
        var arguments = ["-f", "/dev/null", "new-session", "-d", "-x", String(columns), "-y", String(rows), "-c", directory.url.path]
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) {
            arguments += ["-e", "\(name)=\(value)"]
        }
        try await tmux(arguments + ["sh", directory.path("pane.sh")])
    }

    deinit {
        close()
    }

    /// Kills the server (and with it the pane's programs).
    func close() {
        guard !closed else { return }
        closed = true
        Subprocess.startWithDefaultSignals([Self.executable!, "-S", socket, "kill-server"], outputTo: "/dev/null", keepingAlive: directory)
    }

    /// Runs a tmux command on this server.
    @discardableResult
    nonisolated(nonsending) func tmux(_ arguments: [String]) async throws -> String {
        let (status, output) = try await Subprocess.runWithDefaultSignals([Self.executable!, "-S", socket] + arguments, outputTo: directory.path("tmux.out"), seconds: 10)
        guard status == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "tmux \(arguments.joined(separator: " ")) exited \(status): \(output)"])
        }
        return output
    }

    /// Sends keys by tmux's names (`Right`, `PageDown`, `C-c`, `q`).
    nonisolated(nonsending) func send(_ keys: String...) async throws {
        try await tmux(["send-keys", "-t", "0"] + keys)
    }

    /// The pane's text; with `escapes`, with the SGR codes of its colours and attributes.
    nonisolated(nonsending) func screen(escapes: Bool = false) async throws -> String {
        try await tmux(["capture-pane", "-p", "-t", "0"] + (escapes ? ["-e"] : []))
    }

    /// A tmux format about the pane (`#{alternate_on}`, `#{cursor_flag}`).
    nonisolated(nonsending) func format(_ format: String) async throws -> String {
        try await tmux(["display-message", "-p", "-t", "0", format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls the screen every 20 ms (sleeping, not blocking a thread) until `condition` holds, for at most `seconds`.
    @discardableResult
    nonisolated(nonsending) func waitForScreen(_ what: String, seconds: Double = 120, escapes: Bool = false, _ condition: (String) -> Bool) async throws -> String {
        let deadline = Patience.date(after: seconds)
        var screen = ""
        while Date() < deadline {
            screen = try await self.screen(escapes: escapes)
            if condition(screen) { return screen }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TimedOut(waitingFor: what, screen: screen)
    }

    /// Polls for a file the script writes (ending with a newline), for at most `seconds`.
    nonisolated(nonsending) func waitForFile(_ name: String, seconds: Double = 120) async throws -> String {
        let deadline = Patience.date(after: seconds)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: directory.path(name), encoding: .utf8), text.hasSuffix("\n") {
                return text
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TimedOut(waitingFor: name, screen: (try? await screen()) ?? "")
    }
}
