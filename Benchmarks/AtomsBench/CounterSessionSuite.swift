import Foundation

/// The whole-process figure of recording: `sample-counter` fed 100,000 `inc` lines on stdin,
/// with and without `--journal`, interleaved, against the same program fed nothing (its
/// start-up and exit, the floor).
@MainActor
enum CounterSessionSuite {
    static let increments = 100_000

    struct Figures {
        var off: Double
        var on: Double
        var startup: Double
    }

    /// Medians of `repetitions` runs of each, in seconds; `nil` when `sample-counter` is not
    /// built next to atoms-bench (`swift build -c release`).
    static func run(repetitions: Int, directory: URL) throws -> Figures? {
        let counter = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("sample-counter").path
        guard FileManager.default.isExecutableFile(atPath: counter) else { return nil }
        let input = directory.appendingPathComponent("incs.txt")
        try Data(String(repeating: "inc\n", count: increments).utf8).write(to: input)
        let empty = directory.appendingPathComponent("empty.txt")
        try Data().write(to: empty)
        let journal = directory.appendingPathComponent("counter.jsonl").path
        var off: [Double] = [], on: [Double] = [], startup: [Double] = []
        for _ in 0..<repetitions {
            startup.append(try seconds(counter, [], stdin: empty))
            off.append(try seconds(counter, [], stdin: input))
            on.append(try seconds(counter, ["--journal", journal], stdin: input))
        }
        return Figures(off: InspectorSuite.median(off), on: InspectorSuite.median(on), startup: InspectorSuite.median(startup))
    }

    /// Seconds for one run of the program, its output discarded, until it exits.
    private static func seconds(_ executable: String, _ arguments: [String], stdin: URL) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardInput = try FileHandle(forReadingFrom: stdin)
        process.standardOutput = FileHandle.nullDevice
        return try InspectorSuite.seconds {
            try process.run()
            process.waitUntilExit()
        }
    }
}
