import AtomsJournal
import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// Python with the `duckdb` package (`pip install duckdb`, as .ci/run does), when installed.
enum PythonDuckDB {
    static var python: String? {
        get async { await probe.value }
    }

    /// Looks for python3 and `duckdb` once, in a task the tests that need it await.
    private static let probe = Task<String?, Never> {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        guard let python = path.split(separator: ":").map({ "\($0)/python3" }).first(where: FileManager.default.isExecutableFile) else {
            return nil
        }
        let probe = try? await Subprocess.run(python, ["-c", "import duckdb"], timeout: 60)
        return probe?.status == 0 ? python : nil
    }

    /// Runs the named SQL blocks in one DuckDB connection, in `directory`; returns each
    /// query's rows (the `tables` block only sets up).
    static func run(_ blocks: [(name: String, sql: String)], in directory: String) async throws -> [String: [[JSONValue]]] {
        let script = """
            import json, sys, duckdb
            connection = duckdb.connect()
            results = {}
            for name, sql in json.loads(sys.argv[1]):
                rows = connection.execute(sql).fetchall()
                if name != "tables":
                    results[name] = [list(row) for row in rows]
            print(json.dumps(results, default=str))
            """
        let arguments = String(decoding: try JSONEncoder().encode(blocks.map { [$0.name, $0.sql] }), as: UTF8.self)
        let run = try await Subprocess.run(try #require(python), ["-c", script, arguments], directory: directory, timeout: 120)
        try #require(run.status == 0, "DuckDB failed: \(run.stderr)")
        return try JSONDecoder().decode([String: [[JSONValue]]].self, from: Data(run.stdout.utf8))
    }
}

/// The queries of docs/EXPORT.md, run by DuckDB over exports of 20 recorded todo sessions, and
/// their answers checked against `show --json` and `stats --json`.
@MainActor
struct ExportQueryTests {
    private var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../..").standardized
    }

    /// Session `k` adds 8·k todos (removing two early on: totals only grow after that),
    /// toggles every seventh, and every ten adds sets the filter to completed twice (the second
    /// an equal write) and back to all.
    private static func script(session k: Int) -> [String] {
        var lines: [String] = []
        for index in 1...(8 * k) {
            lines.append("add Task \(index), \"session \(k)\"")
            if index == 3 { lines.append("remove 1") }
            if index == 5 { lines.append("remove 2") }
            if index % 7 == 0 { lines.append("toggle \(index)") }
            if index % 10 == 0 { lines += ["filter completed", "filter completed", "filter all"] }
        }
        return lines
    }

    private static let sessions = 1...20

    private static func name(_ k: Int) -> String {
        "session-" + (k < 10 ? "0" : "") + String(k)
    }

    /// `StatsAtom.total` at a step, from `show --json` (`nil` before the atom is live).
    private func total(_ journal: InspectedJournal, at step: Int) throws -> Int? {
        guard let text = try? ShowCommand.run(journal, at: .number(step), atom: "StatsAtom", json: true) else { return nil }
        let output = try JSONDecoder().decode([String: JSONValue].self, from: Data(text.utf8))
        guard case .array(let atoms)? = output["atoms"], case .object(let atom)? = atoms.first,
              case .object(let value)? = atom["value"], case .number(let total)? = value["total"] else { return nil }
        return total.int64.map(Int.init)
    }

    @Test(.enabled("DuckDB is not installed (pip install duckdb): the documented queries are not run") { await PythonDuckDB.python != nil })
    func theDocumentedQueriesAnswerWhatShowAndStatsSay() async throws {
        let directory = try TemporaryDirectory()
        let todo = try #require(BuiltProducts.executable("sample-todo"), "sample-todo is built")
        var journals: [String: InspectedJournal] = [:]
        for k in Self.sessions {
            let path = directory.path("\(Self.name(k)).jsonl")
            let run = try await Subprocess.run(todo, ["--journal", path], stdin: Self.script(session: k).joined(separator: "\n") + "\n", timeout: 60)
            try #require(run.status == 0, "\(run.stderr)")
            let journal = try InspectedJournal(path: path)
            // One export folder per run, as a fleet keeps them; the first two are the baseline.
            let summary = try ExportCommand.run([path], to: directory.path("exports/\(Self.name(k))"), options: .init())
            if k <= 2 {
                _ = try ExportCommand.run([path], to: directory.path("baseline/\(Self.name(k))"), options: .init())
            }
            journals[try #require(summary.journals.first)] = journal
        }

        let queries = try ExportDocument().queries(engine: "duckdb")
        #expect(queries.map(\.name) == ["tables", "stats-total-over-100", "filter-write-sites", "p99-growth"])
        let results = try await PythonDuckDB.run(queries, in: directory.url.path)

        // 1. The runs where StatsAtom.total passed 100, and the first step: show --json says
        // the total is over 100 there and not before; the other runs end at 100 or less.
        let passed = try #require(results["stats-total-over-100"])
        var firstSteps: [String: Int] = [:]
        for row in passed {
            guard case .string(let id) = row[0], case .number(let step) = row[1], let first = step.int64.map(Int.init) else {
                Issue.record("unexpected row \(row)")
                continue
            }
            firstSteps[id] = first
        }
        let expected = Set(Self.sessions.filter { 8 * $0 - 2 > 100 }.map(Self.name))
        #expect(Set(firstSteps.keys.map { String($0.prefix { $0 != "@" }) }) == expected)
        for (id, journal) in journals {
            if let first = firstSteps[id] {
                #expect(try total(journal, at: first).map { $0 > 100 } == true, "\(id) at step \(first)")
                #expect(try total(journal, at: first - 1).map { $0 <= 100 } ?? true, "\(id) before step \(first)")
            } else {
                #expect(try total(journal, at: journal.reader.lastStep).map { $0 <= 100 } == true, "\(id) at its end")
            }
        }

        // 2. FilterAtom's write sites: the `filter` command's line first; every write counted
        // as stats --json counts them, and the equal writes left out of `changes`.
        let sites = try #require(results["filter-write-sites"])
        let source = try String(contentsOf: repository.appendingPathComponent("samples/Todo/main.swift"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        let filterLine = try #require(source.firstIndex { $0.contains("picker[FilterAtom()] = filter") }) + 1
        #expect(sites.first?.first == .string("sample_todo/main.swift:\(filterLine)"))
        func sum(_ column: Int) -> Int {
            sites.reduce(0) { total, row in
                guard case .number(let count) = row[column] else { return total }
                return total + Int(count.int64 ?? 0)
            }
        }
        var statsWrites = 0
        for journal in journals.values {
            let stats = try JSONDecoder().decode(JSONValue.self, from: Data(try StatsCommand.run(journal, json: true).utf8))
            guard case .object(let members) = stats, case .array(let changed)? = members["mostChanged"] else { continue }
            for case .object(let entry) in changed where entry["atom"] == .string("FilterAtom") {
                if case .number(let count)? = entry["writes"] { statsWrites += Int(count.int64 ?? 0) }
            }
        }
        let blocks = Self.sessions.map { 8 * $0 / 10 }
        #expect(sum(2) == statsWrites)
        #expect(sum(2) == blocks.reduce(0) { $0 + 1 + 3 * $1 })
        #expect(sum(1) == blocks.reduce(0) { $0 + 1 + 2 * $1 })

        // 3. No journal records timing yet: the p99 query runs and finds nothing.
        #expect(results["p99-growth"] == [])
    }
}
