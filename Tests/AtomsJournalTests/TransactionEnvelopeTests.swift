import Foundation
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

/// The byte-speed envelope reader `stats` uses never accepts a line the general reader
/// rejects, and reads the same step, cause and atoms from the lines it accepts.
struct TransactionEnvelopeTests {
    private static let lines = [
        #"[1,0.5,"set",0,1,[[1,"v",1],[2,"v",false]]]"#,
        #"[2,12.25,"modify",3,2,[[1,"="],[2,"v",-0.125e2],[3,"v",null]]]"#,
        #"[3,7,"reset",0,0,[]]"#,
        #"[4,8.5,"set",1,1,[[4,"v","text"],[5,"d",["o",{"a":1}]]]]"#,
        #"[5,9,"initialize",0,1,[[6,"v",[]]],{"created":[6]}]"#,
        #"[6,10,"set",0,1,[{"id":7,"dump":"x"}]]"#,
        #"[7,11.125,"set",0,1,[[1,"v",123456789012345678]]]"#,
    ]

    /// What the general reader makes of a line: its step, cause and atoms, or `nil`.
    private func general(_ raw: UnsafeRawBufferPointer) -> (Int, String, [Int])? {
        guard let line = try? TransactionLine(bytes: raw, range: 0..<raw.count, version: 4) else { return nil }
        return (line.seq, line.cause, line.values.map(\.id))
    }

    @Test func acceptsOnlyWhatTheGeneralReaderAcceptsOnMutatedLines() {
        var random = SeededGenerator(seed: 20261125)
        let alphabet = Array("[]{}\",:0123456789-+.eEtruefalsn \\=vd".utf8)
        let ids = UnsafeMutablePointer<Int>.allocate(capacity: TransactionEnvelope.idCapacity)
        defer { ids.deallocate() }
        var accepted = 0
        for round in 0..<40_000 {
            var bytes = Array(Self.lines[round % Self.lines.count].utf8)
            for _ in 0..<(1 + Int(random.next() % 3)) {
                let position = Int(random.next() % UInt64(bytes.count + 1))
                let byte = alphabet[Int(random.next() % UInt64(alphabet.count))]
                switch random.next() % 3 {
                case 0 where position < bytes.count: bytes[position] = byte
                case 1 where position < bytes.count: bytes.remove(at: position)
                default: bytes.insert(byte, at: position)
                }
            }
            bytes.withUnsafeBytes { raw in
                var count = 0
                guard let envelope = TransactionEnvelope.read(raw, 0..<raw.count, version: 4, ids: ids, count: &count) else { return }
                accepted += 1
                guard let (seq, cause, atoms) = general(raw) else {
                    Issue.record("accepted a line the general reader rejects: \(String(decoding: raw, as: UTF8.self))")
                    return
                }
                #expect(envelope.seq == seq)
                #expect(String(decoding: UnsafeRawBufferPointer(rebasing: raw[envelope.cause]), as: UTF8.self) == cause)
                #expect(Array(UnsafeBufferPointer(start: ids, count: count)) == atoms)
            }
        }
        #expect(accepted > 1_000, "mutated lines in the common shape were read")
    }

    @Test func leavesUnusualLinesToTheGeneralReader() {
        let ids = UnsafeMutablePointer<Int>.allocate(capacity: TransactionEnvelope.idCapacity)
        defer { ids.deallocate() }
        let unusual = Self.lines[3...5] + [#"[1, 0.5,"set",0,1,[]]"#, #"[1,1e3,"set",0,1,[]]"#, #"[1,0.5,"s\"et",0,1,[]]"#]
        for line in unusual {
            var count = 0
            let read = Array(line.utf8).withUnsafeBytes { TransactionEnvelope.read($0, 0..<$0.count, version: 4, ids: ids, count: &count) }
            #expect(read == nil, "\(line)")
        }
    }
}
