import Atoms
import AtomsTesting
import Foundation
import Testing

/// Tests that run side by side, each writing its own marker between suspensions; every
/// journal is kept (in the folder `FIXTURE_ALWAYS_JOURNALS` names) so the test driving this
/// package can see that none holds another test's marker.
@Suite(.atomJournal(.always(in: ProcessInfo.processInfo.environment["FIXTURE_ALWAYS_JOURNALS"] ?? "always-journals")))
@MainActor
struct SideBySideTests {
    @Test(arguments: 0..<4)
    func writesItsCaseMarker(index: Int) async {
        await write("case-\(index)")
    }

    @Test func alpha() async {
        await write("alpha")
    }

    @Test func beta() async {
        await write("beta")
    }

    private func write(_ marker: String) async {
        let context = AtomTestContext()
        context.watch(MarkerAtom())
        for round in 0..<5 {
            context[MarkerAtom()] = "\(marker) \(round)"
            await Task.yield()
            try? await Task.sleep(for: .milliseconds(2))
        }
    }
}
