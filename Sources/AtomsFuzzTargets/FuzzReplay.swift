import Foundation

/// Runs inputs through a fuzz target without libFuzzer: how `atoms-fuzz` behaves when built
/// normally (to reproduce a crash: `swift run atoms-fuzz rules crash-…`).
package enum FuzzReplay {
    /// Runs every file named on the command line (or found in a named folder) through the
    /// target named first, and prints how many it ran. Exits 64 without a known target, 66
    /// when an argument cannot be read.
    package static func main(arguments: [String] = Array(CommandLine.arguments.dropFirst())) -> Never {
        guard let name = arguments.first, let target = FuzzTargets.all[name], arguments.count > 1 else {
            FileHandle.standardError.write(Data("usage: atoms-fuzz TARGET FILE|FOLDER… (replays inputs; built with Fuzz/run.sh it fuzzes); TARGET is one of \(FuzzTargets.all.keys.sorted().joined(separator: ", "))\n".utf8))
            exit(64)
        }
        var count = 0
        for argument in arguments.dropFirst() {
            for file in files(at: argument) {
                guard let data = FileManager.default.contents(atPath: file) else {
                    FileHandle.standardError.write(Data("\(file): cannot read\n".utf8))
                    exit(66)
                }
                data.withUnsafeBytes(target)
                count += 1
            }
        }
        print("replayed \(count) \(name) inputs")
        exit(0)
    }

    /// The file itself, or the files in a folder, sorted.
    package static func files(at path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return [path]
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { (path as NSString).appendingPathComponent($0) }
    }
}
