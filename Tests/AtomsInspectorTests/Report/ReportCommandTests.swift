import Atoms
import Foundation
import Testing
import TestSupport
@testable import AtomsInspector
@testable import AtomsJournal
@testable import AtomsJournalReader

/// The report's data and command line, without a browser.
@MainActor
struct ReportCommandTests {
    private func blocks(_ html: [UInt8]) throws -> (meta: [String: Any], values: [String], keyframes: [String], html: String) {
        let text = String(decoding: html, as: UTF8.self)
        func block(_ id: String) throws -> String {
            let start = try #require(text.range(of: "id=\"\(id)\">"))
            let end = try #require(text.range(of: "</script>", range: start.upperBound..<text.endIndex))
            return String(text[start.upperBound..<end.lowerBound])
        }
        let meta = try #require(JSONSerialization.jsonObject(with: Data(try block("report-meta").utf8)) as? [String: Any])
        return (meta, try block("report-values").components(separatedBy: "\n"), try block("report-keyframes").components(separatedBy: "\n"), text)
    }

    @Test func dataHoldsEachTransactionOnceAsTheJournalRecordedIt() throws {
        let directory = try TemporaryDirectory()
        let journal = try InspectedJournal(path: RecordedSessions.small(in: directory))
        let (html, summary) = try ReportCommand.run(journal, graphviz: nil)
        let (meta, values, keyframes, _) = try blocks(html)
        #expect(summary.first == journal.reader.firstStep && summary.last == journal.reader.lastStep)
        #expect(summary.drawnByDot == 0)
        let count = journal.reader.lastStep - journal.reader.firstStep
        #expect((meta["dt"] as? [Int])?.count == count)
        #expect((meta["site"] as? [Int])?.count == count)
        #expect(values.count == count + 1 && values.last == "", "one line per transaction")
        #expect((meta["keyframes"] as? [Int])?.first == journal.reader.firstStep)
        #expect(keyframes.count == ((meta["keyframes"] as? [Int])?.count ?? -1) + 1)
        // Step 5 appended a task: recorded as an array delta, embedded as one.
        let sets = try #require(meta["sets"] as? [[Int]])
        let setOfStep5 = try #require((meta["set"] as? [Int])?[4])
        #expect(!sets[setOfStep5].isEmpty)
        #expect(values[4].split(separator: "\t").contains { $0.hasPrefix("d[\"a\"") })
        #expect((meta["svgs"] as? [Any])?.allSatisfy { $0 is NSNull } == true, "without dot, the page lays graphs out")
    }

    @Test func distinctGraphsAreDrawnOnceByDot() async throws {
        guard Graphviz().executable != nil else { return }
        let directory = try TemporaryDirectory()
        let path = try RecordedSessions.small(in: directory)
        let journal = try InspectedJournal(path: path)
        // `dot` runs for every distinct graph: on a thread of its own, not a test's.
        let (html, summary) = try await OwnThread.run { try ReportCommand.run(InspectedJournal(path: path)) }
        let (meta, _, _, _) = try blocks(html)
        let svgs = try #require(meta["svgs"] as? [String])
        #expect(summary.graphs == svgs.count && summary.drawnByDot == svgs.count)
        #expect(Set(svgs).count == svgs.count, "each distinct graph once")
        #expect(svgs.allSatisfy { $0.hasPrefix("<svg") && $0.hasSuffix("</svg>") && !$0.contains("<!--") })
        let graphAt = try #require(meta["graphAt"] as? [[Int]])
        #expect(graphAt.first?[0] == journal.reader.firstStep)
        #expect(zip(graphAt, graphAt.dropFirst()).allSatisfy { $0[1] != $1[1] && $0[0] < $1[0] })
    }

    @Test func hostileTextCannotEndAScriptElement() async throws {
        let directory = try TemporaryDirectory()
        for path in [try HostileSessions.values(in: directory), try HostileSessions.names(in: directory)] {
            // `dot` draws the graphs when installed: on a thread of its own, not a test's.
            let html = try await OwnThread.run { try ReportCommand.run(InspectedJournal(path: path)).html }
            let text = String(decoding: html, as: UTF8.self)
            // The page's own elements only: four scripts, each closed once.
            #expect(text.components(separatedBy: "</script").count - 1 == 4, "\(path)")
            #expect(text.components(separatedBy: "<script").count - 1 == 4)
            #expect(!text.contains("<img"))
            #expect(!text.contains("<!--"))
            #expect(!text.contains(Hostile.secret))
            let (meta, _, _, _) = try blocks(html)
            #expect(meta["report"] as? Int == 1)
        }
    }

    @Test func theTitleIsTextAndEachPageHasItsOwnNonce() throws {
        let data = ReportData(meta: Array("{}".utf8), values: [], keyframes: [])
        let page = String(decoding: ReportPage.html(data: data, title: "</title><script>x()</script> & 'q'"), as: UTF8.self)
        #expect(page.contains("<title>&lt;/title&gt;&lt;script&gt;x()&lt;/script&gt; &amp; &apos;q&apos; · atoms-inspect report</title>"))
        let nonces = (0..<2).map { _ in ReportPage.makeNonce() }
        #expect(nonces[0] != nonces[1] && nonces.allSatisfy { $0.count == 22 })
        let other = String(decoding: ReportPage.html(data: data, title: "t", nonce: "abc"), as: UTF8.self)
        #expect(other.contains("script-src 'nonce-abc'") && other.contains("<script nonce=\"abc\">"))
    }

    @Test func aRangeReportsOnlyItsSteps() throws {
        let directory = try TemporaryDirectory()
        let journal = try InspectedJournal(path: RecordedSessions.small(in: directory))
        let (html, summary) = try ReportCommand.run(journal, from: .number(3), to: .number(6), graphviz: nil)
        let (meta, values, _, _) = try blocks(html)
        #expect(summary.first == 3 && summary.last == 6)
        #expect(meta["first"] as? Int == 3 && meta["last"] as? Int == 6)
        #expect(values.count == 4)
        #expect(throws: InspectorError.self) { try ReportCommand.run(journal, from: .number(6), to: .number(3)) }
        #expect(throws: InspectorError.self) { try ReportCommand.run(journal, from: .number(99)) }
    }

    @Test func aReportTooLargeIsRefusedWithARangeToTry() throws {
        let directory = try TemporaryDirectory()
        let journal = try InspectedJournal(path: RecordedSessions.long(in: directory, operations: 400))
        #expect {
            try ReportCommand.run(journal, sizeLimit: 4096, graphviz: nil)
        } throws: { error in
            guard let error = error as? InspectorError else { return false }
            return error.status == .usage && error.message.contains("--from") && error.message.contains("--max-size")
        }
    }

    @Test func keyframesFollowTheWeightOfTheChanges() throws {
        // A list that grows by one item a step: the changes outweigh a keyframe after a while.
        let directory = try TemporaryDirectory()
        let path = directory.path("growing.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path)
        recorder.attach(to: root.store)
        let context = root.viewContext()
        context.watch(TasksAtom())
        for id in 0..<3000 {
            context[TasksAtom()].append(TaskItem(id: id, title: String(repeating: "x", count: 40), done: false))
        }
        try recorder.close()
        withExtendedLifetime(context) {}
        let (html, _) = try ReportCommand.run(InspectedJournal(path: path), graphviz: nil)
        let (meta, values, keyframes, _) = try blocks(html)
        let steps = try #require(meta["keyframes"] as? [Int])
        #expect(steps.count >= 2 && steps.count <= 40, "\(steps.count) keyframes")
        let valueBytes = values.reduce(0) { $0 + $1.utf8.count }
        let keyframeBytes = keyframes.reduce(0) { $0 + $1.utf8.count }
        #expect(keyframeBytes <= valueBytes, "keyframes weigh at most what the changes weigh")
    }

    // MARK: The built binary

    @Test func theBinaryWritesTheReportAndSaysWhatItWrote() async throws {
        let directory = try TemporaryDirectory()
        let journal = try RecordedSessions.small(in: directory)
        let output = directory.path("session.html")
        let run = try await BuiltProducts.run("atoms-inspect", ["report", journal, "-o", output])
        #expect(run.status == 0)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.hasPrefix("wrote \(output): steps 0…"))
        let html = try String(contentsOfFile: output, encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.hasSuffix("</html>\n"))
        // To a pipe without -o: the same page on stdout.
        let piped = try await BuiltProducts.run("atoms-inspect", ["report", journal])
        #expect(piped.status == 0 && piped.stdout.hasPrefix("<!DOCTYPE html>"))
    }

    @Test(arguments: [
        (["report", "/nonexistent/j.jsonl", "-o", "/tmp/x.html"], Int32(66)),
        (["report", "JOURNAL", "--from", "5", "--to", "2", "-o", "OUT"], Int32(64)),
        (["report", "JOURNAL", "--max-size", "lots", "-o", "OUT"], Int32(64)),
        (["report", "JOURNAL", "--max-size", "4KB", "-o", "OUT"], Int32(64)),
        (["report", "JOURNAL", "-o", "/nonexistent-dir/r.html"], Int32(73)),
    ])
    func badInputsGiveOneLineAndADocumentedStatus(arguments: [String], status: Int32) async throws {
        let directory = try TemporaryDirectory()
        let journal = try RecordedSessions.long(in: directory, operations: 200)
        let resolved = arguments.map { $0 == "JOURNAL" ? journal : $0 == "OUT" ? directory.path("r.html") : $0 }
        let run = try await BuiltProducts.run("atoms-inspect", resolved)
        #expect(run.status == status, "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory.path("r.html")))
    }
}
