import AtomsJournalReader
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension LogCommand {
    /// What `log --follow` hands its caller as it reads.
    package enum FollowOutput {
        /// An entry's text line (or JSON object, one per line).
        case line(String)
        /// Something to say on stderr (transactions deleted before they were read, a new
        /// recording).
        case notice(String)
        /// A batch is done: write what was handed over.
        case flush
    }

    /// `log --follow`: prints the journal's transactions, then those its recorder appends,
    /// across a bounded journal's segments, until the recorder closes it (its end line),
    /// `--to` is reached, or `shouldStop` says so (SIGINT).
    ///
    /// - Parameters:
    ///   - path: The journal, which need not exist yet.
    ///   - options: Options as for `log`; `--from`/`--to` take step numbers.
    ///   - pollInterval: How long to wait when nothing new was found, in seconds.
    ///   - shouldStop: Asked between polls.
    ///   - output: Receives lines, notices and flushes.
    /// - Throws: ``InspectorError`` for a malformed journal or a `last`-relative step.
    package static func follow(
        path: String,
        options: Options,
        pollInterval: Double = 0.02,
        shouldStop: () -> Bool,
        output: (FollowOutput) -> Void
    ) throws(InspectorError) {
        func number(_ spec: StepSpec?, _ option: String) throws(InspectorError) -> Int? {
            switch spec {
            case nil: return nil
            case .number(let step)?: return step
            case .fromLast?:
                throw InspectorError(.usage, path: path, "\(option) with --follow takes a step number, not last — a followed journal has no last step yet")
            }
        }
        let from = try number(options.from, "--from")
        let to = try number(options.to, "--to")
        let follower = JournalFollower(path: path)
        var names = Naming(declarations: [:])
        var namedRevision = -1
        var selected: Set<Int>?
        var waitingNoticed = false
        while !shouldStop() {
            let events: [JournalFollower.Event]
            do {
                events = try follower.poll()
            } catch {
                throw InspectorError(error)
            }
            for event in events {
                switch event {
                case .transaction(let record):
                    if let to, record.seq > to { output(.flush); return }
                    if let from, record.seq < from { continue }
                    if follower.declarationsRevision != namedRevision {
                        namedRevision = follower.declarationsRevision
                        names = Naming(declarations: follower.declarations)
                        selected = options.atom.map(names.matching)
                    }
                    if let selected {
                        guard touched(by: record, options: options).contains(where: selected.contains) else { continue }
                    }
                    let entry = entry(of: record, names: names)
                    output(.line(options.json ? JSONOutput.encodeLine(entry) : text(of: entry, style: options.style)))
                case .skipped(let first, let last):
                    output(.notice("\(path): transactions \(first)…\(last) were deleted by the journal's size limit before they were read"))
                case .restarted:
                    names = Naming(declarations: [:])
                    namedRevision = -1
                    output(.notice("\(path): a new recording replaced the journal; following it from its start"))
                case .ended:
                    output(.flush)
                    return
                }
            }
            output(.flush)
            if events.isEmpty {
                if !waitingNoticed, !FileManager.default.fileExists(atPath: path) {
                    waitingNoticed = true
                    output(.notice("\(path): waiting for the journal to be created (Ctrl-C to stop)"))
                }
                usleep(UInt32(pollInterval * 1_000_000))
            }
        }
        output(.flush)
    }
}
