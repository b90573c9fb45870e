import Foundation

extension Subprocess {
    /// Runs a program with every signal unblocked and at its default, its output (stdout and
    /// stderr) in a file, killed after `seconds`.
    ///
    /// Not `Process`: it starts children with the calling thread's signal mask, and a test's
    /// thread blocks most signals, so a tmux server started that way never sees the SIGTERM
    /// of `kill-server` (nor SIGCHLD). Nor pipes: the server outlives the command.
    public static nonisolated(nonsending) func runWithDefaultSignals(_ command: [String], outputTo path: String, seconds: Double) async throws -> (status: Int32, output: String) {
        let pid = try spawnWithDefaultSignals(command, outputTo: path)
        let deadline = Patience.deadline(after: seconds)
        var status: Int32 = 0
        // No exit notice reaches an async caller without a thread blocked in waitpid; the
        // commands run here take milliseconds, so a poll that sleeps between checks is the
        // lighter wait.
        var pause = 1
        while waitpid(pid, &status, WNOHANG) == 0 {
            if ContinuousClock.now > deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(command.joined(separator: " ")) took over \(seconds) s"])
            }
            try? await Task.sleep(for: .milliseconds(pause))
            pause = min(pause * 2, 16)
        }
        let output = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        // Exited normally: the status; killed: 128 + the signal, as a shell says.
        let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (code, output)
    }

    /// Starts a program as ``runWithDefaultSignals(_:outputTo:seconds:)`` does and leaves it: a
    /// thread of its own collects its exit, holding `owner` until then (the folder of a tmux
    /// server's socket, which `kill-server` needs). For what must happen where nothing can wait
    /// (a `deinit`'s `kill-server`).
    public static func startWithDefaultSignals(_ command: [String], outputTo path: String, keepingAlive owner: (any Sendable)? = nil) {
        guard let pid = try? spawnWithDefaultSignals(command, outputTo: path) else { return }
        Thread.detachNewThread {
            var status: Int32 = 0
            withExtendedLifetime(owner) {
                _ = waitpid(pid, &status, 0)
            }
        }
    }

    private static func spawnWithDefaultSignals(_ command: [String], outputTo path: String) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        InheritedDescriptors.close(above: 2, in: &actions)
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
        return pid
    }
}
