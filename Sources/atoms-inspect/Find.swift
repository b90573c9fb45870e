import ArgumentParser
import AtomsInspector
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct Find: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Find the steps where a condition on atom values becomes true; exit 1 when there is none.",
        discussion: """
            EXPR compares values with literals or with each other: ==, !=, <, <=, >, >= joined by \
            &&, || and !, with parentheses. A value is an atom followed by members, indices and \
            keys: StatsAtom.total, TodosAtom[0].text, TodosAtom.count, 'Family[key]'.member, \
            Atom["a key"]. Literals: numbers, "strings", true, false, null. A path that leads \
            nowhere at a step (the atom not live, a member absent) is null. Only the atoms EXPR \
            names are decoded.
            """
    )

    @Argument(help: "The journal file.")
    var journal: String

    @Option(name: .customLong("where"), help: "The condition (see the discussion).")
    var expression: String

    @Flag(help: "Print only the first step where EXPR becomes true.")
    var first = false

    @Flag(help: "Print every step where EXPR holds, not only where it becomes true.")
    var all = false

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if first && all {
            throw ValidationError("--first and --all cannot be combined — use one of them")
        }
    }

    func run() throws {
        var found = true
        try runInspector { () throws(InspectorError) in
            let mode: FindCommand.Mode = first ? .first : all ? .all : .becomesTrue
            // On a terminal, where a long scan is (Ctrl-C stops it as any command).
            var drawn = false
            let progress: SearchProgress? = isatty(STDERR_FILENO) == 0 ? nil : { step, steps in
                StandardStream.error.write("\rfind: step \(step) of \(steps.upperBound) (\((step - steps.lowerBound) * 100 / max(1, steps.count - 1))%)".utf8)
                drawn = true
                return true
            }
            let result = try FindCommand.run(openJournal(journal), where: expression, mode: mode, json: output.json, style: .forOutput(), progress: progress)
            if drawn { StandardStream.error.write("\r\u{1B}[K".utf8) }
            printOutput(result.output)
            found = result.found
        }
        if !found {
            throw ExitCode(1)
        }
    }
}
