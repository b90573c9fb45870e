import Atoms
import AtomsJournal
import Foundation
import Testing
import TestSupport

private struct NoteTextAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> String { "" }
}

/// Files at the edges of what a journal is: a closed journal whose last transaction is
/// large, a line after the end line, devices and large files of something else, a first
/// keyframe still without its newline.
@MainActor
struct UnusualJournalFileTests {
    private func lines(_ path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test func theSummaryInHalvesAgreesWhenTheMiddleFallsInTheLastTransaction() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("big-last.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, program: "tests")
        recorder.attach(to: root.store)
        let context = root.viewContext()
        context.watch(NoteTextAtom())
        context[NoteTextAtom()] = "short"
        context[NoteTextAtom()] = String(repeating: "x", count: 50_000)
        try recorder.close()
        let reader = try JournalReader(path: path)
        #expect(reader.isEnded)
        // Split in the middle: the second half starts at the end line.
        #expect(try reader.summary(splittingAbove: 1) == reader.summary())
    }

    @Test func aLineAfterTheEndLineIsNamedAlikeByEveryReader() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("after-end.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, program: "tests")
        recorder.attach(to: root.store)
        let context = root.viewContext()
        context.watch(NoteTextAtom())
        context[NoteTextAtom()] = "a"
        try recorder.close()
        var text = try lines(path)
        let last = try #require(text.last { $0.hasPrefix("[") })
        let seq = try #require(Int(last.dropFirst().prefix { $0.isNumber }))
        text.append("[\(seq + 1)" + last.drop { $0 != "," })
        try (text.joined(separator: "\n") + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        let reader = try JournalReader(path: path)
        let afterEnd = text.count
        #expect(throws: JournalError.malformedLine(path: path, line: afterEnd, reason: "a line follows the end of the journal")) {
            try reader.summary()
        }
        #expect(throws: JournalError.malformedLine(path: path, line: afterEnd, reason: "a line follows the end of the journal")) {
            for step in (reader.firstStep + 1)...reader.lastStep { _ = try reader.transaction(step, decodingValuesOf: []) }
        }
    }

    @Test func endlessDevicesAndLargeFilesOfSomethingElseAreRefusedAtOnce() throws {
        let directory = try TemporaryDirectory()
        let zeros = try directory.write("zeros.bin", Data(count: 4 << 20))
        // A device that never ends, and a large file with no line: named, not read on.
        for path in ["/dev/zero", zeros] {
            do {
                _ = try JournalReader(path: path)
                Issue.record("\(path) opened")
            } catch {
                guard case .notAJournal = error else {
                    Issue.record("\(path): expected not a journal, got \(error)")
                    continue
                }
            }
        }
    }

    @Test func aFirstKeyframeStillWithoutItsNewlineOpens() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("opening.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, program: "tests")
        recorder.attach(to: root.store)
        try recorder.close()
        let opening = try lines(path).prefix(2).joined(separator: "\n")
        try opening.write(toFile: path, atomically: false, encoding: .utf8)
        let reader = try JournalReader(path: path)
        #expect(reader.lastStep == reader.firstStep)
        #expect(try reader.state(at: reader.firstStep).step == reader.firstStep)
    }
}
