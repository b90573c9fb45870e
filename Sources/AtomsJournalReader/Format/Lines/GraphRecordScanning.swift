#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The graph parts of keyframes and transactions (declarations, edges, subscriptions,
// locations, atom lists), read with ``JSONScanner`` instead of `JSONDecoder`, which took a
// third of the time of reading a transaction that changed the graph. As with `JSONDecoder`:
// unknown members are skipped, `null` is an absent optional, and a missing required member is
// an error. Of duplicate members the last wins (as in `JSON.parse`; `JSONDecoder` keeps the first).

extension JSONScanner {
    /// Reads `null` (returning `nil`) or a value read by `read`.
    mutating func optional<Value>(_ read: (inout JSONScanner) throws(SyntaxError) -> Value) throws(SyntaxError) -> Value? {
        guard peek() != UInt8(ascii: "n") else {
            try skipValue()
            return nil
        }
        return try read(&self)
    }

    /// Reads an array whose elements `read` reads.
    mutating func array<Element>(_ read: (inout JSONScanner) throws(SyntaxError) -> Element) throws(SyntaxError) -> [Element] {
        var elements: [Element] = []
        try forEachElement { scanner throws(SyntaxError) in
            elements.append(try read(&scanner))
        }
        return elements
    }

    /// Throws "… has no `name`" when a required member was missing.
    func required<Value>(_ value: Value?, _ name: String, in what: String) throws(SyntaxError) -> Value {
        guard let value else { throw error("\(what) has no \"\(name)\"") }
        return value
    }

    /// Reads an atom declaration object.
    mutating func atomDeclaration() throws(SyntaxError) -> AtomDeclaration {
        var id: Int?, label: String?, type: String?, key: String?, scope: Int?
        try forEachMember { name, scanner throws(SyntaxError) in
            switch name {
            case "id": id = try scanner.integer()
            case "label": label = try scanner.string()
            case "type": type = try scanner.string()
            case "key": key = try scanner.optional { scanner throws(SyntaxError) in try scanner.string() }
            case "scope": scope = try scanner.optional { scanner throws(SyntaxError) in try scanner.integer() }
            default: try scanner.skipValue()
            }
        }
        let what = "an atom declaration"
        return AtomDeclaration(
            id: try required(id, "id", in: what), label: try required(label, "label", in: what),
            type: try required(type, "type", in: what), key: key, scope: scope
        )
    }

    /// Reads a dependency edge object.
    mutating func edgeEntry() throws(SyntaxError) -> EdgeEntry {
        var from: Int?, to: Int?
        try forEachMember { name, scanner throws(SyntaxError) in
            switch name {
            case "from": from = try scanner.integer()
            case "to": to = try scanner.integer()
            default: try scanner.skipValue()
            }
        }
        return EdgeEntry(from: try required(from, "from", in: "an edge"), to: try required(to, "to", in: "an edge"))
    }

    /// Reads a subscription object.
    mutating func subscriptionEntry() throws(SyntaxError) -> SubscriptionEntry {
        var atom: Int?, at: String?
        try forEachMember { name, scanner throws(SyntaxError) in
            switch name {
            case "atom": atom = try scanner.integer()
            case "at": at = try scanner.string()
            default: try scanner.skipValue()
            }
        }
        return SubscriptionEntry(atom: try required(atom, "atom", in: "a subscription"), at: try required(at, "at", in: "a subscription"))
    }

    /// Reads a subscription of a transaction's graph changes: its location by number
    /// (`{"atom":…,"loc":…}`, format 4.2 on) or spelled out (`{"atom":…,"at":…}`, as earlier
    /// formats and keyframes write it). Exactly one of the two.
    mutating func subscriptionChange() throws(SyntaxError) -> TransactionLine.Subscription {
        var atom: Int?, at: String?, location: Int?
        try forEachMember { name, scanner throws(SyntaxError) in
            switch name {
            case "atom": atom = try scanner.integer()
            case "at": at = try scanner.string()
            case "loc": location = try scanner.integer()
            default: try scanner.skipValue()
            }
        }
        let what = "a subscription"
        let atomID = try required(atom, "atom", in: what)
        switch (at, location) {
        case (let at?, nil): return TransactionLine.Subscription(atom: atomID, location: .spelled(at))
        case (nil, let location?): return TransactionLine.Subscription(atom: atomID, location: .number(location))
        case (nil, nil): throw error("\(what) has no \"loc\" (nor \"at\")")
        case (_?, _?): throw error("\(what) has both \"at\" and \"loc\"")
        }
    }

    /// Reads a location declaration object.
    mutating func locationDeclaration() throws(SyntaxError) -> LocationDeclaration {
        var id: Int?, at: String?
        try forEachMember { name, scanner throws(SyntaxError) in
            switch name {
            case "id": id = try scanner.integer()
            case "at": at = try scanner.string()
            default: try scanner.skipValue()
            }
        }
        return LocationDeclaration(id: try required(id, "id", in: "a location"), at: try required(at, "at", in: "a location"))
    }

    /// Reads an optional array (absent, or `null`) with `read`.
    mutating func optionalArray<Element>(_ read: (inout JSONScanner) throws(SyntaxError) -> Element) throws(SyntaxError) -> [Element]? {
        try optional { scanner throws(SyntaxError) in try scanner.array(read) }
    }
}

extension TransactionLine.GraphChanges {
    /// Reads the graph changes object of a compact transaction.
    init(scanning scanner: inout JSONScanner) throws(JSONScanner.SyntaxError) {
        var changes = Self()
        try scanner.forEachMember { name, scanner throws(JSONScanner.SyntaxError) in
            switch name {
            case "declare":
                changes.declare = try scanner.optionalArray { scanner throws(JSONScanner.SyntaxError) in
                    let declaration = try scanner.atomDeclaration()
                    return TransactionLine.Declaration(
                        id: declaration.id, type: .spelled(declaration.type), label: declaration.label, key: declaration.key, scope: declaration.scope
                    )
                }
            case "created": changes.created = try scanner.optionalArray { scanner throws(JSONScanner.SyntaxError) in try scanner.integer() }
            case "released": changes.released = try scanner.optionalArray { scanner throws(JSONScanner.SyntaxError) in try scanner.integer() }
            case "edgesAdded": changes.edgesAdded = try scanner.optionalArray { scanner throws(JSONScanner.SyntaxError) in try scanner.edgeEntry() }
            case "edgesRemoved": changes.edgesRemoved = try scanner.optionalArray { scanner throws(JSONScanner.SyntaxError) in try scanner.edgeEntry() }
            case "subsAdded": changes.subsAdded = try scanner.optionalArray { scanner throws(JSONScanner.SyntaxError) in try scanner.subscriptionChange() }
            case "subsRemoved": changes.subsRemoved = try scanner.optionalArray { scanner throws(JSONScanner.SyntaxError) in try scanner.subscriptionChange() }
            default: try scanner.skipValue()
            }
        }
        self = changes
    }
}
