// swift-tools-version: 6.2
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "swift-atoms-linux",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Atoms", targets: ["Atoms"]),
        .library(name: "AtomsJournal", targets: ["AtomsJournal"]),
        .library(name: "AtomsJournalMacros", targets: ["AtomsJournalMacros"]),
        .library(name: "AtomsTesting", targets: ["AtomsTesting"]),
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
        // Counts allocations per thread, for the test that recording allocates nothing on the
        // app's thread (journal-allocations, run with the library preloaded).
        .package(url: "https://github.com/ordo-one/malloc-interposer", from: "1.6.1"),
        // The `@JournalRecordable` macro (its own product, so that only code using it builds
        // swift-syntax).
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
    ],
    targets: [
        // Runs a closure on a fresh, large stack so that arbitrarily deep atom chains
        // (a user's `value(context:)` watching the next atom) never overflow the thread's stack.
        .target(name: "CAtomsStack"),
        // Graphviz DOT text in the upstream `graphDescription()` layout: what the runtime's
        // graph description and the journal reader's both write.
        .target(name: "AtomsDOT"),
        .target(
            name: "Atoms",
            dependencies: [
                "CAtomsStack",
                "AtomsDOT",
                .product(
                    name: "OpenCombine", package: "OpenCombine",
                    condition: .when(platforms: [.linux, .windows, .android, .wasi])
                ),
            ]
        ),
        .testTarget(name: "AtomsTests", dependencies: ["Atoms", "AtomsDOT", "TestSupport"]),

        // The journal's format and its reader: lines, values, files, the state at a step. Needs
        // neither the runtime nor CustomDump, and no more of Foundation than FoundationEssentials.
        .target(name: "AtomsJournalReader", dependencies: ["AtomsDOT"]),
        // The journal: records a live store's transactions to a versioned JSON Lines file and
        // restores recorded values into a store; re-exports AtomsJournalReader.
        .target(
            name: "AtomsJournal",
            dependencies: ["Atoms", "AtomsJournalReader", .product(name: "CustomDump", package: "swift-custom-dump")]
        ),
        .testTarget(
            name: "AtomsJournalTests",
            dependencies: ["AtomsJournal", "AtomsJournalReader", "Atoms", "TestSupport"],
            resources: [.copy("Journals")]
        ),

        // `@JournalRecordable`: a struct's journal encoding and diffing written by the compiler.
        .macro(
            name: "AtomsJournalMacrosPlugin",
            dependencies: [
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        .target(name: "AtomsJournalMacros", dependencies: ["AtomsJournal", "AtomsJournalMacrosPlugin"]),
        .testTarget(
            name: "AtomsJournalMacrosTests",
            dependencies: [
                "AtomsJournalMacrosPlugin", "AtomsJournalMacros", "AtomsJournal", "Atoms", "TestSupport",
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
            ]
        ),

        // What the test targets share: temporary files, running built executables, gates.
        .target(name: "TestSupport", dependencies: ["CAtomsSpawn"], path: "Tests/TestSupport"),
        // Headless Chromium over the DevTools pipe, for the report's browser tests and benchmark.
        .target(name: "BrowserSupport", dependencies: ["TestSupport"], path: "Tests/BrowserSupport"),

        // Starting a program that inherits no descriptor but those it is given (glibc's
        // close-from file action, which Swift's Glibc module does not declare).
        .target(name: "CAtomsSpawn"),
        // The inspector: everything atoms-inspect does, as plain functions over the reader; not
        // a product (its declarations are `package`).
        .target(
            name: "AtomsInspector",
            dependencies: ["AtomsJournalReader", "CAtomsSpawn"],
            // The report page's JavaScript and CSS, embedded by Report/Web/embed.sh.
            exclude: ["Report/Web"]
        ),
        .executableTarget(
            name: "atoms-inspect",
            dependencies: ["AtomsInspector", "AtomsJournalReader", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            // The Swift runtime and FoundationEssentials linked in, in release builds on Linux:
            // only the code used is loaded, not whole shared libraries, which halves the
            // resident size of a short run (docs/PERFORMANCE.md, R7v).
            linkerSettings: [.unsafeFlags(["-static-stdlib", "-l_FoundationCollections", "-l_FoundationCShims"], .when(platforms: [.linux], configuration: .release))]
        ),
        .testTarget(
            name: "AtomsInspectorTests",
            dependencies: ["AtomsInspector", "AtomsJournalReader", "AtomsJournal", "Atoms", "TestSupport", "BrowserSupport"],
            // The report page's `node --test` tests, which ReportWebTests runs; the Debug
            // Adapter Protocol's schema and its validator, which the DebugAdapter tests run.
            exclude: ["Report/Web", "DebugAdapter/Schema", "DebugAdapter/debugpy_client.py"],
            resources: [.copy("Golden")]
        ),

        // Tests that record: AtomTestContext's journal, kept when a test fails (the
        // `.atomJournal` trait), and checks on it in the rules language of `atoms-inspect check`.
        .target(name: "AtomsTesting", dependencies: ["Atoms", "AtomsJournal", "AtomsInspector"]),
        .testTarget(
            name: "AtomsTestingTests",
            // The samples: `Generated/` replays their shipped journals against their atoms, as
            // `atoms-inspect replay-test` writes the tests.
            dependencies: ["AtomsTesting", "AtomsInspector", "AtomsJournal", "Atoms", "TestSupport", "SampleTodo", "SampleCounter", "SampleNumpad", "SampleMovies"],
            // A test package of its own, run through `swift test` by FixturePackageTests.
            exclude: ["FixturePackage"]
        ),

        // Fuzzing: what each target does with an input (replayed by the tests), and one thin
        // executable for all of them, which libFuzzer drives when built by Fuzz/run.sh
        // (docs/FUZZING.md): one build and one link for every target.
        .target(name: "AtomsFuzzTargets", dependencies: ["AtomsInspector", "AtomsJournal"]),
        .executableTarget(name: "atoms-fuzz", dependencies: ["AtomsFuzzTargets"]),
        .testTarget(name: "AtomsFuzzTargetsTests", dependencies: ["AtomsFuzzTargets"]),

        // Samples: small programs written the way a user writes atoms. Each sample's atoms are a
        // library (`samples/NAME/Atoms`) that its thin executable and the replay tests import:
        // a test cannot import an executable's module.
        .target(name: "SampleSupport", dependencies: ["Atoms", "AtomsJournal"], path: "samples/SampleSupport"),
        .target(name: "SampleCounter", dependencies: ["Atoms"], path: "samples/Counter/Atoms"),
        .target(name: "SampleTodo", dependencies: ["Atoms", "AtomsJournalMacros"], path: "samples/Todo/Atoms"),
        .target(name: "SampleNumpad", dependencies: ["Atoms"], path: "samples/Numpad/Atoms"),
        .target(name: "SampleMovies", dependencies: ["Atoms", "AtomsJournalMacros"], path: "samples/Movies/Atoms"),
        .executableTarget(name: "sample-counter", dependencies: ["Atoms", "SampleCounter", "SampleSupport"], path: "samples/Counter", exclude: ["Atoms"]),
        .executableTarget(name: "sample-todo", dependencies: ["Atoms", "SampleTodo", "SampleSupport"], path: "samples/Todo", exclude: ["Atoms"]),
        .executableTarget(name: "sample-numpad", dependencies: ["Atoms", "SampleNumpad", "SampleSupport"], path: "samples/Numpad", exclude: ["Atoms"]),
        .executableTarget(name: "sample-movies", dependencies: ["Atoms", "SampleMovies", "SampleSupport"], path: "samples/Movies", exclude: ["Atoms"]),

        // Benchmarks: `swift run -c release atoms-bench`; never part of `swift test`.
        .executableTarget(name: "atoms-bench", dependencies: ["Atoms", "AtomsJournal", "AtomsJournalMacros", "AtomsInspector", "AtomsTesting", "BrowserSupport"], path: "Benchmarks/AtomsBench"),
        // What atoms-bench measures atoms-inspect's peak RSS with (a fork from a small process).
        .executableTarget(name: "peak-rss", path: "Benchmarks/PeakRSS"),
        // Allocations per transaction on the app's thread and the others, journal off and on.
        .executableTarget(
            name: "journal-allocations",
            // Not the macro: its release build would build swift-syntax too (RecordableSettings.swift).
            dependencies: ["Atoms", "AtomsJournal", .product(name: "MallocInterposerSwift", package: "malloc-interposer")],
            path: "Benchmarks/JournalAllocations"
        ),
    ],
    swiftLanguageModes: [.v6]
)
