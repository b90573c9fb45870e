import Atoms

struct SourceAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

struct MiddleAtom: ValueAtom, Hashable {
    func value(context: Context) -> Int { context.watch(SourceAtom()) + 1 }
}

struct TopAtom: ValueAtom, Hashable {
    func value(context: Context) -> Int { context.watch(MiddleAtom()) * 10 }
}

struct NameAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> String { "" }
}
