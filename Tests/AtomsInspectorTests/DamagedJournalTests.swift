import Atoms
import AtomsInspector
import AtomsJournal
import Foundation
import Testing
import TestSupport

private struct DamageCountAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

private struct DamageLabelAtom: ValueAtom, Hashable {
    func value(context: Context) -> String { "count \(context.watch(DamageCountAtom()))" }
}

/// One journal, read one way: a line damaged in the middle of a journal is rejected by every
/// command that reads past it, with the same `file:line` and exit 65.
///
/// Only the recording runs on the main actor: the reading, most of the work, leaves it to the
/// tests that need it.
struct DamagedJournalTests {
    /// The damage done to one transaction line (a newline ends each).
    enum Damage: String, CaseIterable, Sendable {
        case valueNotJSON, timeNotANumber, unknownEntryKind, notUTF8, seqRepeated, seqSkipped, lineCutShort, emptyLine, locationUndeclared
        /// A subscription whose subscriber's location number no line declares (format 4.2).
        case subscriberLocationUndeclared
        // Kinds the journal-summary fuzz target found (docs/fuzz-findings-journal-summary.txt).
        case timeWithATrailingMinus, declarationWithoutLabel, labelNotUTF8, valueStringNotUTF8, valueStringWithAnUnknownEscape
        /// A value written, or an edge added, to atom 77, which no line declares (the first in
        /// the common shape that `log` lists from its bytes, the second with graph changes).
        case valueOfAnUndeclaredAtom, edgeToAnUndeclaredAtom

        /// The damages to a line's contents (the others break the sequence or the line itself).
        static let contents: [Damage] = [.valueNotJSON, .timeNotANumber, .unknownEntryKind, .notUTF8, .timeWithATrailingMinus, .declarationWithoutLabel, .labelNotUTF8, .valueStringNotUTF8, .valueStringWithAnUnknownEscape, .subscriberLocationUndeclared, .valueOfAnUndeclaredAtom, .edgeToAnUndeclaredAtom]

        func apply(to line: String, previous: String) -> [UInt8] {
            switch self {
            case .valueNotJSON: Array(line.replacingOccurrences(of: #""v","#, with: #""v",tru"#).utf8)
            case .timeNotANumber: Array(line.replacingOccurrences(of: #","set""#, with: #"x,"set""#).utf8)
            case .unknownEntryKind: Array(line.replacingOccurrences(of: #""v","#, with: #""x","#).utf8)
            case .notUTF8: Array(line.replacingOccurrences(of: #""set""#, with: #""s\#u{1}et""#).utf8).map { $0 == 1 ? 0xFF : $0 }
            case .seqRepeated: Array(previous.utf8)
            case .seqSkipped: Array(line.replacingOccurrences(of: "[\(line.dropFirst().prefix { $0.isNumber })", with: "[\(Int(line.dropFirst().prefix { $0.isNumber })! + 1)").utf8)
            case .lineCutShort: Array(line.prefix(line.count / 2).utf8)
            case .emptyLine: []
            case .timeWithATrailingMinus:
                // `[seq,t,…`: the time is the second element.
                Array(line.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false).enumerated()
                    .map { $0.offset == 1 ? "\($0.element)-" : String($0.element) }.joined(separator: ",").utf8)
            case .declarationWithoutLabel:
                Array((line.dropLast() + #",{"declare":[{"id":99,"type":"Damage.Atom"}]}]"#).utf8)
            case .labelNotUTF8:
                Array((line.dropLast() + #",{"declare":[{"id":99,"label":"\#u{1}","type":"Damage.Atom"}]}]"#).utf8).map { $0 == 1 ? 0xFF : $0 }
            case .valueStringNotUTF8:
                Array(line.replacingOccurrences(of: #"]]"#, with: #"],[98,"v","\#u{1}"]]"#).utf8).map { $0 == 1 ? 0xC3 : $0 }
            case .valueStringWithAnUnknownEscape:
                Array(line.replacingOccurrences(of: #"]]"#, with: #"],[98,"v","a\qb"]]"#).utf8)
            case .subscriberLocationUndeclared:
                Array((line.dropLast() + #",{"subsAdded":[{"atom":1,"loc":99}]}]"#).utf8)
            case .valueOfAnUndeclaredAtom:
                Array(line.replacingOccurrences(of: #"]]"#, with: #"],[77,"v",1]]"#).utf8)
            case .edgeToAnUndeclaredAtom:
                Array((line.dropLast() + #",{"edgesAdded":[{"from":1,"to":77}]}]"#).utf8)
            case .locationUndeclared:
                // The fifth element is the write site's location number.
                Array(line.split(separator: ",", maxSplits: 5, omittingEmptySubsequences: false).enumerated()
                    .map { $0.offset == 4 ? "99" : String($0.element) }.joined(separator: ",").utf8)
            }
        }
    }

    /// A recorded journal's lines (`increments` transactions after the first ones).
    @MainActor
    private func recordedLines(increments: Int = 100) throws -> [String] {
        let directory = try TemporaryDirectory()
        let path = directory.path("j.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, keyframeInterval: 16, program: "tests")
        recorder.attach(to: root.store)
        let context = root.viewContext(fileID: "Damage/Main.swift", line: 4)
        context.watch(DamageLabelAtom())
        for _ in 0..<increments { context[DamageCountAtom()] += 1 }
        try recorder.close()
        return try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// The lines with `damage` done to a `set` transaction in the middle (after a keyframe and
    /// before another), and that line's index.
    private func damagedLines(_ damage: Damage) async throws -> (lines: [[UInt8]], index: Int) {
        let lines = try await recordedLines()
        let index = try #require(lines.indices.first { $0 > lines.count / 2 && lines[$0].hasPrefix("[") && lines[$0].contains(#""set""#) && lines[$0].contains(#""v","#) })
        // The previous transaction's line (a timing line may sit between the two).
        let previous = try #require(lines[..<index].last { $0.hasPrefix("[") })
        let damaged = lines.enumerated().map { number, line in
            number == index ? damage.apply(to: line, previous: previous) : Array(line.utf8)
        }
        return (damaged, index)
    }

    @Test(arguments: Damage.allCases)
    func everyCommandRejectsTheSameLine(damage: Damage) async throws {
        let (lines, index) = try await damagedLines(damage)
        let directory = try TemporaryDirectory()
        let path = try directory.write("damaged.jsonl", Data(lines.flatMap { $0 + [0x0A] }))
        try expectEveryCommandRejects(path, line: index + 1, showing: false)
    }

    /// A run of steps written again, their timing lines (and keyframes) with them, as when a
    /// session's lines are copied twice: every command names the run's first line, where a
    /// step comes again, as reading in order does. The walks behind `find`, `export` and
    /// `compare` used to leave the step due to the reader, which finds it by binary search
    /// and checks the lines from a few kilobytes before it: a run longer than that (600
    /// steps) was passed by.
    @Test(arguments: [1, 3, 600])
    func aRunOfStepsWrittenAgainIsNamedAtItsFirstLine(steps: Int) async throws {
        let lines = try await recordedLines(increments: 2_000)
        let transactions = lines.indices.filter { lines[$0].hasPrefix("[") }
        // The run: the `steps` transactions before one past the middle, with the lines
        // between, written again where it stands.
        let position = try #require(transactions.indices.first { $0 >= steps && transactions[$0] > lines.count / 2 })
        let index = transactions[position]
        let run = lines[transactions[position - steps]..<index]
        let directory = try TemporaryDirectory()
        let written = Array(lines[..<index]) + run + Array(lines[index...])
        let path = try directory.write("repeated.jsonl", Data(written.joined(separator: "\n").utf8 + [0x0A]))
        try expectEveryCommandRejects(path, line: index + 1, showing: false)
    }

    /// A run of steps written again where `find`'s halves join (after the first half's last
    /// step, before the step the second half starts at by seeking): the search in halves
    /// names it as one pass does, in every mode, since the first half reads on to the step
    /// after its last, and a second half that starts elsewhere than that line (in the run's
    /// copy, when the run goes on past the middle) is searched again in one pass. (The second
    /// half's seeking checks the lines a few kilobytes before its first step: a run of 600
    /// steps is longer.)
    @Test(arguments: [(3, 0), (600, 0), (300, 300)])
    func findInHalvesNamesARunWrittenAgainWhereTheHalvesJoin(before: Int, after: Int) async throws {
        let lines = try await recordedLines(increments: 2_000)
        let directory = try TemporaryDirectory()
        let whole = try InspectedJournal(path: try directory.write("whole.jsonl", Data((lines.joined(separator: "\n") + "\n").utf8)))
        let (first, last) = (whole.reader.firstStep, whole.reader.lastStep)
        let middle = first + (last - first) / 2
        // The run: `before` steps up to the middle and `after` steps after it.
        let index = try #require(lines.firstIndex { $0.hasPrefix("[\(middle + 1 + after),") })
        let runStart = try #require(lines.firstIndex { $0.hasPrefix("[\(middle + 1 - before),") })
        let written = Array(lines[..<index]) + lines[runStart..<index] + Array(lines[index...])
        let journal = try InspectedJournal(path: try directory.write("repeated.jsonl", Data((written.joined(separator: "\n") + "\n").utf8)))
        for mode in FindCommand.Mode.allCases {
            for expression in ["DamageCountAtom == \(last + 500)", "DamageCountAtom >= 0"] {
                for halvesFrom in [1, Int.max] {
                    do throws(InspectorError) {
                        let found = try FindCommand.find(journal, where: expression, mode: mode, halvesFrom: halvesFrom)
                        // `.first` stops at a match before the run, as one pass does.
                        #expect(mode == .first && !found.steps.isEmpty, "\(mode), \(expression), halves from \(halvesFrom): read past the run")
                    } catch {
                        #expect(error.line == index + 1, "\(mode), \(expression), halves from \(halvesFrom): \(error)")
                    }
                }
            }
        }
    }

    /// A keyframe before the middle whose body is damaged, which one pass does not decode
    /// (it takes a keyframe's place only) and the second half starts from: the search in
    /// halves answers as one pass does.
    @Test func findInHalvesAnswersAsOnePassWhenTheKeyframeBeforeTheMiddleIsDamaged() async throws {
        var lines = try await recordedLines()
        let directory = try TemporaryDirectory()
        let whole = try InspectedJournal(path: try directory.write("whole.jsonl", Data((lines.joined(separator: "\n") + "\n").utf8)))
        let middle = whole.reader.firstStep + (whole.reader.lastStep - whole.reader.firstStep) / 2
        let keyframe = try #require(lines.lastIndex { line in
            line.contains(#""type":"keyframe""#) && Int(line.split(separator: #""seq":"#).last!.prefix { $0.isNumber })! <= middle
        })
        lines[keyframe] = lines[keyframe].replacingOccurrences(of: #""values":["#, with: #""values":[{"id":99,"v":1},"#)
        let journal = try InspectedJournal(path: try directory.write("keyframe.jsonl", Data((lines.joined(separator: "\n") + "\n").utf8)))
        #expect(throws: InspectorError.self, "the keyframe is damaged") { try journal.state(at: middle) }
        for mode in FindCommand.Mode.allCases {
            for expression in ["DamageCountAtom >= \(middle)", "DamageCountAtom == 1000"] {
                let halves = Result { () throws(InspectorError) in try FindCommand.find(journal, where: expression, mode: mode, halvesFrom: 1) }
                let onePass = Result { () throws(InspectorError) in try FindCommand.find(journal, where: expression, mode: mode, halvesFrom: .max) }
                #expect(halves == onePass, "\(mode), \(expression)")
            }
        }
    }

    /// The recorded journal's lines cut after step 2k, for a keyframe of step k (past step
    /// 20), with the end line naming step 2k: the middle `find` splits it at is that
    /// keyframe's step; `keyframe` is its line's index.
    private func recordedUpToTwiceAKeyframe() async throws -> (lines: [String], middle: Int, keyframe: Int) {
        let lines = try await recordedLines()
        func seq(ofKeyframe line: String) -> Int? {
            guard line.contains(#""type":"keyframe""#) else { return nil }
            return Int(line.split(separator: #""seq":"#).last!.prefix { $0.isNumber })
        }
        let middle = try #require(lines.compactMap(seq(ofKeyframe:)).first { $0 > 20 })
        let cut = try #require(lines.firstIndex { $0.hasPrefix("[\(2 * middle + 1),") })
        let kept = Array(lines[..<cut]) + [try #require(lines.last).replacing(/"seq":[0-9]+/, with: #""seq":\#(2 * middle)"#)]
        return (kept, middle, try #require(kept.firstIndex { seq(ofKeyframe: $0) == middle }))
    }

    /// The keyframe the second half starts from disagrees with the steps before it (a count
    /// that the transactions do not give, or write sites that the location lines do not;
    /// no reader checks a keyframe against them): the search in halves answers as one pass,
    /// which passes keyframes by, does.
    @Test(arguments: ["value", "locations", "declarations"])
    func findInHalvesAnswersAsOnePassWhenTheKeyframeAtTheMiddleDisagrees(on part: String) async throws {
        var (kept, middle, keyframe) = try await recordedUpToTwiceAKeyframe()
        let directory = try TemporaryDirectory()
        let consistent = try InspectedJournal(path: try directory.write("consistent.jsonl", Data((kept.joined(separator: "\n") + "\n").utf8)))
        #expect(consistent.reader.firstStep == 0 && consistent.reader.lastStep == 2 * middle)
        if part == "value" {
            // Its count (the one number written as a value) changed.
            kept[keyframe] = kept[keyframe].replacing(/"v":[0-9]+/, with: #""v":1000"#)
        } else if part == "locations" {
            // Every location it lists elsewhere.
            let parts = kept[keyframe].split(separator: #""locs":"#, maxSplits: 1)
            try #require(parts.count == 2)
            kept[keyframe] = parts[0] + #""locs":"# + parts[1].replacing(#""at":""#, with: #""at":"elsewhere/"#)
        } else {
            // The counter's label (the name a match gives it).
            kept[keyframe] = kept[keyframe].replacing(#""label":"DamageCountAtom""#, with: #""label":"Renamed""#)
        }
        // Named by its type, which the keyframe keeps.
        let type = try #require(kept[keyframe].firstMatch(of: /"type":"([^"]*DamageCountAtom)"/)).1
        let journal = try InspectedJournal(path: try directory.write("keyframe.jsonl", Data((kept.joined(separator: "\n") + "\n").utf8)))
        if part == "value" {
            #expect(try journal.state(at: middle) != (try consistent.state(at: middle)), "the keyframe disagrees")
        } else if part == "declarations" {
            #expect(try journal.state(at: middle).atoms(matching: "Renamed").count == 1, "the keyframe disagrees")
        } else {
            #expect(try journal.transaction(middle + 1).at?.hasPrefix("elsewhere/") == true, "a reader seeking takes the keyframe's")
            #expect(try consistent.transaction(middle + 1).at?.hasPrefix("elsewhere/") == false)
        }
        for mode in FindCommand.Mode.allCases {
            for count in 0...(2 * middle + 5) {
                let expression = "'\(type)' >= \(count)"
                let halves = try FindCommand.find(journal, where: expression, mode: mode, halvesFrom: 1)
                #expect(halves == (try FindCommand.find(journal, where: expression, mode: mode, halvesFrom: .max)), "\(mode), \(expression)")
            }
        }
    }

    /// The keyframe the second half starts from lists a location that no line declares, and
    /// a step after it uses it: `find` in halves names that step's line, as one pass, `stats`
    /// and `log` do (the second half, starting at the keyframe, knew the location).
    @Test func findInHalvesNamesAStepAtALocationOnlyTheKeyframeAtTheMiddleLists() async throws {
        var (kept, middle, keyframe) = try await recordedUpToTwiceAKeyframe()
        kept[keyframe] = kept[keyframe].replacing(#""locs":["#, with: #""locs":[{"id":999,"at":"ghost.swift:1"},"#)
        let step = try #require(kept.firstIndex { $0.hasPrefix("[\(middle + 2),") })
        kept[step] = kept[step].replacing(/^(\[[0-9]+,[^,]+,"[^"]*",[0-9]+,)[0-9]+/) { "\($0.1)999" }
        let directory = try TemporaryDirectory()
        let path = try directory.write("ghost.jsonl", Data((kept.joined(separator: "\n") + "\n").utf8))
        func line(_ halvesFrom: Int) -> Int? {
            do throws(InspectorError) {
                _ = try FindCommand.find(InspectedJournal(path: path), where: "DamageCountAtom == -1", mode: .all, halvesFrom: halvesFrom)
                return nil
            } catch {
                return error.line
            }
        }
        #expect(line(.max) == step + 1)
        #expect(line(1) == step + 1)
        #expect(throws: JournalError.self) { try JournalReader(path: path).summary() }
    }

    /// What a read finds does not depend on what was read before: a state that a fresh
    /// reader reads from the last keyframe (the damaged lines before it are not read) reads
    /// alike after a search met a damaged line before them, and so a second search answers
    /// as the first. (The reader took in the location lines from where it stood, and failed
    /// on the damaged lines between: the fuzz target found `find` in halves and in one pass
    /// answering differently, one after the other on one journal.)
    @Test func aReadFindsTheSameAfterASearchMetADamagedLine() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/regressions/journal-summary/locations-read-ahead-past-damage-5f07335ad4cd9095.jsonl").path
        let journal = try InspectedJournal(path: path)
        let last = journal.reader.lastStep
        let fresh = try journal.state(at: last, decodingValuesOf: [])
        func search() -> InspectorError? {
            do throws(InspectorError) {
                _ = try FindCommand.find(journal, where: "FilteredTodosAtom != 0")
                return nil
            } catch {
                return error
            }
        }
        let first = try #require(search())
        #expect(first.line == 18, "\(first)")
        #expect(try journal.state(at: last, decodingValuesOf: []) == fresh)
        #expect(search() == first)
    }

    /// A damaged journal declares a location number again with other text: each step reads
    /// the declaration in force at its line, as reading in order does, whatever the reader
    /// read before (it kept the locations it read past the last transaction, and answered
    /// with the later one: `find` in halves and in one pass named two places for one step).
    @Test func aLocationDeclaredAgainIsReadAsInForceAtEachStep() throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/regressions/journal-summary/find-halves-differ-f45a6e8a6f517a7e.jsonl").path
        // Its first steps, up to the location declared again, then a step that uses it.
        var lines = try String(contentsOfFile: source, encoding: .utf8).split(separator: "\n").prefix(10).map(String.init)
        lines += [#"{"type":"loc","id":3,"at":"sample_todo/main.swift:33"}"#, #"[6,5.802,"set",5,3,[[5,"v",3]]]"#]
        let directory = try TemporaryDirectory()
        let path = try directory.write("declared-again.jsonl", Data((lines.joined(separator: "\n") + "\n").utf8))
        func places(_ journal: InspectedJournal, _ steps: [Int]) throws -> [String?] {
            try steps.map { try journal.transaction($0, decodingValuesOf: []).at }
        }
        #expect(try places(InspectedJournal(path: path), [5]) == ["sample_todo/main.swift:32"])
        #expect(try places(InspectedJournal(path: path), [6]) == ["sample_todo/main.swift:33"])
        // The last step read first, then the step before it, then both again.
        let again = try places(InspectedJournal(path: path), [6, 5, 6, 5])
        #expect(again == ["sample_todo/main.swift:33", "sample_todo/main.swift:32", "sample_todo/main.swift:33", "sample_todo/main.swift:32"])
        // Declared again after the last transaction: reading it reads on past the line.
        let after = try directory.write("declared-again-after.jsonl", Data((lines.dropLast().joined(separator: "\n") + "\n").utf8))
        #expect(try places(InspectedJournal(path: after), [5, 5, 4, 5]) == ["sample_todo/main.swift:32", "sample_todo/main.swift:32", "sample_todo/main(swift:11", "sample_todo/main.swift:32"])
        let journal = try InspectedJournal(path: path)
        let listed = try LogCommand.entries(journal, options: .init()).suffix(2).map(\.at)
        #expect(listed == ["sample_todo/main.swift:32", "sample_todo/main.swift:33"])
        let halves = try FindCommand.find(journal, where: "NextTodoIDAtom != 0", mode: .all, halvesFrom: 1)
        let onePass = try FindCommand.find(journal, where: "NextTodoIDAtom != 0", mode: .all, halvesFrom: .max)
        #expect(halves == onePass)
        #expect(halves.steps.suffix(2).map(\.at) == listed)
    }

    /// A reader answers for a step as a fresh reader does, whatever it read before: the same
    /// place, or the same error. On journals with a damaged location line (between two
    /// keyframes, or before the first transaction) and with a location declared again (each
    /// keyframe listing the locations in force there).
    /// (A read that failed part way left the reader believing it knew the locations up to
    /// a later line, with some of them gone: a step after it then named a location "no
    /// earlier line declares".)
    @Test(arguments: [
        [#"{"type":"loc","id":1,"at":"a.swift:1"}"#, "T1", "T2", "K2", "T3", #"{"type":"loc","id":3}"#, "T4", "K4", #"{"type":"loc","id":2,"at":"b.swift:2"}"#, "T5:2", "T6:2"],
        [#"{"type":"loc","id":1,"at":"a.swift:1"}"#, #"{"type":"loc","id":3}"#, "T1", "T2", "K2", "T3", "T4", "K4", #"{"type":"loc","id":2,"at":"b.swift:2"}"#, "T5:2", "T6:2"],
        [#"{"type":"loc","id":1,"at":"a.swift:1"}"#, "T1", "T2", "K2", #"{"type":"loc","id":1,"at":"c.swift:3"}"#, "T3", "T4", "K4", "T5", "T6"],
        [#"{"type":"loc","id":1,"at":"a.swift:1"}"#, "T1", "T2", "K2", "T3", "T4", #"{"type":"loc","id":1,"at":"c.swift:3"}"#],
    ])
    func aStepReadsAlikeWhateverWasReadBefore(body: [String]) throws {
        let declare = #"{"declare":[{"id":1,"label":"CountAtom","type":"app.CountAtom"}],"created":[1]}"#
        let atom = #"{"id":1,"label":"CountAtom","type":"app.CountAtom"}"#
        var lines = [#"{"format":"atoms-journal","version":4,"minor":0,"created":"2026-11-29T01:00:00Z","keyframeInterval":2,"program":"t"}"#,
                     #"{"type":"keyframe","seq":0,"atoms":[],"values":[],"edges":[],"subs":[],"locs":[]}"#]
        var place = "a.swift:1"
        for line in body {
            if line.hasPrefix(#"{"type":"loc","id":1,"#) {
                place = String(line.split(separator: "\"").dropLast().last!)
            }
            if line.hasPrefix("T") {
                let parts = line.dropFirst().split(separator: ":")
                let step = Int(parts[0])!
                let location = parts.count > 1 ? String(parts[1]) : "1"
                lines.append("[\(step),\(step).0,\"set\",\(step == 1 ? 0 : 1),\(location),[[1,\"v\",\(step)]]" + (step == 1 ? ",\(declare)]" : "]"))
            } else if line.hasPrefix("K") {
                let step = Int(line.dropFirst())!
                lines.append(#"{"type":"keyframe","seq":"# + "\(step)" + #","atoms":["# + atom + #"],"values":[{"id":1,"v":"# + "\(step)" + #"}],"edges":[],"subs":[],"locs":[{"id":1,"at":""# + place + #""}]}"#)
            } else {
                lines.append(line)
            }
        }
        let directory = try TemporaryDirectory()
        let path = try directory.write("journal.jsonl", Data((lines.joined(separator: "\n") + "\n").utf8))
        func read(_ reader: JournalReader, _ step: Int) -> String {
            do {
                return try reader.transaction(step).at ?? "nowhere"
            } catch {
                return "error: \(error)"
            }
        }
        let opened = try JournalReader(path: path)
        let steps = Array((opened.firstStep + 1)...opened.lastStep)
        let fresh = try steps.map { read(try JournalReader(path: path), $0) }
        #expect(fresh.contains { !$0.hasPrefix("error") }, "\(fresh)")
        // After every two reads (a read that fails part way, then one that succeeds).
        for first in steps {
            for second in steps {
                for step in steps {
                    let reader = try JournalReader(path: path)
                    _ = read(reader, first)
                    _ = read(reader, second)
                    #expect(read(reader, step) == fresh[step - steps[0]], "step \(step) after \(first), \(second)")
                }
            }
        }
        // Every step in order, then back to front, on one reader.
        let reader = try JournalReader(path: path)
        for step in steps + steps.reversed() {
            #expect(read(reader, step) == fresh[step - steps[0]], "step \(step) in a walk")
        }
    }

    /// The last transaction writes an atom no line declares, and a damaged line follows the
    /// end: reading in order applies the last transaction before it reads on, so every
    /// command names the transaction, not the line after it, and words it alike.
    @Test(arguments: [Damage.valueOfAnUndeclaredAtom, .edgeToAnUndeclaredAtom])
    func anUndeclaredAtomInTheLastTransactionIsNamedBeforeDamageAfterIt(damage: Damage) async throws {
        var lines = try await recordedLines().map { Array($0.utf8) }
        let last = try #require(lines.indices.last { lines[$0].first == UInt8(ascii: "[") })
        let previous = try #require(lines[..<last].last { $0.first == UInt8(ascii: "[") })
        let (transaction, end) = (lines[last], try #require(lines.last))
        lines[last] = damage.apply(to: String(decoding: transaction, as: UTF8.self), previous: String(decoding: previous, as: UTF8.self))
        // After the end line, a line cut short, then the last transaction and the end line
        // again, as when a second copy runs on: opening reads the file's last lines, and
        // finds the last step there; reading in order meets the damaged lines first.
        lines += [Array(#"{"type":"keyframe","#.utf8), transaction, end]
        let directory = try TemporaryDirectory()
        let path = try directory.write("damaged.jsonl", Data(lines.flatMap { $0 + [0x0A] }))
        try expectEveryCommandRejects(path, line: last + 1, showing: true)
        let journal = try InspectedJournal(path: path)
        do throws(InspectorError) {
            _ = try LogCommand.run(journal, options: .init())
            Issue.record("log read past the damaged line")
        } catch {
            #expect(error.description.contains("refers to atom 77, which was never declared"), "\(error)")
        }
    }

    /// An undeclared subscriber location is worded alike by every command: the location a
    /// write site would have been named by.
    @Test func anUndeclaredSubscriberLocationReadsTheSameInEveryCommand() async throws {
        let (lines, index) = try await damagedLines(.subscriberLocationUndeclared)
        let directory = try TemporaryDirectory()
        let path = try directory.write("damaged.jsonl", Data(lines.flatMap { $0 + [0x0A] }))
        let journal = try InspectedJournal(path: path)
        func message(_ body: () throws(InspectorError) -> Void) -> String? {
            do throws(InspectorError) { try body(); return nil } catch { return error.description }
        }
        let expected = "atoms-inspect: \(path):\(index + 1): error: "
        let messages = [
            message { () throws(InspectorError) in _ = try StatsCommand.run(journal) },
            message { () throws(InspectorError) in _ = try LogCommand.run(journal, options: .init()) },
            message { () throws(InspectorError) in _ = try ReportCommand.run(journal, graphviz: nil) },
        ]
        for text in messages {
            #expect(text?.hasPrefix(expected) == true, "\(text ?? "no error")")
            #expect(text?.contains("refers to location 99, which no earlier line declares") == true, "\(text ?? "no error")")
            #expect(text == messages[0], "one wording")
        }
    }

    /// A damaged line, then a second recording pasted after it (its header lost, as when two
    /// files run together): opening finds the last step among the second recording's few
    /// transactions, yet every command that reads the journal names the damaged line, as
    /// `stats`' scan of every line does.
    ///
    /// (Not a reference to an undeclared atom: what opening finds after the last step is read
    /// as the lines after a transaction are, for their envelopes, and applied to no state.)
    @Test(arguments: Damage.contents.filter { $0 != .valueOfAnUndeclaredAtom && $0 != .edgeToAnUndeclaredAtom })
    func everyCommandRejectsTheDamagedLineBeforeASecondJournal(damage: Damage) async throws {
        let (lines, index) = try await damagedLines(damage)
        let second = try await recordedLines(increments: 2).dropFirst().map { Array($0.utf8) }
        let directory = try TemporaryDirectory()
        let path = try directory.write("pasted.jsonl", Data((lines[...index] + second).flatMap { $0 + [0x0A] }))
        #expect(try JournalReader(path: path).lastStep < index / 2, "the last step is the second recording's")
        try expectEveryCommandRejects(path, line: index + 1, showing: true)
    }

    /// Two or three lines damaged in one journal, the last of them in the last keyframe (which
    /// commands that seek read first): every command names the first damaged line of the file,
    /// the one reading in order meets first.
    @Test(arguments: [2, 3])
    func everyCommandNamesTheFirstOfSeveralDamagedLines(count: Int) async throws {
        let lines = try await recordedLines()
        let transactions = lines.indices.filter { lines[$0].hasPrefix("[") && lines[$0].contains(#""set""#) && lines[$0].contains(#""v","#) }
        let lastKeyframe = try #require(lines.indices.last { lines[$0].hasPrefix(#"{"type":"keyframe""#) })
        #expect(lastKeyframe > lines.count / 2)
        // The first damage in the first quarter, a second one in the middle, the last in the
        // last keyframe: an escape no JSON has.
        var damaged: [Int: [UInt8]] = [:]
        let first = try #require(transactions.first { $0 > lines.count / 8 })
        damaged[first] = Damage.labelNotUTF8.apply(to: lines[first], previous: "")
        if count == 3 {
            let middle = try #require(transactions.first { $0 > lines.count / 3 && $0 < lastKeyframe })
            damaged[middle] = Damage.valueNotJSON.apply(to: lines[middle], previous: "")
        }
        damaged[lastKeyframe] = Array(lines[lastKeyframe].replacingOccurrences(of: #""label":""#, with: #""label":"\q"#).utf8)
        #expect(damaged.count == count)
        let directory = try TemporaryDirectory()
        let path = try directory.write("damaged.jsonl", Data(lines.indices.flatMap { (damaged[$0] ?? Array(lines[$0].utf8)) + [0x0A] }))
        try expectEveryCommandRejects(path, line: first + 1, showing: false)
    }

    /// `profile` reads the transactions and their timing lines in one pass: a damaged
    /// transaction line before a damaged timing line is the one named, as every other command
    /// names it (read in two passes, timing lines first, the timing line was named).
    @Test func profileNamesADamagedTransactionBeforeADamagedTimingLine() async throws {
        let lines = try await recordedLines()
        let transactions = lines.indices.filter { lines[$0].hasPrefix("[") && lines[$0].contains(#""set""#) && lines[$0].contains(#""v","#) }
        let first = try #require(transactions.first { $0 > lines.count / 4 })
        let timing = try #require(lines.indices.first { $0 > lines.count / 2 && lines[$0].hasPrefix("\"") })
        var damaged = lines.map { Array($0.utf8) }
        damaged[first] = Damage.labelNotUTF8.apply(to: lines[first], previous: "")
        // A digit no packed number has.
        damaged[timing] = Array(("\"" + "\\" + lines[timing].dropFirst()).utf8)
        let directory = try TemporaryDirectory()
        let path = try directory.write("damaged.jsonl", Data(damaged.flatMap { $0 + [0x0A] }))
        try expectEveryCommandRejects(path, line: first + 1, showing: false)
        // The timing line alone is named by `profile`, which reads it.
        let timingOnly = try directory.write("timing.jsonl", Data(lines.indices.flatMap { ($0 == timing ? damaged[timing] : Array(lines[$0].utf8)) + [0x0A] }))
        let journal = try InspectedJournal(path: timingOnly)
        do {
            _ = try ProfileCommand.run(journal, options: .init())
            Issue.record("profile read past the damaged timing line")
        } catch {
            #expect(error.line == timing + 1, "\(error)")
            #expect(error.status == .dataError)
        }
    }

    /// The journals the summary's fuzz target kept: each gets one verdict from the commands
    /// that read every line: the same `file:line`, or none.
    @Test func everyRegressionOfTheSummaryGetsOneVerdict() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/regressions/journal-summary")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jsonl") }.sorted()
        #expect(files.count >= 175)
        var damaged = 0
        var keyframeVerdicts = 0
        var valueVerdicts = 0
        for file in files {
            let path = folder.appendingPathComponent(file).path
            guard let journal = try? InspectedJournal(path: path) else { continue }
            let text = try String(decoding: Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
            // An atom the journal declares, for `find` and `blame`.
            let label = text.firstMatch(of: /"label":"([A-Za-z]+)"/).map { String($0.1) } ?? "CounterAtom"
            func line(_ body: () throws(InspectorError) -> Void) -> Int? {
                do throws(InspectorError) { try body(); return nil } catch { return error.line ?? -1 }
            }
            let lines: [String: Int?] = [
                "stats": line { () throws(InspectorError) in _ = try StatsCommand.run(journal) },
                "log": line { () throws(InspectorError) in _ = try LogCommand.run(journal, options: .init()) },
                "find": line { () throws(InspectorError) in _ = try FindCommand.run(journal, where: "\(label) == 123456789") },
                "blame --history": line { () throws(InspectorError) in _ = try BlameCommand.run(journal, atom: label, history: true) },
            ]
            let named = Set(lines.values.compactMap { $0 })
            if !named.isEmpty { damaged += 1 }
            // Each command names the first damaged line it had to read. `log` reads no keyframe
            // (it lists transactions); the others also need the state at the last step, from the
            // last keyframe: a damaged keyframe before the line `log` names is theirs alone.
            let lineTexts = text.split(separator: "\n", omittingEmptySubsequences: false)
            let others = Set(lines.filter { $0.key != "log" }.values.compactMap { $0 })
            if named.count == 2, others.count == 1, let other = others.first, let logLine = lines["log"] ?? nil, other < logLine,
                lineTexts[other - 1].hasPrefix(#"{"type":"keyframe""#)
            {
                keyframeVerdicts += 1
                continue
            }
            // `find` applies its atom's values; the others read envelopes (`blame --history`
            // asks only whether a step wrote it): a delta that does not fit the value (in
            // valid JSON) before the line the others name is damage only `find` can see.
            let applying = Set(["find"].compactMap { lines[$0] ?? nil })
            let envelopes = Set(["stats", "log", "blame --history"].compactMap { lines[$0] ?? nil })
            if named.count == 2, applying.count == 1, envelopes.count == 1, let value = applying.first, let envelope = envelopes.first,
                value < envelope, lineTexts[value - 1].contains(#","d",["#)
            {
                valueVerdicts += 1
                continue
            }
            #expect(named.count <= 1, "\(file): \(lines.sorted { $0.key < $1.key })")
        }
        #expect(damaged >= 40, "most regressions are damaged journals")
        #expect(keyframeVerdicts <= 2, "the damaged keyframes of subscription-location-0-5fb8… and -6510…")
        #expect(valueVerdicts <= 5, "the deltas that do not fit of locations-read-ahead-past-damage-… and -across-a-keyframe-…")
    }

    /// Every command that reads the journal at `path` past line `line` fails there, exit 65;
    /// `showing`: `show` at the last step too (which reads the lines after the last keyframe,
    /// and, when the last step's line is the damaged line's neighbour, every line after it).
    private func expectEveryCommandRejects(_ path: String, line expectedLine: Int, showing: Bool) throws {
        let journal = try InspectedJournal(path: path)
        let step = journal.reader.lastStep
        func outcome(_ body: () throws(InspectorError) -> Void) -> InspectorError? {
            do throws(InspectorError) { try body(); return nil } catch { return error }
        }
        var errors: [String: InspectorError?] = [
            "stats": outcome { () throws(InspectorError) in _ = try StatsCommand.run(journal) },
            "log": outcome { () throws(InspectorError) in _ = try LogCommand.run(journal, options: .init()) },
            "find": outcome { () throws(InspectorError) in _ = try FindCommand.run(journal, where: "DamageCountAtom == \(step + 500)") },
            "blame --history": outcome { () throws(InspectorError) in _ = try BlameCommand.run(journal, atom: "DamageCountAtom", history: true) },
            "report": outcome { () throws(InspectorError) in _ = try ReportCommand.run(journal, graphviz: nil) },
            "compare": outcome { () throws(InspectorError) in _ = try CompareCommand.run(journal, journal) },
            "profile": outcome { () throws(InspectorError) in _ = try ProfileCommand.run(journal, options: .init()) },
        ]
        if showing {
            errors["show"] = outcome { () throws(InspectorError) in _ = try ShowCommand.run(journal) }
        }
        // `export` tells a journal it cannot read, and goes on with the others.
        let output = try TemporaryDirectory()
        var exportError: InspectorError?
        _ = try? ExportCommand.run([path], to: output.path("tables"), options: .init(), failure: { exportError = $0 })
        errors["export"] = exportError
        for (command, error) in errors.sorted(by: { $0.key < $1.key }) {
            guard let error else {
                Issue.record("\(command) read past the damaged line \(expectedLine)")
                continue
            }
            #expect(error.status == .dataError, "\(command): \(error)")
            #expect(error.path == path, "\(command): \(error)")
            #expect(error.line == expectedLine, "\(command): \(error)")
        }
        // The scan of `stats`, whole and in two halves on two threads, finds it at the same line.
        for threshold in [8 << 20, 1] {
            do {
                _ = try journal.reader.summary(splittingAbove: threshold)
                Issue.record("summary read past the damaged line")
            } catch {
                #expect(error.line == expectedLine)
            }
        }
    }
}
