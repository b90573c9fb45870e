import AtomsInspector
import Foundation

extension FuzzTargets {
    /// Reads the input as the stream an editor sends `atoms-inspect dap`: Content-Length
    /// frames, each decoded as a request and answered by an adapter launched on the small
    /// recorded journal (the input's own `launch` and `attach` requests are decoded, not run:
    /// they would open files and sockets). Every request whose number can be read gets exactly
    /// one response, and every message sent is a JSON object.
    package static func debugAdapter(_ input: UnsafeRawBufferPointer) {
        guard let journal = FuzzFixtures.journal else { return }
        let adapter = DebugAdapter(workingDirectory: FuzzScratch.path("dap"))
        let start: [String] = [
            #"{"seq":1,"type":"request","command":"initialize","arguments":{"adapterID":"fuzz"}}"#,
            #"{"seq":2,"type":"request","command":"launch","arguments":{"journal":"\#(journal.path)","stopOnEntry":true,"sourceRoot":"\#(FuzzScratch.path("dap"))"}}"#,
            #"{"seq":3,"type":"request","command":"configurationDone"}"#,
        ]
        for request in start {
            _ = adapter.handle(Array(request.utf8))
        }
        var reader = DAPFrameReader(bytes: Array(input))
        // At most 64 messages: a long input is mostly framing.
        for _ in 0..<64 {
            guard let body = try? reader.next() else { return }
            let request: DAPRequest
            do {
                request = try DAPRequest(decoding: body)
            } catch {
                // Answered when its number could be read, else told in an output event.
                check(adapter.handle(body), answering: error.seq)
                continue
            }
            for type in argumentTypes {
                _ = try? request.arguments(type)
            }
            if ["launch", "attach"].contains(request.command) { continue }
            check(adapter.handle(body), answering: request.seq)
            if adapter.isFinished { return }
        }
    }

    private static var argumentTypes: [any Decodable.Type] {[
        DAPBody.LaunchArguments.self, DAPBody.AttachArguments.self, DAPBody.SetBreakpointsArguments.self,
        DAPBody.SetFunctionBreakpointsArguments.self, DAPBody.DataBreakpointInfoArguments.self,
        DAPBody.SetDataBreakpointsArguments.self, DAPBody.VariablesArguments.self, DAPBody.EvaluateArguments.self,
        DAPBody.GotoTargetsArguments.self, DAPBody.GotoArguments.self,
    ]}

    private static func check(_ messages: [DAPOutgoing], answering seq: Int?) {
        var responses = 0
        for message in messages {
            let json = message.encoded(seq: 1)
            precondition((try? JSONSerialization.jsonObject(with: Data(json))) is [String: Any], "a message is a JSON object")
            if case .response(let requestSeq, _, _, _) = message.kind {
                precondition(requestSeq == seq, "a response answers the request")
                responses += 1
            }
        }
        precondition(responses == (seq == nil ? 0 : 1), "one response per request")
    }
}
