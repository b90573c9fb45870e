import CAtomsMapping
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading journals through a mapping of their files rather than copies out of the page cache.
///
/// A mapped file that shrinks under its reader raises SIGBUS at the next touch of a page past
/// its new end. The handler ``enable()`` installs maps zero pages there instead (to the
/// mapping's end) and marks the mapping as changed, so the read goes on and the reader reports
/// ``JournalError/changedWhileReading(path:)``, as it does reading with `pread`. A handler is
/// the process's business, not a library's: only the `atoms-inspect` executable calls
/// ``enable()``; everywhere else journals are read with `pread`.
package enum JournalMapping {
    /// Installs the process-wide SIGBUS handler and, from then on, maps the journals opened.
    ///
    /// - Returns: Whether the handler is installed (journals are read with `pread` otherwise).
    @discardableResult
    package static func enable() -> Bool {
        atoms_mapping_install_handler() == 0
    }

    /// Whether files are mapped: only once the handler is installed.
    package static var isEnabled: Bool { atoms_mapping_handler_installed() != 0 }
}

/// A regular file's first `count` bytes mapped read-only, registered with the SIGBUS handler.
final class MappedBytes: @unchecked Sendable {
    // Unchecked: the mapping is read-only and unmapped only in `deinit`; `bytes` never changes.
    /// The mapped bytes, valid while this object lives.
    let bytes: UnsafeRawBufferPointer
    private let slot: Int32

    /// Maps `count` bytes of `descriptor` (a regular file), or `nil` when the handler is not
    /// installed, the file is empty, or it cannot be mapped or registered.
    init?(descriptor: Int32, count: Int) {
        guard count > 0, JournalMapping.isEnabled else { return nil }
        guard let base = mmap(nil, count, PROT_READ, MAP_PRIVATE, descriptor, 0),
            base != UnsafeMutableRawPointer(bitPattern: -1)
        else { return nil }
        let slot = atoms_mapping_register(base, count)
        guard slot >= 0 else {
            munmap(base, count)
            return nil
        }
        self.slot = slot
        bytes = UnsafeRawBufferPointer(start: base, count: count)
    }

    deinit {
        atoms_mapping_unregister(slot)
        munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
    }

    /// Gives back the pages wholly inside `range` (file offsets) that a reader has passed:
    /// their bytes stay in the page cache, but no longer count in the process's resident size,
    /// so reading a journal in order keeps it as small as reading it with `pread`. Touched
    /// again, they are mapped again.
    func release(_ range: Range<Int>) {
        let page = Self.pageSize
        let lower = (range.lowerBound + page - 1) / page * page
        let upper = range.upperBound / page * page
        guard lower < upper else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: bytes.baseAddress! + lower), upper - lower, Int32(MADV_DONTNEED))
    }

    /// Maps the pages of `range` in one call, rather than one fault at a time (Linux 5.14's
    /// `MADV_POPULATE_READ`; elsewhere, or on an older kernel, a no-op).
    func populate(_ range: Range<Int>) {
        #if os(Linux)
        let page = Self.pageSize
        let lower = range.lowerBound / page * page
        let upper = min(bytes.count, range.upperBound)
        guard lower < upper else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: bytes.baseAddress! + lower), upper - lower, 22)
        #endif
    }

    private static let pageSize = max(4096, Int(sysconf(Int32(_SC_PAGESIZE))))

    /// Whether a page was found gone (the file shrank) and zeros were read in its place.
    var hasChanged: Bool { atoms_mapping_changed(slot) != 0 }
}
