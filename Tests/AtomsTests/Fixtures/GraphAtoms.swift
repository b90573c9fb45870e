import Atoms

// Small graphs used across tests. Each atom carries a probe name so computations are counted.

struct SourceAtom: StateAtom, Hashable {
    var probe = "default"

    func defaultValue(context: Context) -> Int {
        Probes.named(probe).record("source")
        return 0
    }
}

struct LeftAtom: ValueAtom, Hashable {
    var probe = "default"

    func value(context: Context) -> Int {
        Probes.named(probe).record("left")
        return context.watch(SourceAtom(probe: probe)) + 1
    }
}

struct RightAtom: ValueAtom, Hashable {
    var probe = "default"

    func value(context: Context) -> Int {
        Probes.named(probe).record("right")
        return context.watch(SourceAtom(probe: probe)) * 10
    }
}

/// The bottom of a diamond: watches Left and Right, which both watch Source.
struct SumAtom: ValueAtom, Hashable {
    var probe = "default"

    func value(context: Context) -> Int {
        let probe = Probes.named(probe)
        let value = context.watch(LeftAtom(probe: self.probe)) + context.watch(RightAtom(probe: self.probe))
        probe.record("sum=\(value)")
        probe.record("sum")
        return value
    }
}

/// A chain link: link 0 watches the counter, link n watches link n-1.
struct ChainAtom: ValueAtom, Hashable {
    let index: Int

    func value(context: Context) -> Int {
        if index == 0 {
            return context.watch(ChainSourceAtom())
        }
        return context.watch(ChainAtom(index: index - 1)) + 1
    }
}

struct ChainSourceAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int {
        0
    }
}

struct KeptAtom: StateAtom, KeepAlive, Hashable {
    func defaultValue(context: Context) -> String {
        "kept"
    }
}
