import Foundation

/// The header line a recorder writes at the top of its journal, and of every segment of a
/// bounded journal.
package struct JournalHeaderLine: Sendable {
    /// When recording started, ISO 8601.
    package let created: String
    /// The fewest transactions between keyframes.
    package let keyframeInterval: Int
    /// The recording program.
    package let program: String?
    /// The size limit of a bounded journal, in bytes.
    package let limit: Int?
    /// Whether the recorder writes timing lines: the minor version says so (4.2 with them,
    /// 4.0 without), so a reader knows a journal without them from one whose transactions
    /// cost nothing.
    package let timed: Bool
    /// The step recording started at (set when the first keyframe is written).
    package var startStep = 0

    /// A header; `timed` when the journal has timing lines.
    package init(created: String, keyframeInterval: Int, program: String?, limit: Int?, timed: Bool, startStep: Int = 0) {
        self.created = created
        self.keyframeInterval = keyframeInterval
        self.program = program
        self.limit = limit
        self.timed = timed
        self.startStep = startStep
    }

    /// The line (without its newline); `segment` numbers a bounded journal's segment.
    package func line(segment: Int?) -> String {
        var line = commonFields()
        if let limit, let segment {
            line.field("limit", limit)
            line.field("segment", segment)
            line.field("startStep", startStep)
        }
        return line.finished()
    }

    /// The header of a flight recorder's dump (without its newline): one file, so no segment
    /// number; `limit` is the size the flight recorder keeps, and `startStep` the step
    /// recording started at.
    func dumpLine() -> String {
        var line = commonFields()
        if let limit {
            line.field("limit", limit)
            line.field("startStep", startStep)
        }
        return line.finished()
    }

    /// The fields every header has, in order.
    private func commonFields() -> JSONLine {
        var line = JSONLine()
        line.field("format", JournalFormat.name)
        line.field("version", JournalFormat.majorVersion)
        // Without timing lines a journal is what 4.0 wrote.
        line.field("minor", timed ? JournalFormat.minorVersion : 0)
        line.field("created", created)
        line.field("keyframeInterval", keyframeInterval)
        if let program {
            line.field("program", program)
        }
        return line
    }
}
