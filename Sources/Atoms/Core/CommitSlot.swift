import Synchronization

/// A recorder's place in one cached atom, made once per atom node and recorder: the node hands
/// each value it commits to the slot typed, so recording a transaction neither boxes values in
/// `Any` nor looks anything up per value (the journal recorder's capture slots).
///
/// A final class holding the recorder's closure, not a protocol: a node calls it without the
/// run-time metadata a protocol with the value's type as a parameter would have it look up.
/// Not isolated: the main actor calls ``capture`` as a transaction commits; what the closure
/// does with the value, and on which thread, is its maker's business.
package final class CommitSlot<Value>: @unchecked Sendable {
    // Unchecked: created and called on the main actor.

    /// The maker that made the slot (``CommitSlotMaker/slotMakerID``).
    package let makerID: Int
    /// Takes (a copy of) the value the atom holds as its transaction commits, given where it
    /// is stored: a pointer spares the copy a parameter would take.
    package let capture: (UnsafePointer<Value>) -> Void
    /// The slot of another maker in the same node (a store recorded twice), if any.
    fileprivate var next: CommitSlot<Value>?

    package init(makerID: Int, capture: @escaping (UnsafePointer<Value>) -> Void) {
        self.makerID = makerID
        self.capture = capture
    }
}

/// Makes the commit slots of one recorder; called on the main actor.
package protocol CommitSlotMaker: AnyObject {
    /// Tells this maker's slots from other makers' in a node: unique in the process
    /// (``CommitSlotMakerID/next()``).
    var slotMakerID: Int { get }

    /// Makes the slot for an atom's node, once per node.
    func makeSlot<Node: Atom>(for atom: Node, identity: AtomIdentity) -> CommitSlot<Node.Produced>
}

/// Numbers for ``CommitSlotMaker/slotMakerID``: a maker's address could be reused by the next
/// one, its number is not.
package enum CommitSlotMakerID {
    private static let counter = Atomic<Int>(0)

    /// A number no maker had before.
    package static func next() -> Int {
        counter.add(1, ordering: .relaxed).newValue
    }
}

extension AtomNode {
    /// This node's slot from `maker`, made on first use.
    func slot(from maker: some CommitSlotMaker) -> CommitSlot<Node.Produced> {
        let makerID = maker.slotMakerID
        var candidate = commitSlots
        while let slot = candidate {
            if slot.makerID == makerID {
                return slot
            }
            candidate = slot.next
        }
        let slot = maker.makeSlot(for: atom, identity: identity)
        slot.next = commitSlots
        commitSlots = slot
        return slot
    }
}
