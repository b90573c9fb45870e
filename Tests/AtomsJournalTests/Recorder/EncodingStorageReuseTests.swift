import Foundation
import Testing
@testable import AtomsJournal

/// A value written at every transaction encodes into the storage of the encoding it replaced
/// (``CompactJSONEncoder/recycle(bytes:members:)``), with no allocation; a large encoding's
/// storage is not kept, so that a small value encoded next does not hold it.
struct EncodingStorageReuseTests {
    struct Settings: Codable, Equatable {
        var volume: Int
        var name: String
    }

    @Test func aSmallEncodingLendsItsStorageToTheNext() throws {
        let encoder = CompactJSONEncoder()
        var first = try encoder.encode(Settings(volume: 1, name: "a"))
        let storage = first.bytes.withUnsafeBufferPointer { $0.baseAddress }
        let membersStorage = first.members?.withUnsafeBufferPointer { $0.baseAddress }
        encoder.recycle(bytes: &first.bytes, members: &first.members)
        let second = try encoder.encode(Settings(volume: 2, name: "b"))
        #expect(second.bytes.withUnsafeBufferPointer { $0.baseAddress } == storage)
        #expect(second.members?.withUnsafeBufferPointer { $0.baseAddress } == membersStorage)
        #expect(String(decoding: second.bytes, as: UTF8.self) == #"{"volume":2,"name":"b"}"#)
        #expect(second.members?.count == 2)
    }

    @Test func aLargeEncodingIsNotKeptForTheNext() throws {
        let encoder = CompactJSONEncoder()
        var large = try encoder.encode(Array(0..<10_000))
        #expect(large.bytes.capacity > 16 << 10)
        encoder.recycle(bytes: &large.bytes, members: &large.members)
        let small = try encoder.encode(Settings(volume: 3, name: "c"))
        #expect(small.bytes.capacity <= 4 << 10, "a small value does not hold a large buffer: \(small.bytes.capacity) bytes")
    }

    @Test func theRecorderKeepsEveryValueAsWrittenWhileReusingStorage() throws {
        // Values of different sizes one after another through one encoder, each kept (as the
        // mirror keeps them) and its predecessor recycled: none is changed by the reuse.
        let encoder = CompactJSONEncoder()
        var kept: [(value: Settings, bytes: [UInt8])] = []
        var previous: CompactJSONEncoder.Output?
        for index in 0..<200 {
            let value = Settings(volume: index, name: String(repeating: "x", count: index % 37))
            let output = try encoder.encode(value)
            if var old = previous {
                encoder.recycle(bytes: &old.bytes, members: &old.members)
            }
            kept.append((value, output.bytes))
            previous = output
        }
        for entry in kept {
            #expect(try JSONDecoder().decode(Settings.self, from: Data(entry.bytes)) == entry.value)
        }
    }
}
