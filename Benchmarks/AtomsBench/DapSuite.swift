import Atoms
import AtomsInspector
import AtomsJournal
import Foundation

/// Set once, late in the generated journal: the atom a data breakpoint waits for.
struct BenchMarkAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

/// The figures for `atoms-inspect dap`: the adapter answering requests in process, as
/// the executable does over its pipes (the framing aside).
@MainActor
enum DapSuite {
    struct Figures {
        /// initialize → launch → configurationDone → the first `stopped`, on the shipped todo
        /// journal, medians in milliseconds: in process, and as an `atoms-inspect dap` process
        /// (when it is built next to atoms-bench).
        var firstStopMilliseconds = 0.0
        var firstStopProcessMilliseconds: Double?
        /// The floor in the same run: `atoms-inspect --version` as a process, median in
        /// milliseconds (when an `atoms-inspect` is measured).
        var versionProcessMilliseconds: Double?
        /// `next` (or `stepBack`) with stackTrace, scopes and the atoms' variables, at random
        /// steps of the 1M-step journal: medians in milliseconds.
        var nextMilliseconds = 0.0
        var stepBackMilliseconds = 0.0
        /// `continue` to a data breakpoint 900,000 steps ahead, and `find --where --first` for
        /// the same change: medians in seconds.
        var continueSeconds = 0.0
        var findSeconds = 0.0
        /// The first `setBreakpoints` of a session: one pass indexing every step's write site.
        var firstLineBreakpointsSeconds = 0.0
        var transactions = 0
    }

    /// The step at which ``BenchMarkAtom`` changes: 95% of the way (950,000 of 1,000,000).
    static func markStep(_ transactions: Int) -> Int {
        transactions / 100 * 95
    }

    /// The inspector suite's journal of `transactions` sets of 100 counters, with one set of
    /// ``BenchMarkAtom`` at ``markStep(_:)`` in place of the total.
    static func generate(path: String, transactions: Int) throws {
        try InspectorSuite.generate(path: path, transactions: transactions, marking: markStep(transactions))
    }

    /// One adapter session's messages, as the client sends them.
    private final class Session {
        let adapter = DebugAdapter()
        private var seq = 0

        @discardableResult
        func send(_ command: String, _ arguments: String = "{}") -> [DAPOutgoing] {
            seq += 1
            return adapter.handle(Array(#"{"seq":\#(seq),"type":"request","command":"\#(command)","arguments":\#(arguments)}"#.utf8))
        }

        /// Sends, and checks that the request succeeded and what follows is a stop.
        func stop(_ command: String, _ arguments: String = #"{"threadId":1}"#) throws {
            let messages = send(command, arguments)
            guard case .response(_, _, true, _) = messages.first?.kind, messages.contains(where: { $0.kind == .event("stopped") }) else {
                throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "\(command) did not stop: \(messages.map { String(decoding: $0.encoded(seq: 0), as: UTF8.self) })"])
            }
        }

        /// What an editor asks after each stop.
        func inspect() {
            send("stackTrace", #"{"threadId":1}"#)
            send("scopes", #"{"frameId":0}"#)
            send("variables", #"{"variablesReference":2}"#)
        }
    }

    static func run(todo: String, directory: URL, transactions: Int, samples: Int) throws -> Figures {
        var figures = Figures()
        figures.transactions = transactions
        figures.firstStopMilliseconds = InspectorSuite.median(try (0..<samples).map { _ in
            try InspectorSuite.seconds {
                let session = Session()
                session.send("initialize", #"{"adapterID":"bench"}"#)
                session.send("launch", #"{"journal":"\#(todo)"}"#)
                try session.stop("configurationDone", "{}")
            } * 1000
        })
        figures.firstStopProcessMilliseconds = try firstStopProcess(todo: todo, samples: samples)

        let path = directory.appendingPathComponent("dap-1m.jsonl").path
        try generate(path: path, transactions: transactions)
        let session = Session()
        session.send("initialize", #"{"adapterID":"bench"}"#)
        session.send("launch", #"{"journal":"\#(path)","stopOnEntry":true}"#)
        try session.stop("configurationDone", "{}")
        var generator = SystemRandomNumberGenerator()
        var nexts: [Double] = []
        var backs: [Double] = []
        for _ in 0..<samples * 4 {
            let step = Int.random(in: 2..<(transactions - 1), using: &generator)
            try session.stop("evaluate", #"{"expression":"goto \#(step)","context":"repl"}"#)
            session.inspect()
            nexts.append(try InspectorSuite.seconds { try session.stop("next"); session.inspect() } * 1000)
            backs.append(try InspectorSuite.seconds { try session.stop("stepBack"); session.inspect() } * 1000)
        }
        figures.nextMilliseconds = InspectorSuite.median(nexts)
        figures.stepBackMilliseconds = InspectorSuite.median(backs)

        // From 90% of the journal before the mark (900,000 steps of 1,000,000), on a fresh
        // session each time.
        let start = markStep(transactions) - transactions / 100 * 90
        var continues: [Double] = []
        var finds: [Double] = []
        for _ in 0..<3 {
            let session = Session()
            session.send("initialize", #"{"adapterID":"bench"}"#)
            session.send("launch", #"{"journal":"\#(path)","stopOnEntry":true}"#)
            try session.stop("configurationDone", "{}")
            try session.stop("evaluate", #"{"expression":"goto \#(start)","context":"repl"}"#)
            session.send("setDataBreakpoints", #"{"breakpoints":[{"dataId":"BenchMarkAtom"}]}"#)
            continues.append(try InspectorSuite.seconds { try session.stop("continue") })
            finds.append(try InspectorSuite.seconds {
                _ = try FindCommand.find(try InspectedJournal(path: path), where: "BenchMarkAtom == 1", mode: .first)
            })
        }
        let indexed = Session()
        indexed.send("initialize", #"{"adapterID":"bench"}"#)
        indexed.send("launch", #"{"journal":"\#(path)","stopOnEntry":true}"#)
        figures.firstLineBreakpointsSeconds = InspectorSuite.seconds {
            indexed.send("setBreakpoints", #"{"source":{"path":"Bench/Generator.swift"},"breakpoints":[{"line":1}]}"#)
        }
        figures.continueSeconds = InspectorSuite.median(continues)
        figures.findSeconds = InspectorSuite.median(finds)
        return figures
    }

    /// initialize → first stopped through a real `atoms-inspect dap` process and its pipes;
    /// `nil` when atoms-inspect is not built next to this executable.
    static func firstStopProcess(todo: String, samples: Int) throws -> Double? {
        let inspector = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("atoms-inspect").path
        guard FileManager.default.isExecutableFile(atPath: inspector) else { return nil }
        func frame(_ json: String) -> Data {
            Data("Content-Length: \(json.utf8.count)\r\n\r\n\(json)".utf8)
        }
        return InspectorSuite.median(try (0..<samples).map { _ in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: inspector)
            process.arguments = ["dap"]
            let input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            return try InspectorSuite.seconds {
                try process.run()
                input.fileHandleForWriting.write(frame(#"{"seq":1,"type":"request","command":"initialize","arguments":{"adapterID":"bench"}}"#))
                input.fileHandleForWriting.write(frame(#"{"seq":2,"type":"request","command":"launch","arguments":{"journal":"\#(todo)"}}"#))
                input.fileHandleForWriting.write(frame(#"{"seq":3,"type":"request","command":"configurationDone"}"#))
                var received = Data()
                while !received.contains(Data(#""event":"stopped""#.utf8)) {
                    let chunk = output.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    received += chunk
                }
                input.fileHandleForWriting.write(frame(#"{"seq":4,"type":"request","command":"disconnect"}"#))
                process.waitUntilExit()
            } * 1000
        })
    }

    /// An `atoms-inspect dap` process driven over its pipes, as an editor drives it.
    private final class ProcessSession {
        private let process = Process()
        private let input = Pipe()
        private let output = Pipe()
        private var buffer = Data()
        private var seq = 0

        init(inspector: String) throws {
            process.executableURL = URL(fileURLWithPath: inspector)
            process.arguments = ["dap"]
            process.standardInput = input
            process.standardOutput = output
            try process.run()
        }

        /// The next message's JSON text.
        private func next() throws -> String {
            while true {
                if let headerEnd = buffer.range(of: Data("\r\n\r\n".utf8)) {
                    let header = String(decoding: buffer[buffer.startIndex..<headerEnd.lowerBound], as: UTF8.self)
                    let length = Int(header.split(separator: ":").last.map { String($0).trimmingCharacters(in: .whitespaces) } ?? "") ?? 0
                    if buffer.distance(from: headerEnd.upperBound, to: buffer.endIndex) >= length {
                        let body = buffer[headerEnd.upperBound..<buffer.index(headerEnd.upperBound, offsetBy: length)]
                        let text = String(decoding: body, as: UTF8.self)
                        buffer = Data(buffer[buffer.index(headerEnd.upperBound, offsetBy: length)...])
                        return text
                    }
                }
                let chunk = output.fileHandleForReading.availableData
                guard !chunk.isEmpty else { throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "atoms-inspect dap ended"]) }
                buffer += chunk
            }
        }

        /// Sends a request and reads to its response (and, with `stops`, to the `stopped` event).
        @discardableResult
        func send(_ command: String, _ arguments: String = "{}", stops: Bool = false) throws -> String {
            seq += 1
            let json = #"{"seq":\#(seq),"type":"request","command":"\#(command)","arguments":\#(arguments)}"#
            input.fileHandleForWriting.write(Data("Content-Length: \(json.utf8.count)\r\n\r\n\(json)".utf8))
            var response = ""
            while !response.contains(#""request_seq":\#(seq),"#) {
                response = try next()
            }
            guard response.contains(#""success":true"#) else {
                throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "\(command) failed: \(response)"])
            }
            if stops {
                while !(try next()).contains(#""event":"stopped""#) {}
            }
            return response
        }

        func inspect() throws {
            try send("stackTrace", #"{"threadId":1}"#)
            try send("scopes", #"{"frameId":0}"#)
            try send("variables", #"{"variablesReference":2}"#)
        }

        func end() throws {
            try send("disconnect")
            process.waitUntilExit()
        }
    }

    /// The figures through `inspector` (an `atoms-inspect` executable, e.g. a release build)
    /// as processes over pipes: first stop, next/stepBack, and continue to the data breakpoint
    /// against `atoms-inspect find --where --first`, on a journal generated here.
    static func runProcesses(inspector: String, todo: String, directory: URL, transactions: Int, samples: Int) throws -> Figures {
        var figures = Figures()
        figures.transactions = transactions
        figures.firstStopProcessMilliseconds = InspectorSuite.median(try (0..<samples).map { _ in
            try InspectorSuite.seconds {
                let session = try ProcessSession(inspector: inspector)
                try session.send("initialize", #"{"adapterID":"bench"}"#)
                try session.send("launch", #"{"journal":"\#(todo)"}"#)
                try session.send("configurationDone", stops: true)
                try session.end()
            } * 1000
        })
        figures.firstStopMilliseconds = figures.firstStopProcessMilliseconds!
        figures.versionProcessMilliseconds = InspectorSuite.median((0..<samples).map { _ in
            InspectorSuite.seconds { _ = try? InspectorSuite.shell(inspector, ["--version"]) } * 1000
        })
        let path = directory.appendingPathComponent("dap-1m.jsonl").path
        try generate(path: path, transactions: transactions)
        let session = try ProcessSession(inspector: inspector)
        try session.send("initialize", #"{"adapterID":"bench"}"#)
        try session.send("launch", #"{"journal":"\#(path)","stopOnEntry":true}"#)
        try session.send("configurationDone", stops: true)
        var generator = SystemRandomNumberGenerator()
        var nexts: [Double] = []
        var backs: [Double] = []
        for _ in 0..<samples * 4 {
            let step = Int.random(in: 2..<(transactions - 1), using: &generator)
            try session.send("evaluate", #"{"expression":"goto \#(step)","context":"repl"}"#, stops: true)
            try session.inspect()
            nexts.append(try InspectorSuite.seconds { try session.send("next", #"{"threadId":1}"#, stops: true); try session.inspect() } * 1000)
            backs.append(try InspectorSuite.seconds { try session.send("stepBack", #"{"threadId":1}"#, stops: true); try session.inspect() } * 1000)
        }
        try session.end()
        figures.nextMilliseconds = InspectorSuite.median(nexts)
        figures.stepBackMilliseconds = InspectorSuite.median(backs)
        let start = markStep(transactions) - transactions / 100 * 90
        var continues: [Double] = []
        var finds: [Double] = []
        for _ in 0..<3 {
            let session = try ProcessSession(inspector: inspector)
            try session.send("initialize", #"{"adapterID":"bench"}"#)
            try session.send("launch", #"{"journal":"\#(path)","stopOnEntry":true}"#)
            try session.send("configurationDone", stops: true)
            try session.send("evaluate", #"{"expression":"goto \#(start)","context":"repl"}"#, stops: true)
            try session.send("setDataBreakpoints", #"{"breakpoints":[{"dataId":"BenchMarkAtom"}]}"#)
            continues.append(try InspectorSuite.seconds { try session.send("continue", #"{"threadId":1}"#, stops: true) })
            try session.end()
            finds.append(InspectorSuite.seconds { _ = try? InspectorSuite.shell(inspector, ["find", path, "--where", "BenchMarkAtom == 1", "--first"]) })
        }
        figures.continueSeconds = InspectorSuite.median(continues)
        figures.findSeconds = InspectorSuite.median(finds)
        let indexed = try ProcessSession(inspector: inspector)
        try indexed.send("initialize", #"{"adapterID":"bench"}"#)
        try indexed.send("launch", #"{"journal":"\#(path)","stopOnEntry":true}"#)
        figures.firstLineBreakpointsSeconds = try InspectorSuite.seconds {
            try indexed.send("setBreakpoints", #"{"source":{"path":"Bench/Generator.swift"},"breakpoints":[{"line":1}]}"#)
        }
        try indexed.end()
        return figures
    }
}
