#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A source's path as editors send it, made a path on disk.
///
/// The adapter says `pathFormat: path`, yet editors send what they have: an absolute path
/// (VS Code, Zed, nvim-dap's breakpoints), a `file://` URI with its bytes percent-encoded
/// (nvim-dap's run to cursor), or a path relative to the project (a launch configuration's
/// `${relativeFile}`). A relative path is taken against the source root.
enum ClientSourcePath {
    /// The absolute path `text` names, or `nil` for a URI of another scheme or host.
    static func path(_ text: String, root: String) -> String? {
        var path = text
        if text.prefix(5).lowercased() == "file:" {
            // FoundationEssentials' URL takes the host apart and decodes the path's `%XX`
            // escapes as UTF-8 (a query or fragment is not part of it); a path whose bytes are
            // not UTF-8 decodes to nothing.
            guard let url = URL(string: text) else { return nil }
            let host = url.host(percentEncoded: false) ?? ""
            guard host.isEmpty || host.lowercased() == "localhost" else { return nil }
            path = url.path(percentEncoded: false)
        } else if text.contains("://") {
            return nil
        }
        guard !path.isEmpty else { return nil }
        return WriteSiteResolver.absolute(path.hasPrefix("/") ? path : root + "/" + path)
    }
}
