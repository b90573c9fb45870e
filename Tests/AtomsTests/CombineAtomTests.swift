import Testing
@testable import Atoms

struct JustAtom: PublisherAtom, Hashable {
    func publisher(context: Context) -> Just<Int> {
        Just(7)
    }
}

/// Sends 1, 2 and 3 while being subscribed, then finishes.
struct SequencePublisherAtom: PublisherAtom, Hashable {
    func publisher(context: Context) -> Publishers.Sequence<[Int], Never> {
        Publishers.Sequence(sequence: [1, 2, 3])
    }
}

enum StreamError: Error, Equatable { case broken }

@MainActor
enum Subjects {
    static var subjects: [String: PassthroughSubject<Int, StreamError>] = [:]

    static func subject(_ name: String) -> PassthroughSubject<Int, StreamError> {
        if let subject = subjects[name] { return subject }
        let subject = PassthroughSubject<Int, StreamError>()
        subjects[name] = subject
        return subject
    }
}

struct SubjectAtom: PublisherAtom, Hashable {
    let name: String

    func publisher(context: Context) -> PassthroughSubject<Int, StreamError> {
        Subjects.subject(name)
    }
}

final class Contact: ObservableObject {
    @Published var name = ""
    @Published var age = 20

    func haveBirthday() {
        age += 1
    }
}

struct ContactAtom: ObservableObjectAtom, Hashable {
    func object(context: Context) -> Contact {
        Contact()
    }
}

@MainActor
struct CombineAtomTests {
    @Test func aPublisherAtomStartsSuspendingEvenWhenThePublisherSendsWhileSubscribing() async {
        let context = AtomTestContext()
        #expect(context.watch(JustAtom()) == .suspending)
        #expect(await context.waitForUpdate(timeout: 60))
        #expect(context.watch(JustAtom()) == .success(7))
    }

    @Test func valuesSentWhileSubscribingArriveAsUpdatesInOrder() async throws {
        let context = AtomTestContext()
        var seen: [AsyncPhase<Int, Never>] = []
        context.onUpdate = { seen.append(context.read(SequencePublisherAtom())) }
        #expect(context.watch(SequencePublisherAtom()) == .suspending)
        try await context.wait(for: SequencePublisherAtom(), within: 60) { $0 == .success(3) }
        #expect(seen == [.success(1), .success(2), .success(3)])
    }

    @Test func aRefreshLosesNoValueSentBeforeItFirstAwaits() async {
        let context = AtomTestContext()
        let subject = Subjects.subject(#function)
        let atom = SubjectAtom(name: #function)
        context.watch(atom)
        let refresh = Task { await context.refresh(atom) }
        await Task.yield()
        // Sent in one main-actor turn: a reader asking for one element at a time would miss 2.
        subject.send(1)
        subject.send(2)
        subject.send(completion: .finished)
        #expect(await refresh.value == .success(2))
        #expect(context.watch(atom) == .success(2))
    }

    @Test func severalChangesBeforeTheUpdateRunsGiveOneUpdate() async {
        let context = AtomTestContext()
        let contact = context.watch(ContactAtom())
        var updates = 0
        context.onUpdate = { updates += 1 }
        contact.name = "Ada"
        contact.haveBirthday()
        contact.haveBirthday()
        #expect(await context.waitForUpdate(timeout: 60))
        #expect(!(await context.waitForUpdate(timeout: 0.1)), "no second update follows")
        #expect(updates == 1)
        #expect(context.watch(ContactAtom()).age == 22)
        #expect(context.watch(ContactAtom()).name == "Ada")

        contact.haveBirthday()
        #expect(await context.waitForUpdate(timeout: 60), "a change after the update gets one of its own")
        #expect(updates == 2)
    }

    @Test func publisherValuesAndFailure() async throws {
        let context = AtomTestContext()
        let subject = Subjects.subject(#function)
        #expect(context.watch(SubjectAtom(name: #function)) == .suspending)
        subject.send(1)
        try await context.wait(for: SubjectAtom(name: #function), within: 300) { $0 == .success(1) }
        subject.send(2)
        subject.send(completion: .failure(.broken))
        var seen: [AsyncPhase<Int, StreamError>] = []
        context.onUpdate = { seen.append(context.read(SubjectAtom(name: #function))) }
        try await context.wait(for: SubjectAtom(name: #function), within: 300) { $0.isFailure }
        #expect(seen == [.success(2), .failure(.broken)], "delivered in the order sent")
    }

    @Test func publisherValueFromAnotherThreadArrivesOnTheMainActor() async throws {
        let context = AtomTestContext()
        let subject = Subjects.subject(#function)
        context.watch(SubjectAtom(name: #function))
        let transfer = UncheckedBox(subject)
        Thread.detachNewThread { transfer.value.send(5) }
        try await context.wait(for: SubjectAtom(name: #function), within: 300) { $0 == .success(5) }
    }

    @Test func observableObjectChangesNotifyWatchers() async throws {
        let context = AtomTestContext()
        let contact = context.watch(ContactAtom())
        var updates = 0
        context.onUpdate = { updates += 1 }
        contact.haveBirthday()
        try await context.waitForUpdate(within: 300)
        #expect(updates == 1)
        #expect(context.watch(ContactAtom()).age == 21)
    }
}

struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

import Foundation
