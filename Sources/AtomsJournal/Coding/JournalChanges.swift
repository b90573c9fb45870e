/// What changed in a ``JournalRecordable`` value since an earlier one, as the journal's delta
/// writes it.
///
/// The `@JournalRecordable` macro writes one ``compare(_:_:_:)-(_,T,T)`` call per stored
/// property, in declaration order. A member that differs is written whole, or as a nested
/// delta when it is itself a struct or an array the recorder can patch; a member that became
/// `nil` is removed. When every member differs, the value is written whole instead, as the
/// recorder does for values compared through `Codable`.
public struct JournalChanges {
    /// Compares and encodes members that are not `JournalRecordable`.
    let differ: ValueDiffer
    private var object = ObjectDeltaWriter()
    /// Members the new value writes (`nil` optionals are not written).
    private var memberCount = 0
    /// Set when a member could not be encoded: the value is then written whole.
    private var failed = false
    /// The change, when a conformance in this module found it without comparing members.
    private var result: ValueDiffer.Change?

    init(differ: ValueDiffer) {
        self.differ = differ
    }

    /// The change found.
    var change: ValueDiffer.Change {
        if let result {
            return result
        }
        if failed {
            return .replaced
        }
        if object.isEmpty {
            return .unchanged
        }
        // Every member new or changed: the whole value is shorter than its delta.
        if object.setCount == memberCount {
            return .replaced
        }
        return object.change
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
        memberCount += 1
        note(key, differ.memberChange(from: old, to: new), new: new)
    }

    /// Compares an optional member: one that became `nil` is removed.
    public mutating func compare<T: Encodable>(_ key: StaticString, _ old: T?, _ new: T?) {
        switch (old, new) {
        case (nil, nil):
            return
        case (_?, nil):
            object.remove(key)
        case (nil, let new?):
            memberCount += 1
            note(key, .replaced, new: new)
        case (let old?, let new?):
            compare(key, old, new)
        }
    }

    /// Compares a member that compares its own members.
    public mutating func compare<T: JournalRecordable>(_ key: StaticString, _ old: T, _ new: T) {
        memberCount += 1
        note(key, differ.recordableChange(from: old, to: new), new: new)
    }

    /// Compares an optional member that compares its own members.
    public mutating func compare<T: JournalRecordable>(_ key: StaticString, _ old: T?, _ new: T?) {
        switch (old, new) {
        case (nil, nil):
            return
        case (_?, nil):
            object.remove(key)
        case (nil, let new?):
            memberCount += 1
            note(key, .replaced, new: new)
        case (let old?, let new?):
            compare(key, old, new)
        }
    }

    private mutating func note<T: Encodable>(_ key: StaticString, _ change: ValueDiffer.Change, new: T) {
        switch change {
        case .unchanged:
            return
        case .delta(let delta):
            object.patch(key, delta)
        case .replaced:
            guard let json = differ.memberJSON(of: new) else {
                failed = true
                return
            }
            object.set(key, json)
        }
    }

    private mutating func note<T: JournalRecordable>(_ key: StaticString, _ change: ValueDiffer.Change, new: T) {
        switch change {
        case .unchanged:
            return
        case .delta(let delta):
            object.patch(key, delta)
        case .replaced:
            guard let json = differ.recordableJSON(of: new) else {
                failed = true
                return
            }
            object.set(key, json)
        }
    }
}
