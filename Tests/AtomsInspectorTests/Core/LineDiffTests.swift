import Testing
@testable import AtomsInspector

/// `diff` and `compare` show a changed value as a line diff of its printed text.
struct LineDiffTests {
    @Test func equalTextsHaveNoDiff() {
        #expect(LineDiff.render(old: "[\n  1\n]", new: "[\n  1\n]") == nil)
    }

    @Test func aChangedLineIsRemovedThenAdded() {
        #expect(LineDiff.render(old: "[\n  1,\n  2\n]", new: "[\n  1,\n  3\n]") == "  [\n    1,\n-   2\n+   3\n  ]")
        #expect(LineDiff.render(old: "2", new: "1") == "- 2\n+ 1")
    }

    @Test func unchangedRunsBeyondTheContextFold() {
        let old = (1...20).map(String.init).joined(separator: "\n")
        let new = old.replacing("\n10\n", with: "\nten\n")
        #expect(LineDiff.render(old: old, new: new) == """
              … (6 unchanged)
              7
              8
              9
            - 10
            + ten
              11
              12
              13
              … (7 unchanged)
            """)
    }

    @Test func theMiddleIsALongestCommonSubsequence() {
        let marked = LineDiff.lines(Array("abcabba"), Array("cbabac"))
        #expect(marked.filter { $0.mark == .both }.count == 4, "the longest common subsequence has 4 lines")
        #expect(String(marked.filter { $0.mark != .added }.map(\.line)) == "abcabba")
        #expect(String(marked.filter { $0.mark != .removed }.map(\.line)) == "cbabac")
    }

    @Test func aMiddleTooLargeForTheTableListsRemovalsThenAdditions() {
        let old = (0..<600).map { "old \($0)" }
        let new = (0..<600).map { "new \($0)" }
        let marked = LineDiff.lines(old, new)
        #expect(marked.map(\.line) == old + new)
        #expect(marked.prefix(600).allSatisfy { $0.mark == .removed } && marked.suffix(600).allSatisfy { $0.mark == .added })
    }
}
