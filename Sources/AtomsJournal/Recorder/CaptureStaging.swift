import Atoms

/// What the main actor captured and the recorder's thread has not taken yet: the queued items,
/// their value changes in one flat list (a transaction refers to its range), and the slots
/// holding values for them. Touched only under the pipeline's lock.
///
/// The recorder's thread takes it all at once by swapping these arrays with empty ones of its
/// own, so in steady state neither side allocates per transaction: each keeps its capacity.
final class CaptureStaging: @unchecked Sendable {
    // Unchecked: guarded by `RecordingPipeline`'s lock.

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
    /// Values the line builder let go of, to be released on the app's thread at its next
    /// capture.
    @exclusivity(unchecked) var graveyard: [Any] = []

    /// Whether nothing waits for the recorder's thread.
    var isEmpty: Bool { items.isEmpty }

    /// Moves what is staged into `batch` (empty, keeping its capacity) and hands each slot's
    /// values over to the recorder's side.
    func handOver(to batch: CaptureStaging) {
        swap(&items, &batch.items)
        swap(&changes, &batch.changes)
        swap(&slots, &batch.slots)
        timingWords.exchange(with: &batch.timingWords)
        if !timingAtoms.isEmpty || !batch.timingAtoms.isEmpty { swap(&timingAtoms, &batch.timingAtoms) }
        if !timingLocations.isEmpty || !batch.timingLocations.isEmpty { swap(&timingLocations, &batch.timingLocations) }
        for slot in batch.slots {
            slot.handOver()
        }
    }

    /// Empties the lists after a batch, keeping their capacity, and lets each slot give the
    /// values it recorded back (the pipeline's lock held).
    func finishBatch() {
        for slot in slots {
            slot.finishBatch()
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
    // Unchecked: the slot's typed values are handed over under the pipeline's lock.
    /// Not retained: the staged slots (``CaptureStaging/slots``) keep it alive, and a
    /// reference count changed by both threads on every transaction costs more than the
    /// rest of the hand-over.
    unowned(unsafe) let slot: any RecordedSlot
    let encoded: EncodedValue?
}
