/// An object delta found by comparing two encoded objects member by member, byte for byte.
///
/// For values the recorder keeps as JSON: small structs of numbers, strings and booleans (their
/// encoding costs less than comparing them as Swift values), and values encoded at commit
/// (with a class instance inside). A changed member is written whole.
enum MemberDelta {
    /// Objects with more members than this are written whole: matching members by key is
    /// quadratic, and matched members are noted in one 64-bit mask.
    static let memberLimit = 64

    /// What changed from the old encoding to the new one; a delta's buffer is lent by `pool`
    /// when there is one (the caller gives it back).
    static func change(
        old: [UInt8], oldMembers: [CompactJSONEncoder.Member],
        new: [UInt8], newMembers: [CompactJSONEncoder.Member],
        pool: ValueDiffer? = nil
    ) -> ValueDiffer.Change {
        guard oldMembers.count <= memberLimit, newMembers.count <= memberLimit else { return .replaced }
        return old.withUnsafeBufferPointer { old in
            new.withUnsafeBufferPointer { new in
                func same(_ a: Range<Int>, _ b: Range<Int>) -> Bool {
                    a.count == b.count && (a.isEmpty || memcmp(old.baseAddress! + a.lowerBound, new.baseAddress! + b.lowerBound, a.count) == 0)
                }
                // Bytes are handed over as buffers, not slices: a slice's append goes element
                // by element.
                var delta = ObjectDeltaWriter(pool: pool, reservingCapacity: min(new.count, 256) + 8)
                var matched: UInt64 = 0
                for (index, member) in newMembers.enumerated() {
                    let oldIndex = index < oldMembers.count && same(oldMembers[index].key, member.key)
                        ? index
                        : oldMembers.indices.first { matched & (1 << UInt64($0)) == 0 && same(oldMembers[$0].key, member.key) }
                    if let oldIndex {
                        matched |= 1 << UInt64(oldIndex)
                        if same(oldMembers[oldIndex].value, member.value) { continue }
                    }
                    delta.set(encodedKey: UnsafeBufferPointer(rebasing: new[member.key]), UnsafeBufferPointer(rebasing: new[member.value]))
                }
                for (index, member) in oldMembers.enumerated() where matched & (1 << UInt64(index)) == 0 {
                    delta.remove(encodedKey: UnsafeBufferPointer(rebasing: old[member.key]))
                }
                return delta.finish(memberCount: newMembers.count)
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
