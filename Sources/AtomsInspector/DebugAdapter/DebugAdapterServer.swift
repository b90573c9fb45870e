import AtomsJournalReader
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a ``DebugAdapter`` over two file descriptors (stdin and stdout for `atoms-inspect
/// dap`): reads framed requests, writes framed responses and events.
///
/// Ends with status 0 after a `disconnect`; with 65 and a message on `error` when the framing
/// breaks (a bad `Content-Length`, a truncated body, the input ending without a disconnect);
/// with 74 when the output cannot be written.
package enum DebugAdapterServer {
    /// How often an attached session looks for the program's news while no request comes.
    static let idleMilliseconds: Int32 = 250

    /// Serves until `disconnect` or broken input.
    ///
    /// - Parameters:
    ///   - error: Where the one line saying why the adapter ended goes.
    /// - Returns: The exit status.
    package static func run(_ adapter: DebugAdapter, input: Int32, output: Int32, error: (String) -> Void) -> ExitStatus {
        var reader = DAPFrameReader(descriptor: input)
        var seq = 1
        func send(_ messages: [DAPOutgoing]) -> Bool {
            var bytes: [UInt8] = []
            for message in messages {
                bytes += DAPFrameWriter.frame(message.encoded(seq: seq))
                seq += 1
            }
            guard !bytes.isEmpty, let code = FileText.writeAll(bytes, to: output) else { return true }
            error("atoms-inspect: dap: error: cannot write to the client: \(String(cString: strerror(code))) — the client closed its end")
            return false
        }
        while !adapter.isFinished {
            // An attached program's news comes between requests.
            while adapter.isAttached, !reader.hasBufferedBytes, !readable(input, timeout: idleMilliseconds) {
                guard send(adapter.idle()) else { return .ioError }
            }
            let body: [UInt8]
            do {
                guard let next = try reader.next() else { throw DAPFramingError.endedWithoutDisconnect }
                body = next
            } catch let failure as DAPFramingError {
                error("atoms-inspect: dap: error: \(failure)")
                return .dataError
            } catch {
                return .dataError
            }
            guard send(adapter.handle(body)) else { return .ioError }
        }
        return .ok
    }

    /// Whether `descriptor` has input (or its end) within `timeout` milliseconds.
    private static func readable(_ descriptor: Int32, timeout: Int32) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let ready = poll(&entry, 1, timeout)
        return ready != 0
    }
}
