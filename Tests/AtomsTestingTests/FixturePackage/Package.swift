// swift-tools-version: 6.2
// A user's test package, run by FixturePackageTests through `swift test`: one test fails on
// purpose and must leave exactly one journal; the others pass and leave none, or record
// always to show that journals of tests running side by side never mix; a recorded session
// replays against the same atoms (passes) and a miscounting stats atom (fails on purpose).
import PackageDescription

let package = Package(
    name: "journal-fixture",
    dependencies: [.package(name: "swift-atoms-linux", path: "../../..")],
    targets: [
        .testTarget(
            name: "JournalFixtureTests",
            dependencies: [
                .product(name: "Atoms", package: "swift-atoms-linux"),
                .product(name: "AtomsTesting", package: "swift-atoms-linux"),
                // The replay tests record their session as an app does.
                .product(name: "AtomsJournal", package: "swift-atoms-linux"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
