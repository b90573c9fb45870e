import AtomsJournalReader
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns a write site as the journal records it (`#fileID:line`, e.g.
/// `sample_todo/main.swift:37`) into a file on disk under a package root, and back.
///
/// A `#fileID` is `Module/File.swift`: the module's name and the file's name, without the
/// folders between. A module's files all have different names (the compiler requires it), so
/// the module's folder and the file's name find the file:
///
/// 1. The module's folder comes from the root's `Package.swift`: each target's `name:` (its
///    module name is the name with every character other than a letter, digit or `_` made
///    `_`: `sample-todo` is `sample_todo`) and its `path:`, else `Sources/NAME` (`Tests/NAME`
///    for a test target). The file is the one of that name anywhere under the folder.
/// 2. Without a `Package.swift`, or for a module it does not declare, every `.swift` file
///    under the root is a candidate (skipping hidden folders and `.build`): one whose folders
///    include one named after the module, else the only file of that name.
/// 3. Otherwise the site is unresolved: a frame shows its `#fileID` without a path.
///
/// The journal's format is unchanged (no `#filePath` is recorded), so journals recorded on
/// another machine resolve against a checkout here.
package final class WriteSiteResolver {
    /// The package root.
    package let root: String
    /// Module name to folder (relative to the root), from `Package.swift`.
    private let moduleFolders: [String: String]
    /// File name to the relative paths of the `.swift` files with that name, sorted; made on
    /// first use.
    private var filesByName: [String: [String]]?
    private var resolved: [String: String?] = [:]

    /// A resolver for the package at `root` (an absolute path, or relative to the working
    /// directory).
    package init(root: String) {
        self.root = Self.absolute(root)
        let manifest = (try? String(contentsOfFile: self.root + "/Package.swift", encoding: .utf8)) ?? ""
        moduleFolders = Self.targets(inManifest: manifest)
    }

    /// A site split into its `#fileID` and line: `sample_todo/main.swift:37` is
    /// (`sample_todo/main.swift`, 37).
    package static func split(_ site: String) -> (fileID: String, line: Int)? {
        guard let colon = site.lastIndex(of: ":"), let line = Int(site[site.index(after: colon)...]), line > 0 else { return nil }
        return (String(site[..<colon]), line)
    }

    /// The absolute path of the file a `#fileID` names, or `nil` when it cannot be found.
    package func path(forFileID fileID: String) -> String? {
        if let known = resolved[fileID] { return known }
        let path = find(fileID).map { root + "/" + $0 }
        resolved[fileID] = path
        return path
    }

    private func find(_ fileID: String) -> String? {
        guard let slash = fileID.firstIndex(of: "/") else { return nil }
        let module = String(fileID[..<slash])
        let name = String(fileID[fileID.index(after: slash)...])
        guard !name.isEmpty, !name.contains("/") else { return nil }
        let candidates = files(named: name)
        if let folder = moduleFolders[module] {
            let prefix = folder.hasSuffix("/") ? folder : folder + "/"
            if let inFolder = candidates.first(where: { $0.hasPrefix(prefix) }) {
                return inFolder
            }
        }
        let inModuleFolder = candidates.filter { candidate in
            candidate.split(separator: "/").dropLast().contains { Self.moduleName(String($0)) == module }
        }
        if let match = inModuleFolder.first { return match }
        return candidates.count == 1 ? candidates[0] : nil
    }

    private func files(named name: String) -> [String] {
        if filesByName == nil {
            var index: [String: [String]] = [:]
            Self.walk(root, relative: "", depth: 0) { relative in
                let file = relative.split(separator: "/").last.map(String.init) ?? relative
                index[file, default: []].append(relative)
            }
            filesByName = index.mapValues { $0.sorted() }
        }
        return filesByName?[name] ?? []
    }

    /// Calls `found` with the path (relative to `root`) of every `.swift` file under `folder`.
    private static func walk(_ folder: String, relative: String, depth: Int, _ found: (String) -> Void) {
        // Deep enough for any package; a symbolic link loop stops here.
        guard depth < 24, let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for entry in entries.sorted() where !entry.hasPrefix(".") && entry != "node_modules" {
            let path = folder + "/" + entry
            let relativePath = relative.isEmpty ? entry : relative + "/" + entry
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            if info.st_mode & S_IFMT == S_IFDIR {
                walk(path, relative: relativePath, depth: depth + 1, found)
            } else if entry.hasSuffix(".swift") {
                found(relativePath)
            }
        }
    }

    /// The module name of a target name, as SwiftPM makes it (`sample-todo` → `sample_todo`).
    package static func moduleName(_ target: String) -> String {
        String(target.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") ? $0 : "_" })
    }

    /// Module name → folder, from a manifest's target declarations (`.target(`,
    /// `.executableTarget(`, `.testTarget(`, …): their `name:` and `path:`.
    ///
    /// A plain reading of the text, not Swift's: names and paths written as string literals.
    static func targets(inManifest manifest: String) -> [String: String] {
        var folders: [String: String] = [:]
        let kinds = ["target", "executableTarget", "testTarget", "macro", "plugin", "systemLibrary"]
        var rest = Substring(manifest)
        while let dot = rest.firstIndex(of: ".") {
            rest = rest[rest.index(after: dot)...]
            guard let kind = kinds.first(where: { rest.hasPrefix($0 + "(") }) else { continue }
            let call = rest.dropFirst(kind.count + 1)
            // The call's arguments: up to the parenthesis that closes it.
            var depth = 1
            var end = call.startIndex
            var inString = false
            while end < call.endIndex, depth > 0 {
                let character = call[end]
                if character == "\"" { inString.toggle() }
                if !inString {
                    if character == "(" || character == "[" { depth += 1 }
                    if character == ")" || character == "]" { depth -= 1 }
                }
                end = call.index(after: end)
            }
            let arguments = call[..<end]
            guard let name = stringArgument("name", in: arguments) else { continue }
            let folder = stringArgument("path", in: arguments) ?? (kind == "testTarget" ? "Tests/" : "Sources/") + name
            folders[moduleName(name)] = folder.hasPrefix("./") ? String(folder.dropFirst(2)) : folder
            rest = call[end...]
        }
        return folders
    }

    /// The string literal after `label:` at the call's top level.
    private static func stringArgument(_ label: String, in arguments: Substring) -> String? {
        var search = arguments[...]
        while let range = search.firstRange(of: label + ":") {
            let before = range.lowerBound == arguments.startIndex ? " " : arguments[arguments.index(before: range.lowerBound)]
            var after = search[range.upperBound...].drop { $0 == " " || $0 == "\n" || $0 == "\t" }
            if !(before.isLetter || before.isNumber || before == "_"), after.first == "\"" {
                after = after.dropFirst()
                guard let close = after.firstIndex(of: "\"") else { return nil }
                return String(after[..<close])
            }
            search = search[range.upperBound...]
        }
        return nil
    }

    /// `path` made absolute against the working directory, without `.` and `..` parts.
    package static func absolute(_ path: String) -> String {
        let joined = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var parts: [Substring] = []
        for part in joined.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// `path` with symbolic links resolved, for comparing a client's path with a resolved one.
    package static func canonical(_ path: String) -> String {
        let absolute = absolute(path)
        guard let resolved = realpath(absolute, nil) else { return absolute }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
