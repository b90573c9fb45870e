import AtomsJournalReader
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A request from the client, as far as the adapter reads every one: its number and command.
/// Its arguments are decoded by the command's handler (``DAPRequest/arguments(_:)``).
package struct DAPRequest: Sendable {
    /// The client's sequence number, echoed as the response's `request_seq`.
    package let seq: Int
    /// The command (`initialize`, `launch`, `next`, …).
    package let command: String
    /// The message's JSON, for decoding the arguments.
    let body: [UInt8]

    private struct Envelope: Decodable {
        let seq: Int
        let type: String
        let command: String?
    }

    /// Decodes a message's envelope.
    ///
    /// - Throws: ``DAPMessageError`` when the body is not JSON, not a request, or has no
    ///   `seq`/`command`; `seq` is the request's number when it could be read.
    package init(decoding body: [UInt8]) throws(DAPMessageError) {
        let envelope: Envelope
        do {
            envelope = try JSONDecoder().decode(Envelope.self, from: Data(body))
        } catch {
            throw DAPMessageError(seq: Self.seq(in: body), message: "the message is not a protocol message (\(Self.reason(error))) — send a JSON object with seq, type \"request\" and command")
        }
        guard envelope.type == "request" else {
            throw DAPMessageError(seq: envelope.seq, message: "the adapter takes requests only, not a '\(envelope.type.prefix(40))' — send type \"request\"")
        }
        guard let command = envelope.command else {
            throw DAPMessageError(seq: envelope.seq, message: "the request has no command — name one, e.g. \"initialize\"")
        }
        seq = envelope.seq
        self.command = command
        self.body = body
    }

    /// The request's `arguments`, decoded as `Arguments` (absent arguments decode as `{}`).
    ///
    /// - Throws: ``DAPMessageError`` naming the command and what is wrong.
    package func arguments<Arguments: Decodable>(_ type: Arguments.Type) throws(DAPMessageError) -> Arguments {
        do {
            if let arguments = try JSONDecoder().decode(ArgumentsHolder<Arguments>.self, from: Data(body)).arguments {
                return arguments
            }
            return try JSONDecoder().decode(Arguments.self, from: Data("{}".utf8))
        } catch {
            throw DAPMessageError(seq: seq, message: "bad arguments for \(command): \(Self.reason(error)) — see the protocol's \(command) request")
        }
    }

    /// A number `seq` in a body that does not decode as a whole, for the error's response.
    private static func seq(in body: [UInt8]) -> Int? {
        struct Numbered: Decodable { let seq: Int }
        return try? JSONDecoder().decode(Numbered.self, from: Data(body)).seq
    }

    /// A decoding error in a few words: which key, and what was wrong.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "not JSON" }
        func path(_ context: DecodingError.Context) -> String {
            // The arguments' own keys: `arguments.journal` is `journal`.
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.drop { $0 == "arguments" }
            return keys.isEmpty ? "the message" : keys.joined(separator: ".")
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = path(context)
            return "\(parent == "the message" ? "" : parent + ".")\(key.stringValue) is missing"
        case .typeMismatch(let type, let context): return "\(path(context)) is not \(Self.typeName(type))"
        case .valueNotFound(let type, let context): return "\(path(context)) is null, not \(Self.typeName(type))"
        case .dataCorrupted: return "not JSON"
        @unknown default: return "not as expected"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type: "an integer"
        case is Bool.Type: "true or false"
        case is String.Type: "a string"
        default: "of the expected type"
        }
    }
}

/// A request's `arguments` member.
private struct ArgumentsHolder<Arguments: Decodable>: Decodable {
    let arguments: Arguments?
}

/// A request the adapter cannot read: answered by an error response when its `seq` is known.
package struct DAPMessageError: Error, Equatable, Sendable {
    /// The request's sequence number, when it could be read.
    package let seq: Int?
    /// `<what> — <what to do>`.
    package let message: String
}

/// A message the adapter sends: a response to a request, or an event.
package struct DAPOutgoing: Sendable {
    /// Which.
    package enum Kind: Sendable, Equatable {
        /// The answer to request `requestSeq`.
        case response(requestSeq: Int, command: String, success: Bool, message: String?)
        /// An event (`stopped`, `initialized`, `output`, …).
        case event(String)
    }

    /// Which message.
    package let kind: Kind
    /// The body (`nil`: none).
    package let body: (any Encodable & Sendable)?

    /// A successful response.
    package static func response(to request: DAPRequest, _ body: (any Encodable & Sendable)? = nil) -> DAPOutgoing {
        DAPOutgoing(kind: .response(requestSeq: request.seq, command: request.command, success: true, message: nil), body: body)
    }

    /// A failed response (the protocol's `ErrorResponse`), `message` saying what to do.
    package static func failure(seq: Int, command: String, _ message: String) -> DAPOutgoing {
        DAPOutgoing(
            kind: .response(requestSeq: seq, command: command, success: false, message: message),
            body: DAPBody.ErrorBody(error: .init(id: 1, format: message.replacing("{", with: "(").replacing("}", with: ")"), showUser: true))
        )
    }

    /// An event.
    package static func event(_ name: String, _ body: (any Encodable & Sendable)? = nil) -> DAPOutgoing {
        DAPOutgoing(kind: .event(name), body: body)
    }

    /// The message's JSON with sequence number `seq`.
    package func encoded(seq: Int) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every body is made of strings, integers, booleans and arrays of them: encoding cannot fail.
        return (try? Array(encoder.encode(Wire(seq: seq, message: self)))) ?? Array("{}".utf8)
    }

    private struct Wire: Encodable {
        let seq: Int
        let message: DAPOutgoing

        enum CodingKeys: String, CodingKey {
            case seq, type, request_seq, success, command, message, event, body
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(seq, forKey: .seq)
            switch message.kind {
            case .response(let requestSeq, let command, let success, let text):
                try container.encode("response", forKey: .type)
                try container.encode(requestSeq, forKey: .request_seq)
                try container.encode(success, forKey: .success)
                try container.encode(command, forKey: .command)
                try container.encodeIfPresent(text, forKey: .message)
            case .event(let name):
                try container.encode("event", forKey: .type)
                try container.encode(name, forKey: .event)
            }
            if let body = message.body {
                try body.encode(to: container.superEncoder(forKey: .body))
            }
        }
    }
}
