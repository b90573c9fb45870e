/// The bodies and arguments of the Debug Adapter Protocol messages the adapter uses, named
/// as the protocol's schema (`debugAdapterProtocol.json`) names them. Optional fields are left
/// out when `nil`.
package enum DAPBody {
    // MARK: Arguments

    /// `launch`: which journal, and where its write sites' files are.
    package struct LaunchArguments: Decodable, Sendable {
        /// A journal file or a bounded journal's folder.
        package var journal: String?
        /// The package root the write sites resolve against (default: the working directory).
        package var sourceRoot: String?
        /// Stop at the first step instead of running to a breakpoint.
        package var stopOnEntry: Bool?
    }

    /// `attach`: a running program's pid or control socket.
    package struct AttachArguments: Decodable, Sendable {
        /// The program's process id: a number, or its digits as a string (what VS Code's
        /// `${command:pickProcess}` and Helix's templates give).
        package var pid: Int?
        /// The program's control socket.
        package var socket: String?
        /// As ``LaunchArguments/sourceRoot``.
        package var sourceRoot: String?

        enum CodingKeys: String, CodingKey { case pid, socket, sourceRoot }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if let text = try? container.decodeIfPresent(String.self, forKey: .pid) {
                guard let number = Int(text) else {
                    throw DecodingError.typeMismatch(Int.self, .init(codingPath: [CodingKeys.pid], debugDescription: "not a process id"))
                }
                pid = number
            } else {
                pid = try container.decodeIfPresent(Int.self, forKey: .pid)
            }
            socket = try container.decodeIfPresent(String.self, forKey: .socket)
            sourceRoot = try container.decodeIfPresent(String.self, forKey: .sourceRoot)
        }
    }

    /// `setBreakpoints`.
    package struct SetBreakpointsArguments: Decodable, Sendable {
        package var source: Source
        package var breakpoints: [SourceBreakpoint]?
        package var lines: [Int]?
    }

    /// A line breakpoint as the client sets it.
    package struct SourceBreakpoint: Decodable, Sendable {
        package var line: Int
        package var condition: String?
        package var hitCondition: String?
        package var logMessage: String?
    }

    /// `setFunctionBreakpoints`.
    package struct SetFunctionBreakpointsArguments: Decodable, Sendable {
        package var breakpoints: [FunctionBreakpoint]
    }

    /// An atom's name to stop where it changes.
    package struct FunctionBreakpoint: Decodable, Sendable {
        package var name: String
        package var condition: String?
    }

    /// `dataBreakpointInfo`.
    package struct DataBreakpointInfoArguments: Decodable, Sendable {
        package var variablesReference: Int?
        package var name: String
        package var frameId: Int?
    }

    /// `setDataBreakpoints`.
    package struct SetDataBreakpointsArguments: Decodable, Sendable {
        package var breakpoints: [DataBreakpoint]
    }

    /// A data breakpoint as the client sets it.
    package struct DataBreakpoint: Decodable, Sendable {
        package var dataId: String
        package var condition: String?
    }

    /// `scopes`, `stackTrace`'s frame.
    package struct FrameArguments: Decodable, Sendable {
        package var frameId: Int?
    }

    /// `variables`.
    package struct VariablesArguments: Decodable, Sendable {
        package var variablesReference: Int
        package var start: Int?
        package var count: Int?
    }

    /// `evaluate`.
    package struct EvaluateArguments: Decodable, Sendable {
        package var expression: String
        package var frameId: Int?
        package var context: String?
    }

    /// `gotoTargets`.
    package struct GotoTargetsArguments: Decodable, Sendable {
        package var source: Source
        package var line: Int
    }

    /// `goto`.
    package struct GotoArguments: Decodable, Sendable {
        package var threadId: Int
        package var targetId: Int
    }

    /// `breakpointLocations`: the lines of a file, from `line` to `endLine`.
    package struct BreakpointLocationsArguments: Decodable, Sendable {
        package var source: Source
        package var line: Int
        package var endLine: Int?
    }

    /// `setVariable`: a variable of a scope or of a structured value, and its new value.
    package struct SetVariableArguments: Decodable, Sendable {
        package var variablesReference: Int
        package var name: String
        package var value: String
    }

    /// `setExpression`: a path, and its new value.
    package struct SetExpressionArguments: Decodable, Sendable {
        package var expression: String
        package var value: String
        package var frameId: Int?
    }

    /// `disconnect`, and anything else whose arguments the adapter does not read.
    package struct NoArguments: Decodable, Sendable {}

    // MARK: Types

    /// A source file.
    package struct Source: Codable, Sendable, Equatable {
        package var name: String?
        package var path: String?
        package var presentationHint: String?
        package var origin: String?

        package init(name: String? = nil, path: String? = nil, presentationHint: String? = nil, origin: String? = nil) {
            self.name = name
            self.path = path
            self.presentationHint = presentationHint
            self.origin = origin
        }
    }

    /// What the adapter can do.
    package struct Capabilities: Encodable, Sendable {
        var supportsConfigurationDoneRequest = true
        var supportsStepBack = true
        var supportsConditionalBreakpoints = true
        var supportsFunctionBreakpoints = true
        var supportsDataBreakpoints = true
        var supportsEvaluateForHovers = true
        var supportsGotoTargetsRequest = true
        var supportsBreakpointLocationsRequest = true
        var supportsTerminateRequest = false
        var supportTerminateDebuggee = false
    }

    /// What an attached session can do besides: write values (said by a `capabilities`
    /// event after `attach`, not by `initialize`: a journal cannot be written).
    package struct WriteCapabilities: Encodable, Sendable {
        var supportsSetVariable = true
        var supportsSetExpression = true
    }

    /// The `capabilities` event's body.
    package struct CapabilitiesEvent: Encodable, Sendable {
        let capabilities: WriteCapabilities
    }

    /// The `invalidated` event's body: what the client shows is out of date.
    package struct Invalidated: Encodable, Sendable {
        let areas: [String]
        let threadId: Int?
    }

    /// A thread (the one thread: the history).
    package struct Thread: Encodable, Sendable {
        let id: Int
        let name: String
    }

    /// `threads`' body.
    package struct Threads: Encodable, Sendable {
        let threads: [Thread]
    }

    /// A frame of the stack.
    package struct StackFrame: Encodable, Sendable {
        let id: Int
        let name: String
        let source: Source?
        let line: Int
        let column: Int
        let presentationHint: String?
    }

    /// `stackTrace`'s body.
    package struct StackTrace: Encodable, Sendable {
        let stackFrames: [StackFrame]
        let totalFrames: Int
    }

    /// A scope of variables.
    package struct Scope: Encodable, Sendable {
        let name: String
        let presentationHint: String?
        let variablesReference: Int
        let namedVariables: Int?
        let expensive: Bool
    }

    /// `scopes`' body.
    package struct Scopes: Encodable, Sendable {
        let scopes: [Scope]
    }

    /// How a variable is shown.
    package struct VariablePresentationHint: Encodable, Sendable {
        let kind: String?
        let attributes: [String]?
    }

    /// A variable: an atom, or a member of its value.
    package struct Variable: Encodable, Sendable {
        let name: String
        let value: String
        let type: String?
        let presentationHint: VariablePresentationHint?
        let evaluateName: String?
        let variablesReference: Int
        let namedVariables: Int?
        let indexedVariables: Int?
    }

    /// `variables`' body.
    package struct Variables: Encodable, Sendable {
        let variables: [Variable]
    }

    /// `setVariable`'s and `setExpression`'s body: the value written, as read back.
    package struct SetValue: Encodable, Sendable {
        let value: String
        let type: String?
        let variablesReference: Int
    }

    /// A line with a write, for `breakpointLocations`.
    package struct BreakpointLocation: Encodable, Sendable {
        let line: Int
    }

    /// `breakpointLocations`' body.
    package struct BreakpointLocations: Encodable, Sendable {
        let breakpoints: [BreakpointLocation]
    }

    /// `evaluate`'s body.
    package struct Evaluate: Encodable, Sendable {
        let result: String
        let type: String?
        let variablesReference: Int
    }

    /// A breakpoint as the adapter answers it.
    package struct Breakpoint: Encodable, Sendable {
        let id: Int
        let verified: Bool
        let message: String?
        let source: Source?
        let line: Int?
        let reason: String?
    }

    /// `setBreakpoints`', `setFunctionBreakpoints`' and `setDataBreakpoints`' body.
    package struct Breakpoints: Encodable, Sendable {
        let breakpoints: [Breakpoint]
    }

    /// `dataBreakpointInfo`'s body (`dataId` is `null` when the variable cannot be watched).
    package struct DataBreakpointInfo: Encodable, Sendable {
        let dataId: String?
        let description: String
        let accessTypes: [String]?

        enum CodingKeys: String, CodingKey { case dataId, description, accessTypes }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(dataId, forKey: .dataId)
            try container.encode(description, forKey: .description)
            try container.encodeIfPresent(accessTypes, forKey: .accessTypes)
        }
    }

    /// A place `goto` can move to.
    package struct GotoTarget: Encodable, Sendable {
        let id: Int
        let label: String
        let line: Int
    }

    /// `gotoTargets`' body.
    package struct GotoTargets: Encodable, Sendable {
        let targets: [GotoTarget]
    }

    /// `continue`'s body.
    package struct Continue: Encodable, Sendable {
        let allThreadsContinued: Bool
    }

    /// The `stopped` event's body.
    package struct Stopped: Encodable, Sendable {
        let reason: String
        let description: String?
        let threadId: Int
        let text: String?
        let allThreadsStopped: Bool
        let hitBreakpointIds: [Int]?
    }

    /// The `output` event's body.
    package struct Output: Encodable, Sendable {
        let category: String
        let output: String
    }

    /// The `exited` event's body.
    package struct Exited: Encodable, Sendable {
        let exitCode: Int
    }

    /// An error response's body.
    package struct ErrorBody: Encodable, Sendable {
        let error: Message
    }

    /// A message an error response carries.
    package struct Message: Encodable, Sendable {
        let id: Int
        let format: String
        let showUser: Bool
    }
}
