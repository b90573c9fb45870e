// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "swift-atoms-linux",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Atoms", targets: ["Atoms"]),
        .library(name: "AtomsJournal", targets: ["AtomsJournal"]),
        .library(name: "AtomsInspector", targets: ["AtomsInspector"]),
        .executable(name: "atoms-inspect", targets: ["atoms-inspect"]),
        .executable(name: "sample-counter", targets: ["sample-counter"]),
        .executable(name: "sample-todo", targets: ["sample-todo"]),
        .executable(name: "sample-numpad", targets: ["sample-numpad"]),
        .executable(name: "sample-movies", targets: ["sample-movies"]),
    ],
    dependencies: [
        // Combine's API on Linux, for PublisherAtom and ObservableObjectAtom.
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        // Readable dumps of values that are not Codable, and value diffs.
        .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
        // The command line of atoms-inspect.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // Runs a closure on a fresh, large stack so that arbitrarily deep atom chains
        // (a user's `value(context:)` watching the next atom) never overflow the thread's stack.
        .target(name: "CAtomsStack"),
        .target(
            name: "Atoms",
            dependencies: [
                "CAtomsStack",
                .product(
                    name: "OpenCombine", package: "OpenCombine",
                    condition: .when(platforms: [.linux, .windows, .android, .wasi])
                ),
            ]
        ),
        .testTarget(name: "AtomsTests", dependencies: ["Atoms", "TestSupport"]),

        // The journal: records transactions to a versioned JSON Lines file and reads them back.
        .target(
            name: "AtomsJournal",
            dependencies: ["Atoms", .product(name: "CustomDump", package: "swift-custom-dump")]
        ),
        .testTarget(
            name: "AtomsJournalTests",
            dependencies: ["AtomsJournal", "Atoms", "TestSupport"],
            resources: [.copy("Journals")]
        ),

        // What the test targets share: temporary files, running built executables, gates.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // Headless Chromium over the DevTools pipe, for the report's browser tests and benchmark.
        .target(name: "BrowserSupport", path: "Tests/BrowserSupport"),

        // The inspector: everything atoms-inspect does, as plain functions.
        .target(
            name: "AtomsInspector",
            dependencies: ["AtomsJournal", "Atoms", .product(name: "CustomDump", package: "swift-custom-dump")],
            // The report page's JavaScript and CSS, embedded by Report/Web/embed.sh.
            exclude: ["Report/Web"]
        ),
        .executableTarget(
            name: "atoms-inspect",
            dependencies: ["AtomsInspector", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .testTarget(
            name: "AtomsInspectorTests",
            dependencies: ["AtomsInspector", "AtomsJournal", "Atoms", "TestSupport", "BrowserSupport"],
            // The report page's `node --test` tests, which ReportWebTests runs.
            exclude: ["Report/Web"],
            resources: [.copy("Golden")]
        ),

        // Fuzzing: what each target does with an input (replayed by the tests), and thin
        // executables that libFuzzer drives when built by Fuzz/run.sh (docs/FUZZING.md).
        .target(name: "AtomsFuzzTargets", dependencies: ["AtomsInspector", "AtomsJournal"]),
        .executableTarget(name: "fuzz-journal-reader", dependencies: ["AtomsFuzzTargets"]),
        .executableTarget(name: "fuzz-journal-summary", dependencies: ["AtomsFuzzTargets"]),
        .executableTarget(name: "fuzz-rules", dependencies: ["AtomsFuzzTargets"]),
        .executableTarget(name: "fuzz-step-commands", dependencies: ["AtomsFuzzTargets"]),
        .executableTarget(name: "fuzz-control-protocol", dependencies: ["AtomsFuzzTargets"]),
        .testTarget(name: "AtomsFuzzTargetsTests", dependencies: ["AtomsFuzzTargets"]),

        // Samples: small programs written the way a user writes atoms.
        .target(name: "SampleSupport", dependencies: ["Atoms", "AtomsJournal"], path: "samples/SampleSupport"),
        .executableTarget(name: "sample-counter", dependencies: ["Atoms", "SampleSupport"], path: "samples/Counter"),
        .executableTarget(name: "sample-todo", dependencies: ["Atoms", "SampleSupport"], path: "samples/Todo"),
        .executableTarget(name: "sample-numpad", dependencies: ["Atoms", "SampleSupport"], path: "samples/Numpad"),
        .executableTarget(name: "sample-movies", dependencies: ["Atoms", "SampleSupport"], path: "samples/Movies"),

        // Benchmarks: `swift run -c release atoms-bench`; never part of `swift test`.
        .executableTarget(name: "atoms-bench", dependencies: ["Atoms", "AtomsJournal", "AtomsInspector", "BrowserSupport"], path: "Benchmarks/AtomsBench"),
    ],
    swiftLanguageModes: [.v6]
)
