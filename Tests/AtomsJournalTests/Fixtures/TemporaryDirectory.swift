import Foundation

/// A directory removed when the value is deinitialized.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("atoms-journal-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }

    /// Writes text to a file in the directory and returns its path.
    func write(_ name: String, _ text: String) throws -> String {
        try write(name, Data(text.utf8))
    }

    func write(_ name: String, _ data: Data) throws -> String {
        let path = path(name)
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
