/// Text for a terminal screen: how many columns it takes, cut to fit, with the journal's
/// control characters made harmless, and painted with attributes.
///
/// Every string the timeline draws goes through ``fitted(_:to:)``: a value recorded with an
/// escape sequence in it shows as text and never reaches the terminal as a command.
package enum ScreenText {
    /// How a run of text is drawn.
    package enum Attribute: Sendable, Equatable {
        case plain, bold, dim, reverse, cyan, yellow, green, red
    }

    /// A run of text with one attribute.
    package struct Span: Sendable, Equatable {
        /// The text (already fitted: printable, measured).
        package var text: String
        /// How it is drawn.
        package var attribute: Attribute

        /// Creates a span.
        package init(_ text: String, _ attribute: Attribute = .plain) {
            self.text = text
            self.attribute = attribute
        }
    }

    /// The columns a character takes: 2 for East Asian wide and emoji, 0 for combining marks,
    /// 1 otherwise.
    package static func width(of character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        let value = first.value
        if first.properties.generalCategory == .nonspacingMark || first.properties.generalCategory == .enclosingMark || value == 0x200B || value == 0x200D {
            return 0
        }
        let wide: [ClosedRange<UInt32>] = [
            0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
            0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD,
        ]
        return wide.contains { $0.contains(value) } ? 2 : 1
    }

    /// The columns `text` takes.
    package static func width(of text: String) -> Int {
        text.reduce(0) { $0 + width(of: $1) }
    }

    /// `text` made printable and cut to `columns`: control characters (C0, DEL, C1) become
    /// `?`, tabs and line breaks a space, and a text too long ends with `…`.
    package static func fitted(_ text: String, to columns: Int) -> String {
        guard columns > 0 else { return "" }
        var result = ""
        var used = 0
        for character in text {
            let shown = printable(character)
            let columnsNeeded = width(of: shown)
            if used + columnsNeeded > columns {
                // Make room for the ellipsis.
                while used > columns - 1, let last = result.popLast() {
                    used -= width(of: last)
                }
                return result + "…"
            }
            result.append(shown)
            used += columnsNeeded
        }
        return result
    }

    private static func printable(_ character: Character) -> Character {
        guard let scalar = character.unicodeScalars.first else { return character }
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: return " "
        case 0x00...0x1F, 0x7F...0x9F: return "?"
        default:
            // A grapheme that carries a control character after its first scalar (CR LF).
            return character.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) } ? "?" : character
        }
    }

    /// A line of spans as the terminal draws it: with SGR codes when `colored`, plain text
    /// otherwise.
    package static func line(_ spans: [Span], colored: Bool) -> String {
        guard colored else { return spans.map(\.text).joined() }
        var text = ""
        for span in spans {
            let code: String? =
                switch span.attribute {
                case .plain: nil
                case .bold: "1"
                case .dim: "2"
                case .reverse: "7"
                case .cyan: "36"
                case .yellow: "33"
                case .green: "32"
                case .red: "31"
                }
            text += code.map { "\u{1B}[\($0)m" + span.text + "\u{1B}[0m" } ?? span.text
        }
        return text
    }
}
