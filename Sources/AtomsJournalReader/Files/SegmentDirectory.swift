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

/// The folder of a bounded journal: numbered segment files (`00000001.jsonl`, …), each a
/// journal of its own that starts with a header and a keyframe.
///
/// Segments are named by number so that listing the folder gives them in recording order
/// without opening them. A new segment is written to a hidden temporary file and renamed into
/// place once its opening lines are there, so a reader (or a crash) never sees a segment
/// without its keyframe.
package enum SegmentDirectory {
    /// The name of segment `number`.
    package static func name(of number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits + ".jsonl"
    }

    /// The segment number a file name holds, or `nil` for any other file.
    package static func number(ofName name: String) -> Int? {
        guard name.hasSuffix(".jsonl") else { return nil }
        let digits = name.dropLast(".jsonl".count)
        guard digits.count >= 8, digits.count <= 18, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else {
            return nil
        }
        return Int(digits)
    }

    /// The segments in a folder, oldest first.
    ///
    /// - Throws: A POSIX error when the folder cannot be listed.
    package static func segments(in directory: String) throws -> [(number: Int, path: String)] {
        guard let folder = opendir(directory) else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        defer { closedir(folder) }
        var found: [(number: Int, path: String)] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let number = number(ofName: name) {
                found.append((number, directory + "/" + name))
            }
        }
        return found.sorted { $0.number < $1.number }
    }

    /// The name a segment is written under before it is renamed into place.
    static func temporaryName(of number: Int) -> String {
        "." + name(of: number) + ".tmp"
    }
}

/// Writes a bounded journal's segments: starts each one atomically and deletes the oldest so
/// that the folder stays within the size limit plus one segment. Used by the sink's writer
/// thread only.
package final class SegmentWriter {
    let directory: String
    package let limit: Int
    /// Sizes of the segments on disk, oldest first (the last one is being written).
    private var segments: [(number: Int, bytes: Int)] = []
    /// For the crash tests: called at each step of a rotation (after the temporary file is
    /// written, and after it is renamed); `nil` when recording for real.
    private let rotationHook: SegmentRotationHook?

    /// The smallest limit accepted: a segment must hold a keyframe and some transactions.
    package static let minimumLimit = JournalSizeLimit.minimum

    /// The size at which a new segment starts: a quarter of the limit, so the journal keeps
    /// at least three full segments of history and stays within 1.25 times the limit.
    package static func segmentSize(forLimit limit: Int) -> Int {
        max(1 << 10, limit / 4)
    }

    /// Prepares the folder: creates it (mode 0700), or empties it of an earlier recording's
    /// segments. A file at the path (an unbounded journal, say) is replaced, as the unbounded
    /// recorder replaces one; any other file in the folder is left alone.
    package init(directory: String, limit: Int, rotationHook: SegmentRotationHook? = nil) throws(JournalError) {
        self.directory = directory
        self.limit = limit
        self.rotationHook = rotationHook
        var status = stat()
        if lstat(directory, &status) == 0, status.st_mode & S_IFMT != S_IFDIR {
            guard unlink(directory) == 0 else {
                throw .cannotCreate(path: directory, reason: Self.errorText())
            }
        }
        if mkdir(directory, 0o700) != 0, errno != EEXIST {
            throw .cannotCreate(path: directory, reason: Self.errorText())
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw .cannotCreate(path: directory, reason: "the folder cannot be listed")
        }
        for name in names {
            let isTemporary = name.hasPrefix(".") && name.hasSuffix(".jsonl.tmp")
                && SegmentDirectory.number(ofName: String(name.dropFirst().dropLast(4))) != nil
            if isTemporary || (SegmentDirectory.number(ofName: name) != nil && Self.isJournal(directory + "/" + name)) {
                unlink(directory + "/" + name)
            }
        }
    }

    /// Whether a file starts as a journal does (so only segments are ever deleted).
    private static func isJournal(_ path: String) -> Bool {
        FileText.prefix(32, ofFileAt: path)?.starts(with: #"{"format":"atoms-journal""#.utf8) == true
    }

    /// Starts the next segment with `opening` and returns its open descriptor; the previous
    /// descriptor (if any) is closed by the caller once this returns. Then deletes the oldest
    /// segments while the journal is over its limit.
    package func startSegment(opening: [UInt8]) throws(JournalError) -> Int32 {
        let number = (segments.last?.number ?? 0) + 1
        let temporary = directory + "/" + SegmentDirectory.temporaryName(of: number)
        let final = directory + "/" + SegmentDirectory.name(of: number)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .cannotCreate(path: final, reason: Self.errorText())
        }
        do throws(JournalError) {
            try Self.write(opening, to: descriptor, path: final)
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        rotationHook?(.temporaryWritten(segment: number))
        // The rename makes the segment appear whole: header and keyframe are there before any
        // reader (or a crash) can see it.
        guard rename(temporary, final) == 0 else {
            let reason = Self.errorText()
            close(descriptor)
            unlink(temporary)
            throw .cannotCreate(path: final, reason: reason)
        }
        segments.append((number, opening.count))
        rotationHook?(.renamed(segment: number))
        deleteOldSegments()
        return descriptor
    }

    /// Counts bytes appended to the current segment.
    package func didWrite(_ count: Int) {
        guard !segments.isEmpty else { return }
        segments[segments.count - 1].bytes += count
    }

    /// Deletes the oldest segments while the whole journal is over the limit, keeping the
    /// current one.
    private func deleteOldSegments() {
        var total = segments.reduce(0) { $0 + $1.bytes }
        while total > limit, segments.count > 1 {
            let oldest = segments.removeFirst()
            unlink(directory + "/" + SegmentDirectory.name(of: oldest.number))
            total -= oldest.bytes
        }
    }

    /// Writes all of `bytes`, retrying partial writes.
    package static func write(_ bytes: some ContiguousBytes, to descriptor: Int32, path: String) throws(JournalError) {
        if FileText.writeAll(bytes, to: descriptor) != nil { throw .writeFailed(path: path, reason: errorText()) }
    }

    private static func errorText() -> String {
        String(cString: strerror(errno))
    }
}
