import Synchronization

/// A recorder's place in one cached atom, made once per atom node and recorder: the node hands
/// each value it commits to the slot typed, so recording a transaction neither boxes values in
/// `Any` nor looks anything up per value (the journal recorder's capture slots).
///
/// Not isolated: the main actor calls ``CommitSlot/capture(_:)`` as a transaction commits; what
/// a slot does with the value, and on which thread, is its maker's business.
package protocol AnyCommitSlot: AnyObject {
    /// The maker that made the slot (``CommitSlotMaker/slotMakerID``).
    var makerID: Int { get }
}

/// A slot for values of one type: what ``AtomNode`` calls.
package protocol CommitSlot<Value>: AnyCommitSlot {
    associatedtype Value
    /// Takes (a copy of) the value the atom holds as its transaction commits, given where it
    /// is stored: a pointer spares the copy a parameter would take.
    func capture(_ value: UnsafePointer<Value>)
}

/// Makes the commit slots of one recorder; called on the main actor.
package protocol CommitSlotMaker: AnyObject {
    /// Tells this maker's slots from other makers' in a node: unique in the process
    /// (``CommitSlotMakerID/next()``).
    var slotMakerID: Int { get }

    /// Makes the slot for an atom's node, once per node.
    func makeSlot<Node: Atom>(for atom: Node, identity: AtomIdentity) -> any CommitSlot<Node.Produced>
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
    func slot(from maker: some CommitSlotMaker) -> any CommitSlot<Node.Produced> {
        let makerID = maker.slotMakerID
        if let slot = commitSlot, slot.makerID == makerID {
            return slot
        }
        // Another recorder's slots (a store recorded twice, or by one recorder after another).
        for other in otherCommitSlots {
            if let slot = other as? any CommitSlot<Node.Produced>, slot.makerID == makerID {
                return slot
            }
        }
        let slot = maker.makeSlot(for: atom, identity: identity)
        if let previous = commitSlot {
            otherCommitSlots.append(previous)
        }
        commitSlot = slot
        return slot
    }
}
