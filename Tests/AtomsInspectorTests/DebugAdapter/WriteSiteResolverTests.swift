import Foundation
import Testing
import TestSupport
@testable import AtomsInspector

/// How a `#fileID` write site becomes a file under the source root.
struct WriteSiteResolverTests {
    @Test func aModuleIsItsTargetsPathInTheManifest() {
        let manifest = """
            let package = Package(targets: [
                .executableTarget(name: "sample-todo", dependencies: ["Atoms"], path: "samples/Todo"),
                .target(name: "Atoms", dependencies: [.product(name: "X", package: "y")]),
                .testTarget(name: "AtomsTests", dependencies: ["Atoms"]),
            ])
            """
        #expect(WriteSiteResolver.targets(inManifest: manifest) == [
            "sample_todo": "samples/Todo", "Atoms": "Sources/Atoms", "AtomsTests": "Tests/AtomsTests",
        ])
    }

    @Test func sitesResolveInThisPackageAndElsewhereByFolderName() throws {
        let resolver = WriteSiteResolver(root: DebugAdapterSessionTests.repository)
        #expect(resolver.path(forFileID: "sample_todo/main.swift") == DebugAdapterSessionTests.repository + "/samples/Todo/main.swift")
        #expect(resolver.path(forFileID: "AtomsInspector/DebugAdapter.swift") == DebugAdapterSessionTests.repository + "/Sources/AtomsInspector/DebugAdapter/DebugAdapter.swift")
        #expect(resolver.path(forFileID: "Nowhere/main.swift") == nil)
        #expect(WriteSiteResolver.split("sample_todo/main.swift:37")! == ("sample_todo/main.swift", 37))
        #expect(WriteSiteResolver.split("no line") == nil)

        // No manifest: a folder named after the module, else the only file of that name.
        let directory = try TemporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory.path("App/Sources/MyApp/Views"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory.path("Other"), withIntermediateDirectories: true)
        for file in ["App/Sources/MyApp/Views/main.swift", "Other/main.swift", "Other/Only.swift"] {
            try "".write(toFile: directory.path(file), atomically: true, encoding: .utf8)
        }
        let elsewhere = WriteSiteResolver(root: directory.path(""))
        #expect(elsewhere.path(forFileID: "MyApp/main.swift")?.hasSuffix("/App/Sources/MyApp/Views/main.swift") == true)
        #expect(elsewhere.path(forFileID: "Anything/Only.swift")?.hasSuffix("/Other/Only.swift") == true)
        #expect(elsewhere.path(forFileID: "Unknown/main.swift") == nil, "two candidates, neither in the module's folder")
    }
}
