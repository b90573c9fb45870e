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

/// The lines entered at the prompt, kept across sessions in
/// `$XDG_STATE_HOME/atoms-inspect/history` (`~/.local/state/atoms-inspect/history` when
/// `XDG_STATE_HOME` is unset): one line per entry, the newest last, at most ``limit`` of them,
/// readable by its owner only (mode 0600).
package struct PromptHistory {
    /// The file.
    package let path: String
    /// The lines, oldest first.
    package private(set) var lines: [String]
    /// The most lines kept.
    package static let limit = 1000

    /// The history file's path for an environment; `nil` when neither `XDG_STATE_HOME` nor
    /// `HOME` says where it goes.
    package static func path(environment: [String: String]) -> String? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return state + "/atoms-inspect/history"
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return home + "/.local/state/atoms-inspect/history"
    }

    /// Reads the history at `path` (none yet: empty).
    package init(path: String) {
        self.path = path
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        lines = Array(text.split(separator: "\n").map(String.init).suffix(Self.limit))
    }

    /// Adds a line (not a blank one, nor a repeat of the last) and writes the file.
    ///
    /// - Returns: Whether it was added.
    /// - Throws: ``InspectorError`` (cannotCreate) when the file cannot be written.
    @discardableResult
    package mutating func add(_ line: String) throws(InspectorError) -> Bool {
        guard !line.allSatisfy(\.isWhitespace), !line.contains("\n"), line != lines.last else { return false }
        lines.append(line)
        if lines.count > Self.limit {
            lines.removeFirst(lines.count - Self.limit)
        }
        try save()
        return true
    }

    /// Writes the lines to a new file beside the history, then renames it over: a reader
    /// never sees half a file.
    private func save() throws(InspectorError) {
        let folder = FileText.folder(of: path)
        let temporary = path + ".\(getpid()).tmp"
        let text = lines.map { $0 + "\n" }.joined()
        let problem: String? = {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                return "cannot create \(folder)"
            }
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { return String(cString: strerror(errno)) }
            defer { close(descriptor) }
            let written = text.utf8CString.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count - 1) }
            guard written == text.utf8.count, fchmod(descriptor, 0o600) == 0, rename(temporary, path) == 0 else {
                let reason = String(cString: strerror(errno))
                unlink(temporary)
                return reason
            }
            return nil
        }()
        if let problem {
            throw InspectorError(.cannotCreate, "cannot write the prompt's history \(path): \(problem) — check that folder's permissions, or set XDG_STATE_HOME")
        }
    }
}
