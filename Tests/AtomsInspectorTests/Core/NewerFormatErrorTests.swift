import AtomsJournalReader
import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// A line this tool cannot read in a journal of a later minor version is named as such, with
/// what to do (a newer atoms-inspect), not as damage to cut away.
struct NewerFormatErrorTests {
    /// A journal whose header says `minor`, with a line no reader of today reads at line 4.
    private static func journal(minor: Int, in directory: TemporaryDirectory) throws -> String {
        try directory.write("journal-\(minor).jsonl", """
            {"format":"atoms-journal","version":4,"minor":\(minor),"created":"2026-11-28T10:00:00Z","keyframeInterval":256}
            {"type":"keyframe","seq":0,"atoms":[],"values":[],"edges":[],"subs":[],"locs":[]}
            [1,0.5,"set",0,0,[]]
            %a line of a later version%
            [2,0.6,"set",0,0,[]]

            """)
    }

    private static func openingError(_ path: String) throws -> InspectorError {
        try #require(throws: InspectorError.self) { try LogCommand.run(try InspectedJournal(path: path), options: .init()) }
    }

    @Test func aLaterMinorVersionSaysSoAndWhatToDo() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.journal(minor: JournalFormat.minorVersion + 1, in: directory)
        let error = try Self.openingError(path).explainingNewerFormat()
        #expect(error.path == path && error.line == 4 && error.status == .dataError)
        #expect(error.message.contains("the journal is format 4.\(JournalFormat.minorVersion + 1), newer than this atoms-inspect reads (4.\(JournalFormat.minorVersion)): read it with a newer atoms-inspect"), "\(error)")
        #expect(!error.message.contains("damaged"))
    }

    @Test func theCurrentVersionsDamageIsStillDamage() throws {
        let directory = try TemporaryDirectory()
        let path = try Self.journal(minor: JournalFormat.minorVersion, in: directory)
        let error = try Self.openingError(path)
        #expect(error.explainingNewerFormat() == error)
        #expect(error.message.contains("the file is damaged"))
    }

    @Test func theToolPrintsIt() async throws {
        let directory = try TemporaryDirectory()
        let path = try Self.journal(minor: JournalFormat.minorVersion + 1, in: directory)
        let run = try await BuiltProducts.run("atoms-inspect", ["log", path])
        #expect(run.status == 65)
        #expect(run.stderr.contains("\(path):4: error: ") && run.stderr.contains("read it with a newer atoms-inspect"), "\(run.stderr)")
    }
}
