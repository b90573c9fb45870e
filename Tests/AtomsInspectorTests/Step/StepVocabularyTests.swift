import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// One vocabulary for every front end: each spelling parses into one typed command, the
/// table says what moves, repeats and completes, and every command that takes an atom
/// refuses an unknown one with the same words.
@MainActor
struct StepVocabularyTests {
    @Test func everySpellingParsesIntoItsVerb() throws {
        for verb in StepVerb.allCases {
            for spelling in verb.spellings {
                let argument = switch verb.argument {
                case .none: ""
                case .count: " 2"
                case .step: " last-1"
                case .atom: " Todo*"
                case .expression: " StatsAtom.total > 1"
                case .assignment: " TodosAtom[0].isCompleted = true"
                }
                let command = try #require(try StepCommand.parse("  \(spelling)\(argument)  "))
                #expect(command.verb == verb, "\(spelling)")
            }
        }
    }

    @Test func argumentsAreTypedWhenParsed() throws {
        #expect(try StepCommand.parse("n") == .next(1))
        #expect(try StepCommand.parse("previous 4") == .previous(4))
        #expect(try StepCommand.parse("g last-3") == .goTo(.fromLast(3)))
        #expect(try StepCommand.parse("d") == .diff(from: nil))
        #expect(try StepCommand.parse("diff 0") == .diff(from: .number(0)))
        #expect(try StepCommand.parse("find -b Todo*") == .find(atoms: "Todo*", backwards: true))
        #expect(try StepCommand.parse("w -b FilterAtom == \"all  done\"") == .where("FilterAtom == \"all  done\"", backwards: true))
        #expect(try StepCommand.parse("where -bogus == 1") == .where("-bogus == 1", backwards: false))
        #expect(try StepCommand.parse("   ") == nil)
        #expect(try StepCommand.parse("?") == .help)
        // The value is the rest of the line, as typed; the path is before the first `=` that
        // ends one (a string may hold `=`).
        #expect(try StepCommand.parse("set TodosAtom[0].isCompleted = true") == .set(path: "TodosAtom[0].isCompleted", value: "true"))
        #expect(try StepCommand.parse("set FilterAtom=\"a = b\"") == .set(path: "FilterAtom", value: "\"a = b\""))
    }

    @Test(arguments: [
        ("jump 3", "unknown command 'jump'"),
        ("next -1", "'-1' is not a number of steps"),
        ("goto", "goto needs a step"),
        ("goto soon", "invalid step 'soon'"),
        ("diff yesterday", "invalid step 'yesterday'"),
        ("find -b", "find needs an atom"),
        ("blame", "blame needs an atom"),
        ("where -b", "where needs a condition"),
        ("set TodosAtom", "set needs PATH = JSON"),
        ("set = 3", "set needs PATH = JSON"),
    ])
    func malformedLinesAreUsageErrors(line: String, message: String) {
        #expect {
            _ = try StepCommand.parse(line)
        } throws: { error in
            let error = error as? InspectorError
            return error?.status == .usage && error?.message.hasPrefix(message) == true
        }
    }

    @Test func theTableSaysWhatMovesRepeatsAndCompletes() {
        let moving = Set(StepVerb.allCases.filter(\.moves))
        #expect(moving == [.next, .prev, .goto, .first, .last, .find, .where])
        #expect(Set(StepVerb.allCases.filter(\.repeatsOnEnter)).isSubset(of: moving))
        // `help` lists every spelling's verb, and `live` only over a running program.
        let help = StepVerb.help(runningProgram: false)
        for verb in StepVerb.vocabulary(runningProgram: false) {
            #expect(help.contains(verb.rawValue), "\(verb)")
        }
        #expect(!help.contains("live") && !help.contains("set "))
        #expect(AttachSession.help.contains("live ") && AttachSession.help.contains("set PATH = JSON"))
        #expect(StepSession.help == help)
        // Tab offers exactly the vocabulary's long names.
        #expect(StepCompletion(atomNames: []).commands == StepVerb.vocabulary(runningProgram: false).map(\.rawValue).sorted())
    }

    @Test func liveIsRefusedOverAJournal() throws {
        let directory = try TemporaryDirectory()
        let session = try StepSession(journal: InspectedJournal(path: RecordedSessions.small(in: directory)))
        #expect(session.handle("live").output.hasPrefix("error: live returns a running program to the present"))
        #expect(session.handle("set TasksAtom = []").output.hasPrefix("error: set writes a value into a running program — it works in atoms-inspect attach; a journal is history"))
    }

    @Test func aTypedCommandAndItsTypedLineDoTheSame() throws {
        let directory = try TemporaryDirectory()
        let path = try RecordedSessions.small(in: directory)
        let typed = try StepSession(journal: InspectedJournal(path: path))
        let parsed = try StepSession(journal: InspectedJournal(path: path))
        for line in ["next 2", "find -b TasksAtom", "where TaskCountAtom >= 1", "show Tasks*", "diff", "last", "p", "blame TasksAtom"] {
            let command = try #require(try StepCommand.parse(line))
            #expect(try typed.run(command).text == parsed.handle(line).output, "\(line)")
            #expect(typed.position == parsed.position, "\(line)")
        }
    }

    /// `show`, `log --atom`, `diff --atom`, `blame`, `find` and the prompt's `find` name an
    /// unknown atom with one message.
    @Test func everyCommandRefusesAnUnknownAtomInTheSameWords() throws {
        let directory = try TemporaryDirectory()
        let journal = try InspectedJournal(path: RecordedSessions.small(in: directory))
        var messages: [String] = []
        func refusal(_ body: () throws(InspectorError) -> Void) {
            do {
                try body()
                Issue.record("an unknown atom was accepted")
            } catch {
                #expect(error.status == .usage)
                messages.append(error.message)
            }
        }
        refusal { () throws(InspectorError) in _ = try ShowCommand.run(journal, at: .fromLast(0), atom: "Nope*") }
        refusal { () throws(InspectorError) in _ = try LogCommand.run(journal, options: .init(atom: "Nope*")) }
        refusal { () throws(InspectorError) in _ = try DiffCommand.difference(journal, from: .number(0), to: .fromLast(0), atom: "Nope*") }
        refusal { () throws(InspectorError) in _ = try BlameCommand.blame(journal, atom: "Nope*") }
        refusal { () throws(InspectorError) in _ = try JournalSearch.next(.changes("Nope*"), in: journal, from: 0) }
        #expect(messages.count == 5)
        for message in messages {
            #expect(message.hasPrefix("no atom matches 'Nope*' "), "\(message)")
            #expect(message.contains("TasksAtom"), "the message lists the atoms there are: \(message)")
            #expect(message.hasSuffix("list them with `atoms-inspect show`"), "\(message)")
        }
        let session = try StepSession(journal: journal)
        #expect(session.handle("find Nope*").output == "error: " + messages[4])
    }
}
