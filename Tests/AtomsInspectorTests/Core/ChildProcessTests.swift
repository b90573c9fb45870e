import Foundation
import Testing
@testable import AtomsInspector

/// What a program the inspector runs (Graphviz, DuckDB) is given.
struct ChildProcessTests {
    /// A descriptor the inspector holds, such as a pipe's write end, must not outlive it in the
    /// child: a child holding another program's input open keeps that program from ever
    /// reading to its end.
    @Test func aProgramInheritsOnlyItsInputOutputAndErrors() throws {
        var held: [Int32] = [-1, -1]
        #expect(pipe(&held) == 0)
        defer { held.forEach { close($0) } }

        let result = try ChildProcess.run("/bin/ls", ["/proc/self/fd"], input: [])
        #expect(result.status == 0, "\(String(decoding: result.errors, as: UTF8.self))")
        let open = Set(String(decoding: result.output, as: UTF8.self).split(separator: "\n").compactMap { Int32($0) })
        #expect(open.isDisjoint(with: held), "the child holds \(open.sorted()); the pipe is \(held)")
        // Its own three, and the descriptor `ls` reads the folder through.
        #expect(open == [0, 1, 2, 3])
    }
}
