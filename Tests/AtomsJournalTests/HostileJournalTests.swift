import Atoms
import Foundation
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

/// Journals nobody should write, which users still download and open: each gives a clear
/// error naming the line, never a trap, and never an endless or cubic amount of work.
struct HostileJournalTests {
    private static func header(version: Int) -> String {
        #"{"format":"atoms-journal","version":\#(version),"minor":0,"created":"x","keyframeInterval":64}"#
    }

    private func write(_ lines: [String], in directory: TemporaryDirectory, named name: String = "j.jsonl") throws -> String {
        let path = directory.path(name)
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(arguments: [
        #"{"type":"keyframe","seq":0,"atoms":[],"values":[{"id":7,"v":1}],"edges":[],"subs":[]}"#,
        #"{"type":"keyframe","seq":0,"atoms":[{"id":1,"label":"A","type":"m.A"}],"values":[{"id":1,"v":1}],"edges":[{"from":1,"to":9}],"subs":[]}"#,
        #"{"type":"keyframe","seq":0,"atoms":[],"values":[],"edges":[],"subs":[{"atom":3,"at":"A.swift:1"}]}"#,
    ])
    func aKeyframeReferringToUndeclaredAtomsIsMalformed(keyframe: String) throws {
        let directory = try TemporaryDirectory()
        let path = try write([Self.header(version: 3), keyframe], in: directory)
        let journal = try JournalReader(path: path)
        #expect {
            try journal.state(at: 0)
        } throws: { error in
            guard case .malformedLine(_, 2, let reason) = error as? JournalError else { return false }
            return reason.contains("not declared")
        }
    }

    @Test(arguments: [Int.max, Int.max - 1, 1 << 53])
    func stepsOutOfRangeAreMalformed(seq: Int) throws {
        let directory = try TemporaryDirectory()
        let keyframe = #"{"type":"keyframe","seq":\#(seq),"atoms":[],"values":[],"edges":[],"subs":[]}"#
        let path = try write([Self.header(version: 3), keyframe], in: directory)
        #expect(throws: JournalError.malformedLine(path: path, line: 2, reason: "step \(seq) is out of range (steps are 0…\((1 << 53) - 1))")) {
            try JournalReader(path: path)
        }
    }

    @Test func aTransactionAtTheLastStepAllowedOpens() throws {
        let directory = try TemporaryDirectory()
        let last = (1 << 53) - 1
        let path = try write([
            Self.header(version: 3),
            #"{"type":"keyframe","seq":\#(last - 1),"atoms":[],"values":[],"edges":[],"subs":[]}"#,
            #"[\#(last),0.5,"set",0,0,[]]"#,
        ], in: directory)
        let journal = try JournalReader(path: path)
        #expect(journal.lastStep == last)
        #expect(try journal.state(at: last).step == last)
    }

    @Test func globsMatchNULsAndStarsWithoutFoundation() {
        #expect(Glob("a\u{0}*").matches("a\u{0}bc"))
        #expect(!Glob("\u{0}").matches("x"))
        #expect(!Glob("*\u{0}*").matches("abc"))
        #expect(Glob("Todo*Atom").matches("TodoStatsAtom"))
        #expect(Glob("*[*]").matches("Family[3]"))
        #expect(Glob("*").matches(""))
        #expect(!Glob("a*b*c").matches("acb"))
        #expect(Glob("a*b*c").matches("aXbYbZc"))
        #expect(Glob("é*").matches("e\u{301}x"), "characters compare as String does")
    }

    @Test(arguments: [1, 2, 3])
    func deeplyNestedValuesDecodeInEveryFormat(version: Int) throws {
        let directory = try TemporaryDirectory()
        let depth = 500
        let value = String(repeating: "[", count: depth) + "1" + String(repeating: "]", count: depth)
        let keyframe = #"{"type":"keyframe","seq":0,"atoms":[{"id":1,"label":"A","type":"m.A"}],"values":[{"id":1,"v":\#(value)}],"edges":[],"subs":[]}"#
        let transaction = version == 1
            ? #"{"type":"tx","seq":1,"t":0.5,"cause":"set","origin":1,"values":[{"id":1,"v":\#(value)}]}"#
            : #"[1,0.5,"set",1,0,[[1,"v",\#(value)]]]"#
        let path = try write([Self.header(version: version), keyframe, transaction], in: directory)
        let journal = try JournalReader(path: path)
        var value1 = try #require(try journal.state(at: 1).values[1]?.v)
        var levels = 0
        while case .array(let elements) = value1, let first = elements.first {
            value1 = first
            levels += 1
        }
        #expect(levels == depth)
    }

    @Test func aLargeFileOfZerosIsRejectedWithoutReadingIt() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("zeros.bin")
        // Sparse: a gigabyte of zeros that takes no disk space.
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 1 << 30)
        try handle.close()
        #expect {
            try JournalReader(path: path)
        } throws: { error in
            guard case .notAJournal(_, let found) = error as? JournalError else { return false }
            return found.hasPrefix("\u{0}") && found.count == 80
        }
    }

    @Test func nonRegularInputsAreReadAsStreamsOrNamedForWhatTheyAre() throws {
        #expect(throws: JournalError.empty(path: "/dev/null")) { try JournalReader(path: "/dev/null") }

        let directory = try TemporaryDirectory()
        let loop = directory.path("loop")
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: directory.path("loop2"))
        try FileManager.default.createSymbolicLink(atPath: directory.path("loop2"), withDestinationPath: loop)
        #expect(throws: JournalError.cannotRead(path: loop, reason: "too many levels of symbolic links (a link loop)")) {
            try JournalReader(path: loop)
        }
        // A folder is read as a bounded journal's segments; one without any says so.
        #expect(throws: JournalError.cannotRead(path: directory.url.path, reason: "the folder holds no journal segments (it is not a bounded journal, or its recording has not started)")) {
            try JournalReader(path: directory.url.path)
        }

        let fifo = directory.path("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let lines = Self.header(version: 3) + "\n" + #"{"type":"keyframe","seq":0,"atoms":[],"values":[],"edges":[],"subs":[]}"# + "\n"
        let writer = Thread {
            let descriptor = open(fifo, O_WRONLY)
            _ = lines.utf8CString.withUnsafeBufferPointer { Glibc.write(descriptor, $0.baseAddress!, $0.count - 1) }
            close(descriptor)
        }
        writer.start()
        let journal = try JournalReader(path: fifo)
        #expect(journal.lastStep == 0)
    }

    @MainActor
    @Test func aJournalHoldsItsHeaderAndKeyframeAsSoonAsRecordingStarts() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("early.jsonl")
        let recorder = try JournalRecorder(path: path)
        let root = AtomRoot()
        recorder.attach(to: root.store)
        // Read before any flush or close, as after a SIGKILL.
        let journal = try JournalReader(path: path)
        #expect(journal.firstStep == 0)
        #expect(journal.lastStep == 0)
        try recorder.close()
    }
}
