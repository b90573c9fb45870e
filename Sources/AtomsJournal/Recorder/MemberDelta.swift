/// An object delta found by comparing two encoded objects member by member, byte for byte.
///
/// For values the recorder keeps as JSON: small structs of numbers, strings and booleans (their
/// encoding costs less than comparing them as Swift values), and values encoded at commit
/// (with a class instance inside). A changed member is written whole.
enum MemberDelta {
    /// Objects with more members than this are written whole: matching members by key is
    /// quadratic, and matched members are noted in one 64-bit mask.
    static let memberLimit = 64
    /// `["o",{`, which begins an object delta, and `,{},[`, which begins its removed keys.
    private static let objectDeltaStart = Array(#"["o",{"#.utf8)
    private static let removedStart = Array(",{},[".utf8)

    /// What changed from the old encoding to the new one.
    static func change(
        old: [UInt8], oldMembers: [CompactJSONEncoder.Member],
        new: [UInt8], newMembers: [CompactJSONEncoder.Member]
    ) -> ValueDiffer.Change {
        guard oldMembers.count <= memberLimit, newMembers.count <= memberLimit else { return .replaced }
        return old.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { new in
                func same(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
                    a.count == b.count && (a.isEmpty || memcmp(old.baseAddress! + a.lowerBound, new.baseAddress! + b.lowerBound, a.count) == 0)
                }
                // One buffer: `["o",{set members}` then `,{},[removed keys]` when any. Bytes
                // are appended from buffers, not slices: a slice's append goes element by
                // element.
                var delta: [UInt8] = []
                delta.reserveCapacity(min(new.count, 256) + 8)
                delta.append(contentsOf: Self.objectDeltaStart)
                let emptyLength = delta.count
                var matched: UInt64 = 0
                var setCount = 0
                for (index, member) in newMembers.enumerated() {
                    let oldIndex = index < oldMembers.count && same(oldMembers[index].key, member.key)
                        ? index
                        : oldMembers.indices.first { matched & (1 << UInt64($0)) == 0 && same(oldMembers[$0].key, member.key) }
                    if let oldIndex {
                        matched |= 1 << UInt64(oldIndex)
                        if same(oldMembers[oldIndex].value, member.value) { continue }
                    }
                    if delta.count > emptyLength { delta.append(UInt8(ascii: ",")) }
                    delta.append(contentsOf: UnsafeBufferPointer(rebasing: new[member.key]))
                    delta.append(UInt8(ascii: ":"))
                    delta.append(contentsOf: UnsafeBufferPointer(rebasing: new[member.value]))
                    setCount += 1
                }
                delta.append(UInt8(ascii: "}"))
                var removed = 0
                for (index, member) in oldMembers.enumerated() where matched & (1 << UInt64(index)) == 0 {
                    if removed == 0 {
                        delta.append(contentsOf: Self.removedStart)
                    } else {
                        delta.append(UInt8(ascii: ","))
                    }
                    delta.append(contentsOf: UnsafeBufferPointer(rebasing: old[member.key]))
                    removed += 1
                }
                if removed > 0 { delta.append(UInt8(ascii: "]")) }
                delta.append(UInt8(ascii: "]"))
                if setCount == 0 && removed == 0 {
                    return .unchanged
                }
                if setCount == newMembers.count {
                    // Every member new or changed: the whole value is shorter.
                    return .replaced
                }
                return .delta(delta)
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
