import Atoms
import Foundation
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

/// Keyframes hold what is live: in a session that creates and releases family
/// members, each keyframe declares the live atoms and what the graph refers to, the recorder
/// forgets the rest, and every step still reads the same from any keyframe.
@MainActor
struct LiveKeyframeTests {
    /// The keyframe lines of a journal file, decoded.
    private func keyframes(in path: String) throws -> [KeyframeRecord] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix(#"{"type":"keyframe""#) }
            .map { try JSONDecoder().decode(KeyframeRecord.self, from: Data($0.utf8)) }
    }

    /// Every keyframe declares exactly the atoms that are live or referred to by its graph.
    private func expectLiveOnly(_ keyframe: KeyframeRecord, expectedLive: Set<String>?, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let live = Set(keyframe.values.map(\.id))
        let referred = Set(keyframe.edges.flatMap { [$0.from, $0.to] } + keyframe.subs.map(\.atom))
        #expect(Set(keyframe.atoms.map(\.id)) == live.union(referred), "keyframe \(keyframe.seq)", sourceLocation: sourceLocation)
        #expect(keyframe.atoms.count == live.count, "keyframe \(keyframe.seq): the graph refers to live atoms only", sourceLocation: sourceLocation)
        if let expectedLive {
            let names = Set(keyframe.atoms.map(\.displayName))
            #expect(names == expectedLive, "keyframe \(keyframe.seq)", sourceLocation: sourceLocation)
        }
    }

    /// The state read at `step` (from its nearest keyframe) against the state walked there
    /// transaction by transaction from the journal's first keyframe, and against the live set
    /// the session expects.
    private func expectSameState(_ read: JournalState, _ walked: JournalState, expectedLive: Set<String>?, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let step = read.step
        #expect(read.step == walked.step, sourceLocation: sourceLocation)
        #expect(read.liveIDs == walked.liveIDs, "step \(step)", sourceLocation: sourceLocation)
        #expect(read.values == walked.values, "step \(step)", sourceLocation: sourceLocation)
        #expect(read.edges == walked.edges, "step \(step)", sourceLocation: sourceLocation)
        #expect(read.subscriptions == walked.subscriptions, "step \(step)", sourceLocation: sourceLocation)
        // The read state knows fewer dead atoms; the atoms both know are declared alike.
        for (id, declaration) in read.declarations {
            #expect(walked.declarations[id] == declaration, "step \(step), atom \(id)", sourceLocation: sourceLocation)
        }
        #expect(read.liveAtoms == walked.liveAtoms, "step \(step)", sourceLocation: sourceLocation)
        #expect(throws: Never.self, sourceLocation: sourceLocation) { try read.checkReferences() }
        if let expectedLive {
            #expect(Set(read.liveAtoms.map(\.displayName)) == expectedLive, "step \(step)", sourceLocation: sourceLocation)
        }
    }

    /// Walks `journal` from its first step, comparing each step of `steps` read alone.
    private func walk(_ journal: JournalReader, checking steps: Set<Int>, expectedLive: [Int: Set<String>], sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        var walked = try journal.state(at: journal.firstStep)
        var identities: [Int: String] = walked.declarations.mapValues(\.identityKey)
        for step in stride(from: journal.firstStep + 1, through: journal.lastStep, by: 1) {
            let record = try journal.apply(step, to: &walked, decodingValuesOf: nil)
            for declaration in record.declare ?? [] {
                // A number stands for one atom in the whole journal.
                #expect(identities[declaration.id, default: declaration.identityKey] == declaration.identityKey, "atom \(declaration.id) declared as two atoms", sourceLocation: sourceLocation)
                identities[declaration.id] = declaration.identityKey
            }
            if steps.contains(step) {
                expectSameState(try journal.state(at: step), walked, expectedLive: expectedLive[step], sourceLocation: sourceLocation)
                // A reader at the step before (from its own keyframe) takes this transaction:
                // everything it refers to, its origin included, is declared by then.
                var before = try journal.state(at: step - 1)
                let applied = try journal.apply(step, to: &before, decodingValuesOf: nil)
                if let origin = applied.origin, origin != 0 {
                    #expect(before.declarations[origin] != nil, "the origin of \(step) is declared", sourceLocation: sourceLocation)
                }
                for id in applied.released ?? [] {
                    #expect(before.declarations[id] != nil, "atom \(id) released at \(step) is declared", sourceLocation: sourceLocation)
                }
                expectSameState(before, walked, expectedLive: expectedLive[step], sourceLocation: sourceLocation)
            }
        }
    }

    @Test func keyframesDeclareTheLiveAtomsOnlyAndEveryStepReadsTheSame() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("churn.jsonl")
        let session = try ChurnSession(rows: 400, path: path, keyframeInterval: 8)
        let journal = try JournalReader(path: path)

        let keyframes = try keyframes(in: path)
        #expect(keyframes.count > 40)
        for keyframe in keyframes {
            expectLiveOnly(keyframe, expectedLive: session.expectedLive[keyframe.seq])
            // The counter, row 0, the current row (and the one before, until it goes) and
            // perhaps a row come back: never the hundreds of rows released before.
            #expect(keyframe.atoms.count <= 5)
        }
        // Every step around a keyframe, and a spread of the others.
        var steps = Set(try journal.keyframeSteps.flatMap { [$0 - 1, $0, $0 + 1, $0 + 2] })
        steps.formUnion(stride(from: journal.firstStep, through: journal.lastStep, by: 5))
        steps = steps.filter { (journal.firstStep...journal.lastStep).contains($0) }
        try walk(journal, checking: steps, expectedLive: session.expectedLive)
    }

    @Test func aRowThatComesBackIsDeclaredAgainUnderANewNumber() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("churn.jsonl")
        let session = try ChurnSession(rows: 120, path: path, keyframeInterval: 8)
        let journal = try JournalReader(path: path)
        #expect(!session.returned.isEmpty)
        var numbers: [String: [Int]] = [:]
        var state = try journal.state(at: journal.firstStep)
        for step in stride(from: journal.firstStep + 1, through: journal.lastStep, by: 1) {
            let record = try journal.apply(step, to: &state, decodingValuesOf: [])
            for declaration in record.declare ?? [] {
                numbers[declaration.displayName, default: []].append(declaration.id)
            }
            // Whatever a line refers to is declared by then, and live values belong to
            // declared atoms: a reader that starts at the keyframe before this step agrees.
            try state.checkReferences()
            if let origin = record.origin, origin != 0 {
                #expect(state.declarations[origin] != nil, "the origin of \(step) is declared")
            }
        }
        for row in session.returned {
            let declared = numbers["ChurnRowAtom[\(row)]"] ?? []
            #expect(declared.count == 2, "row \(row): declared when first shown and when it came back")
            #expect(Set(declared).count == declared.count, "row \(row): a new number each time")
        }
        let every = numbers.values.flatMap { $0 }
        #expect(Set(every).count == every.count, "no number is handed out twice")
    }

    @Test func theRecorderForgetsReleasedAtoms() throws {
        let directory = try TemporaryDirectory()
        let session = try ChurnSession(rows: 600, path: directory.path("churn.jsonl"), keyframeInterval: 8)
        #expect(session.mirror.count == 600)
        for (row, entry) in session.mirror.enumerated() {
            let sizes = entry.sizes
            #expect(sizes.values == entry.live, "row \(row)")
            // Live atoms, plus the few released since the last keyframe.
            #expect(sizes.atoms <= entry.live + 24, "row \(row): \(sizes)")
            #expect(sizes.identities == sizes.atoms && sizes.instances <= sizes.atoms, "row \(row): \(sizes)")
            #expect(sizes.valueBuckets <= 64, "row \(row): \(sizes)")
            #expect(sizes.edges <= entry.live && sizes.referencedAtoms <= entry.live, "row \(row): \(sizes)")
        }
    }

    @Test func aBoundedJournalStaysWithinItsLimitAndEachSegmentReadsAlone() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("bounded")
        let limit = 16 << 10
        let session = try ChurnSession(rows: 3_000, path: path, limit: limit, keyframeInterval: 16)
        let segments = try SegmentDirectory.segments(in: path)
        #expect(segments.first!.number > 3, "the first segments were deleted")
        let onDisk = try segments.reduce(0) { $0 + ((try FileManager.default.attributesOfItem(atPath: $1.path)[.size] as? Int) ?? 0) }
        #expect(onDisk <= limit + SegmentWriter.segmentSize(forLimit: limit))

        for segment in segments {
            let keyframes = try keyframes(in: segment.path)
            for keyframe in keyframes {
                expectLiveOnly(keyframe, expectedLive: session.expectedLive[keyframe.seq])
                #expect(keyframe.atoms.count <= 5)
            }
            // Subscriptions in graph changes name their locations by number (declared in the
            // segment's keyframe or a location line in it), never spelled out.
            // (The newest segment may hold only its keyframe and a few lines: where the
            // segments rotate depends on the bytes of the times.)
            let transactions = try String(contentsOfFile: segment.path, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("[") }
            if transactions.count >= 20 {
                let removed = try transactions.flatMap { line in
                    try Array(line.utf8).withUnsafeBytes { raw in
                        try TransactionLine(bytes: raw, range: 0..<raw.count, version: 4).graph?.subsRemoved ?? []
                    }
                }
                #expect(!removed.isEmpty, "\(segment.path)")
                #expect(removed.allSatisfy { if case .number = $0.location { true } else { false } })
            }
            #expect(!transactions.contains { $0.contains(#""at":"#) })
            // Read alone, from its own first keyframe: every step as walked from there.
            let alone = try JournalReader(path: segment.path)
            let steps = Set(try alone.keyframeSteps.flatMap { [$0, $0 + 1] } + [alone.lastStep]).filter { $0 >= alone.firstStep && $0 <= alone.lastStep }
            try walk(alone, checking: steps, expectedLive: session.expectedLive)
        }
        // The folder read whole: steps right after each rotation, walked from the oldest
        // segment's keyframe across the later segments' keyframes.
        let journal = try JournalReader(path: path)
        var steps: Set<Int> = [journal.lastStep]
        for segment in segments {
            let first = try JournalReader(path: segment.path).firstStep
            steps.formUnion([first - 1, first, first + 1].filter { $0 >= journal.firstStep && $0 <= journal.lastStep })
        }
        try walk(journal, checking: steps, expectedLive: session.expectedLive)
    }
}
