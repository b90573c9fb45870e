import Foundation
import Testing

/// docs/ARCHITECTURE.md names the code it describes in backticks: every type, member, file and
/// folder it names must exist as named, so the page cannot drift from the code unnoticed.
///
/// A token is what one pair of backticks on a line holds, outside fenced blocks. Two kinds are
/// checked; everything else (commands, options, JSON keys, keys pressed, system calls such as
/// `poll()` and `write(2)`) is not:
///
/// - **A path**: components of letters, digits and `_.+*-` joined by `/`, holding a `/` or
///   ending in `.swift` (`Reader/StepScan.swift`, `Coding/`, `Recorder/ValueDiffer*.swift`,
///   `Sources/AtomsTesting`). Some file or folder under Sources/, Tests/ or Benchmarks/ ends
///   with it, component by component (`*` stands for any part of one component); one ending in
///   `/` names a folder.
/// - **A code name**: an identifier, then `.member`s, then perhaps an argument-label list, with
///   an optional `@` for a macro (`StepScan`, `TimingContext.take`, `LineScanner.kind(of:in:)`,
///   `ReplayedMember(delivering:decoded:)`, `@JournalRecordable`), when its first identifier
///   starts with an uppercase letter or holds one (`forEachTimingLine`), or it has members or
///   labels (`state(at:)`); not SCREAMING_SNAKE_CASE (`DT_NEEDED`: a C or ELF constant).
///   It is looked up among the declarations (`struct`, `enum`, `class`, `protocol`, `actor`,
///   `typealias`, `extension`, `func`, `var`, `let`, `case`, `macro`, `init`, `subscript`) of
///   the Swift files under Sources/ (under Tests/ for a name ending in `Tests`, a test suite),
///   comments and string literals left out:
///   - `Name`: declared, or a module (a folder of Sources/, or one a file imports);
///   - `Owner.member`: `member` declared directly in the body of `Owner` or of an extension of
///     it, and every name before it a type declared or extended;
///   - `Type(labels:)`: an `init` of `Type`;
///   - with labels: a `func` or `init` whose parameters give exactly those labels once the
///     parameters with a default value that the token leaves out are left out (the spelling
///     of a call: `kind(of:in:)` for `kind(of:in:verify:)` whose `verify` has a default).
struct ArchitectureDocumentTests {
    /// Tokens that the rules above take for code names but that are not: none today. Add one
    /// only with its reason (a JSON key, an option, a word of the format).
    private static let notCodeNames: Set<String> = []

    /// Names the page uses that are declared outside this package (the standard library,
    /// Synchronization, Swift Testing): each must be used in Sources/' code (outside comments
    /// and strings) instead of declared there.
    private static let externalNames: Set<String> = ["Encodable", "IssueHandlingTrait", "Mutex", "TestScoping"]

    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized

    /// Every Swift file under Sources/ and Tests/ read once, for both tests.
    private static let index = CodeIndex(repository: repository, external: externalNames)

    @Test func everyNameThePageUsesExistsAsNamed() throws {
        let text = try String(contentsOf: Self.repository.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        var checked = 0
        var missing: [String] = []
        for token in DocumentName.backticked(in: text) where !Self.notCodeNames.contains(token) {
            guard let name = DocumentName(token) else { continue }
            checked += 1
            if !Self.index.has(name) { missing.append(token) }
        }
        // The rules still find the page's names: a change to them that matched nothing would
        // pass otherwise.
        #expect(checked >= 150, "only \(checked) names of code found in docs/ARCHITECTURE.md")
        let list = missing.map { "  `\($0)`" }.joined(separator: "\n")
        #expect(
            missing.isEmpty,
            "docs/ARCHITECTURE.md names \(missing.count) thing(s) the code does not have as named (rename them in the page, or list a token that is not code in ArchitectureDocumentTests.notCodeNames):\n\(list)"
        )
    }

    @Test func theRulesTellADeclaredNameFromAMissingOne() {
        let present = [
            "TimingContext.take", "TransactionWalk.skip(through:_:wrote:)", "LineScanner.kind(of:in:)", "LineScanner.kind(of:in:verify:)",
            "ReplayedMember(delivering:decoded:)", "JournalReader.forEachTransaction", "AtomsJournalReader", "@JournalRecordable",
            "Reader/StepScan.swift", "Coding/", "Recorder/ValueDiffer*.swift", "Sources/AtomsTesting/Replay", "DamagedJournalTests",
        ]
        for token in present {
            #expect(DocumentName(token).map { Self.index.has($0) } == true, "\(token)")
        }
        let absent = [
            // A file, not a type; a member of another type in the same file; labels out of
            // order, or a label without a default left out.
            "JournalTimings", "JournalReader.take", "LineScanner.kind(in:of:)", "TransactionWalk.skip(through:wrote:)",
            "ReplayedMember(delivering:)", "StepScan.readOn", "Reader/JournalTimings/", "Reader/Missing.swift", "NoSuchType",
        ]
        for token in absent {
            #expect(DocumentName(token).map { Self.index.has($0) } == false, "\(token)")
        }
        for token in ["log --follow", "poll()", "write(2)", "DT_NEEDED", "--where", "loc", ".phase", "atoms-inspect/…", "file://"] {
            #expect(DocumentName(token) == nil, "\(token)")
        }
    }
}

/// A name of code or a path, as the page writes it between backticks.
private enum DocumentName: Equatable {
    /// Path components (`*` matching any part of one); `isFolder` when it ends with `/`.
    case path([String], isFolder: Bool)
    /// `Name.member…`, and the argument labels when written (`[]` for `()`).
    case code([String], labels: [String]?)

    /// The tokens between backticks, each once, in order; fenced blocks left out.
    static func backticked(in text: String) -> [String] {
        var tokens: [String] = []
        var seen: Set<String> = []
        var inFence = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inFence.toggle()
                continue
            }
            guard !inFence else { continue }
            let characters = Array(line)
            var index = 0
            while index < characters.count {
                guard characters[index] == "`" else {
                    index += 1
                    continue
                }
                // The next backtick closes a token; none between two is no token.
                guard let close = characters[(index + 1)...].firstIndex(of: "`"), close > index + 1 else {
                    index += 1
                    continue
                }
                let token = String(characters[(index + 1)..<close])
                if seen.insert(token).inserted { tokens.append(token) }
                index = close + 1
            }
        }
        return tokens
    }

    /// The name `token` is, or `nil` for a token that is neither a path nor a code name.
    init?(_ token: String) {
        if let path = Self.parsedPath(token) {
            self = path
        } else if let code = Self.parsedCode(token) {
            self = code
        } else {
            return nil
        }
    }

    private static func parsedPath(_ token: String) -> DocumentName? {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.+*-/")
        guard token.contains("/") || token.hasSuffix(".swift"), token.allSatisfy(allowed.contains) else { return nil }
        let isFolder = token.hasSuffix("/")
        let components = (isFolder ? token.dropLast() : Substring(token)).split(separator: "/", omittingEmptySubsequences: false)
        guard !components.isEmpty, components.allSatisfy({ !$0.isEmpty }) else { return nil }
        return .path(components.map(String.init), isFolder: isFolder)
    }

    private static func parsedCode(_ token: String) -> DocumentName? {
        var text = Substring(token)
        if text.first == "@" { text = text.dropFirst() }
        var labels: [String]?
        if text.last == ")" {
            guard let open = text.firstIndex(of: "(") else { return nil }
            let inside = text[text.index(after: open)..<text.index(before: text.endIndex)]
            if inside.isEmpty {
                labels = []
            } else {
                guard inside.last == ":" else { return nil }
                let parts = inside.dropLast().split(separator: ":", omittingEmptySubsequences: false)
                guard parts.allSatisfy(isIdentifier) else { return nil }
                labels = parts.map(String.init)
            }
            text = text[..<open]
        }
        let components = text.split(separator: ".", omittingEmptySubsequences: false)
        guard let head = components.first, components.allSatisfy(isIdentifier) else { return nil }
        // SCREAMING_SNAKE_CASE: a C or ELF constant, not a Swift name.
        if head.contains("_"), head.allSatisfy({ $0.isUppercase || $0.isNumber || $0 == "_" }) { return nil }
        guard head.contains(where: \.isUppercase) || components.count > 1 || labels?.isEmpty == false else { return nil }
        return .code(components.map(String.init), labels: labels)
    }

    private static func isIdentifier(_ text: Substring) -> Bool {
        guard let first = text.first, first.isASCII, first.isLetter || first == "_" else { return false }
        return text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
    }
}

/// The declarations of the package's Swift files, and its files and folders.
private struct CodeIndex: Sendable {
    struct Parameter: Sendable {
        /// The argument label (`_` for none).
        let label: String
        let hasDefault: Bool
    }

    struct Declaration: Sendable {
        /// The type (or extended type) whose body declares it directly; `nil` at the top level
        /// or inside a function.
        let owner: String?
        /// A `func`'s, `macro`'s, `init`'s or `subscript`'s.
        let parameters: [Parameter]?
    }

    /// The declarations of one part of the package (Sources/ or Tests/).
    struct Area: Sendable {
        var declarations: [String: [Declaration]] = [:]
        /// Every type declared or extended.
        var types: Set<String> = []
    }

    private(set) var sources = Area()
    private(set) var tests = Area()
    /// Folders of Sources/ (the modules), and the modules files import.
    private(set) var modules: Set<String> = []
    /// The external names used in Sources/' code.
    private(set) var usedExternal: Set<String> = []
    let external: Set<String>
    /// Relative to the repository.
    private(set) var files: [[String]] = []
    private(set) var folders: [[String]] = []

    init(repository: URL, external: Set<String>) {
        self.external = external
        let manager = FileManager.default
        for top in ["Sources", "Tests", "Benchmarks"] {
            let topPath = repository.appendingPathComponent(top).path
            folders.append([top])
            for relative in (try? manager.subpathsOfDirectory(atPath: topPath))?.sorted() ?? [] {
                let path = topPath + "/" + relative
                let components = [top] + relative.split(separator: "/").map(String.init)
                var isDirectory: ObjCBool = false
                guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
                if isDirectory.boolValue {
                    folders.append(components)
                    if top == "Sources", components.count == 2 { modules.insert(components[1]) }
                } else {
                    files.append(components)
                    guard top != "Benchmarks", relative.hasSuffix(".swift"), let data = manager.contents(atPath: path) else { continue }
                    var scan = SwiftDeclarationScan(code: SwiftCode.blanked([UInt8](data)), external: top == "Sources" ? external : [])
                    scan.run()
                    modules.formUnion(scan.imports)
                    if top == "Sources" {
                        usedExternal.formUnion(scan.usedExternal)
                        sources.merge(scan.area)
                    } else {
                        tests.merge(scan.area)
                    }
                }
            }
        }
    }

    func has(_ name: DocumentName) -> Bool {
        switch name {
        case .path(let components, let isFolder):
            return (isFolder ? folders : files + folders).contains { Self.ends($0, with: components) }
        case .code(let components, let labels):
            return hasCode(components, labels: labels)
        }
    }

    private func hasCode(_ components: [String], labels: [String]?) -> Bool {
        let area = components[components.count - 1].hasSuffix("Tests") ? tests : sources
        let head = components[0]
        if components.count == 1, labels == nil {
            if external.contains(head) { return usedExternal.contains(head) }
            return area.declarations[head] != nil || modules.contains(head)
        }
        let owner: String?
        let member: String
        let owners: [String]
        if components.count == 1, head.first?.isUppercase == true {
            (owner, member, owners) = (head, "init", [head])
        } else if components.count == 1 {
            (owner, member, owners) = (nil, head, [])
        } else {
            (owner, member, owners) = (components[components.count - 2], components[components.count - 1], Array(components.dropLast()))
        }
        guard owners.allSatisfy(area.types.contains) else { return false }
        return (area.declarations[member] ?? []).contains { declaration in
            guard owner == nil || declaration.owner == owner else { return false }
            guard let labels else { return true }
            return declaration.parameters.map { Self.accepts($0, labels) } ?? false
        }
    }

    /// Whether a call written with `labels` can call a declaration with `parameters`: the
    /// labels in order, the parameters left out all having a default value.
    static func accepts(_ parameters: [Parameter], _ labels: [String]) -> Bool {
        var next = 0
        for parameter in parameters {
            if next < labels.count, parameter.label == labels[next] {
                next += 1
            } else if !parameter.hasDefault {
                return false
            }
        }
        return next == labels.count
    }

    /// Whether `path` ends with `pattern`, component by component.
    private static func ends(_ path: [String], with pattern: [String]) -> Bool {
        guard path.count >= pattern.count else { return false }
        return zip(path.suffix(pattern.count), pattern).allSatisfy { Self.glob($1[...], matches: $0[...]) }
    }

    /// `*` matching any run of characters.
    private static func glob(_ pattern: Substring, matches text: Substring) -> Bool {
        guard let star = pattern.firstIndex(of: "*") else { return pattern == text }
        let prefix = pattern[..<star]
        let rest = pattern[pattern.index(after: star)...]
        guard text.hasPrefix(prefix) else { return false }
        var tail = text.dropFirst(prefix.count)
        while true {
            if glob(rest, matches: tail) { return true }
            guard !tail.isEmpty else { return false }
            tail = tail.dropFirst()
        }
    }
}

private extension CodeIndex.Area {
    mutating func merge(_ other: CodeIndex.Area) {
        declarations.merge(other.declarations) { $0 + $1 }
        types.formUnion(other.types)
    }
}

/// Swift source text with its comments and string literals blanked.
private enum SwiftCode {
    static let newline = UInt8(ascii: "\n")
    static let space = UInt8(ascii: " ")
    static let quote = UInt8(ascii: "\"")
    static let hash = UInt8(ascii: "#")
    static let backslash = UInt8(ascii: "\\")
    static let slash = UInt8(ascii: "/")
    static let star = UInt8(ascii: "*")
    static let openParenthesis = UInt8(ascii: "(")
    static let closeParenthesis = UInt8(ascii: ")")

    static func isIdentifierStart(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
    }

    static func isIdentifier(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || (byte >= 0x30 && byte <= 0x39)
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == newline || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
    }

    /// `source` with every comment and string literal (its interpolations included) turned
    /// into spaces, newlines kept: declarations and expressions are what is left, at the
    /// same offsets.
    static func blanked(_ source: [UInt8]) -> [UInt8] {
        var code = source
        let count = source.count
        source.withUnsafeBufferPointer { source in
            code.withUnsafeMutableBufferPointer { buffer in
                let code = buffer
                func blank(_ range: Range<Int>) {
                    for index in range where code[index] != newline { code[index] = space }
                }
                /// Whether a string literal starts at `index`: `"`, or `#`s and `"` (raw).
                func startsString(_ index: Int) -> Bool {
                    var next = index
                    while next < count, source[next] == hash { next += 1 }
                    return next < count && source[next] == quote
                }
                func hashes(_ number: Int, at index: Int) -> Bool {
                    guard index + number <= count else { return false }
                    for offset in 0..<number where source[index + offset] != hash { return false }
                    return true
                }
                func tripleQuote(at index: Int) -> Bool {
                    index + 2 < count && source[index] == quote && source[index + 1] == quote && source[index + 2] == quote
                }
                /// The end of the string literal starting at `start`.
                func stringEnd(from start: Int) -> Int {
                    var index = start
                    var hashCount = 0
                    while index < count, source[index] == hash {
                        hashCount += 1
                        index += 1
                    }
                    let multiline = tripleQuote(at: index)
                    index += multiline ? 3 : 1
                    while index < count {
                        let byte = source[index]
                        // An escape is `\` and the literal's hashes.
                        if byte == backslash, hashes(hashCount, at: index + 1) {
                            let next = index + 1 + hashCount
                            index = next < count && source[next] == openParenthesis ? interpolationEnd(from: next) : next + 1
                            continue
                        }
                        if byte == quote, multiline ? tripleQuote(at: index) : true {
                            let closing = index + (multiline ? 3 : 1)
                            if hashes(hashCount, at: closing) { return closing + hashCount }
                        }
                        if !multiline, byte == newline { return index }
                        index += 1
                    }
                    return count
                }
                /// The end of the interpolation whose `(` is at `start`.
                func interpolationEnd(from start: Int) -> Int {
                    var index = start
                    var depth = 0
                    while index < count {
                        let byte = source[index]
                        if startsString(index) {
                            index = stringEnd(from: index)
                            continue
                        }
                        if byte == openParenthesis {
                            depth += 1
                        } else if byte == closeParenthesis {
                            depth -= 1
                            if depth == 0 { return index + 1 }
                        }
                        index += 1
                    }
                    return count
                }
                /// The end of the (nested) block comment starting at `start`.
                func blockCommentEnd(from start: Int) -> Int {
                    var index = start
                    var depth = 0
                    while index < count {
                        if index + 1 < count, source[index] == slash, source[index + 1] == star {
                            depth += 1
                            index += 2
                        } else if index + 1 < count, source[index] == star, source[index + 1] == slash {
                            depth -= 1
                            index += 2
                            if depth == 0 { return index }
                        } else {
                            index += 1
                        }
                    }
                    return count
                }
                var index = 0
                while index < count {
                    let byte = source[index]
                    if byte == slash, index + 1 < count, source[index + 1] == slash {
                        var end = index
                        while end < count, source[end] != newline { end += 1 }
                        blank(index..<end)
                        index = end
                    } else if byte == slash, index + 1 < count, source[index + 1] == star {
                        let end = blockCommentEnd(from: index)
                        blank(index..<end)
                        index = end
                    } else if (byte == quote || byte == hash) && startsString(index) {
                        let end = stringEnd(from: index)
                        blank(index..<end)
                        index = end
                    } else {
                        index += 1
                    }
                }
            }
        }
        return code
    }
}

/// One pass over a blanked Swift file: its declarations with the type whose body holds each,
/// the modules it imports, and the external names it uses.
private struct SwiftDeclarationScan {
    /// The words that begin a declaration, and `import`.
    private static let keywords: [(bytes: [UInt8], word: String)] = [
        "struct", "enum", "class", "protocol", "actor", "typealias", "extension", "func", "var", "let", "case", "macro", "init", "subscript",
        "import",
    ].map { (bytes: Array($0.utf8), word: $0) }
    private static let typeKeywords: Set<String> = ["struct", "enum", "class", "protocol", "actor", "typealias", "extension"]

    /// Words after `class` (and the like) that make it a modifier, not a declaration.
    private static let modifiers: Set<String> = [
        "func", "var", "let", "init", "subscript", "static", "final", "override", "private", "fileprivate", "internal", "package",
        "public", "open", "nonisolated", "mutating", "convenience", "required", "indirect", "case",
    ]
    /// What may follow `import` before the module's name.
    private static let importKinds: Set<String> = ["struct", "class", "enum", "protocol", "func", "var", "typealias"]

    let code: [UInt8]
    private let external: [[UInt8]]
    private(set) var area = CodeIndex.Area()
    private(set) var imports: Set<String> = []
    private(set) var usedExternal: Set<String> = []

    init(code: [UInt8], external: Set<String>) {
        self.code = code
        self.external = external.map { Array($0.utf8) }
    }

    mutating func run() {
        let count = code.count
        // Per open brace: the type whose body it opens, or `nil`.
        var bodies: [String?] = []
        // A type declared, whose body opens at the next brace.
        var pending: String?
        var index = 0
        while index < count {
            let byte = code[index]
            if byte == UInt8(ascii: "{") {
                bodies.append(pending)
                pending = nil
                index += 1
                continue
            }
            if byte == UInt8(ascii: "}") {
                if !bodies.isEmpty { bodies.removeLast() }
                index += 1
                continue
            }
            guard SwiftCode.isIdentifierStart(byte), index == 0 || !SwiftCode.isIdentifier(code[index - 1]) else {
                index += 1
                continue
            }
            var end = index + 1
            while end < count, SwiftCode.isIdentifier(code[end]) { end += 1 }
            let word = code[index..<end]
            defer { index = end }
            if byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z"), external.contains(where: { $0.elementsEqual(word) }) {
                usedExternal.insert(String(decoding: word, as: UTF8.self))
            }
            guard let keyword = Self.keyword(word) else { continue }
            // `.init(`, `self.init`, `@…`, `#…`: not declarations.
            if index > 0, [UInt8(ascii: "."), UInt8(ascii: "@"), UInt8(ascii: "#")].contains(code[index - 1]) { continue }
            let owner = bodies.last ?? nil
            switch keyword {
            case "import":
                guard let found = qualifiedName(after: end) else { continue }
                if Self.importKinds.contains(found.parts[0]), let module = qualifiedName(after: found.end) {
                    imports.insert(module.parts[0])
                } else {
                    imports.insert(found.parts[0])
                }
            case "init", "subscript":
                guard let parameters = parameterList(from: end) else { continue }
                area.declarations[keyword, default: []].append(CodeIndex.Declaration(owner: owner, parameters: parameters))
            default:
                guard let found = qualifiedName(after: end) else { continue }
                let parts = found.parts
                let declaresType = Self.typeKeywords.contains(keyword)
                if declaresType, Self.modifiers.contains(parts[0]) { continue }
                let name = keyword == "extension" ? parts[parts.count - 1] : parts[0]
                if declaresType {
                    area.types.formUnion(keyword == "extension" ? parts : [parts[0]])
                    if keyword != "typealias" { pending = name }
                }
                let parameters = keyword == "func" || keyword == "macro" ? parameterList(from: found.end) : nil
                area.declarations[name, default: []].append(CodeIndex.Declaration(owner: owner, parameters: parameters))
            }
        }
    }

    /// The keyword `word` is, if it is one.
    private static func keyword(_ word: ArraySlice<UInt8>) -> String? {
        guard word.count >= 3, word.count <= 9, let first = word.first, first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z") else { return nil }
        return keywords.first { $0.bytes.count == word.count && $0.bytes.elementsEqual(word) }?.word
    }

    /// The name (`A.B.C`) after whitespace from `start`, and where it ends.
    private func qualifiedName(after start: Int) -> (parts: [String], end: Int)? {
        let count = code.count
        var index = start
        while index < count, SwiftCode.isWhitespace(code[index]) { index += 1 }
        guard index > start, index < count, SwiftCode.isIdentifierStart(code[index]) else { return nil }
        var parts: [String] = []
        while true {
            var end = index + 1
            while end < count, SwiftCode.isIdentifier(code[end]) { end += 1 }
            parts.append(String(decoding: code[index..<end], as: UTF8.self))
            if end + 1 < count, code[end] == UInt8(ascii: "."), SwiftCode.isIdentifierStart(code[end + 1]) {
                index = end + 1
            } else {
                return (parts, end)
            }
        }
    }

    /// The parameters of the list that opens at `start` (after `?`, `!` or generic
    /// parameters); `nil` when no list opens there.
    private func parameterList(from start: Int) -> [CodeIndex.Parameter]? {
        let count = code.count
        let (less, greater, minus) = (UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "-"))
        var index = start
        while index < count, [SwiftCode.space, UInt8(ascii: "\t"), UInt8(ascii: "?"), UInt8(ascii: "!")].contains(code[index]) { index += 1 }
        if index < count, code[index] == less {
            var depth = 0
            while index < count {
                if code[index] == less {
                    depth += 1
                } else if code[index] == greater, code[index - 1] != minus {
                    depth -= 1
                    if depth == 0 {
                        index += 1
                        break
                    }
                }
                index += 1
            }
            while index < count, code[index] == SwiftCode.space || code[index] == UInt8(ascii: "\t") { index += 1 }
        }
        guard index < count, code[index] == SwiftCode.openParenthesis else { return nil }
        let opening: Set<UInt8> = [UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"), less]
        let closing: Set<UInt8> = [UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}")]
        var pieces: [Range<Int>] = []
        var depth = 0
        var pieceStart = index + 1
        while index < count {
            let byte = code[index]
            if opening.contains(byte) {
                depth += 1
            } else if closing.contains(byte) || (byte == greater && code[index - 1] != minus) {
                depth -= 1
                if depth == 0 {
                    pieces.append(pieceStart..<index)
                    break
                }
            } else if byte == UInt8(ascii: ","), depth == 1 {
                pieces.append(pieceStart..<index)
                pieceStart = index + 1
            }
            index += 1
        }
        return pieces.compactMap { parameter($0) }
    }

    /// One parameter: its label (the first name before its `:`) and whether a default
    /// value follows its type.
    private func parameter(_ range: Range<Int>) -> CodeIndex.Parameter? {
        let piece = code[range]
        guard piece.contains(where: { !SwiftCode.isWhitespace($0) }) else { return nil }
        let colon = piece.firstIndex(of: UInt8(ascii: ":"))
        var label = "_"
        var index = range.lowerBound
        let nameEnd = colon ?? range.upperBound
        while index < nameEnd {
            if SwiftCode.isIdentifierStart(code[index]) {
                var end = index + 1
                while end < nameEnd, SwiftCode.isIdentifier(code[end]) { end += 1 }
                label = String(decoding: code[index..<end], as: UTF8.self)
                break
            }
            index += 1
        }
        // The type and what follows, with what is inside brackets blanked: a default is a
        // `=` at the top level that is no part of `==`, `!=`, `<=`, `>=` or `=>`.
        var rest: [UInt8] = []
        var depth = 0
        for byte in code[(colon.map { $0 + 1 } ?? range.upperBound)..<range.upperBound] {
            if [UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{")].contains(byte) {
                depth += 1
                rest.append(SwiftCode.space)
            } else if [UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}")].contains(byte) {
                depth -= 1
                rest.append(SwiftCode.space)
            } else {
                rest.append(depth == 0 ? byte : SwiftCode.space)
            }
        }
        let equals = UInt8(ascii: "=")
        let hasDefault = rest.indices.contains { position in
            guard rest[position] == equals else { return false }
            if position > 0, [equals, UInt8(ascii: "!"), UInt8(ascii: "<"), UInt8(ascii: ">")].contains(rest[position - 1]) { return false }
            if position + 1 < rest.count, [equals, UInt8(ascii: ">")].contains(rest[position + 1]) { return false }
            return true
        }
        return CodeIndex.Parameter(label: label, hasDefault: hasDefault)
    }
}
