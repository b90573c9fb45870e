import Atoms
import AtomsJournal
import TestSupport

struct CountAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

struct Note: Codable, Hashable, Sendable {
    var id: Int
    var text: String
    var done: Bool
}

struct NotesAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> [Note] { [] }
}

struct ShowDoneAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Bool { true }
}

struct VisibleNotesAtom: ValueAtom, Hashable {
    func value(context: Context) -> [Note] {
        let notes = context.watch(NotesAtom())
        return context.watch(ShowDoneAtom()) ? notes : notes.filter { !$0.done }
    }
}

struct SummaryAtom: ValueAtom, Hashable {
    func value(context: Context) -> String {
        "\(context.watch(CountAtom())) / \(context.watch(VisibleNotesAtom()).count)"
    }
}

/// An atom family: one slot per key.
struct SlotAtom: StateAtom {
    let slot: Int
    var key: Int { slot }
    func defaultValue(context: Context) -> Double { Double(slot) / 2 }
}

/// A value that is not Codable: recorded as a dump.
struct Opaque: Equatable {
    var count: Int
}

struct OpaqueAtom: ValueAtom, Hashable {
    func value(context: Context) -> Opaque { Opaque(count: context.watch(CountAtom())) }
}

struct SecretAtom: StateAtom, JournalRedacted, Hashable {
    func defaultValue(context: Context) -> String { "hunter2" }
}

/// A struct whose members change one at a time: recorded as patches.
struct Profile: Codable, Hashable, Sendable {
    var name: String
    var bio: String?
    var age: Int
}

struct ProfileAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Profile {
        Profile(name: "Ada Lovelace", bio: "Wrote the first published program, for the Analytical Engine.", age: 36)
    }
}

/// A reference-type value: the recorder must encode it at commit, before the app changes it.
final class Counter: Codable, @unchecked Sendable {
    var count: Int

    init(count: Int) {
        self.count = count
    }
}

struct CounterObjectAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Counter { Counter(count: 0) }
}
