import Foundation
import Testing

/// What the journal tells the developer: the kept journal of a failed test, and warnings.
enum TestJournalNotice {
    /// Announces a failed test's journal: one line on stderr with its path and the commands
    /// that open it, and the file attached to the test (`swift test --attachments-path`).
    @MainActor
    static func announce(_ recording: JournalRecording) {
        let path = recording.path
        let html = URL(fileURLWithPath: path).deletingPathExtension().path + ".html"
        printLine("\(recording.testName) failed; its atom journal: \(path) — open it with `atoms-inspect step \(path)` or `atoms-inspect report \(path) -o \(html)`")
        if Test.current != nil, let bytes = FileManager.default.contents(atPath: path) {
            Attachment.record(Array(bytes), named: URL(fileURLWithPath: path).lastPathComponent)
        }
    }

    /// A warning: a test issue of warning severity in a Swift Testing test, a line on stderr
    /// elsewhere.
    static func warn(_ message: String) {
        if Test.current != nil {
            Issue.record(Comment(rawValue: message), severity: .warning)
        } else {
            printLine("warning: " + message)
        }
    }

    private static func printLine(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
