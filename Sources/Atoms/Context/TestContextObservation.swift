/// Who hears of each ``AtomTestContext`` created in the current task: a journal recording the
/// test's contexts (AtomsTesting's `.atomJournal` trait) binds it for the test's duration.
package enum TestContextObservation {
    /// Called with each test context as it is created; `nil` (nothing recorded) by default.
    @TaskLocal package static var didCreate: (@MainActor @Sendable (AtomTestContext) -> Void)?
}
