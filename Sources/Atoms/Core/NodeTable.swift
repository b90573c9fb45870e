/// The store's nodes: a table indexed by ``NodeID`` whose `nil` slots are free for reuse, and
/// the index that finds a cached atom's node by type, key and scope.
///
/// The engine changes it only through ``allocateSlot()``, ``insert(_:)`` and ``remove(_:)``,
/// which keep the slots, the free list and the index in step: a cached node is in both its
/// slot and the index, a transient one in its slot only, a free slot in neither.
@MainActor
struct NodeTable {
    /// The nodes by ``NodeID``; `nil` slots are free.
    private(set) var slots: [AnyAtomNode?] = []
    /// Slots freed by removed nodes, reused before the table grows.
    private(set) var freeSlots: [NodeID] = []
    /// The cached (not transient) nodes by type, key and scope.
    private(set) var index = NodeIndex()
    /// The serial of the node created last.
    private var lastSerial = 0

    nonisolated init() {}

    /// The node in a slot, if any.
    subscript(id: NodeID) -> AnyAtomNode? {
        @inline(__always) get { slots[id] }
    }

    /// Reserves a slot for a new node, with the node's serial (increasing with every node).
    mutating func allocateSlot() -> (NodeID, serial: Int) {
        lastSerial += 1
        if let slot = freeSlots.popLast() {
            return (slot, lastSerial)
        }
        slots.append(nil)
        return (slots.count - 1, lastSerial)
    }

    /// Puts a node into the slot ``allocateSlot()`` gave it and, unless it is transient, files
    /// it in the index.
    mutating func insert(_ node: AnyAtomNode) {
        if !node.isTransient {
            index.insert(node)
        }
        slots[node.id] = node
    }

    /// Takes a node out of its slot (and the index), freeing the slot.
    mutating func remove(_ node: AnyAtomNode) {
        if !node.isTransient {
            index.remove(node)
        }
        slots[node.id] = nil
        freeSlots.append(node.id)
    }
}
