/// A moment inside a bounded journal's segment rotation (`SegmentWriter.startSegment(opening:)`),
/// where a test can act: pause so that a kill lands there, or copy the folder as a crash
/// would leave it.
package enum SegmentRotationMoment: Sendable, Equatable {
    /// The segment's temporary file holds its opening lines; it is not renamed yet.
    case temporaryWritten(segment: Int)
    /// The segment was renamed into place; the oldest segments are not deleted yet.
    case renamed(segment: Int)
}

/// Called on the sink's writer thread at each ``SegmentRotationMoment``; the rotation goes on
/// when it returns. Set only by tests, through the `package` initialiser of
/// ``FileJournalSink``: a recording program never has one.
package typealias SegmentRotationHook = @Sendable (SegmentRotationMoment) -> Void
