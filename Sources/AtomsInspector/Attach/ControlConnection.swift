import AtomsJournalReader
import Dispatch
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

/// `atoms-inspect attach`'s connection to a running program's control endpoint
/// (docs/CONTROL.md): requests are sent and their replies awaited, with a time limit; events
/// (journal lines, the end of an excursion, the endpoint closing) are kept for the session to
/// show. A thread reads the socket, so a program that exits is noticed at once.
package final class ControlConnection: @unchecked Sendable {
    // Unchecked: the mutable state below is guarded by `condition`; `descriptor` is set once.

    /// One line from the program: `KIND NAME BODY`.
    package struct Message: Sendable {
        /// `ok`, `error` or `event`.
        package var kind: String
        /// The request's name, the error's code or the event's name.
        package var name: String
        /// The rest: JSON, or a journal line for `event journal`.
        package var body: [UInt8]

        /// The body decoded as JSON.
        package func decode<Body: Decodable>(_ type: Body.Type) throws(InspectorError) -> Body {
            do {
                return try JSONDecoder().decode(type, from: Data(body))
            } catch {
                throw InspectorError(.dataError, "the program sent a reply this atoms-inspect cannot read (\(kind) \(name)): \(error)")
            }
        }
    }

    /// The socket's path.
    package let path: String
    private let descriptor: Int32
    private let condition = ConditionLock()
    private var replies: [Message] = []
    private var events: [Message] = []
    private var isOpen = true
    private var isLeaving = false
    private var closeHandler: (@Sendable () -> Void)?

    /// Connects to the endpoint at `path`.
    ///
    /// - Throws: ``InspectorError`` with status 69 (unavailable) when nothing listens there.
    package init(path: String) throws(InspectorError) {
        self.path = path
        do {
            descriptor = try UnixSocket.connect(to: path)
        } catch let error as POSIXError where error.code == .ENOENT {
            throw InspectorError(.unavailable, path: path, "no control endpoint here — start the program with its control endpoint on (a sample's --control), or see atoms-inspect attach --list")
        } catch let error as POSIXError where error.code == .ECONNREFUSED {
            throw InspectorError(.unavailable, path: path, "connection refused: the program has exited (its socket was left behind) — start it again")
        } catch {
            throw InspectorError(.unavailable, path: path, "cannot connect: \(error) — check the path (atoms-inspect attach --list)")
        }
        // A thread of its own: it blocks in recv until the program writes or goes.
        DispatchQueue(label: "atoms-inspect.attach.reader").async { [self] in readMessages() }
    }

    deinit {
        close(descriptor)
    }

    /// Calls `handler` (once, on the reading thread) when the program closes the connection
    /// or exits, unless the session is leaving itself.
    package func whenClosed(_ handler: @escaping @Sendable () -> Void) {
        condition.lock()
        defer { condition.unlock() }
        if isOpen {
            closeHandler = handler
        } else if !isLeaving {
            handler()
        }
    }

    /// Sends a request and waits for its reply.
    ///
    /// - Returns: The `ok` reply.
    /// - Throws: ``InspectorError``: the program's `error` reply (status 64 for a usage, range,
    ///   past or atom error, 65 for a value that does not decode, 69 otherwise), or 69 when
    ///   the program is gone or does not answer in `timeout` seconds.
    package func request(_ line: String, timeout: Double = 30) throws(InspectorError) -> Message {
        guard UnixSocket.sendAll(descriptor, Array((line + "\n").utf8)) else {
            throw InspectorError(.unavailable, path: path, "the program is gone (it closed the connection)")
        }
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while replies.isEmpty {
            guard isOpen else {
                throw InspectorError(.unavailable, path: path, "the program closed the connection before answering '\(line)'")
            }
            guard condition.wait(until: deadline) || !replies.isEmpty else {
                throw InspectorError(.unavailable, path: path, "the program did not answer '\(line)' within \(Int(timeout)) s — is its main thread busy?")
            }
        }
        let reply = replies.removeFirst()
        guard reply.kind == "ok" else {
            let message = (try? reply.decode([String: String].self))?["message"] ?? String(decoding: reply.body, as: UTF8.self)
            let status: ExitStatus = switch reply.name {
            case "usage", "range", "past", "atom": .usage
            case "value": .dataError
            default: .unavailable
            }
            throw InspectorError(status, message)
        }
        return reply
    }

    /// The events received since the last call, in order.
    package func takeEvents() -> [Message] {
        condition.lock()
        defer { condition.unlock() }
        defer { events.removeAll() }
        return events
    }

    /// Says `close` and ends the connection without calling the close handler.
    package func leave() {
        condition.lock()
        isLeaving = true
        condition.unlock()
        _ = UnixSocket.sendAll(descriptor, Array("close\n".utf8))
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    private func readMessages() {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var pending: [UInt8] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            pending.append(contentsOf: buffer[..<count])
            var start = 0
            var messages: [Message] = []
            while let newline = pending[start...].firstIndex(of: 0x0A) {
                messages.append(Self.message(pending[start..<newline]))
                start = newline + 1
            }
            pending.removeFirst(start)
            condition.lock()
            for message in messages {
                if message.kind == "event" { events.append(message) } else { replies.append(message) }
            }
            condition.broadcast()
            condition.unlock()
        }
        condition.lock()
        isOpen = false
        let handler = isLeaving ? nil : closeHandler
        condition.broadcast()
        condition.unlock()
        handler?()
    }

    private static func message(_ line: ArraySlice<UInt8>) -> Message {
        let words = line.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: false)
        func text(_ index: Int) -> String { index < words.count ? String(decoding: words[index], as: UTF8.self) : "" }
        return Message(kind: text(0), name: text(1), body: words.count > 2 ? Array(words[2]) : [])
    }
}
