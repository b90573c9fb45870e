/// What changed in a ``JournalRecordable`` value since an earlier one, as the journal's delta
/// writes it.
///
/// The `@JournalRecordable` macro writes one ``compare(_:_:_:)-(_,T,T)`` call per stored
/// property, in declaration order. A member that differs is written whole, or as a nested
/// delta when it is itself a struct or an array the recorder can patch; a member that became
/// `nil` is removed. When every member differs, the value is written whole instead, as the
/// recorder does for values compared through `Codable`.
///
/// Not for you to call or name: it is public only because the macro's expansion, compiled in
/// your module, reaches it, and its leading underscore says so. Its members may change with
/// any release.
public struct _JournalChanges {
    /// Compares and encodes members that are not `JournalRecordable`, and lends the buffers.
    let differ: ValueDiffer
    /// The delta, its buffers lent by ``differ``.
    private var object: ObjectDeltaWriter
    /// Members the new value writes (`nil` optionals are not written).
    private var memberCount = 0
    /// Set when a member could not be encoded: the value is then written whole.
    private var failed = false
    /// The change, when a conformance in this module found it without comparing members.
    private var result: ValueDiffer.Change?

    init(differ: ValueDiffer) {
        self.differ = differ
        object = ObjectDeltaWriter(pool: differ)
    }

    /// The change found, `["o",{set},{patches},[removed]]` for a delta; gives the buffers back.
    mutating func finish() -> ValueDiffer.Change {
        var change = object.finish(memberCount: memberCount)
        if result != nil || failed {
            // Found another way, or a member could not be encoded: the delta is not needed.
            differ.recycle(&change)
            return result ?? .replaced
        }
        return change
    }

    /// Sets the change found another way (an array's element edits).
    mutating func setResult(_ change: ValueDiffer.Change) {
        result = change
    }

    /// Compares a member's old and new value.
    ///
    /// - Parameters:
    ///   - key: The member's name, as its synthesized coding key spells it.
    ///   - old: The member in the earlier value.
    ///   - new: The member in the new value.
    public mutating func compare<T: Encodable>(_ key: StaticString, _ old: T, _ new: T) {
        note(key, differ.memberChange(from: old, to: new)) { $0.value(new) }
    }

    /// Compares an optional member: one that became `nil` is removed.
    public mutating func compare<T: Encodable>(_ key: StaticString, _ old: T?, _ new: T?) {
        compareOptional(key, old, new, write: { $1.value($0) }, compare: { $0.compare(key, $1, $2) })
    }

    /// Compares a member that compares its own members.
    public mutating func compare<T: JournalRecordable>(_ key: StaticString, _ old: T, _ new: T) {
        note(key, differ.recordableChange(from: old, to: new)) { new.writeJournalJSON(to: &$0) }
    }

    /// Compares an optional member that compares its own members.
    public mutating func compare<T: JournalRecordable>(_ key: StaticString, _ old: T?, _ new: T?) {
        compareOptional(key, old, new, write: { $0.writeJournalJSON(to: &$1) }, compare: { $0.compare(key, $1, $2) })
    }

    /// An optional member: `nil` to `nil` is no change, a member that became `nil` is removed
    /// (`nil` members are not written), one that appeared is set whole with `write`, and two
    /// values are compared with `compare`.
    private mutating func compareOptional<T>(
        _ key: StaticString, _ old: T?, _ new: T?,
        write value: (T, inout _JournalJSONWriter) -> Void, compare: (inout Self, T, T) -> Void
    ) {
        switch (old, new) {
        case (nil, nil):
            return
        case (_?, nil):
            remove(key)
        case (nil, let new?):
            memberCount += 1
            write(key) { value(new, &$0) }
        case (let old?, let new?):
            compare(&self, old, new)
        }
    }

    /// Notes a member present in the new value: nothing when unchanged, its nested delta, or
    /// the member whole, written by `value`.
    private mutating func note(_ key: StaticString, _ change: consuming ValueDiffer.Change, value: (inout _JournalJSONWriter) -> Void) {
        memberCount += 1
        var change = change
        switch change {
        case .unchanged:
            return
        case .delta(let delta):
            patch(key, delta)
            differ.recycle(&change)
        case .replaced:
            write(key, value: value)
        }
    }

    /// Sets a member whole: its key, then the JSON `value` writes.
    private mutating func write(_ key: StaticString, value: (inout _JournalJSONWriter) -> Void) {
        let differ = self.differ
        var memberFailed = false
        object.set(key) { bytes in
            var writer = _JournalJSONWriter(differ: differ, bytes: bytes)
            bytes = []
            value(&writer)
            memberFailed = writer.failed
            bytes = writer.takeBytes()
        }
        failed = failed || memberFailed
    }

    private mutating func patch(_ key: StaticString, _ delta: [UInt8]) {
        object.patch(key, delta)
    }

    private mutating func remove(_ key: StaticString) {
        object.remove(key)
    }
}
