import Atoms
import Foundation

/// Moves a live store through its own recorded history, for the control endpoint: each
/// request runs on the main actor, between transactions.
///
/// A jump restores every cached atom the journal has a restorable value for at the step, in
/// one `restore` transaction that the recorder writes like any other, and lists the atoms it
/// could not restore. No seeds are left on the store: an atom first used during the excursion
/// computes as usual. Before the first jump the store's snapshot is kept; `live` restores it
/// (one more `restore` transaction). A transaction of the program's own while in the past
/// ends the excursion: it is applied as usual, and the clients are told. At the present, `set`
/// writes a value into a state, as one `inspector` transaction.
///
/// Every reply to a request that recorded a transaction is sent once the recorder has written
/// it: a client that reads the journal after the reply finds the step the reply names. The
/// transactions' write sites are ``ControlWriteSite``'s, not this file's.
@MainActor
final class LiveTimeTravel {
    private weak var store: AtomStore?
    private weak var recorder: JournalRecorder?
    private let journal: String
    private let program: String
    /// The store's state before the first jump, and the step it was recorded at.
    private var present: (snapshot: Snapshot, step: Int)?
    /// While in the past: the step jumped to last.
    private var shownStep: Int?
    private var isMoving = false
    /// Called with an event line for every client.
    var broadcast: @MainActor ([UInt8]) -> Void = { _ in }

    init(store: AtomStore, recorder: JournalRecorder, journal: String, program: String) {
        self.store = store
        self.recorder = recorder
        self.journal = journal
        self.program = program
        store.observeCommits { [weak self] transaction in
            self?.committed(sequence: transaction.sequence, cause: transaction.cause)
        }
    }

    /// The reply to a request.
    func handle(_ request: ControlRequest) -> [UInt8] {
        guard let store else {
            return ControlProtocol.error(.init("closed", "the program's store is gone"))
        }
        switch request {
        case .hello(let version):
            guard version == ControlProtocol.version else {
                return ControlProtocol.error(.init("version", "this program speaks protocol \(ControlProtocol.version), not \(version) — use an atoms-inspect of the same release"))
            }
            try? recorder?.flush()
            let hello = ControlMessages.Hello(protocolVersion: ControlProtocol.version, program: program, pid: Int(getpid()), journal: journal, step: store.committedTransactions)
            return ControlProtocol.line("ok", "hello", hello)
        case .state:
            let state = ControlMessages.State(step: store.committedTransactions, shows: shownStep, present: present?.step)
            return ControlProtocol.line("ok", "state", state)
        case .jump(let step):
            return jump(store, to: step)
        case .live:
            return returnToPresent(store)
        case .set(let value):
            return set(value, in: store)
        case .follow, .close:
            return ControlProtocol.error(.init("usage", "\(request.name) is answered by the control thread"))
        }
    }

    private func jump(_ store: AtomStore, to step: Int) -> [UInt8] {
        let state: JournalState
        do {
            // The reader must see every step committed so far.
            try recorder?.flush()
            let reader = try JournalReader(path: journal)
            guard step >= reader.firstStep, step <= reader.lastStep else {
                return ControlProtocol.error(.init("range", "step \(step) is not recorded: the journal has steps \(reader.firstStep)…\(reader.lastStep)"))
            }
            state = try reader.state(at: step)
        } catch {
            return ControlProtocol.error(.init("journal", "cannot read \(journal): \(error)"))
        }
        let before = store.committedTransactions
        guard step != before else {
            // The store already holds the journal's state at its last step.
            return ControlProtocol.line("ok", "jump", ControlMessages.Moved(step: step, recorded: nil, restored: [], skipped: []))
        }
        if present == nil {
            present = (store.snapshot(), before)
        }
        let file = StateFile(state: state, journal: journal)
        let seeds = RecordedValueSeeds(stateFile: file)
        isMoving = true
        let restored = store.restoreValues(from: seeds, fileID: ControlWriteSite.fileID(.jump), line: UInt(step))
        isMoving = false
        flushRecorder()
        shownStep = step
        var skipped = file.skipped.map { ControlMessages.Skipped(atom: $0.atom, reason: $0.reason) }
        skipped += seeds.failures.map { ControlMessages.Skipped(atom: String($0.prefix { $0 != ":" }), reason: "cannot be decoded: " + $0.drop { $0 != ":" }.dropFirst(2)) }
        let named = Set(skipped.map(\.atom))
        let restoredSet = Set(restored)
        for atom in store.snapshot().atoms.sorted(by: { $0.description < $1.description }) where !restoredSet.contains(atom) && !named.contains(atom.description) {
            skipped.append(.init(atom: atom.description, reason: "not alive at step \(step): keeps its value"))
        }
        let moved = ControlMessages.Moved(
            step: step,
            recorded: store.committedTransactions > before ? store.committedTransactions : nil,
            restored: restored.map(\.description).sorted(),
            skipped: skipped
        )
        return ControlProtocol.line("ok", "jump", moved)
    }

    private func returnToPresent(_ store: AtomStore) -> [UInt8] {
        guard let present else {
            // The client reads the present from the journal: it must hold the last step.
            flushRecorder()
            let moved = ControlMessages.Moved(step: store.committedTransactions, recorded: nil, restored: [], skipped: [])
            return ControlProtocol.line("ok", "live", moved)
        }
        let before = store.committedTransactions
        isMoving = true
        store.restore(present.snapshot, fileID: ControlWriteSite.fileID(.live), line: UInt(present.step))
        isMoving = false
        // Before the reply: a client that reads the journal then must find this step.
        flushRecorder()
        self.present = nil
        shownStep = nil
        let moved = ControlMessages.Moved(
            step: present.step,
            recorded: store.committedTransactions > before ? store.committedTransactions : nil,
            restored: present.snapshot.atoms.map(\.description).sorted(),
            skipped: []
        )
        return ControlProtocol.line("ok", "live", moved)
    }

    private func set(_ request: ControlMessages.SetValue, in store: AtomStore) -> [UInt8] {
        if let present {
            return ControlProtocol.error(.init("past", "the program shows step \(shownStep ?? present.step) of its past — return to the present (live) and set again"))
        }
        let atoms = store.snapshot().atoms
        guard let atom = atoms.first(where: { RecordedValueSeeds.key(of: $0) == request.atom }) else {
            let name = request.atom.split(separator: "|", omittingEmptySubsequences: false).first.map(String.init) ?? request.atom
            return ControlProtocol.error(.init("atom", "\(name) is not alive in the program — only an atom the program holds now can be set"))
        }
        let seeds = RecordedValueSeeds(values: [request.atom: request.value])
        let before = store.committedTransactions
        switch store.write(atom, from: seeds, fileID: ControlWriteSite.fileID(.set), line: UInt(before)) {
        case .written:
            flushRecorder()
            return ControlProtocol.line("ok", "set", ControlMessages.Written(atom: atom.description, recorded: store.committedTransactions))
        case .notCached:
            return ControlProtocol.error(.init("atom", "\(atom) is not alive in the program — only an atom the program holds now can be set"))
        case .notState:
            return ControlProtocol.error(.init("atom", "\(atom) is computed from other atoms — set a state it is derived from"))
        case .notDecodable(let valueType):
            let reason = seeds.failures.first.map { ": " + $0.drop { $0 != ":" }.dropFirst(2) } ?? ""
            return ControlProtocol.error(.init("value", "the value does not decode as \(valueType), the type of \(atom)\(reason) — nothing was written"))
        }
    }

    /// Waits until the recorder has written every transaction committed so far.
    private func flushRecorder() {
        try? recorder?.flush()
    }

    /// A transaction committed: one of the program's own ends an excursion.
    private func committed(sequence: Int, cause: AtomTransaction.Cause) {
        guard !isMoving, present != nil else { return }
        present = nil
        shownStep = nil
        broadcast(ControlProtocol.line("event", "excursion-ended", ControlMessages.ExcursionEnded(step: sequence, cause: cause.rawValue)))
    }
}
