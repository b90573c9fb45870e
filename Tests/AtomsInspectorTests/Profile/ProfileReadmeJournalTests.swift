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
    @Test func aJournalRecordedAsTheReadmeShowsIsProfiled() async throws {
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
        let run = try await BuiltProducts.run("atoms-inspect", ["profile", path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("ReadmeDoubledAtom"))
        let cost = try await BuiltProducts.run("atoms-inspect", ["step", path], stdin: "goto 3\ncost\nq\n")
        #expect(cost.status == 0, "\(cost.stderr)")
        #expect(cost.stdout.contains("App/View.swift:7"), "the subscriber told, by where it was created")
    }
}

/// Journals of format 4.1 (the long timing lines) still profile: the counter sample's session
/// recorded by 4.1's recorder reads as the same session recorded now, in compact lines.
@MainActor
struct ProfileFormat41Tests {
    private static let format41 = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../AtomsJournalTests/Journals/format41-counter.jsonl").standardized.path
    private static let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../../samples/journals/counter.jsonl").standardized.path

    @Test func aFormat41JournalProfilesAsTheSameSessionRecordedNow() throws {
        let old = try InspectedJournal(path: Self.format41)
        let new = try InspectedJournal(path: Self.shipped)
        #expect(old.reader.header.minor == 1 && new.reader.header.minor == JournalFormat.minorVersion)
        let oldProfile = try ProfileCommand.profile(old, options: .init())
        let newProfile = try ProfileCommand.profile(new, options: .init())
        #expect(oldProfile.totals.transactions == newProfile.totals.transactions)
        #expect(oldProfile.totals.transactions == old.reader.transactionCount, "every transaction timed")
        func shape(_ profile: Profile) -> [String] {
            profile.atoms.map { "\($0.atom) \($0.evaluations) \($0.wasted) \($0.notifications)" }.sorted()
        }
        #expect(shape(oldProfile) == shape(newProfile), "evaluations, wasted ones and notifications per atom")
        // One step's cost reads from either format, the subscriber named by its location.
        for journal in [old, new] {
            let cost = try StepCost.text(journal, at: 3, declarations: try journal.declarations(through: 3), style: .plain)
            #expect(cost.contains("sample_counter/main.swift:9"), "\(cost)")
        }
    }
}
