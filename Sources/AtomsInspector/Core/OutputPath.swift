import AtomsJournalReader

/// A command's output file (`-o`, `--junit`).
package enum OutputPath {
    /// Writes the bytes where `path` points (see ``OutputFile``): exit status 73 when the path
    /// cannot be written, 74 when writing fails.
    package static func write(_ bytes: some Collection<UInt8>, to path: String) throws(InspectorError) {
        do {
            try OutputFile.write(bytes, to: path)
        } catch {
            throw InspectorError(error)
        }
    }
}
