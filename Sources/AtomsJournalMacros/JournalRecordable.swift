@_exported import AtomsJournal

/// Writes a struct's ``AtomsJournal/JournalRecordable`` conformance from its stored
/// properties, so that the journal records its values without `Codable`'s containers.
///
/// Attach it to a `Codable` struct whose `encode(to:)` the compiler synthesizes. The conformance
/// writes the same JSON, member by member in declaration order, and compares two values member
/// by member: the journal's bytes are unchanged, the recorder's work is a fraction of what
/// `Codable` costs.
///
/// The macro refuses a type that is not a struct, one with its own `CodingKeys` or
/// `encode(to:)`, and properties that are `lazy` or wrapped by a property wrapper: their
/// encodings are theirs, not the members'.
///
/// ## Example
///
/// ```swift
/// import AtomsJournalMacros
///
/// @JournalRecordable
/// struct Todo: Codable, Hashable {
///     var id: Int
///     var text: String
///     var isCompleted: Bool
///     var note: String?  // left out while nil, as `Codable` does
/// }
/// ```
@attached(extension, conformances: JournalRecordable, names: named(writeJournalJSON), named(writeJournalChanges))
public macro JournalRecordable() = #externalMacro(module: "AtomsJournalMacrosPlugin", type: "JournalRecordableMacro")
