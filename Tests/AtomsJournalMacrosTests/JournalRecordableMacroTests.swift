import AtomsJournalMacrosPlugin
import SwiftSyntax
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// What `@JournalRecordable` writes for a struct, and what it refuses.
@Suite struct JournalRecordableMacroTests {
    private let macros = ["JournalRecordable": MacroSpec(type: JournalRecordableMacro.self, conformances: ["JournalRecordable"])]

    private func expect(
        _ source: String, expands expanded: String, diagnostics: [DiagnosticSpec] = [],
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        assertMacroExpansion(source, expandedSource: expanded, diagnostics: diagnostics, macroSpecs: macros) { failure in
            Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
        }
    }

    @Test func storedPropertiesInDeclarationOrder() {
        expect(
            """
            @JournalRecordable
            struct Todo: Codable {
                static let limit = 10
                var id: Int
                let text: String
                var isCompleted: Bool = false {
                    didSet { print("changed") }
                }
                var note: String?
                var summary: String { text }
                var `default`: Int
                func describe() -> String { text }
            }
            """,
            expands: """
            struct Todo: Codable {
                static let limit = 10
                var id: Int
                let text: String
                var isCompleted: Bool = false {
                    didSet { print("changed") }
                }
                var note: String?
                var summary: String { text }
                var `default`: Int
                func describe() -> String { text }
            }

            extension Todo: AtomsJournal.JournalRecordable {
                nonisolated func writeJournalJSON(to writer: inout AtomsJournal._JournalJSONWriter) {
                    writer.beginObject()
                    writer.member("id", self.id)
                    writer.member("text", self.text)
                    writer.member("isCompleted", self.isCompleted)
                    writer.member("note", self.note)
                    writer.member("default", self.default)
                    writer.endObject()
                }

                nonisolated func writeJournalChanges(from old: Self, to changes: inout AtomsJournal._JournalChanges) {
                    changes.compare("id", old.id, self.id)
                    changes.compare("text", old.text, self.text)
                    changes.compare("isCompleted", old.isCompleted, self.isCompleted)
                    changes.compare("note", old.note, self.note)
                    changes.compare("default", old.default, self.default)
                }
            }
            """
        )
    }

    @Test func publicAndGenericStructs() {
        expect(
            """
            @JournalRecordable
            public struct Page<Item: Codable>: Codable {
                public var items: [Item]
            }
            @JournalRecordable
            package struct Empty: Codable {}
            """,
            expands: """
            public struct Page<Item: Codable>: Codable {
                public var items: [Item]
            }
            package struct Empty: Codable {}

            extension Page: AtomsJournal.JournalRecordable where Item: Swift.Encodable {
                public nonisolated func writeJournalJSON(to writer: inout AtomsJournal._JournalJSONWriter) {
                    writer.beginObject()
                    writer.member("items", self.items)
                    writer.endObject()
                }

                public nonisolated func writeJournalChanges(from old: Self, to changes: inout AtomsJournal._JournalChanges) {
                    changes.compare("items", old.items, self.items)
                }
            }

            extension Empty: AtomsJournal.JournalRecordable {
                package nonisolated func writeJournalJSON(to writer: inout AtomsJournal._JournalJSONWriter) {
                    writer.beginObject()
                    writer.endObject()
                }

                package nonisolated func writeJournalChanges(from old: Self, to changes: inout AtomsJournal._JournalChanges) {
                    _ = old
                }
            }
            """
        )
    }

    @Test func refusesWhatCodableWritesItsOwnWay() {
        expect(
            """
            @JournalRecordable
            struct Renamed: Codable {
                var id: Int
                enum CodingKeys: String, CodingKey {
                    case id = "identifier"
                }
            }
            """,
            expands: """
            struct Renamed: Codable {
                var id: Int
                enum CodingKeys: String, CodingKey {
                    case id = "identifier"
                }
            }
            """,
            diagnostics: [DiagnosticSpec(message: JournalRecordableMacroTests.codingKeys, line: 4, column: 10)]
        )
        expect(
            """
            @JournalRecordable
            struct Custom: Encodable {
                @Clamped var level: Int
                lazy var cache: [Int] = []
                var (x, y): (Int, Int)
                func encode(to encoder: any Encoder) throws {}
            }
            """,
            expands: """
            struct Custom: Encodable {
                @Clamped var level: Int
                lazy var cache: [Int] = []
                var (x, y): (Int, Int)
                func encode(to encoder: any Encoder) throws {}
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "@JournalRecordable cannot see through a property wrapper, whose Codable encoding is its own; remove the macro from this type", line: 3, column: 18),
                DiagnosticSpec(message: "@JournalRecordable cannot write a lazy property; make it a plain stored property or remove the macro", line: 4, column: 14),
                DiagnosticSpec(message: "@JournalRecordable needs one name per stored property; declare the tuple's members separately", line: 5, column: 9),
                DiagnosticSpec(message: "@JournalRecordable writes members as the synthesized encode(to:) does; remove it from a type with its own encode(to:)", line: 6, column: 10),
            ]
        )
    }

    @Test func refusesTypesOtherThanStructs() {
        expect(
            """
            @JournalRecordable
            enum Filter: String, Codable {
                case all, done
            }
            """,
            expands: """
            enum Filter: String, Codable {
                case all, done
            }
            """,
            diagnostics: [DiagnosticSpec(message: "@JournalRecordable applies to structs; other types are recorded through Codable", line: 1, column: 1)]
        )
    }

    @Test func writesNothingForATypeThatConformsAlready() {
        assertMacroExpansion(
            """
            @JournalRecordable
            struct Done: Codable {
                var id: Int
            }
            """,
            expandedSource: """
            struct Done: Codable {
                var id: Int
            }
            """,
            macroSpecs: ["JournalRecordable": MacroSpec(type: JournalRecordableMacro.self, conformances: [])]
        ) { failure in
            Issue.record(Comment(rawValue: failure.message))
        }
    }

    private static let codingKeys = "@JournalRecordable writes members under their property names; remove it from a type with its own CodingKeys"
}
