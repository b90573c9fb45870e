import Foundation
import Testing
import TestSupport

/// man/atoms-inspect.1 is generated from the command tree; this fails when a command, option
/// or help text changed without regenerating it (man/regenerate.sh).
struct ManPageTests {
    struct Dump: Decodable {
        struct Command: Decodable {
            let commandName: String
            let abstract: String?
            let discussion: String?
            let arguments: [Argument]?
            let subcommands: [Command]?
        }

        struct Argument: Decodable {
            struct Name: Decodable {
                let kind: String
                let name: String
            }

            let names: [Name]?
            let abstract: String?
            let shouldDisplay: Bool
        }

        let command: Command
    }

    /// Text as mdoc source carries it: hyphens are escaped (`\-`) and an option's first dash
    /// is the `Fl` macro's, so the comparison looks at words: letters, digits and the hyphens
    /// inside a word (`no-node` is one word, never `node`), without the dashes before an
    /// option's name.
    private func words(_ text: String) -> [String] {
        text.replacingOccurrences(of: "\\-", with: "-")
            .split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "-" })
            .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "-")) }
            .filter { !$0.isEmpty }
    }

    /// Whether `words` holds `run` as whole words in a row (`node A` is not in `no-node A`).
    private func holds(_ words: String, _ run: String) -> Bool {
        " \(words) ".contains(" \(run) ")
    }

    @Test func manPageCoversTheCurrentCommandTree() async throws {
        let dumpOutput = try await BuiltProducts.run("atoms-inspect", ["--experimental-dump-help"])
        let dump = try JSONDecoder().decode(Dump.self, from: Data(dumpOutput.stdout.utf8))
        let manPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../man/atoms-inspect.1").standardized.path
        let man = try String(contentsOfFile: manPath, encoding: .utf8)
        let manWords = words(man).joined(separator: " ")

        func expectCovered(_ text: String?, _ what: String) {
            guard let text, !text.isEmpty else { return }
            #expect(holds(manWords, words(text).joined(separator: " ")), "man page lacks \(what): \(text)")
        }
        expectCovered(dump.command.abstract, "the abstract")
        // The root's discussion is spread over sections (man/arrange.py): a labelled paragraph
        // goes to the section of its label, and each of its parts, cut at the label and at the
        // semicolons between exit codes and rules, is in that section as written.
        let lines = man.split(separator: "\n", omittingEmptySubsequences: false)
        func sectionWords(_ title: String) -> String {
            let body = lines.drop { $0 != ".Sh \(title)" && $0 != ".Sh \"\(title)\"" }.dropFirst().prefix { !$0.hasPrefix(".Sh ") }
            return words(body.joined(separator: "\n")).joined(separator: " ")
        }
        for paragraph in (dump.command.discussion ?? "").split(separator: "\n") {
            let label = ["EXIT STATUS", "RULES FILE", "SHELL COMPLETION"].first { paragraph.hasPrefix($0) }
            let section = label.map(sectionWords) ?? manWords
            #expect(!section.isEmpty, "the page has a section \(label ?? "")")
            for part in paragraph.dropFirst(label?.count ?? 0).split(separator: #/: |; /#) {
                let expected = words(String(part)).joined(separator: " ")
                guard !expected.isEmpty else { continue }
                #expect(holds(section, expected), "\(label ?? "the page") lacks the discussion's \"\(part)\"")
            }
        }
        let subcommands = dump.command.subcommands ?? []
        #expect(subcommands.map(\.commandName) == ["log", "show", "graph", "diff", "blame", "find", "compare", "replay-test", "step", "attach", "dap", "restore", "check", "stats", "report", "export", "profile", "help"])
        for command in subcommands where command.commandName != "help" {
            #expect(man.contains(".It Em \(command.commandName)"), "man page lacks the \(command.commandName) command")
            expectCovered(command.abstract, "\(command.commandName)'s abstract")
            expectCovered(command.discussion, "\(command.commandName)'s discussion")
            for argument in command.arguments ?? [] where argument.shouldDisplay {
                expectCovered(argument.abstract, "\(command.commandName) \(argument.names?.first?.name ?? "")")
                for name in argument.names ?? [] where name.kind == "long" {
                    #expect(man.contains("Fl -\(name.name)") || man.contains(", -\(name.name) ") || man.contains(", -\(name.name)\n"), "man page lacks \(command.commandName) --\(name.name)")
                }
            }
        }
        for code in ["0", "1", "64", "65", "66", "69", "73", "74", "75"] {
            #expect(man.contains("\n.It \(code)\n"), "exit code \(code) is an item of EXIT STATUS")
        }
    }

    /// The page has man-pages(7)'s sections, in its order, and the hand-written ones name
    /// what the code reads.
    @Test func manPageHasTheSectionsManPagesNames() throws {
        let manPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../man/atoms-inspect.1").standardized.path
        let man = try String(contentsOfFile: manPath, encoding: .utf8)
        let sections = man.split(separator: "\n").filter { $0.hasPrefix(".Sh ") }.map { $0.dropFirst(4).replacingOccurrences(of: "\"", with: "") }
        #expect(sections == ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "EXIT STATUS", "RULES FILE", "SHELL COMPLETION", "ENVIRONMENT", "FILES", "EXAMPLES", "SEE ALSO"])
        for variable in ["NO_COLOR", "PATH", "XDG_RUNTIME_DIR", "TMPDIR", "XDG_STATE_HOME", "HOME", "ATOMS_TEST_JOURNALS"] {
            #expect(man.contains("Ev \(variable)"), "ENVIRONMENT names \(variable)")
        }
    }
}
