import AtomsJournal

/// A driven array's next value made from the recorded delta: only the elements the delta
/// names are decoded, not the whole array (a toggle in a 500-element list decodes one).
///
/// Handles the two shapes the recorder writes for arrays that keep their length or only
/// splice: every operation a change of one element (`[i, delta]`: that element is decoded from
/// the recorded value after the transaction), or every operation a splice (`[i, n, [values]]`:
/// the inserted values are decoded). Anything else is `nil`: the caller decodes the whole value.
protocol RecordedArrayPatching {
    /// This array changed by a recorded array delta's operations, or `nil` when they have
    /// another shape or do not fit.
    ///
    /// - Parameters:
    ///   - operations: The operations of the `["a", [op, …]]` delta.
    ///   - resolved: The recorded value after the transaction.
    /// - Throws: When an element the delta names does not decode.
    func patched(by operations: [JSONValue], resolved: JSONValue) throws -> Self?
}

extension Array: RecordedArrayPatching where Element: Decodable {
    func patched(by operations: [JSONValue], resolved: JSONValue) throws -> [Element]? {
        guard case .array(let elements) = resolved else { return nil }
        var result = self
        let parts = operations.map { operation -> [JSONValue] in
            if case .array(let parts) = operation { return parts }
            return []
        }
        if parts.allSatisfy({ $0.count == 2 }) {
            for part in parts {
                guard let index = Self.integer(part[0]), index < result.count, index < elements.count else { return nil }
                result[index] = try RecordedValueSeeds.decoded(elements[index], as: Element.self)
            }
        } else if parts.allSatisfy({ $0.count == 3 }) {
            for part in parts {
                guard let index = Self.integer(part[0]), let count = Self.integer(part[1]), case .array(let inserted) = part[2],
                      index + count <= result.count
                else { return nil }
                result.replaceSubrange(index..<index + count, with: try inserted.map { try RecordedValueSeeds.decoded($0, as: Element.self) })
            }
        } else {
            return nil
        }
        return result.count == elements.count ? result : nil
    }

    private static func integer(_ value: JSONValue) -> Int? {
        guard case .number(let number) = value, let integer = Int(number.text), integer >= 0 else { return nil }
        return integer
    }
}

/// The last value a replay wrote to a driven atom, which the next recorded delta changes.
@MainActor
final class DrivenValue<Value> {
    var value: Value?
}

extension ValueEntry {
    /// Why a replay cannot write this recorded value as a state's value (`was redacted`, `is a
    /// dump …`), or `nil` when it holds restorable JSON.
    var unwritableReason: String? {
        if isRestorable, v != nil { return nil }
        if redacted == true { return "was redacted" }
        if phase != nil { return "is an asynchronous phase" }
        return "is a dump, not JSON (its type was not Codable when recorded)"
    }
}
