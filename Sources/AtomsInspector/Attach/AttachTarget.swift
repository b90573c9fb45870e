import AtomsJournalReader
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which endpoint `atoms-inspect attach` connects to: a socket path, a pid, or the one
/// running program of this user with an endpoint.
package enum AttachTarget {
    /// The endpoints of running programs of this user, one per line: `PID PROGRAM SOCKET`,
    /// sorted by pid; empty when there are none.
    package static func listing() -> String {
        ControlDirectory.list().map { "\($0.pid) \($0.program) \($0.path)" }.joined(separator: "\n")
    }

    /// The socket path for `argument` (a path, a pid, or `nil` for the only endpoint running).
    ///
    /// - Throws: ``InspectorError`` with status 69 when no endpoint matches, 64 when several
    ///   do (the message lists them).
    package static func socketPath(for argument: String?) throws(InspectorError) -> String {
        let endpoints = ControlDirectory.list()
        guard let argument else {
            switch endpoints.count {
            case 0:
                throw InspectorError(.unavailable, "no running program of yours has a control endpoint in \(ControlDirectory.path()) — start one with its endpoint on (e.g. sample-numpad --journal j.jsonl --control)")
            case 1:
                return endpoints[0].path
            default:
                throw InspectorError(.usage, "\(endpoints.count) programs have a control endpoint — name one by pid or socket:\n\(listing())")
            }
        }
        if let pid = Int32(argument), pid > 0, !argument.contains("/") {
            guard let endpoint = endpoints.first(where: { $0.pid == pid }) else {
                throw InspectorError(.unavailable, "process \(pid) has no control endpoint in \(ControlDirectory.path()) — see atoms-inspect attach --list")
            }
            return endpoint.path
        }
        return argument
    }
}
