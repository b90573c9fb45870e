/// A place in source code from which atoms are used: a file (`#fileID`) and a line.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// The file, as `#fileID` spells it (`Module/File.swift`).
    public let fileID: String
    /// The line in that file.
    public let line: UInt

    /// Creates a location; the defaults capture the caller's position.
    public init(fileID: String = #fileID, line: UInt = #line) {
        self.fileID = fileID
        self.line = line
    }

    /// `fileID:line`.
    public var description: String {
        "\(fileID):\(line)"
    }
}
