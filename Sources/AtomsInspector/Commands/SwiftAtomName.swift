/// How `replay-test` names a recorded atom in Swift: `App.QueryAtom()`, or a modified atom
/// by its modifier's shorthand on its base (`App.SearchAtom().phase`,
/// `App.QueryAtom().debounce(for: 0.05)`), from the module-qualified type and key a journal
/// declares.
package enum SwiftAtomName {
    /// The expression that makes the atom, or `nil` when the journal does not say enough to
    /// write one (a generic or local type, a family member, a modifier made from a closure or a
    /// key path).
    package static func expression(type: String, key: String?) -> String? {
        if let (base, modifier) = modified(type) {
            // A modified atom's key is its modifier's (its base has none of its own here).
            guard let base = expression(type: base, key: nil) else { return nil }
            switch modifierName(modifier) {
            case "Atoms.TaskPhaseModifier" where key == nil: return base + ".phase"
            case "Atoms.ChangesModifier" where key == nil: return base + ".changes"
            case "Atoms.PreviousModifier" where key == nil: return base + ".previous"
            case "Atoms.DebounceModifier":
                guard let seconds = debounceSeconds(key) else { return nil }
                return base + ".debounce(for: \(seconds))"
            default: return nil
            }
        }
        guard key == nil, ReplayTestCommand.isNameable(type) else { return nil }
        return type + "()"
    }

    /// `Atoms.ModifiedAtom<Base, Modifier>`'s two arguments.
    static func modified(_ type: String) -> (base: String, modifier: String)? {
        let prefix = "Atoms.ModifiedAtom<"
        guard type.hasPrefix(prefix), type.hasSuffix(">") else { return nil }
        let arguments = topLevelArguments(String(type.dropFirst(prefix.count).dropLast()))
        guard arguments.count == 2 else { return nil }
        return (arguments[0], arguments[1])
    }

    /// The type name before its generic arguments.
    private static func modifierName(_ type: String) -> String {
        type.firstIndex(of: "<").map { String(type[..<$0]) } ?? type
    }

    /// `debounce 0.05s` as `0.05`.
    private static func debounceSeconds(_ key: String?) -> String? {
        guard let key, key.hasPrefix("debounce "), key.hasSuffix("s") else { return nil }
        let text = String(key.dropFirst("debounce ".count).dropLast())
        return Double(text) != nil ? text : nil
    }

    /// Comma-separated arguments, split where no angle bracket is open.
    private static func topLevelArguments(_ text: String) -> [String] {
        var arguments: [String] = []
        var depth = 0
        var current = ""
        for character in text {
            switch character {
            case "<": depth += 1
            case ">": depth -= 1
            case "," where depth == 0:
                arguments.append(trimmed(current))
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        arguments.append(trimmed(current))
        return arguments
    }

    private static func trimmed(_ text: String) -> String {
        String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
