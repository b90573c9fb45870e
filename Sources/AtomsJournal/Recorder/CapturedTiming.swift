import Atoms

/// A transaction's timing as the recorder takes it on the main actor (atoms by identity, times
/// in nanoseconds from the start of recording), to become a timing line on its own thread.
struct CapturedTiming: Sendable {
    struct Evaluation: Sendable {
        let atom: AtomIdentity
        let start: Int
        let duration: Int
        let depth: Int
    }

    /// An effect event (`subject` its atom) or a subscriber told (`subject` where it was
    /// created, described on the recorder's thread).
    struct Run<Subject: Sendable>: Sendable {
        let subject: Subject
        let start: Int
        let duration: Int
    }

    struct TaskSpan: Sendable {
        let atom: AtomIdentity
        let start: Int
        let end: Int
        let committed: Bool
    }

    let sequence: Int
    let start: Int
    let runtime: Int
    let observers: Int
    let effects: Int
    let subscribers: Int
    let evaluations: [Evaluation]
    let effectRuns: [Run<AtomIdentity>]
    let subscriberRuns: [Run<SourceLocation?>]
    let notified: [(atom: AtomIdentity, count: Int)]
    let tasks: [TaskSpan]

    /// Takes `timing`, whose clock readings are counted from `origin` (the start of recording).
    @MainActor
    init(_ timing: TransactionTiming, origin: UInt64) {
        let start = timing.start == 0 ? timing.commitStart : timing.start
        func since(_ time: UInt64) -> Int { time > start ? Int(time - start) : 0 }
        func fromOrigin(_ time: UInt64) -> Int { time > origin ? Int(time - origin) : 0 }
        sequence = timing.sequence
        self.start = fromOrigin(start)
        runtime = since(timing.commitStart)
        observers = since(timing.observersEnd) - runtime
        effects = since(timing.effectsEnd) - since(timing.observersEnd)
        subscribers = since(timing.end) - since(timing.effectsEnd)
        evaluations = timing.evaluations.map { evaluation in
            Evaluation(atom: evaluation.atom, start: since(evaluation.start), duration: since(evaluation.end) - since(evaluation.start), depth: evaluation.depth)
        }
        effectRuns = timing.effects.compactMap { run in
            run.atom.map { Run(subject: $0, start: since(run.start), duration: since(run.end) - since(run.start)) }
        }
        subscriberRuns = timing.subscribers.map { run in
            Run(subject: run.location, start: since(run.start), duration: since(run.end) - since(run.start))
        }
        notified = timing.notifications
        tasks = timing.tasks.map { task in
            TaskSpan(atom: task.atom, start: fromOrigin(task.start), end: fromOrigin(task.end), committed: task.isCommitted)
        }
    }
}
