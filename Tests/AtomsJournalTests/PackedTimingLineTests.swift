import Atoms
import Foundation
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

/// Format 4.3's timing lines: numbers a digit a byte, the shape left out when it repeats.
@MainActor
struct PackedTimingLineTests {
    /// docs/JOURNAL_FORMAT.md's example: a counter's step, then one of the same shape.
    static let first = ##""$#$%##$$&$$%$hGW3Y<Y)S<""##
    static let second = ##""#iLVBZ#Y3S<""##

    private static func read(_ text: String, shapes: inout PackedTimingLine.RecentShapes) throws -> CompactTimingLine {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBytes { raw in try PackedTimingLine.read(raw, 0..<raw.count, shapes: &shapes) }
    }

    private static func written(_ lines: [CompactTimingLine]) -> [String] {
        var shape = PackedTimingLine.RecentShapes()
        return lines.map { line in
            var output: [UInt8] = []
            PackedTimingLine.append(line, shapes: &shape, to: &output)
            return String(decoding: output.dropLast(), as: UTF8.self)
        }
    }

    @Test(arguments: [(0, "#"), (1, "$"), (44, "O"), (45, "Q#"), (91, "R$"), (2024, "}O"), (2025, "QP#")])
    func numbersAreBase45WithTheLastDigitMarked(value: Int, digits: String) {
        var output: [UInt8] = []
        PackedTimingLine.appendNumber(value, to: &output)
        #expect(String(decoding: output, as: UTF8.self) == digits)
    }

    @Test func theSpecificationsExampleReadsAsItSays() throws {
        var shape = PackedTimingLine.RecentShapes()
        let first = try Self.read(Self.first, shapes: &shape)
        #expect(first.back == 0 && first.runtime == 1071 && first.observers == 331)
        #expect(first.evaluations == [TimingLine.Evaluation(atom: 2, start: 430, duration: 411, depth: 0)])
        #expect(first.effects.isEmpty && first.subscribers == [.init(1, 160)])
        #expect(first.notified == [.init(1, 1), .init(2, 1)])
        let second = try Self.read(Self.second, shapes: &shape)
        #expect(second.runtime == 1121 && second.observers == 301)
        #expect(second.evaluations == [TimingLine.Evaluation(atom: 2, start: 450, duration: 421, depth: 0)], "the shape of the line before")
        #expect(second.notified == first.notified && second.subscribers == [.init(1, 160)])
        #expect(Self.written([first, second]) == [Self.first, Self.second])
        #expect(Self.second.utf8.count + 1 <= 24, "a repeated shape costs its times alone")
    }

    @Test func everyPartRoundTripsAndAChangedShapeIsWrittenAgain() throws {
        var full = CompactTimingLine()
        full.back = 2
        (full.runtime, full.observers) = (5_412_000, 35_000)
        full.evaluations = [.init(atom: 3, start: 1500, duration: 5_401_000, depth: 0), .init(atom: 4, start: 3000, duration: 5_390_000, depth: 1)]
        full.effects = [.init(3, 400), .init(0, 7)]
        full.subscribers = [.init(1, 8200), .init(9, 0)]
        full.notified = [.init(3, 1)]
        full.tasks = [.init(atom: 6, start: -6_718_500, end: 5_461_500, committed: true), .init(atom: 7, start: 0, end: -1, committed: false)]
        var plain = CompactTimingLine()
        (plain.runtime, plain.observers) = (250, 310)
        plain.subscribers = [.init(1, 40)]
        var emptyNotified = plain
        emptyNotified.notified = []
        var large = plain
        large.runtime = Int.max
        let lines = [full, full, plain, plain, emptyNotified, full, large]
        let texts = Self.written(lines)
        var shape = PackedTimingLine.RecentShapes()
        for (line, text) in zip(lines, texts) {
            #expect(try Self.read(text, shapes: &shape) == line, "\(text)")
        }
        // The form: 1 with a shape, 2 with tasks, 4 × k for the k-th most recent shape.
        #expect(texts.map { $0.dropFirst().first } == ["&", "%", "$", "#", "$", "-", "+"])
    }

    @Test func aSessionTakingTurnsAmongShapesNamesThemAndForgetsTheOldest() throws {
        let lines = (0..<(PackedTimingLine.RecentShapes.kept + 1)).map { atom in
            var line = CompactTimingLine()
            line.evaluations = [.init(atom: atom + 1, start: 10, duration: 20, depth: 0)]
            return line
        }
        // Nine shapes, then the same backwards: each is named by how far back it is (form
        // 4 × k: `#`, `'`, `+`, …), and the first, pushed out by the ninth, comes again.
        let texts = Self.written(lines + lines.reversed())
        #expect(texts.prefix(lines.count).allSatisfy { $0.dropFirst().first == "$" })
        let named = (0..<PackedTimingLine.RecentShapes.kept).map { Character(Unicode.Scalar(UInt8(ascii: "#") + UInt8(4 * $0))) }
        #expect(texts.dropFirst(lines.count).map { $0.dropFirst().first } == named + ["$"])
        var shapes = PackedTimingLine.RecentShapes()
        for (line, text) in zip(lines + lines.reversed(), texts) {
            #expect(try Self.read(text, shapes: &shapes) == line, "\(text)")
        }
        // A shape further back than the lines before had.
        var one = PackedTimingLine.RecentShapes()
        _ = try Self.read(texts[0], shapes: &one)
        let problem = #expect(throws: PackedTimingLine.Problem.self) { try Self.read(##""'#$#$""##, shapes: &one) }
        #expect(problem?.description.contains("had 1") == true)
    }

    @Test(arguments: [
        (###""#$$#$%%""###, "no timing line"),
        ("\"$###########", "`\"` at its start and end"),
        (###""$####$$%##%$$$$""###, "more numbers"),
        (###""$###""###, "a number is missing"),
        (###""$#PPP""###, "ends inside a number"),
        (###""$# ##""###, "is not a digit"),
        (###""$#}}}}}}}}}}}}}}##""###, "too large"),
        (###""$#}}}#####""###, "more than the line holds"),
        (###""(#""###, "form 5"),
        (###""'#$""###, "no timing line"),
    ])
    func aDamagedLineIsAProblemNamingWhat(text: String, what: String) {
        var shape = PackedTimingLine.RecentShapes()
        let problem = #expect(throws: PackedTimingLine.Problem.self) { try Self.read(text, shapes: &shape) }
        #expect(problem?.description.contains(what) == true, "\(problem.map(String.init(describing:)) ?? "")")
    }

    @Test func everySegmentsFirstTimingLineHasItsShapeAndReadsAlone() throws {
        let directory = try TemporaryDirectory()
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: directory.path("bounded"), limit: 16 * 1024, keyframeInterval: 8)
        recorder.attach(to: root.store)
        let context = root.viewContext()
        _ = context.watch(PackedCounterAtom())
        for value in 1...400 {
            context.set(value, for: PackedCounterAtom(), at: SourceLocation(fileID: "App/Main.swift", line: 9))
        }
        try recorder.close()
        let reader = try JournalReader(path: directory.path("bounded"))
        #expect(reader.allSegments.count > 1)
        for segment in reader.allSegments {
            let text = try String(contentsOfFile: segment.path, encoding: .utf8)
            let first = try #require(text.split(separator: "\n").first { $0.hasPrefix("\"") })
            #expect(first.utf8.dropFirst().first.map { $0 - UInt8(ascii: "#") } == 1, "form 1 in \(segment.path): \(first)")
        }
        let steps = (reader.firstStep + 1)...reader.lastStep
        let timings = try reader.timings(of: steps)
        #expect(timings.count >= steps.count - 1, "the last step's timing line may be in the end's flush")
        for seq in stride(from: steps.lowerBound, through: steps.upperBound, by: 37) {
            #expect(try reader.timing(of: seq) == timings[seq], "step \(seq) read alone")
            #expect(timings[seq]?.subscriberRuns.first?.at.hasPrefix("AtomsJournalTests/PackedTimingLineTests.swift:") == true, "named by its location line")
        }
    }
}

private struct PackedCounterAtom: StateAtom, Hashable {
    func defaultValue(context: Context) -> Int { 0 }
}
