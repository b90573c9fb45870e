import Foundation

/// How long this run's tests wait: each wait's usual limit times ``factor``.
///
/// A test's limits are there so that it fails instead of hanging, never as a figure. Where the
/// whole run is slower, every limit is raised at once: ThreadSanitizer runs each instruction
/// several times over, and a loaded two-core machine shares its cores between the tests,
/// chromium and the programs they start. `ATOMS_TEST_PATIENCE=4` makes every wait four times
/// as long (`.ci/tsan-tests.sh` sets it); unset, or not a number of at least 1, it is 1.
public enum Patience {
    /// What every limit is multiplied by on this run.
    public static let factor: Double = {
        guard let text = ProcessInfo.processInfo.environment["ATOMS_TEST_PATIENCE"],
              let value = Double(text), value >= 1, value.isFinite
        else { return 1 }
        return value
    }()

    /// `seconds`, the usual limit, as this run waits it: raised no further than
    /// ``longestTestMinutes``, unless the usual limit is longer.
    public static func seconds(_ seconds: Double) -> Double {
        max(seconds, min(seconds * factor, Double(longestTestMinutes * 60)))
    }

    /// `minutes`, a test's usual time limit, as this run allows it (whole minutes, as
    /// `.timeLimit(.minutes(_:))` takes them), but no more than ``longestTestMinutes`` unless
    /// the usual limit is longer: a test that hangs must fail by name before the whole run's
    /// limit (`.ci/tsan-tests.sh`) stops everything.
    public static func minutes(_ minutes: Int) -> Int {
        max(minutes, min(Int((Double(minutes) * factor).rounded(.up)), longestTestMinutes))
    }

    /// The longest a raised test limit gets: well inside the sanitized run's 30 minutes.
    public static let longestTestMinutes = 20

    /// The instant `seconds` (the usual limit) from now, on this run.
    public static func deadline(after seconds: Double) -> ContinuousClock.Instant {
        ContinuousClock.now + .milliseconds(Int(Self.seconds(seconds) * 1000))
    }

    /// The date `seconds` (the usual limit) from now, on this run.
    public static func date(after seconds: Double) -> Date {
        Date().addingTimeInterval(Self.seconds(seconds))
    }
}
