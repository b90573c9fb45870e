import AtomsJournalReader
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the framing of the Debug Adapter Protocol's stream broke: the adapter cannot find the
/// next message, so it ends (status 65) with this on stderr.
package enum DAPFramingError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The stream ended between messages, before a `disconnect` request.
    case endedWithoutDisconnect
    /// The stream ended inside a header or a body.
    case truncated(expected: Int, got: Int)
    /// A header line that is not `Name: value`, or a header block without a blank line in
    /// the first 8 KB.
    case malformedHeader(String)
    /// No `Content-Length` header.
    case missingLength
    /// A `Content-Length` that is not a number from 0 to 64 MiB.
    case badLength(String)
    /// Reading the input failed.
    case readFailed(errno: Int32)

    /// `<what> — <what to do>`.
    package var description: String {
        switch self {
        case .endedWithoutDisconnect:
            "the client closed the adapter's input without a disconnect request — send disconnect to end a session"
        case .truncated(let expected, let got):
            "the input ended inside a message (\(got) of \(expected) bytes) — send each body whole, as its Content-Length says"
        case .malformedHeader(let line):
            "malformed header '\(line.prefix(80))' — frame each message as 'Content-Length: N', a blank line (\\r\\n\\r\\n), then N bytes of JSON"
        case .missingLength:
            "a message has no Content-Length header — frame each message as 'Content-Length: N', a blank line, then N bytes of JSON"
        case .badLength(let text):
            "Content-Length '\(text.prefix(40))' is not a number of bytes from 0 to \(DAPFrameReader.maximumBody) — give the body's length in bytes"
        case .readFailed(let code):
            "cannot read the adapter's input: \(String(cString: strerror(code))) — check what runs the adapter"
        }
    }
}

/// Reads Content-Length framed messages (the Debug Adapter Protocol's base protocol) from a
/// source of bytes.
///
/// A frame is header lines ending in `\r\n` (a lone `\n` is accepted too), a blank line, then
/// `Content-Length` bytes of body. Headers other than `Content-Length` are ignored, as the
/// protocol allows.
///
/// ## Example
/// ```swift
/// var reader = DAPFrameReader(descriptor: STDIN_FILENO)
/// while let body = try reader.next() { /* decode a request */ }
/// ```
package struct DAPFrameReader {
    /// The largest body accepted: 64 MiB.
    package static let maximumBody = 64 << 20
    /// The longest header block accepted.
    static let maximumHeader = 8 << 10

    private let read: (inout [UInt8]) throws(DAPFramingError) -> Int
    private var buffer: [UInt8] = []
    private var start = 0

    /// Reads from `refill`, which appends bytes to its argument and returns how many (0 at the
    /// end of the input).
    package init(refill: @escaping (inout [UInt8]) throws(DAPFramingError) -> Int) {
        read = refill
    }

    /// Reads from a file descriptor (retrying interrupted reads).
    package init(descriptor: Int32) {
        self.init { (bytes: inout [UInt8]) throws(DAPFramingError) -> Int in
            var chunk = [UInt8](repeating: 0, count: 64 << 10)
            while true {
                let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw .readFailed(errno: errno)
                }
                bytes.append(contentsOf: chunk[0..<count])
                return count
            }
        }
    }

    /// Reads the whole input at once (the fuzz target, tests).
    package init(bytes: [UInt8]) {
        var remaining: [UInt8]? = bytes
        self.init { (buffer: inout [UInt8]) throws(DAPFramingError) -> Int in
            guard let taken = remaining else { return 0 }
            remaining = nil
            buffer.append(contentsOf: taken)
            return taken.count
        }
    }

    /// Whether bytes are waiting in the buffer (so a caller polling the descriptor must not
    /// wait before calling ``next()``).
    package var hasBufferedBytes: Bool { start < buffer.count }

    /// The next message's body.
    ///
    /// - Returns: `nil` at the end of the input between messages.
    /// - Throws: ``DAPFramingError`` when the stream is not framed as the protocol says.
    package mutating func next() throws(DAPFramingError) -> [UInt8]? {
        var length: Int?
        var headers = 0
        while true {
            guard let line = try headerLine() else {
                if length == nil, start == buffer.count { return nil }
                throw .truncated(expected: length ?? 0, got: buffer.count - start)
            }
            if line.isEmpty {
                // Blank lines before a header are tolerated (some clients send `\r\n` after a body).
                guard let length else {
                    if headers > 0 { throw .missingLength }
                    continue
                }
                return try body(length)
            }
            headers += 1
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                throw .malformedHeader(String(decoding: line, as: UTF8.self))
            }
            let name = String(decoding: line[..<colon], as: UTF8.self)
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingWhitespace()
            guard name.lowercased() == "content-length" else { continue }
            guard value.count <= 9, !value.isEmpty, value.utf8.allSatisfy({ $0 &- 0x30 < 10 }), let number = Int(value), number <= Self.maximumBody else {
                throw .badLength(value)
            }
            length = number
        }
    }

    /// The next header line without its line ending; `nil` at the end of the input.
    private mutating func headerLine() throws(DAPFramingError) -> ArraySlice<UInt8>? {
        // Bytes after `start` already searched (``fill()`` moves `start` to 0).
        var searched = 0
        while true {
            if let newline = buffer[(start + searched)...].firstIndex(of: 0x0A) {
                var end = newline
                if end > start, buffer[end - 1] == 0x0D { end -= 1 }
                let line = buffer[start..<end]
                start = newline + 1
                return line
            }
            guard buffer.count - start <= Self.maximumHeader else {
                throw .malformedHeader(String(decoding: buffer[start..<min(buffer.count, start + 80)], as: UTF8.self))
            }
            searched = buffer.count - start
            if try fill() == 0 { return nil }
        }
    }

    private mutating func body(_ length: Int) throws(DAPFramingError) -> [UInt8] {
        while buffer.count - start < length {
            if try fill() == 0 {
                throw .truncated(expected: length, got: buffer.count - start)
            }
        }
        let body = Array(buffer[start..<(start + length)])
        start += length
        return body
    }

    /// Reads more input, dropping what was consumed.
    private mutating func fill() throws(DAPFramingError) -> Int {
        if start > 0 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        return try read(&buffer)
    }
}

/// Frames a body as the base protocol wants: `Content-Length: N\r\n\r\n` then the body.
package enum DAPFrameWriter {
    /// The frame's bytes.
    package static func frame(_ body: [UInt8]) -> [UInt8] {
        Array("Content-Length: \(body.count)\r\n\r\n".utf8) + body
    }
}

#if canImport(Glibc)
private let systemRead = Glibc.read
#elseif canImport(Darwin)
private let systemRead = Darwin.read
#endif
