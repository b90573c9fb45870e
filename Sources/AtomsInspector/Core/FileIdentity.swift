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

/// What tells whether a regular file changed: its device and inode, size, and modification
/// and change times. Taken before a journal is opened, it lets `reload` skip reopening a file
/// that nothing wrote since.
struct FileIdentity: Equatable, Sendable {
    private var device: UInt64
    private var inode: UInt64
    private var size: Int64
    private var modified: [Int]
    private var changed: [Int]

    /// The identity of the regular file at `path`; `nil` for a folder (a bounded journal's
    /// last segment grows without changing the folder) or when it cannot be read.
    init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        #if canImport(Darwin)
        modified = [status.st_mtimespec.tv_sec, status.st_mtimespec.tv_nsec]
        changed = [status.st_ctimespec.tv_sec, status.st_ctimespec.tv_nsec]
        #else
        modified = [status.st_mtim.tv_sec, status.st_mtim.tv_nsec]
        changed = [status.st_ctim.tv_sec, status.st_ctim.tv_nsec]
        #endif
    }

    /// Whether `path` names a folder.
    static func isFolder(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// The file's size in bytes.
    var byteCount: Int { Int(size) }
}
