import Atoms
import Foundation
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

/// Sinks receive batches of lines as bytes; a sink that only takes single lines still gets
/// every line, in order.
struct JournalSinkTests {
    /// A sink written against the original protocol: it implements `write(line:)` only.
    final class LineOnlySink: JournalSink, @unchecked Sendable {
        var lines: [String] = []
        func write(line: String) { lines.append(line) }
        func flush() throws {}
        func close() throws {}
    }

    @Test func batchesAreSplitIntoLinesForSinksThatTakeLines() {
        let sink = LineOnlySink()
        sink.write(lines: Array("[1,0,\"set\",0,0,[]]\n\n{\"type\":\"loc\"}\n".utf8))
        #expect(sink.lines == ["[1,0,\"set\",0,0,[]]", "", "{\"type\":\"loc\"}"])
    }

    @Test(arguments: [FlushPolicy.onClose, .everyTransaction, .interval(milliseconds: 50)])
    func aFlushRightAfterCreationReturnsWithTheLinesWritten(policy: FlushPolicy) throws {
        let directory = try TemporaryDirectory()
        for attempt in 0..<30 {
            let path = directory.path("flush-\(attempt).jsonl")
            let sink = try FileJournalSink(path: path, flush: policy)
            sink.write(line: "first")
            // On a thread of its own, so that a lost wakeup fails the test instead of hanging it.
            let flushed = DispatchSemaphore(value: 0)
            let transfer = UncheckedSink(sink: sink)
            Thread {
                try? transfer.sink.flush()
                flushed.signal()
            }.start()
            #expect(flushed.wait(timeout: .now() + 60) == .success, "attempt \(attempt)")
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "first\n")
            try sink.close()
        }
    }

    @Test func aFileSinkWritesBatchesAndLinesInOrder() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("sink.jsonl")
        let sink = try FileJournalSink(path: path)
        sink.write(line: "first")
        sink.write(lines: Array("second\nthird\n".utf8))
        sink.write(lines: [])
        sink.write(line: "fourth")
        try sink.close()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "first\nsecond\nthird\nfourth\n")
    }
}

/// Hands a sink to a thread in a test.
private struct UncheckedSink: @unchecked Sendable {
    let sink: FileJournalSink
}
