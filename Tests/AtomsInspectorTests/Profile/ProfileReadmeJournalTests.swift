import Atoms
import AtomsJournal
import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

private struct ReadmeCounterAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

private struct ReadmeDoubledAtom: ValueAtom, Hashable {
    func value(context: Context) -> Int { context.watch(ReadmeCounterAtom()) * 2 }
}

/// A journal recorded as the README shows, with `JournalRecorder(path:)` and nothing else
/// set, can be profiled: timing is on unless the app opts out.
@MainActor
struct ProfileReadmeJournalTests {
    @Test func aJournalRecordedAsTheReadmeShowsIsProfiled() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("session.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path)
        recorder.attach(to: root.store)
        let context = root.viewContext(fileID: "App/View.swift", line: 7)
        _ = context.watch(ReadmeDoubledAtom(), fileID: "App/View.swift", line: 8)
        for _ in 0..<5 {
            context[ReadmeCounterAtom()] += 1
        }
        try recorder.close()

        let journal = try InspectedJournal(path: path)
        let profile = try ProfileCommand.profile(journal, options: .init())
        #expect(profile.totals.transactions == 6, "the watch, then five writes")
        let doubled = try #require(profile.atoms.first { $0.atom == "ReadmeDoubledAtom" })
        #expect(doubled.evaluations == 6, "its first value and one per write")
        #expect(doubled.notifications == 5, "each write told the view")
        let text = try ProfileCommand.run(journal, options: .init())
        #expect(text.contains("ReadmeDoubledAtom"))

        // The command itself, end to end: it profiles the journal (exit 0).
        let run = try BuiltProducts.run("atoms-inspect", ["profile", path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("ReadmeDoubledAtom"))
        let cost = try BuiltProducts.run("atoms-inspect", ["step", path], stdin: "goto 3\ncost\nq\n")
        #expect(cost.status == 0, "\(cost.stderr)")
        #expect(cost.stdout.contains("App/View.swift:7"), "the subscriber told, by where it was created")
    }
}
