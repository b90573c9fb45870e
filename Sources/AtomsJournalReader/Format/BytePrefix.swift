#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension UnsafeRawBufferPointer {
    /// Whether the bytes in `range` start with `prefix` and go on past it: one `memcmp`, where
    /// comparing a slice element by element costs a call per byte (it was 40 % of `stats`).
    @inline(__always)
    func hasPrefix(_ prefix: [UInt8], in range: Range<Int>) -> Bool {
        guard range.count > prefix.count, let base = baseAddress else { return false }
        return prefix.withUnsafeBytes { memcmp(base + range.lowerBound, $0.baseAddress!, prefix.count) == 0 }
    }
}
