import Atoms
import AtomsJournal
import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

private struct LocatedCountAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

/// A prompt names the damaged line it stopped at, as the command line does: the step prompt
/// and the timeline say `<file>:<line>: error: …`, and the timeline shows it as an error.
@MainActor
struct StepErrorLocationTests {
    /// A journal of 40 increments whose 30th transaction line has a value that is not JSON;
    /// returns its path and that line's number (1-based).
    private func damagedJournal(in directory: TemporaryDirectory) throws -> (path: String, line: Int) {
        let path = directory.path("damaged.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, keyframeInterval: 1_000, program: "tests")
        recorder.attach(to: root.store)
        let context = root.viewContext(fileID: "Located/Main.swift", line: 3)
        context.watch(LocatedCountAtom())
        for _ in 0..<40 { context[LocatedCountAtom()] += 1 }
        try recorder.close()
        var lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let transactions = lines.indices.filter { lines[$0].hasPrefix("[") && lines[$0].contains(#""v","#) }
        let index = transactions[30]
        lines[index] = lines[index].replacingOccurrences(of: #""v","#, with: #""v",tru"#)
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return (path, index + 1)
    }

    @Test func theStepPromptNamesTheDamagedLine() throws {
        let directory = try TemporaryDirectory()
        let (path, line) = try damagedJournal(in: directory)
        let session = try StepSession(journal: InspectedJournal(path: path))
        let output = session.handle("goto 39").output
        #expect(output.hasPrefix("\(path):\(line): error: "), "\(output)")
        // An error about no line keeps the short form.
        #expect(session.handle("goto 99999").output.hasPrefix("error: "))
    }

    @Test func theTimelineShowsTheDamagedLineAsAnError() throws {
        let directory = try TemporaryDirectory()
        let (path, line) = try damagedJournal(in: directory)
        let timeline = try TimelineProgram(session: StepSession(journal: InspectedJournal(path: path)), layout: TimelineLayout(columns: 80, rows: 24))
        _ = try timeline.handle(.end)
        let message = try #require(timeline.model.message)
        #expect(message.isError)
        #expect(message.text.hasPrefix("\(path):\(line): error: "), "\(message.text)")
    }
}
