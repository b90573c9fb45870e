import Atoms
import AtomsJournal
import Foundation
import TestSupport

struct ProfiledSourceAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}

/// Sleeps 5 ms on every evaluation: it stands for an atom's own slow work, which holds its
/// thread as real work would (what the profile must show).
struct SleepingAtom: ValueAtom, Hashable {
    func value(context: Context) -> Int {
        let source = context.watch(ProfiledSourceAtom())
        usleep(5_000)
        return source
    }
}

/// Evaluates `SleepingAtom` inside its own first evaluation.
struct SleepingParentAtom: ValueAtom, Hashable {
    func value(context: Context) -> Int { context.watch(SleepingAtom()) + 1 }
}

/// Recomputes to an equal value whenever the source moves by two.
struct ParityAtom: ValueAtom, Hashable {
    func value(context: Context) -> Int { context.watch(ProfiledSourceAtom()) % 2 }
}

/// An asynchronous atom whose refresh is a task with a result.
struct ProfiledPhaseAtom: AsyncPhaseAtom, Hashable {
    func value(context: Context) async throws -> Int {
        try await Task.sleep(nanoseconds: 1_000_000)
        return 7
    }
}

/// A session recorded with timing: a sleeping atom under a parent, a parity that recomputes to
/// equal values, an async atom refreshed.
@MainActor
enum ProfiledSession {
    static let writes = [2, 4, 5, 7]

    static func record(in directory: TemporaryDirectory) async throws -> String {
        let path = directory.path("profiled.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, keyframeInterval: 4, program: "profile-tests")
        recorder.recordsTiming = true
        recorder.attach(to: root.store)
        let view = root.viewContext(fileID: "App/View.swift", line: 3)
        _ = view.watch(SleepingParentAtom(), fileID: "App/View.swift", line: 4)
        _ = view.watch(ParityAtom(), fileID: "App/View.swift", line: 5)
        _ = view.watch(ProfiledPhaseAtom(), fileID: "App/View.swift", line: 6)
        for value in writes {
            view.set(value, for: ProfiledSourceAtom(), at: SourceLocation(fileID: "App/View.swift", line: 10))
        }
        _ = await view.refresh(ProfiledPhaseAtom(), at: SourceLocation(fileID: "App/View.swift", line: 12))
        try recorder.close()
        withExtendedLifetime(view) {}
        return path
    }
}
