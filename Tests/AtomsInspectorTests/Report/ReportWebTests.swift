import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// The report page's web code: what the page embeds is the files in `Report/Web/`, and their
/// `node --test` unit tests pass.
@Suite struct ReportWebTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../..").standardized
    static let sources = repository.appendingPathComponent("Sources/AtomsInspector/Report/Web")
    static let tests = repository.appendingPathComponent("Tests/AtomsInspectorTests/Report/Web")

    /// `node`, which `.ci/run` installs (Debian's `nodejs`) when it is missing.
    static let node = TimedProcess.installed("node")

    @Test func theEmbeddedFilesAreTheFilesInReportWeb() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path)
            .filter { $0.hasSuffix(".js") || $0.hasSuffix(".css") }
        #expect(Set(ReportWeb.files.map(\.name)) == Set(names), "Report/Web/embed.sh lists every script and style sheet")
        for file in ReportWeb.files {
            let text = try String(contentsOf: Self.sources.appendingPathComponent(file.name), encoding: .utf8)
            #expect(Array((file.text + "\n").utf8) == Array(text.utf8), "\(file.name) changed since ReportWebFiles.swift was generated: run Sources/AtomsInspector/Report/Web/embed.sh")
        }
    }

    @Test func thePageRunsEveryModuleInOrderUnderItsNonce() {
        let page = String(decoding: ReportPage.html(data: ReportData(meta: [], values: [], keyframes: []), title: "t", nonce: "N0NCE"), as: UTF8.self)
        #expect(page.contains("<script nonce=\"N0NCE\">\n\"use strict\";\n(() => {\nconst reportModules = {};\n// ---- json.js ----"))
        let order = ["json.js", "state.js", "values.js", "timeline.js", "graph.js", "page.js"].compactMap { page.range(of: "// ---- \($0) ----")?.lowerBound }
        #expect(order.count == 6 && order == order.sorted())
        #expect(page.components(separatedBy: "<script").count == 5, "three data blocks and one script")
        #expect(page.contains("<style>/* The report page's style"))
    }

    @Test(.enabled(if: node != nil, "node is not installed (apt-get install nodejs): the page's unit tests did not run"))
    func theNodeUnitTestsPass() async throws {
        // Files, not the folder: Node 18 (Debian's) and 22 find tests in a folder differently.
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.tests.path).filter { $0.hasSuffix(".test.js") }.sorted()
        #expect(files.count >= 5)
        let run = try await TimedProcess.run(try #require(Self.node), ["--test", "--test-reporter=tap"] + files, in: Self.tests.path, timeout: 120)
        #expect(run.status == 0, "node --test failed:\n\(run.stdout)\n\(run.stderr)")
        #expect(run.stdout.contains("# fail 0"))
        let passed = run.stdout.split(separator: "\n").first { $0.hasPrefix("# pass ") }.flatMap { Int($0.dropFirst(7)) } ?? 0
        #expect(passed >= 30, "every test file ran: \(passed) tests passed")
    }
}
