import Atoms

/// R1: the runtime's update and release paths, through `AtomTestContext` as upstream's anchor
/// figures were measured.
@MainActor
enum RuntimeSuite {
    /// Upstream's figures on this machine kind (ns): chain update, fan-out update, family atom.
    static let anchors: [String: Double] = [
        "chain-1000-update": 8_600_000,
        "fanout-1000-update": 9_200_000,
        "family-10000-watch-release": 8_900,
    ]

    /// The workloads by name, in the order they run.
    static let workloads: [(name: String, run: @MainActor (Int) -> Measurement)] = [
        ("chain-1000-update", chain), ("fanout-1000-update", fanOut), ("family-10000-watch-release", family),
    ]

    /// The names of the workloads, which select them on the command line.
    static var workloadNames: [String] { workloads.map(\.name) }

    /// Runs the workloads whose names contain one of `filters` (all when empty).
    static func run(repetitions: Int, filters: [String]) -> [Measurement] {
        return workloads
            .filter { name, _ in filters.isEmpty || filters.contains(where: name.contains) }
            .map { _, workload in workload(repetitions) }
    }

    /// One update propagated through a chain of 1,000 derived atoms (ns per update).
    static func chain(repetitions: Int) -> Measurement {
        let context = AtomTestContext()
        context.watch(BenchChainAtom(index: 999))
        context.watch(BenchSourceAtom())
        let samples = (0..<repetitions).map { _ in
            nanoseconds { context[BenchSourceAtom()] += 1 }
        }
        precondition(context.read(BenchChainAtom(index: 999)) == 999 + repetitions)
        return Measurement(name: "chain-1000-update", samples: samples, unit: "update")
    }

    /// One update fanned out to 1,000 watched dependents (ns per update).
    static func fanOut(repetitions: Int) -> Measurement {
        let context = AtomTestContext()
        context.watch(BenchSourceAtom())
        for index in 0..<1_000 {
            context.watch(BenchFanAtom(index: index))
        }
        let samples = (0..<repetitions).map { _ in
            nanoseconds { context[BenchSourceAtom()] += 1 }
        }
        precondition(context.read(BenchFanAtom(index: 999)) == 999 + repetitions)
        return Measurement(name: "fanout-1000-update", samples: samples, unit: "update")
    }

    /// Watching then releasing 10,000 atoms of one family (ns per atom).
    static func family(repetitions: Int) -> Measurement {
        let context = AtomTestContext()
        let count = 10_000
        let samples = (0..<repetitions).map { _ in
            nanoseconds {
                for id in 0..<count {
                    context.watch(BenchFamilyAtom(id: id))
                }
                for id in 0..<count {
                    context.unwatch(BenchFamilyAtom(id: id))
                }
            } / Double(count)
        }
        precondition(context.lookup(BenchFamilyAtom(id: 0)) == nil)
        return Measurement(name: "family-10000-watch-release", samples: samples, unit: "atom")
    }
}
