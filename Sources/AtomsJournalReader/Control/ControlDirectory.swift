#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where control endpoints live by default, and which are there: one folder per user,
/// `$XDG_RUNTIME_DIR/atoms-control`, or `atoms-control-UID` in the temporary directory when
/// that is unset; each endpoint is `PROGRAM.PID.sock` in it.
package enum ControlDirectory {
    /// An endpoint found in the folder.
    package struct Endpoint: Equatable, Sendable {
        /// The socket's path.
        package var path: String
        /// The program's name.
        package var program: String
        /// Its process id.
        package var pid: Int32
    }

    /// The folder, for `environment` (the process's own by default).
    package static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return joined(runtime, "atoms-control")
        }
        let temporary = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        return joined(temporary, "atoms-control-\(getuid())")
    }

    /// The default socket path for a program: `FOLDER/PROGRAM.PID.sock`, the folder made
    /// (mode 0700) when missing.
    ///
    /// - Throws: ``JournalError/cannotCreate(path:reason:)`` when the folder cannot be made,
    ///   or is not this user's alone.
    package static func socketPath(program: String, pid: Int32 = getpid()) throws(JournalError) -> String {
        let folder = path()
        if mkdir(folder, 0o700) != 0 && errno != EEXIST {
            throw .cannotCreate(path: folder, reason: UnixSocket.lastError)
        }
        var status = stat()
        guard lstat(folder, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == getuid(), status.st_mode & 0o077 == 0 else {
            throw .cannotCreate(path: folder, reason: "it is not a folder of this user's alone (mode 0700); remove it, or set XDG_RUNTIME_DIR")
        }
        let name = String(program.unicodeScalars.map { $0.isASCII && (Character($0).isLetter || Character($0).isNumber || "-_".unicodeScalars.contains($0)) ? Character($0) : "_" }.prefix(40))
        return joined(folder, "\(name.isEmpty ? "program" : name).\(pid).sock")
    }

    /// The endpoints in the folder whose process is still running, sorted by pid.
    package static func list(environment: [String: String] = ProcessInfo.processInfo.environment) -> [Endpoint] {
        let folder = path(environment: environment)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.compactMap { name -> Endpoint? in
            let parts = name.split(separator: ".")
            guard parts.count == 3, parts[2] == "sock", let pid = Int32(parts[1]), pid > 0 else { return nil }
            // A program killed without closing leaves its socket behind: skip it.
            guard kill(pid, 0) == 0 || errno == EPERM else { return nil }
            return Endpoint(path: joined(folder, name), program: String(parts[0]), pid: pid)
        }
        .sorted { ($0.pid, $0.path) < ($1.pid, $1.path) }
    }

    /// `folder/name`, with one slash between.
    private static func joined(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}

/// Socket files to remove when the process exits without closing its endpoints.
package enum ControlSocketCleanup {
    private static let paths = Mutex<Set<String>>([])
    private static let registered: Void = {
        atexit {
            for path in ControlSocketCleanup.paths.withLock({ $0 }) {
                unlink(path)
            }
        }
    }()

    /// Removes `path` at exit, unless ``forget(_:)`` is called first.
    package static func removeAtExit(_ path: String) {
        _ = registered
        paths.withLock { _ = $0.insert(path) }
    }

    /// The endpoint closed and removed its socket itself.
    package static func forget(_ path: String) {
        paths.withLock { _ = $0.remove(path) }
    }
}
