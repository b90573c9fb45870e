import Atoms
import Foundation
import Synchronization
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

/// How many times a ``KeyframeInProportionTests/Settings`` value was encoded, in this process.
private let settingsEncodes = Mutex(0)

/// Keyframes in proportion: a keyframe encodes again only the atoms whose
/// values changed since the one before, and still holds every live value as it is.
@MainActor
struct KeyframeInProportionTests {
    /// A value that counts its encodings: a nested one, which the recorder keeps as a Swift
    /// value and encodes for keyframes (a flat one it keeps encoded).
    struct Settings: Codable, Equatable {
        var theme: String
        var fontSize: Int
        var recentFiles: [String]

        func encode(to encoder: any Encoder) throws {
            settingsEncodes.withLock { $0 += 1 }
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(theme, forKey: .theme)
            try container.encode(fontSize, forKey: .fontSize)
            try container.encode(recentFiles, forKey: .recentFiles)
        }
    }

    struct SettingsAtom: StateAtom, Hashable {
        func defaultValue(context: Context) -> Settings { Settings(theme: "light", fontSize: 12, recentFiles: ["a.swift"]) }
    }

    struct TicksAtom: StateAtom, Hashable {
        func defaultValue(context: Context) -> Int { 0 }
    }

    /// The keyframe lines of a journal file, decoded.
    private func keyframes(in path: String) throws -> [KeyframeRecord] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix(#"{"type":"keyframe""#) }
            .map { try JSONDecoder().decode(KeyframeRecord.self, from: Data($0.utf8)) }
    }

    @Test func aKeyframeEncodesOnlyTheValuesChangedSinceTheLastOne() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("settings.jsonl")
        let root = AtomRoot()
        let context = root.viewContext()
        context.watch(SettingsAtom())
        context.watch(TicksAtom())
        let recorder = try JournalRecorder(path: path, keyframeInterval: 4)
        recorder.attach(to: root.store)
        context[SettingsAtom()] = Settings(theme: "dark", fontSize: 14, recentFiles: ["a.swift", "b.swift"])
        for tick in 1...40 { context[TicksAtom()] = tick }
        try recorder.flush()
        let keyframesBefore = try keyframes(in: path).count
        let encodesBefore = settingsEncodes.withLock { $0 }

        // Only the ticks change: the keyframes write the settings as the first one did.
        for tick in 41...1_500 { context[TicksAtom()] = tick }
        try recorder.flush()
        let unchangedKeyframes = try keyframes(in: path).count - keyframesBefore
        #expect(unchangedKeyframes >= 20, "\(unchangedKeyframes) keyframes while the settings stayed")
        #expect(settingsEncodes.withLock { $0 } == encodesBefore, "the settings are not encoded again for a keyframe")

        // Changed, then more keyframes: they hold the new value, not the one written before.
        context[SettingsAtom()].fontSize = 20
        for tick in 1_501...1_900 { context[TicksAtom()] = tick }
        try recorder.close()

        let journal = try JournalReader(path: path)
        let all = try keyframes(in: path)
        let settings = try #require(all.last?.atoms.first { $0.label == "SettingsAtom" }?.id)
        // Every step reads the same from its own keyframe as walked from the first; the step
        // that changed the font size is found on the way.
        var walked = try journal.state(at: journal.firstStep)
        var changeStep: Int?
        for step in (journal.firstStep + 1)...journal.lastStep {
            try journal.apply(step, to: &walked, decodingValuesOf: nil)
            if changeStep == nil, walked.values[settings]?.v?.jsonText.contains(#""fontSize":20"#) == true {
                changeStep = step
            }
            if step % 7 == 0 || all.contains(where: { $0.seq == step }) {
                #expect(try journal.state(at: step).values == walked.values, "step \(step)")
            }
        }
        let changed = try #require(changeStep)
        #expect(all.contains { $0.seq > changed }, "a keyframe after the change")
        for keyframe in all where keyframe.seq > journal.firstStep {
            let value = keyframe.values.first { $0.id == settings }?.v?.jsonText ?? "none"
            let expected = keyframe.seq >= changed ? #""fontSize":20"# : #""fontSize":14"#
            #expect(value.contains(expected), "keyframe \(keyframe.seq): \(value)")
        }
    }
}
