import ArgumentParser
import AtomsInspector

struct ReplayTest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay-test",
        abstract: "Write a Swift Testing file that replays a journal against today's atoms (JournalReplay in AtomsTesting).",
        discussion: "The atoms the session wrote directly are driven (their recorded writes applied), and so are its asynchronous atoms (tasks' phases, debounced values: their recorded results delivered, no task run), named with their modifier (SearchAtom().phase, QueryAtom().debounce(for: 0.3)); the others are checked after every step, each with a comment saying how often it was written, delivered and changed. Family members, scoped atoms, types that cannot be named from the journal, atoms recorded as dumps, and atoms derived from an asynchronous atom the replay cannot drive are left as commented lines saying why. With --until EXPR (find --where's language), the file is a regression test instead: it shrinks the session to the fewest writes and smallest values under which EXPR becomes true, and fails, printing the kept steps and the shrunk journal, while today's atoms still reach it; once the bug is fixed it passes. The condition must parse, name atoms the file drives or watches, and be reached by the recording (exit 64 otherwise). Types are module-qualified, as the journal records them, and their modules imported with @testable: the file compiles in a test target that depends on them. EXIT STATUS as for every command: 66 when the journal cannot be read, 65 when it is damaged, 73 when the output file cannot be created."
    )

    @Argument(help: "The journal file (or bounded journal folder), as the test will open it: relative to the package's folder.")
    var journal: String

    @Option(name: .shortAndLong, help: "The Swift file to write (default: standard output).")
    var output: String?

    @Option(name: .long, help: ArgumentHelp("Write a regression test that shrinks the session and fails while EXPR (as find --where takes it) becomes true.", valueName: "EXPR"))
    var until: String?

    func run() throws {
        try runInspector { () throws(InspectorError) in
            printOutput(try ReplayTestCommand.run(openJournal(journal), path: journal, until: until, output: output))
        }
    }
}
