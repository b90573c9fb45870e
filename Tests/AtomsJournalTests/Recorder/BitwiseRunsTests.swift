import Testing
@testable import AtomsJournal

/// The equal runs at the ends of two arrays' raw storage, with and without padding between
/// elements: padding never decides, an element's own bytes do, and `same` for bytes that differ.
struct BitwiseRunsTests {
    /// Elements of `size` bytes, `stride` apart: element `i`'s bytes are `values[i]` repeated,
    /// its padding `padding` (different in the two arrays, as copies leave it).
    private static func storage(_ values: [UInt8], size: Int, stride: Int, padding: UInt8) -> [UInt8] {
        values.flatMap { Array(repeating: $0, count: size) + Array(repeating: padding, count: stride - size) }
    }

    private static func ends(_ old: [UInt8], _ new: [UInt8], size: Int, stride: Int, same: (Int, Int) -> Bool = { _, _ in false }) -> (prefix: Int, suffix: Int) {
        let oldBytes = storage(old, size: size, stride: stride, padding: 0xAA)
        let newBytes = storage(new, size: size, stride: stride, padding: 0x55)
        return oldBytes.withUnsafeBytes { oldRaw in
            newBytes.withUnsafeBytes { newRaw in
                BitwiseRuns.equalEnds(oldRaw, count: old.count, newRaw, count: new.count, size: size, stride: stride, same: same)
            }
        }
    }

    @Test(arguments: [
        (size: 25, stride: 32), (size: 9, stride: 16), (size: 1, stride: 2), (size: 16, stride: 16), (size: 3, stride: 3),
        // Five and four whole words before the masked one (the loop beyond four), and a last
        // word that would reach past the element (compared byte by byte).
        (size: 41, stride: 48), (size: 33, stride: 40), (size: 11, stride: 12),
    ])
    func oneChangedElementLeavesTheOthersAtTheEnds(size: Int, stride: Int) {
        let old = (0..<40).map { UInt8($0) }
        var new = old
        new[17] = 200
        let runs = Self.ends(old, new, size: size, stride: stride)
        #expect(runs.prefix == 17)
        #expect(runs.suffix == 22)
    }

    @Test(arguments: [(size: 25, stride: 32), (size: 16, stride: 16)])
    func insertedElementsSplitTheRuns(size: Int, stride: Int) {
        let old = (0..<30).map { UInt8($0) }
        var new = old
        new.insert(contentsOf: [100, 101, 102], at: 10)
        let runs = Self.ends(old, new, size: size, stride: stride)
        #expect(runs.prefix == 10)
        #expect(runs.suffix == 20)
    }

    @Test func bytesThatDifferAreEqualWhenSameSaysSo() {
        let old: [UInt8] = [1, 2, 3, 4, 5]
        let new: [UInt8] = [1, 9, 3, 8, 5]
        // Element 1 differs in its bytes but is "equal" (as `0.0` and `-0.0` are); element 3 is not.
        let runs = Self.ends(old, new, size: 9, stride: 16) { oldIndex, newIndex in
            oldIndex == 1 && newIndex == 1
        }
        #expect(runs.prefix == 3)
        #expect(runs.suffix == 1)
    }

    /// An element whose bytes differ only in its last own byte, just before its padding: the
    /// word compared there is masked, and that byte still counts.
    @Test(arguments: [(size: 25, stride: 32), (size: 9, stride: 16), (size: 17, stride: 24), (size: 1, stride: 2), (size: 41, stride: 48), (size: 33, stride: 40), (size: 11, stride: 12)])
    func aDifferenceInTheLastByteBeforeThePaddingCounts(size: Int, stride: Int) {
        let count = 12
        var oldBytes = Self.storage(Array(repeating: 5, count: count), size: size, stride: stride, padding: 0xAA)
        var newBytes = Self.storage(Array(repeating: 5, count: count), size: size, stride: stride, padding: 0x55)
        newBytes[7 * stride + size - 1] = 6
        oldBytes[2 * stride + size] = 0x11
        let runs = oldBytes.withUnsafeBytes { oldRaw in
            newBytes.withUnsafeBytes { newRaw in
                BitwiseRuns.equalEnds(oldRaw, count: count, newRaw, count: count, size: size, stride: stride) { _, _ in false }
            }
        }
        #expect(runs.prefix == 7 && runs.suffix == 4)
    }

    @Test func equalArraysAreOneRunNotCountedTwice() {
        let values: [UInt8] = [7, 7, 7, 7]
        let runs = Self.ends(values, values, size: 25, stride: 32)
        #expect(runs.prefix + runs.suffix == 4)
    }
}
