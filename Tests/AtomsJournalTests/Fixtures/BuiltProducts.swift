import Foundation

/// Executables built alongside the tests (`swift build` / `swift test` put them next to the
/// test bundle).
enum BuiltProducts {
    static var directory: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    }

    /// The path of a built executable, or `nil` when it was not built.
    static func executable(_ name: String) -> String? {
        let candidates = [directory, directory.deletingLastPathComponent()].map { $0.appendingPathComponent(name).path }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
