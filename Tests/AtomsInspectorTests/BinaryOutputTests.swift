import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// Where the built `atoms-inspect` writes: a full disk, a closed stdout, links, FIFOs and
/// directories give a documented status and one line on stderr, and an output path is written
/// where it points, never replaced by another file.
@MainActor
struct BinaryOutputTests {
    private var inspector: String {
        get throws {
            try #require(BuiltProducts.executable("atoms-inspect"))
        }
    }

    /// Runs `atoms-inspect` through the shell, so a test can redirect or close its streams.
    private func shell(_ script: String, _ arguments: String...) throws -> (status: Int32, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script, "sh", try inspector] + arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "exits, never dies by a signal")
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func aFullOrClosedStdoutExits74WithOneLine() throws {
        let directory = try TemporaryDirectory()
        let journal = try RecordedSessions.small(in: directory)
        for redirect in ["> /dev/full", ">&-"] {
            let result = try shell("\"$1\" log \"$2\" \(redirect)", journal)
            #expect(result.status == 74, "\(redirect)")
            #expect(result.stderr.hasPrefix("atoms-inspect: cannot write to standard output: "), "\(redirect)")
            #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(redirect): one line")
        }
    }

    @Test func outputPathsAreWrittenWhereTheyPoint() throws {
        let directory = try TemporaryDirectory()
        let journal = try RecordedSessions.small(in: directory)
        let fileManager = FileManager.default

        // A symbolic link stays a link; the file it names gets the output.
        let target = directory.path("target.dot")
        try "old".write(toFile: target, atomically: true, encoding: .utf8)
        try fileManager.setAttributes([.posixPermissions: 0o640], ofItemAtPath: target)
        let link = directory.path("link.dot")
        try fileManager.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(try shell("\"$1\" graph \"$2\" -o \"$3\"", journal, link).status == 0)
        #expect(try fileManager.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("digraph"))
        #expect(try fileManager.attributesOfItem(atPath: target)[.posixPermissions] as? Int == 0o640, "keeps its mode")

        // A FIFO is written through, not replaced by a regular file.
        let fifo = directory.path("graph.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = PipeDrain(path: fifo)
        #expect(try shell("\"$1\" graph \"$2\" -o \"$3\"", journal, fifo).status == 0)
        #expect(reader.text().hasPrefix("digraph"))
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO, "still a FIFO")

        // A device is written through: /dev/full reports the failed write.
        let full = try shell("\"$1\" graph \"$2\" -o /dev/full", journal)
        #expect(full.status == 74)
        #expect(full.stderr.contains("/dev/full") && full.stderr.contains("write failed"))
        #expect(lstat("/dev/full", &status) == 0 && (status.st_mode & S_IFMT) == S_IFCHR, "still a device")

        // A directory is refused.
        let refused = try shell("\"$1\" restore \"$2\" --at last -o \"$3\"", journal, directory.url.path)
        #expect(refused.status == 73)
        #expect(refused.stderr.contains("it is a directory"))

        // A new state file is private.
        let state = directory.path("state.json")
        #expect(try shell("\"$1\" restore \"$2\" --at last -o \"$3\"", journal, state).status == 0)
        #expect(try fileManager.attributesOfItem(atPath: state)[.posixPermissions] as? Int == 0o600)
    }
}

/// Reads a FIFO to its end on a thread of its own (opening it blocks until a writer comes).
private final class PipeDrain: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    init(path: String) {
        Thread {
            if let handle = FileHandle(forReadingAtPath: path) {
                self.data = handle.readDataToEndOfFile()
            }
            self.done.signal()
        }.start()
    }

    /// What was read; waits up to a minute for the writer to finish.
    func text() -> String {
        _ = done.wait(timeout: .now() + 60)
        return String(decoding: data, as: UTF8.self)
    }
}
