import Dispatch
import Foundation
import Synchronization

/// Dumps a flight recorder each time the process receives a signal: into a folder, under a
/// name no later dump reuses (`program.pid.N.jsonl`), reporting where on stderr in one line.
///
/// The dump runs on a queue of its own, not on the main actor, so a program whose main thread
/// is stuck still writes one; it waits (at most ten seconds) for the recorder's thread to build
/// the transactions queued before the signal, and not for those queued after.
final class FlightRecorderSignal: @unchecked Sendable {
    // Unchecked: `source` is set once in `init` and only resumed and cancelled after, which
    // Dispatch allows from any thread; the other state is immutable or behind `next`'s lock.
    private let source: any DispatchSourceSignal
    private let directory: String
    private let program: String
    private let sink: FlightRecorderSink
    /// The number of the next dump.
    private let next = Mutex(1)

    /// Starts handling `signal`; returns once the handler is in place, so a signal sent after
    /// this returns is never lost.
    ///
    /// - Throws: ``JournalError/cannotCreate(path:reason:)`` when `directory` is not a folder
    ///   this process can write to.
    init(signal: Int32, directory: String, program: String, sink: FlightRecorderSink) throws(JournalError) {
        var status = stat()
        guard stat(directory, &status) == 0 else {
            throw .cannotCreate(path: directory, reason: String(cString: strerror(errno)).lowercased())
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw .cannotCreate(path: directory, reason: "not a folder: flight recorder dumps go into a folder")
        }
        guard access(directory, W_OK | X_OK) == 0 else {
            throw .cannotCreate(path: directory, reason: String(cString: strerror(errno)).lowercased())
        }
        self.directory = directory
        self.program = program
        self.sink = sink
        guard Self.turnOffDefaultAction(of: signal) else {
            throw .cannotCreate(path: directory, reason: "signal \(signal) cannot be handled: pick another, such as SIGUSR1")
        }
        source = DispatchSource.makeSignalSource(signal: signal, queue: DispatchQueue(label: "atoms.journal.flight-recorder"))
        let registered = DispatchSemaphore(value: 0)
        source.setRegistrationHandler { registered.signal() }
        source.setEventHandler { [self] in dumpForSignal() }
        source.resume()
        _ = registered.wait(timeout: .now() + 5)
    }

    /// Dispatch asks for the signal's default action (ending the process, for most) to be
    /// turned off first; a handler already there (Dispatch's own, from an earlier source)
    /// stays. `false` when the signal cannot be caught.
    private static func turnOffDefaultAction(of signal: Int32) -> Bool {
        guard let previous = Foundation.signal(signal, SIG_IGN) else {
            return true  // it was the default action
        }
        // Unchecked: a handler is a C function pointer; SIG_ERR is the pointer -1.
        guard unsafeBitCast(previous, to: Int.self) != -1 else {
            return false
        }
        Foundation.signal(signal, previous)
        return true
    }

    /// Stops handling the signal (it stays ignored).
    func cancel() {
        source.cancel()
    }

    /// The path of the next dump.
    private func nextPath() -> String {
        let number = next.withLock { number in
            defer { number += 1 }
            return number
        }
        let folder = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        return "\(folder)/\(program).\(getpid()).\(number).jsonl"
    }

    private func dumpForSignal() {
        let path = nextPath()
        sink.catchUp(within: 10)
        let message: String
        do {
            let steps = try sink.dump(to: path)
            message = "\(program): flight recorder: wrote \(path) (steps \(steps.lowerBound)…\(steps.upperBound))\n"
        } catch {
            message = "\(program): flight recorder: \(error)\n"
        }
        FileHandle.standardError.write(Data(message.utf8))
    }
}
