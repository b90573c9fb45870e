import Atoms

/// The state every runtime workload updates.
struct BenchSourceAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

/// Link `index` of a chain: link 0 watches the source, link n watches link n-1.
struct BenchChainAtom: ValueAtom, Hashable {
    let index: Int

    func value(context: Context) -> Int {
        index == 0 ? context.watch(BenchSourceAtom()) : context.watch(BenchChainAtom(index: index - 1)) + 1
    }
}

/// One of many dependents of the source.
struct BenchFanAtom: ValueAtom, Hashable {
    let index: Int

    func value(context: Context) -> Int {
        context.watch(BenchSourceAtom()) + index
    }
}

/// A family member identified by an explicit key.
struct BenchFamilyAtom: ValueAtom {
    let id: Int

    var key: Int { id }

    func value(context: Context) -> Int { id }
}
