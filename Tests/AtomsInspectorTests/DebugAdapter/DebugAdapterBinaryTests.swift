import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// `atoms-inspect dap` as built, over its stdin and stdout, as an editor runs it.
@Suite(.timeLimit(.minutes(Patience.minutes(2))))
struct DebugAdapterBinaryTests {
    private static let repository = DebugAdapterSessionTests.repository

    private func adapter() throws -> DAPClient {
        try DAPClient(binary: try #require(BuiltProducts.executable("atoms-inspect")), directory: Self.repository)
    }

    @Test func aSessionEndsWithStatusZeroAtDisconnect() async throws {
        let client = try adapter()
        let entry = try await client.launch(DebugAdapterSessionTests.todo, extra: ["sourceRoot": "."])
        #expect((entry["body"] as? [String: Any])?["reason"] as? String == "entry")
        _ = try await client.move("next")
        let frame = try await client.topFrame()
        #expect(frame["name"] as? String == "step 1 · initialize FilteredTodosAtom, FilterAtom, TodosAtom")
        #expect((frame["source"] as? [String: Any])?["path"] as? String == Self.repository + "/samples/Todo/main.swift")
        #expect(frame["line"] as? Int == 13)
        _ = try await client.move("reverseContinue")
        #expect(try await client.position() == 0)
        #expect(try await client.disconnect() == 0)
        #expect(client.stderr.isEmpty)
        try await client.validateAgainstSchema()
    }

    @Test func brokenFramingEndsWithStatus65AndAMessage() async throws {
        let cases: [(input: String, message: String)] = [
            ("Content-Length: abc\r\n\r\n{}", "Content-Length 'abc' is not a number of bytes"),
            ("Content-Length: 50\r\n\r\n{\"seq\":1", "the input ended inside a message (8 of 50 bytes)"),
            ("", "the client closed the adapter's input without a disconnect request"),
        ]
        for (input, message) in cases {
            let client = try adapter()
            client.write(raw: Array(input.utf8))
            client.closeInput()
            await #expect(try client.waitForEnd() == 65, "\(input)")
            let stderr = client.stderr
            #expect(stderr.hasPrefix("atoms-inspect: dap: error: \(message)"), "\(stderr)")
            #expect(stderr.split(separator: "\n").count == 1)
        }
    }
}
