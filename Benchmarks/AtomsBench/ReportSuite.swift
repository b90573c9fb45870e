import Atoms
import AtomsInspector
import AtomsJournal
import BrowserSupport
import Foundation

/// The HTML report of a long session: how many bytes it spends per transaction beyond the
/// values, how long it takes to write, and how soon headless Chromium shows it.
@MainActor
enum ReportSuite {
    struct Figures {
        var transactions = 0
        var journalBytes = 0
        var buildSeconds = 0.0
        /// Floors for writing the report, same journal, same run: `wc -l` (less a process
        /// start) and `log` (every transaction's envelope read).
        var wcSeconds = 0.0
        var logSeconds = 0.0
        var reportBytes = 0
        /// Bytes of value JSON embedded: the transactions' values and deltas, and the keyframes'.
        var valueBytes = 0
        var keyframes = 0
        /// Milliseconds from navigation to the first render, per run.
        var firstRender: [Double] = []
        /// The same for the 260-step todo sample's report: the floor of a page load.
        var floorRender: [Double] = []
        /// Milliseconds for the page to move to a random step.
        var moves: [Double] = []
    }

    /// Records the 500-todo workload (`LargeStateSuite`) until it holds `transactions`
    /// transactions, writes its report, and opens it in Chromium when installed.
    /// Records the 500-todo session with the real recorder: the todos added, then random
    /// toggles of one flag until the store has committed `transactions`.
    static func recordTodoSession(path journal: String, transactions: Int) throws {
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: journal, program: "atoms-bench")
        recorder.attach(to: root.store)
        let list = root.viewContext(fileID: "Bench/TodoList.swift", line: 40)
        list.watch(BenchFilteredTodosAtom())
        list.watch(BenchTodoStatsAtom())
        let editor = root.viewContext(fileID: "Bench/TodoEditor.swift", line: 12)
        for id in 1...LargeStateSuite.todos {
            editor[BenchTodosAtom()].append(BenchTodo(id: id, text: "Todo number \(id), written as users write them", isCompleted: false))
        }
        var state: UInt64 = 0x5E55
        while root.store.committedTransactions < transactions {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            list[BenchTodosAtom()][Int(state >> 33) % LargeStateSuite.todos].isCompleted.toggle()
        }
        try recorder.close()
        withExtendedLifetime((list, editor)) {}
    }

    static func run(directory: URL, transactions: Int, todoSample: String, renders: Int) async throws -> Figures {
        var figures = Figures()
        let journal = directory.appendingPathComponent("report-session.jsonl").path
        try recordTodoSession(path: journal, transactions: transactions)
        figures.journalBytes = (try FileManager.default.attributesOfItem(atPath: journal)[.size] as? Int) ?? 0

        let start = Date()
        let inspected = try InspectedJournal(path: journal)
        let (html, summary) = try ReportCommand.run(inspected)
        figures.buildSeconds = Date().timeIntervalSince(start)
        let floors = try LargeStateSuite.inspect(path: journal)
        figures.wcSeconds = floors.wc
        figures.logSeconds = floors.log
        figures.transactions = summary.last - summary.first
        figures.reportBytes = html.count
        let page = directory.appendingPathComponent("report.html").path
        try Data(html).write(to: URL(fileURLWithPath: page))
        let blocks = try embeddedBlocks(html)
        figures.valueBytes = blocks.valueBytes
        figures.keyframes = blocks.keyframes

        guard HeadlessChromium.executable != nil else { return figures }
        let floorPage = directory.appendingPathComponent("todo-report.html").path
        try Data(try ReportCommand.run(InspectedJournal(path: todoSample)).html).write(to: URL(fileURLWithPath: floorPage))
        for _ in 0..<renders {
            for (path, isFloor) in [(floorPage, true), (page, false)] {
                let browser = try await HeadlessChromium()
                defer { browser.close() }
                try await browser.open("file://\(path)", until: "window.atomsReport && window.atomsReport.firstRenderMs !== null", timeout: 120)
                let milliseconds = await (try browser.evaluate("window.atomsReport.firstRenderMs") as? Double) ?? .nan
                if isFloor {
                    figures.floorRender.append(milliseconds)
                } else {
                    figures.firstRender.append(milliseconds)
                    let script = """
                        (() => { let seed = 7; const times = [];
                          for (let n = 0; n < 40; n++) { seed = (seed * 1103515245 + 12345) % 2147483648;
                            const step = seed % \(figures.transactions + 1); const t = performance.now();
                            window.atomsReport.go(step); times.push(performance.now() - t); }
                          return times; })()
                        """
                    await figures.moves += (try browser.evaluate(script, timeout: 120) as? [Double]) ?? []
                }
            }
        }
        return figures
    }

    /// The value JSON bytes of the report's data: each value entry's payload (after its kind
    /// letter) in the transactions' lines, and each value in the keyframes.
    private static func embeddedBlocks(_ html: [UInt8]) throws -> (valueBytes: Int, keyframes: Int) {
        let text = String(decoding: html, as: UTF8.self)
        func block(_ id: String) -> Substring {
            guard let start = text.range(of: "id=\"\(id)\">"), let end = text.range(of: "</script>", range: start.upperBound..<text.endIndex) else { return "" }
            return text[start.upperBound..<end.lowerBound]
        }
        var valueBytes = 0
        for line in block("report-values").split(separator: "\n") {
            for entry in line.split(separator: "\t") where entry.first != "=" {
                valueBytes += entry.utf8.count - 1
            }
        }
        var keyframes = 0
        for line in block("report-keyframes").split(separator: "\n") {
            keyframes += 1
            guard case .object(let frame) = try JSONValue.parse(Array(line.utf8)), case .array(let entries)? = frame["values"] else { continue }
            for case .array(let parts) in entries where parts.count >= 3 {
                valueBytes += parts[2...].reduce(0) { $0 + $1.jsonText.utf8.count }
            }
        }
        return (valueBytes, keyframes)
    }
}
