/// A key pressed in the full-screen timeline.
package enum TimelineKey: Sendable, Equatable {
    /// A printable character.
    case character(Character)
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, tab, backTab, backspace, escape
    /// Ctrl-C (read as a byte: the terminal is in raw mode).
    case interrupt
    /// A sequence the timeline has no use for (F-keys, Delete, Ctrl-letters).
    case other
}

/// Decodes the bytes a terminal sends into keys: UTF-8 characters, control bytes, and the
/// escape sequences of xterm, tmux and the Linux console (`ESC [ … final`, `ESC O x`).
package enum KeyDecoder {
    /// The keys in `bytes`, and the bytes of an unfinished sequence at the end to decode
    /// with what comes next.
    ///
    /// A lone ESC at the end is unfinished unless `final` (the caller waited and nothing
    /// followed): then it is ``TimelineKey/escape``.
    package static func decode(_ bytes: [UInt8], final: Bool = false) -> (keys: [TimelineKey], rest: [UInt8]) {
        var keys: [TimelineKey] = []
        var index = 0
        while index < bytes.count {
            guard let (key, length) = key(at: index, in: bytes) else {
                if final {
                    // Whatever is left cannot become a key: an ESC alone, or a cut sequence.
                    keys.append(bytes[index] == 0x1B && index == bytes.count - 1 ? .escape : .other)
                    return (keys, [])
                }
                return (keys, Array(bytes[index...]))
            }
            keys.append(key)
            index += length
        }
        return (keys, [])
    }

    /// The key starting at `index` and its length, or `nil` when its bytes are not all there.
    private static func key(at index: Int, in bytes: [UInt8]) -> (TimelineKey, Int)? {
        let byte = bytes[index]
        switch byte {
        case 0x1B: return escapeSequence(at: index, in: bytes)
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x09: return (.tab, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x03: return (.interrupt, 1)
        case 0x00...0x1F: return (.other, 1)
        default: return utf8Character(at: index, in: bytes)
        }
    }

    private static func escapeSequence(at index: Int, in bytes: [UInt8]) -> (TimelineKey, Int)? {
        guard index + 1 < bytes.count else { return nil }
        switch bytes[index + 1] {
        case UInt8(ascii: "["):
            // CSI: parameters and intermediates, then one final byte.
            var end = index + 2
            while end < bytes.count, (0x20...0x3F).contains(bytes[end]) { end += 1 }
            guard end < bytes.count else { return nil }
            let parameters = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
            let number = Int(parameters.split(separator: ";").first ?? "") ?? 1
            let key: TimelineKey =
                switch bytes[end] {
                case let final where cursorKey(final) != nil: cursorKey(final)!
                case UInt8(ascii: "Z"): .backTab
                case UInt8(ascii: "~"):
                    switch number {
                    case 1, 7: .home
                    case 4, 8: .end
                    case 5: .pageUp
                    case 6: .pageDown
                    default: .other
                    }
                default: .other
                }
            return (key, end - index + 1)
        case UInt8(ascii: "O"):
            guard index + 2 < bytes.count else { return nil }
            return (cursorKey(bytes[index + 2]) ?? .other, 3)
        case 0x1B:
            // ESC ESC: the first is Escape pressed alone.
            return (.escape, 1)
        default:
            // Alt-key: ESC then the key; read as Escape, the key comes next.
            return (.escape, 1)
        }
    }

    /// The key a sequence's final letter names, in both `ESC [` and `ESC O` forms.
    private static func cursorKey(_ letter: UInt8) -> TimelineKey? {
        switch letter {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        default: nil
        }
    }

    private static func utf8Character(at index: Int, in bytes: [UInt8]) -> (TimelineKey, Int)? {
        let byte = bytes[index]
        let length =
            switch byte {
            case 0xC0...0xDF: 2
            case 0xE0...0xEF: 3
            case 0xF0...0xF7: 4
            default: 1
            }
        guard index + length <= bytes.count else { return nil }
        let text = String(decoding: bytes[index..<(index + length)], as: UTF8.self)
        guard length > 1 || byte < 0x80, let character = text.first, text.unicodeScalars.first?.value != 0xFFFD else {
            return (.other, length)
        }
        return (.character(character), length)
    }
}
