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
    private func shell(_ script: String, _ arguments: String...) async throws -> (status: Int32, stderr: String) {
        let running = try Subprocess.Running("/bin/sh", ["-c", script, "sh", try inspector] + arguments)
        running.closeInput()
        let status = try await running.waitForExit(timeout: 120, drainingOutput: true)
        #expect(running.endedBySignal == false, "exits, never dies by a signal")
        return (status, running.stderr)
    }

    @Test func aFullOrClosedStdoutExits74WithOneLine() async throws {
        let directory = try TemporaryDirectory()
        let journal = try RecordedSessions.small(in: directory)
        for redirect in ["> /dev/full", ">&-"] {
            let result = try await shell("\"$1\" log \"$2\" \(redirect)", journal)
            #expect(result.status == 74, "\(redirect)")
            #expect(result.stderr.hasPrefix("atoms-inspect: cannot write to standard output: "), "\(redirect)")
            #expect(result.stderr.filter { $0 == "\n" }.count == 1, "\(redirect): one line")
        }
    }

    @Test func outputPathsAreWrittenWhereTheyPoint() async throws {
        let directory = try TemporaryDirectory()
        let journal = try RecordedSessions.small(in: directory)
        let fileManager = FileManager.default

        // A symbolic link stays a link; the file it names gets the output.
        let target = directory.path("target.dot")
        try "old".write(toFile: target, atomically: true, encoding: .utf8)
        try fileManager.setAttributes([.posixPermissions: 0o640], ofItemAtPath: target)
        let link = directory.path("link.dot")
        try fileManager.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(try await shell("\"$1\" graph \"$2\" -o \"$3\"", journal, link).status == 0)
        #expect(try fileManager.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("digraph"))
        #expect(try fileManager.attributesOfItem(atPath: target)[.posixPermissions] as? Int == 0o640, "keeps its mode")

        // A FIFO is written through, not replaced by a regular file.
        let fifo = directory.path("graph.fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        let reader = PipeDrain(path: fifo)
        #expect(try await shell("\"$1\" graph \"$2\" -o \"$3\"", journal, fifo).status == 0)
        #expect(await reader.text().hasPrefix("digraph"))
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO, "still a FIFO")

        // A device is written through: /dev/full reports the failed write.
        let full = try await shell("\"$1\" graph \"$2\" -o /dev/full", journal)
        #expect(full.status == 74)
        #expect(full.stderr.contains("/dev/full") && full.stderr.contains("write failed"))
        #expect(lstat("/dev/full", &status) == 0 && (status.st_mode & S_IFMT) == S_IFCHR, "still a device")

        // A directory is refused.
        let refused = try await shell("\"$1\" restore \"$2\" --at last -o \"$3\"", journal, directory.url.path)
        #expect(refused.status == 73)
        #expect(refused.stderr.contains("it is a directory"))

        // A new state file is private.
        let state = directory.path("state.json")
        #expect(try await shell("\"$1\" restore \"$2\" --at last -o \"$3\"", journal, state).status == 0)
        #expect(try fileManager.attributesOfItem(atPath: state)[.posixPermissions] as? Int == 0o600)
    }
}

/// Reads a FIFO to its end on a thread of its own (opening it blocks until a writer comes).
private final class PipeDrain: Sendable {
    private let data = Watched<Data?>(nil)

    init(path: String) {
        let data = data
        Thread.detachNewThread {
            let read = FileHandle(forReadingAtPath: path)?.readDataToEndOfFile() ?? Data()
            data.update { $0 = read }
        }
    }

    /// What was read; waits up to a minute for the writer to finish.
    func text() async -> String {
        _ = await data.wait(timeout: 60) { $0 != nil }
        return String(decoding: data.read { $0 } ?? Data(), as: UTF8.self)
    }
}
