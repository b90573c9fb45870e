import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A recording program's control endpoint: a Unix domain socket through which
/// `atoms-inspect attach` follows the journal and moves the live program through its history
/// (the protocol: docs/CONTROL.md).
///
/// Made by ``JournalRecorder/listen(at:)``; closed by ``close()``, by the recorder's
/// `close()`, or at exit. Only the user running the program may connect.
@MainActor
public final class ControlEndpoint {
    /// The socket's path.
    public let path: String
    private let server: ControlServer
    private let travel: LiveTimeTravel
    private var isClosed = false

    init(server: ControlServer, travel: LiveTimeTravel) {
        path = server.path
        self.server = server
        self.travel = travel
    }

    /// Tells attached clients the endpoint is closing, disconnects them and removes the socket.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        server.stop()
    }
}

public extension JournalRecorder {
    /// Opens a control endpoint for `atoms-inspect attach`: a Unix domain socket (mode 0600)
    /// served by a thread of its own. Requests that read or move the store run on the main
    /// actor between transactions, so the main actor must be free to run them (a program that
    /// blocks its main thread reading input serves them only when it stops).
    ///
    /// ## Example
    /// ```swift
    /// let recorder = try JournalRecorder(path: "session.jsonl")
    /// recorder.attach(to: root.store)
    /// let endpoint = try recorder.listen()
    /// print("atoms-inspect attach \(endpoint.path)")
    /// ```
    ///
    /// - Parameter path: The socket's path; by default `PROGRAM.PID.sock` in
    ///   `$XDG_RUNTIME_DIR/atoms-control` (or `atoms-control-UID` in the temporary directory),
    ///   where `atoms-inspect attach --list` finds it.
    /// - Returns: The endpoint (the recorder keeps it until closed).
    /// - Throws: ``JournalError/cannotCreate(path:reason:)`` when the socket cannot be made, or
    ///   when the recorder writes to memory rather than a journal file.
    @discardableResult
    func listen(at path: String? = nil) throws(JournalError) -> ControlEndpoint {
        try listen(at: path, acceptedUser: getuid(), queueLimit: 1 << 20)
    }

    /// ``listen(at:)`` serving the user `acceptedUser`, with at most `queueLimit` bytes
    /// waiting for each client.
    package func listen(at path: String?, acceptedUser: uid_t, queueLimit: Int) throws(JournalError) -> ControlEndpoint {
        let programName = program ?? (CommandLine.arguments.first.map { ($0 as NSString).lastPathComponent } ?? "program")
        let socketPath: String
        if let path {
            socketPath = path
        } else {
            socketPath = try ControlDirectory.socketPath(program: programName)
        }
        guard let store else {
            throw .cannotCreate(path: socketPath, reason: "the recorder records no store yet: call attach(to:) first")
        }
        guard control == nil else {
            throw .cannotCreate(path: socketPath, reason: "the recorder is listening already, at \(control!.path)")
        }
        guard let location = file else {
            throw .cannotCreate(path: socketPath, reason: "the recorder writes to memory; a control endpoint needs a journal file")
        }
        let journal = location.path.hasPrefix("/") ? location.path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(location.path)
        let travel = LiveTimeTravel(store: store, recorder: self, journal: journal, program: programName)
        let server = try ControlServer(
            path: socketPath,
            acceptedUser: acceptedUser,
            queueLimit: queueLimit,
            journalFile: location.isFolder ? nil : journal
        ) { [weak travel] request in
            travel?.handle(request) ?? ControlProtocol.error(.init("closed", "the endpoint is closed"))
        }
        travel.broadcast = { [weak server] line in server?.broadcast(line) }
        let endpoint = ControlEndpoint(server: server, travel: travel)
        control = endpoint
        return endpoint
    }
}
