import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// The one walk over a journal's steps: each transaction once, in order, with the state
/// after it equal to the state read at that step.
@MainActor
struct StepWalkTests {
    @Test func theWalkVisitsEachStepOnceWithTheStateThere() throws {
        let directory = try TemporaryDirectory()
        let journal = try InspectedJournal(path: RecordedSessions.small(in: directory))
        let reader = journal.reader
        var state = try journal.state(at: reader.firstStep)
        var visited: [Int] = []
        try journal.walk(&state, through: reader.lastStep, decodingValuesOf: nil) { record, after throws(InspectorError) in
            visited.append(record.seq)
            let read = try journal.state(at: record.seq)
            #expect(after.values == read.values, "step \(record.seq)")
            #expect(after.liveIDs == read.liveIDs, "step \(record.seq)")
        }
        #expect(visited == Array((reader.firstStep + 1)...reader.lastStep))
        #expect(state.step == reader.lastStep)
        // Envelopes only: the same atoms live, no values.
        var envelopes = try journal.state(at: reader.firstStep, decodingValuesOf: [])
        try journal.walk(&envelopes, through: reader.lastStep, decodingValuesOf: []) { _, _ in }
        #expect(envelopes.liveIDs == state.liveIDs)
        #expect(envelopes.declarations == state.declarations)
        // Walking to where the state already is does nothing.
        try journal.walk(&state, through: reader.firstStep, decodingValuesOf: nil) { record, _ in
            Issue.record("step \(record.seq) walked again")
        }
    }
}
