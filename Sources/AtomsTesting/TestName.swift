import Atoms
import Testing

/// The name a test's journal takes: the current Swift Testing test's module, suites and
/// function (`TodoTests.FilterTests.completed`), or the context's file and line outside one.
enum TestName {
    static func current(creatingAt location: Atoms.SourceLocation) -> String {
        guard let test = Test.current else {
            let file = location.fileID.split(separator: "/").last.map(String.init) ?? location.fileID
            return fileSafe("\(file.replacingOccurrences(of: ".swift", with: ""))-\(location.line)")
        }
        let components = [test.id.moduleName] + test.id.nameComponents.map { component in
            // `increment()` and `add(_:)` name a function; the file name needs only its base.
            component.firstIndex(of: "(").map { String(component[..<$0]) } ?? component
        }
        return fileSafe(components.joined(separator: "."))
    }

    /// Letters, digits, `.`, `-` and `_` kept; anything else becomes `_`.
    static func fileSafe(_ name: String) -> String {
        String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "_" })
    }
}
