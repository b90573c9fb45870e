extension StoreEngine {
    /// Opens a transaction, or joins the one already open. The outermost call decides the
    /// cause, origin and location.
    func begin(_ cause: AtomTransaction.Cause, origin: AnyAtomNode? = nil, location: SourceLocation? = nil) {
        // While a commit releases atoms and reports the transaction, work that opens a
        // transaction (reading an uncached atom computes it) joins the one being committed.
        if transactionState.enter() {
            transaction.start(
                transactionState.isRunningEffects && cause != .initialize ? .effect : cause,
                origin: origin, location: location, recording: observers.recordsChanges
            )
            timer?.began()
        }
    }

    /// Closes a transaction; the outermost close commits: releases unwatched atoms, reports the
    /// transaction, then runs effects and notifies subscribers (whose own writes are new
    /// transactions).
    func commit() {
        guard transactionState.leave() else {
            return
        }
        // Until every observer, effect and subscriber has seen this transaction, a write (from
        // a release's `onTermination`, an observer, an effect) waits: it then commits as a
        // transaction of its own, in order, neither merged into this one nor seen out of order.
        transactionState.startCommitting()
        // Read once: the timer is used several times below.
        let timer = self.timer
        releaseUnwatchedNodes()
        guard transaction.hasChanges else {
            timer?.discard()
            _ = transaction.finish()
            transactionState.endCommitting()
            transactionState.releaseWrites()
            runDeferredWrites()
            return
        }
        let sequence = transactionState.nextSequence()
        let timing = timer?.committing(sequence: sequence)
        if !observers.commitObservers.isEmpty {
            let committed = transaction.committed(sequence: sequence, started: timing?.start ?? 0)
            for observer in observers.commitObservers {
                observer(committed)
            }
        }
        let record = observers.transactionObservers.isEmpty ? nil : transaction.record(sequence: sequence)
        let touchedScopes = transaction.isRecording && !scopes.isEmpty ? transaction.touchedScopes : []
        // Observers, effects and subscribers may write: those writes are transactions of
        // their own, run once every one of them has seen this one.
        let (effects, subscribers) = transaction.finish()
        transactionState.endCommitting()

        if let record {
            for observer in observers.transactionObservers {
                observer(record)
            }
        }
        if !observers.snapshotObservers.isEmpty {
            let snapshot = makeSnapshot()
            for observer in observers.snapshotObservers {
                observer(snapshot)
            }
        }
        notifyScopeObservers(touched: touchedScopes)
        timing?.observersEnded()

        if !effects.isEmpty {
            let wasRunningEffects = transactionState.setRunningEffects(true)
            for effect in effects {
                effect.run()
                if let timer, let timing { timer.ranEffect(of: effect.node, in: timing) }
            }
            _ = transactionState.setRunningEffects(wasRunningEffects)
        }
        if subscribers.count == 1 {
            notify(subscribers[0], timer: timer, timing: timing)
        } else if !subscribers.isEmpty {
            // In the order subscribers were created, each once.
            var previous = 0
            for subscriber in subscribers.sorted(by: { $0.id < $1.id }) where subscriber.id != previous {
                previous = subscriber.id
                notify(subscriber, timer: timer, timing: timing)
            }
        }
        if let timer, let timing {
            timer.finished(timing)
        }
        transactionState.releaseWrites()
        runDeferredWrites()
    }

    /// Tells a subscriber that atoms it watches changed, timing it when `timing` is given.
    private func notify(_ subscriber: SubscriberState, timer: TransactionTimer?, timing: TransactionTiming?) {
        subscriber.onUpdate()
        if let timer, let timing { timer.notified(subscriber, in: timing) }
    }

    /// Runs the writes deferred while a commit or computation was in progress, each as its own
    /// transaction, in the order they were made.
    func runDeferredWrites() {
        while let deferred = transactionState.nextDeferredWrite() {
            // A write an effect made is reported as the effect's.
            let wasRunningEffects = transactionState.setRunningEffects(deferred.fromEffect)
            deferred.write()
            _ = transactionState.setRunningEffects(wasRunningEffects)
        }
    }

    /// Runs `body` with writes held (an `onTermination` handler, while the computation or
    /// commit that ended the work is in progress); the writes it made run afterwards, each as
    /// a transaction of its own, once no other hold is open.
    func holdingWrites(_ body: () -> Void) {
        transactionState.holdWrites()
        body()
        transactionState.releaseWrites()
        runDeferredWrites()
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
        let scopes = touched.compactMap { self.scopes.state(for: $0) }.filter { !$0.observers.isEmpty }
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
