import AtomsJournal
import Foundation
import Testing
@testable import AtomsInspector

/// `log` formatted from envelopes in place (``LogBytes``) against `log` built from records:
/// every transaction read by the reader as a record, named and formatted by
/// ``LogCommand/entry(of:names:)`` and ``LogCommand/text(of:style:)``, the JSON by the
/// encoder. Same bytes, same errors, on every shipped journal and every fuzzed one.
struct LogDifferentialTests {
    @Test(arguments: SearchDifferentialTests.journals)
    func theLogFromBytesIsTheLogFromRecords(path: String) throws {
        guard let journal = try? InspectedJournal(path: path) else { return }
        let reader = journal.reader
        var cases: [LogCommand.Options] = [.init(), .init(style: Style(isColored: true)), .init(header: true)]
        if reader.lastStep > reader.firstStep + 2 {
            let middle = (reader.firstStep + reader.lastStep) / 2
            cases.append(.init(from: .number(middle), to: .number(reader.lastStep - 1)))
        }
        if let last = try? journal.state(at: reader.lastStep, decodingValuesOf: []) {
            for atom in last.liveAtoms.prefix(2) {
                cases.append(.init(atom: atom.displayName))
                cases.append(.init(atom: atom.displayName, writes: true))
            }
        }
        for options in cases {
            var json = options
            json.json = true
            for options in [options, json] {
                let fast = Result { () throws(InspectorError) in try LogCommand.run(journal, options: options) }
                let full = Result { () throws(InspectorError) in try Self.fromRecords(journal, options: options) }
                #expect(String(describing: fast) == String(describing: full), "\(path): \(options.atom ?? "-") json \(options.json) from \(String(describing: options.from))")
            }
        }
    }

    @Test
    func timesRoundAsTheDoubleDoes() {
        var texts = ["0", "0.4", "0.5", "-0.5", "-0.4", "2.995", "999.5", "999.4999", "1234.5678", "-5", "61000", "999999999.5", "1000000000.5", "12.345", "7.05", "-0"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let whole = Int.random(in: 0..<2_000_000_000, using: &generator) >> Int.random(in: 0..<31, using: &generator)
            let decimals = Int.random(in: 0...4, using: &generator)
            let fraction = decimals == 0 ? "" : "." + String(Int.random(in: 0..<Int(pow(10.0, Double(decimals))), using: &generator)).leftPadded(to: decimals, with: "0")
            texts.append((Bool.random(using: &generator) ? "-" : "") + String(whole) + fraction)
        }
        for text in texts {
            let bytes = Array(text.utf8)
            let exact = LogCommand.seconds(milliseconds: Double(text)!)
            bytes.withUnsafeBytes { raw in
                if let (total, negative) = LogBytes.roundedMilliseconds(raw) {
                    let digits = "\(total / 1000)." + String(total % 1000).leftPadded(to: 3, with: "0")
                    #expect((negative && total > 0 ? "-" : "") + digits == exact, "\(text)")
                }
                #expect(LogBytes.jsonNumber(raw) == JSONOutput.encodeLine(Double(text)!), "\(text)")
            }
        }
    }

    /// `log` as it was built before: a record per transaction, applied to the state before it
    /// (which checks the atoms it refers to are declared).
    static func fromRecords(_ journal: InspectedJournal, options: LogCommand.Options) throws(InspectorError) -> String {
        let reader = journal.reader
        let steps = try journal.steps(from: options.from, to: options.to)
        if let pattern = options.atom {
            var known = Naming(declarations: try journal.state(at: reader.lastStep, decodingValuesOf: []).declarations).matching(pattern)
            if known.isEmpty {
                known = Naming(declarations: try journal.declarations(through: reader.lastStep)).matching(pattern)
            }
            guard !known.isEmpty else {
                throw InspectorError(.usage, path: journal.path, "no atom in the journal matches '\(pattern)' — list atoms with `atoms-inspect show`")
            }
        }
        var entries: [LogCommand.Entry] = []
        let firstTransaction = max(steps.lowerBound, reader.firstStep + 1)
        if firstTransaction <= steps.upperBound {
            var state = try journal.state(at: firstTransaction - 1, decodingValuesOf: [])
            var declarations = state.declarations
            var names = Naming(declarations: declarations)
            var selected = options.atom.map(names.matching)
            for step in firstTransaction...steps.upperBound {
                let record: TransactionRecord
                do {
                    record = try reader.apply(step, to: &state, decodingValuesOf: [])
                } catch {
                    throw InspectorError(error)
                }
                if let declared = record.declare, !declared.isEmpty {
                    for atom in declared { declarations[atom.id] = atom }
                    names = Naming(declarations: declarations)
                    selected = options.atom.map(names.matching)
                }
                if let selected {
                    // Changed (or, with `writes`, written), created or released.
                    let written = (record.values ?? []).filter { options.writes || $0.unchanged != true }
                    let touched = written.map(\.id) + (record.created ?? []) + (record.released ?? [])
                    guard touched.contains(where: selected.contains) else { continue }
                }
                entries.append(LogCommand.entry(of: record, names: names))
            }
        }
        if options.json {
            return JSONOutput.encode(entries)
        }
        var lines = options.header ? [options.style.bold("step      time  cause         changed (equal =, created +, released -)  at")] : []
        lines += entries.map { LogCommand.text(of: $0, style: options.style) }
        return lines.joined(separator: "\n")
    }
}
