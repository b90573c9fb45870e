import Testing
@testable import Atoms

/// A state atom whose effect copies each new value to `EffectCopyAtom`, writing through the
/// effect's context.
private struct EffectCopiedAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }

    func effect(context: CurrentContext) -> some AtomEffect {
        UpdateEffect {
            context[EffectCopyAtom()] = context.read(self)
        }
    }
}

private struct EffectCopyAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

/// Every mutating call, and every watch, records its caller's `#fileID:#line` as the
/// transaction's location (the write site); subscriptions keep the subscriber's creation site.
@MainActor
struct WriteSiteTests {
    private func site(_ line: UInt) -> Atoms.SourceLocation {
        Atoms.SourceLocation(fileID: #fileID, line: line)
    }

    @Test func everyMutatingCallOfAViewContextRecordsItsLine() {
        let root = AtomRoot()
        var records: [AtomTransaction] = []
        root.observeTransactions { records.append($0) }
        let context = root.viewContext(fileID: "App/View.swift", line: 3)
        context.watch(SourceAtom()); let watch = site(#line)
        let snapshot = context.snapshot()

        context[SourceAtom()] = 1; let subscriptSet = site(#line)
        context[SourceAtom()] += 1; let subscriptModify = site(#line)
        context.set(5, for: SourceAtom()); let set = site(#line)
        context.modify(SourceAtom()) { $0 += 1 }; let modify = site(#line)
        context.reset(SourceAtom()); let reset = site(#line)
        context.restore(snapshot); let restore = site(#line)

        #expect(records.first?.location == watch, "a watch's initialization is at the line that watched")
        #expect(records.first?.subscriptionsAdded.map(\.location) == [Atoms.SourceLocation(fileID: "App/View.swift", line: 3)])
        #expect(records.dropFirst().map(\.location) == [subscriptSet, subscriptModify, set, modify, reset, restore])
        #expect(records.dropFirst().map(\.cause) == [.set, .set, .set, .modify, .reset, .restore])
    }

    @Test func aWatchThroughTheProtocolIsAtTheSubscriber() {
        let root = AtomRoot()
        var records: [AtomTransaction] = []
        root.observeTransactions { records.append($0) }
        let context = root.viewContext(fileID: "App/View.swift", line: 3)
        func watchGenerically(_ context: some AtomWatchableContext) {
            context.watch(SourceAtom())
        }
        watchGenerically(context)
        #expect(records.map(\.location) == [Atoms.SourceLocation(fileID: "App/View.swift", line: 3)])
    }

    @Test func aTestContextsWatchRecordsItsLine() {
        let context = AtomTestContext()
        var records: [AtomTransaction] = []
        context.state.engine.observers.observeTransactions { records.append($0) }
        context.watch(SourceAtom()); let watch = site(#line)
        #expect(records.map(\.location) == [watch])
    }

    @Test func aTestContextsWritesRecordTheirLines() {
        let context = AtomTestContext()
        var records: [AtomTransaction] = []
        context.state.engine.observers.observeTransactions { records.append($0) }
        context.watch(SourceAtom())
        context[SourceAtom()] = 2; let subscriptSet = site(#line)
        context.modify(SourceAtom()) { $0 *= 3 }; let modify = site(#line)
        #expect(records.suffix(2).map(\.location) == [subscriptSet, modify])
        #expect(context.read(SourceAtom()) == 6)
    }

    @Test func anEffectsWriteRecordsTheEffectsLine() {
        let root = AtomRoot()
        var records: [AtomTransaction] = []
        root.observeTransactions { records.append($0) }
        let context = root.viewContext()
        context.watch(EffectCopiedAtom())
        context.watch(EffectCopyAtom())
        context[EffectCopiedAtom()] = 7; let write = site(#line)
        // The effect's write is its own transaction, at the line inside the effect.
        let effectWrite = records.last { $0.cause == .effect }
        #expect(records.contains { $0.location == write && $0.cause == .set })
        #expect(effectWrite?.location?.fileID == #fileID)
        #expect(effectWrite?.location?.line == 11)
        #expect(context.read(EffectCopyAtom()) == 7)
    }

    @Test func readingInsideModifySeesTheValueBeforeTheChange() {
        let context = AtomTestContext()
        context.watch(SourceAtom())
        context.watch(LeftAtom())
        context[SourceAtom()] = 4
        var seen: [Int] = []
        context.modify(SourceAtom()) { value in
            seen.append(context.read(SourceAtom()))
            seen.append(context.read(LeftAtom()))
            value = 10
            seen.append(context.read(SourceAtom()))
        }
        #expect(seen == [4, 5, 4])
        #expect(context.read(SourceAtom()) == 10)
        #expect(context.read(LeftAtom()) == 11)
    }
}
