import AtomsJournalMacros
import Atoms
import Foundation

/// What an item is; an enum `Codable` writes as its raw value (not `JournalRecordable`).
enum Kind: String, Codable, Hashable, CaseIterable, Sendable {
    case task, bug, idea
}

/// The shapes recorded through `@JournalRecordable`'s code.
enum Generated {
    @JournalRecordable
    struct Tag: Codable, Hashable, Sendable {
        var name: String
        var weight: Int
    }

    @JournalRecordable
    struct Item: Codable, Hashable, Sendable {
        var id: Int
        var title: String
        var done: Bool
        var score: Double
        var ratio: Float
        var big: Int64
        var note: String?
        var tag: Tag
        var tags: [Tag]
        var extra: Tag?
        var labels: [String]
        var counts: [String: Int]
        var kind: Kind
        var when: Date?
    }

    @JournalRecordable
    struct Board: Codable, Hashable, Sendable {
        var title: String
        var items: [Item]
        var pinned: Item?
        var version: Int
    }

    struct BoardAtom: StateAtom, Hashable {
        func defaultValue(context: Context) -> Board { Board(title: "", items: [], pinned: nil, version: 0) }
    }

    struct ItemsAtom: StateAtom, Hashable {
        func defaultValue(context: Context) -> [Item] { [] }
    }

    struct TagAtom: StateAtom, Hashable {
        func defaultValue(context: Context) -> Tag { Tag(name: "", weight: 0) }
    }

    /// Derived from the items: often the very array the items atom holds.
    struct OpenItemsAtom: ValueAtom, Hashable {
        func value(context: Context) -> [Item] {
            let items = context.watch(ItemsAtom())
            return items.count % 3 == 0 ? items : items.filter { !$0.done }
        }
    }
}

/// The same shapes recorded through `Codable`, as the recorder always did.
enum Synthesis {
    struct Tag: Codable, Hashable, Sendable {
        var name: String
        var weight: Int
    }

    struct Item: Codable, Hashable, Sendable {
        var id: Int
        var title: String
        var done: Bool
        var score: Double
        var ratio: Float
        var big: Int64
        var note: String?
        var tag: Tag
        var tags: [Tag]
        var extra: Tag?
        var labels: [String]
        var counts: [String: Int]
        var kind: Kind
        var when: Date?
    }

    struct Board: Codable, Hashable, Sendable {
        var title: String
        var items: [Item]
        var pinned: Item?
        var version: Int
    }

    struct BoardAtom: StateAtom, Hashable {
        func defaultValue(context: Context) -> Board { Board(title: "", items: [], pinned: nil, version: 0) }
    }

    struct ItemsAtom: StateAtom, Hashable {
        func defaultValue(context: Context) -> [Item] { [] }
    }

    struct TagAtom: StateAtom, Hashable {
        func defaultValue(context: Context) -> Tag { Tag(name: "", weight: 0) }
    }

    struct OpenItemsAtom: ValueAtom, Hashable {
        func value(context: Context) -> [Item] {
            let items = context.watch(ItemsAtom())
            return items.count % 3 == 0 ? items : items.filter { !$0.done }
        }
    }
}

/// A struct isolated to the main actor: its conformance is still the recorder's to call.
@MainActor
@JournalRecordable
struct MainActorSettings: Codable, Hashable, Sendable {
    var volume: Int
    var name: String
}

struct MainActorSettingsAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> MainActorSettings { MainActorSettings(volume: 0, name: "a") }
}
