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
            var rest = Substring(text.dropFirst(5))
            if rest.hasPrefix("//") {
                rest = rest.dropFirst(2)
                let slash = rest.firstIndex(of: "/") ?? rest.endIndex
                let host = rest[..<slash]
                guard host.isEmpty || host.lowercased() == "localhost" else { return nil }
                rest = rest[slash...]
            }
            // A query or fragment is not part of the file's path.
            rest = rest.prefix { $0 != "?" && $0 != "#" }
            guard let decoded = percentDecoded(rest) else { return nil }
            path = decoded
        } else if text.contains("://") {
            return nil
        }
        guard !path.isEmpty else { return nil }
        return WriteSiteResolver.absolute(path.hasPrefix("/") ? path : root + "/" + path)
    }

    /// `%XX` escapes decoded as UTF-8 bytes; `nil` for a malformed escape or bytes that are
    /// not UTF-8.
    ///
    /// Written here because neither library decodes what editors send: FoundationEssentials has
    /// no `removingPercentEncoding`, and its `URL` and `URLComponents` re-encode a whole path
    /// that holds a raw character (a space, an `é`), escapes included, so
    /// `file:///My%20Dir/café.swift` would come back as `/My%20Dir/café.swift`.
    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard utf8.count >= 2, let high = hexValue(utf8.removeFirst()), let low = hexValue(utf8.removeFirst()) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
