extension StringProtocol {
    /// The text without the spaces and tabs at either end (what Foundation's
    /// `trimmingCharacters(in: .whitespaces)` removes); with `newlines`, without line breaks too.
    package func trimmingWhitespace(newlines: Bool = false) -> String {
        func isTrimmed(_ character: Character) -> Bool {
            character.isWhitespace && (newlines || !character.isNewline)
        }
        guard let first = firstIndex(where: { !isTrimmed($0) }), let last = lastIndex(where: { !isTrimmed($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
