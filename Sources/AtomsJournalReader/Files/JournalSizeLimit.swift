/// A journal size limit as a user writes it: bytes, or a number with a `KB`, `MB` or `GB`
/// suffix, or `K`, `M` or `G` alone (powers of 1024, any case): `65536`, `64KB`, `4MB`, `4M`,
/// `1GB`.
package enum JournalSizeLimit {
    /// The limit in bytes, or `nil` when the text is not a size or is out of range.
    package static func parse(_ text: String) -> Int? {
        let upper = text.uppercased()
        let units: [(suffix: String, factor: Int)] = [("KB", 1 << 10), ("MB", 1 << 20), ("GB", 1 << 30), ("K", 1 << 10), ("M", 1 << 20), ("G", 1 << 30), ("B", 1)]
        let unit = units.first { upper.hasSuffix($0.suffix) } ?? ("", 1)
        let digits = upper.dropLast(unit.suffix.count)
        guard !digits.isEmpty, digits.count <= 12, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(digits) else {
            return nil
        }
        let (bytes, overflow) = number.multipliedReportingOverflow(by: unit.factor)
        return overflow ? nil : bytes
    }

    /// The smallest limit a recorder accepts: a segment must hold a keyframe and some
    /// transactions.
    package static let minimum = 4 << 10
}
