/// The envelope of a transaction line, read at the speed of a byte scan: the step, the time,
/// the cause and the atoms written, for lines in the shape the recorder writes most
/// (`[seq,t,"cause",origin,at,[[id,"v",scalar],[id,"="],…]]`).
///
/// It reads with ``JSONScanner``'s own checks for every number and value, and gives up
/// (`nil`) on anything else: spaces, escapes, keyed entries, deltas, graph changes. Those
/// lines are read by ``TransactionLine``. So a line this accepts is one ``TransactionLine``
/// accepts too, with the same step, cause and atoms: `stats` and `log` judge a journal alike.
struct TransactionEnvelope {
    var seq: Int
    /// The time's bytes.
    var time: Range<Int>
    /// The cause's bytes (it has no escapes).
    var cause: Range<Int>

    /// The most value entries a line may have here (more go to ``TransactionLine``).
    static let idCapacity = 1024

    /// Reads the line `line` of `raw`; the atoms of its value entries go to `ids` (`count`
    /// of them, at most ``idCapacity``). `nil` when the line is not in the common shape.
    @inline(__always)
    static func read(_ raw: UnsafeRawBufferPointer, _ line: Range<Int>, version: Int, ids: UnsafeMutablePointer<Int>, count: inout Int) -> TransactionEnvelope? {
        count = 0
        guard version >= 2, line.count > 2 else { return nil }
        var scanner = JSONScanner(raw, range: line.lowerBound + 1..<line.upperBound)
        let end = line.upperBound
        func next(_ byte: UInt8) -> Bool {
            guard scanner.position < end, raw[scanner.position] == byte else { return false }
            scanner.position += 1
            return true
        }
        func isDigit() -> Bool {
            scanner.position < end && raw[scanner.position] &- 0x30 < 10
        }
        guard raw[line.lowerBound] == UInt8(ascii: "["), isDigit(), let seq = try? scanner.integer(), next(UInt8(ascii: ",")) else { return nil }
        // The time: a plain number (an exponent is left to the general reader).
        guard isDigit() || raw[scanner.position] == UInt8(ascii: "-"), let time = try? scanner.numberRange(), time.count < 24 else { return nil }
        for index in time where raw[index] == UInt8(ascii: "e") || raw[index] == UInt8(ascii: "E") {
            return nil
        }
        guard next(UInt8(ascii: ",")), next(UInt8(ascii: "\"")) else { return nil }
        let causeStart = scanner.position
        while scanner.position < end, raw[scanner.position] != UInt8(ascii: "\""), raw[scanner.position] >= 0x20, raw[scanner.position] != UInt8(ascii: "\\"), raw[scanner.position] < 0x80 {
            scanner.position += 1
        }
        let cause = causeStart..<scanner.position
        guard next(UInt8(ascii: "\"")), next(UInt8(ascii: ",")), isDigit(), (try? scanner.integer()) != nil, next(UInt8(ascii: ",")),
            isDigit(), (try? scanner.integer()) != nil, next(UInt8(ascii: ",")), next(UInt8(ascii: "["))
        else { return nil }
        if !next(UInt8(ascii: "]")) {
            while true {
                guard next(UInt8(ascii: "[")), isDigit(), let id = try? scanner.integer(), count < idCapacity else { return nil }
                ids[count] = id
                count += 1
                guard next(UInt8(ascii: ",")), next(UInt8(ascii: "\"")), scanner.position + 2 < end else { return nil }
                let kind = raw[scanner.position]
                guard raw[scanner.position + 1] == UInt8(ascii: "\"") else { return nil }
                scanner.position += 2
                if kind == UInt8(ascii: "="), version >= 3 {
                    guard next(UInt8(ascii: "]")) else { return nil }
                } else if kind == UInt8(ascii: "v") {
                    // A scalar: containers and strings are left to the general reader.
                    guard next(UInt8(ascii: ",")), scanner.position < end else { return nil }
                    let first = raw[scanner.position]
                    guard first != UInt8(ascii: "["), first != UInt8(ascii: "{"), first != UInt8(ascii: "\""), first > 0x20,
                        (try? scanner.skipValue()) != nil, next(UInt8(ascii: "]"))
                    else { return nil }
                } else {
                    return nil
                }
                if next(UInt8(ascii: "]")) { break }
                guard next(UInt8(ascii: ",")) else { return nil }
            }
        }
        // The line ends with the transaction's own bracket; graph changes go to the general reader.
        guard next(UInt8(ascii: "]")), scanner.position == end else { return nil }
        return TransactionEnvelope(seq: seq, time: time, cause: cause)
    }
}
