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

/// Options every fact-printing command takes.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print the same facts as JSON.")
    var json = false
}

extension StepSpec: ExpressibleByArgument {
    public init?(argument: String) {
        self.init(argument)
    }
}

extension GraphCommand.Format: ExpressibleByArgument {}

extension ExportFormat: ExpressibleByArgument {}

/// Runs a command's work: prints inspector errors as one line on stderr and exits with their
/// status; prints journal warnings on stderr.
func runInspector(_ body: () throws(InspectorError) -> Void) throws {
    do {
        try body()
    } catch {
        StandardStream.error.write(error.explainingNewerFormat().description + "\n")
        throw ExitCode(error.status.rawValue)
    }
}

/// Opens the journal, showing progress on a terminal and warnings on stderr.
func openJournal(_ path: String) throws(InspectorError) -> InspectedJournal {
    let journal = try InspectedJournal(path: path, showProgress: isatty(STDERR_FILENO) != 0)
    for warning in journal.warnings {
        StandardStream.error.write(warning + "\n")
    }
    return journal
}

/// Prints text on stdout, ending with one newline.
func printOutput(_ text: String) {
    guard !text.isEmpty else { return }
    writeOutput((text.hasSuffix("\n") ? text : text + "\n").utf8)
}

/// Writes bytes on stdout. When stdout cannot be written (closed, a full disk, a pipe whose
/// reader is gone while SIGPIPE is ignored), says so in one line on stderr and exits 74.
func writeOutput(_ bytes: some Collection<UInt8>) {
    guard let code = StandardStream.output.write(bytes) else { return }
    StandardStream.error.write("atoms-inspect: cannot write to standard output: \(String(cString: strerror(code))) — check where the output goes (a closed pipe or a full disk)\n")
    exit(ExitStatus.ioError.rawValue)
}

/// Lines for stdout, written in blocks of about 64 KB.
struct BufferedOutput {
    private var buffer: [UInt8] = []

    mutating func write(line: String) {
        buffer.append(contentsOf: line.utf8)
        buffer.append(0x0A)
        if buffer.count >= 64 << 10 {
            flush()
        }
    }

    mutating func flush() {
        guard !buffer.isEmpty else { return }
        writeOutput(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
