import Foundation
import Synchronization

/// Inputs on which two readers of the same bytes disagree. They are reported, not trapped on:
/// the reader is being rewritten to give one verdict, and until then a fuzzer that
/// stopped at the first such input would find nothing else.
///
/// Each finding is printed on stderr. In a fuzzing process (``FuzzDriver``) the first few
/// inputs of each kind are also written to `.build-fuzz/findings/TARGET/`, with a line in its
/// `findings.txt` saying which reader said what; the tests read ``reported``.
package enum FuzzFindings {
    /// One input and what disagreed about it.
    package struct Finding: Sendable, Equatable {
        /// The fuzz target that found it.
        package var target: String
        /// What kind of disagreement (the same kind is one defect, most likely).
        package var kind: String
        /// Which reader said what.
        package var detail: String
        /// The input.
        package var input: [UInt8]
    }

    private struct Record {
        var folder: String?
        var countsByKind: [String: Int] = [:]
        var kept: [Finding] = []
    }

    private static let record = Mutex(Record())

    /// Inputs written per kind; later ones are only counted.
    static let inputsPerKind = 16

    /// Writes the first inputs of each kind into `folder` (made if missing) from now on;
    /// `nil` stops writing them.
    package static func keep(in folder: String?) {
        if let folder {
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        record.withLock { $0.folder = folder }
    }

    /// The findings of this process so far (the first ``inputsPerKind`` of each kind).
    package static var reported: [Finding] {
        record.withLock(\.kept)
    }

    /// Reports one disagreement about `input`.
    static func report(target: String, kind: String, detail: String, input: UnsafeRawBufferPointer) {
        let finding = Finding(target: target, kind: kind, detail: detail, input: Array(input))
        let (folder, isNew) = record.withLock { record -> (String?, Bool) in
            // An input run again (libFuzzer does, to look for leaks) is one finding.
            guard !record.kept.contains(where: { $0.kind == kind && $0.input == finding.input }) else { return (nil, false) }
            record.countsByKind[kind, default: 0] += 1
            guard record.countsByKind[kind]! <= inputsPerKind else { return (nil, false) }
            record.kept.append(finding)
            return (record.folder, true)
        }
        guard isNew else { return }
        let name = "\(kind)-\(String(fingerprint(finding.input), radix: 16))"
        FileHandle.standardError.write(Data("\(target): disagreement \(name): \(detail)\n".utf8))
        guard let folder else { return }
        _ = FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(finding.input))
        let note = Data("\(name): \(detail)\n".utf8)
        let notes = folder + "/findings.txt"
        if let handle = FileHandle(forWritingAtPath: notes) {
            handle.seekToEndOfFile()
            handle.write(note)
            try? handle.close()
        } else {
            _ = FileManager.default.createFile(atPath: notes, contents: note)
        }
    }

    /// FNV-1a of the bytes: a stable name for an input.
    private static func fingerprint(_ bytes: [UInt8]) -> UInt64 {
        bytes.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}
