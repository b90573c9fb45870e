import Atoms

/// One side of the hand-over (``CaptureHandOver``): what the main actor captured in one epoch
/// for the recorder's thread: the queued items, their value changes in one flat list (a
/// transaction refers to its range), and the slots holding values for them. Touched only by
/// the thread that holds the side.
///
/// Each thread keeps the side's arrays when it gives the side back, emptied but with their
/// capacity, so in steady state neither side allocates per transaction.
final class CaptureStaging: @unchecked Sendable {
    // Unchecked: touched by one thread at a time, handed over by `CaptureHandOver`.

    /// Which side this is (0 or 1): the parity of the epochs the main actor stages into it,
    /// and of the slots' buffers that hold its values.
    let parity: Int
    /// Transactions and timings, in order.
    @exclusivity(unchecked) var items: [RecordingPipeline.Item] = []
    /// The changed values of the queued transactions, in order.
    @exclusivity(unchecked) var changes: [CapturedChange] = []
    /// The slots of the staged changes, each once: they keep the slots alive until the
    /// changes are recorded.
    @exclusivity(unchecked) var slots: [any RecordedSlot] = []
    /// The timings of the queued items (``TimingWord`` records), and the atoms and
    /// locations they declare.
    @exclusivity(unchecked) var timingWords = WordBuffer()
    @exclusivity(unchecked) var timingAtoms: [AtomIdentity] = []
    @exclusivity(unchecked) var timingLocations: [SourceLocation] = []

    init(parity: Int) {
        self.parity = parity
    }

    /// Tells each slot its values in this side are being recorded (the recorder's thread,
    /// once it took the side).
    func beginBatch() {
        for slot in slots {
            slot.beginBatch(side: parity)
        }
    }

    /// Empties the lists after a batch, keeping their capacity, and lets each slot give the
    /// values it recorded back (the recorder's thread, before it gives the side back).
    func finishBatch() {
        for slot in slots {
            slot.finishBatch(side: parity)
        }
        items.removeAll(keepingCapacity: true)
        changes.removeAll(keepingCapacity: true)
        slots.removeAll(keepingCapacity: true)
        timingWords.removeAll()
        if !timingAtoms.isEmpty { timingAtoms.removeAll(keepingCapacity: true) }
        if !timingLocations.isEmpty { timingLocations.removeAll(keepingCapacity: true) }
    }
}

/// One atom's changed value in a captured transaction: its slot, and the value already
/// encoded when it was encoded on the main actor (otherwise it waits in the slot, typed).
struct CapturedChange: @unchecked Sendable {
    // Unchecked: the slot's typed values are handed over with their staging side.
    /// Not retained: the staged slots (``CaptureStaging/slots``) keep it alive, and a
    /// reference count changed by both threads on every transaction costs more than the
    /// rest of the hand-over.
    unowned(unsafe) let slot: any RecordedSlot
    let encoded: EncodedValue?
}
