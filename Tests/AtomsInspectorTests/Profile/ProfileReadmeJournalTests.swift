import Atoms
import AtomsJournal
import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

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
        #expect(old.reader.header.minor == 1 && new.reader.header.minor == 2)
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
