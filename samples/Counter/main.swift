import Atoms
import Foundation

// sample-counter: reads commands from stdin, one per line: inc, dec, reset, state, graph.

@MainActor
func runCounter() {
    let root = AtomRoot()
    let context = root.viewContext()
    context.watch(CounterAtom())
    context.watch(IsEvenAtom())

    while let line = readLine() {
        switch line.trimmingCharacters(in: .whitespaces) {
        case "inc":
            context[CounterAtom()] += 1
        case "dec":
            context[CounterAtom()] -= 1
        case "reset":
            context.reset(CounterAtom())
        case "state":
            print(#"{"CounterAtom":\#(context.read(CounterAtom())),"IsEvenAtom":\#(context.read(IsEvenAtom()))}"#)
        case "graph":
            print(context.snapshot().graphDescription())
        case "":
            continue
        case let other:
            FileHandle.standardError.write(Data("sample-counter: unknown command '\(other)' — use inc, dec, reset, state or graph\n".utf8))
        }
    }
}

MainActor.assumeIsolated {
    runCounter()
}
