import AtomsJournal

/// The same state as `Settings`, recorded through its own code: the conformance below is, word
/// for word, what `@JournalRecordable` writes for this struct (`RecordableSettingsExpansionTests`
/// expands the macro on it and compares), so that this benchmark builds without the macro and
/// its release build needs no swift-syntax.
struct RecordableSettings: Codable, Equatable {
    var volume: Int
    var muted: Bool
    var name: String
}

extension RecordableSettings: AtomsJournal.JournalRecordable {
    nonisolated func writeJournalJSON(to writer: inout AtomsJournal._JournalJSONWriter) {
        writer.beginObject()
        writer.member("volume", self.volume)
        writer.member("muted", self.muted)
        writer.member("name", self.name)
        writer.endObject()
    }

    nonisolated func writeJournalChanges(from old: Self, to changes: inout AtomsJournal._JournalChanges) {
        changes.compare("volume", old.volume, self.volume)
        changes.compare("muted", old.muted, self.muted)
        changes.compare("name", old.name, self.name)
    }
}
