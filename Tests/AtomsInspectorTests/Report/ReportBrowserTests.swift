@testable import AtomsJournal
@testable import AtomsJournalReader
import BrowserSupport
import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// Reports opened in Debian's headless Chromium (installed by .ci/run): what the page shows
/// must be what the command line prints, and no journal content may run as script.
// One at a time: a headless Chromium takes hundreds of megabytes and both cores while it lays a page out.
@MainActor
@Suite(.serialized, .enabled(if: HeadlessChromium.executable != nil, "chromium is not installed (apt-get install chromium)"))
struct ReportBrowserTests {
    private var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../..").standardized
    }

    private var todo: String { repository.appendingPathComponent("samples/journals/todo.jsonl").path }

    private func writeReport(_ journalPath: String, in directory: TemporaryDirectory, name: String = "report.html", graphviz: Graphviz? = Graphviz()) async throws -> String {
        // `dot` runs for every distinct graph: on a thread of its own, not a test's.
        let useDot = graphviz != nil
        let html = try await OwnThread.run { try ReportCommand.run(InspectedJournal(path: journalPath), graphviz: useDot ? Graphviz() : nil).html }
        let path = directory.path(name)
        try Data(html).write(to: URL(fileURLWithPath: path))
        return path
    }

    private static let ready = "window.atomsReport && window.atomsReport.firstRenderMs !== null"

    /// The `pre.value` text of every atom the page lists, by name.
    private func shownValues(_ browser: HeadlessChromium) async throws -> [String: String] {
        let pairs = try await browser.evaluate("[...document.querySelectorAll('#values .atom')].map(e => [e.dataset.atom, e.querySelector('pre.value').textContent])") as? [[String]] ?? []
        return Dictionary(pairs.map { ($0[0], $0[1]) }, uniquingKeysWith: { $1 })
    }

    /// What `show --at STEP --json` prints, as each atom's value text.
    private func cliValues(_ journal: InspectedJournal, at step: Int) throws -> [String: String] {
        let output = try ShowCommand.run(journal, at: .number(step), json: true)
        let object = try JSONValue.parse(Array(output.utf8))
        guard case .object(let members) = object, case .array(let atoms)? = members["atoms"] else {
            Issue.record("show --json printed \(output)")
            return [:]
        }
        var values: [String: String] = [:]
        for case .object(let atom) in atoms {
            guard case .string(let name)? = atom["atom"] else { continue }
            // As `show` prints it: redacted, then a phase's dump, then the JSON, then the dump.
            let dump: String? = if case .string(let text)? = atom["dump"] { text } else { nil }
            if atom["redacted"] == .bool(true) {
                values[name] = "<redacted>"
            } else if atom["phase"] != nil, let dump {
                values[name] = dump
            } else {
                values[name] = atom["value"]?.prettyText ?? dump ?? "<unknown>"
            }
        }
        return values
    }

    /// Edges of a DOT graph as `from->to`, with the names unquoted.
    private func edges(ofDOT dot: String) -> Set<String> {
        var result = Set<String>()
        for line in dot.split(separator: "\n") where line.contains(" -> ") {
            var names: [String] = []
            var current: String?
            var escaped = false
            for character in line {
                if var name = current {
                    if escaped { name.append(character); escaped = false; current = name; continue }
                    if character == "\\" { escaped = true; continue }
                    if character == "\"" { names.append(name); current = nil; continue }
                    name.append(character)
                    current = name
                } else if character == "\"" {
                    current = ""
                }
            }
            if names.count >= 2 { result.insert("\(names[0])->\(names[1])") }
        }
        return result
    }

    private func shownEdges(_ browser: HeadlessChromium) async throws -> Set<String> {
        await Set(try browser.evaluate("[...document.querySelectorAll('#graph g.edge > title')].map(t => t.textContent)") as? [String] ?? [])
    }

    @Test(arguments: [true, false])
    func theTodoReportAtStep40ShowsWhatShowAndGraphPrint(usingDot: Bool) async throws {
        let directory = try TemporaryDirectory()
        let journal = try InspectedJournal(path: todo)
        let page = try await writeReport(todo, in: directory, graphviz: usingDot ? Graphviz() : nil)
        let browser = try await HeadlessChromium()
        defer { browser.close() }
        try await browser.open("file://\(page)#step=40", until: Self.ready)
        #expect(try await browser.evaluate("window.atomsReport.error") as? String == nil)
        #expect(try await browser.evaluate("window.atomsReport.step()") as? Int == 40)

        // The values `show --at 40 --json` prints, as the CLI's text renders them.
        let expected = try cliValues(journal, at: 40)
        #expect(!expected.isEmpty)
        #expect(try await shownValues(browser) == expected)

        // The graph's edges are those of `graph --at 40`.
        let layout = try await browser.evaluate("document.getElementById('graph').dataset.layout") as? String
        if usingDot && Graphviz().executable != nil { #expect(layout == "dot") } else { #expect(layout == "page") }
        let dot = try GraphCommand.dot(journal, at: .number(40))
        #expect(try await shownEdges(browser) == edges(ofDOT: dot))
        #expect(edges(ofDOT: dot).count >= 5)

        // → moves to step 41, and the URL follows.
        try await browser.press(key: "ArrowRight", code: 39)
        try await browser.wait(until: "window.atomsReport.step() === 41", timeout: 10)
        #expect(try await browser.evaluate("location.hash") as? String == "#step=41")
        #expect(try await shownValues(browser) == (try cliValues(journal, at: 41)))
        try await browser.press(key: "ArrowLeft", code: 37)
        try await browser.wait(until: "window.atomsReport.step() === 40", timeout: 10)
    }

    /// Every step, visited forwards and then backwards (rebuilt from keyframes), shows the
    /// values the reader computes: the page's delta decoding is the reader's.
    @Test func everyStepOfTheTodoReportMatchesTheReader() async throws {
        let directory = try TemporaryDirectory()
        let journal = try InspectedJournal(path: todo)
        let page = try await writeReport(todo, in: directory)
        let browser = try await HeadlessChromium()
        defer { browser.close() }
        try await browser.open("file://\(page)#step=0", until: Self.ready)
        let first = journal.reader.firstStep, last = journal.reader.lastStep
        let script = """
            (() => { const out = {}; const visit = (s) => { window.atomsReport.go(s);
              out[s] = Object.fromEntries([...document.querySelectorAll('#values .atom')].map(e => [e.dataset.atom, e.querySelector('pre.value').textContent])); };
              for (let s = \(first); s <= \(last); s++) visit(s);
              const forwards = JSON.stringify(out);
              for (let s = \(last); s >= \(first); s -= 7) visit(s);
              return [forwards, JSON.stringify(out)]; })()
            """
        let results = try #require(await browser.evaluate(script) as? [String])
        #expect(results[0] == results[1], "stepping backwards shows what stepping forwards showed")
        let shown = try #require(JSONSerialization.jsonObject(with: Data(results[0].utf8)) as? [String: [String: String]])
        var state = try journal.state(at: first)
        for step in first...last {
            if step > first { state = try journal.reader.advance(state, to: step) }
            let expected = Dictionary(uniqueKeysWithValues: state.liveAtoms.compactMap { atom in state.values[atom.id].map { (atom.displayName, $0.displayText) } })
            #expect(shown[String(step)] == expected, "step \(step)")
        }
    }

    /// A sample of steps of each shipped journal and of the hostile one, shown in Chromium:
    /// the atoms, their text byte for byte and their marks are what `show --json` prints (the
    /// differential test checks every step under Node; this checks the page draws them).
    @Test(arguments: ["counter", "movies", "numpad", "todo", "hostile"])
    func sampledStepsShowWhatShowPrints(journalName: String) async throws {
        let directory = try TemporaryDirectory()
        let path = journalName == "hostile"
            ? try HostileSessions.values(in: directory)
            : repository.appendingPathComponent("samples/journals/\(journalName).jsonl").path
        let journal = try InspectedJournal(path: path)
        let page = try await writeReport(path, in: directory)
        let browser = try await HeadlessChromium()
        defer { browser.close() }
        try await browser.open("file://\(page)#step=\(journal.reader.lastStep)", until: Self.ready)
        let first = journal.reader.firstStep, last = journal.reader.lastStep
        let steps = Array(Set(stride(from: first, through: last, by: 7)).union([first, first + 1, last])).sorted()
        let script = """
            JSON.stringify(\(steps).map((s) => { window.atomsReport.go(s);
              return [window.atomsReport.step(), [...document.querySelectorAll('#values .atom')].map((e) => [e.dataset.atom,
                e.querySelector('pre.value').textContent, (e.querySelector('.marks')?.textContent ?? '').replace(/^\\((.*)\\)$/s, '$1')])]; }))
            """
        let shown = try await JSONValue.parse(Array(try #require(browser.evaluate(script) as? String).utf8))
        guard case .array(let visits) = shown else { Issue.record("the page returned \(shown)"); return }
        #expect(visits.count == steps.count)
        for (step, visit) in zip(steps, visits) {
            guard case .array(let pair) = visit, pair.count == 2, case .array(let atoms) = pair[1] else { continue }
            #expect(pair[0] == .number(JSONNumber(step)))
            let page = atoms.map { atom in
                guard case .array(let fields) = atom else { return [String]() }
                return fields.map { if case .string(let text) = $0 { text } else { "" } }
            }
            let printed = try ShowPrinted.atoms(journal, at: step)
            let same = page.map { $0.map { Array($0.utf8) } } == printed.map { $0.map { Array($0.utf8) } }
            #expect(same, "step \(step) of \(journalName): the page has \(page.filter { !printed.contains($0) }), show \(printed.filter { !page.contains($0) })")
        }
        #expect(try await browser.evaluate("window.atomsReport.error") as? String == nil)
        #expect(try await browser.evaluate("typeof window.__injected") as? String == "undefined")
    }

    @Test func hostileValuesRenderAsTextAndNothingRuns() async throws {
        let directory = try TemporaryDirectory()
        let path = try HostileSessions.values(in: directory)
        let journal = try InspectedJournal(path: path)
        let page = try await writeReport(path, in: directory)
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(!html.contains(Hostile.secret), "a redacted value never reaches the report")
        let browser = try await HeadlessChromium()
        defer { browser.close() }
        for step in [journal.reader.lastStep, journal.reader.lastStep / 2, journal.reader.firstStep] {
            try await browser.open("file://\(page)#step=\(step)", until: Self.ready)
            #expect(try await browser.evaluate("window.atomsReport.error") as? String == nil)
            #expect(try await browser.evaluate("typeof window.__injected") as? String == "undefined", "no value ran as script at step \(step)")
            #expect(try await browser.evaluate("document.querySelectorAll('body img, body script:not([nonce]):not([type])').length") as? Int == 0)
            let shownNow = try await shownValues(browser), printed = try cliValues(journal, at: step)
            #expect(shownNow == printed, "step \(step): \(shownNow.filter { printed[$0.key] != $0.value }) vs \(printed.filter { shownNow[$0.key] != $0.value })")
        }
        try await browser.open("file://\(page)#step=\(journal.reader.lastStep)", until: Self.ready)
        #expect(try await shownValues(browser)["TokenAtom"] == "<redacted>")
        let text = try await browser.evaluate("document.body.innerText") as? String ?? ""
        #expect(text.contains(JSONValue.string(Hostile.scriptEnd).jsonText))
        #expect(text.contains(JSONValue.string(Hostile.image).jsonText))
    }

    @Test(arguments: [true, false])
    func hostileNamesAndLocationsRenderAsText(usingDot: Bool) async throws {
        let directory = try TemporaryDirectory()
        let path = try HostileSessions.names(in: directory)
        let journal = try InspectedJournal(path: path)
        let page = try await writeReport(path, in: directory, graphviz: usingDot ? Graphviz() : nil)
        let browser = try await HeadlessChromium()
        defer { browser.close() }
        for step in [1, 2] {
            try await browser.open("file://\(page)#step=\(step)", until: Self.ready)
            #expect(try await browser.evaluate("window.atomsReport.error") as? String == nil)
            // Hovering shows the write site and the atoms written.
            try await browser.send("Input.dispatchMouseEvent", ["type": "mouseMoved", "x": 1380, "y": 100])
            #expect(try await browser.evaluate("typeof window.__injected") as? String == "undefined", "step \(step)")
            #expect(try await shownValues(browser) == (try cliValues(journal, at: step)))
            #expect(try await shownEdges(browser) == edges(ofDOT: try GraphCommand.dot(journal, at: .number(step))))
            let text = try await browser.evaluate("document.body.innerText") as? String ?? ""
            #expect(text.contains(Hostile.image), "the label shows as text")
            #expect(text.contains(Hostile.scriptEnd + ".swift:3"), "the location shows as text")
        }
    }

    /// The todo journal is recorded with timing: the cost lane draws a bar per transaction,
    /// and at a step the page lists that step's evaluations and the atoms `profile --to STEP`
    /// ranks first. A journal recorded without timing has no lane, and says so.
    @Test func theCostLaneRendersForATimedJournalAndIsAbsentWithoutTiming() async throws {
        let directory = try TemporaryDirectory()
        let journal = try InspectedJournal(path: todo)
        let page = try await writeReport(todo, in: directory)
        let browser = try await HeadlessChromium()
        defer { browser.close() }
        try await browser.open("file://\(page)#step=100", until: Self.ready)
        #expect(try await browser.evaluate("window.atomsReport.error") as? String == nil)
        #expect(try await browser.evaluate("document.getElementById('cost-panel').dataset.timed") as? String == "true")
        // Columns of the lane's bottom half holding a bar: many, not just the step's marker.
        let paintedColumns = """
            (() => { const c = document.getElementById('cost-lane'); const d = c.getContext('2d').getImageData(0, c.height / 2, c.width, c.height / 2);
              const columns = new Set(); for (let i = 3; i < d.data.length; i += 4) if (d.data[i]) columns.add(((i - 3) / 4) % d.width); return columns.size; })()
            """
        #expect(try await browser.evaluate(paintedColumns) as? Int ?? 0 >= 50)
        let summary = try await browser.evaluate("document.getElementById('cost-summary').textContent") as? String ?? ""
        #expect(summary.hasPrefix("Step 100 took ") && summary.contains("(the slowest: "), "\(summary)")

        let rows = "(id) => [...document.querySelectorAll('#' + id + ' tr')].slice(1).map((r) => r.firstChild.textContent)"
        let profile = try ProfileCommand.profile(journal, options: .init(to: .number(100)))
        #expect(try await browser.evaluate("(\(rows))('cost-atoms')") as? [String] == Array(profile.atoms.map(\.atom).prefix(10)))
        let record = try journal.transaction(100, decodingValuesOf: [])
        let evaluated = try #require(try journal.reader.timing(of: 100)).evaluations.map { try journal.state(at: 100).declarations[$0.atom]?.displayName ?? "" }
        #expect(!evaluated.isEmpty && record.values?.isEmpty == false)
        #expect(try await browser.evaluate("(\(rows))('cost-step')") as? [String] == evaluated)

        let untimed = try await writeReport(RecordedSessions.long(in: directory, operations: 12, timing: false), in: directory, name: "untimed.html")
        try await browser.open("file://\(untimed)#step=5", until: Self.ready)
        #expect(try await browser.evaluate("window.atomsReport.error") as? String == nil)
        #expect(try await browser.evaluate("document.getElementById('cost-lane') === null") as? Bool == true)
        let notice = try await browser.evaluate("document.getElementById('cost-summary').textContent") as? String ?? ""
        #expect(notice.hasPrefix("This journal was recorded without timing"))
    }
}
