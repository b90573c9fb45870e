import AtomsJournalReader

/// The console, watches and hovers (`evaluate`), and writing values (`setVariable`,
/// `setExpression`).
extension DebugAdapter {
    /// `evaluate`: a console line (a command of the step prompt, else an expression), a watch
    /// or a hover (a path or a condition).
    func evaluate(_ request: DAPRequest, _ history: DebugHistory) throws -> [DAPOutgoing] {
        let arguments = try request.arguments(DAPBody.EvaluateArguments.self)
        // A console line that is not a command is an expression, as a watch's (older clients
        // hover in the console).
        if arguments.context == "repl", arguments.expression.split(whereSeparator: \.isWhitespace).first.map({ StepVerb(spelling: $0) != nil }) ?? true {
            let before = history.position
            let reply = try history.command(arguments.expression)
            let body = DAPBody.Evaluate(result: reply?.text ?? "", type: nil, variablesReference: 0)
            guard history.position != before else { return [.response(to: request, body)] }
            variables.reset()
            return [.response(to: request, body), try stopped("goto", history)]
        }
        let state = history.state
        let expression: WhereExpression
        let bound: BoundExpression
        do {
            expression = try WhereExpression.parse(arguments.expression)
            bound = try BoundExpression(expression, declarations: state.declarations, journal: history.journal.path)
        } catch {
            guard arguments.context == "repl" else { throw error }
            let word = arguments.expression.split(whereSeparator: \.isWhitespace).first.map(String.init) ?? ""
            throw InspectorError(.usage, "unknown command '\(word)', and '\(arguments.expression)' is not an expression (\(Self.text(error))) — type help for the commands, or a path such as StatsAtom.total")
        }
        guard case .path(let path) = expression else {
            let result = bound.holds(in: state.values)
            return [.response(to: request, DAPBody.Evaluate(result: String(result), type: "boolean", variablesReference: 0))]
        }
        let value = bound.value(of: path, in: state.values)
        let (reference, _, _) = variables.expand(value, path: path)
        return [.response(to: request, DAPBody.Evaluate(result: DebugVariables.preview(value), type: DebugVariables.typeName(value), variablesReference: reference))]
    }

    /// Sets `path` to `value` (JSON) in the running program: the response reads the value
    /// back at the new step, and the editor is told to refresh.
    func write(_ path: String, _ value: String, _ request: DAPRequest, _ history: DebugHistory) throws -> [DAPOutgoing] {
        let reply = try history.set(path, to: value)
        variables.reset()
        let expression = try WhereExpression.parse(path)
        let bound = try BoundExpression(expression, declarations: history.state.declarations, journal: history.journal.path)
        guard case .path(let valuePath) = expression else {
            throw InspectorError(.usage, "'\(path)' is not an atom or a member of its value")
        }
        let written = bound.value(of: valuePath, in: history.state.values)
        let (reference, _, _) = variables.expand(written, path: valuePath)
        let body = DAPBody.SetValue(value: DebugVariables.preview(written), type: DebugVariables.typeName(written), variablesReference: reference)
        let console = DAPOutgoing.event("output", DAPBody.Output(category: "console", output: reply.text + "\n"))
        return [.response(to: request, body), console, try refresh(history, note: "\(path) set by atoms-inspect")]
    }
}
