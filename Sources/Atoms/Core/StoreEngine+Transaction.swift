extension StoreEngine {
    /// Opens a transaction, or joins the one already open. The outermost call decides the
    /// cause, origin and location.
    func begin(_ cause: AtomTransaction.Cause, origin: AnyAtomNode? = nil, location: SourceLocation? = nil) {
        if transactionDepth == 0 {
            transaction.cause = isRunningEffects && cause != .initialize ? .effect : cause
            transaction.origin = origin
            transaction.location = location
        }
        transactionDepth += 1
    }

    /// Closes a transaction; the outermost close commits: releases unwatched atoms, reports the
    /// transaction, then runs effects and notifies subscribers (whose own writes are new
    /// transactions).
    func commit() {
        transactionDepth -= 1
        guard transactionDepth == 0 else {
            return
        }
        releaseUnwatchedNodes()
        let finished = transaction
        transaction = OpenTransaction()

        if finished.hasChanges {
            sequence += 1
            if !transactionObservers.isEmpty {
                let record = finished.record(sequence: sequence)
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
            notifyScopeObservers(of: finished)
        }

        if !finished.effects.isEmpty {
            let wasRunningEffects = isRunningEffects
            isRunningEffects = true
            for effect in finished.effects {
                effect.run()
            }
            isRunningEffects = wasRunningEffects
        }
        for subscriber in finished.subscribers.values.sorted(by: { $0.id < $1.id }) {
            subscriber.onUpdate()
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
    private func notifyScopeObservers(of finished: OpenTransaction) {
        guard !scopes.isEmpty else {
            return
        }
        var touched = Set<ScopeKey>()
        for node in finished.updated + finished.created + finished.released {
            if let scope = node.scope {
                touched.insert(scope)
            }
        }
        let scopes = self.scopes.values.compactMap(\.value).filter { !$0.observers.isEmpty && touched.contains($0.key) }
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
