import Atoms

/// Counts events from atoms under test; a class so atoms (which must be Sendable) can share it
/// through a global registry keyed by name.
@MainActor
final class Probe {
    private(set) var events: [String] = []
    private var counts: [String: Int] = [:]

    func record(_ event: String) {
        events.append(event)
        counts[event, default: 0] += 1
    }

    func count(_ event: String) -> Int {
        counts[event, default: 0]
    }

    func reset() {
        events = []
        counts = [:]
    }
}

/// Probes shared with atoms, one per test (atoms carry the probe's name in their key).
@MainActor
enum Probes {
    private static var probes: [String: Probe] = [:]

    static func make(_ name: String = #function) -> Probe {
        let probe = Probe()
        probes[name] = probe
        return probe
    }

    static func named(_ name: String) -> Probe {
        probes[name] ?? make(name)
    }
}
