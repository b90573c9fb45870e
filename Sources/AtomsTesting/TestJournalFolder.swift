import Foundation
import Synchronization

/// Where test journals go: the folder the user configured, and a file name per test.
enum TestJournalFolder {
    /// The environment variable naming the folder for a whole run's journals. Set, it also
    /// turns recording on for every test under a bare `.atomJournal` trait.
    static let variable = "ATOMS_TEST_JOURNALS"

    /// The folder `ATOMS_TEST_JOURNALS` names, or `nil` when it is unset or empty.
    static var configured: String? {
        guard let value = ProcessInfo.processInfo.environment[variable], !value.isEmpty else { return nil }
        return value
    }

    /// The configured folder, or `atoms-test-journals` in the temporary folder.
    static var current: String {
        configured ?? URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("atoms-test-journals").path
    }

    /// File names handed out in this process, with how many times each was.
    private static let claimed = Mutex<[String: Int]>([:])

    /// A path for a new journal of the test named `name` in `folder`, creating the folder.
    ///
    /// The first journal of a name in this process takes `name.jsonl` (replacing a previous
    /// run's); later ones, from other cases of a parameterized test or other contexts of
    /// one test, take `name-2.jsonl`, `name-3.jsonl`, ….
    static func path(for name: String, in folder: String) throws -> String {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let absolute = URL(fileURLWithPath: folder).standardizedFileURL
        let count = claimed.withLock { names in
            names[absolute.path + "/" + name, default: 0] += 1
            return names[absolute.path + "/" + name]!
        }
        let file = count == 1 ? "\(name).jsonl" : "\(name)-\(count).jsonl"
        return absolute.appendingPathComponent(file).path
    }
}
