import AtomsJournalReader
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `atoms-inspect check`: graph-shape assertions for CI.
package enum CheckCommand {
    /// The outcome of a check run.
    package struct Outcome: Sendable {
        /// The results, in rules-file order.
        package let results: [RuleChecker.Result]
        /// The report printed on stdout.
        package let output: String

        /// Whether every rule held.
        package var passed: Bool {
            results.allSatisfy(\.passed)
        }
    }

    /// Checks a rules file against the graph at a step, and writes a JUnit report when asked.
    ///
    /// - Throws: ``InspectorError``: 66 when the rules file is missing, 65 naming `file:line` for
    ///   a malformed rule, 73 when the JUnit file cannot be written.
    package static func run(_ journal: InspectedJournal, rules rulesPath: String, at step: StepSpec = .fromLast(0), junit: String? = nil, json: Bool = false, style: Style = .plain) throws(InspectorError) -> Outcome {
        let text: String
        do {
            text = try String(contentsOfFile: rulesPath, encoding: .utf8)
        } catch {
            let exists = FileManager.default.fileExists(atPath: rulesPath)
            throw InspectorError(exists ? .dataError : .noInput, path: rulesPath, "\(exists ? "cannot read rules file as UTF-8 text" : "no such rules file") — pass a rules file with --rules (see `man atoms-inspect`)")
        }
        let rules = try RulesParser.parse(text, file: rulesPath)
        // Rules are about the graph: no value is decoded.
        let state = try journal.state(at: journal.step(step), decodingValuesOf: [])
        let checker = RuleChecker(state: state)
        let results = rules.map(checker.check)
        if let junit {
            try OutputPath.write(JUnitReport.xml(results, rulesFile: rulesPath, journal: journal.path, step: state.step).utf8, to: junit)
        }
        let failed = results.filter { !$0.passed }
        if json {
            struct Report: Encodable {
                let journal: String
                let step: Int
                let rules: Int
                let failed: Int
                let results: [RuleChecker.Result]
            }
            return Outcome(results: results, output: JSONOutput.encode(Report(journal: journal.path, step: state.step, rules: results.count, failed: failed.count, results: results)))
        }
        var lines = failed.map { result in
            "\(style.red("FAIL")) \(rulesPath):\(result.line): \(result.rule) — \(result.detail ?? "")"
        }
        let summary = "checked \(results.count) rules at step \(state.step) of \(journal.path): \(failed.isEmpty ? style.green("all hold") : style.red("\(failed.count) failed"))"
        lines.append(summary)
        return Outcome(results: results, output: lines.joined(separator: "\n"))
    }
}

/// A JUnit XML report: one test case per rule.
enum JUnitReport {
    static func xml(_ results: [RuleChecker.Result], rulesFile: String, journal: String, step: Int) -> String {
        let failures = results.filter { !$0.passed }.count
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += #"<testsuites tests="\#(results.count)" failures="\#(failures)">"# + "\n"
        xml += #"  <testsuite name="\#(Markup.escaped("atoms-inspect check \(rulesFile)"))" tests="\#(results.count)" failures="\#(failures)" errors="0">"# + "\n"
        xml += #"    <properties><property name="journal" value="\#(Markup.escaped(journal))"/><property name="step" value="\#(step)"/></properties>"# + "\n"
        for result in results {
            let name = Markup.escaped(result.rule)
            let classname = Markup.escaped("\(rulesFile):\(result.line)")
            if result.passed {
                xml += #"    <testcase name="\#(name)" classname="\#(classname)"/>"# + "\n"
            } else {
                xml += #"    <testcase name="\#(name)" classname="\#(classname)">"# + "\n"
                xml += #"      <failure message="\#(Markup.escaped(result.detail ?? "failed"))"/>"# + "\n"
                xml += "    </testcase>\n"
            }
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }
}
