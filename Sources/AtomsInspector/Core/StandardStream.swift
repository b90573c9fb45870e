import AtomsJournalReader
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

/// Standard output or standard error, written with `write(2)`.
///
/// `FileHandle.write(_:)` traps when a write fails (a closed stream, a full disk, a pipe whose
/// reader is gone while SIGPIPE is ignored); these writes report the failure instead, so the
/// caller can exit with a message and a status.
package enum StandardStream: Sendable {
    case output
    case error

    private var descriptor: Int32 {
        switch self {
        case .output: STDOUT_FILENO
        case .error: STDERR_FILENO
        }
    }

    /// Writes every byte, retrying short and interrupted writes.
    ///
    /// - Returns: `nil` on success, or the `errno` of the failed write.
    @discardableResult
    package func write(_ bytes: some Collection<UInt8>) -> Int32? {
        FileText.writeAll(Array(bytes), to: descriptor)
    }

    /// Writes a string's UTF-8 bytes; see ``write(_:)-(Collection<UInt8>)``.
    @discardableResult
    package func write(_ text: String) -> Int32? {
        write(text.utf8)
    }
}
