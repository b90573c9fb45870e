import AtomsJournalReader
import Foundation
import Testing
import TestSupport

/// The built `atoms-inspect` links what it uses: FoundationEssentials at most, not Foundation
/// with its networking (libcurl, OpenSSL, Kerberos, LDAP) and ICU data.
struct LinkedLibrariesTests {
    #if os(Linux)
    @Test func atomsInspectNeedsNoMoreThanFoundationEssentials() throws {
        let path = try #require(BuiltProducts.executable("atoms-inspect"), "atoms-inspect is built")
        let needed = try Self.neededLibraries(of: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(needed.contains("libswiftCore.so"), "the libraries read are the binary's: \(needed)")
        let forbidden = ["libFoundation.so", "libFoundationNetworking.so", "libFoundationInternationalization.so", "lib_FoundationICU.so", "libcurl"]
        let linked = needed.filter { library in forbidden.contains { library.hasPrefix($0) } }
        #expect(linked.isEmpty, "atoms-inspect needs \(needed)")
    }
    #endif

    /// The library reads journals and installs no SIGBUS handler: a signal handler is the
    /// process's business, not that of a library apps link.
    @Test func theLibraryAloneInstallsNoBusErrorHandler() throws {
        /// The handler (the first field, on Linux and Darwin alike) and the flags; the rest of
        /// the mask is not written by every C library.
        func busAction() -> [Int] {
            var action = sigaction()
            #expect(sigaction(SIGBUS, nil, &action) == 0)
            let handler = withUnsafeBytes(of: &action) { $0.load(as: Int.self) }
            return [handler, Int(action.sa_flags)]
        }
        let before = busAction()
        let journal = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../samples/journals/counter.jsonl").standardized.path
        let reader = try JournalReader(path: journal)
        _ = try reader.transaction(reader.lastStep, decodingValuesOf: nil)
        #expect(busAction() == before, "reading a journal changed the SIGBUS action")
    }

    /// The `DT_NEEDED` entries of a 64-bit little-endian ELF file: the libraries it names.
    static func neededLibraries(of file: Data) throws -> [String] {
        let bytes = [UInt8](file)
        func integer(_ offset: Int, _ size: Int) throws -> Int {
            guard offset >= 0, offset + size <= bytes.count else { throw ELFError.truncated }
            return (0..<size).reversed().reduce(0) { $0 << 8 | Int(bytes[offset + $1]) }
        }
        guard bytes.starts(with: [0x7F, 0x45, 0x4C, 0x46, 2, 1]) else { throw ELFError.notELF64LittleEndian }
        let sectionTable = try integer(0x28, 8)
        let sectionSize = try integer(0x3A, 2)
        let sectionCount = try integer(0x3C, 2)
        let sections = try (0..<sectionCount).map { index in
            let header = sectionTable + index * sectionSize
            return (type: try integer(header + 4, 4), offset: try integer(header + 0x18, 8), size: try integer(header + 0x20, 8), link: try integer(header + 0x28, 4))
        }
        // SHT_DYNAMIC = 6; its sh_link is the string table its names point into.
        guard let dynamic = sections.first(where: { $0.type == 6 }), dynamic.link < sections.count else { return [] }
        let strings = sections[dynamic.link].offset
        var needed: [String] = []
        for entry in stride(from: dynamic.offset, to: dynamic.offset + dynamic.size, by: 16) {
            let tag = try integer(entry, 8)
            if tag == 0 { break }  // DT_NULL
            if tag == 1 {  // DT_NEEDED
                let start = strings + (try integer(entry + 8, 8))
                guard let end = bytes[start...].firstIndex(of: 0) else { throw ELFError.truncated }
                needed.append(String(decoding: bytes[start..<end], as: UTF8.self))
            }
        }
        return needed
    }

    enum ELFError: Error {
        case notELF64LittleEndian
        case truncated
    }
}
