import AtomsJournalMacrosPlugin
import Foundation
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// `journal-allocations` (what .ci/allocation-check.sh runs) conforms its recordable state by
/// hand so that its release build needs no swift-syntax; what it measures is the macro's code
/// only while that conformance is exactly what `@JournalRecordable` writes.
@Suite struct RecordableSettingsExpansionTests {
    private static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Benchmarks/JournalAllocations/RecordableSettings.swift").standardized

    @Test func theBenchmarksHandWrittenConformanceIsTheMacrosExpansion() throws {
        let source = try String(contentsOf: Self.file, encoding: .utf8)
        let structure = try #require(source.range(of: "struct RecordableSettings"))
        let conformance = try #require(source.range(of: "\nextension RecordableSettings"))
        let declaration = String(source[structure.lowerBound..<conformance.lowerBound])
        let expected = String(source[structure.lowerBound...])
        assertMacroExpansion(
            "@JournalRecordable\n" + declaration,
            expandedSource: expected,
            macroSpecs: ["JournalRecordable": MacroSpec(type: JournalRecordableMacro.self, conformances: ["JournalRecordable"])]
        ) { failure in
            Issue.record(Comment(rawValue: failure.message))
        }
    }
}
