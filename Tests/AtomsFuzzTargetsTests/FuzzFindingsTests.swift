import Foundation
import Testing
import TestSupport
@testable import AtomsFuzzTargets

/// Disagreements between readers are kept, a few inputs per kind, with what each reader said.
struct FuzzFindingsTests {
    @Test func theFirstInputsOfEachKindAreWrittenWithANote() throws {
        let directory = try TemporaryDirectory()
        let folder = directory.path("findings")
        FuzzFindings.keep(in: folder)
        defer { FuzzFindings.keep(in: nil) }
        let kind = "test-kind-\(UUID().uuidString)"
        for index in 0..<(FuzzFindings.inputsPerKind + 5) {
            Array("input \(index)".utf8).withUnsafeBytes {
                FuzzFindings.report(target: "test", kind: kind, detail: "one says \(index)", input: $0)
            }
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(names.filter { $0.hasPrefix(kind) }.count == FuzzFindings.inputsPerKind, "later inputs of a kind are only counted")
        let notes = try String(contentsOfFile: folder + "/findings.txt", encoding: .utf8)
        #expect(notes.contains("one says 0\n") && !notes.contains("one says \(FuzzFindings.inputsPerKind)\n"))
        let kept = FuzzFindings.reported.filter { $0.kind == kind }
        #expect(kept.first?.input == Array("input 0".utf8))
    }
}
