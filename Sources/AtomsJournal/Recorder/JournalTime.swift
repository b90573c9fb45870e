/// A step's time as the journal writes it: milliseconds since recording started, to the
/// microsecond, as short as possible (`12`, `12.5`, `12.345`).
enum JournalTime {
    /// Appends the time of the monotonic clock stamp `timestamp`, counted from `clockStart`.
    static func appendMilliseconds(since clockStart: UInt64, at timestamp: UInt64, to output: inout [UInt8]) {
        var micros = timestamp >= clockStart ? Int((timestamp &- clockStart + 500) / 1_000) : -Int((clockStart &- timestamp + 500) / 1_000)
        if micros < 0 {
            output.append(UInt8(ascii: "-"))
            micros = -micros
        }
        output.appendDecimal(micros / 1_000)
        var fraction = micros % 1_000
        guard fraction != 0 else { return }
        output.append(UInt8(ascii: "."))
        var digits = 3
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        var divisor = digits == 3 ? 100 : digits == 2 ? 10 : 1
        while divisor > 0 {
            output.append(UInt8(ascii: "0") + UInt8(fraction / divisor % 10))
            divisor /= 10
        }
    }
}
