import Atoms
import AtomsJournal

/// A recorded value decoded once as today's type, ready to write into a replay's context.
@MainActor
struct DecodedWrite {
    /// Writes it: a state's `set`, or a delivered atom's result in a transaction of `cause`.
    let apply: @MainActor (AtomTestContext, SourceLocation, AtomTransaction.Cause) -> Void
    /// Makes it what a delivered atom holds when the replay's store next creates it, without a
    /// transaction (its recorded creation); `nil` for a state.
    let hold: (@MainActor () -> Void)?
}

/// One atom of today's code that stands for a recorded one: how to keep it, read it, and
/// (when driven) write it.
@MainActor
struct ReplayedMember {
    /// Its identity, as the recorder would declare it.
    let identity: AtomIdentity
    /// Registers what a delivered atom needs before the replay's store first creates it (its
    /// override, holding `initial`, the first recorded value); `nil` for other atoms.
    let prepare: (@MainActor (AtomTestContext, ValueEntry?) throws -> Void)?
    /// Watches it from the replay's context, so it stays cached and takes writes.
    let watch: (AtomTestContext, SourceLocation) -> Void
    /// Its cached value, boxed.
    let current: (AtomTestContext) -> Any?
    /// Writes a recorded value of a state, decoded as its type (from the recorded delta where
    /// it can); `nil` for an atom that is only checked or is delivered.
    let write: (@MainActor (RecordedWrite, AtomTestContext, SourceLocation) throws -> Void)?
    /// Decodes a whole recorded entry as today's type, once; `nil` for an atom only checked.
    let decode: (@MainActor (ValueEntry) throws -> DecodedWrite)?
    /// Resets it.
    let reset: (AtomTestContext, SourceLocation) -> Void
    /// How its cached value changed since this was last called (the recorder's comparison,
    /// a delta compared with the recorded delta given), or
    /// ``RecordedComparison/Change/whole`` for the first call, an uncached atom, a value that
    /// is not `Encodable`: what a checked atom's recorded change is compared with.
    let change: @MainActor (AtomTestContext, RecordedComparison.RecordedDelta?, RecordedComparison) -> RecordedComparison.Change

    /// Whether its recorded values are delivered rather than set.
    var isDelivered: Bool { prepare != nil }

    init<Node: Atom>(checking atom: Node) {
        self.init(atom, prepare: nil, write: nil, decode: nil)
    }

    init<Node: StateAtom>(driving atom: Node) where Node.Produced: Decodable {
        let last = DrivenValue<Node.Produced>()
        self.init(atom, prepare: nil) { @MainActor recorded, context, location in
            var value = recorded.isUnchanged ? last.value : nil
            // An array changed by a delta from the value written last: decode what changed.
            if value == nil, case .array(let delta)? = recorded.delta, delta.count == 2, delta[0] == .string("a"), case .array(let operations) = delta[1],
               let previous = last.value as? any RecordedArrayPatching {
                value = try previous.patched(by: operations, resolved: recorded.value) as? Node.Produced
            }
            let written = try value ?? RecordedValueSeeds.decoded(recorded.value, as: Node.Produced.self)
            last.value = written
            context.set(written, for: atom, at: location)
        } decode: { @MainActor entry in
            guard entry.isRestorable, let json = entry.v else { throw RecordedPhase.Mismatch(description: "its recorded value is not JSON") }
            let value: Node.Produced = try Self.decoded(json)
            return DecodedWrite(apply: { context, location, _ in
                last.value = value
                context.set(value, for: atom, at: location)
            }, hold: nil)
        }
    }

    /// A member whose recorded values are delivered: `atom` is overridden to hold the last
    /// recorded value, decoded by `decoded`; `initial` is what it holds before any is known.
    /// `alsoOverride` overrides more atoms with the same value box (a task atom under its phase).
    init<Node: Atom>(
        delivering atom: Node, initial: Node.Produced? = nil, settles: @escaping (Node.Produced) -> Bool = { _ in true },
        decoded: @escaping (ValueEntry) throws -> Node.Produced,
        alsoOverride: ((AtomTestContext, DeliveredValue<Node.Produced>) -> Void)? = nil
    ) {
        let box = Box<DeliveredValue<Node.Produced>>()
        let prepare: @MainActor (AtomTestContext, ValueEntry?) throws -> Void = { context, first in
            let value = try first.map(decoded) ?? initial
            guard let value else {
                throw RecordedPhase.Mismatch(description: "the journal holds no value of it to start from")
            }
            let held = DeliveredValue(value)
            box.value = held
            context.override(atom) { _ in held.value }
            alsoOverride?(context, held)
        }
        self.init(atom, prepare: prepare, write: nil) { @MainActor entry in
            let value = try decoded(entry)
            let settled = settles(value)
            return DecodedWrite(apply: { context, location, cause in
                box.value?.take(value, settles: settled)
                context.deliver(value, to: atom, cause: cause, at: location)
            }, hold: {
                box.value?.take(value, settles: settled)
            })
        }
    }

    private init<Node: Atom>(
        _ atom: Node, prepare: (@MainActor (AtomTestContext, ValueEntry?) throws -> Void)?,
        write: (@MainActor (RecordedWrite, AtomTestContext, SourceLocation) throws -> Void)?, decode: (@MainActor (ValueEntry) throws -> DecodedWrite)?
    ) {
        identity = Self.identity(of: atom)
        self.prepare = prepare
        watch = { context, location in context.watch(atom, fileID: location.fileID, line: location.line) }
        current = { context in context.lookup(atom) }
        self.write = write
        self.decode = decode
        reset = { context, location in context.reset(atom, at: location) }
        let previous = Box<Node.Produced>()
        let comparer = RecordedComparison.comparer(for: Node.Produced.self)
        change = { context, recorded, comparison in
            let value = context.lookup(atom)
            defer { previous.value = value }
            guard let comparer, let old = previous.value, let value else { return .whole }
            return comparer(old, value, recorded, comparison)
        }
    }

    /// A recorded JSON value decoded as today's type, on the main actor where the replay
    /// keeps it.
    static func decoded<Value: Decodable>(_ json: JSONValue) throws -> Value {
        try RecordedValueSeeds.decoded(json, as: Value.self)
    }

    /// The identity the recorder declares an atom of the root store by.
    static func identity<Node: Atom>(of atom: Node) -> AtomIdentity {
        AtomIdentity(atom, scope: nil, names: AtomTypeNames(Node.self))
    }
}

/// A reference a member's closures share: a delivered atom's value box, a checked atom's previous value.
@MainActor
private final class Box<Value> {
    var value: Value?
}
