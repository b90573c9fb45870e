/// The text of a ``Profile``: totals, atoms as pprof's `top` lists functions (flat and
/// cumulative time, their shares), the slowest transactions, and tasks.
enum ProfileTable {
    /// The tables, each line ending without trailing spaces.
    static func text(of profile: Profile) -> String {
        let totals = profile.totals
        var lines: [String] = []
        lines.append("steps \(profile.from)…\(profile.to): \(totals.transactions) timed transactions, \(totals.evaluations) evaluations (\(totals.wasted) wasted)")
        lines.append("runtime \(milliseconds(totals.runtimeNs)), observers \(milliseconds(totals.observersNs)), effects \(milliseconds(totals.effectsNs)), subscribers \(milliseconds(totals.subscribersNs))")
        lines.append("")
        let totalSelf = max(1, profile.atoms.reduce(0) { $0 &+ $1.selfNs })
        var table = [["self", "self%", "sum%", "total", "max", "evals", "wasted", "notified", "atom"]]
        var sum = 0
        for atom in profile.atoms {
            sum &+= atom.selfNs
            table.append([
                milliseconds(atom.selfNs), percent(atom.selfNs, of: totalSelf), percent(sum, of: totalSelf),
                milliseconds(atom.totalNs), milliseconds(atom.maxNs), String(atom.evaluations), String(atom.wasted),
                String(atom.notifications), atom.atom,
            ])
        }
        lines += aligned(table)
        if !profile.slowest.isEmpty {
            lines.append("")
            lines.append("slowest transactions")
            var slowest = [["step", "total", "runtime", "observers", "effects", "subscribers", "evals", "slowest atom", "cause and write site"]]
            for transaction in profile.slowest {
                slowest.append([
                    String(transaction.step), milliseconds(transaction.totalNs), milliseconds(transaction.runtimeNs),
                    milliseconds(transaction.observersNs), milliseconds(transaction.effectsNs), milliseconds(transaction.subscribersNs),
                    String(transaction.evaluations), transaction.slowestAtom ?? "-",
                    transaction.at.map { "\(transaction.cause) \($0)" } ?? transaction.cause,
                ])
            }
            lines += aligned(slowest)
        }
        if !profile.tasks.isEmpty {
            lines.append("")
            lines.append("async tasks")
            var tasks = [["started", "took", "outcome", "step", "atom"]]
            for task in profile.tasks {
                tasks.append([milliseconds(task.startNs), milliseconds(task.endNs &- task.startNs), task.outcome, String(task.step), task.atom])
            }
            lines += aligned(tasks)
        }
        return lines.joined(separator: "\n")
    }

    /// Nanoseconds as milliseconds with three decimals (`0.012ms`).
    static func milliseconds(_ nanoseconds: Int) -> String {
        // Rounded to the microsecond without overflow (a damaged line may say anything).
        let micros = nanoseconds / 1_000 &+ (nanoseconds % 1_000 >= 500 ? 1 : 0)
        return "\(micros / 1_000)." + String(micros % 1_000).leftPadded(to: 3, with: "0") + "ms"
    }

    private static func percent(_ part: Int, of whole: Int) -> String {
        let (scaled, overflow) = part.multipliedReportingOverflow(by: 1_000)
        guard !overflow, whole > 0 else {
            // Times no clock gives (a damaged line): a share, not a trap.
            let ratio = Double(part) * 1_000 / Double(whole)
            return ratio.isFinite && abs(ratio) < 1e15 ? "\(Int(ratio) / 10).\(abs(Int(ratio)) % 10)%" : "?%"
        }
        let tenths = (scaled &+ whole / 2) / whole
        return "\(tenths / 10).\(tenths % 10)%"
    }

    /// Rows with every column but the last right-aligned to its widest cell.
    static func aligned(_ rows: [[String]]) -> [String] {
        guard let columns = rows.first?.count else { return [] }
        let widths = (0..<columns).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == columns - 1 ? cell : cell.leftPadded(to: widths[column])
            }.joined(separator: "  ")
        }
    }
}
