import AtomsJournalReader

/// How a recorded value is shown, the same way by `show`, `step` and the report.
extension ValueEntry {
    /// Whether the value shows as its JSON with no marks (a restorable `Codable` value).
    var isShownAsJSON: Bool {
        v != nil && phase == nil && redacted != true && norestore != true
    }

    /// What is printed after a value that is not plainly restorable.
    var displayMarks: [String] {
        if redacted == true { return ["redacted"] }
        if !isRestorable { return [phase.map { "phase: \($0), not restorable" } ?? "not restorable"] }
        return []
    }
}
