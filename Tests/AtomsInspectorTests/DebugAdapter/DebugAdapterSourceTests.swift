import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// Sources as editors send them: an absolute path (VS Code, Zed, nvim-dap's breakpoints), a
/// percent-encoded `file://` URI (nvim-dap's run to cursor), a path relative to `sourceRoot`;
/// in every request that carries one.
@Suite(.timeLimit(.minutes(Patience.minutes(2))))
struct DebugAdapterSourceTests {
    private static let repository = DebugAdapterSessionTests.repository

    /// A copy of the todo sample's package layout under a folder whose name needs escaping in
    /// a URI (a space, a non-ASCII letter).
    private func awkwardRoot() throws -> (TemporaryDirectory, String) {
        let directory = try TemporaryDirectory()
        let root = directory.path("my projé")
        try FileManager.default.createDirectory(atPath: root + "/samples/Todo", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.repository + "/Package.swift", toPath: root + "/Package.swift")
        try FileManager.default.copyItem(atPath: Self.repository + "/samples/Todo/main.swift", toPath: root + "/samples/Todo/main.swift")
        return (directory, root)
    }

    /// `file://` and the path, percent-encoded as Neovim's `vim.uri_from_fname` does.
    private func uri(_ path: String) -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "/-._~")).subtracting(CharacterSet(charactersIn: "é"))
        return "file://" + path.addingPercentEncoding(withAllowedCharacters: allowed)!
    }

    @Test func pathsAndURIsNameTheSameFile() {
        let root = "/work/my projé"
        for text in ["file:///work/my%20proj%C3%A9/samples/Todo/main.swift", "file://localhost/work/my%20proj%c3%a9/samples/Todo/main.swift",
                     "samples/Todo/main.swift", "./samples/../samples/Todo/main.swift", "/work/my projé/samples/Todo/main.swift"] {
            #expect(ClientSourcePath.path(text, root: root) == "/work/my projé/samples/Todo/main.swift", "\(text)")
        }
        #expect(ClientSourcePath.path("file://server/share/main.swift", root: root) == nil)
        #expect(ClientSourcePath.path("https://example.com/main.swift", root: root) == nil)
        #expect(ClientSourcePath.path("file:///bad%2", root: root) == nil)
        #expect(ClientSourcePath.path("file:///bad%FF", root: root) == nil, "bytes that are not UTF-8")
        #expect(ClientSourcePath.path("FILE:///work/main.swift?line=3#top", root: root) == "/work/main.swift")
        // Escapes beside raw characters an editor left as they are.
        #expect(ClientSourcePath.path("file:///My%20Dir/café.swift", root: root) == "/My Dir/café.swift")
    }

    @Test func everyRequestWithASourceTakesEachShape() async throws {
        let (directory, root) = try awkwardRoot()
        _ = directory
        let main = root + "/samples/Todo/main.swift"
        let shapes: [(editor: String, source: [String: Any])] = [
            ("VS Code", ["name": "main.swift", "path": main]),
            ("Zed", ["name": "main.swift", "path": main, "sourceReference": 0]),
            ("nvim-dap run to cursor", ["name": "main.swift", "path": uri(main)]),
            ("a relative path", ["path": "samples/Todo/main.swift"]),
        ]
        let client = try DAPClient(workingDirectory: Self.repository)
        try await client.launch(Self.repository + "/" + DebugAdapterSessionTests.todo, extra: ["sourceRoot": root])
        let expected = try DebugAdapterSessionTests.log().filter { $0["at"] as? String == "sample_todo/main.swift:44" }.compactMap { $0["step"] as? Int }
        for (editor, source) in shapes {
            let targets = try #require(try await client.body("gotoTargets", ["source": source, "line": 44])["targets"] as? [[String: Any]])
            #expect(targets.compactMap { $0["id"] as? Int } == expected, "\(editor)")
            let locations = try #require(try await client.body("breakpointLocations", ["source": source, "line": 30, "endLine": 40])["breakpoints"] as? [[String: Any]])
            #expect(locations.compactMap { $0["line"] as? Int } == [32, 33, 36, 39], "\(editor)")
            let breakpoints = try #require(try await client.body("setBreakpoints", ["source": source, "breakpoints": [["line": 44]]])["breakpoints"] as? [[String: Any]])
            #expect(breakpoints.first?["verified"] as? Bool == true, "\(editor): \(breakpoints)")
            #expect((breakpoints.first?["source"] as? [String: Any])?["path"] as? String == source["path"] as? String, "answered as sent")
        }
        // The last breakpoint set stops a run.
        let stopped = try await client.move("continue")
        #expect(stopped["reason"] as? String == "breakpoint")
        #expect(try await client.position() == expected[0])
        let other = try await client.request("gotoTargets", ["source": ["path": "file://elsewhere/main.swift"], "line": 44])
        #expect((other["message"] as? String)?.contains("is not a file on this machine") == true)
        #expect(try await client.disconnect() == 0)
        try await client.validateAgainstSchema()
    }

    @Test func aConsoleLineThatIsNoCommandIsAWatchExpression() async throws {
        let client = try DAPClient(workingDirectory: Self.repository)
        try await client.launch(DebugAdapterSessionTests.todo)
        _ = try await client.body("evaluate", ["expression": "goto 20", "context": "repl"])
        let watch = try await client.body("evaluate", ["expression": "StatsAtom.total", "context": "watch"])
        let console = try await client.body("evaluate", ["expression": "StatsAtom.total", "context": "repl"])
        #expect(console["result"] as? String == watch["result"] as? String)
        #expect(console["result"] as? String != nil && console["result"] as? String != "")
        let condition = try await client.body("evaluate", ["expression": "StatsAtom.total > 0", "context": "repl"])
        #expect(condition["result"] as? String == "true")
        let neither = try await client.request("evaluate", ["expression": "Nonsense atoms", "context": "repl"])
        #expect((neither["message"] as? String)?.hasPrefix("unknown command 'Nonsense', and 'Nonsense atoms' is not an expression (") == true, "\(neither["message"] ?? "")")
        #expect(try await client.position() == 20, "an expression does not move")
        #expect(try await client.disconnect() == 0)
        try await client.validateAgainstSchema()
    }
}
