import Atoms

/// Marks an atom whose value must never reach a journal: the record says it was redacted.
///
/// ## Example
/// ```swift
/// struct AccessTokenAtom: StateAtom, JournalRedacted, Hashable {
///     func defaultValue(context: Context) -> String { "" }
/// }
/// ```
public protocol JournalRedacted {}
