import Atoms
import SampleSupport
import SampleCounter
// sample-counter: commands on stdin, one per line: inc, dec, reset, state, graph.

@MainActor
func runCounter() {
    let session = SampleSession(name: "sample-counter")
    let context = session.root.viewContext()
    context.watch(CounterAtom())
    context.watch(IsEvenAtom())

    session.run(
        state: { ["CounterAtom": context.read(CounterAtom()), "IsEvenAtom": context.read(IsEvenAtom())] }
    ) { command, _ in
        switch command {
        case "inc": context[CounterAtom()] += 1
        case "dec": context[CounterAtom()] -= 1
        case "reset": context.reset(CounterAtom())
        case "graph": print(context.snapshot().graphDescription())
        default: return false
        }
        return true
    }
}

MainActor.assumeIsolated {
    runCounter()
}
