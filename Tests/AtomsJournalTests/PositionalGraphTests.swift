import Atoms
import Foundation
import Testing
import TestSupport
@testable import AtomsJournal
@testable import AtomsJournalReader

/// Graph changes as format 4.4 writes them: positional lists, each declared type written once
/// as a location line and named by its number.
@MainActor
struct PositionalGraphTests {
    struct MemberAtom: StateAtom {
        let id: Int
        var key: Int { id }
        func defaultValue(context: Context) -> Int { id }
    }

    struct TotalAtom: ValueAtom, Hashable {
        func value(context: Context) -> Int { context.watch(MemberAtom(id: 0)) }
    }

    @Test(arguments: [
        ("App.UserAtom", nil, "UserAtom"),
        ("App.Outer.Inner", nil, "Inner"),
        ("Atoms.ModifiedAtom<App.QueryAtom, Atoms.DebounceModifier<Swift.String>>", nil, "ModifiedAtom<QueryAtom, DebounceModifier<String>>"),
        ("App.PairAtom<Swift.Optional<Swift.Int>, Swift.Array<App.Item>>", 3, "PairAtom<Optional<Int>, Array<Item>> scope:3"),
        ("Plain", nil, "Plain"),
    ] as [(String, Int?, String)])
    func aTypeNameGivesTheLabelDescribingPrints(type: String, scope: Int?, label: String) {
        #expect(AtomDeclaration.label(ofType: type, scope: scope) == label)
    }

    /// The labels the runtime gives real types are the ones their names give, so a recorded
    /// declaration leaves its label out.
    @Test func theRuntimeLabelsOfOrdinaryTypesAreTheOnesTheirNamesGive() {
        for (label, type) in [
            (String(describing: MemberAtom.self), String(reflecting: MemberAtom.self)),
            (String(describing: ModifiedAtom<TotalAtom, ChangesModifier<Int>>.self), String(reflecting: ModifiedAtom<TotalAtom, ChangesModifier<Int>>.self)),
        ] {
            #expect(AtomDeclaration.label(ofType: type, scope: nil) == label)
        }
    }

    @Test(arguments: [
        ("[[[1]]]", "a declaration has no type"),
        ("[[[1,2,null,null,null,9]]]", "more than five elements"),
        ("[[0]]", "atom 0 is created or released"),
        ("[[-9223372036854775808]]", "is created or released"),
        ("[[],[1,-9223372036854775808]]", "a subscription refers to"),
        ("[[],[],[1,-9223372036854775808]]", "an edge refers to"),
        ("[[[0,2]]]", "a declaration names atom 0"),
        ("[[],[],[],[[-5,2]]]", "a declaration names atom -5"),
        ("[[[5,0]]]", "or type 0"),
        ("[[],[1,2,3]]", "the subscriptions list has an odd number of elements"),
        ("[[],[],[1,2,3]]", "the edges list has an odd number of elements"),
        ("[[],[],[0,2]]", "an edge refers to atom 0"),
        ("[[],[2,0]]", "a subscription refers to atom 2 or location 0"),
        ("[[],[-2,1]]", "a subscription refers to atom -2"),
        ("[[],[],[],[3]]", "expected '['"),
        ("[[[1,\"2\"]]]", "integer"),
    ])
    func malformedPositionalChangesAreErrors(json: String, reason: String) {
        #expect {
            let bytes = Array(json.utf8)
            _ = try bytes.withUnsafeBytes { raw in
                var scanner = JSONScanner(raw)
                return try TransactionLine.GraphChanges(scanningPositional: &scanner)
            }
        } throws: { error in
            (error as? JSONScanner.SyntaxError)?.message.contains(reason) == true
        }
    }

    /// A created atom declared here is written in the lifecycle list; one only declared
    /// (an edge's atom after a keyframe left it out) in the last list; signs say what was
    /// removed.
    @Test func signsSplitEachListIntoWhatWasAddedAndWhatWasRemoved() throws {
        let bytes = Array(#"[[[7,2,"k"],8,-5],[7,3,5,-3],[1,7,1,-6],[[9,2,null,"Other",4]],["later"]]"#.utf8)
        let changes = try bytes.withUnsafeBytes { raw in
            var scanner = JSONScanner(raw)
            return try TransactionLine.GraphChanges(scanningPositional: &scanner)
        }
        #expect(changes.declare == [
            TransactionLine.Declaration(id: 7, type: .number(2), label: nil, key: "k", scope: nil),
            TransactionLine.Declaration(id: 9, type: .number(2), label: "Other", key: nil, scope: 4),
        ])
        #expect(changes.created == [7, 8] && changes.released == [5])
        #expect(changes.edgesAdded == [EdgeEntry(from: 1, to: 7)] && changes.edgesRemoved == [EdgeEntry(from: 1, to: 6)])
        #expect(changes.subsAdded == [.init(atom: 7, location: .number(3))] && changes.subsRemoved == [.init(atom: 5, location: .number(3))])
        // Written back byte for byte, but for the list a later version added.
        var graph = PositionalGraph()
        graph.declare = [.init(id: 7, type: 2, key: "k", label: nil, scope: nil), .init(id: 9, type: 2, key: nil, label: "Other", scope: 4)]
        (graph.created, graph.released) = ([7, 8], [5])
        (graph.edgesAdded, graph.edgesRemoved) = ([EdgeEntry(from: 1, to: 7)], [EdgeEntry(from: 1, to: 6)])
        (graph.subsAdded, graph.subsRemoved) = ([(7, 3)], [(5, 3)])
        var written: [UInt8] = []
        graph.append(to: &written)
        #expect(String(decoding: written, as: UTF8.self) == #"[[[7,2,"k"],8,-5],[7,3,5,-3],[1,7,1,-6],[[9,2,null,"Other",4]]]"#)
    }

    /// Any graph changes a recorder can give (created and released atoms apart, declarations
    /// in the order of their numbers, some of created atoms and some not) read back as they
    /// were written.
    @Test func randomGraphChangesReadBackAsWritten() throws {
        var random = SeededGenerator(seed: 44)
        for _ in 0..<500 {
            var ids = Array(1...40).shuffled(using: &random)
            func take(_ count: Int) -> [Int] {
                defer { ids.removeFirst(min(count, ids.count)) }
                return Array(ids.prefix(count))
            }
            var graph = PositionalGraph()
            graph.created = take(Int.random(in: 0...4, using: &random))
            graph.released = take(Int.random(in: 0...4, using: &random))
            let declaredOnly = take(Int.random(in: 0...2, using: &random))
            let declared = (graph.created.filter { _ in Bool.random(using: &random) } + declaredOnly).sorted()
            graph.declare = declared.map { id in
                PositionalGraph.Declaration(
                    id: id, type: Int.random(in: 1...5, using: &random), key: Bool.random(using: &random) ? "k\(id)" : nil,
                    label: Bool.random(using: &random) ? "L\"\(id)" : nil, scope: Bool.random(using: &random) ? id % 3 : nil
                )
            }
            func pairs(_ count: Int) -> [(Int, Int)] {
                (0..<count).map { _ in (Int.random(in: 1...40, using: &random), Int.random(in: 1...9, using: &random)) }
            }
            graph.edgesAdded = pairs(Int.random(in: 0...3, using: &random)).map { EdgeEntry(from: $0.0, to: $0.1) }
            graph.edgesRemoved = pairs(Int.random(in: 0...3, using: &random)).map { EdgeEntry(from: $0.0, to: $0.1) }
            graph.subsAdded = pairs(Int.random(in: 0...3, using: &random))
            graph.subsRemoved = pairs(Int.random(in: 0...3, using: &random))
            guard !graph.isEmpty else { continue }
            var written: [UInt8] = []
            graph.append(to: &written)
            let read = try written.withUnsafeBytes { raw in
                var scanner = JSONScanner(raw)
                return try TransactionLine.GraphChanges(scanningPositional: &scanner)
            }
            let text = String(decoding: written, as: UTF8.self)
            #expect(read.created ?? [] == graph.created && read.released ?? [] == graph.released, "\(text)")
            #expect(read.edgesAdded ?? [] == graph.edgesAdded && read.edgesRemoved ?? [] == graph.edgesRemoved, "\(text)")
            #expect((read.subsAdded ?? []).map { [$0.atom, number($0.location)] } == graph.subsAdded.map { [$0.atom, $0.location] }, "\(text)")
            #expect((read.subsRemoved ?? []).map { [$0.atom, number($0.location)] } == graph.subsRemoved.map { [$0.atom, $0.location] }, "\(text)")
            let expected = graph.declare.map {
                TransactionLine.Declaration(id: $0.id, type: .number($0.type), label: $0.label, key: $0.key, scope: $0.scope)
            }
            #expect(read.declare ?? [] == expected, "\(text)")
        }
        func number(_ reference: TransactionLine.Reference) -> Int {
            if case .number(let number) = reference { number } else { -1 }
        }
    }

    /// A family's members are declared by key, their type written once; reading gives each
    /// declaration whole, as the runtime names the atom.
    @Test func aFamilysTypeIsWrittenOnceAndItsMembersByKey() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path("family.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path, keyframeInterval: 1_000)
        recorder.attach(to: root.store)
        let context = root.viewContext()
        _ = context.watch(TotalAtom())
        for id in 1...20 {
            context.watch(MemberAtom(id: id))
            if id > 1 { context.unwatch(MemberAtom(id: id - 1)) }
        }
        try recorder.close()

        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        let memberType = String(reflecting: MemberAtom.self)
        let typeLines = lines.filter { $0.hasPrefix(#"{"type":"loc""#) && $0.contains(#""at":"\#(memberType)""#) }
        #expect(typeLines.count == 1, "the member type's location line, once")
        let transactions = lines.filter { $0.hasPrefix("[") }
        #expect(!transactions.contains { $0.contains(#""declare""#) || $0.contains(memberType) }, "no declaration spelled out")

        let reader = try JournalReader(path: path)
        var declared: [AtomDeclaration] = []
        for step in reader.firstStep + 1...reader.lastStep {
            declared += try reader.transaction(step, decodingValuesOf: []).declare ?? []
        }
        let members = declared.filter { $0.type == memberType }
        #expect(members.map(\.key) == (0...20).map { String($0) })
        #expect(members.allSatisfy { $0.label == String(describing: MemberAtom.self) && $0.scope == nil })
        #expect(try reader.state(at: reader.lastStep).declarations.values.contains { $0.type == String(reflecting: TotalAtom.self) && $0.label == "TotalAtom" })
    }

    /// A label the type's name does not give (a type local to a function) is written with the
    /// declaration, and read back as it was.
    @Test func aLabelTheTypeNameDoesNotGiveIsWritten() throws {
        struct LocalAtom: StateAtom, Hashable {
            func defaultValue(context: Context) -> String { "here" }
        }
        let label = String(describing: LocalAtom.self)
        try #require(AtomDeclaration.label(ofType: String(reflecting: LocalAtom.self), scope: nil) != label)
        let directory = try TemporaryDirectory()
        let path = directory.path("local.jsonl")
        let root = AtomRoot()
        let recorder = try JournalRecorder(path: path)
        recorder.attach(to: root.store)
        _ = root.viewContext().watch(LocalAtom())
        try recorder.close()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(#",null,"\#(label)"]"#))
        let reader = try JournalReader(path: path)
        let declarations = try (reader.firstStep + 1...reader.lastStep).flatMap { try reader.transaction($0, decodingValuesOf: []).declare ?? [] }
        let declaration = try #require(declarations.first)
        #expect(declaration.label == label && declaration.type == String(reflecting: LocalAtom.self))
    }
}
