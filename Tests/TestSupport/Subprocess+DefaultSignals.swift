import Foundation

extension Subprocess {
    /// Runs a program with every signal unblocked and at its default, its output (stdout and
    /// stderr) in a file, killed after `seconds`.
    ///
    /// Not `Process`: it starts children with the calling thread's signal mask, and a test's
    /// thread blocks most signals, so a tmux server started that way never sees the SIGTERM
    /// of `kill-server` (nor SIGCHLD). Nor pipes: the server outlives the command.
    public static func runWithDefaultSignals(_ command: [String], outputTo path: String, seconds: Double) throws -> (status: Int32, output: String) {
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
                throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(command.joined(separator: " ")) took over \(seconds) s"])
            }
            usleep(2_000)
        }
        let output = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        // Exited normally: the status; killed: 128 + the signal, as a shell says.
        let code = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (code, output)
    }
}
