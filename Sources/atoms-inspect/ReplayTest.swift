import ArgumentParser
import AtomsInspector

struct ReplayTest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay-test",
        abstract: "Write a Swift Testing file that replays a journal against today's atoms (JournalReplay in AtomsTesting).",
        discussion: "The atoms the session wrote directly are driven (their recorded writes applied), the others checked after every step, each with a comment saying how often it was written and changed. Family members, scoped atoms, types that cannot be named from the journal, atoms recorded as dumps or asynchronous phases, and atoms derived from a phase are left as commented lines saying why. Types are module-qualified, as the journal records them, and their modules imported with @testable: the file compiles in a test target that depends on them. EXIT STATUS as for every command: 66 when the journal cannot be read, 65 when it is damaged, 73 when the output file cannot be created."
    )

    @Argument(help: "The journal file (or bounded journal folder), as the test will open it: relative to the package's folder.")
    var journal: String

    @Option(name: .shortAndLong, help: "The Swift file to write (default: standard output).")
    var output: String?

    func run() throws {
        try runInspector { () throws(InspectorError) in
            printOutput(try ReplayTestCommand.run(openJournal(journal), path: journal, output: output))
        }
    }
}
