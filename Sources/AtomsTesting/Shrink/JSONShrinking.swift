import AtomsJournal

/// Smaller recorded values, tried in turn while a test accepts them: what a shrink makes of
/// each kept write's value once the writes are 1-minimal.
///
/// A value becomes `null` (an optional's `nil`) where that is accepted; else an array loses
/// elements and an object members (by delta debugging, so that taking out any one more is
/// refused), strings get shorter (from either end), numbers move toward 0 and `true` becomes `false`; then what
/// is left is shrunk inside. Candidates that do not decode as today's type are refused by the
/// test without a trial.
enum JSONShrinking {
    /// The smallest value reached from `value` by the steps above, each accepted by `accepts`
    /// (`nil`: out of budget, stop where the shrink stands).
    static func shrink(_ value: JSONValue, accepts: (JSONValue) -> Bool?) -> (value: JSONValue, isComplete: Bool) {
        var stopped = false
        func accepted(_ candidate: JSONValue) -> Bool {
            guard !stopped else { return false }
            guard let answer = accepts(candidate) else {
                stopped = true
                return false
            }
            return answer
        }
        let result = shrink(value, accepted)
        return (result, !stopped)
    }

    private static func shrink(_ value: JSONValue, _ accepted: (JSONValue) -> Bool) -> JSONValue {
        if value != .null, accepted(.null) {
            return .null
        }
        switch value {
        case .array(let elements):
            var kept = elements
            if kept.count > 0 {
                let minimized = DeltaDebugging.minimize(Array(kept.indices)) { indices in
                    indices.count == kept.count ? true : accepted(.array(indices.map { kept[$0] }))
                }
                kept = minimized.kept.map { kept[$0] }
            }
            for index in kept.indices {
                kept[index] = shrink(kept[index]) { candidate in
                    var trial = kept
                    trial[index] = candidate
                    return accepted(.array(trial))
                }
            }
            return .array(kept)
        case .object(let members):
            var kept = members
            let keys = kept.keys.sorted()
            if !keys.isEmpty {
                let minimized = DeltaDebugging.minimize(keys) { chosen in
                    chosen.count == keys.count ? true : accepted(.object(kept.filter { chosen.contains($0.key) }))
                }
                kept = kept.filter { minimized.kept.contains($0.key) }
            }
            for key in kept.keys.sorted() {
                guard let member = kept[key] else { continue }
                kept[key] = shrink(member) { candidate in
                    var trial = kept
                    trial[key] = candidate
                    return accepted(.object(trial))
                }
            }
            return .object(kept)
        case .string(let text):
            var current = text
            while !current.isEmpty {
                let half = current.count / 2
                let shorter = [String(), String(current.prefix(half)), String(current.suffix(half)), String(current.dropLast()), String(current.dropFirst())]
                guard let next = shorter.first(where: { $0.count < current.count && accepted(.string($0)) }) else { break }
                current = next
            }
            return .string(current)
        case .number(let number):
            return .number(shrink(number, accepted))
        case .bool(true):
            return accepted(.bool(false)) ? .bool(false) : value
        case .bool(false), .null:
            return value
        }
    }

    /// A number moved toward 0: 0, half of it, one step nearer (integers exactly, by their
    /// digits; a fraction to its whole part first).
    private static func shrink(_ number: JSONNumber, _ accepted: (JSONValue) -> Bool) -> JSONNumber {
        if let integer = number.int64 {
            var current = integer
            while current != 0 {
                let nearer = [Int64(0), current / 2, current > 0 ? current - 1 : current + 1]
                guard let next = nearer.first(where: { $0.magnitude < current.magnitude && accepted(.number(JSONNumber($0))) }) else { break }
                current = next
            }
            return JSONNumber(current)
        }
        guard number.isInteger == false else { return number }
        let value = number.double
        guard value.isFinite else { return number }
        for candidate in [0, value.rounded(.towardZero)] where candidate.magnitude < value.magnitude {
            if accepted(.number(JSONNumber(candidate))) {
                // A whole number within Int64 shrinks on as an integer.
                return candidate == 0 || candidate.magnitude >= 9.2e18 ? JSONNumber(candidate) : shrink(JSONNumber(Int64(candidate)), accepted)
            }
        }
        return number
    }
}
