import Foundation

/// A file's bytes, read-only, owned by this object: a regular file is mapped into memory (and
/// unmapped when this goes away); anything else (a FIFO, a pipe from a process substitution,
/// `/dev/stdin`, a device) is read to its end into memory, since a journal is read in any order.
///
/// The journal reader maps the file rather than reading it, and hands indexed pages back to the
/// kernel (`MADV_DONTNEED`) so that opening a large journal never holds it all in memory. That
/// is only sound on a mapping the reader made itself; Foundation's `Data` may own its memory in
/// other ways.
final class MappedFile: @unchecked Sendable {
    // Unchecked: the bytes are read-only and live as long as the object.
    private let base: UnsafeRawPointer?
    /// Whether `base` is a mapping (otherwise memory this object allocated).
    private let isMapped: Bool
    /// The file's size in bytes.
    let count: Int

    /// Maps (or reads) the file at `path`.
    ///
    /// - Throws: A POSIX error when the file cannot be opened, examined, mapped or read; `EISDIR`
    ///   for a directory.
    init(path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR:
            throw POSIXError(.EISDIR)
        case S_IFREG:
            isMapped = true
            count = Int(status.st_size)
            guard count > 0 else {
                base = nil
                return
            }
            let mapped = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0)
            guard let mapped, mapped != MAP_FAILED else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .ENOMEM)
            }
            base = UnsafeRawPointer(mapped)
        default:
            isMapped = false
            (base, count) = try Self.readToEnd(descriptor)
        }
    }

    /// Reads a stream to its end into memory this object owns.
    private static func readToEnd(_ descriptor: Int32) throws -> (UnsafeRawPointer?, Int) {
        var capacity = 1 << 16
        var count = 0
        guard var buffer = malloc(capacity) else {
            throw POSIXError(.ENOMEM)
        }
        while true {
            if count == capacity {
                capacity *= 2
                guard let grown = realloc(buffer, capacity) else {
                    free(buffer)
                    throw POSIXError(.ENOMEM)
                }
                buffer = grown
            }
            let received = read(descriptor, buffer + count, capacity - count)
            if received < 0 {
                if errno == EINTR { continue }
                let code = errno
                free(buffer)
                throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
            }
            if received == 0 {
                break
            }
            count += received
        }
        guard count > 0 else {
            free(buffer)
            return (nil, 0)
        }
        return (UnsafeRawPointer(buffer), count)
    }

    deinit {
        guard let base else { return }
        if isMapped {
            munmap(UnsafeMutableRawPointer(mutating: base), count)
        } else {
            free(UnsafeMutableRawPointer(mutating: base))
        }
    }

    var isEmpty: Bool { count == 0 }

    var startIndex: Int { 0 }

    /// The last byte, if any.
    var last: UInt8? {
        guard let base, count > 0 else { return nil }
        return base.load(fromByteOffset: count - 1, as: UInt8.self)
    }

    /// Runs `body` with the mapped bytes.
    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try body(UnsafeRawBufferPointer(start: base, count: count))
    }

    /// A copy of some of the bytes.
    func subdata(in range: Range<Int>) -> Data {
        withUnsafeBytes { Data(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }

    /// Tells the kernel the pages of `range` are not needed for now: they are read again from
    /// the page cache (or the file) if used.
    func releasePages(_ range: Range<Int>) {
        guard let base, isMapped else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = (Int(bitPattern: base) + range.lowerBound + page - 1) / page * page
        let end = (Int(bitPattern: base) + range.upperBound) / page * page
        guard end > start else { return }
        madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, MADV_DONTNEED)
    }
}
