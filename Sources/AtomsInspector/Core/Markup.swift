/// Text for XML and HTML documents (the JUnit file, the report page).
enum Markup {
    /// `text` escaped for element content and quoted attribute values; characters XML 1.0
    /// does not allow (control characters other than tab and line breaks, U+FFFE, U+FFFF)
    /// become `?`.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case _ where scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r":
                result += "?"  // not allowed in XML 1.0
            case "\u{FFFE}", "\u{FFFF}":
                result += "?"  // not characters in XML 1.0 either
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
