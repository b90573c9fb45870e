import Atoms
import Foundation

extension JournalRecorder {
    /// Creates a flight recorder: it keeps the last `bytes` of journal in memory, starting at a
    /// keyframe, and writes nothing until asked, by ``dump(to:)`` or by a signal the program
    /// opts into with ``dumpOnSignal(_:into:)``. A dump is an ordinary journal file that every
    /// `atoms-inspect` command reads, opening at its first step kept.
    ///
    /// Memory is kept as a bounded journal's segments are (a new one at a quarter of `bytes`,
    /// the oldest dropped), so it stays within `bytes` plus a quarter; the recorder's thread
    /// does the work, and the app's thread pays what it pays for a journal file.
    ///
    /// ## Example
    /// ```swift
    /// let recorder = try JournalRecorder(flightRecorder: 4 << 20, program: "app")
    /// recorder.attach(to: root.store)
    /// try recorder.dumpOnSignal()             // kill -USR1 <pid> writes ./app.<pid>.1.jsonl
    /// // … when the program notices something wrong:
    /// try recorder.dump(to: "what-happened.jsonl")
    /// ```
    ///
    /// - Parameters:
    ///   - bytes: About how much journal to keep, at least 4 KB.
    ///   - keyframeInterval: The fewest transactions between keyframes (see
    ///     ``init(sink:keyframeInterval:redacting:program:)``).
    ///   - redacting: Atom types whose values are never recorded.
    ///   - program: A name for the recording program, stored in the header and naming the
    ///     dumps a signal writes.
    /// - Throws: ``JournalError`` when `bytes` is below 4 KB.
    public convenience init(
        flightRecorder bytes: Int,
        keyframeInterval: Int = JournalFormat.defaultKeyframeInterval,
        redacting: [any Atom.Type] = [],
        program: String? = nil
    ) throws {
        let sink = try FlightRecorderSink(capacity: bytes)
        self.init(sink: sink, file: nil, flightRecorder: sink, keyframeInterval: keyframeInterval, redacting: redacting, program: program)
    }

    /// Writes what the flight recorder holds to `path`: a journal opening at the first step
    /// kept (a keyframe) and holding every transaction committed before this call, ended by
    /// an end line. The header says `limit` (the bytes kept) and `startStep` (the step
    /// recording started at), so `atoms-inspect stats` tells how many earlier transactions
    /// were dropped. Recording goes on; each call writes what is held then.
    ///
    /// The file is written beside `path` and renamed over it, so `path` never holds half a
    /// journal; a new file has mode 0600 (journals may hold private state). After ``close()``
    /// it still writes what was held when the recorder closed.
    ///
    /// - Parameter path: The journal file to write (replaced when it exists).
    /// - Returns: The steps the dump holds, from its keyframe to its last transaction.
    /// - Throws: ``JournalError`` when this recorder is not a flight recorder, it was not
    ///   attached yet, or the file cannot be written.
    @discardableResult
    public func dump(to path: String) throws -> ClosedRange<Int> {
        let flight = try flightRecorder(for: path)
        try flush()
        return try flight.dump(to: path)
    }

    /// Writes a dump, as ``dump(to:)`` does, each time the process receives `signal`, until
    /// the recorder closes: into `directory`, as `program.pid.N.jsonl` (N counting from 1, so
    /// repeated signals never overwrite a dump), and says where in one line on stderr
    /// (`app: flight recorder: wrote ./app.4242.1.jsonl (steps 5120…9731)`).
    ///
    /// The dump is written off the main actor, so a program whose main thread is stuck still
    /// writes one. It holds every transaction committed before the signal: the dump waits (at
    /// most ten seconds) for the recorder's thread to build those, and not for what the program
    /// commits after, so a busy program's dump is written at once.
    ///
    /// The signal's default action is turned off first (`SIG_IGN`), as Dispatch requires, and
    /// stays off after the recorder closes.
    ///
    /// - Parameters:
    ///   - signal: The signal to dump on; `SIGUSR1` by default.
    ///   - directory: The folder dumps go to; the current directory by default.
    /// - Throws: ``JournalError`` when this recorder is not a flight recorder, `directory` is
    ///   not a folder this process can write to, or the signal cannot be caught (`SIGKILL`).
    public func dumpOnSignal(_ signal: Int32 = SIGUSR1, into directory: String = ".") throws {
        let flight = try flightRecorder(for: directory)
        let handler = try FlightRecorderSignal(signal: signal, directory: directory, program: dumpName, sink: flight)
        flight.whenClosed { handler.cancel() }
    }

    /// The flight recorder's sink, or an error about `path` for any other recorder.
    private func flightRecorder(for path: String) throws(JournalError) -> FlightRecorderSink {
        guard let flight = flightRecorder else {
            throw .cannotCreate(path: path, reason: "this recorder writes its journal as it records; only a flight recorder (JournalRecorder(flightRecorder:)) writes dumps")
        }
        return flight
    }

    /// The program's name as a file name's first part: letters, digits, `.`, `_` and `-`.
    private var dumpName: String {
        let name = program ?? CommandLine.arguments.first.map { ($0 as NSString).lastPathComponent } ?? "program"
        let kept = name.unicodeScalars.map { scalar in
            scalar.properties.isAlphabetic && scalar.isASCII || ("0"..."9").contains(scalar) || "._-".unicodeScalars.contains(scalar) ? Character(scalar) : "-"
        }
        return kept.isEmpty ? "program" : String(kept)
    }
}
