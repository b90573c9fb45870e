import Atoms
import Foundation
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

/// Sinks are plain synchronous storage: what they are given is stored when the call returns.
/// When lines reach them is the recorder's thread's flush policy.
@MainActor
struct JournalSinkTests {
    /// A sink written against the protocol's three requirements only.
    final class CountingSink: JournalSink, @unchecked Sendable {
        // Unchecked: appended to by the recorder's thread, read after `flush()` returned.
        private let lock = NSLock()
        private var stored: [UInt8] = []
        var text: String { lock.withLock { String(decoding: stored, as: UTF8.self) } }
        func append(_ lines: [UInt8]) throws { lock.withLock { stored.append(contentsOf: lines) } }
        func sync() throws {}
        func close() throws {}
    }

    /// A sink whose storage fails after its opening lines.
    final class FailingSink: JournalSink, @unchecked Sendable {
        // Unchecked: touched by one thread at a time.
        private var calls = 0
        func append(_ lines: [UInt8]) throws {
            calls += 1
            if calls > 1 { throw JournalError.writeFailed(path: "failing", reason: "disk full") }
        }
        func sync() throws {}
        func close() throws {}
    }

    /// Reads `path` until `predicate` holds or `seconds` pass (read once more after the
    /// deadline: the main actor may come back to this test only after it).
    private func waitForFile(_ path: String, seconds: Double = 60, until predicate: (String) -> Bool) async throws -> String {
        let deadline = Patience.date(after: seconds)
        while true {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            if predicate(text) || Date() >= deadline { return text }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    private func transactionLines(_ text: String) -> Int {
        text.split(separator: "\n").filter { $0.hasPrefix("[") }.count
    }

    @Test func aFileSinkStoresEachAppendWhenItReturns() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("sink.jsonl")
        let sink = try FileJournalSink(path: path)
        try sink.append(Array("first\n".utf8))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "first\n")
        try sink.append(Array("second\nthird\n".utf8))
        try sink.append([])
        try sink.startSegment(opening: Array("fourth\n".utf8))
        try sink.sync()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "first\nsecond\nthird\nfourth\n")
        sink.close()
        try sink.append(Array("after\n".utf8))
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "first\nsecond\nthird\nfourth\n", "nothing after close")
    }

    @Test func aSinkWithOnlyTheRequirementsGetsEveryLine() throws {
        let root = AtomRoot()
        let sink = CountingSink()
        let recorder = JournalRecorder(sink: sink)
        recorder.attach(to: root.store)
        let context = root.viewContext()
        context.watch(CountAtom())
        for _ in 0..<20 { context[CountAtom()] += 1 }
        try recorder.flush()
        #expect(transactionLines(sink.text) == 21)
        try recorder.close()
        #expect(sink.text.hasSuffix("}\n") && sink.text.contains("\"type\":\"end\""))
    }

    /// `.onClose` keeps lines on the recorder's thread until `flush()`; the others hand them
    /// over without one (after each batch, or once the interval passed).
    @Test(arguments: [FlushPolicy.onClose, .everyTransaction, .interval(milliseconds: 50)])
    func eachPolicyHandsLinesOverWhenItSays(policy: FlushPolicy) async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("policy.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, flush: policy)
        let recorded = Locked(0)
        recorder.observer = { observation in recorded.withLock { $0 = observation.recordedThrough } }
        recorder.attach(to: root.store)
        let opening = try String(contentsOfFile: path, encoding: .utf8)
        #expect(opening.split(separator: "\n").count == 2, "the header and the keyframe are written at attach")
        let context = root.viewContext()
        context.watch(CountAtom())
        for _ in 0..<10 { context[CountAtom()] += 1 }
        if policy == .onClose {
            // Once the thread built every line, which it reports.
            let committed = root.store.committedTransactions
            #expect(await Poll.until(timeout: 60) { recorded.withLock { $0 } == committed }, "the thread built the lines")
            #expect(try String(contentsOfFile: path, encoding: .utf8) == opening, "held until flush")
        } else {
            let text = try await waitForFile(path) { transactionLines($0) == 11 }
            #expect(transactionLines(text) == 11, "handed over without a flush")
        }
        try recorder.flush()
        #expect(transactionLines(try String(contentsOfFile: path, encoding: .utf8)) == 11)
        try recorder.close()
        let journal = try JournalReader(path: path)
        #expect(journal.lastStep == 11)
        #expect(journal.warnings.isEmpty)
    }

    @Test func aFlushRightAfterAttachReturns() throws {
        let directory = try TemporaryDirectory()
        for policy in [FlushPolicy.onClose, .everyTransaction, .interval(milliseconds: 50)] {
            for attempt in 0..<10 {
                let path = directory.path("flush-\(attempt).jsonl")
                let root = AtomRoot()
                let recorder = try JournalRecorder(path: path, flush: policy)
                recorder.attach(to: root.store)
                let context = root.viewContext()
                context.watch(CountAtom())
                try recorder.flush()
                #expect(transactionLines(try String(contentsOfFile: path, encoding: .utf8)) == 1, "\(policy) attempt \(attempt)")
                _ = context
                try recorder.close()
            }
        }
    }

    @Test func aFailingSinkIsReportedByFlushAndClose() throws {
        let root = AtomRoot()
        let recorder = JournalRecorder(sink: FailingSink())
        recorder.attach(to: root.store)
        root.viewContext().watch(CountAtom())
        #expect(throws: JournalError.writeFailed(path: "failing", reason: "disk full")) { try recorder.flush() }
        #expect(throws: JournalError.writeFailed(path: "failing", reason: "disk full")) { try recorder.close() }
    }
}
