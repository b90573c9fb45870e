extension ValueDelta {
    /// The same change as `delta`, written with object and array deltas only (`"o"`, `"a"`):
    /// set and dictionary deltas (`"s"`, `"m"`) become splices at the positions the canonical
    /// order gives them in `value`, and a format-2 patch can be passed as an object delta.
    ///
    /// A reader that cannot order JSON values canonically (the HTML report's script) applies
    /// the result with plain index arithmetic and gets exactly ``apply(_:to:)``'s value.
    ///
    /// - Parameters:
    ///   - delta: A delta that fits `value`.
    ///   - value: The value the delta applies to.
    /// - Throws: ``Mismatch`` when the delta does not fit the value.
    package static func positional(_ delta: JSONValue, appliedTo value: JSONValue) throws(Mismatch) -> JSONValue {
        guard case .array(let parts) = delta, case .string(let kind)? = parts.first else {
            throw Mismatch(message: "a delta must be an array starting with its kind")
        }
        switch kind {
        case "o":
            guard case .object(let members) = value else {
                throw Mismatch(message: "an object delta applied to a value that is not an object")
            }
            guard parts.count > 2, case .object(let nested) = parts[2] else {
                return delta
            }
            var positional: [String: JSONValue] = [:]
            for (key, inner) in nested {
                guard let old = members[key] else {
                    throw Mismatch(message: "an object delta changes member \(key.debugDescription), which the value does not have")
                }
                positional[key] = try Self.positional(inner, appliedTo: old)
            }
            var result = parts
            result[2] = .object(positional)
            return .array(result)
        case "a":
            guard case .array(var elements) = value else {
                throw Mismatch(message: "an array delta applied to a value that is not an array")
            }
            var operations: [JSONValue] = []
            guard parts.count > 1 else { return delta }
            guard case .array(let listed) = parts[1] else { throw Mismatch(message: "a delta's operations must be an array") }
            for operation in listed {
                // Nested deltas apply to the element as the earlier operations left it.
                if case .array(let fields) = operation, fields.count == 2, let index = fields[0].integer, index >= 0, index < elements.count {
                    operations.append(.array([fields[0], try positional(fields[1], appliedTo: elements[index])]))
                } else {
                    operations.append(operation)
                }
                elements = try arrayElements(apply(.array([.string("a"), .array([operation])]), to: .array(elements)))
            }
            return .array([.string("a"), .array(operations)])
        case "s":
            return try setSplices(parts, appliedTo: value)
        case "m":
            return try mapSplices(parts, appliedTo: value)
        default:
            throw Mismatch(message: "unknown delta kind \(kind.debugDescription)")
        }
    }

    private static func arrayElements(_ value: JSONValue) throws(Mismatch) -> [JSONValue] {
        guard case .array(let elements) = value else { throw Mismatch(message: "a delta applied to a value that is not an array") }
        return elements
    }

    /// `["s", added, removed]` as splices: each removal at the element's index, then each
    /// insertion where ``apply(_:to:)`` puts it.
    private static func setSplices(_ parts: [JSONValue], appliedTo value: JSONValue) throws(Mismatch) -> JSONValue {
        var elements = try arrayElements(value)
        var operations: [JSONValue] = []
        func list(_ index: Int) throws(Mismatch) -> [JSONValue] {
            guard index < parts.count else { return [] }
            guard case .array(let listed) = parts[index] else { throw Mismatch(message: "a set delta's elements must be an array") }
            return listed
        }
        for removed in try list(2) {
            guard let index = elements.firstIndex(of: removed) else {
                throw Mismatch(message: "a set delta removes an element the set does not have")
            }
            elements.remove(at: index)
            operations.append(splice(at: index, removing: 1, inserting: []))
        }
        for added in try list(1) {
            let position = canonicalPosition(of: added, in: elements, stride: 1)
            elements.insert(added, at: position)
            operations.append(splice(at: position, removing: 0, inserting: [added]))
        }
        return .array([.string("a"), .array(operations)])
    }

    /// `["m", set, changed, removed]` on a `[k, v, k, v, …]` array as splices and element
    /// deltas, in the order ``apply(_:to:)`` applies them.
    private static func mapSplices(_ parts: [JSONValue], appliedTo value: JSONValue) throws(Mismatch) -> JSONValue {
        var flat = try arrayElements(value)
        guard flat.count.isMultiple(of: 2) else {
            throw Mismatch(message: "a dictionary delta applied to a value that is not a list of key-value pairs")
        }
        var operations: [JSONValue] = []
        func list(_ index: Int) throws(Mismatch) -> [JSONValue] {
            guard index < parts.count else { return [] }
            guard case .array(let listed) = parts[index] else { throw Mismatch(message: "a dictionary delta's entries must be an array") }
            return listed
        }
        func pair(_ entry: JSONValue) throws(Mismatch) -> (JSONValue, JSONValue) {
            guard case .array(let fields) = entry, fields.count == 2 else {
                throw Mismatch(message: "a dictionary delta's entry must be [key, value]")
            }
            return (fields[0], fields[1])
        }
        func keyIndex(_ key: JSONValue) -> Int? {
            stride(from: 0, to: flat.count, by: 2).first { flat[$0] == key }
        }
        for entry in try list(1) {
            let (key, newValue) = try pair(entry)
            if let index = keyIndex(key) {
                flat[index + 1] = newValue
                operations.append(splice(at: index + 1, removing: 1, inserting: [newValue]))
            } else {
                let position = canonicalPosition(of: key, in: flat, stride: 2)
                flat.insert(contentsOf: [key, newValue], at: position)
                operations.append(splice(at: position, removing: 0, inserting: [key, newValue]))
            }
        }
        for entry in try list(2) {
            let (key, nested) = try pair(entry)
            guard let index = keyIndex(key) else {
                throw Mismatch(message: "a dictionary delta changes a key the dictionary does not have")
            }
            operations.append(.array([.number(JSONNumber(index + 1)), try positional(nested, appliedTo: flat[index + 1])]))
            flat[index + 1] = try apply(nested, to: flat[index + 1])
        }
        for key in try list(3) {
            guard let index = keyIndex(key) else {
                throw Mismatch(message: "a dictionary delta removes a key the dictionary does not have")
            }
            flat.removeSubrange(index..<(index + 2))
            operations.append(splice(at: index, removing: 2, inserting: []))
        }
        return .array([.string("a"), .array(operations)])
    }

    private static func splice(at index: Int, removing count: Int, inserting values: [JSONValue]) -> JSONValue {
        .array([.number(JSONNumber(index)), .number(JSONNumber(count)), .array(values)])
    }
}
