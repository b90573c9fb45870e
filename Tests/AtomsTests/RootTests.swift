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
        context.unwatch(LeftAtom())

        #expect(records.map(\.sequence) == [1, 2, 3])
        #expect(records.map(\.cause) == [.initialize, .set, .release])
        #expect(records[0].created.map(\.label).sorted() == ["LeftAtom", "SourceAtom"])
        #expect(records[0].edgesAdded.map { "\($0.dependency.label)->\($0.dependent.label)" } == ["SourceAtom->LeftAtom"])
        #expect(records[0].subscriptionsAdded.map(\.location) == [SourceLocation(fileID: "App/Main.swift", line: 12)])
        #expect(records[1].origin?.label == "SourceAtom")
        #expect(records[1].location == SourceLocation(fileID: "App/Main.swift", line: 12))
        #expect(records[1].changedValues.map { "\($0.atom.label)=\($0.value)" } == ["SourceAtom=3", "LeftAtom=4"])
        #expect(records[2].released.map(\.label).sorted() == ["LeftAtom", "SourceAtom"])
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
