import Atoms
import Foundation
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

@MainActor
struct JournalReaderErrorTests {
    /// The lines of a small recorded session: header, keyframe, the location lines of the watch
    /// and of its subscriber (the context), transaction 1 (the watch), the write site's
    /// location line, then transactions 2…n.
    private func recordedLines(_ updates: Int = 5) -> [String] {
        let root = AtomRoot()
        let sink = InMemoryJournalSink()
        let recorder = JournalRecorder(sink: sink)
        // The damage below is placed by line number: a journal of transaction lines only.
        recorder.recordsTiming = false
        recorder.attach(to: root.store)
        let context = root.viewContext()
        context.watch(CountAtom())
        for _ in 0..<updates {
            context[CountAtom()] += 1
        }
        #expect((try? recorder.flush()) != nil, "the recorder stored every line")
        return sink.lines
    }

    private func open(_ text: String) throws -> (JournalReader, TemporaryDirectory) {
        let directory = try TemporaryDirectory()
        return (try JournalReader(path: try directory.write("j.jsonl", text)), directory)
    }

    /// The error opening the journal, or reading it whole (a format 4 journal opens without
    /// reading its middle, so damage there is found when it is read).
    private func error(opening text: String) throws -> JournalError? {
        do {
            let (journal, _) = try open(text)
            // The pass on two threads meeting in the middle finds the same damage.
            do {
                _ = try journal.summary(splittingAbove: 64)
                Issue.record("the split scan found nothing")
            } catch {}
            _ = try journal.summary()
            _ = try journal.state(at: journal.lastStep)
            return nil
        } catch let error as JournalError {
            return error
        }
    }

    /// A transaction that writes an atom no earlier line declared is damage for the summary's
    /// scan, whole and in halves, as for applying it to a state: an atom declared in the first
    /// half may be written in the second; one declared only after its write may not.
    @Test func theSummaryChecksAtomsAcrossItsHalves() throws {
        let lines = recordedLines(40)
        let writes = lines.indices.filter { lines[$0].hasPrefix("[") && lines[$0].contains(#"[[1,"v","#) }
        let (early, late, later) = (writes[2], writes[writes.count - 6], writes[writes.count - 3])
        func declaring(_ line: String) -> String {
            String(line.dropLast()) + #",{"declare":[{"id":9,"label":"NineAtom","type":"Tests.NineAtom"}]}]"#
        }
        func writingNine(_ line: String) -> String {
            line.replacingOccurrences(of: #"[[1,"v","#, with: #"[[9,"v","#)
        }
        func summaries(_ lines: [String]) throws -> [Result<JournalSummary, JournalError>] {
            let (journal, _) = try open(lines.joined(separator: "\n") + "\n")
            return [8 << 20, 64].map { threshold in Result { () throws(JournalError) in try journal.summary(splittingAbove: threshold) } }
        }
        // Declared early, written late: both scans count it.
        var declaredFirst = lines
        declaredFirst[early] = declaring(lines[early])
        declaredFirst[late] = writingNine(lines[late])
        for result in try summaries(declaredFirst) {
            #expect((try? result.get())?.valueWrites[9] == 1, "\(result)")
        }
        // Written late, declared later: the write is named, in the words applying it uses.
        var declaredAfter = lines
        declaredAfter[late] = writingNine(lines[late])
        declaredAfter[later] = declaring(lines[later])
        for result in try summaries(declaredAfter) {
            guard case .failure(.malformedLine(_, let line, let reason)) = result else {
                Issue.record("expected the write of atom 9 to be named, got \(result)")
                continue
            }
            #expect(line == late + 1)
            #expect(reason == "refers to atom 9, which was never declared")
        }
        let (journal, _) = try open(declaredAfter.joined(separator: "\n") + "\n")
        #expect(throws: JournalError.malformedLine(path: journal.path, line: late + 1, reason: "refers to atom 9, which was never declared")) {
            try journal.state(at: journal.lastStep)
        }
    }

    /// Applying a transaction checks every atom it refers to before it changes anything, in
    /// the one order the readers without a state check them: a line that both says an atom
    /// with no value is unchanged and adds an edge to an undeclared atom gets the verdict the
    /// summary and `log` give it (the undeclared atom), and the state is left as it was.
    @Test func applyingChecksEveryAtomReferenceFirstInTheSummarysOrder() throws {
        var state = JournalState(keyframe: try JSONDecoder().decode(KeyframeRecord.self, from: Data(
            #"{"type":"keyframe","seq":0,"atoms":[{"id":1,"label":"A","type":"m.A"},{"id":2,"label":"B","type":"m.B"}],"values":[{"id":2,"v":5}],"edges":[],"subs":[]}"#.utf8
        )))
        let record = try JSONDecoder().decode(TransactionRecord.self, from: Data(
            #"{"type":"transaction","seq":1,"t":0,"cause":"set","declare":[{"id":3,"label":"C","type":"m.C"}],"values":[{"id":2,"v":6},{"id":1,"unchanged":true},{"id":3,"v":1}],"edgesAdded":[{"from":1,"to":9},{"from":8,"to":1}]}"#.utf8
        ))
        #expect(record.atomReferences == [2, 1, 3, 1, 9, 8, 1])
        var declared = DeclaredAtoms([1, 2])
        #expect(declared.take(record) == 9)
        let before = state
        #expect(throws: JournalState.StateError(message: "refers to atom 9, which was never declared")) {
            try state.apply(record)
        }
        #expect(state.values[2]?.v == before.values[2]?.v)
        #expect(state.liveIDs == before.liveIDs)
        #expect(state.declarations == before.declarations)
        #expect(state.step == before.step)
        // The atom the transaction declares may be referred to by it.
        var applied = before
        let declaring = try JSONDecoder().decode(TransactionRecord.self, from: Data(
            #"{"type":"transaction","seq":1,"t":0,"cause":"set","declare":[{"id":3,"label":"C","type":"m.C"}],"values":[{"id":3,"v":1}],"edgesAdded":[{"from":2,"to":3}]}"#.utf8
        ))
        try applied.apply(declaring)
        #expect(applied.declarations[3]?.label == "C")
        #expect(applied.edges.contains(EdgeEntry(from: 2, to: 3)))
    }

    /// A later keyframe that repeats a member (its `seq`, its `values`) is damage for a reader
    /// that starts there: the step in its prefix and the one read whole would disagree (the
    /// state at step 512 said "step 9" for `"seq":512,"seq":9`).
    @Test(arguments: [#""seq":9,"atoms""#, #""values":[],"atoms""#])
    func aKeyframeThatRepeatsAMemberIsDamage(repeated: String) throws {
        let root = AtomRoot()
        let sink = InMemoryJournalSink()
        let recorder = JournalRecorder(sink: sink, keyframeInterval: 4)
        recorder.recordsTiming = false
        recorder.attach(to: root.store)
        let context = root.viewContext()
        context.watch(CountAtom())
        for _ in 0..<40 { context[CountAtom()] += 1 }
        #expect((try? recorder.flush()) != nil)
        var lines = sink.lines
        let keyframes = lines.indices.filter { lines[$0].hasPrefix(#"{"type":"keyframe""#) }
        let keyframe = try #require(keyframes.dropFirst().first)
        let seq = try #require(lines[keyframe].firstMatch(of: /"seq":(\d+)/).flatMap { Int($0.1) })
        lines[keyframe] = lines[keyframe].replacingOccurrences(of: #""atoms""#, with: repeated)
        let (journal, _) = try open(lines.joined(separator: "\n") + "\n")
        do {
            let state = try journal.state(at: seq)
            Issue.record("read a state at step \(state.step) from the damaged keyframe")
        } catch {
            guard case .malformedLine(_, let line, let reason) = error else {
                Issue.record("expected a malformed line, got \(error)")
                return
            }
            #expect(line == keyframe + 1)
            #expect(reason.contains("appears twice"), "\(reason)")
        }
    }

    @Test func missingFileAndEmptyFile() throws {
        #expect(throws: JournalError.cannotRead(path: "/nonexistent/j.jsonl", reason: "no such file")) {
            try JournalReader(path: "/nonexistent/j.jsonl")
        }
        let directory = try TemporaryDirectory()
        let empty = try directory.write("empty.jsonl", "")
        #expect(throws: JournalError.empty(path: empty)) { try JournalReader(path: empty) }
    }

    @Test func tornLastLineIsIgnoredWithAWarning() throws {
        let lines = recordedLines()
        let text = lines.dropLast().joined(separator: "\n") + "\n" + lines.last!.prefix(12)
        let (journal, _) = try open(text)
        #expect(journal.lastStep == 5)
        #expect(journal.warnings.count == 1)
        #expect(journal.warnings.first?.line == lines.count)
        #expect(journal.warnings.first?.description.contains("incomplete") == true)
    }

    @Test func garbageInTheMiddleNamesTheLine() throws {
        var lines = recordedLines()
        lines.insert("this is not json", at: 3)
        let error = try error(opening: lines.joined(separator: "\n") + "\n")
        guard case .malformedLine(_, let line, _) = error else {
            Issue.record("expected a malformed line, got \(String(describing: error))")
            return
        }
        #expect(line == 4)
        #expect(error!.description.contains("j.jsonl:4: malformed journal line"))
    }

    @Test func corruptRecordAfterAValidPrefixIsReportedWhenRead() throws {
        var lines = recordedLines()
        // Still shaped like a transaction line (`[2,` … `]`), so indexing accepts it.
        let second = try #require(lines.firstIndex { $0.hasPrefix("[2,") })
        #expect(lines[second - 1].hasPrefix(#"{"type":"loc""#), "after the write site's location line")
        lines[second] = String(lines[second].prefix(8)) + "}}}broken]"
        let (journal, _) = try open(lines.joined(separator: "\n") + "\n")
        #expect(throws: JournalError.self) { try journal.state(at: journal.lastStep) }
        do {
            _ = try journal.state(at: journal.lastStep)
        } catch {
            #expect(error.description.contains("j.jsonl:\(second + 1):"))
        }
    }

    @Test func wrongVersionAndNotAJournal() throws {
        var lines = recordedLines()
        lines[0] = lines[0].replacingOccurrences(of: "\"version\":\(JournalFormat.majorVersion)", with: "\"version\":99")
        let versionError = try error(opening: lines.joined(separator: "\n"))
        guard case .unsupportedVersion(_, 99) = versionError else {
            Issue.record("expected an unsupported version, got \(String(describing: versionError))")
            return
        }
        #expect(versionError!.description.contains(":1: journal format version 99 is not supported"))
        #expect(try error(opening: "{\"hello\":1}\n").map { if case .notAJournal = $0 { true } else { false } } == true)
        #expect(try error(opening: "\u{1}\u{2}binary").map { if case .notAJournal = $0 { true } else { false } } == true)
    }

    @Test func nonUTF8LineIsReported() throws {
        var data = Data(recordedLines().prefix(2).joined(separator: "\n").utf8)
        data.append(contentsOf: Array("\n[1,0,\"set\",0,0,[{\"id\":1,\"dump\":\"".utf8) + [0xFF, 0xFE] + Array("\"}]]\n".utf8))
        data.append(contentsOf: Array("[2,0,\"set\",0,0,[]]\n".utf8))
        let directory = try TemporaryDirectory()
        let journal = try JournalReader(path: try directory.write("j.jsonl", data))
        do {
            _ = try journal.transaction(1)
            Issue.record("expected an error")
        } catch {
            #expect(error == .notUTF8(path: journal.path, line: 3))
        }
    }

    @Test func duplicatedAndMissingSequenceNumbers() throws {
        let lines = recordedLines()
        let second = try #require(lines.firstIndex { $0.hasPrefix("[2,") })
        var duplicated = lines
        duplicated.insert(lines[second], at: second + 1)
        guard case .duplicateSequence(_, second + 2, 2) = try error(opening: duplicated.joined(separator: "\n") + "\n") else {
            Issue.record("expected a duplicate")
            return
        }
        var missing = lines
        missing.remove(at: second)
        guard case .missingSequence(_, second + 1, 2, 3) = try error(opening: missing.joined(separator: "\n") + "\n") else {
            Issue.record("expected a gap")
            return
        }
    }

    @Test func stepOutOfRange() throws {
        let (journal, _) = try open(recordedLines().joined(separator: "\n") + "\n")
        #expect(throws: JournalError.stepOutOfRange(path: journal.path, step: 99, first: 0, last: 6)) {
            try journal.state(at: 99)
        }
    }

    @Test func fiftyMegabyteValueRoundTrips() throws {
        let root = AtomRoot()
        let sink = InMemoryJournalSink()
        let recorder = JournalRecorder(sink: sink)
        recorder.attach(to: root.store)
        let context = root.viewContext()
        context.watch(SecretAtom())
        context.watch(NotesAtom())
        let big = String(repeating: "x", count: 50 * 1024 * 1024)
        context[NotesAtom()] = [Note(id: 1, text: big, done: false)]
        try recorder.flush()
        let (journal, _) = try open(sink.text)
        let state = try journal.state(at: journal.lastStep)
        let notes = try #require(state.liveAtoms.first { $0.label == "NotesAtom" })
        guard case .array(let elements) = state.values[notes.id]?.v, case .object(let note) = elements.first else {
            Issue.record("expected the notes array")
            return
        }
        #expect(note["text"] == .string(big))
    }

    @Test func redactedValuesNeverReachTheFileWhichIsPrivate() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("secret.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, redacting: [CountAtom.self])
        recorder.attach(to: root.store)
        let context = root.viewContext()
        context.watch(SecretAtom())
        context[SecretAtom()] = "correct horse battery staple"
        context.watch(CountAtom())
        context[CountAtom()] = 424242
        try recorder.close()

        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("hunter2"))
        #expect(!text.contains("correct horse"))
        // Not in the times either way: their digits (a timing line's nanoseconds) may hold it.
        #expect(!JournalLines.withoutTimes(text).contains("424242"))
        let state = try JournalReader(path: path).state(at: 4)
        #expect(state.values.values.allSatisfy { $0.redacted == true })
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }
}

