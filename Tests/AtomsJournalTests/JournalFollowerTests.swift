import Atoms
import Foundation
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

/// An atom of a family whose members come and go.
private struct TransientAtom: StateAtom, Hashable {
    let id: Int
    var key: Int { id }
    func defaultValue(context: Context) -> Int { id }
}

@MainActor
struct JournalFollowerTests {
    /// A session where atoms come and go: what a follower keeps of the declarations it read
    /// follows the live atoms (plus those the last poll's transactions released), not every
    /// atom the journal ever declared.
    @Test func aFollowerKeepsTheDeclarationsOfTheLiveAtomsOnly() throws {
        let directory = try TemporaryDirectory()
        let recorded = directory.path("transient.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: recorded, flush: .onClose, keyframeInterval: 16)
        recorder.attach(to: root.store)
        let context = root.viewContext()
        for id in 0..<200 {
            context.watch(TransientAtom(id: id))
            context[TransientAtom(id: id)] += 1
            context.unwatch(TransientAtom(id: id))
        }
        try recorder.close()
        let journal = try JournalReader(path: recorded)

        // The journal appended to a file line by line, the follower polling after each line.
        let path = directory.path("followed.jsonl")
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        let follower = JournalFollower(path: path)
        var declaredEver = Set<Int>()
        var largest = 0
        for line in try String(contentsOfFile: recorded, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            try file.write(contentsOf: Data((line + "\n").utf8))
            for event in try follower.poll() {
                guard case .transaction(let record) = event else { continue }
                declaredEver.formUnion((record.declare ?? []).map(\.id))
                let live = try journal.state(at: record.seq).liveAtoms.count
                let released = record.released?.count ?? 0
                #expect(follower.declarations.count <= live + released, "step \(record.seq)")
                // Every atom the transaction names can be named.
                for id in (record.values ?? []).map(\.id) + (record.released ?? []) {
                    #expect(follower.declarations[id] != nil, "step \(record.seq): atom \(id)")
                }
                largest = max(largest, follower.declarations.count)
            }
        }
        try file.close()
        _ = try follower.poll()
        #expect(follower.isEnded)
        #expect(declaredEver.count >= 200)
        #expect(largest < 10, "a few live atoms, not the 200 declared")
        #expect(follower.declarations.count == (try journal.state(at: journal.lastStep).liveAtoms.count))
    }

    /// A journal appended in pieces that end anywhere (inside a line, between lines, several
    /// lines at once): each poll hands over the lines completed so far, each transaction
    /// once and in order, the same ones the reader reads from the whole file; a line waits
    /// for its newline.
    @Test func linesAppendedInPiecesAreEachReadOnceWhenComplete() throws {
        let directory = try TemporaryDirectory()
        let recorded = directory.path("recorded.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: recorded, flush: .onClose, keyframeInterval: 8)
        recorder.attach(to: root.store)
        let context = root.viewContext()
        for id in 0..<60 {
            context.watch(TransientAtom(id: id))
            context[TransientAtom(id: id)] += id
            if id % 3 == 0 { context.unwatch(TransientAtom(id: id)) }
        }
        try recorder.close()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: recorded)))
        let journal = try JournalReader(path: recorded)

        let path = directory.path("followed.jsonl")
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        let follower = JournalFollower(path: path)
        var generator = SeededGenerator(seed: 7)
        var steps: [Int] = []
        var written = 0
        while written < bytes.count {
            let piece = min(bytes.count - written, Int.random(in: 1...700, using: &generator))
            try file.write(contentsOf: Data(bytes[written..<(written + piece)]))
            written += piece
            for event in try follower.poll() {
                if case .transaction(let record) = event { steps.append(record.seq) }
            }
            // Only lines whose newline was written have been read.
            let completeLines = bytes[..<written].filter { $0 == 0x0A }.count
            #expect(steps.count <= completeLines)
        }
        try file.close()
        _ = try follower.poll()
        #expect(steps == Array((journal.firstStep + 1)...journal.lastStep))
        #expect(follower.isEnded)
    }
}
