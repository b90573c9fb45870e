extension JSONValue {
    /// The journal's canonical order of JSON values (format 3), which fixes the order of a
    /// set's elements and of a dictionary's entries whatever order hashing gave them:
    ///
    /// `null` < `false` < `true` < numbers (by value) < strings (by their UTF-8 bytes) <
    /// arrays (element by element; a prefix first) < objects (by their members sorted by key:
    /// key, then value, member by member; a prefix first).
    ///
    /// - Complexity: O(n) in the size of the smaller value.
    package static func canonicallyPrecedes(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
        compare(lhs, rhs) < 0
    }

    /// -1, 0 or 1 as `lhs` comes before, equals or comes after `rhs` in the canonical order.
    static func compare(_ lhs: JSONValue, _ rhs: JSONValue) -> Int {
        switch (lhs, rhs) {
        case (.null, .null):
            return 0
        case (.bool(let a), .bool(let b)):
            return a == b ? 0 : (a ? 1 : -1)
        case (.number(let a), .number(let b)):
            return JSONNumber.compare(a, b)
        case (.string(let a), .string(let b)):
            return compareBytes(a, b)
        case (.array(let a), .array(let b)):
            for (x, y) in zip(a, b) {
                let order = compare(x, y)
                if order != 0 { return order }
            }
            return a.count < b.count ? -1 : (a.count > b.count ? 1 : 0)
        case (.object(let a), .object(let b)):
            let aKeys = a.keys.sorted { compareBytes($0, $1) < 0 }
            let bKeys = b.keys.sorted { compareBytes($0, $1) < 0 }
            for (x, y) in zip(aKeys, bKeys) {
                let keyOrder = compareBytes(x, y)
                if keyOrder != 0 { return keyOrder }
                let valueOrder = compare(a[x]!, b[y]!)
                if valueOrder != 0 { return valueOrder }
            }
            return aKeys.count < bKeys.count ? -1 : (aKeys.count > bKeys.count ? 1 : 0)
        default:
            return lhs.rank < rhs.rank ? -1 : 1
        }
    }

    private var rank: Int {
        switch self {
        case .null: 0
        case .bool: 1
        case .number: 2
        case .string: 3
        case .array: 4
        case .object: 5
        }
    }

    private static func compareBytes(_ a: String, _ b: String) -> Int {
        var a = a
        var b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                let common = min(x.count, y.count)
                let order = common == 0 ? 0 : memcmp(x.baseAddress!, y.baseAddress!, common)
                if order != 0 { return order < 0 ? -1 : 1 }
                return x.count < y.count ? -1 : (x.count > y.count ? 1 : 0)
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
