/// A value the journal records through code written for its type, not through `Codable`'s
/// containers.
///
/// By default the recorder finds what changed in a struct by walking its `encode(to:)`: each
/// member passes through `Codable`'s keyed container, an existential and the generic metadata
/// unspecialized code looks up, which costs a few thousand instructions per struct on the
/// recorder's thread. A `JournalRecordable` type writes its members itself: its JSON with
/// ``writeJournalJSON(to:)``, and what changed since an earlier value with
/// ``writeJournalChanges(from:to:)``, one call per stored property. The journal's bytes are the
/// same either way; only the cost differs.
///
/// Don't write the conformance by hand: attach the `@JournalRecordable` macro (from the
/// `AtomsJournalMacros` library) to a `Codable` struct whose encoding `Codable` synthesizes, and
/// the compiler writes both members from the struct's stored properties. Arrays of such values
/// are `JournalRecordable` too.
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
/// }
/// ```
///
/// Reach for it when an atom holds large or often-changing structured state (hundreds of
/// elements, nested structs) and recording shows up in a profile; small scalar atoms gain
/// nothing from it.
public protocol JournalRecordable: Encodable {
    /// Writes the value's JSON as the journal records it: the bytes its synthesized
    /// `encode(to:)` produces, members in declaration order, `nil` optionals left out.
    ///
    /// - Parameter writer: Where the JSON goes.
    func writeJournalJSON(to writer: inout _JournalJSONWriter)

    /// Compares the value with an earlier one, member by member, and notes each member that
    /// differs in `changes`.
    ///
    /// - Parameters:
    ///   - old: The earlier value.
    ///   - changes: The change being built; call ``_JournalChanges/compare(_:_:_:)-(_,Int,_)``
    ///     once for every member ``writeJournalJSON(to:)`` writes, in the same order.
    func writeJournalChanges(from old: Self, to changes: inout _JournalChanges)
}

extension Array: JournalRecordable where Element: JournalRecordable {
    /// Writes the elements' JSON, in order.
    public func writeJournalJSON(to writer: inout _JournalJSONWriter) {
        writer.beginArray()
        for element in self {
            writer.element(element)
        }
        writer.endArray()
    }

    /// Finds the elements that changed, as the recorder does for any array: equal runs at both
    /// ends skipped, the rest patched element by element or spliced.
    public func writeJournalChanges(from old: [Element], to changes: inout _JournalChanges) {
        changes.setResult(ArrayChange.change(from: old, to: self, differ: changes.differ, compare: { old, new, differ in
            differ.recordableChange(from: old, to: new)
        }, json: { element, differ in
            differ.recordableJSON(of: element)
        }))
    }
}
