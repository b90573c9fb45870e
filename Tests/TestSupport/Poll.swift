/// Waits for a condition nothing signals (a file another process writes, a count another
/// thread raises): checks it, and sleeps between checks, so the wait holds no thread.
public enum Poll {
    /// Checks `condition` every `interval` until it holds; `false` when `timeout` seconds pass
    /// first (or the task is cancelled).
    public static nonisolated(nonsending) func until(
        timeout: Double,
        every interval: Duration = .milliseconds(5),
        _ condition: () throws -> Bool
    ) async rethrows -> Bool {
        let deadline = Patience.deadline(after: timeout)
        while true {
            if try condition() {
                return true
            }
            guard ContinuousClock.now < deadline, (try? await Task.sleep(for: interval)) != nil else {
                return false
            }
        }
    }
}
