import AtomsJournal
import Testing
@testable import AtomsInspector

/// The `--where` language: what parses to what, where errors point, how values compare.
struct WhereExpressionTests {
    private func path(_ atom: String, _ components: [ValuePath.Component] = [], quoted: Bool = false, column: Int = 1) -> WhereExpression {
        .path(ValuePath(atom: atom, quoted: quoted, components: components, column: column))
    }

    @Test func pathsReachMembersIndicesKeysAndFamilyMembers() throws {
        #expect(try WhereExpression.parse("StatsAtom.total") == path("StatsAtom", [.member("total")]))
        #expect(try WhereExpression.parse("TodosAtom[0].text") == path("TodosAtom", [.index(0), .member("text")]))
        #expect(try WhereExpression.parse("TodosAtom[-1]") == path("TodosAtom", [.index(-1)]))
        #expect(try WhereExpression.parse(#"Map["a key"].x"#) == path("Map", [.member("a key"), .member("x")]))
        #expect(try WhereExpression.parse("'Family[key]'.member") == path("Family[key]", [.member("member")], quoted: true))
        #expect(try WhereExpression.parse(#"'it\'s'"#) == path("it's", quoted: true))
    }

    @Test func operatorsBindAsInSwift() throws {
        let parsed = try WhereExpression.parse(#"!A.x == 1 || B > 2 && C <= -1.5e3"#)
        let a = path("A", [.member("x")], column: 2)
        let b = path("B", column: 14)
        let c = path("C", column: 23)
        #expect(parsed == .or(
            .not(.compare(.equal, a, .literal(.number(1)))),
            .and(.compare(.greater, b, .literal(.number(2))), .compare(.lessOrEqual, c, .literal(.number(JSONNumber(text: "-1.5e3")!))))
        ))
        #expect(try WhereExpression.parse("(A || B) && !(C)") == .and(.or(path("A", column: 2), path("B", column: 7)), .not(path("C", column: 15))))
        #expect(try WhereExpression.parse(#"A != "x\"y" && B == null && C == true"#).description == #"((A != "x\"y") && (B == null)) && (C == true)"#)
        // A printed expression parses back to itself (columns aside).
        let text = #"(A.x[2] >= 3 || !'F[1]'.y) && B["k k"] != "v""#
        #expect(try WhereExpression.parse(WhereExpression.parse(text).description).description == WhereExpression.parse(text).description)
    }

    @Test(arguments: [
        ("StatsAtom.total >", 18, "expected a value after '>'"),
        ("", 1, "the expression is empty"),
        ("A = 3", 3, "'=' is not an operator"),
        ("(A == 1", 8, "expected ')' to close the '(' at column 1"),
        ("A[1.5]", 3, "an index must be a whole number"),
        ("A[0", 4, "expected ']' to close the '[' at column 2"),
        (#"A == "open"#, 6, "has no closing '\"'"),
        ("A == 1 2", 8, "unexpected '2'"),
        ("A < B < C", 7, "comparisons do not chain"),
        ("A. == 1", 3, "expected a member name after '.'"),
        ("A == -", 6, "expected a number after '-'"),
        ("A == @", 6, "expected a value after '==', found '@'"),
        ("A && ", 6, "expected a value"),
    ])
    func malformedExpressionsNameTheColumn(text: String, column: Int, what: String) {
        #expect {
            try WhereExpression.parse(text)
        } throws: { error in
            guard let error = error as? InspectorError else { return false }
            return error.status == .usage && error.message.contains("column \(column):") && error.message.contains(what)
        }
    }

    @Test func hostileNestingIsRefusedNotRecursedInto() {
        for text in [String(repeating: "(", count: 100_000) + "A", String(repeating: "!", count: 100_000) + "A",
                     Array(repeating: "A", count: 10_000).joined(separator: " && ")] {
            #expect {
                try WhereExpression.parse(text)
            } throws: { error in
                guard let error = error as? InspectorError else { return false }
                return error.status == .usage && (error.message.contains("nest more than 64 deep") || error.message.contains("more than 256 values"))
            }
        }
        let deepest = String(repeating: "(", count: 64) + "A == 1" + String(repeating: ")", count: 64)
        #expect(throws: Never.self) { try WhereExpression.parse(deepest) }
    }

    private let declarations: [Int: AtomDeclaration] = [
        1: AtomDeclaration(id: 1, label: "TodosAtom", type: "App.TodosAtom"),
        2: AtomDeclaration(id: 2, label: "DraftAtom", type: "App.DraftAtom", key: "1"),
        3: AtomDeclaration(id: 3, label: "DraftAtom", type: "App.DraftAtom", key: "2"),
        4: AtomDeclaration(id: 4, label: "SecretAtom", type: "App.SecretAtom"),
        5: AtomDeclaration(id: 5, label: "ModelAtom", type: "App.ModelAtom"),
    ]

    private func bound(_ text: String) throws -> BoundExpression {
        try BoundExpression(WhereExpression.parse(text), declarations: declarations, journal: "j.jsonl")
    }

    private var values: [Int: ValueEntry] {
        let todos: JSONValue = .array([
            .object(["text": .string("milk"), "done": .bool(false), "count": .number(7)]),
            .object(["text": .string("tests"), "done": .bool(true)]),
        ])
        return [
            1: ValueEntry(id: 1, v: todos),
            2: ValueEntry(id: 2, v: .string("hello")),
            4: ValueEntry(id: 4, redacted: true),
            5: ValueEntry(id: 5, dump: "Model(x: 1)"),
        ]
    }

    @Test(arguments: [
        ("TodosAtom.count == 2", true),
        ("TodosAtom[0].text == \"milk\"", true),
        ("TodosAtom[-1].done", true),
        ("TodosAtom[0].count == 7", true),  // a member named count wins over the count
        ("TodosAtom[1].count == 2", true),  // an object's number of members
        ("TodosAtom[5].text == null", true),
        ("TodosAtom[0].missing == null", true),
        ("DraftAtom[1] == \"hello\" && DraftAtom[1].count == 5", true),
        ("'DraftAtom[2]' == null", true),  // declared, not live
        ("SecretAtom == null", true),
        ("ModelAtom == \"Model(x: 1)\"", true),
        ("TodosAtom[0].text < TodosAtom[1].text", true),
        ("TodosAtom.count > \"1\"", false),  // orderings need two numbers or two strings
        ("TodosAtom.count != \"2\"", true),
        ("TodosAtom.count == 2.0", true),
        ("!TodosAtom[0].done && !(TodosAtom.count >= 3)", true),
        ("TodosAtom[0].text", false),  // only true holds
        ("'App.TodosAtom'.count <= 2", true),
    ])
    func evaluatesAgainstValues(text: String, holds: Bool) throws {
        #expect(try bound(text).holds(in: values) == holds, "\(text)")
    }

    @Test func integersCompareExactlyBeyondDouble() throws {
        let big: [Int: ValueEntry] = [1: ValueEntry(id: 1, v: .number(JSONNumber(text: "9007199254740993")!))]
        #expect(try bound("TodosAtom > 9007199254740992").holds(in: big))
        #expect(try bound("TodosAtom == 9007199254740993").holds(in: big))
        #expect(try !bound("TodosAtom == 9007199254740992").holds(in: big))
    }

    @Test func namesThatMatchNoAtomOrSeveralAreUsageErrors() {
        #expect {
            try bound("Nope.x == 1")
        } throws: { error in
            (error as? InspectorError)?.message.contains("no atom in the journal is named 'Nope' (column 1)") == true
        }
        #expect {
            try bound("TodosAtom.count == 1 || DraftAtom == \"x\"")
        } throws: { error in
            guard let error = error as? InspectorError else { return false }
            return error.status == .usage && error.message.contains("'DraftAtom' (column 25) names 2 atoms") && error.message.contains("'DraftAtom[1]'")
        }
    }

    @Test func onlyTheNamedAtomsAreDecoded() throws {
        #expect(try bound("TodosAtom.count > 1 && DraftAtom[2] == \"x\"").atomIDs == [1, 3])
    }
}
