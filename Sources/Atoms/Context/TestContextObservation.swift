/// Who hears of each ``AtomTestContext`` created in the current task: a journal recording the
/// test's contexts (AtomsTesting's `.atomJournal` trait) binds it for the test's duration.
package enum TestContextObservation {
    /// Called with each test context as it is created; `nil` (nothing recorded) by default.
    @TaskLocal package static var didCreate: (@MainActor @Sendable (AtomTestContext) -> Void)?

    /// Whether contexts created now are kept from ``didCreate`` (a shrink's trial contexts,
    /// which are the shrink's own): a flag, cheaper to bind than a closure to clear.
    @TaskLocal package static var isPaused = false
}

/// Something that records a test context: told as the last copy of the context goes away,
/// before the context's watches are released, so that the record ends at the state the test
/// left rather than at the releases that tear it down.
@MainActor
package protocol TestContextRecording: AnyObject {
    /// Called once, as the context goes away.
    func contextWillEnd()
}
