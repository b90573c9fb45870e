#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Equal runs at the ends of two arrays, found in their raw element storage.
enum BitwiseRuns {
    /// The lengths of the equal leading and trailing runs of two arrays of elements `size`
    /// bytes long, `stride` apart (not overlapping: together at most the shorter count).
    /// Elements whose bytes match are equal; for the others `same` decides. The padding
    /// between `size` and `stride` is not compared: copies of an element leave it undefined.
    static func equalEnds(
        _ old: UnsafeRawBufferPointer,
        count oldCount: Int,
        _ new: UnsafeRawBufferPointer,
        count newCount: Int,
        size: Int,
        stride: Int,
        same: (Int, Int) -> Bool
    ) -> (prefix: Int, suffix: Int) {
        guard stride > 0 else {
            // Elements of no size are all equal.
            return (min(oldCount, newCount), 0)
        }
        let shorter = min(oldCount, newCount)
        if size < stride {
            return paddedEqualEnds(old, count: oldCount, new, count: newCount, size: size, stride: stride, same: same)
        }
        var prefix = 0
        var scanned = 0
        while prefix < shorter {
            let differing = firstDifferingByte(old, new, from: scanned, to: shorter * stride)
            prefix = differing / stride
            guard prefix < shorter else { break }
            // A difference in padding only: the element's bytes before it all matched.
            if differing % stride >= size || same(prefix, prefix) {
                prefix += 1
                scanned = prefix * stride
                continue
            }
            break
        }
        var suffix = 0
        var matchedBytes = 0
        while suffix < shorter - prefix {
            let oldEnd = oldCount * stride
            let newEnd = newCount * stride
            let limit = (shorter - prefix) * stride
            matchedBytes += matchingTrailingBytes(old, oldEnd: oldEnd - matchedBytes, new, newEnd: newEnd - matchedBytes, limit: limit - matchedBytes)
            guard matchedBytes < limit else {
                suffix = shorter - prefix
                break
            }
            // The first byte from the end that differs, and the element holding it.
            let offsetInElement = (oldEnd - matchedBytes - 1) % stride
            suffix = matchedBytes / stride
            if offsetInElement >= size {
                // Padding: go on with the element's own bytes.
                matchedBytes = suffix * stride + (stride - size)
                continue
            }
            guard same(oldCount - 1 - suffix, newCount - 1 - suffix) else { break }
            suffix += 1
            matchedBytes = suffix * stride
        }
        return (prefix, suffix)
    }

    /// ``equalEnds`` for elements with padding, element by element: copying an element leaves
    /// its padding undefined, so a bulk comparison would stop at almost every element (a toggle
    /// in 500 todos cost the scan about 48,000 instructions that way, 35,000 this way).
    private static func paddedEqualEnds(
        _ old: UnsafeRawBufferPointer,
        count oldCount: Int,
        _ new: UnsafeRawBufferPointer,
        count newCount: Int,
        size: Int,
        stride: Int,
        same: (Int, Int) -> Bool
    ) -> (prefix: Int, suffix: Int) {
        // An element's last bytes compared as a word whose padding is masked off, when the
        // word stays inside the element: a fixed few compares an element, no byte loop.
        let words = size / 8
        let rest = size % 8
        let masked = rest > 0 && words * 8 + 8 <= stride
        let mask: UInt64 = rest == 0 ? 0 : (1 << UInt64(rest * 8)) &- 1
        let a = old.baseAddress.unsafelyUnwrapped
        let b = new.baseAddress.unsafelyUnwrapped
        @inline(__always) func word(_ oldOffset: Int, _ newOffset: Int, _ index: Int) -> UInt64 {
            a.loadUnaligned(fromByteOffset: oldOffset &+ index &* 8, as: UInt64.self)
                ^ b.loadUnaligned(fromByteOffset: newOffset &+ index &* 8, as: UInt64.self)
        }
        // The comparison chosen once, not per element: a struct of a few members (up to four
        // words and a masked last one) gets a loop of its own, specialized.
        guard masked else {
            return scanEnds(oldCount, newCount, stride, same) { bytesEqual(old, at: $0, new, at: $1, size: size) }
        }
        switch words {
        case 0:
            return scanEnds(oldCount, newCount, stride, same) { word($0, $1, 0) & mask == 0 }
        case 1:
            return scanEnds(oldCount, newCount, stride, same) { (word($0, $1, 0) | word($0, $1, 1) & mask) == 0 }
        case 2:
            return scanEnds(oldCount, newCount, stride, same) { (word($0, $1, 0) | word($0, $1, 1) | word($0, $1, 2) & mask) == 0 }
        case 3:
            return scanEnds(oldCount, newCount, stride, same) {
                (word($0, $1, 0) | word($0, $1, 1) | word($0, $1, 2) | word($0, $1, 3) & mask) == 0
            }
        default:
            return scanEnds(oldCount, newCount, stride, same) { oldOffset, newOffset in
                var differ = word(oldOffset, newOffset, words) & mask
                var index = 0
                while index < words {
                    differ |= word(oldOffset, newOffset, index)
                    index &+= 1
                }
                return differ == 0
            }
        }
    }

    /// The equal leading and trailing runs of two arrays of elements `stride` apart, each
    /// element compared by `equal` on the two elements' byte offsets, and by `same` when its
    /// bytes differ.
    @inline(__always)
    private static func scanEnds(
        _ oldCount: Int, _ newCount: Int, _ stride: Int, _ same: (Int, Int) -> Bool, equal: (Int, Int) -> Bool
    ) -> (prefix: Int, suffix: Int) {
        let shorter = min(oldCount, newCount)
        var prefix = 0
        while prefix < shorter, equal(prefix &* stride, prefix &* stride) || same(prefix, prefix) {
            prefix &+= 1
        }
        var suffix = 0
        while suffix < shorter &- prefix {
            let oldIndex = oldCount &- 1 &- suffix
            let newIndex = newCount &- 1 &- suffix
            guard equal(oldIndex &* stride, newIndex &* stride) || same(oldIndex, newIndex) else { break }
            suffix &+= 1
        }
        return (prefix, suffix)
    }

    /// Whether `size` bytes at `a + aOffset` and `b + bOffset` match.
    @inline(__always)
    private static func bytesEqual(_ a: UnsafeRawBufferPointer, at aOffset: Int, _ b: UnsafeRawBufferPointer, at bOffset: Int, size: Int) -> Bool {
        let a = a.baseAddress.unsafelyUnwrapped + aOffset
        let b = b.baseAddress.unsafelyUnwrapped + bOffset
        var offset = 0
        while offset + 8 <= size {
            guard a.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == b.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
            offset += 8
        }
        while offset < size {
            guard a.load(fromByteOffset: offset, as: UInt8.self) == b.load(fromByteOffset: offset, as: UInt8.self) else { return false }
            offset += 1
        }
        return true
    }

    /// Bytes compared per `memcmp` call before narrowing down to words.
    private static let block = 256

    /// The offset of the first byte in `start..<end` where the buffers differ, or `end`.
    private static func firstDifferingByte(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int {
        var offset = start
        while offset + block <= end, memcmp(a.baseAddress! + offset, b.baseAddress! + offset, block) == 0 {
            offset += block
        }
        while offset + 8 <= end,
            a.loadUnaligned(fromByteOffset: offset, as: UInt64.self) == b.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        {
            offset += 8
        }
        while offset < end, a[offset] == b[offset] {
            offset += 1
        }
        return offset
    }

    /// How many bytes before `oldEnd` and `newEnd` match, up to `limit`.
    private static func matchingTrailingBytes(_ a: UnsafeRawBufferPointer, oldEnd: Int, _ b: UnsafeRawBufferPointer, newEnd: Int, limit: Int) -> Int {
        var matched = 0
        while matched + block <= limit, memcmp(a.baseAddress! + oldEnd - matched - block, b.baseAddress! + newEnd - matched - block, block) == 0 {
            matched += block
        }
        while matched + 8 <= limit,
            a.loadUnaligned(fromByteOffset: oldEnd - matched - 8, as: UInt64.self)
                == b.loadUnaligned(fromByteOffset: newEnd - matched - 8, as: UInt64.self)
        {
            matched += 8
        }
        while matched < limit, a[oldEnd - matched - 1] == b[newEnd - matched - 1] {
            matched += 1
        }
        return matched
    }
}
