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

/// The folder an export writes: created when missing; an existing one that holds anything is
/// refused unless forced, so an export never mixes its tables with files already there.
enum ExportDirectory {
    /// Makes `path` ready for an export's tables.
    ///
    /// - Parameter force: Accept a folder that holds files: the tables of an earlier export
    ///   (in any format) are removed, anything else is left alone.
    /// - Throws: ``InspectorError`` with status 73 when the folder cannot be used.
    static func prepare(_ path: String, force: Bool) throws(InspectorError) {
        var status = stat()
        guard stat(path, &status) == 0 else {
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            } catch {
                throw InspectorError(.cannotCreate, path: path, "cannot create the output folder: \(Self.reason(error)) — choose another -o folder")
            }
            return
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw InspectorError(.cannotCreate, path: path, "the output exists and is not a folder — choose a new -o folder")
        }
        let contents: [String]
        do {
            contents = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw InspectorError(.cannotCreate, path: path, "cannot list the output folder: \(Self.reason(error)) — choose another -o folder")
        }
        guard !contents.isEmpty else { return }
        guard force else {
            throw InspectorError(.cannotCreate, path: path, "the output folder is not empty — choose a new folder, or pass --force to replace the tables in it")
        }
        for table in ExportTable.allCases {
            for format in ExportFormat.allCases where contents.contains(table.fileName(format)) {
                let file = path + "/" + table.fileName(format)
                do {
                    try FileManager.default.removeItem(atPath: file)
                } catch {
                    throw InspectorError(.cannotCreate, path: file, "cannot remove an earlier export's table: \(Self.reason(error)) — remove it, or choose a new -o folder")
                }
            }
        }
    }

    private static func reason(_ error: any Error) -> String {
        let posix = (error as? CocoaError)?.underlying as? POSIXError ?? error as? POSIXError
        return posix.map { String(cString: strerror($0.code.rawValue)).lowercased() } ?? "\(error)"
    }
}
