/// Everything the timeline's screen depends on besides its size: the frame at the current
/// step, and what the user has open (a pane focused, an atom selected, a prompt, an overlay).
///
/// ``TimelineProgram`` changes it, one key at a time; ``TimelineRender`` draws it.
package struct TimelineModel: Sendable, Equatable {
    /// The two panes Tab moves between.
    package enum Pane: Sendable, Equatable {
        case transactions, values
    }

    /// A line being typed at the bottom.
    package enum Prompt: Sendable, Equatable {
        /// `g`: a step to go to.
        case goTo
        /// `/`: an atom whose next change to find, or an expression as `where` takes.
        case search
    }

    /// A scrollable text over the panes.
    package struct Overlay: Sendable, Equatable {
        /// Its title.
        package var title: String
        /// Its lines.
        package var lines: [String]
        /// The first line shown.
        package var scroll = 0
    }

    /// The step shown.
    package var frame: TimelineFrame
    /// The focused pane.
    package var focus = Pane.values
    /// The selected atom (an index into `frame.atoms`).
    package var selected = 0
    /// A prompt being typed, and its text so far.
    package var prompt: Prompt?
    package var promptText = ""
    /// Help, a value or a blame, shown over the panes.
    package var overlay: Overlay?
    /// A line for the user: a search's result, an error.
    package var message: Message?
    /// Whether `End` is following a journal still being recorded.
    package var following = false

    /// A model showing `frame`.
    package init(frame: TimelineFrame) {
        self.frame = frame
    }

    /// The selected atom's row, if there are atoms.
    package var selectedAtom: TimelineFrame.AtomRow? {
        frame.atoms.indices.contains(selected) ? frame.atoms[selected] : nil
    }
}

/// Where the timeline's parts go on a screen of a given size.
package struct TimelineLayout: Sendable, Equatable {
    /// The screen's size.
    package let columns: Int, rows: Int
    /// Rows of the transactions pane and of the values pane.
    package let transactionRows: Int, valueRows: Int

    /// The smallest screen the timeline is drawn on; smaller ones say so.
    package static let minimum = (columns: 40, rows: 12)

    /// The layout of a `columns`×`rows` screen: two header lines, two pane titles, the panes
    /// (a third of the room for transactions, at most 15 rows), a message line and the key line.
    package init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        let body = max(2, rows - 6)
        transactionRows = max(1, min(15, body / 3))
        valueRows = max(1, body - transactionRows)
    }

    /// Lines of text an overlay shows (under its title, in place of both panes).
    package var overlayRows: Int {
        transactionRows + valueRows + 1
    }

    /// Whether the screen is big enough to draw the timeline.
    package var fits: Bool {
        columns >= Self.minimum.columns && rows >= Self.minimum.rows
    }
}

extension TimelineModel {
    /// A line for the user under the panes.
    package struct Message: Equatable, Sendable {
        package var text: String
        /// Whether it says a command failed (shown in red).
        package var isError: Bool

        /// A line telling what happened.
        package static func notice(_ text: String) -> Message { Message(text: text, isError: false) }

        /// A command's error, as the step prompt shows it.
        package static func error(_ error: InspectorError) -> Message {
            Message(text: StepSession.errorText(error), isError: true)
        }
    }
}
