extension StoreEngine {
    /// Opens a transaction, or joins the one already open. The outermost call decides the
    /// cause, origin and location.
    func begin(_ cause: AtomTransaction.Cause, origin: AnyAtomNode? = nil, location: SourceLocation? = nil) {
        // While a commit releases atoms and reports the transaction, work that opens a
        // transaction (reading an uncached atom computes it) joins the one being committed.
        if transactionDepth == 0 && !isCommitting {
            transaction.start(
                isRunningEffects && cause != .initialize ? .effect : cause,
                origin: origin, location: location, recording: recordsChanges
            )
            timer?.began()
        }
        transactionDepth += 1
    }

    /// Closes a transaction; the outermost close commits: releases unwatched atoms, reports the
    /// transaction, then runs effects and notifies subscribers (whose own writes are new
    /// transactions).
    func commit() {
        transactionDepth -= 1
        guard transactionDepth == 0, !isCommitting else {
            return
        }
        // Until every observer, effect and subscriber has seen this transaction, a write (from
        // a release's `onTermination`, an observer, an effect) waits: it then commits as a
        // transaction of its own, in order, neither merged into this one nor seen out of order.
        writesDeferred += 1
        isCommitting = true
        releaseUnwatchedNodes()
        guard transaction.hasChanges else {
            timer?.discard()
            _ = transaction.finish()
            isCommitting = false
            writesDeferred -= 1
            runDeferredWrites()
            return
        }
        sequence += 1
        let timing = timer?.committing(sequence: sequence)
        if !commitObservers.isEmpty {
            let committed = transaction.committed(sequence: sequence)
            for observer in commitObservers {
                observer(committed)
            }
        }
        let record = transactionObservers.isEmpty ? nil : transaction.record(sequence: sequence)
        let touchedScopes = transaction.isRecording && !scopes.isEmpty ? transaction.touchedScopes : []
        // Observers, effects and subscribers may write: those writes are transactions of
        // their own, run once every one of them has seen this one.
        let (effects, subscribers) = transaction.finish()
        isCommitting = false

        if let record {
            for observer in transactionObservers {
                observer(record)
            }
        }
        if !observers.isEmpty {
            let snapshot = makeSnapshot()
            for observer in observers {
                observer(snapshot)
            }
        }
        notifyScopeObservers(touched: touchedScopes)
        timing?.observersEnded()

        if !effects.isEmpty {
            let wasRunningEffects = isRunningEffects
            isRunningEffects = true
            for effect in effects {
                effect.run()
                timing?.ranEffect(of: effect.node)
            }
            isRunningEffects = wasRunningEffects
        }
        if subscribers.count == 1 {
            notify(subscribers[0], timing: timing)
        } else if !subscribers.isEmpty {
            // In the order subscribers were created, each once.
            var previous = 0
            for subscriber in subscribers.sorted(by: { $0.id < $1.id }) where subscriber.id != previous {
                previous = subscriber.id
                notify(subscriber, timing: timing)
            }
        }
        if let timer, let timing {
            timer.finished(timing)
        }
        writesDeferred -= 1
        runDeferredWrites()
    }

    /// Tells a subscriber that atoms it watches changed, timing it when `timing` is given.
    private func notify(_ subscriber: SubscriberState, timing: TransactionTiming?) {
        subscriber.onUpdate()
        timing?.notifiedSubscriber(at: subscriber.location)
    }

    /// Runs the writes deferred while a commit or computation was in progress, each as its own
    /// transaction, in the order they were made.
    func runDeferredWrites() {
        guard writesDeferred == 0, transactionDepth == 0 else { return }
        while !deferredWrites.isEmpty {
            let deferred = deferredWrites.removeFirst()
            // A write an effect made is reported as the effect's.
            let wasRunningEffects = isRunningEffects
            isRunningEffects = deferred.fromEffect
            deferred.write()
            isRunningEffects = wasRunningEffects
        }
    }

    /// Runs `body` inside a transaction.
    func transact<T>(
        _ cause: AtomTransaction.Cause,
        origin: AnyAtomNode? = nil,
        location: SourceLocation? = nil,
        _ body: () -> T
    ) -> T {
        begin(cause, origin: origin, location: location)
        defer { commit() }
        return body()
    }

    /// Tells scopes whose atoms changed; each scope sees a snapshot of the whole store.
    private func notifyScopeObservers(touched: Set<ScopeKey>) {
        guard !touched.isEmpty else {
            return
        }
        let scopes = touched.compactMap { self.scopes[$0]?.value }.filter { !$0.observers.isEmpty }
        guard !scopes.isEmpty else {
            return
        }
        let snapshot = makeSnapshot()
        for scope in scopes.sorted(by: { $0.key.id < $1.key.id }) {
            for observer in scope.observers {
                observer(snapshot)
            }
        }
    }
}
