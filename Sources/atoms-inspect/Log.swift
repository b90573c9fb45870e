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

struct Log: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List transactions: step, time, cause, atoms changed, source location.",
        discussion: """
            When stdout is not a terminal: no header, no colour, exactly one line per transaction.
            With --follow, the journal's transactions are printed, then each one its program appends (across \
            a bounded journal's segments) until the recorder closes the journal or Ctrl-C; with --json, one \
            JSON object per line.
            """
    )

    @Argument(help: "The journal file (or a bounded journal's folder).")
    var journal: String

    @Flag(name: [.customShort("f"), .long], help: "Keep reading as the program appends transactions; exit 0 when it closes the journal or on Ctrl-C.")
    var follow = false

    @Option(help: "Only transactions that change, create or release atoms matching NAME (* globs).")
    var atom: String?

    @Flag(help: "With --atom: also the transactions that only wrote it a value equal to the one it had (written, not changed).")
    var writes = false

    @Option(help: "The first step to list.")
    var from: StepSpec?

    @Option(help: "The last step to list.")
    var to: StepSpec?

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if writes, atom == nil {
            throw ValidationError("--writes adds the equal writes of the atoms --atom names: give --atom NAME too")
        }
    }

    func run() throws {
        if follow {
            try runFollow()
            return
        }
        try runInspector { () throws(InspectorError) in
            let journal = try openJournal(journal)
            let terminal = isatty(STDOUT_FILENO) != 0
            let options = LogCommand.Options(atom: atom, writes: writes, from: from, to: to, json: output.json, header: terminal && !output.json, style: .forOutput())
            // Streamed: a long journal's log is never held in memory.
            try LogCommand.write(journal, options: options) { writeOutput($0) }
            if output.json { writeOutput("\n".utf8) }
        }
    }

    private func runFollow() throws {
        try runInspector { () throws(InspectorError) in
            Interrupt.install()
            let options = LogCommand.Options(atom: atom, writes: writes, from: from, to: to, json: output.json, header: false, style: .forOutput())
            var out = BufferedOutput()
            try LogCommand.follow(path: journal, options: options, shouldStop: { Interrupt.requested }) { event in
                switch event {
                case .line(let text): out.write(line: text)
                case .notice(let text): StandardStream.error.write("atoms-inspect: \(text)\n")
                case .flush: out.flush()
                }
            }
            out.flush()
        }
    }
}
