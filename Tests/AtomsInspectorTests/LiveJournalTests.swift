import AtomsInspector
import AtomsJournal
import Foundation
import Testing
import TestSupport

/// Journals read while their program writes them, and programs killed while they write.
// One at a time: the follower's pace and the kills' moments assume the recording child has a core of its own.
@Suite(.serialized)
struct LiveJournalTests {
    /// A built executable started with pipes; stdout lines are collected on a thread, and
    /// every wait suspends.
    final class Child: Sendable {
        private struct State {
            var lines: [String] = []
            var errorLines: [String] = []
            /// Whether stdout reached its end (or is not collected).
            var outputEnded = false
            var status: Int32?
        }

        private let state = Watched(State())
        private let input: FileHandle
        /// The process id.
        let pid: Int32

        init(_ name: String, _ arguments: [String], stdout: FileHandle? = nil, collectingStderr: Bool = false) throws {
            let executable = try #require(BuiltProducts.executable(name))
            let process = Process()
            let input = Pipe()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.standardInput = input
            self.input = input.fileHandleForWriting
            if collectingStderr {
                let errors = Pipe()
                process.standardError = errors
                Self.collectLines(from: errors.fileHandleForReading, isStderr: true, into: state)
            } else {
                process.standardError = FileHandle.nullDevice
            }
            if let stdout {
                process.standardOutput = stdout
                state.update { $0.outputEnded = true }
            } else {
                let output = Pipe()
                process.standardOutput = output
                Self.collectLines(from: output.fileHandleForReading, isStderr: false, into: state)
            }
            let state = state
            process.terminationHandler = { process in
                let status = process.terminationStatus
                state.update { $0.status = status }
            }
            try process.run()
            pid = process.processIdentifier
        }

        /// Reads `reader` on a thread of its own, line by line, into `lines` or `errorLines`.
        private static func collectLines(from reader: FileHandle, isStderr: Bool, into state: Watched<State>) {
            Thread.detachNewThread {
                var buffer = Data()
                while case let chunk = reader.availableData, !chunk.isEmpty {
                    buffer.append(chunk)
                    while let newline = buffer.firstIndex(of: 0x0A) {
                        let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                        buffer.removeSubrange(buffer.startIndex...newline)
                        state.update {
                            if isStderr { $0.errorLines.append(line) } else { $0.lines.append(line) }
                        }
                    }
                }
                state.update {
                    if !isStderr { $0.outputEnded = true }
                }
            }
        }

        /// Waits until a line of stderr satisfies `predicate`, up to `timeout` seconds.
        nonisolated(nonsending) func waitForStderr(timeout: Double, until predicate: (String) -> Bool) async -> Bool {
            await state.wait(timeout: timeout) { $0.errorLines.contains(where: predicate) }
        }

        /// Waits until stdout has more than `count` lines, up to `timeout` seconds.
        nonisolated(nonsending) func waitForOutput(beyond count: Int, timeout: Double) async -> Bool {
            await state.wait(timeout: timeout) { $0.lines.count > count }
        }

        /// Waits until a line of stdout satisfies `predicate`, up to `timeout` seconds.
        nonisolated(nonsending) func waitForOutput(timeout: Double, until predicate: (String) -> Bool) async -> Bool {
            await state.wait(timeout: timeout) { $0.lines.contains(where: predicate) }
        }

        /// Whether the process is still running.
        var isRunning: Bool { state.read { $0.status == nil } }

        func send(_ text: String) {
            try? input.write(contentsOf: Data(text.utf8))
        }

        func closeInput() {
            try? input.close()
        }

        var output: [String] { state.read { $0.lines } }

        /// Waits for the process to exit and its stdout to end, up to `timeout` seconds (then
        /// kills it and returns `nil`).
        nonisolated(nonsending) func wait(timeout: Double) async -> Int32? {
            let ended = await state.wait(timeout: timeout) { $0.status != nil }
            guard ended else {
                kill(pid, SIGKILL)
                _ = await state.wait(timeout: 10) { $0.status != nil }
                return nil
            }
            _ = await state.wait(timeout: 5) { $0.outputEnded }
            return state.read { $0.status }
        }
    }

    /// The lines in the file at `path` now.
    private func lineCount(_ path: String) -> Int {
        ((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data()).reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    }

    private func commands(_ count: Int) -> String {
        (0..<count).map { ["inc", "inc", "dec", "inc", "reset"][$0 % 5] }.joined(separator: "\n") + "\n"
    }

    /// `log --follow` on a journal a child writes prints what `log` prints on the finished
    /// journal, across segment rotations, and exits 0 at the end line.
    @Test(arguments: [256 << 10, 16 << 10])
    func followingAWrittenJournalPrintsWhatLogPrintsAfterwards(limit: Int) async throws {
        let directory = try TemporaryDirectory()
        let journal = directory.path("live")
        let followed = directory.path("followed.txt")
        #expect(FileManager.default.createFile(atPath: followed, contents: nil))
        let follower = try Child("atoms-inspect", ["log", "--follow", journal], stdout: try FileHandle(forWritingTo: URL(fileURLWithPath: followed)))
        // Without timing lines: the limits are sized so that a piece of 150 transactions
        // (about 13 KB untimed, 16 KB timed) never rotates a segment out before the
        // follower read it; this test is about following rotations, not timing.
        let writer = try Child("sample-counter", ["--journal", journal, "--journal-limit", String(limit), "--no-timing"])
        // In pieces, each once the follower printed the last, so it reads while the journal
        // grows and rotates.
        for piece in 1...20 {
            writer.send(commands(150))
            _ = await Poll.until(timeout: 60, every: .milliseconds(2)) { lineCount(followed) >= piece * 150 }
            #expect(lineCount(followed) >= piece * 150, "the follower printed piece \(piece)")
        }
        writer.closeInput()
        #expect(await writer.wait(timeout: 60) == 0)
        #expect(await follower.wait(timeout: 30) == 0, "the follower exits 0 at the end line")
        let segments = try SegmentDirectory.segments(in: journal)
        #expect(segments.count > 1, "the journal rotated")

        let log = try await BuiltProducts.run("atoms-inspect", ["log", journal])
        #expect(log.status == 0)
        let logged = log.stdout.split(separator: "\n")
        let lines = try String(contentsOfFile: followed, encoding: .utf8).split(separator: "\n")
        if segments.first?.number == 1 {
            #expect(lines == logged)
            #expect(lines.count == 3_002, "two watches, then 3,000 commands")
        } else {
            // Deleted segments are not in `log`; the follower read them as they were written.
            #expect(lines.count >= logged.count)
            #expect(Array(lines.suffix(logged.count)) == logged)
        }
    }

    /// A recording child killed with SIGKILL at random moments leaves a journal that opens,
    /// whose last step is at least the last one it had flushed. (Kills inside a segment
    /// rotation, at each of its moments, are covered in-process by `RotationCrashTests`.)
    @Test func aKilledRecorderLeavesAJournalThatOpensWithEverythingFlushed() async throws {
        var random = SeededGenerator(seed: 2026)
        for round in 0..<16 {
            let directory = try TemporaryDirectory()
            let journal = directory.path("killed")
            let child = try Child("sample-counter", ["--journal", journal, "--journal-limit", "4KB"])
            var flushed = -1
            let deadline = Date().addingTimeInterval(Double(5 + random.next(200)) / 1000)
            while Date() < deadline {
                child.send(String(repeating: "inc\n", count: 20) + "flush\n")
                try await Task.sleep(for: .microseconds(500))
            }
            kill(child.pid, SIGKILL)
            _ = await child.wait(timeout: 10)
            for line in child.output where line.hasPrefix("flushed ") {
                flushed = max(flushed, Int(line.dropFirst(8)) ?? -1)
            }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: journal)) ?? []
            guard flushed >= 0 || names.contains(where: { $0.hasSuffix(".jsonl") }) else {
                continue  // killed before the first segment appeared
            }
            let reader = try JournalReader(path: journal)
            #expect(reader.lastStep >= flushed, "round \(round): last step \(reader.lastStep), flushed \(flushed)")
            _ = try reader.state(at: reader.lastStep)
            _ = try reader.summary()
        }
    }

    /// `step` on a journal still being written: `last` moves to the newest step, `reload`
    /// says how many came.
    @Test func stepFollowsAGrowingJournal() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("growing.jsonl")
        let child = try Child("sample-counter", ["--journal", path])
        /// Sends commands and a flush; returns the step flushed.
        nonisolated(nonsending) func send(_ commands: String) async -> Int {
            let before = child.output.count
            child.send(commands + "flush\n")
            _ = await child.waitForOutput(beyond: before, timeout: 20)
            return child.output.last.flatMap { Int($0.dropFirst("flushed ".count)) } ?? -1
        }
        let first = await send("inc\ninc\n")
        let session = try StepSession(journal: try InspectedJournal(path: path))
        #expect(session.prompt == "[0/\(first)] ")
        let second = await send("inc\ninc\ninc\n")
        #expect(second == first + 3)
        _ = session.handle("last")
        #expect(session.position == second, "last is the newest step")
        let third = await send("dec\n")
        #expect(session.handle("reload").output.hasPrefix("reloaded \(path): steps 0…\(third), 1 new transaction"))
        #expect(session.position == second, "reload keeps the position")
        child.closeInput()
        #expect(await child.wait(timeout: 20) == 0)
        #expect(session.handle("reload").output.hasSuffix("(the recording has ended)"))
    }

    /// Ctrl-C ends `log --follow` with status 0, as does `--to` once reached.
    @Test func followStopsOnInterruptAndAtTo() async throws {
        let directory = try TemporaryDirectory()
        let follower = try Child("atoms-inspect", ["log", "--follow", directory.path("not-yet.jsonl")], collectingStderr: true)
        // The notice comes once the follower handles Ctrl-C.
        #expect(await follower.waitForStderr(timeout: 60) { $0.contains("waiting for the journal to be created") })
        kill(follower.pid, SIGINT)
        #expect(await follower.wait(timeout: 10) == 0)

        let path = directory.path("counter.jsonl")
        _ = try await BuiltProducts.run("sample-counter", ["--journal", path], stdin: "inc\ninc\ninc\n")
        let run = try await BuiltProducts.run("atoms-inspect", ["log", "--follow", path, "--to", "2", "--json"])
        #expect(run.status == 0)
        struct Step: Decodable { var step: Int }
        let steps = run.stdout.split(separator: "\n").map { try? JSONDecoder().decode(Step.self, from: Data($0.utf8)).step }
        #expect(steps == [1, 2])
    }
}
