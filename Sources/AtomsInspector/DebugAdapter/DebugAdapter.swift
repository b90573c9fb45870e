import AtomsJournalReader
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `atoms-inspect dap`: a Debug Adapter Protocol session over a journal's history (`launch`)
/// or a running program's (`attach`).
///
/// The history is one thread; its position is a step. The stack's one frame is the step's
/// transaction at its write site, resolved to a file under the source root
/// (``WriteSiteResolver``); the variables are the live atoms; moving forward and back, and
/// running to breakpoints, go through the step prompt's session and search. See
/// docs/DEBUG_ADAPTER.md.
///
/// Feed it each request's body (``handle(_:)``); it answers with the messages to send, in
/// order. ``DebugAdapterServer`` runs it over stdin and stdout.
package final class DebugAdapter {
    /// The working directory: the default source root, and what relative paths are against.
    private let workingDirectory: String
    private var history: DebugHistory?
    private var resolver: WriteSiteResolver?
    private var sites: WriteSiteIndex?
    private var breakpoints = DebugBreakpoints()
    /// The variables of the current stop (references valid until the position moves).
    var variables = DebugVariables()
    private var stopOnEntry = false
    private var linesStartAt1 = true
    /// Whether the client takes `invalidated` events (else a refresh is a `stopped` event).
    private var clientTakesInvalidated = false
    /// Whether `configurationDone` came: the editor shows a stop, which may be refreshed.
    private var isConfigured = false
    /// Whether a `disconnect` was answered: the adapter ends (status 0).
    package private(set) var isFinished = false

    /// The thread's number: the history is the one thread.
    static let threadID = 1

    /// An adapter whose default source root is `workingDirectory`.
    package init(workingDirectory: String = FileManager.default.currentDirectoryPath) {
        self.workingDirectory = workingDirectory
    }

    /// Answers one message.
    ///
    /// - Returns: The response, then any events it causes (`initialized`, `stopped`, `output`).
    package func handle(_ body: [UInt8]) -> [DAPOutgoing] {
        let request: DAPRequest
        do {
            request = try DAPRequest(decoding: body)
        } catch {
            // Without a sequence number there is no request to answer: the client is told.
            guard let seq = error.seq else {
                return [.event("output", DAPBody.Output(category: "important", output: "atoms-inspect dap: \(error.message)\n"))]
            }
            return [.failure(seq: seq, command: "unknown", error.message)]
        }
        var messages = notices()
        do {
            messages += try dispatch(request)
        } catch let error as DAPMessageError {
            messages.append(.failure(seq: request.seq, command: request.command, error.message))
        } catch let error as InspectorError {
            messages.append(.failure(seq: request.seq, command: request.command, Self.text(error)))
        } catch {
            messages.append(.failure(seq: request.seq, command: request.command, "\(error)"))
        }
        return messages
    }

    /// What a running program did while no request came (its own writes, an excursion's
    /// end), as `output` events; none for a journal. At the present, the program's new
    /// transactions move the session to the newest, and the editor is told to refresh.
    package func idle() -> [DAPOutgoing] {
        guard let history, history.isProgram, isConfigured else { return notices() }
        let moved: Bool
        do {
            moved = try history.followPresent()
        } catch {
            return notices() + [.event("output", DAPBody.Output(category: "stderr", output: Self.text(error) + "\n"))]
        }
        var messages = notices()
        if moved, let refresh = try? refresh(history, note: "the program recorded step \(history.position)") {
            variables.reset()
            messages.append(refresh)
        }
        return messages
    }

    /// Whether the session follows a running program (and so has news without requests).
    package var isAttached: Bool {
        history?.isProgram ?? false
    }

    private func notices() -> [DAPOutgoing] {
        guard let history, history.isProgram else { return [] }
        if history.takeProgramEnded() {
            // The history ends with the program: the editor ends the session (disconnect).
            let text = "\(history.name) closed its control endpoint or exited — the session ends\n"
            return [.event("output", DAPBody.Output(category: "console", output: text)), .event("terminated")]
        }
        let text = history.notices()
        guard !text.isEmpty else { return [] }
        return [.event("output", DAPBody.Output(category: "console", output: text + "\n"))]
    }

    /// An error's message with its file and line, without the program's name.
    static func text(_ error: InspectorError) -> String {
        guard let path = error.path else { return error.message }
        return "\(path)\(error.line.map { ":\($0)" } ?? ""): \(error.message)"
    }

    private func dispatch(_ request: DAPRequest) throws -> [DAPOutgoing] {
        switch request.command {
        case "initialize":
            struct Arguments: Decodable { var linesStartAt1: Bool?, supportsInvalidatedEvent: Bool? }
            let arguments = try request.arguments(Arguments.self)
            linesStartAt1 = arguments.linesStartAt1 ?? true
            clientTakesInvalidated = arguments.supportsInvalidatedEvent ?? false
            return [.response(to: request, DAPBody.Capabilities())]
        case "launch": return try launch(request)
        case "attach": return try attach(request)
        case "disconnect":
            history?.end()
            isFinished = true
            return [.response(to: request)]
        case "setExceptionBreakpoints":
            return [.response(to: request)]
        default:
            break
        }
        guard let history else {
            throw InspectorError(.usage, "no history is open for '\(request.command)' — send launch (with a journal) or attach (with a pid or socket) first")
        }
        switch request.command {
        case "setBreakpoints": return [.response(to: request, try setBreakpoints(request.arguments(DAPBody.SetBreakpointsArguments.self), history))]
        case "setFunctionBreakpoints": return [.response(to: request, try setFunctionBreakpoints(request.arguments(DAPBody.SetFunctionBreakpointsArguments.self), history))]
        case "dataBreakpointInfo": return [.response(to: request, try dataBreakpointInfo(request.arguments(DAPBody.DataBreakpointInfoArguments.self), history))]
        case "setDataBreakpoints": return [.response(to: request, try setDataBreakpoints(request.arguments(DAPBody.SetDataBreakpointsArguments.self), history))]
        case "configurationDone":
            isConfigured = true
            if stopOnEntry || history.isProgram {
                return [.response(to: request), try stopped("entry", history)]
            }
            return [.response(to: request)] + (try run(backwards: false, history))
        case "threads":
            return [.response(to: request, DAPBody.Threads(threads: [.init(id: Self.threadID, name: "history of \(history.name)")]))]
        case "stackTrace": return [.response(to: request, try stackTrace(history))]
        case "scopes": return [.response(to: request, try scopes(history))]
        case "variables": return [.response(to: request, try variables(request.arguments(DAPBody.VariablesArguments.self), history))]
        case "next", "stepIn", "stepOut":
            return [.response(to: request)] + (try step(by: 1, history))
        case "stepBack":
            return [.response(to: request)] + (try step(by: -1, history))
        case "continue":
            return [.response(to: request, DAPBody.Continue(allThreadsContinued: true))] + (try run(backwards: false, history))
        case "reverseContinue":
            return [.response(to: request)] + (try run(backwards: true, history))
        case "pause":
            return [.response(to: request)]
        case "gotoTargets": return [.response(to: request, try gotoTargets(request.arguments(DAPBody.GotoTargetsArguments.self), history))]
        case "breakpointLocations": return [.response(to: request, try breakpointLocations(request.arguments(DAPBody.BreakpointLocationsArguments.self), history))]
        case "setVariable":
            let arguments = try request.arguments(DAPBody.SetVariableArguments.self)
            guard let path = variables.path(of: arguments.name, in: arguments.variablesReference, atoms: history.state.liveAtoms) else {
                throw InspectorError(.usage, "no variable '\(arguments.name)' in reference \(arguments.variablesReference) at step \(history.position) — ask for variables again after each stop")
            }
            return try write(path.description, arguments.value, request, history)
        case "setExpression":
            let arguments = try request.arguments(DAPBody.SetExpressionArguments.self)
            return try write(arguments.expression, arguments.value, request, history)
        case "goto":
            let target = try request.arguments(DAPBody.GotoArguments.self).targetId
            guard target >= history.first, target <= history.last else {
                throw InspectorError(.usage, "goto target \(target) is not a step of the journal (\(history.first)…\(history.last)) — ask gotoTargets for one")
            }
            try move(to: target, history)
            return [.response(to: request), try stopped("goto", history)]
        case "evaluate": return try evaluate(request, history)
        default:
            throw InspectorError(.usage, "the adapter does not support the '\(request.command)' request — see docs/DEBUG_ADAPTER.md for what it answers")
        }
    }

    // MARK: Starting

    private func launch(_ request: DAPRequest) throws -> [DAPOutgoing] {
        guard history == nil else {
            throw InspectorError(.usage, "a history is open already — start a new session for another journal")
        }
        let arguments = try request.arguments(DAPBody.LaunchArguments.self)
        guard let path = arguments.journal, !path.isEmpty else {
            throw InspectorError(.usage, "launch needs a journal — add \"journal\": \"path/to/app.jsonl\" (a file or a bounded journal's folder) to the launch configuration")
        }
        let absolute = path.hasPrefix("/") ? path : workingDirectory + "/" + path
        let journal = try InspectedJournal(path: absolute)
        history = try DebugHistory(journal: journal)
        resolver = WriteSiteResolver(root: root(arguments.sourceRoot))
        stopOnEntry = arguments.stopOnEntry ?? false
        let warnings = journal.warnings.map { DAPOutgoing.event("output", DAPBody.Output(category: "stderr", output: $0 + "\n")) }
        return [.response(to: request)] + warnings + [.event("initialized")]
    }

    private func attach(_ request: DAPRequest) throws -> [DAPOutgoing] {
        guard history == nil else {
            throw InspectorError(.usage, "a history is open already — start a new session for another program")
        }
        let arguments = try request.arguments(DAPBody.AttachArguments.self)
        guard let target = arguments.socket ?? arguments.pid.map(String.init) else {
            throw InspectorError(.usage, "attach needs the program — add \"pid\": N or \"socket\": \"path\" (atoms-inspect attach --list lists them)")
        }
        let session = try AttachSession(socket: AttachTarget.socketPath(for: target))
        history = DebugHistory(program: session)
        resolver = WriteSiteResolver(root: root(arguments.sourceRoot))
        let greeting = DAPOutgoing.event("output", DAPBody.Output(category: "console", output: session.greeting + "\n"))
        // A running program's values can be written: said now, not at initialize.
        let capabilities = DAPOutgoing.event("capabilities", DAPBody.CapabilitiesEvent(capabilities: .init()))
        return [.response(to: request), greeting, capabilities, .event("initialized")]
    }

    private func root(_ sourceRoot: String?) -> String {
        guard let sourceRoot, !sourceRoot.isEmpty else { return workingDirectory }
        return sourceRoot.hasPrefix("/") ? sourceRoot : workingDirectory + "/" + sourceRoot
    }

    // MARK: Moving

    private func move(to step: Int, _ history: DebugHistory) throws(InspectorError) {
        try history.move(to: step)
        variables.reset()
    }

    private func step(by offset: Int, _ history: DebugHistory) throws -> [DAPOutgoing] {
        let target = history.position + offset
        guard target >= history.first, target <= history.last else {
            let end = offset > 0 ? "the last step" : "the first step"
            return [try stopped("step", history, note: "at \(end): the history goes no further")]
        }
        try move(to: target, history)
        return [try stopped("step", history)]
    }

    /// Runs to the next breakpoint, or to the first or last step (a program: the present).
    private func run(backwards: Bool, _ history: DebugHistory) throws -> [DAPOutgoing] {
        if !backwards, let sites { try sites.extend(history.journal) }
        if let hit = try breakpoints.next(in: history.journal, sites: sites, from: history.position, backwards: backwards) {
            try move(to: hit.step, history)
            return [try stopped(hit.reason, history, breakpoints: hit.breakpoints)]
        }
        if backwards {
            try move(to: history.first, history)
            return [try stopped("step", history, note: "the first step: no breakpoint before it")]
        }
        try history.moveToPresent()
        variables.reset()
        let note = history.isProgram ? "the present: no breakpoint before it; the program is back in the present" : "the last step: no breakpoint before it"
        return [try stopped("step", history, note: note)]
    }

    /// Tells the editor that what it shows is out of date: `invalidated` for a client that
    /// takes it, else a `stopped` event (which every client refreshes on).
    func refresh(_ history: DebugHistory, note: String) throws(InspectorError) -> DAPOutgoing {
        if clientTakesInvalidated {
            return .event("invalidated", DAPBody.Invalidated(areas: ["all"], threadId: Self.threadID))
        }
        return try stopped("step", history, note: note)
    }

    func stopped(_ reason: String, _ history: DebugHistory, breakpoints: [Int]? = nil, note: String? = nil) throws(InspectorError) -> DAPOutgoing {
        let frame = try topFrame(history)
        return .event("stopped", DAPBody.Stopped(
            reason: reason, description: note.map { "\(frame.name) — \($0)" } ?? frame.name, threadId: Self.threadID,
            text: note, allThreadsStopped: true, hitBreakpointIds: breakpoints
        ))
    }

    // MARK: Stack and variables

    private func topFrame(_ history: DebugHistory) throws(InspectorError) -> DAPBody.StackFrame {
        let step = history.position
        guard step > history.first else {
            let name = step == 0 ? "step 0 · before the first transaction" : "step \(step) · the first step kept"
            return DAPBody.StackFrame(id: step, name: name, source: nil, line: 0, column: 0, presentationHint: "label")
        }
        let record = try history.journal.transaction(step, decodingValuesOf: [])
        let declarations = history.state.declarations
        let names = (record.values ?? []).map(\.id).compactMap { declarations[$0]?.displayName }
            + (record.released ?? []).compactMap { declarations[$0].map { "-" + $0.displayName } }
        let changed = names.count > 3 ? names.prefix(3).joined(separator: ", ") + ", …" : names.joined(separator: ", ")
        var name = "step \(step) · \(record.cause)\(changed.isEmpty ? "" : " " + changed)"
        var site = record.at
        if let at = record.at, let request = ControlWriteSite.request(of: at) {
            // Written by atoms-inspect, not by the program: the frame is at the program's last
            // write site, or has no source.
            let target = WriteSiteResolver.split(at)?.line ?? 0
            let what = switch request {
            case .jump: "a jump to step \(target)"
            case .live: "back to the present of step \(target)"
            case .set: "a value set"
            }
            name += " by atoms-inspect (\(what))"
            let written = try programWriteSite(before: step, history)
            site = written?.site
            if let written { name += " · the program last wrote at step \(written.step)" }
        }
        guard let site, let (fileID, line) = WriteSiteResolver.split(site), let path = resolver?.path(forFileID: fileID) else {
            if let site = record.at { name += " @ \(site)" }
            return DAPBody.StackFrame(id: step, name: name, source: nil, line: 0, column: 0, presentationHint: "subtle")
        }
        let source = DAPBody.Source(name: String(path.split(separator: "/").last ?? ""), path: path)
        return DAPBody.StackFrame(id: step, name: name, source: source, line: clientLine(line), column: clientLine(1), presentationHint: nil)
    }

    /// The newest step before `step` with a write site of the program's own (not
    /// atoms-inspect's), looking back at most 1,000 steps.
    private func programWriteSite(before step: Int, _ history: DebugHistory) throws(InspectorError) -> (step: Int, site: String)? {
        var candidate = step - 1
        while candidate > history.first, candidate >= step - 1_000 {
            if let site = try history.journal.transaction(candidate, decodingValuesOf: []).at, ControlWriteSite.request(of: site) == nil {
                return (candidate, site)
            }
            candidate -= 1
        }
        return nil
    }

    private func clientLine(_ line: Int) -> Int {
        linesStartAt1 ? line : line - 1
    }

    private func stackTrace(_ history: DebugHistory) throws(InspectorError) -> DAPBody.StackTrace {
        DAPBody.StackTrace(stackFrames: [try topFrame(history)], totalFrames: 1)
    }

    private func changedAtoms(_ history: DebugHistory) throws(InspectorError) -> [AtomDeclaration] {
        guard history.position > history.first else { return [] }
        return DebugVariables.changed(in: history.state, by: try history.journal.transaction(history.position, decodingValuesOf: []))
    }

    private func scopes(_ history: DebugHistory) throws(InspectorError) -> DAPBody.Scopes {
        let changed = try changedAtoms(history)
        return DAPBody.Scopes(scopes: [
            .init(name: "Changed at step \(history.position)", presentationHint: nil, variablesReference: DebugVariables.changedScope, namedVariables: changed.count, expensive: false),
            .init(name: "Atoms", presentationHint: "locals", variablesReference: DebugVariables.atomsScope, namedVariables: history.state.liveAtoms.count, expensive: false),
        ])
    }

    private func variables(_ arguments: DAPBody.VariablesArguments, _ history: DebugHistory) throws -> DAPBody.Variables {
        let changed = try changedAtoms(history)
        variables.isWritable = history.canSet
        var list: [DAPBody.Variable]
        switch arguments.variablesReference {
        case DebugVariables.changedScope:
            list = variables.variables(for: changed, in: history.state)
        case DebugVariables.atomsScope:
            list = variables.variables(for: history.state.liveAtoms, in: history.state)
        case let reference:
            variables.isWritable = history.canSet
            guard let children = variables.children(of: reference) else {
                throw InspectorError(.usage, "variablesReference \(reference) is not known at step \(history.position) — ask for scopes again after each stop")
            }
            list = children
        }
        if let start = arguments.start, start > 0 { list = Array(list.dropFirst(start)) }
        if let count = arguments.count, count > 0 { list = Array(list.prefix(count)) }
        return DAPBody.Variables(variables: list)
    }

    // MARK: Breakpoints

    private func siteIndex(_ history: DebugHistory) throws(InspectorError) -> WriteSiteIndex {
        let index = sites ?? WriteSiteIndex(after: history.first)
        try index.extend(history.journal)
        sites = index
        return index
    }

    /// The `#fileID`s whose resolved file is `path`.
    private func fileIDs(of path: String, _ index: WriteSiteIndex) -> [String] {
        let wanted = WriteSiteResolver.canonical(path)
        return index.fileIDs.sorted().filter { fileID in
            resolver?.path(forFileID: fileID).map(WriteSiteResolver.canonical) == wanted
        }
    }

    /// The file a request's source names: an absolute path, a `file://` URI or a path
    /// relative to the source root.
    private func filePath(_ source: DAPBody.Source, for command: String) throws(InspectorError) -> String {
        guard let text = source.path, !text.isEmpty else {
            throw InspectorError(.usage, "\(command) needs source.path — a file on disk (a path, a path relative to sourceRoot, or a file:// URI)")
        }
        guard let path = ClientSourcePath.path(text, root: resolver?.root ?? workingDirectory) else {
            throw InspectorError(.usage, "\(command): '\(text)' is not a file on this machine — send a path, a path relative to sourceRoot, or a file:// URI")
        }
        return path
    }

    private func setBreakpoints(_ arguments: DAPBody.SetBreakpointsArguments, _ history: DebugHistory) throws -> DAPBody.Breakpoints {
        let sent = arguments.source.path ?? ""
        let path = try filePath(arguments.source, for: "setBreakpoints")
        let requested = arguments.breakpoints ?? (arguments.lines ?? []).map { DAPBody.SourceBreakpoint(line: $0) }
        let index = try siteIndex(history)
        let fileIDs = fileIDs(of: path, index)
        let written = fileIDs.reduce(into: Set<Int>()) { $0.formUnion(index.lines(ofFileID: $1)) }
        let canonical = WriteSiteResolver.canonical(path)
        var kept: [DebugBreakpoints.Breakpoint] = []
        var answered: [DAPBody.Breakpoint] = []
        for wanted in requested {
            let id = breakpoints.makeID()
            let line = linesStartAt1 ? wanted.line : wanted.line + 1
            // The source as the client sent it: the editor matches it to its buffer.
            let source = DAPBody.Source(name: String(canonical.split(separator: "/").last ?? ""), path: sent)
            guard written.contains(line) else {
                let lines = written.sorted().prefix(12).map(String.init).joined(separator: ", ")
                let message = fileIDs.isEmpty
                    ? "no step of the journal was written in this file (its write sites are #fileIDs resolved under \(resolver?.root ?? workingDirectory)) — set sourceRoot to the package the journal was recorded from"
                    : "no step of the journal was written at line \(wanted.line) — lines with writes: \(lines)\(written.count > 12 ? ", …" : "")"
                answered.append(.init(id: id, verified: false, message: message, source: source, line: wanted.line, reason: "failed"))
                continue
            }
            let condition: BoundExpression?
            do {
                condition = try wanted.condition.flatMap { text throws(InspectorError) in
                    text.trimmingWhitespace().isEmpty ? nil : try FindCommand.bind(text, in: history.journal)
                }
            } catch {
                answered.append(.init(id: id, verified: false, message: "the condition is not a where expression: \(Self.text(error))", source: source, line: wanted.line, reason: "failed"))
                continue
            }
            kept.append(.init(id: id, kind: .line(sites: fileIDs.map { "\($0):\(line)" }), condition: condition))
            answered.append(.init(id: id, verified: true, message: nil, source: source, line: wanted.line, reason: nil))
        }
        breakpoints.lines[canonical] = kept.isEmpty ? nil : kept
        return DAPBody.Breakpoints(breakpoints: answered)
    }

    /// A breakpoint on an atom's changes, or an unverified answer saying why not.
    private func atomBreakpoint(_ atom: String, condition text: String?, kind: DebugBreakpoints.Kind, _ history: DebugHistory) -> (DebugBreakpoints.Breakpoint?, DAPBody.Breakpoint) {
        let id = breakpoints.makeID()
        do {
            _ = try JournalSearch.scan(.changes(atom), in: history.journal)
            let condition = try text.flatMap { text throws(InspectorError) in
                text.trimmingWhitespace().isEmpty ? nil : try FindCommand.bind(text, in: history.journal)
            }
            return (.init(id: id, kind: kind, condition: condition), .init(id: id, verified: true, message: nil, source: nil, line: nil, reason: nil))
        } catch {
            return (nil, .init(id: id, verified: false, message: Self.text(error), source: nil, line: nil, reason: "failed"))
        }
    }

    private func setFunctionBreakpoints(_ arguments: DAPBody.SetFunctionBreakpointsArguments, _ history: DebugHistory) throws -> DAPBody.Breakpoints {
        let (kept, answered) = atomBreakpoints(arguments.breakpoints.map { ($0.name, $0.condition, .function(atom: $0.name)) }, history)
        breakpoints.functions = kept
        return answered
    }

    /// The breakpoints on atoms that were asked for, and the answers, in the order asked.
    private func atomBreakpoints(_ wanted: [(atom: String, condition: String?, kind: DebugBreakpoints.Kind)], _ history: DebugHistory) -> ([DebugBreakpoints.Breakpoint], DAPBody.Breakpoints) {
        var kept: [DebugBreakpoints.Breakpoint] = []
        var answered: [DAPBody.Breakpoint] = []
        for (atom, condition, kind) in wanted {
            let (breakpoint, answer) = atomBreakpoint(atom, condition: condition, kind: kind, history)
            if let breakpoint { kept.append(breakpoint) }
            answered.append(answer)
        }
        return (kept, DAPBody.Breakpoints(breakpoints: answered))
    }

    private func dataBreakpointInfo(_ arguments: DAPBody.DataBreakpointInfoArguments, _ history: DebugHistory) throws -> DAPBody.DataBreakpointInfo {
        let scopes = [DebugVariables.changedScope, DebugVariables.atomsScope]
        guard let reference = arguments.variablesReference, scopes.contains(reference),
              history.state.liveAtoms.contains(where: { $0.displayName == arguments.name }) else {
            return .init(dataId: nil, description: "only an atom (a variable of the Atoms or Changed scope) can be watched; for a member, set a breakpoint with a where condition", accessTypes: nil)
        }
        return .init(dataId: arguments.name, description: "when \(arguments.name) changes", accessTypes: ["write"])
    }

    private func setDataBreakpoints(_ arguments: DAPBody.SetDataBreakpointsArguments, _ history: DebugHistory) throws -> DAPBody.Breakpoints {
        let (kept, answered) = atomBreakpoints(arguments.breakpoints.map { ($0.dataId, $0.condition, .data(atom: $0.dataId)) }, history)
        breakpoints.data = kept
        return answered
    }

    private func breakpointLocations(_ arguments: DAPBody.BreakpointLocationsArguments, _ history: DebugHistory) throws -> DAPBody.BreakpointLocations {
        let path = try filePath(arguments.source, for: "breakpointLocations")
        let index = try siteIndex(history)
        let written = fileIDs(of: path, index).reduce(into: Set<Int>()) { $0.formUnion(index.lines(ofFileID: $1)) }
        let first = linesStartAt1 ? arguments.line : arguments.line + 1
        let last = arguments.endLine.map { linesStartAt1 ? $0 : $0 + 1 } ?? first
        let lines = written.filter { $0 >= first && $0 <= last }.sorted()
        return DAPBody.BreakpointLocations(breakpoints: lines.map { .init(line: clientLine($0)) })
    }

    private func gotoTargets(_ arguments: DAPBody.GotoTargetsArguments, _ history: DebugHistory) throws -> DAPBody.GotoTargets {
        let path = try filePath(arguments.source, for: "gotoTargets")
        let index = try siteIndex(history)
        let line = linesStartAt1 ? arguments.line : arguments.line + 1
        let steps = fileIDs(of: path, index).flatMap { index.steps["\($0):\(line)"] ?? [] }.sorted()
        // The steps nearest the position first, at most 50.
        let nearest = steps.sorted { abs($0 - history.position) < abs($1 - history.position) }.prefix(50).sorted()
        return DAPBody.GotoTargets(targets: nearest.map { .init(id: $0, label: "step \($0)", line: arguments.line) })
    }
}
