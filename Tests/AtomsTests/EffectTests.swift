import Testing
import Atoms

final class RecordingEffect: AtomEffect {
    let probe: Probe

    init(probe: Probe) {
        self.probe = probe
    }

    func initializing(context: Context) { probe.record("initializing") }
    func initialized(context: Context) { probe.record("initialized") }
    func updated(context: Context) { probe.record("updated") }
    func released(context: Context) { probe.record("released") }
}

struct EffectAtom: StateAtom, Hashable {
    var probe: String

    func defaultValue(context: Context) -> Int {
        Probes.named(probe).record("compute")
        return 0
    }

    func effect(context: CurrentContext) -> some AtomEffect {
        RecordingEffect(probe: Probes.named(probe))
    }
}

struct BuilderEffectAtom: StateAtom, Hashable {
    var probe: String

    func defaultValue(context: Context) -> Int { 0 }

    func effect(context: CurrentContext) -> some AtomEffect {
        InitializingEffect { Probes.named(probe).record("builder.initializing") }
        InitializeEffect { Probes.named(probe).record("builder.initialized") }
        UpdateEffect { Probes.named(probe).record("builder.updated=\(context.read(self))") }
        ReleaseEffect { Probes.named(probe).record("builder.released") }
    }
}

/// Mirrors the persistence example of the upstream README: an effect that writes elsewhere.
struct MirroredAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }

    func effect(context: CurrentContext) -> some AtomEffect {
        UpdateEffect {
            context[MirrorAtom()] = context.read(self) * 2
        }
    }
}

struct MirrorAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { -1 }
}

/// Does work in `effect(context:)` and returns no effect, which upstream still calls.
struct EmptyEffectWorkAtom: StateAtom, Hashable {
    var probe: String

    func defaultValue(context: Context) -> Int { 0 }

    func effect(context: CurrentContext) -> EmptyEffect {
        Probes.named(probe).record("effect(context:)")
        return EmptyEffect()
    }
}

@MainActor
struct EffectTests {
    @Test func effectIsCalledOnCreationEvenWhenItIsEmpty() {
        let probe = Probes.make()
        let context = AtomTestContext()
        context.watch(EmptyEffectWorkAtom(probe: #function))
        context[EmptyEffectWorkAtom(probe: #function)] = 1
        #expect(probe.events == ["effect(context:)"], "once per creation, not per update")
        context.unwatch(EmptyEffectWorkAtom(probe: #function))
        context.watch(EmptyEffectWorkAtom(probe: #function))
        #expect(probe.count("effect(context:)") == 2)
    }

    @Test func lifecycleEventsInOrder() {
        let probe = Probes.make()
        let context = AtomTestContext()
        context.watch(EffectAtom(probe: #function))
        context[EffectAtom(probe: #function)] = 1
        context.unwatch(EffectAtom(probe: #function))
        #expect(probe.events == ["initializing", "compute", "initialized", "updated", "released"])
    }

    @Test func severalEffectsInOneBuilderBody() {
        let probe = Probes.make()
        let context = AtomTestContext()
        context.watch(BuilderEffectAtom(probe: #function))
        context[BuilderEffectAtom(probe: #function)] = 5
        context.unwatch(BuilderEffectAtom(probe: #function))
        #expect(probe.events == [
            "builder.initializing", "builder.initialized", "builder.updated=5", "builder.released",
        ])
    }

    @Test func effectsSeeTheNewValueAndMayWriteOtherAtoms() {
        let context = AtomTestContext()
        context.watch(MirrorAtom())
        context.watch(MirroredAtom())
        context[MirroredAtom()] = 21
        #expect(context.read(MirrorAtom()) == 42)
    }

    @Test func effectRecreatedAfterRelease() {
        let probe = Probes.make()
        let context = AtomTestContext()
        context.watch(EffectAtom(probe: #function))
        context.unwatch(EffectAtom(probe: #function))
        context.watch(EffectAtom(probe: #function))
        #expect(probe.count("initializing") == 2)
        #expect(probe.count("released") == 1)
    }
}
