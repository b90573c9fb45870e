import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// Bad input: error responses that say what to do, and framing that ends the adapter with a
/// message and a status, never a signal.
@Suite(.timeLimit(.minutes(Patience.minutes(2))))
struct DebugAdapterErrorTests {
    private static let repository = DebugAdapterSessionTests.repository

    private func frames(_ text: String) -> DAPFrameReader {
        DAPFrameReader(bytes: Array(text.utf8))
    }

    @Test func framesAreReadWholeWhateverTheChunks() throws {
        let bodies = ["{\"a\":1}", "{}", "{\"b\":\"é\"}"]
        let stream = bodies.flatMap { DAPFrameWriter.frame(Array($0.utf8)) }
        // One byte at a time.
        var offset = 0
        var reader = DAPFrameReader { (bytes: inout [UInt8]) throws(DAPFramingError) -> Int in
            guard offset < stream.count else { return 0 }
            bytes.append(stream[offset])
            offset += 1
            return 1
        }
        for body in bodies {
            #expect(try reader.next() == Array(body.utf8))
        }
        #expect(try reader.next() == nil)
        // Other headers are ignored; a bare \n ends a line too.
        var lenient = frames("Content-Type: application/json\nContent-Length: 2\n\n{}")
        #expect(try lenient.next() == Array("{}".utf8))
    }

    @Test func brokenFramingIsOneErrorSayingWhatToDo() {
        var reader = frames("Content-Length: twelve\r\n\r\n{}")
        #expect(throws: DAPFramingError.badLength("twelve")) { try reader.next() }
        reader = frames("Content-Length: 99999999999\r\n\r\n{}")
        #expect(throws: DAPFramingError.badLength("99999999999")) { try reader.next() }
        reader = frames("Content-Length: 10\r\n\r\n{}")
        #expect(throws: DAPFramingError.truncated(expected: 10, got: 2)) { try reader.next() }
        reader = frames("Content-Length 2\r\n\r\n{}")
        #expect(throws: DAPFramingError.malformedHeader("Content-Length 2")) { try reader.next() }
        reader = frames("X-Other: 1\r\n\r\n{}")
        #expect(throws: DAPFramingError.missingLength) { try reader.next() }
        reader = frames(String(repeating: "a", count: 9000))
        #expect(throws: DAPFramingError.self) { try reader.next() }
        #expect(DAPFramingError.badLength("x").description.contains("— give the body's length in bytes"))
    }

    @Test func badRequestsAreErrorResponses() async throws {
        let client = try DAPClient(workingDirectory: Self.repository)
        func failure(_ command: String, _ arguments: [String: Any]? = nil) async throws -> String {
            let response = try await client.request(command, arguments)
            #expect(response["success"] as? Bool == false, "\(command)")
            return response["message"] as? String ?? ""
        }
        #expect(try await failure("stackTrace", ["threadId": 1]) == "no history is open for 'stackTrace' — send launch (with a journal) or attach (with a pid or socket) first")
        _ = try await client.body("initialize", ["adapterID": "atoms"])
        #expect(try await failure("launch", [:]).hasPrefix("launch needs a journal — add \"journal\""))
        let typed = try await failure("launch", ["journal": 5])
        #expect(typed == "bad arguments for launch: journal is not a string — see the protocol's launch request", "\(typed)")
        #expect(try await failure("launch", ["journal": "no/such.jsonl"]).hasPrefix(Self.repository + "/no/such.jsonl: "))
        #expect(try await failure("attach", [:]).hasPrefix("attach needs the program"))
        #expect(try await failure("attach", ["pid": "twelve"]).hasPrefix("bad arguments for attach: pid is not an integer"))
        // Not JSON at all: answered, with the sequence number unknown.
        client.write(raw: DAPFrameWriter.frame(Array("not json".utf8)))
        let garbage = try await client.next()
        #expect(garbage["event"] as? String == "output")
        #expect(((garbage["body"] as? [String: Any])?["output"] as? String)?.contains("not a protocol message") == true)
        client.write(raw: DAPFrameWriter.frame(Array("{\"seq\":77,\"type\":\"event\",\"event\":\"x\"}".utf8)))
        let event = try await client.next()
        #expect(event["request_seq"] as? Int == 77)
        #expect((event["message"] as? String)?.contains("takes requests only") == true)

        let launched = try await client.request("launch", ["journal": DebugAdapterSessionTests.todo, "stopOnEntry": true])
        #expect(launched["success"] as? Bool == true)
        #expect(try await failure("launch", ["journal": DebugAdapterSessionTests.todo]).hasPrefix("a history is open already"))
        #expect(try await failure("readMemory", ["memoryReference": "0"]) == "the adapter does not support the 'readMemory' request — see docs/DEBUG_ADAPTER.md for what it answers")
        #expect(try await failure("variables", ["variablesReference": 12345]).hasPrefix("variablesReference 12345 is not known at step 0"))
        #expect(try await failure("goto", ["threadId": 1, "targetId": 999]).hasPrefix("goto target 999 is not a step of the journal (0…260)"))
        #expect(try await client.disconnect() == 0)
        try await client.validateAgainstSchema()
    }

    @Test func aDamagedJournalNamesItsFileAndLine() async throws {
        let directory = try TemporaryDirectory()
        var lines = try String(contentsOfFile: Self.repository + "/" + DebugAdapterSessionTests.todo, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        lines[20] = "[20,{broken"
        try lines.joined(separator: "\n").write(toFile: directory.path("damaged.jsonl"), atomically: true, encoding: .utf8)
        let client = try DAPClient(workingDirectory: directory.path(""))
        _ = try await client.body("initialize", ["adapterID": "atoms"])
        let launched = try await client.request("launch", ["journal": "damaged.jsonl", "stopOnEntry": true])
        if launched["success"] as? Bool == true {
            _ = try await client.event("initialized")
            _ = try await client.body("configurationDone")
            _ = try await client.event("stopped")
            // The damage is found when the history reaches it.
            var message: String?
            for _ in 0..<40 where message == nil {
                let response = try await client.request("next", ["threadId": 1])
                if response["success"] as? Bool == false { message = response["message"] as? String }
            }
            #expect(message?.contains("damaged.jsonl:21: ") == true, "\(message ?? "no error")")
        } else {
            #expect((launched["message"] as? String)?.contains("damaged.jsonl:21: ") == true, "\(launched["message"] ?? "")")
        }
        #expect(try await client.disconnect() == 0)
        try await client.validateAgainstSchema()
    }
}
