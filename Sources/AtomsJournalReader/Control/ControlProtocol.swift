#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The control protocol's one parser and its one way of writing a line (docs/CONTROL.md).
///
/// Requests are ASCII words separated by spaces, one per line. Every line the program sends is
/// `KIND NAME JSON`: `ok jump {…}`, `error usage {"message":…}`, `event journal {…}`.
package enum ControlProtocol {
    /// The protocol version this build speaks.
    package static let version = 1
    /// The longest request line accepted, without its newline (1 MB: room for a `set`'s
    /// value); longer lines get an `error too-long` reply and are discarded.
    package static let maximumRequestLength = 1 << 20

    /// Why a request line was refused: the error reply's code and message.
    package struct Refusal: Error, Equatable, Sendable {
        /// The reply's name: `usage`, `too-long`, `version`, ….
        package let code: String
        /// What was wrong, and what to send instead.
        package let message: String

        package init(_ code: String, _ message: String) {
            self.code = code
            self.message = message
        }
    }

    /// Parses one request line (without its newline; a trailing carriage return is allowed).
    ///
    /// - Complexity: O(n) in the line's length; lines over ``maximumRequestLength`` are
    ///   refused before they are looked at.
    package static func parse(_ line: some Collection<UInt8>) -> Result<ControlRequest, Refusal> {
        guard line.count <= maximumRequestLength else {
            return .failure(Refusal("too-long", "a request is at most \(maximumRequestLength) bytes"))
        }
        var bytes = Array(line)
        if bytes.last == 0x0D { bytes.removeLast() }
        guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            return .failure(Refusal("usage", "a request is printable ASCII — e.g. jump 12"))
        }
        let words = bytes.split(separator: 0x20).map { String(decoding: $0, as: UTF8.self) }
        guard let command = words.first else {
            return .failure(Refusal("usage", "empty request — send one of \(requestList)"))
        }
        let arguments = words.dropFirst()
        func noArguments(_ request: ControlRequest) -> Result<ControlRequest, Refusal> {
            arguments.isEmpty ? .success(request) : .failure(Refusal("usage", "\(command) takes no argument"))
        }
        func number(_ example: String) -> Result<Int, Refusal> {
            guard arguments.count == 1, let text = arguments.first, text.count <= 18, let value = Int(text), value >= 0,
                  text.allSatisfy(\.isASCII) && text.allSatisfy(\.isNumber)
            else {
                return .failure(Refusal("usage", "\(command) needs one number — e.g. \(example)"))
            }
            return .success(value)
        }
        switch command {
        case "hello": return number("hello \(version)").map { .hello(version: $0) }
        case "follow": return noArguments(.follow)
        case "state": return noArguments(.state)
        case "jump": return number("jump 12").map { .jump(step: $0) }
        case "live": return noArguments(.live)
        case "close": return noArguments(.close)
        case "set": return setValue(arguments)
        default:
            return .failure(Refusal("usage", "unknown request '\(command.prefix(40))' — send one of \(requestList)"))
        }
    }

    private static let requestList = "hello, follow, state, jump STEP, live, set BASE64, close"

    /// `set BASE64`: the base64 of a ``ControlMessages/SetValue`` in JSON.
    private static func setValue(_ arguments: ArraySlice<String>) -> Result<ControlRequest, Refusal> {
        guard arguments.count == 1, let data = Data(base64Encoded: arguments.first!) else {
            return .failure(Refusal("usage", "set needs one argument, the base64 of {\"atom\":IDENTITY,\"value\":JSON} — e.g. set eyJhdG9tIjoiQXBwLkNvdW50ZXJBdG9tfHwiLCJ2YWx1ZSI6M30="))
        }
        do {
            return .success(.set(try JSONDecoder().decode(ControlMessages.SetValue.self, from: data)))
        } catch {
            return .failure(Refusal("usage", "set's argument is not the base64 of {\"atom\":IDENTITY,\"value\":JSON}: \(error)"))
        }
    }

    /// The `set` request line for a value: `set BASE64`, without its newline.
    package static func setRequest(_ value: ControlMessages.SetValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(value)) ?? Data("{}".utf8)
        return "set " + json.base64EncodedString()
    }

    /// One line the program sends: `KIND NAME JSON` and a newline.
    package static func line(_ kind: String, _ name: String, _ body: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = (try? encoder.encode(body)) ?? Data("{}".utf8)
        return Array("\(kind) \(name) ".utf8) + json + [0x0A]
    }

    /// An error reply.
    package static func error(_ refusal: Refusal) -> [UInt8] {
        line("error", refusal.code, ["message": refusal.message])
    }
}
