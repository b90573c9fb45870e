import Testing
@testable import Atoms

@MainActor
struct RootTests {
    @Test func viewContextIsToldWhenAWatchedAtomChanges() {
        let root = AtomRoot()
        var renders = 0
        let context = root.viewContext { renders += 1 }
        #expect(context.watch(SumAtom()) == 1)
        let writer = root.viewContext()
        writer.watch(SourceAtom())
        writer[SourceAtom()] += 1
        #expect(renders == 1)
        #expect(context.watch(SumAtom()) == 12)
    }

    @Test func everySubscriberOfAnAtomIsToldOnceInCreationOrderUntilTheLastUnwatches() {
        let root = AtomRoot()
        var heard: [String] = []
        let contexts = ["a", "b", "c"].map { name in root.viewContext { heard.append(name) } }
        for context in contexts {
            context.watch(SourceAtom())
            context.watch(SourceAtom())  // a second watch adds no second subscription
        }
        let writer = root.viewContext()
        writer[SourceAtom()] = 5
        #expect(heard == ["a", "b", "c"])

        // The first subscriber leaves; the others are still told, in order.
        heard = []
        contexts[0].unwatch(SourceAtom())
        writer[SourceAtom()] = 6
        #expect(heard == ["b", "c"])

        contexts[2].unwatch(SourceAtom())
        contexts[1].unwatch(SourceAtom())
        #expect(root.store.engine.makeSnapshot().lookup(SourceAtom()) == nil, "released once no subscriber watches it")
        #expect(root.store.engine.invariantViolations().isEmpty)
    }

    @Test func viewContextRecordsTheCallersLocation() {
        let root = AtomRoot()
        let context = root.viewContext(); let line = #line
        #expect(context.location == SourceLocation(fileID: "AtomsTests/RootTests.swift", line: UInt(line)))
    }

    @Test func contextsShareTheRootStore() {
        let store = AtomStore()
        let first = AtomRoot(storesIn: store).viewContext()
        let second = AtomRoot(storesIn: store).viewContext()
        first.watch(SourceAtom())
        second.watch(SourceAtom())
        first[SourceAtom()] = 8
        #expect(second.read(SourceAtom()) == 8)
    }

    @Test func transactionsAreReportedWithCauseAndLocation() {
        let root = AtomRoot()
        var records: [AtomTransaction] = []
        root.observeTransactions { records.append($0) }
        let context = root.viewContext(fileID: "App/Main.swift", line: 12)
        context.watch(LeftAtom())
        context[SourceAtom()] = 3
        let writeSite = SourceLocation(fileID: #fileID, line: #line - 1)
        context.unwatch(LeftAtom())

        #expect(records.map(\.sequence) == [1, 2, 3])
        #expect(records.map(\.cause) == [.initialize, .set, .release])
        #expect(records[0].created.map(\.label).sorted() == ["LeftAtom", "SourceAtom"])
        #expect(records[0].edgesAdded.map { "\($0.dependency.label)->\($0.dependent.label)" } == ["SourceAtom->LeftAtom"])
        #expect(records[0].subscriptionsAdded.map(\.location) == [SourceLocation(fileID: "App/Main.swift", line: 12)])
        #expect(records[1].origin?.label == "SourceAtom")
        // The transaction is at the write site; the subscription stays at the context's.
        #expect(records[1].location == writeSite)
        #expect(records[1].changedValues.map { "\($0.atom.label)=\($0.value)" } == ["SourceAtom=3", "LeftAtom=4"])
        #expect(records[2].released.map(\.label).sorted() == ["LeftAtom", "SourceAtom"])
    }

    @Test func theRecordersCommitViewReportsWhatThePublicRecordDoes() {
        let root = AtomRoot()
        var records: [AtomTransaction] = []
        var views: [String] = []
        // The view is valid only during the call: describe it there.
        root.store.observeCommits { view in
            var values: [String] = []
            view.forEachChangedValue { atom, value in values.append("\(atom.label)=\(value)") }
            views.append(Self.describe(
                sequence: view.sequence, cause: view.cause, origin: view.origin, location: view.location,
                values: values, created: view.created, released: view.released, edgesAdded: view.edgesAdded,
                edgesRemoved: view.edgesRemoved, subscriptionsAdded: view.subscriptionsAdded,
                subscriptionsRemoved: view.subscriptionsRemoved, changesGraph: view.changesGraph
            ))
        }
        root.observeTransactions { records.append($0) }
        let context = root.viewContext(fileID: "App/Main.swift", line: 7)
        context.watch(LeftAtom())       // graph changes
        context[SourceAtom()] = 3       // values only, right after a graph change
        context[SourceAtom()] = 4
        context.unwatch(LeftAtom())     // releases
        context.watch(SourceAtom())     // created again after its release
        context[SourceAtom()] = 5

        let described = records.map { record in
            Self.describe(
                sequence: record.sequence, cause: record.cause, origin: record.origin, location: record.location,
                values: record.changedValues.map { "\($0.atom.label)=\($0.value)" }, created: record.created,
                released: record.released, edgesAdded: record.edgesAdded, edgesRemoved: record.edgesRemoved,
                subscriptionsAdded: record.subscriptionsAdded, subscriptionsRemoved: record.subscriptionsRemoved,
                changesGraph: !(record.created.isEmpty && record.released.isEmpty && record.edgesAdded.isEmpty
                    && record.edgesRemoved.isEmpty && record.subscriptionsAdded.isEmpty && record.subscriptionsRemoved.isEmpty)
            )
        }
        #expect(records.map(\.cause) == [.initialize, .set, .set, .release, .initialize, .set])
        #expect(views == described)
        // The lists are reused between transactions: a value-only one after a graph change
        // reports no graph change.
        #expect(records[1].created.isEmpty && records[1].edgesAdded.isEmpty && records[1].subscriptionsAdded.isEmpty)
        #expect(records[1].changedValues.map { "\($0.atom.label)=\($0.value)" } == ["SourceAtom=3", "LeftAtom=4"])
        #expect(records[2].changedValues.map { "\($0.atom.label)=\($0.value)" } == ["SourceAtom=4", "LeftAtom=5"])
    }

    @Test func aReleasedAtomsValueIsFreedAtOnceWhileTransactionsAreObserved() {
        let root = AtomRoot()
        root.observeTransactions { _ in }
        weak var released: ValueBox?
        do {
            let context = root.viewContext()
            released = context.watch(BoxAtom())
            #expect(released != nil)
            context.unwatch(BoxAtom())
        }
        // Nothing the store keeps for the next transaction holds the released node.
        #expect(released == nil)
    }

    private static func describe(
        sequence: Int, cause: AtomTransaction.Cause, origin: AtomIdentity?, location: Atoms.SourceLocation?,
        values: [String], created: [AtomIdentity], released: [AtomIdentity], edgesAdded: [AtomTransaction.Edge],
        edgesRemoved: [AtomTransaction.Edge], subscriptionsAdded: [AtomTransaction.SubscriptionChange],
        subscriptionsRemoved: [AtomTransaction.SubscriptionChange], changesGraph: Bool
    ) -> String {
        func edges(_ list: [AtomTransaction.Edge]) -> String { list.map { "\($0.dependency.label)->\($0.dependent.label)" }.joined(separator: ",") }
        func subscriptions(_ list: [AtomTransaction.SubscriptionChange]) -> String { list.map { "\($0.atom.label)@\($0.location)" }.joined(separator: ",") }
        return "\(sequence) \(cause) origin=\(origin?.label ?? "-") at=\(location?.description ?? "-") values=\(values)"
            + " created=\(created.map(\.label)) released=\(released.map(\.label)) +edges=\(edges(edgesAdded)) -edges=\(edges(edgesRemoved))"
            + " +subs=\(subscriptions(subscriptionsAdded)) -subs=\(subscriptions(subscriptionsRemoved)) graph=\(changesGraph)"
    }

    @Test func effectWritesAreReportedAsEffectTransactions() {
        let root = AtomRoot()
        var causes: [AtomTransaction.Cause] = []
        root.observeTransactions { causes.append($0.cause) }
        let context = root.viewContext()
        context.watch(MirrorAtom())
        context.watch(MirroredAtom())
        context[MirroredAtom()] = 1
        #expect(causes == [.initialize, .initialize, .set, .effect])
    }
}

/// A class-typed value, so a test can see when the store lets it go.
final class ValueBox {}

private struct BoxAtom: ValueAtom, Hashable {
    func value(context: Context) -> ValueBox {
        ValueBox()
    }
}
