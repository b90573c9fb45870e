/// A value delta of format 3: how a value's JSON changed since the atom's previous value, at any
/// depth. The writer is ``ValueDiffer``; this type reads and applies deltas.
///
/// Every delta is a JSON array whose first element names its kind (`docs/JOURNAL_FORMAT.md`):
///
/// | delta | applies to | meaning |
/// | --- | --- | --- |
/// | `["o", {set}, {patch}, [removed]]` | object | members set whole, members changed by a nested delta, members removed |
/// | `["a", [op, …]]` | array | in order: `[i, n, [values]]` removes `n` elements at `i` and inserts `values` there; `[i, delta]` changes element `i` |
/// | `["s", [added], [removed]]` | set (array in canonical order) | elements removed, then elements added at their canonical place |
/// | `["m", [[k, v], …], [[k, delta], …], [k, …]]` | dictionary written as `[k, v, k, v, …]` | entries set whole, entries changed by a nested delta, entries removed |
///
/// Trailing lists may be left out when empty.
package enum ValueDelta {
    /// A delta that does not fit the value it is applied to, or is not a delta.
    package struct Mismatch: Error, Equatable, Sendable, CustomStringConvertible {
        /// What does not fit.
        package let message: String

        package var description: String { message }
    }

    /// Applies `delta` to `value`.
    ///
    /// - Returns: The new value, equal to the value a whole write would have recorded.
    /// - Throws: ``Mismatch`` when the delta is malformed or does not fit the value.
    package static func apply(_ delta: JSONValue, to value: JSONValue) throws(Mismatch) -> JSONValue {
        guard case .array(let parts) = delta, case .string(let kind)? = parts.first else {
            throw Mismatch(message: "a delta must be an array starting with its kind")
        }
        switch kind {
        case "o": return try applyObject(parts, to: value)
        case "a": return try applyArray(parts, to: value)
        case "s": return try applySet(parts, to: value)
        case "m": return try applyMap(parts, to: value)
        default: throw Mismatch(message: "unknown delta kind \(kind.debugDescription)")
        }
    }

    /// Applies `delta` to `value` in place: an array delta changes only the elements it names,
    /// so a change of one element of a large array held nowhere else copies no other. A delta
    /// whose operations do not fit the array's length throws before anything changes; one
    /// whose nested delta does not fit an element leaves the operations before it applied.
    ///
    /// - Throws: ``Mismatch`` as ``apply(_:to:)-(_,JSONValue)`` does.
    package static func apply(_ delta: JSONValue, to value: inout JSONValue) throws(Mismatch) {
        guard case .array(let parts) = delta, case .string("a")? = parts.first, case .array(var elements) = value else {
            value = try apply(delta, to: value)
            return
        }
        let operations = try list(parts, 1, "operations")
        // Checked against the lengths the operations make, before any changes the array.
        var count = elements.count
        for operation in operations {
            guard case .array(let fields) = operation, let index = fields.first?.integer, index >= 0 else {
                throw Mismatch(message: "an array operation must start with an index")
            }
            switch fields.count {
            case 2:
                guard index < count else { throw Mismatch(message: "an array delta changes element \(index) of \(count)") }
            case 3:
                guard let removed = fields[1].integer, removed >= 0, case .array(let inserted) = fields[2] else {
                    throw Mismatch(message: "an array splice must be [index, count, [values]]")
                }
                guard index <= count, removed <= count - index else {
                    throw Mismatch(message: "an array delta removes \(removed) elements at \(index) of \(count)")
                }
                count += inserted.count - removed
            default:
                throw Mismatch(message: "an array operation must have two or three elements")
            }
        }
        // The value lets go of its elements, so that they are the array's only reference.
        value = .null
        defer { value = .array(elements) }
        for case .array(let fields) in operations {
            if fields.count == 2, let index = fields[0].integer {
                try apply(fields[1], to: &elements[index])
            } else if let index = fields[0].integer, let removed = fields[1].integer, case .array(let inserted) = fields[2] {
                elements.replaceSubrange(index..<(index + removed), with: inserted)
            }
        }
    }

    private static func part(_ parts: [JSONValue], _ index: Int) -> JSONValue? {
        index < parts.count ? parts[index] : nil
    }

    private static func list(_ parts: [JSONValue], _ index: Int, _ what: String) throws(Mismatch) -> [JSONValue] {
        switch part(parts, index) {
        case nil: return []
        case .array(let elements)?: return elements
        default: throw Mismatch(message: "a delta's \(what) must be an array")
        }
    }

    private static func applyObject(_ parts: [JSONValue], to value: JSONValue) throws(Mismatch) -> JSONValue {
        guard case .object(var members) = value else {
            throw Mismatch(message: "an object delta applied to a value that is not an object")
        }
        func object(_ index: Int) throws(Mismatch) -> [String: JSONValue] {
            switch part(parts, index) {
            case nil: return [:]
            case .object(let members)?: return members
            default: throw Mismatch(message: "an object delta's members must be an object")
            }
        }
        members.merge(try object(1)) { $1 }
        for (key, nested) in try object(2) {
            guard let old = members[key] else {
                throw Mismatch(message: "an object delta changes member \(key.debugDescription), which the value does not have")
            }
            members[key] = try apply(nested, to: old)
        }
        for key in try list(parts, 3, "removed members") {
            guard case .string(let name) = key else { throw Mismatch(message: "a removed member must be a string") }
            members[name] = nil
        }
        return .object(members)
    }

    private static func applyArray(_ parts: [JSONValue], to value: JSONValue) throws(Mismatch) -> JSONValue {
        guard case .array(var elements) = value else {
            throw Mismatch(message: "an array delta applied to a value that is not an array")
        }
        for operation in try list(parts, 1, "operations") {
            guard case .array(let fields) = operation, let index = fields.first?.integer, index >= 0 else {
                throw Mismatch(message: "an array operation must start with an index")
            }
            switch fields.count {
            case 2:
                guard index < elements.count else {
                    throw Mismatch(message: "an array delta changes element \(index) of \(elements.count)")
                }
                elements[index] = try apply(fields[1], to: elements[index])
            case 3:
                guard let count = fields[1].integer, count >= 0, case .array(let inserted) = fields[2] else {
                    throw Mismatch(message: "an array splice must be [index, count, [values]]")
                }
                guard index <= elements.count, count <= elements.count - index else {
                    throw Mismatch(message: "an array delta removes \(count) elements at \(index) of \(elements.count)")
                }
                elements.replaceSubrange(index..<(index + count), with: inserted)
            default:
                throw Mismatch(message: "an array operation must have two or three elements")
            }
        }
        return .array(elements)
    }

    private static func applySet(_ parts: [JSONValue], to value: JSONValue) throws(Mismatch) -> JSONValue {
        guard case .array(var elements) = value else {
            throw Mismatch(message: "a set delta applied to a value that is not an array")
        }
        for removed in try list(parts, 2, "removed elements") {
            guard let index = elements.firstIndex(of: removed) else {
                throw Mismatch(message: "a set delta removes an element the set does not have")
            }
            elements.remove(at: index)
        }
        for added in try list(parts, 1, "added elements") {
            elements.insert(added, at: canonicalPosition(of: added, in: elements, stride: 1))
        }
        return .array(elements)
    }

    private static func applyMap(_ parts: [JSONValue], to value: JSONValue) throws(Mismatch) -> JSONValue {
        guard case .array(var flat) = value, flat.count.isMultiple(of: 2) else {
            throw Mismatch(message: "a dictionary delta applied to a value that is not a list of key-value pairs")
        }
        func keyIndex(_ key: JSONValue) -> Int? {
            stride(from: 0, to: flat.count, by: 2).first { flat[$0] == key }
        }
        func pair(_ entry: JSONValue) throws(Mismatch) -> (JSONValue, JSONValue) {
            guard case .array(let fields) = entry, fields.count == 2 else {
                throw Mismatch(message: "a dictionary delta's entry must be [key, value]")
            }
            return (fields[0], fields[1])
        }
        for entry in try list(parts, 1, "entries") {
            let (key, newValue) = try pair(entry)
            if let index = keyIndex(key) {
                flat[index + 1] = newValue
            } else {
                let position = canonicalPosition(of: key, in: flat, stride: 2)
                flat.insert(contentsOf: [key, newValue], at: position)
            }
        }
        for entry in try list(parts, 2, "changed entries") {
            let (key, nested) = try pair(entry)
            guard let index = keyIndex(key) else {
                throw Mismatch(message: "a dictionary delta changes a key the dictionary does not have")
            }
            flat[index + 1] = try apply(nested, to: flat[index + 1])
        }
        for key in try list(parts, 3, "removed keys") {
            guard let index = keyIndex(key) else {
                throw Mismatch(message: "a dictionary delta removes a key the dictionary does not have")
            }
            flat.removeSubrange(index..<(index + 2))
        }
        return .array(flat)
    }

    /// Where `element` goes among the canonically ordered elements at `0, stride, 2·stride, …`
    /// of `elements` (binary search).
    static func canonicalPosition(of element: JSONValue, in elements: [JSONValue], stride: Int) -> Int {
        var low = 0
        var high = elements.count / stride
        while low < high {
            let middle = (low + high) / 2
            if JSONValue.canonicallyPrecedes(elements[middle * stride], element) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low * stride
    }
}

extension JSONValue {
    /// The value as an `Int`, when it is a whole number.
    var integer: Int? {
        guard case .number(let number) = self, let whole = number.int64 else { return nil }
        return Int(exactly: whole)
    }
}
