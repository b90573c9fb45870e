import Atoms
import AtomsJournal
import Foundation

/// The contract every sample follows: commands on stdin, one per line; `--journal PATH` records
/// the session; `--restore STATE_FILE` starts from a state written by `atoms-inspect restore`;
/// `state` prints the sample's atoms as one JSON object on one line, keyed by atom label;
/// `flush` writes what the journal holds and prints `flushed N` (the last step on disk);
/// `--journal-limit SIZE` keeps the journal within a size (`64KB`, `4MB`, …) as a folder of
/// segments; `--flight-recorder SIZE` keeps the last SIZE of journal in memory instead, written
/// on `SIGUSR1` (and to `--journal PATH` at a clean exit); each transaction's costs are
/// recorded too, for `atoms-inspect profile` (as a recorder does by default), unless
/// `--no-timing` is given (`--timing`, the default, is still accepted);
/// `--control` opens the recorder's control endpoint for `atoms-inspect attach`
/// (samples that read stdin off the main thread, with ``runAsync(showingState:state:handle:)``).
@MainActor
public final class SampleSession {
    /// The root all of the sample's atoms live in.
    public let root: AtomRoot
    private let name: String
    private var recorder: JournalRecorder?
    /// With `--flight-recorder` and `--journal PATH`: where the journal held is written at exit.
    private var exitDumpPath: String?
    /// Whether `--control` opened a control endpoint.
    public private(set) var isControlled = false

    /// Parses the command line and prepares the root (restoring and recording as asked).
    /// Exits with status 64 on bad usage, 66 or 65 when the state file cannot be loaded or the
    /// journal cannot be created.
    public init(name: String, arguments: [String] = Array(CommandLine.arguments.dropFirst())) {
        self.name = name
        root = AtomRoot()
        var journalPath: String?
        var restorePath: String?
        var keyframeInterval = JournalFormat.defaultKeyframeInterval
        var limit: Int?
        var flightRecorder: Int?
        var timing = true
        var timingFlag = false
        var control = false
        var remaining = arguments[...]
        func value(for option: String) -> String {
            guard let value = remaining.popFirst() else {
                Self.usage(name, "\(option) needs a value")
            }
            return value
        }
        while let argument = remaining.popFirst() {
            switch argument {
            case "--journal": journalPath = value(for: argument)
            case "--restore": restorePath = value(for: argument)
            case "--timing": (timing, timingFlag) = (true, true)
            case "--no-timing": (timing, timingFlag) = (false, true)
            case "--control": control = true
            case "--keyframe-interval":
                guard let interval = Int(value(for: argument)), interval > 0 else {
                    Self.usage(name, "--keyframe-interval needs a positive number")
                }
                keyframeInterval = interval
            case "--journal-limit":
                let text = value(for: argument)
                guard let bytes = JournalSizeLimit.parse(text), bytes >= JournalSizeLimit.minimum else {
                    Self.usage(name, "--journal-limit needs a size of at least 4KB, in bytes or with a KB, MB or GB suffix (got '\(text)')")
                }
                limit = bytes
            case "--flight-recorder":
                let text = value(for: argument)
                guard let bytes = JournalSizeLimit.parse(text), bytes >= JournalSizeLimit.minimum else {
                    Self.usage(name, "--flight-recorder needs a size of at least 4KB, in bytes or with a K, M or G suffix (got '\(text)')")
                }
                flightRecorder = bytes
            case "-h", "--help":
                print("""
                    usage: \(name) [--journal PATH [--journal-limit SIZE] [--no-timing]] [--flight-recorder SIZE] [--restore STATE_FILE] [--keyframe-interval N] [--control] < commands
                      --flight-recorder SIZE  keep the last SIZE of journal in memory (4M, 512K, 65536), written
                                              only when asked: kill -USR1 <pid> writes <name>.<pid>.<N>.jsonl into
                                              the folder of --journal PATH (or the current one), and a clean exit
                                              writes it to --journal PATH when given
                    """)
                exit(0)
            default: Self.usage(name, "unknown option '\(argument)'")
            }
        }
        if limit != nil && journalPath == nil {
            Self.usage(name, "--journal-limit needs --journal PATH")
        }
        if limit != nil && flightRecorder != nil {
            Self.usage(name, "--journal-limit and --flight-recorder both bound the journal: give one")
        }
        if timingFlag && journalPath == nil && flightRecorder == nil {
            Self.usage(name, "--timing and --no-timing need --journal PATH or --flight-recorder SIZE")
        }
        if control && (journalPath == nil || flightRecorder != nil) {
            Self.usage(name, "--control needs --journal PATH without --flight-recorder (attach steps through the journal file)")
        }
        if let restorePath {
            do {
                let (_, skipped) = try root.store.loadState(from: restorePath)
                for entry in skipped {
                    Self.warn(name, "\(restorePath): \(entry.atom) not restored: \(entry.reason)")
                }
            } catch {
                Self.fail(name, "\(error)", status: { if case .cannotRead = error { 66 } else { 65 } }())
            }
        }
        if let flightRecorder {
            startFlightRecorder(bytes: flightRecorder, exitDump: journalPath, keyframeInterval: keyframeInterval, timing: timing)
        } else if let journalPath {
            do {
                let recorder = try JournalRecorder(path: journalPath, limit: limit, keyframeInterval: keyframeInterval, program: name)
                recorder.recordsTiming = timing
                recorder.attach(to: root.store)
                self.recorder = recorder
            } catch {
                Self.fail(name, "\(error)", status: 73)
            }
        }
        if control, let recorder {
            do {
                let endpoint = try recorder.listen()
                isControlled = true
                Self.warn(name, "control endpoint \(endpoint.path) — atoms-inspect attach \(getpid())")
            } catch {
                Self.fail(name, "\(error)", status: 73)
            }
        }
    }

    /// Records into memory, dumping on `SIGUSR1` beside `exitDump` (or into the current
    /// directory), and to `exitDump` at a clean exit.
    private func startFlightRecorder(bytes: Int, exitDump: String?, keyframeInterval: Int, timing: Bool) {
        let folder = exitDump.map { ($0 as NSString).deletingLastPathComponent } ?? ""
        do {
            let recorder = try JournalRecorder(flightRecorder: bytes, keyframeInterval: keyframeInterval, program: name)
            recorder.recordsTiming = timing
            recorder.attach(to: root.store)
            try recorder.dumpOnSignal(SIGUSR1, into: folder.isEmpty ? "." : folder)
            self.recorder = recorder
            exitDumpPath = exitDump
            Self.warn(name, "flight recorder keeps the last \(bytes) bytes of journal in memory — kill -USR1 \(getpid()) writes them into \(folder.isEmpty ? "." : folder)")
        } catch {
            Self.fail(name, "\(error)", status: 73)
        }
    }

    /// With `--control`: prints `value()` now and after every transaction that changes it, so
    /// the program's own output follows an attached inspector's jumps.
    public func showWhileControlled(_ value: @escaping @MainActor () -> String) {
        guard isControlled else { return }
        var shown = value()
        print(shown)
        fflush(nil)
        root.store.observeTransactions { _ in
            let now = value()
            guard now != shown else { return }
            shown = now
            print(now)
            fflush(nil)
        }
    }

    /// Reads commands until end of input. `state` prints `state()`; other words go to
    /// `handle`, which returns `false` for an unknown command (reported on stderr; the session
    /// goes on). Closes the journal at the end.
    public func run(state: () -> [String: any Encodable], handle: (_ command: String, _ argument: String) throws -> Bool) {
        if isControlled {
            // Control requests run on the main actor, which this loop keeps reading stdin.
            Self.usage(name, "--control is taken by sample-todo and sample-numpad, whose commands are read off the main thread")
        }
        while let line = readLine() {
            guard let (command, argument) = respond(to: line, state: state) else { continue }
            report(command, argument) { try handle(command, argument) }
        }
        finish()
    }

    /// Like ``run(state:handle:)``, for samples with asynchronous atoms: stdin is read on
    /// another thread, so tasks, debounces and publishers keep running on the main actor
    /// between commands, and a command may `await` (e.g. until a search settles).
    /// With `showingState` and `--control`, `state()` is printed as `state` prints it now and
    /// after every transaction that changes it, so the program's own output shows what an
    /// attached inspector moved or set.
    public func runAsync(showingState: Bool = false, state: @escaping @MainActor () -> [String: any Encodable], handle: (_ command: String, _ argument: String) async throws -> Bool) async {
        if showingState {
            showWhileControlled { Self.json(state()) }
        }
        for await line in Self.standardInputLines() {
            guard let (command, argument) = respond(to: line, state: state) else { continue }
            let outcome: Result<Bool, any Error>
            do {
                outcome = .success(try await handle(command, argument))
            } catch {
                outcome = .failure(error)
            }
            report(command, argument) { try outcome.get() }
        }
        finish()
    }

    /// Splits a line into command and argument; answers `state` (and skips blank and `#`
    /// lines) itself, returning `nil`.
    private func respond(to line: String, state: () -> [String: any Encodable]) -> (String, String)? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { return nil }
        let command = String(trimmed.prefix { $0 != " " })
        let argument = trimmed.dropFirst(command.count).trimmingCharacters(in: .whitespaces)
        if command == "flush" {
            do {
                try recorder?.flush()
                print("flushed \(root.store.committedTransactions)")
            } catch {
                Self.warn(name, "flush: \(error)")
            }
            fflush(nil)
            return nil
        }
        guard command != "state" else {
            print(Self.json(state()))
            fflush(nil)  // all streams: `state` output is read line by line by scripts
            return nil
        }
        return (command, argument)
    }

    /// Reports an unknown command or a failed one on stderr.
    private func report(_ command: String, _ argument: String, _ outcome: () throws -> Bool) {
        do {
            if try !outcome() {
                let line = argument.isEmpty ? command : "\(command) \(argument)"
                Self.warn(name, "unknown command '\(line)' — type one of the sample's commands (see samples/README.md)")
            }
        } catch {
            Self.warn(name, "\(command): \(error)")
        }
    }

    /// Closes the journal, if recording; a flight recorder's goes to `--journal PATH`, if given.
    private func finish() {
        do {
            try recorder?.close()
            if let exitDumpPath {
                try recorder?.dump(to: exitDumpPath)
            }
        } catch {
            Self.fail(name, "\(error)", status: 74)
        }
    }

    /// Lines of standard input, read on a background thread with read(2), not stdio: a
    /// thread waiting in `readLine()` holds stdin's lock, which `fflush(nil)` on the main
    /// actor would then wait for.
    private static func standardInputLines() -> AsyncStream<String> {
        let (lines, continuation) = AsyncStream<String>.makeStream()
        let reader = Thread {
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                pending.append(contentsOf: buffer[..<count])
                while let newline = pending.firstIndex(of: 0x0A) {
                    continuation.yield(String(decoding: pending[..<newline], as: UTF8.self))
                    pending.removeSubrange(...newline)
                }
            }
            if !pending.isEmpty {
                continuation.yield(String(decoding: pending, as: UTF8.self))
            }
            continuation.finish()
        }
        reader.start()
        return lines
    }

    /// One line of JSON with keys sorted.
    static func json(_ values: [String: any Encodable]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let fields = values.keys.sorted().map { key in
            let value = (try? encoder.encode(values[key]!)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
            return "\"\(key)\":\(value)"
        }
        return "{" + fields.joined(separator: ",") + "}"
    }

    private static func warn(_ name: String, _ message: String) {
        FileHandle.standardError.write(Data("\(name): \(message)\n".utf8))
    }

    private static func usage(_ name: String, _ message: String) -> Never {
        fail(name, "\(message) — usage: \(name) [--journal PATH] [--restore STATE_FILE] [--control] < commands", status: 64)
    }

    private static func fail(_ name: String, _ message: String, status: Int32) -> Never {
        warn(name, message)
        exit(status)
    }
}
