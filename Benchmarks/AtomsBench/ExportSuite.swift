import AtomsInspector
import Foundation

/// `export` on the generated counter journal: its time against `log`'s on the same file in the
/// same run (whole processes, output to files), and its peak memory on 100,000 and 1,000,000
/// transactions (constant in the journal's length).
@MainActor
enum ExportSuite {
    struct Figures {
        var transactions = 0
        var fileBytes = 0
        var logSeconds = 0.0
        var exportSeconds = 0.0
        var exportedBytes = 0
        /// Peak RSS of an export, by transactions.
        var peakRSS: [(transactions: Int, bytes: Int)] = []
        /// The 500-todo session (nested structs, each change a list of 500): its
        /// transactions, `log` and `export` in the same run.
        var todoTransactions = 0
        var todoLogSeconds = 0.0
        var todoExportSeconds = 0.0
    }

    /// Runs the suite; `nil` when atoms-inspect is not built next to this executable.
    static func run(directory: URL, transactions: Int) throws -> Figures? {
        let inspector = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("atoms-inspect").path
        guard FileManager.default.isExecutableFile(atPath: inspector) else { return nil }
        var figures = Figures()
        let sizes = [transactions / 10, transactions]
        for size in sizes {
            let path = directory.appendingPathComponent("counter-\(size).jsonl").path
            try InspectorSuite.generate(path: path, transactions: size)
            figures.peakRSS.append((size, try peakRSS(ofExporting: path, into: directory.appendingPathComponent("rss-\(size)").path)))
        }
        let path = directory.appendingPathComponent("counter-\(transactions).jsonl").path
        figures.transactions = transactions
        figures.fileBytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        let logOutput = directory.appendingPathComponent("log.txt").path
        // Interleaved, so that both see the same machine.
        var logs: [Double] = []
        var exports: [Double] = []
        for run in 0..<3 {
            logs.append(InspectorSuite.seconds { _ = try? shell(inspector, ["log", path], output: logOutput) })
            let folder = directory.appendingPathComponent("export-\(run)").path
            exports.append(InspectorSuite.seconds { _ = try? shell(inspector, ["export", path, "-o", folder], output: nil) })
            figures.exportedBytes = ExportTable.allCases.reduce(0) { total, table in
                total + ((try? FileManager.default.attributesOfItem(atPath: folder + "/" + table.fileName(.ndjson))[.size] as? Int) ?? 0)
            }
            try? FileManager.default.removeItem(atPath: folder)
        }
        figures.logSeconds = InspectorSuite.median(logs)
        figures.exportSeconds = InspectorSuite.median(exports)

        // State of realistic size: every change row holds the whole value written.
        let todos = directory.appendingPathComponent("todos.jsonl").path
        figures.todoTransactions = max(1_000, transactions / 500)
        try ReportSuite.recordTodoSession(path: todos, transactions: figures.todoTransactions)
        var todoLogs: [Double] = []
        var todoExports: [Double] = []
        for run in 0..<3 {
            todoLogs.append(InspectorSuite.seconds { _ = try? shell(inspector, ["log", todos], output: logOutput) })
            let folder = directory.appendingPathComponent("todo-export-\(run)").path
            todoExports.append(InspectorSuite.seconds { _ = try? shell(inspector, ["export", todos, "-o", folder], output: nil) })
            try? FileManager.default.removeItem(atPath: folder)
        }
        figures.todoLogSeconds = InspectorSuite.median(todoLogs)
        figures.todoExportSeconds = InspectorSuite.median(todoExports)
        return figures
    }

    /// Runs this executable as `atoms-bench --export-once PATH DIR` and reads the peak RSS it
    /// reports (its own `VmHWM`, as ``InspectorSuite/peakRSS(ofInspecting:step:)``).
    static func peakRSS(ofExporting path: String, into directory: String) throws -> Int {
        let output = try InspectorSuite.shell(CommandLine.arguments[0], ["--export-once", path, directory])
        try? FileManager.default.removeItem(atPath: directory)
        return Int(String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    /// The child process of ``peakRSS(ofExporting:into:)``: export to JSON Lines, print its
    /// peak RSS in bytes, exit.
    static func exportOnce(path: String, directory: String) {
        do {
            _ = try ExportCommand.run([path], to: directory, options: .init())
            let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
            print((Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024)
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            exit(1)
        }
    }

    /// Runs a program with its stdout written to a file (created or emptied), or discarded.
    private static func shell(_ executable: String, _ arguments: [String], output: String?) throws -> Int32 {
        let handle: FileHandle
        if let output {
            // Opened in place, never replaced: a path such as /dev/null stays what it is.
            let descriptor = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        } else {
            handle = FileHandle.nullDevice
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = handle
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
