import ArgumentParser
import AtomsInspector

struct ReplayTest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay-test",
        abstract: "Write a Swift Testing file that replays a journal against today's atoms (JournalReplay in AtomsTesting).",
        discussion: "The atoms the session wrote directly are driven (their recorded writes applied), the others checked after every step, each with a comment saying how often it was written and changed. Family members, scoped atoms, types that cannot be named from the journal and atoms written with values that are not JSON are left as commented lines saying why. Types are module-qualified, as the journal records them: the file compiles where those types are in scope."
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
