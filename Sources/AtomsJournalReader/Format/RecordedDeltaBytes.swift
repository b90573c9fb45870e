/// Some atoms' recorded deltas in one transaction, as the bytes the journal holds them in.
///
/// A replay compares a checked atom's recorded delta with the delta the recorder's differ
/// writes today: the two are written by the same code, so they are almost always the same
/// bytes, and comparing bytes costs nothing like building a ``JSONValue`` to compare with.
/// Only where the bytes differ is the recorded delta parsed, to compare as JSON.
package struct RecordedDeltaBytes: Sendable {
    private var bytes: [UInt8] = []
    private var entries: [(id: Int, range: Range<Int>)] = []

    /// Holds none.
    package init() {}

    /// Whether it holds none.
    package var isEmpty: Bool { entries.isEmpty }

    /// Forgets every delta held, keeping the storage for the next transaction.
    package mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
    }

    /// Keeps the delta of atom `id` found at `range` of a line's bytes.
    mutating func append(id: Int, from raw: UnsafeRawBufferPointer, range: Range<Int>) {
        let start = bytes.count
        bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[range]))
        entries.append((id, start..<bytes.count))
    }

    /// The recorded delta of atom `id`, or `nil` when it holds none of it.
    package func delta(of id: Int) -> ArraySlice<UInt8>? {
        for entry in entries where entry.id == id {
            return bytes[entry.range]
        }
        return nil
    }
}
