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
import CAtomsSpawn

/// Runs a program directly (`posix_spawn`, never a shell): feeds its standard input, collects
/// its standard output and error, and waits for it; what Graphviz and DuckDB are run with. The
/// program inherits no descriptor but those three.
///
/// Input, output and errors are served together by one `poll` loop, so a large input or output
/// cannot fill a pipe and deadlock. Standard input is a socket written with `MSG_NOSIGNAL`
/// (`SO_NOSIGPIPE` on Darwin): a program that exits without reading it ends the writing, it does
/// not raise SIGPIPE in the inspector.
package enum ChildProcess {
    /// How a program ended and what it wrote.
    package struct Result: Sendable {
        /// Its exit status, or 128 plus the signal that ended it.
        package var status: Int32
        /// Its standard output (empty when not collected).
        package var output: [UInt8]
        /// Its standard error.
        package var errors: [UInt8]
    }

    /// Runs `executable` with `arguments` and waits for it to end.
    ///
    /// - Parameters:
    ///   - input: Bytes for its standard input, which is then closed; `nil` gives it `/dev/null`.
    ///   - collectingOutput: Whether to keep its standard output; otherwise it goes to `/dev/null`.
    /// - Throws: A `POSIXError` when the program cannot be started.
    package static func run(_ executable: String, _ arguments: [String], input: [UInt8]? = nil, collectingOutput: Bool = true) throws(POSIXError) -> Result {
        var inputPair: [Int32] = [-1, -1]
        var outputPipe: [Int32] = [-1, -1]
        var errorPipe: [Int32] = [-1, -1]
        defer {
            for descriptor in inputPair + outputPipe + errorPipe where descriptor >= 0 {
                close(descriptor)
            }
        }
        if input != nil {
            #if canImport(Glibc)
            let kind = Int32(SOCK_STREAM.rawValue)
            #else
            let kind = SOCK_STREAM
            #endif
            guard socketpair(AF_UNIX, kind, 0, &inputPair) == 0 else { throw currentError() }
            #if canImport(Darwin)
            var on: Int32 = 1
            setsockopt(inputPair[1], SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
            #endif
        }
        if collectingOutput {
            guard pipe(&outputPipe) == 0 else { throw currentError() }
        }
        guard pipe(&errorPipe) == 0 else { throw currentError() }
        // The inspector's ends stay out of the child; the child's are duplicated onto 0, 1, 2.
        for descriptor in [inputPair[1], outputPipe[0], errorPipe[0]] where descriptor >= 0 {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }

        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t? = nil
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if input != nil {
            posix_spawn_file_actions_adddup2(&actions, inputPair[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        if collectingOutput {
            posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, errorPipe[1], 2)
        // Nothing else of the inspector's (a journal, a socket to a program it is attached to)
        // goes to Graphviz or DuckDB.
        let closing = atoms_spawn_close_from(&actions, 3)
        guard closing == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: closing) ?? .EIO)
        }

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, executable, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO)
        }
        // Only the child holds its ends now, so end of file arrives when it exits.
        for descriptor in [inputPair[0], outputPipe[1], errorPipe[1]] where descriptor >= 0 {
            close(descriptor)
        }
        (inputPair[0], outputPipe[1], errorPipe[1]) = (-1, -1, -1)

        var result = Result(status: 0, output: [], errors: [])
        exchange(input: input ?? [], writingTo: &inputPair[1], output: &outputPipe[0], errors: &errorPipe[0], into: &result)
        result.status = waitForExit(child)
        return result
    }

    /// Writes `input` and reads output and errors until the program has closed both.
    private static func exchange(input: [UInt8], writingTo inputEnd: inout Int32, output: inout Int32, errors: inout Int32, into result: inout Result) {
        var written = 0
        if inputEnd >= 0 && input.isEmpty {
            close(inputEnd)
            inputEnd = -1
        }
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while inputEnd >= 0 || output >= 0 || errors >= 0 {
            var watched = [pollfd]()
            if inputEnd >= 0 { watched.append(pollfd(fd: inputEnd, events: Int16(POLLOUT), revents: 0)) }
            if output >= 0 { watched.append(pollfd(fd: output, events: Int16(POLLIN), revents: 0)) }
            if errors >= 0 { watched.append(pollfd(fd: errors, events: Int16(POLLIN), revents: 0)) }
            guard poll(&watched, nfds_t(watched.count), -1) >= 0 || errno == EINTR else { return }
            for entry in watched where entry.revents != 0 {
                if entry.fd == inputEnd {
                    let sent = input.withUnsafeBytes { raw in
                        #if canImport(Glibc)
                        send(inputEnd, raw.baseAddress! + written, raw.count - written, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                        #else
                        send(inputEnd, raw.baseAddress! + written, raw.count - written, MSG_DONTWAIT)
                        #endif
                    }
                    if sent > 0 { written += sent }
                    if written == input.count || (sent < 0 && errno != EINTR && errno != EAGAIN) {
                        close(inputEnd)
                        inputEnd = -1
                    }
                } else {
                    let got = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress!, $0.count) }
                    if got > 0 {
                        if entry.fd == output {
                            result.output.append(contentsOf: buffer[..<got])
                        } else {
                            result.errors.append(contentsOf: buffer[..<got])
                        }
                    } else if got == 0 || (errno != EINTR && errno != EAGAIN) {
                        close(entry.fd)
                        if entry.fd == output { output = -1 } else { errors = -1 }
                    }
                }
            }
        }
    }

    /// The exit status, or 128 plus the signal that ended the program.
    private static func waitForExit(_ child: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 {
            guard errno == EINTR else { return -1 }
        }
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }

    /// Why a program could not be started, as `strerror` words it.
    package static func describe(_ error: POSIXError) -> String {
        String(cString: strerror(error.code.rawValue))
    }

    private static func currentError() -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}
