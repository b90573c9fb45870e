import Atoms
import Foundation
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

/// Transactions read again come from the reader's memory of recent ones: the same records as
/// decoding gives, for the atoms asked for, within a bounded memory. (The reader does not keep
/// envelope-only reads; the memory itself keeps whatever it is given.)
@MainActor
struct RecentTransactionsTests {
    private func record(_ seq: Int) -> TransactionRecord {
        TransactionRecord(type: "tx", seq: seq, t: Double(seq), cause: "set", values: [ValueEntry(id: 1, v: .number(JSONNumber(seq)))])
    }

    @Test func aRecordIsKeptForTheAtomsItWasDecodedFor() {
        var recent = RecentTransactions()
        recent.keep(record(3), seq: 3, decodingValuesOf: [], lineLength: 100)
        #expect(recent.record(3, decodingValuesOf: []) == record(3))
        #expect(recent.record(3, decodingValuesOf: nil) == nil, "values decoded for no atom are not the values of all")
        #expect(recent.record(3, decodingValuesOf: [1]) == nil)
        recent.keep(record(3), seq: 3, decodingValuesOf: nil, lineLength: 100)
        #expect(recent.record(3, decodingValuesOf: nil) == record(3))
    }

    @Test func longLinesAreNotKeptAndTheOldestGoFirst() {
        var recent = RecentTransactions()
        recent.keep(record(1), seq: 1, decodingValuesOf: nil, lineLength: RecentTransactions.largestLine + 1)
        #expect(recent.record(1, decodingValuesOf: nil) == nil)
        for seq in 1...(RecentTransactions.capacity + 10) {
            recent.keep(record(seq), seq: seq, decodingValuesOf: nil, lineLength: 10)
        }
        #expect((1...10).allSatisfy { recent.record($0, decodingValuesOf: nil) == nil })
        #expect(((11)...(RecentTransactions.capacity + 10)).allSatisfy { recent.record($0, decodingValuesOf: nil) == record($0) })
    }

    @Test func readingAgainGivesWhatDecodingGives() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("j.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, keyframeInterval: 8)
        recorder.attach(to: root.store)
        let context = root.viewContext()
        context.watch(ListAtom())
        for index in 0..<40 { context[ListAtom()].append("item \(index)") }
        try recorder.close()
        withExtendedLifetime(context) {}
        let journal = try JournalReader(path: path)
        let fresh = try JournalReader(path: path)
        for seq in (journal.firstStep + 1)...journal.lastStep {
            let envelope = try journal.transaction(seq, decodingValuesOf: [])
            let whole = try journal.transaction(seq)
            #expect(try journal.transaction(seq, decodingValuesOf: []) == envelope)
            #expect(try journal.transaction(seq) == whole)
            #expect(whole == (try fresh.transaction(seq)))
            #expect(envelope.values?.allSatisfy { $0.v == nil && $0.delta == nil } ?? true)
        }
        #expect(try journal.state(at: journal.lastStep) == fresh.state(at: fresh.lastStep))
    }
}

private struct ListAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> [String] { [] }
}
