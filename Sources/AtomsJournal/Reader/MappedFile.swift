import Foundation

/// A file mapped read-only into memory, owned by this object: unmapped when it goes away.
///
/// The journal reader maps the file rather than reading it, and hands indexed pages back to the
/// kernel (`MADV_DONTNEED`) so that opening a large journal never holds it all in memory. That
/// is only sound on a mapping the reader made itself; Foundation's `Data` may own its memory in
/// other ways.
final class MappedFile: @unchecked Sendable {
    // Unchecked: the mapping is read-only and lives as long as the object.
    private let base: UnsafeRawPointer?
    /// The file's size in bytes.
    let count: Int

    /// Maps the file at `path`.
    ///
    /// - Throws: A POSIX error when the file cannot be opened, examined or mapped.
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
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw POSIXError((status.st_mode & S_IFMT) == S_IFDIR ? .EISDIR : .EINVAL)
        }
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
    }

    deinit {
        if let base {
            munmap(UnsafeMutableRawPointer(mutating: base), count)
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
        guard let base else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let start = (Int(bitPattern: base) + range.lowerBound + page - 1) / page * page
        let end = (Int(bitPattern: base) + range.upperBound) / page * page
        guard end > start else { return }
        madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, MADV_DONTNEED)
    }
}
