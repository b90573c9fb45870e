import Atoms

struct CounterAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

struct DoubledAtom: ValueAtom, Hashable {
    func value(context: Context) -> Int { context.watch(CounterAtom()) * 2 }
}

struct MarkerAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> String { "" }
}
