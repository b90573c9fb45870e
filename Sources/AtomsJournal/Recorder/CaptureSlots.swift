import Atoms

/// The recorder's side of a capture slot: what its thread asks of the slot of an atom whose
/// value a transaction changed.
protocol RecordedSlot: AnyObject, Sendable {
    /// The atom.
    var identity: AtomIdentity { get }
    /// The atom's number in the journal as the recorder's thread last found it, valid while
    /// the mirror has forgotten nothing since (``RecordedState/id(of:)-slot``).
    var journalNumber: (id: Int, epoch: Int) { get set }
    /// Marks the slot as in the staged list of the staging side `side` (its parity), which
    /// keeps it alive until its staged changes are recorded; returns `false` when it was
    /// already (main actor, capturing into that side).
    func markStaged(on side: Int) -> Bool
    /// Starts recording the values captured into the staging side `side` (recorder's thread,
    /// the side taken).
    func beginBatch(side: Int)
    /// Gives the values of side `side`, and those the slot let go of, back to the main actor,
    /// which destroys them at its next capture into that side (recorder's thread).
    func finishBatch(side: Int)
    /// Records the slot's next change as the atom's entry, and holds its value as the atom's
    /// current one: appends `[id,"="]`, `[id,"d",delta]` (compared with the value the slot
    /// holds) or the whole value. `encoded` is the change's value when it was encoded at
    /// capture; otherwise the slot takes the next value handed over, typed.
    ///
    /// - Parameter isNew: Whether the atom has no previous value in the journal (it is new, or
    ///   the mirror's value is another slot's): the value is written whole.
    func record(encoded: EncodedValue?, id: Int, isNew: Bool, differ: ValueDiffer, encoder: ValueEncoder, to output: inout [UInt8])
    /// Holds the slot's next change as the atom's current value, writing nothing: the state
    /// when recording starts, which the first keyframe writes.
    func seed(encoded: EncodedValue?, differ: ValueDiffer, encoder: ValueEncoder)
    /// The value the slot holds as the atom's current one, encoded (for keyframes).
    func encodedCurrent(by encoder: ValueEncoder, differ: ValueDiffer) -> EncodedValue
}

/// Whether a slot is in each staging side's list of slots (``CaptureStaging/slots``), which
/// keeps it alive until its changes there are recorded: marked by the main actor as it
/// stages into a side, cleared by the recorder's thread when it takes the side. Two stored
/// flags, not a pair: each thread writes only its side's, and a pair would be written whole.
final class StagingMarks: @unchecked Sendable {
    // Unchecked: each flag is touched only by the thread that holds its side.
    @exclusivity(unchecked) private var even = false
    @exclusivity(unchecked) private var odd = false

    /// Marks the slot as in side `side`'s list; returns `false` when it was already.
    @inline(__always)
    func mark(on side: Int) -> Bool {
        if side == 0 {
            defer { even = true }
            return !even
        }
        defer { odd = true }
        return !odd
    }

    /// Clears the mark of side `side`, taken by the recorder's thread.
    @inline(__always)
    func clear(side: Int) {
        if side == 0 {
            even = false
        } else {
            odd = false
        }
    }
}

/// The slot of an atom whose values are `Encodable`: on the main actor it copies each value
/// into a typed buffer (no box, no lookup), and the recorder's thread compares it with the
/// previous one, which the slot holds typed. Values with a class instance inside are encoded
/// at capture instead (``OffThreadEncodingCheck``), decided once for the type when its verdict
/// holds for every value, per value otherwise; the slot holds those as their encoding, and the
/// values of a struct of numbers, strings and booleans too, which compare faster as JSON.
final class TypedCaptureSlot<Value: Encodable>: RecordedSlot, @unchecked Sendable {
    // Unchecked: `mode` is touched on the main actor only; each staging side's buffers and
    // flag by the thread that holds that side (``CaptureHandOver``); `cursor`, `current`,
    // `kept` and `journalNumber` by the recorder's thread only (and by the main actor while
    // it seeds, before that thread starts).

    private enum Mode {
        case undecided, later, atCapture, perValue
    }

    let identity: AtomIdentity
    unowned(unsafe) private let maker: CaptureSlotMaker
    /// The type's own code for comparing and encoding its values, when it is
    /// ``JournalRecordable``; `nil` compares and encodes them through `Codable`.
    private let coding: RecordableCoding<Value>?
    /// The last comparison of two values of the type, shared by its slots.
    private let memo: ComparisonMemo<Value>

    @exclusivity(unchecked) private var mode = Mode.undecided

    // Each staging side's values (even and odd parity): captured on the main actor, recorded
    // on the recorder's thread, whichever holds the side. Written whole, not as an array of
    // two: this code is not specialized for `Value`, and indexing would look up the
    // buffer's metadata. `retired` holds the values the recorder's thread is done with (the
    // side's captures, and the current values it replaced while it held the side),
    // destroyed on the main actor at the slot's next capture into the side: the main actor
    // allocated their storage, and freeing it there, as it would without a journal, spares
    // both threads contention on the allocator and on the elements' reference counts (a
    // 500-element array's strings). It is the one way a recorded value leaves.
    @exclusivity(unchecked) private var incomingEven = SlotBuffer<Value>()
    @exclusivity(unchecked) private var retiredEven = SlotBuffer<Value>()
    /// Keeps each side's fields on other cache lines than the other side's: the two threads
    /// hold one side each.
    private let separation: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)
    @exclusivity(unchecked) private var incomingOdd = SlotBuffer<Value>()
    @exclusivity(unchecked) private var retiredOdd = SlotBuffer<Value>()
    private let marks = StagingMarks()
    private let separationFromRecorder: (Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0)

    // The recorder's thread's alone.
    /// The side being recorded, and the next of its values.
    @exclusivity(unchecked) private var recordedSide = 0
    @exclusivity(unchecked) private var cursor = 0
    /// The atom's current value as recorded, when held typed (initialized while
    /// `hasCurrent`): behind a pointer, as `Value?` would look its metadata up on every use in
    /// this unspecialized code.
    private let current = UnsafeMutablePointer<Value>.allocate(capacity: 1)
    @exclusivity(unchecked) private var hasCurrent = false
    /// The atom's current value as recorded, when held as its encoding. At most one of
    /// `current` and `kept` holds the value.
    @exclusivity(unchecked) private var kept = KeptEncoding()
    /// Whether values are compared as JSON (``ValueDiffer/isFlat(_:)``), decided on the first.
    @exclusivity(unchecked) private var isFlat: Bool?
    @exclusivity(unchecked) var journalNumber = (id: 0, epoch: -1)

    init(identity: AtomIdentity, maker: CaptureSlotMaker, memo: ComparisonMemo<Value>, coding: RecordableCoding<Value>? = nil) {
        self.identity = identity
        self.maker = maker
        self.memo = memo
        self.coding = coding
    }

    deinit {
        if hasCurrent {
            current.deinitialize(count: 1)
        }
        current.deallocate()
        incomingEven.deallocate()
        incomingOdd.deallocate()
        retiredEven.deallocate()
        retiredOdd.deallocate()
    }

    func capture(_ value: UnsafePointer<Value>) {
        switch mode {
        case .later:
            stage(value)
        case .atCapture:
            maker.stageEncoded(value.pointee, redacted: false, slot: self)
        case .perValue:
            let later = maker.check.allowsLaterEncoding(of: value.pointee)
            // A collection first seen empty is decided per value until its elements' type is
            // decided too: from then on, the verdict holds for the type.
            if maker.check.decidesForEveryValue(of: Value.self) {
                mode = later ? .later : .atCapture
            }
            if later {
                stage(value)
            } else {
                maker.stageEncoded(value.pointee, redacted: false, slot: self)
            }
        case .undecided:
            let later = maker.check.allowsLaterEncoding(of: value.pointee)
            mode = maker.check.decidesForEveryValue(of: Value.self) ? (later ? .later : .atCapture) : .perValue
            if later {
                stage(value)
            } else {
                maker.stageEncoded(value.pointee, redacted: false, slot: self)
            }
        }
    }

    private func stage(_ value: UnsafePointer<Value>) {
        // As `CaptureSlotMaker.stage`, without going through the protocol for the flag.
        let staging = maker.staging
        if staging.parity == 0 {
            if !retiredEven.isEmpty {
                retiredEven.removeAll()
            }
            incomingEven.append(copyOf: value)
        } else {
            if !retiredOdd.isEmpty {
                retiredOdd.removeAll()
            }
            incomingOdd.append(copyOf: value)
        }
        if marks.mark(on: staging.parity) {
            staging.slots.append(self)
        }
        staging.changes.append(CapturedChange(slot: self, encoded: nil))
    }

    func markStaged(on side: Int) -> Bool {
        marks.mark(on: side)
    }

    func beginBatch(side: Int) {
        recordedSide = side
        cursor = 0
        marks.clear(side: side)
    }

    func finishBatch(side: Int) {
        if side == 0 {
            retiredEven.takeAll(from: &incomingEven)
        } else {
            retiredOdd.takeAll(from: &incomingOdd)
        }
    }

    /// The next value handed over in the side being recorded.
    private func takeNext() -> Value {
        let value = recordedSide == 0 ? incomingEven[cursor] : incomingOdd[cursor]
        cursor += 1
        return value
    }

    func record(encoded: EncodedValue?, id: Int, isNew: Bool, differ: ValueDiffer, encoder: ValueEncoder, to output: inout [UInt8]) {
        if let encoded {
            // Encoded at capture: compared as its encoding.
            dropCurrent()
            kept.record(encoded, id: id, isNew: isNew, differ: differ, encoder: encoder, to: &output)
            return
        }
        let value = takeNext()
        if let coding {
            record(value, id: id, isNew: isNew, coding: coding, differ: differ, encoder: encoder, to: &output)
            return
        }
        if isFlat(value, differ: differ) {
            // Kept as JSON, compared member by member with the previous encoding.
            kept.record(encoder.encode(encodable: value), id: id, isNew: isNew, differ: differ, encoder: encoder, to: &output)
            return
        }
        if !isNew, hasCurrent {
            let change = memo.change(from: current.pointee, to: value, differ: differ) { differ.change(from: $0, to: $1) }
            if TransactionLine.appendEntry(for: change, id: id, to: &output) {
                keep(value)
                return
            }
        }
        recordWhole(value, encoded: encoder.encode(encodable: value), id: id, isNew: isNew, differ: differ, encoder: encoder, to: &output)
    }

    /// ``record(encoded:id:isNew:differ:encoder:to:)`` for a ``JournalRecordable`` type: its
    /// own code compares the value with the previous one and encodes it.
    private func record(_ value: Value, id: Int, isNew: Bool, coding: RecordableCoding<Value>, differ: ValueDiffer, encoder: ValueEncoder, to output: inout [UInt8]) {
        if !isNew, hasCurrent {
            let change = memo.change(from: current.pointee, to: value, differ: differ) { coding.change(from: $0, to: $1, differ: differ) }
            if TransactionLine.appendEntry(for: change, id: id, to: &output) {
                keep(value)
                return
            }
        }
        guard var json = coding.json(of: value, differ: differ) else {
            // A member `Codable` could not stream: the whole value takes the `Codable` path.
            recordWhole(value, encoded: encoder.encode(encodable: value), id: id, isNew: isNew, differ: differ, encoder: encoder, to: &output)
            return
        }
        if isNew || kept.isEmpty {
            TransactionLine.appendWhole(id: id, json: json, to: &output)
            differ.recycle(&json)
            keep(value)
        } else {
            recordWhole(value, encoded: .json(bytes: json, members: nil), id: id, isNew: isNew, differ: differ, encoder: encoder, to: &output)
        }
    }

    /// Records a value the typed comparison did not write: whole, or against the encoding
    /// held (the previous value was encoded at capture). A value that encodes as JSON is
    /// held typed from then on, any other as its encoding.
    private func recordWhole(_ value: Value, encoded: EncodedValue, id: Int, isNew: Bool, differ: ValueDiffer, encoder: ValueEncoder, to output: inout [UInt8]) {
        kept.record(encoded, id: id, isNew: isNew, differ: differ, encoder: encoder, to: &output)
        if case .json = encoded {
            kept.drop(encoder: encoder)
            keep(value)
        } else {
            dropCurrent()
        }
    }

    func seed(encoded: EncodedValue?, differ: ValueDiffer, encoder: ValueEncoder) {
        if let encoded {
            dropCurrent()
            kept.keep(encoded, encoder: encoder)
            return
        }
        let value = takeNext()
        if coding == nil, isFlat(value, differ: differ) {
            kept.keep(encoder.encode(encodable: value), encoder: encoder)
        } else {
            kept.drop(encoder: encoder)
            keep(value)
        }
    }

    func encodedCurrent(by encoder: ValueEncoder, differ: ValueDiffer) -> EncodedValue {
        guard hasCurrent else {
            guard let encoded = kept.value else {
                preconditionFailure("a capture slot in the mirror holds its atom's value")
            }
            return encoded
        }
        if let coding, let json = coding.json(of: current.pointee, differ: differ) {
            return .json(bytes: json, members: nil)
        }
        return encoder.encode(encodable: current.pointee)
    }

    /// Whether values are compared as JSON, decided on the first value.
    private func isFlat(_ value: Value, differ: ValueDiffer) -> Bool {
        if let isFlat { return isFlat }
        let decided = differ.isFlat(value)
        isFlat = decided
        return decided
    }

    /// Holds `value` typed as the atom's current one; the value it replaces leaves with the
    /// side's retired values.
    private func keep(_ value: Value) {
        if hasCurrent {
            retire(current.move())
            current.initialize(to: value)
        } else {
            current.initialize(to: value)
            hasCurrent = true
        }
    }

    /// Lets go of the value held typed, which leaves with the side's retired values.
    private func dropCurrent() {
        guard hasCurrent else { return }
        retire(current.move())
        hasCurrent = false
    }

    private func retire(_ value: consuming Value) {
        if recordedSide == 0 {
            retiredEven.append(value)
        } else {
            retiredOdd.append(value)
        }
    }
}

/// The slot of an atom whose values are encoded as they commit: redacted atoms, asynchronous
/// phases and values that are not `Encodable`. It holds the atom's current value as its
/// encoding.
final class EncodingCaptureSlot<Value>: RecordedSlot, @unchecked Sendable {
    // Unchecked: `kept` and `journalNumber` are the recorder's thread's (the main actor's
    // while it seeds, before that thread starts).
    let identity: AtomIdentity
    unowned(unsafe) private let maker: CaptureSlotMaker
    private let isRedacted: Bool
    var journalNumber = (id: 0, epoch: -1)
    private let marks = StagingMarks()
    private var kept = KeptEncoding()

    init(identity: AtomIdentity, maker: CaptureSlotMaker, redacted: Bool) {
        self.identity = identity
        self.maker = maker
        self.isRedacted = redacted
    }

    func capture(_ value: UnsafePointer<Value>) {
        maker.stageEncoded(value.pointee, redacted: isRedacted, slot: self)
    }

    func markStaged(on side: Int) -> Bool {
        marks.mark(on: side)
    }

    // Its changes arrive encoded: the recorder's thread takes no value from it.
    func beginBatch(side: Int) {
        marks.clear(side: side)
    }
    func finishBatch(side: Int) {}

    func record(encoded: EncodedValue?, id: Int, isNew: Bool, differ: ValueDiffer, encoder: ValueEncoder, to output: inout [UInt8]) {
        guard let encoded else { preconditionFailure("an encoding slot's changes arrive encoded") }
        kept.record(encoded, id: id, isNew: isNew, differ: differ, encoder: encoder, to: &output)
    }

    func seed(encoded: EncodedValue?, differ: ValueDiffer, encoder: ValueEncoder) {
        guard let encoded else { preconditionFailure("an encoding slot's changes arrive encoded") }
        kept.keep(encoded, encoder: encoder)
    }

    func encodedCurrent(by encoder: ValueEncoder, differ: ValueDiffer) -> EncodedValue {
        guard let encoded = kept.value else { preconditionFailure("a capture slot in the mirror holds its atom's value") }
        return encoded
    }
}

/// Makes a recorder's capture slots, one per atom node, and holds what captures share on the
/// main actor: where changes are staged, the encoder and the off-thread check.
final class CaptureSlotMaker: CommitSlotMaker, @unchecked Sendable {
    // Unchecked: used on the main actor only (slots capture as transactions commit there).

    let slotMakerID = CommitSlotMakerID.next()
    /// The staging side captures go to now, set at the start of each capture. Not retained:
    /// the hand-over holds both sides, and a reference count changed per capture costs.
    unowned(unsafe) var staging: CaptureStaging
    let encoder = ValueEncoder()
    var check = OffThreadEncodingCheck()
    private let redactedTypes: [ObjectIdentifier]
    private var redaction: [ObjectIdentifier: Bool] = [:]
    /// The ``RecordableCoding`` of each `JournalRecordable` type, shared by its atoms' slots.
    private var codings: [ObjectIdentifier: AnyObject] = [:]
    /// The ``ComparisonMemo`` of each value type, shared by its atoms' slots.
    private var memos: [ObjectIdentifier: AnyObject] = [:]

    init(staging: CaptureStaging, redactedTypes: [ObjectIdentifier]) {
        self.staging = staging
        self.redactedTypes = redactedTypes
    }

    func makeSlot<Node: Atom>(for atom: Node, identity: AtomIdentity) -> CommitSlot<Node.Produced> {
        let redacted = isRedacted(identity)
        if !redacted, let recordable = Node.Produced.self as? any JournalRecordable.Type {
            return recordableSlot(recordable, identity: identity, as: Node.Produced.self)
        }
        if !redacted, !(Node.Produced.self is any JournalPhaseRepresentable.Type),
            let encodable = Node.Produced.self as? any Encodable.Type
        {
            return typedSlot(encodable, identity: identity, as: Node.Produced.self)
        }
        let slot = EncodingCaptureSlot<Node.Produced>(identity: identity, maker: self, redacted: redacted)
        return CommitSlot(makerID: slotMakerID) { slot.capture($0) }
    }

    /// A typed slot for `Value`, whose `Encodable` type `type` is.
    private func typedSlot<Encoded: Encodable, Value>(_ type: Encoded.Type, identity: AtomIdentity, as: Value.Type) -> CommitSlot<Value> {
        let slot = TypedCaptureSlot<Encoded>(identity: identity, maker: self, memo: memo(for: Encoded.self))
        // `Encoded` is `Value`: the node's pointer points to an `Encoded`.
        return CommitSlot(makerID: slotMakerID) { value in
            slot.capture(UnsafeRawPointer(value).assumingMemoryBound(to: Encoded.self))
        }
    }

    /// A typed slot for `Value`, whose ``JournalRecordable`` type `type` is: the type's own code
    /// compares and encodes its values.
    private func recordableSlot<Recorded: JournalRecordable, Value>(_ type: Recorded.Type, identity: AtomIdentity, as: Value.Type) -> CommitSlot<Value> {
        let key = ObjectIdentifier(Recorded.self)
        let coding = codings[key] as? RecordableCoding<Recorded> ?? RecordableTypeCoding<Recorded>()
        codings[key] = coding
        let slot = TypedCaptureSlot<Recorded>(identity: identity, maker: self, memo: memo(for: Recorded.self), coding: coding)
        // `Recorded` is `Value`: the node's pointer points to a `Recorded`.
        return CommitSlot(makerID: slotMakerID) { value in
            slot.capture(UnsafeRawPointer(value).assumingMemoryBound(to: Recorded.self))
        }
    }

    /// The comparison memo of `Value`, made once per type.
    private func memo<Value>(for type: Value.Type) -> ComparisonMemo<Value> {
        let key = ObjectIdentifier(type)
        if let known = memos[key] as? ComparisonMemo<Value> {
            return known
        }
        let memo = ComparisonMemo<Value>()
        memos[key] = memo
        return memo
    }

    /// Whether an atom's values are never written (``JournalRedacted``, or a type the recorder
    /// was told to redact).
    func isRedacted(_ atom: AtomIdentity) -> Bool {
        let type = ObjectIdentifier(atom.atomType)
        if let known = redaction[type] {
            return known
        }
        let redacted = atom.atomType is any JournalRedacted.Type || redactedTypes.contains(type)
        redaction[type] = redacted
        return redacted
    }

    /// Stages a change encoded now, on the main actor.
    func stageEncoded(_ value: Any, redacted: Bool, slot: any RecordedSlot) {
        stage(CapturedChange(slot: slot, encoded: encoder.encode(value, redacted: redacted)))
    }

    /// Stages a change, and its slot once per hand-over: the staged list keeps the slot alive
    /// (an atom released meanwhile lets go of it) for the change, which does not.
    func stage(_ change: CapturedChange) {
        if change.slot.markStaged(on: staging.parity) {
            staging.slots.append(change.slot)
        }
        staging.changes.append(change)
    }
}
