import Testing
import Atoms

protocol GreetingService: Sendable {
    func greeting() -> String
}

struct RealGreeting: GreetingService {
    func greeting() -> String { "hello" }
}

struct MockGreeting: GreetingService {
    let text: String
    func greeting() -> String { text }
}

struct GreetingServiceAtom: ValueAtom, Hashable {
    func value(context: Context) -> any GreetingService { RealGreeting() }
}

struct GreetingAtom: ValueAtom, Hashable {
    func value(context: Context) -> String {
        context.watch(GreetingServiceAtom()).greeting().uppercased()
    }
}

@MainActor
struct OverrideTests {
    @Test func overrideOneAtomInTestContext() {
        let context = AtomTestContext()
        context.override(GreetingServiceAtom()) { _ in MockGreeting(text: "mock") }
        #expect(context.watch(GreetingAtom()) == "MOCK")
    }

    @Test func overrideAWholeAtomType() {
        let context = AtomTestContext()
        context.override(UserNameAtom.self) { atom in "user\(atom.userID)" }
        #expect(context.watch(UserNameAtom(userID: 1)) == "user1")
        #expect(context.watch(UserNameAtom(userID: 2)) == "user2")
    }

    @Test func instanceOverrideWinsOverTypeOverride() {
        let context = AtomTestContext()
        context.override(UserNameAtom.self) { _ in "type" }
        context.override(UserNameAtom(userID: 7)) { _ in "instance" }
        #expect(context.watch(UserNameAtom(userID: 7)) == "instance")
        #expect(context.watch(UserNameAtom(userID: 8)) == "type")
    }

    @Test func overriddenStateCanStillBeSetAndResetsToTheOverride() {
        let context = AtomTestContext()
        context.override(SourceAtom()) { _ in 100 }
        #expect(context.watch(SourceAtom()) == 100)
        context[SourceAtom()] = 1
        #expect(context.read(SourceAtom()) == 1)
        context.reset(SourceAtom())
        #expect(context.read(SourceAtom()) == 100)
    }

    @Test func rootOverrides() {
        let root = AtomRoot()
            .override(GreetingServiceAtom()) { _ in MockGreeting(text: "root") }
            .override(UserNameAtom.self) { _ in "anyone" }
        let context = root.viewContext()
        #expect(context.watch(GreetingAtom()) == "ROOT")
        #expect(context.watch(UserNameAtom(userID: 3)) == "anyone")
    }
}
