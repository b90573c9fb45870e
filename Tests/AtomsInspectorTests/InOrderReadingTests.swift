import Foundation
import Testing

/// docs/ARCHITECTURE.md says that one loop reads a journal's lines in order
/// (`LineReader.readOn`, under `StepScan`, `stats`, the segments' scans, the follower and the
/// control server's tail): no other code looks for a line's end in a journal's bytes. This
/// test holds the package to it: the Swift files that search bytes for a newline are the
/// ones below, each for its reason; a new one fails until it reads through the loop or is
/// added here with why it cannot.
struct InOrderReadingTests {
    /// Files that may search bytes for a newline, and why.
    private static let allowed: [String: String] = [
        "Sources/AtomsJournalReader/Reader/LineReader.swift": "the one loop, and the line found by a seek",
        "Sources/AtomsJournalReader/Files/JournalFile.swift":
            "counts the lines before an offset for a message, and sniffs a stream's first line before reading all of it",
        "Sources/AtomsJournalReader/Reader/JournalSegment.swift": "the header, read before any line reader: is it one line short enough",
        "Sources/AtomsJournalReader/Format/Lines/LineScanner+Steps.swift":
            "a flight recorder's lines in memory, read from both ends for the steps they span",
        "Sources/AtomsJournal/Recorder/InMemoryJournalSink.swift": "the in-memory sink's own bytes, never a file",
        "Sources/AtomsJournal/Recorder/FlightRecorderSink.swift": "the header of the lines it holds in memory",
        "Sources/AtomsJournal/Control/ControlServer.swift": "the control protocol's requests, not journal lines",
        "Sources/AtomsInspector/Attach/ControlConnection.swift": "the control protocol's replies, not journal lines",
        "Sources/AtomsInspector/DebugAdapter/DAPFraming.swift": "the debug adapter protocol's headers, not journal lines",
        "Sources/AtomsInspector/Commands/LogLines.swift": "a value's text being written out, not read",
        "Sources/AtomsInspector/Commands/LogCommand.swift": "the listing's own last newline, trimmed",
        "Sources/AtomsInspector/Export/ExportRow.swift": "a CSV field holding a newline is quoted",
        "Sources/AtomsJournalReader/Format/JSONScanner.swift": "whitespace between the tokens of one line",
        "Sources/AtomsFuzzTargets/FuzzTargets.swift": "the fuzzer's control requests, not journal lines",
    ]

    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized

    /// A newline searched for in bytes: by `memchr`, an index search, a split, a comparison
    /// or a membership test (appending one is writing, not reading).
    private static let searches = [
        "memchr(", "firstIndex(of: 0x0A)", "lastIndex(of: 0x0A)", "split(separator: 0x0A", "== 0x0A", "contains(0x0A)",
    ]

    /// The Swift files under Sources/ that search for a newline, relative to the repository.
    private static func searchingFiles() throws -> Set<String> {
        let sources = repository.appendingPathComponent("Sources")
        let paths = try FileManager.default.subpathsOfDirectory(atPath: sources.path)
        var found = Set<String>()
        for path in paths where path.hasSuffix(".swift") {
            let text = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
            let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
            if code.contains(where: { line in searches.contains { line.contains($0) } }) {
                found.insert("Sources/" + path)
            }
        }
        return found
    }

    @Test func onlyTheListedFilesSearchBytesForALineEnd() throws {
        let found = try Self.searchingFiles()
        let unlisted = found.subtracting(Self.allowed.keys).sorted()
        #expect(unlisted.isEmpty, "these files look for a line's end in bytes: read journal lines through LineReader.readOn (AppendedLines for a file still being written), or list the file here with its reason: \(unlisted)")
        // A listed file that no longer searches is taken off the list, so the list stays true.
        let stale = Set(Self.allowed.keys).subtracting(found).sorted()
        #expect(stale.isEmpty, "these listed files no longer search for a line's end: take them off the list: \(stale)")
        // The follower and the control server's tail read through the loop.
        #expect(!found.contains("Sources/AtomsJournalReader/Reader/JournalFollower.swift"))
        #expect(!found.contains("Sources/AtomsJournal/Control/JournalTail.swift"))
    }
}
