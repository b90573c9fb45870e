import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
private let systemAccept = Glibc.accept
#elseif canImport(Darwin)
import Darwin
private let systemAccept = Darwin.accept
#endif

/// The control endpoint's thread: one `poll()` over the listening socket, the clients and a
/// wake pipe; it reads and parses requests, hands those that touch the store to the main
/// actor, tails the journal for the clients that follow, and writes every outgoing line
/// without blocking.
///
/// The main actor only posts mail (a reply, an event) under a lock and writes a byte to the
/// wake pipe: it never waits for a client. Each client's outgoing lines sit in a queue of at
/// most `queueLimit` bytes: a follower whose queue is full misses journal lines and is then
/// told how many (`event missed`); a client that cannot take a reply or an event is dropped.
/// A client has at most one request on the main actor at a time: the thread reads no more of
/// its lines until the reply is posted.
package final class ControlServer: Sendable {
    /// Answers a request on the main actor, between transactions: the reply line.
    package typealias Handler = @MainActor @Sendable (ControlRequest) -> [UInt8]

    /// The socket's path.
    package let path: String
    private let listener: Int32
    private let wakeReader: Int32
    private let wakeWriter: Int32
    private let acceptedUser: uid_t
    private let queueLimit: Int
    private let journalFile: String?
    private let handler: Handler
    private let mailbox = LockedMailbox()
    private let finished = DispatchSemaphore(value: 0)

    /// The most clients at once; more are told so and closed.
    static let maximumClients = 16

    private struct Mailbox {
        var replies: [(client: Int, line: [UInt8])] = []
        var events: [[UInt8]] = []
        var stopping = false
    }

    /// The mail, behind a pthread mutex (which ThreadSanitizer understands).
    private final class LockedMailbox: @unchecked Sendable {
        // Unchecked: `mail` is only touched with `lock` held.
        private let lock = NSLock()
        private var mail = Mailbox()

        func withLock<Result>(_ body: (inout Mailbox) -> Result) -> Result {
            lock.lock()
            defer { lock.unlock() }
            return body(&mail)
        }
    }

    /// Listens at `path` and starts the thread.
    ///
    /// - Parameters:
    ///   - acceptedUser: The only user id whose connections are served (the process's own).
    ///   - queueLimit: The most bytes waiting to be sent to one client.
    ///   - journalFile: The journal file `follow` tails; `nil` when it cannot be followed.
    /// - Throws: ``JournalError/cannotCreate(path:reason:)``.
    package init(path: String, acceptedUser: uid_t, queueLimit: Int, journalFile: String?, handler: @escaping Handler) throws(JournalError) {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else {
            throw .cannotCreate(path: path, reason: UnixSocket.lastError)
        }
        pipeEnds.forEach(UnixSocket.makeNonBlocking)
        do {
            listener = try UnixSocket.listen(at: path)
        } catch {
            close(pipeEnds[0])
            close(pipeEnds[1])
            throw error
        }
        self.path = path
        wakeReader = pipeEnds[0]
        wakeWriter = pipeEnds[1]
        self.acceptedUser = acceptedUser
        self.queueLimit = max(queueLimit, 4096)
        self.journalFile = journalFile
        self.handler = handler
        ControlSocketCleanup.removeAtExit(path)
        Thread.detachNewThread { [self] in
            run()
            finished.signal()
        }
    }

    /// Sends an event to every client.
    package func broadcast(_ line: [UInt8]) {
        mailbox.withLock { $0.events.append(line) }
        wake()
    }

    /// Tells the clients the endpoint is closing, stops the thread (waiting at most a second
    /// for it), closes every socket and removes the socket file.
    package func stop() {
        mailbox.withLock {
            $0.events.append(ControlProtocol.line("event", "closing", ControlMessages.Empty()))
            $0.stopping = true
        }
        wake()
        _ = finished.wait(timeout: .now() + 1)
        unlink(path)
        ControlSocketCleanup.forget(path)
    }

    private func post(reply line: [UInt8], to client: Int) {
        mailbox.withLock { $0.replies.append((client, line)) }
        wake()
    }

    private func wake() {
        var byte: UInt8 = 1
        // A full pipe already wakes the thread.
        _ = write(wakeWriter, &byte, 1)
    }

    // MARK: - The thread

    private struct Client {
        let id: Int
        let descriptor: Int32
        var input: [UInt8] = []
        var discardingLongLine = false
        var output: [UInt8] = []
        var sent = 0
        var isBusy = false
        var isFollowing = false
        var missedLines = 0
        var closesWhenSent = false
        var isGone = false

        var queued: Int { output.count - sent }
    }

    private func run() {
        var clients: [Client] = []
        var nextID = 0
        var tail: JournalTail?
        while true {
            let (replies, events, stopping) = mailbox.withLock { mail in
                defer {
                    mail.replies.removeAll()
                    mail.events.removeAll()
                }
                return (mail.replies, mail.events, mail.stopping)
            }
            for (id, line) in replies {
                guard let index = clients.firstIndex(where: { $0.id == id }) else { continue }
                clients[index].isBusy = false
                enqueue(line, to: &clients[index])
            }
            for line in events {
                for index in clients.indices { enqueue(line, to: &clients[index]) }
            }
            if stopping {
                for index in clients.indices {
                    flush(&clients[index])
                    close(clients[index].descriptor)
                }
                break
            }
            for index in clients.indices {
                handleInput(of: &clients[index], tail: &tail)
            }
            if clients.contains(where: { $0.isFollowing && !$0.isGone }) {
                follow(&clients, tail: &tail)
            } else {
                tail = nil
            }
            for index in clients.indices where clients[index].queued > 0 {
                flush(&clients[index])
            }
            clients.removeAll { client in
                let done = client.isGone || (client.closesWhenSent && client.queued == 0)
                if done { close(client.descriptor) }
                return done
            }

            var descriptors = [pollfd(fd: wakeReader, events: Int16(POLLIN), revents: 0), pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            for client in clients {
                var events: Int32 = 0
                if !client.isBusy && !client.closesWhenSent { events |= Int32(POLLIN) }
                if client.queued > 0 { events |= Int32(POLLOUT) }
                descriptors.append(pollfd(fd: client.descriptor, events: Int16(events), revents: 0))
            }
            let timeout: Int32 = tail != nil ? 50 : -1
            guard poll(&descriptors, nfds_t(descriptors.count), timeout) >= 0 || errno == EINTR else {
                break
            }
            if descriptors[0].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 256)
                while read(wakeReader, &drain, drain.count) > 0 {}
            }
            if descriptors[1].revents != 0 {
                accept(into: &clients, nextID: &nextID)
            }
            for (offset, polled) in descriptors.dropFirst(2).enumerated() where polled.revents != 0 && offset < clients.count {
                receive(into: &clients[offset])
            }
        }
        close(listener)
        close(wakeReader)
        close(wakeWriter)
    }

    private func accept(into clients: inout [Client], nextID: inout Int) {
        while true {
            let descriptor = systemAccept(listener, nil, nil)
            guard descriptor >= 0 else { return }
            UnixSocket.makeNonBlocking(descriptor)
            var refusal: ControlProtocol.Refusal?
            if UnixSocket.peerUser(of: descriptor) != acceptedUser {
                refusal = .init("refused", "only the user running the program may control it")
            } else if clients.count >= Self.maximumClients {
                refusal = .init("busy", "\(Self.maximumClients) clients are attached already; close one and try again")
            }
            if let refusal {
                let line = ControlProtocol.error(refusal)
                _ = line.withUnsafeBytes { UnixSocket.sendSome(descriptor, $0) }
                close(descriptor)
                continue
            }
            clients.append(Client(id: nextID, descriptor: descriptor))
            nextID += 1
        }
    }

    private func receive(into client: inout Client) {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(client.descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        if count > 0 {
            client.input.append(contentsOf: buffer[..<count])
        } else if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            // The client went away (perhaps mid-request: its reply is then dropped).
            client.isGone = true
        }
    }

    /// Handles the client's complete request lines, until one goes to the main actor.
    private func handleInput(of client: inout Client, tail: inout JournalTail?) {
        while !client.isBusy && !client.closesWhenSent && !client.isGone {
            guard let newline = client.input.firstIndex(of: 0x0A) else {
                if client.input.count > ControlProtocol.maximumRequestLength {
                    client.input.removeAll()
                    if !client.discardingLongLine {
                        client.discardingLongLine = true
                        enqueue(ControlProtocol.error(.init("too-long", "a request is at most \(ControlProtocol.maximumRequestLength) bytes")), to: &client)
                    }
                }
                return
            }
            let line = client.input[..<newline]
            defer { client.input.removeSubrange(...newline) }
            if client.discardingLongLine {
                client.discardingLongLine = false
                continue
            }
            switch ControlProtocol.parse(line) {
            case .failure(let refusal):
                enqueue(ControlProtocol.error(refusal), to: &client)
            case .success(.close):
                enqueue(ControlProtocol.line("ok", "close", ControlMessages.Empty()), to: &client)
                client.closesWhenSent = true
            case .success(.follow):
                startFollowing(&client, tail: &tail)
            case .success(let request):
                client.isBusy = true
                let id = client.id
                DispatchQueue.main.async { [self] in
                    MainActor.assumeIsolated {
                        post(reply: handler(request), to: id)
                    }
                }
            }
        }
    }

    private func startFollowing(_ client: inout Client, tail: inout JournalTail?) {
        guard let journalFile else {
            enqueue(ControlProtocol.error(.init("unsupported", "follow needs a journal file; this program records to memory or to a bounded journal's folder")), to: &client)
            return
        }
        if tail == nil {
            tail = JournalTail(path: journalFile)
        }
        guard let offset = tail?.offset else {
            enqueue(ControlProtocol.error(.init("journal", "cannot open \(journalFile): \(UnixSocket.lastError)")), to: &client)
            return
        }
        client.isFollowing = true
        enqueue(ControlProtocol.line("ok", "follow", ControlMessages.Follow(offset: offset)), to: &client)
    }

    /// Sends the journal's new lines to the followers; a follower without room misses them.
    private func follow(_ clients: inout [Client], tail: inout JournalTail?) {
        let lines = tail?.newLines() ?? []
        for index in clients.indices where clients[index].isFollowing {
            for line in lines {
                let message = Array("event journal ".utf8) + line + [0x0A]
                if clients[index].missedLines > 0 || clients[index].queued + message.count > queueLimit {
                    clients[index].missedLines += 1
                } else {
                    clients[index].output.append(contentsOf: message)
                }
            }
            // Room again: say what was missed (the client reads it from the journal).
            if clients[index].missedLines > 0 && clients[index].queued <= queueLimit / 2 {
                enqueue(ControlProtocol.line("event", "missed", ControlMessages.Missed(lines: clients[index].missedLines)), to: &clients[index])
                clients[index].missedLines = 0
            }
        }
    }

    /// Queues a reply or an event; a client without room for it is dropped.
    private func enqueue(_ line: [UInt8], to client: inout Client) {
        guard !client.isGone else { return }
        guard client.queued + line.count <= queueLimit * 2 + (64 << 10) else {
            client.isGone = true
            return
        }
        client.output.append(contentsOf: line)
    }

    /// Writes what the client's socket takes now.
    private func flush(_ client: inout Client) {
        guard !client.isGone, client.queued > 0 else { return }
        let sent = client.output[client.sent...].withUnsafeBytes { UnixSocket.sendSome(client.descriptor, $0) }
        guard let sent else {
            client.isGone = true
            return
        }
        client.sent += sent
        if client.sent == client.output.count {
            client.output.removeAll(keepingCapacity: true)
            client.sent = 0
        } else if client.sent > 64 << 10 {
            client.output.removeFirst(client.sent)
            client.sent = 0
        }
    }
}
