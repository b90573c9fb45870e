import Atoms

/// The recorder's side of a capture slot: what its thread asks of the slot of an atom whose
/// value a transaction changed.
protocol RecordedSlot: AnyObject {
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
    /// Records the next value handed over as the atom's entry: appends `[id,"="]`,
    /// `[id,"d",delta]` or `[id,"v",json]` and returns ``SlotEntry/written`` (the slot then
    /// holds the value as the atom's current one), or returns the value encoded for the line
    /// builder to record as an encoded value.
    ///
    /// - Parameter previous: The mirror's value of the atom, `nil` when the atom is new.
    func recordNext(id: Int, previous: RecordedValue?, differ: ValueDiffer, encoder: ValueEncoder, to output: inout [UInt8]) -> SlotEntry
    /// The value the slot holds as the atom's current one, encoded (for keyframes).
    func encodedCurrent(by encoder: ValueEncoder, differ: ValueDiffer) -> EncodedValue
}

/// What ``RecordedSlot/recordNext(id:previous:differ:encoder:to:)`` did.
enum SlotEntry {
    /// The entry is written; the slot holds the value.
    case written
    /// The value, encoded: the line builder records it (compared as JSON with the previous).
    case encoded(EncodedValue)
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
/// previous one typed. Values with a class instance inside are encoded at capture instead
/// (``OffThreadEncodingCheck``), decided once for the type when its verdict holds for every
/// value, per value otherwise.
final class TypedCaptureSlot<Value: Encodable>: RecordedSlot, @unchecked Sendable {
    // Unchecked: `mode` is touched on the main actor only; each staging side's buffers and
    // flag by the thread that holds that side (``CaptureHandOver``); `cursor`, `dropped`,
    // `current` and `journalNumber` on the recorder's thread only.

    private enum Mode {
        case undecided, later, atCapture, perValue
    }

    let identity: AtomIdentity
    unowned(unsafe) private let maker: CaptureSlotMaker
    /// The type's own code for comparing and encoding its values, when it is
    /// ``JournalRecordable``; `nil` compares and encodes them through `Codable`.
    private let coding: RecordableCoding<Value>?

    @exclusivity(unchecked) private var mode = Mode.undecided

    // Each staging side's values (even and odd parity): captured on the main actor, recorded
    // on the recorder's thread, whichever holds the side. Written whole, not as an array of
    // two: this code is not specialized for `Value`, and indexing would look up the
    // buffer's metadata. `retired` holds the values the recorder's thread is done with,
    // destroyed on the main actor at the slot's next capture into the side: the main actor
    // allocated their storage, and freeing it there, as it would without a journal, spares
    // both threads contention on the allocator and on the elements' reference counts (a
    // 500-element array's strings).
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
    /// Values the recorder's thread let go of in this batch.
    @exclusivity(unchecked) private var dropped = SlotBuffer<Value>()
    /// The atom's current value as recorded (initialized while `hasCurrent`): behind a pointer,
    /// as `Value?` would look its metadata up on every use in this unspecialized code.
    private let current = UnsafeMutablePointer<Value>.allocate(capacity: 1)
    @exclusivity(unchecked) private var hasCurrent = false
    /// Whether values are compared as JSON (``ValueDiffer/isFlat(_:)``), decided on the first.
    @exclusivity(unchecked) private var isFlat: Bool?
    @exclusivity(unchecked) var journalNumber = (id: 0, epoch: -1)

    init(identity: AtomIdentity, maker: CaptureSlotMaker, coding: RecordableCoding<Value>? = nil) {
        self.identity = identity
        self.maker = maker
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
        dropped.deallocate()
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
            retiredEven.takeAll(from: &dropped)
        } else {
            retiredOdd.takeAll(from: &incomingOdd)
            retiredOdd.takeAll(from: &dropped)
        }
    }

    func recordNext(id: Int, previous: RecordedValue?, differ: ValueDiffer, encoder: ValueEncoder, to output: inout [UInt8]) -> SlotEntry {
        let value = recordedSide == 0 ? incomingEven[cursor] : incomingOdd[cursor]
        cursor += 1
        if let coding {
            return recordNext(value, id: id, previous: previous, coding: coding, differ: differ, encoder: encoder, to: &output)
        }
        let isFlat = self.isFlat ?? differ.isFlat(value)
        self.isFlat = isFlat
        if isFlat {
            // Kept as JSON, compared member by member with the previous encoding.
            return .encoded(encoder.encode(encodable: value))
        }
        if let previous, hold(previous), record(differ.rememberedChange(from: current.pointee, to: value), of: value, id: id, to: &output) {
            return .written
        }
        let encoded = encoder.encode(encodable: value)
        guard case .json(let bytes, _) = encoded else {
            return .encoded(encoded)
        }
        TransactionLine.appendWhole(id: id, json: bytes, to: &output)
        keep(value)
        return .written
    }

    /// ``recordNext(id:previous:differ:encoder:to:)`` for a ``JournalRecordable`` type: its
    /// own code compares the value with the previous one and encodes it.
    private func recordNext(_ value: Value, id: Int, previous: RecordedValue?, coding: RecordableCoding<Value>, differ: ValueDiffer, encoder: ValueEncoder, to output: inout [UInt8]) -> SlotEntry {
        if let previous, hold(previous),
            record(coding.rememberedChange(from: current.pointee, to: value, differ: differ), of: value, id: id, to: &output)
        {
            return .written
        }
        guard var json = coding.json(of: value, differ: differ) else {
            // A member `Codable` could not stream: the whole value takes the `Codable` path.
            return .encoded(encoder.encode(encodable: value))
        }
        TransactionLine.appendWhole(id: id, json: json, to: &output)
        differ.recycle(&json)
        keep(value)
        return .written
    }

    /// Writes the entry of a value found unchanged or changed by a delta, and keeps the value;
    /// returns `false` for a value to be written whole.
    private func record(_ change: ValueDiffer.Change, of value: Value, id: Int, to output: inout [UInt8]) -> Bool {
        guard TransactionLine.appendEntry(for: change, id: id, to: &output) else { return false }
        keep(value)
        return true
    }

    func encodedCurrent(by encoder: ValueEncoder, differ: ValueDiffer) -> EncodedValue {
        precondition(hasCurrent, "a capture slot in the mirror holds its atom's value")
        if let coding, let json = coding.json(of: current.pointee, differ: differ) {
            return .json(bytes: json, members: nil)
        }
        return encoder.encode(encodable: current.pointee)
    }

    /// Whether the slot holds the mirror's previous value, taking a seeded one over.
    private func hold(_ previous: RecordedValue) -> Bool {
        switch previous {
        case .slot(let slot):
            return slot === self && hasCurrent
        case .swift(let seeded):
            return takeSeeded(seeded)
        case .encoded:
            return false
        }
    }

    /// Takes a seeded value over as the atom's current one, when it is a `Value`.
    ///
    /// Apart from ``hold(_:)``: this unspecialized code looks up the metadata of every type a
    /// function uses when it is called, and `Value?`'s (for the cast) cost about 700
    /// instructions on each of the recorder's comparisons.
    @inline(never)
    private func takeSeeded(_ seeded: Any) -> Bool {
        guard let seeded = seeded as? Value else { return false }
        keep(seeded)
        return true
    }

    private func keep(_ value: Value) {
        if hasCurrent {
            dropped.append(current.move())
            current.initialize(to: value)
        } else {
            current.initialize(to: value)
            hasCurrent = true
        }
    }
}

/// The slot of an atom whose values are encoded as they commit: redacted atoms, asynchronous
/// phases and values that are not `Encodable`.
final class EncodingCaptureSlot<Value>: RecordedSlot, @unchecked Sendable {
    let identity: AtomIdentity
    unowned(unsafe) private let maker: CaptureSlotMaker
    private let isRedacted: Bool
    var journalNumber = (id: 0, epoch: -1)
    private let marks = StagingMarks()

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

    // Its changes arrive encoded: the recorder's thread takes no value from it, and the
    // mirror never holds it.
    func beginBatch(side: Int) {
        marks.clear(side: side)
    }
    func finishBatch(side: Int) {}

    func recordNext(id: Int, previous: RecordedValue?, differ: ValueDiffer, encoder: ValueEncoder, to output: inout [UInt8]) -> SlotEntry {
        preconditionFailure("an encoding slot's changes arrive encoded")
    }

    func encodedCurrent(by encoder: ValueEncoder, differ: ValueDiffer) -> EncodedValue {
        preconditionFailure("an encoding slot is never the mirror's value")
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
        let slot = TypedCaptureSlot<Encoded>(identity: identity, maker: self)
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
        let slot = TypedCaptureSlot<Recorded>(identity: identity, maker: self, coding: coding)
        // `Recorded` is `Value`: the node's pointer points to a `Recorded`.
        return CommitSlot(makerID: slotMakerID) { value in
            slot.capture(UnsafeRawPointer(value).assumingMemoryBound(to: Recorded.self))
        }
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
