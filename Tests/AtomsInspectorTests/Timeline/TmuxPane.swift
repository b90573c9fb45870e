import Foundation
import TestSupport

/// A program run in a pane of its own tmux server (its own socket, so tests never touch a
/// user's tmux nor each other's), driven with `send-keys` and read with `capture-pane`.
///
/// The pane runs `script` under `sh` in a folder of its own; ``close()`` (or deinit) kills the
/// server. Every wait polls with a deadline.
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
    init(_ script: String, columns: Int = 80, rows: Int = 24, environment: [String: String] = [:]) throws {
        directory = try TemporaryDirectory()
        socket = directory.path("tmux.sock")
        try directory.write("pane.sh", script)
        var arguments = ["-f", "/dev/null", "new-session", "-d", "-x", String(columns), "-y", String(rows), "-c", directory.url.path]
        for (name, value) in environment.sorted(by: { $0.key < $1.key }) {
            arguments += ["-e", "\(name)=\(value)"]
        }
        try tmux(arguments + ["sh", directory.path("pane.sh")])
    }

    deinit {
        close()
    }

    /// Kills the server (and with it the pane's programs).
    func close() {
        guard !closed else { return }
        closed = true
        _ = try? tmux(["kill-server"])
    }

    /// Runs a tmux command on this server.
    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
        let (status, output) = try Self.spawn([Self.executable!, "-S", socket] + arguments, outputTo: directory.path("tmux.out"), seconds: 10)
        guard status == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "tmux \(arguments.joined(separator: " ")) exited \(status): \(output)"])
        }
        return output
    }

    /// Runs a program with every signal unblocked and at its default, its output (stdout and
    /// stderr) in a file, killed after `seconds`.
    ///
    /// Not `Process`: it starts children with the calling thread's signal mask, and a test's
    /// thread blocks most signals, so a tmux server started that way never sees the SIGTERM
    /// of `kill-server` (nor SIGCHLD). Nor pipes: the server outlives the command.
    private static func spawn(_ command: [String], outputTo path: String, seconds: Double) throws -> (status: Int32, output: String) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let environment = ["LANG=C.UTF-8", "TERM=xterm-256color", "PATH=/usr/bin:/bin"]
        var pid: pid_t = 0
        let arguments = command.map { strdup($0) } + [nil]
        let variables = environment.map { strdup($0) } + [nil]
        defer { (arguments + variables).forEach { free($0) } }
        let error = posix_spawn(&pid, command[0], &actions, &attributes, arguments, variables)
        guard error == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "cannot start \(command[0]): \(String(cString: strerror(error)))"])
        }
        let deadline = Date().addingTimeInterval(seconds)
        var status: Int32 = 0
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                throw TimedOut(waitingFor: command.joined(separator: " "), screen: "")
            }
            usleep(2_000)
        }
        let output = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        // Exited normally: the status; killed: 128 + the signal, as a shell says.
        let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (code, output)
    }

    /// Sends keys by tmux's names (`Right`, `PageDown`, `C-c`, `q`).
    func send(_ keys: String...) throws {
        try tmux(["send-keys", "-t", "0"] + keys)
    }

    /// The pane's text; with `escapes`, with the SGR codes of its colours and attributes.
    func screen(escapes: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p", "-t", "0"] + (escapes ? ["-e"] : []))
    }

    /// A tmux format about the pane (`#{alternate_on}`, `#{cursor_flag}`).
    func format(_ format: String) throws -> String {
        try tmux(["display-message", "-p", "-t", "0", format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls the screen every 20 ms until `condition` holds, for at most `seconds`.
    @discardableResult
    func waitForScreen(_ what: String, seconds: Double = 10, escapes: Bool = false, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var screen = ""
        while Date() < deadline {
            screen = try self.screen(escapes: escapes)
            if condition(screen) { return screen }
            usleep(20_000)
        }
        throw TimedOut(waitingFor: what, screen: screen)
    }

    /// Polls for a file the script writes (ending with a newline), for at most `seconds`.
    func waitForFile(_ name: String, seconds: Double = 10) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: directory.path(name), encoding: .utf8), text.hasSuffix("\n") {
                return text
            }
            usleep(20_000)
        }
        throw TimedOut(waitingFor: name, screen: (try? screen()) ?? "")
    }
}
