/// A finished transaction's timing as plain values (atoms by identity, times in nanoseconds),
/// taken on the main actor to become a timing line on the journal recorder's thread.
///
/// Taken here, in the module that owns ``TransactionTiming``, so that its fields are read
/// without dynamic exclusivity checks (another module's reads of them keep the checks). A
/// class: it is handed from the recorder to its queue and thread, and one reference costs
/// less to copy than its five lists and the identities in them.
package final class CapturedTiming: Sendable {
    package struct Evaluation: Sendable {
        package let atom: AtomIdentity
        package let start: Int
        package let duration: Int
        package let depth: Int
    }

    /// An effect event (`subject` its atom) or a subscriber told (`subject` where it was
    /// created, described on the recorder's thread).
    package struct Run<Subject: Sendable>: Sendable {
        package let subject: Subject
        package let start: Int
        package let duration: Int
    }

    package struct TaskSpan: Sendable {
        package let atom: AtomIdentity
        package let start: Int
        package let end: Int
        package let committed: Bool
    }

    /// The transaction timed.
    package let sequence: Int
    /// Nanoseconds from the start of recording to the transaction's start.
    package let start: Int
    /// Nanoseconds in each phase.
    package let runtime: Int
    package let observers: Int
    package let effects: Int
    package let subscribers: Int
    /// Starts count from the transaction's start.
    package let evaluations: [Evaluation]
    package let effectRuns: [Run<AtomIdentity>]
    package let subscriberRuns: [Run<SourceLocation?>]
    package let notified: [(atom: AtomIdentity, count: Int)]
    /// Starts and ends count from the start of recording.
    package let tasks: [TaskSpan]

    /// Takes `timing`, whose clock readings are counted from `origin` (the start of recording).
    @MainActor
    package init(_ timing: TransactionTiming, origin: UInt64) {
        let start = timing.start == 0 ? timing.commitStart : timing.start
        func since(_ time: UInt64) -> Int { time > start ? Int(time &- start) : 0 }
        sequence = timing.sequence
        self.start = start > origin ? Int(start &- origin) : 0
        runtime = since(timing.commitStart)
        observers = since(timing.observersEnd) - runtime
        effects = since(timing.effectsEnd) - since(timing.observersEnd)
        subscribers = since(timing.end) - since(timing.effectsEnd)
        // Loops rather than `map`: a closure here would check at run time that it runs on the
        // main actor, once per list. Empty lists (most of them, in most transactions) allocate
        // nothing.
        var evaluations: [Evaluation] = []
        if !timing.evaluations.isEmpty {
            evaluations.reserveCapacity(timing.evaluations.count)
            for evaluation in timing.evaluations {
                evaluations.append(Evaluation(atom: evaluation.atom, start: since(evaluation.start), duration: since(evaluation.end) - since(evaluation.start), depth: evaluation.depth))
            }
        }
        self.evaluations = evaluations
        var effectRuns: [Run<AtomIdentity>] = []
        if !timing.effects.isEmpty {
            for run in timing.effects {
                if let atom = run.atom {
                    effectRuns.append(Run(subject: atom, start: since(run.start), duration: since(run.end) - since(run.start)))
                }
            }
        }
        self.effectRuns = effectRuns
        var subscriberRuns: [Run<SourceLocation?>] = []
        if !timing.subscribers.isEmpty {
            subscriberRuns.reserveCapacity(timing.subscribers.count)
            for run in timing.subscribers {
                subscriberRuns.append(Run(subject: run.location, start: since(run.start), duration: since(run.end) - since(run.start)))
            }
        }
        self.subscriberRuns = subscriberRuns
        var notified: [(atom: AtomIdentity, count: Int)] = []
        if !timing.notifiedNodes.isEmpty {
            notified.reserveCapacity(timing.notifiedNodes.count)
            for (node, count) in timing.notifiedNodes {
                notified.append((node.identity, count))
            }
        }
        self.notified = notified
        var tasks: [TaskSpan] = []
        if !timing.tasks.isEmpty {
            for task in timing.tasks {
                tasks.append(TaskSpan(atom: task.atom, start: task.start > origin ? Int(task.start &- origin) : 0, end: task.end > origin ? Int(task.end &- origin) : 0, committed: task.isCommitted))
            }
        }
        self.tasks = tasks
    }
}
