import AtomsInspector
import Testing

/// The bytes terminals send for keys, and text cut to fit a screen.
struct KeyDecoderTests {
    private func keys(_ text: String, final: Bool = false) -> [TimelineKey] {
        KeyDecoder.decode(Array(text.utf8), final: final).keys
    }

    @Test func arrowsPagesHomeAndEndInTheEncodingsOfXtermTmuxAndTheConsole() {
        #expect(keys("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.up, .down, .right, .left])
        #expect(keys("\u{1B}OA\u{1B}OD\u{1B}OH\u{1B}OF") == [.up, .left, .home, .end])
        #expect(keys("\u{1B}[5~\u{1B}[6~\u{1B}[1~\u{1B}[4~\u{1B}[7~\u{1B}[8~\u{1B}[H\u{1B}[F") == [.pageUp, .pageDown, .home, .end, .home, .end, .home, .end])
        // With a modifier (Ctrl-→ is ESC [ 1 ; 5 C): still the arrow.
        #expect(keys("\u{1B}[1;5C\u{1B}[Z") == [.right, .backTab])
        #expect(keys("\u{1B}[3~\u{1B}[15~") == [.other, .other])
    }

    @Test func controlBytesAndCharacters() {
        #expect(keys("q/g\r\n\t\u{7F}\u{3}") == [.character("q"), .character("/"), .character("g"), .enter, .enter, .tab, .backspace, .interrupt])
        #expect(keys("é→") == [.character("é"), .character("→")])
        #expect(keys("\u{1A}") == [.other])
    }

    @Test func anUnfinishedSequenceWaitsForItsRestUnlessNothingFollows() {
        let cut = KeyDecoder.decode(Array("n\u{1B}[".utf8))
        #expect(cut.keys == [.character("n")])
        #expect(cut.rest == Array("\u{1B}[".utf8))
        #expect(KeyDecoder.decode(cut.rest + Array("C".utf8)).keys == [.right])
        #expect(KeyDecoder.decode(Array("\u{1B}".utf8)).rest == [0x1B])
        #expect(keys("\u{1B}", final: true) == [.escape])
        #expect(keys("\u{1B}\u{1B}[A") == [.escape, .up])
        // Half of a two-byte character.
        #expect(KeyDecoder.decode([0xC3]).rest == [0xC3])
        #expect(KeyDecoder.decode([0xC3, 0xA9]).keys == [.character("é")])
    }

    @Test func textIsMadePrintableAndCutToItsColumns() {
        #expect(ScreenText.fitted("abcdef", to: 4) == "abc…")
        #expect(ScreenText.fitted("abc", to: 3) == "abc")
        #expect(ScreenText.fitted("a\u{1B}[31mb\u{9B}c\td\ne", to: 20) == "a?[31mb?c d e")
        #expect(ScreenText.width(of: "日本") == 4)
        #expect(ScreenText.fitted("日本語", to: 5) == "日本…")
        #expect(ScreenText.width(of: ScreenText.fitted("日本語です", to: 6)) <= 6)
        #expect(ScreenText.width(of: "e\u{301}") == 1)
        #expect(ScreenText.fitted("anything", to: 0) == "")
    }
}
