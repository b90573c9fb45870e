import Foundation

/// R2a: allocations per transaction on the app's thread and on the recorder's side, journal
/// off and on, counted by `journal-allocations` with malloc-interposer preloaded.
@MainActor
enum AllocationSuite {
    /// The counts of one workload: `off`/`on`, each with `app` and `others` per transaction.
    typealias Workload = [String: [String: Double]]

    /// The counts by workload (`small`, `derived`); `nil` when `journal-allocations` or the
    /// interposer library is not built next to atoms-bench (`swift build -c release`).
    static func run(transactions: Int) throws -> [String: Workload]? {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let counter = directory.appendingPathComponent("journal-allocations").path
        let interposer = directory.appendingPathComponent("libMallocInterposerSwift.so").path
        guard FileManager.default.isExecutableFile(atPath: counter), FileManager.default.fileExists(atPath: interposer) else {
            return nil
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: counter)
        process.arguments = [String(transactions)]
        process.environment = ProcessInfo.processInfo.environment.merging(["LD_PRELOAD": interposer]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try JSONDecoder().decode([String: Workload].self, from: data)
    }
}
