/// Draws the timeline: a pure function of the model and the screen's size to its lines.
///
/// Every line fits the width; there are exactly as many lines as rows. With `colored` off
/// (`NO_COLOR`, or a terminal without colours) the lines hold no escape codes: marks say what
/// colours would (`▶` the current transaction, `›` the selected atom, `*` `+` `-` what the
/// step changed, created, released).
package enum TimelineRender {
    private typealias Span = ScreenText.Span

    /// The screen's lines.
    package static func lines(_ model: TimelineModel, layout: TimelineLayout, colored: Bool) -> [String] {
        guard layout.fits else {
            let message = "enlarge the terminal to \(TimelineLayout.minimum.columns)×\(TimelineLayout.minimum.rows) or more (q quits)"
            return [ScreenText.fitted(message, to: layout.columns)] + Array(repeating: "", count: max(0, layout.rows - 1))
        }
        var rows: [[Span]] = header(model.frame)
        if let overlay = model.overlay {
            rows += self.overlay(overlay, height: layout.overlayRows + 1, columns: layout.columns)
        } else {
            rows.append(title("Transactions", focused: model.focus == .transactions, columns: layout.columns))
            rows += transactions(model.frame, height: layout.transactionRows)
            let count = model.frame.atoms.filter { $0.change != .released }.count
            rows.append(title("Values at step \(model.frame.position) · \(count) live atom\(count == 1 ? "" : "s") · * changed (was …) + created - released", focused: model.focus == .values, columns: layout.columns))
            rows += values(model, height: layout.valueRows, columns: layout.columns)
        }
        rows.append(statusLine(model))
        rows.append(keyLine(model))
        return rows.map { fit($0, to: layout.columns, colored: colored) }
    }

    private static func header(_ frame: TimelineFrame) -> [[Span]] {
        let name = frame.path.split(separator: "/").last.map(String.init) ?? frame.path
        var first: [Span] = [Span(" atoms-inspect ", .reverse), Span(" \(name)  "), Span("[\(frame.position)/\(frame.last)]", .bold)]
        if let transaction = frame.transaction {
            first.append(Span("  t +" + LogCommand.seconds(milliseconds: transaction.t) + "s", .dim))
        }
        if frame.mayGrow { first.append(Span("  (still being recorded: End follows it)", .dim)) }
        guard let transaction = frame.transaction else {
            return [first, [Span(" before the first transaction", .dim)]]
        }
        let atoms = LogCommand.listedAtoms(of: transaction)
        var second: [Span] = [Span(" "), Span(transaction.cause, .cyan), Span("  @ " + (transaction.at ?? "no write site"), .bold)]
        second.append(Span("  " + (atoms.isEmpty ? "-" : atoms.joined(separator: ", "))))
        return [first, second]
    }

    private static func title(_ text: String, focused: Bool, columns: Int) -> [Span] {
        let label = (focused ? "▸ " : "  ") + text + " "
        return [Span("─", .dim), Span(label, focused ? .bold : .dim), Span(String(repeating: "─", count: max(0, columns - ScreenText.width(of: label) - 1)), .dim)]
    }

    private static func transactions(_ frame: TimelineFrame, height: Int) -> [[Span]] {
        var rows: [[Span]] = []
        if frame.position == frame.first, frame.transactions.first.map({ $0.step == frame.first + 1 }) ?? true {
            rows.append([Span("▶ " + String(frame.first).leftPadded(to: 5) + "  (the state before the first transaction)", .reverse)])
        }
        for entry in frame.transactions where rows.count < height {
            let text = LogCommand.text(of: entry, style: .plain)
            rows.append(entry.step == frame.position ? [Span("▶ " + text, .reverse)] : [Span("  " + text)])
        }
        return rows + Array(repeating: [], count: max(0, height - rows.count))
    }

    private static func values(_ model: TimelineModel, height: Int, columns: Int) -> [[Span]] {
        let atoms = model.frame.atoms
        guard !atoms.isEmpty else {
            return [[Span("  no live atoms", .dim)]] + Array(repeating: [], count: max(0, height - 1))
        }
        // Scrolled so that the selected atom shows.
        let top = max(0, min(model.selected - height / 2, atoms.count - height))
        var rows: [[Span]] = []
        for (index, atom) in atoms.enumerated().dropFirst(top).prefix(height) {
            let isSelected = index == model.selected && model.focus == .values
            let marker = index == model.selected ? "›" : " "
            var spans: [Span]
            switch atom.change {
            case .released:
                spans = [Span("\(marker)- "), Span(atom.name, .red), Span("  released, was " + oneLine(atom.previous ?? "?"), .dim)]
            default:
                let mark = [TimelineFrame.Change.changed: "*", .created: "+"][atom.change] ?? " "
                let was = atom.previous.map { "  was " + oneLine($0) }
                let marks = atom.marks.isEmpty ? "" : "  (\(atom.marks.joined(separator: ", ")))"
                // The value leaves the previous one at least two fifths of the room.
                let room = columns - 3 - ScreenText.width(of: atom.name) - ScreenText.width(of: marks)
                let valueRoom = room - min(was.map { ScreenText.width(of: $0) } ?? 0, room * 2 / 5)
                spans = [Span("\(marker)\(mark) "), Span(atom.name, atom.change == .unchanged ? .bold : .yellow), Span(ScreenText.fitted(" = " + oneLine(atom.value), to: max(4, valueRoom)))]
                if !marks.isEmpty { spans.append(Span(marks, .dim)) }
                if let was { spans.append(Span(was, .dim)) }
            }
            rows.append(isSelected ? spans.map { Span($0.text, .reverse) } : spans)
        }
        return rows + Array(repeating: [], count: max(0, height - rows.count))
    }

    private static func overlay(_ overlay: TimelineModel.Overlay, height: Int, columns: Int) -> [[Span]] {
        var rows = [title(overlay.title + " · ↑↓ PgUp PgDn scroll, Esc closes", focused: true, columns: columns)]
        rows += overlay.lines.dropFirst(overlay.scroll).prefix(height - 1).map { [Span(" " + $0)] }
        return rows + Array(repeating: [], count: max(0, height - rows.count))
    }

    private static func statusLine(_ model: TimelineModel) -> [Span] {
        switch model.prompt {
        case .goTo?: return [Span("go to step: ", .bold), Span(model.promptText + "▏")]
        case .search?: return [Span("find (an atom, or an expression with a comparison): ", .bold), Span(model.promptText + "▏")]
        case nil: break
        }
        if model.following {
            return [Span("following the journal: new transactions appear as they are recorded (a step key stops)", .green)]
        }
        return model.message.map { [Span($0.text, $0.isError ? .red : .yellow)] } ?? []
    }

    private static func keyLine(_ model: TimelineModel) -> [Span] {
        let keys: [(String, String)] =
            model.prompt != nil ? [("Enter", "go"), ("Esc", "cancel")]
            : model.overlay != nil ? [("↑↓ PgUp PgDn", "scroll"), ("Esc", "close")]
            : [("q", "quit"), ("?", "help"), ("←→", "step"), ("g", "go to"), ("/", "find"), ("b", "blame"), ("Enter", "value"), ("Tab", "pane"), ("PgUp/PgDn", "±10"), ("Home/End", "first/last")]
        return keys.flatMap { [Span($0.0, .bold), Span(" " + $0.1 + "  ", .dim)] }
    }

    /// A value on one line: indented JSON joined up (`[{"id": 1}]`).
    static func oneLine(_ text: String) -> String {
        var result = ""
        for line in text.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " }
            if let last = result.last, !"[{".contains(last), !trimmed.hasPrefix("]"), !trimmed.hasPrefix("}") {
                result += " "
            }
            result += trimmed
        }
        return result
    }

    /// A row of spans cut to the width (padding is left to the terminal's erase-line).
    private static func fit(_ spans: [Span], to columns: Int, colored: Bool) -> String {
        var left = columns
        var fitted: [Span] = []
        for span in spans where left > 0 {
            let text = ScreenText.fitted(span.text, to: left)
            left -= ScreenText.width(of: text)
            fitted.append(Span(text, span.attribute))
        }
        return ScreenText.line(fitted, colored: colored)
    }
}
