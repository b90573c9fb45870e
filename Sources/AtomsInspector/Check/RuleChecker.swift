import AtomsJournalReader

/// Evaluates rules against the dependency graph of a recorded state.
package struct RuleChecker {
    /// The outcome of one rule.
    package struct Result: Equatable, Sendable, Encodable {
        /// The rule as written.
        package let rule: String
        /// Its line in the rules file.
        package let line: Int
        /// Whether it held.
        package let passed: Bool
        /// What was found, when it failed.
        package let detail: String?
    }

    private let state: JournalState
    private let names: [Int: String]
    private let dependents: [Int: [Int]]

    /// A checker for a state's graph (live atoms and their edges).
    package init(state: JournalState) {
        self.state = state
        names = state.distinctNames()
        dependents = Dictionary(grouping: state.edges.filter { state.liveIDs.contains($0.from) && state.liveIDs.contains($0.to) }, by: \.from)
            .mapValues { $0.map(\.to).sorted() }
    }

    private func matching(_ pattern: String) -> [Int] {
        let glob = Glob(pattern)
        return state.liveAtoms.filter(glob.matches).map(\.id)
    }

    /// The atom's distinct name; `#id` for an atom the journal never declared.
    private func name(of id: Int) -> String {
        names[id] ?? "#\(id)"
    }

    private func list(_ ids: some Sequence<Int>) -> String {
        let listed = ids.map(name(of:)).sorted()
        return listed.isEmpty ? "none" : listed.prefix(10).joined(separator: ", ") + (listed.count > 10 ? ", …" : "")
    }

    /// Checks one rule.
    package func check(_ rule: RuleLine) -> Result {
        let (passed, detail) = evaluate(rule.rule)
        return Result(rule: rule.rule.description, line: rule.line, passed: passed, detail: passed ? nil : detail)
    }

    private func evaluate(_ rule: Rule) -> (Bool, String) {
        switch rule {
        case .edge(let from, let to):
            let sources = matching(from)
            let targets = Set(matching(to))
            if sources.isEmpty { return (false, "no live atom matches '\(from)'") }
            if targets.isEmpty { return (false, "no live atom matches '\(to)'") }
            let found = sources.contains { !Set(dependents[$0] ?? []).isDisjoint(with: targets) }
            return (found, "no such edge; atoms watching \(list(sources)): \(list(sources.flatMap { dependents[$0] ?? [] }))")
        case .noEdge(let from, let to):
            let targets = Set(matching(to))
            let edges = matching(from).flatMap { source in (dependents[source] ?? []).filter(targets.contains).map { (source, $0) } }
            return (edges.isEmpty, "found " + edges.map { "\(name(of: $0.0)) -> \(name(of: $0.1))" }.sorted().joined(separator: ", "))
        case .node(let pattern):
            return (!matching(pattern).isEmpty, "no live atom matches; live atoms: \(list(state.liveIDs))")
        case .noNode(let pattern):
            let found = matching(pattern)
            return (found.isEmpty, "found \(list(found))")
        case .acyclic:
            let cycle = findCycle()
            return (cycle == nil, "cycle: " + (cycle ?? []).map(name(of:)).joined(separator: " -> "))
        case .maxDepth(let limit):
            let (depth, chain) = longestChain()
            return (depth <= limit, "longest chain has \(depth) atoms: " + chain.map(name(of:)).joined(separator: " -> "))
        case .maxNodes(let limit):
            return (state.liveIDs.count <= limit, "\(state.liveIDs.count) live atoms")
        }
    }

    /// A cycle, if the graph has one (iterative depth-first search).
    private func findCycle() -> [Int]? {
        var color: [Int: Int] = [:]  // 1: on the stack, 2: done
        for start in state.liveIDs.sorted() where color[start] == nil {
            var stack: [(id: Int, next: Int)] = [(start, 0)]
            color[start] = 1
            while let top = stack.last {
                let children = dependents[top.id] ?? []
                if top.next < children.count {
                    stack[stack.count - 1].next += 1
                    let child = children[top.next]
                    if color[child] == 1 {
                        let path = stack.map(\.id)
                        return Array(path.drop { $0 != child }) + [child]
                    }
                    if color[child] == nil {
                        color[child] = 1
                        stack.append((child, 0))
                    }
                } else {
                    color[top.id] = 2
                    stack.removeLast()
                }
            }
        }
        return nil
    }

    /// The number of atoms in the longest dependency chain, and one such chain. Assumes no
    /// cycle (a cycle's atoms are counted once).
    private func longestChain() -> (Int, [Int]) {
        var memo: [Int: (Int, Int?)] = [:]  // atom: (length of the longest chain starting there, next)
        // Reverse topological order by iterative post-order.
        for start in state.liveIDs.sorted() where memo[start] == nil {
            var stack: [(id: Int, next: Int)] = [(start, 0)]
            var onStack: Set<Int> = [start]
            while let top = stack.last {
                let children = dependents[top.id] ?? []
                if top.next < children.count {
                    stack[stack.count - 1].next += 1
                    let child = children[top.next]
                    if memo[child] == nil && !onStack.contains(child) {
                        stack.append((child, 0))
                        onStack.insert(child)
                    }
                } else {
                    let best = children.compactMap { child in memo[child].map { ($0.0, child) } }.max { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 > $1.1) }
                    memo[top.id] = ((best?.0 ?? 0) + 1, best?.1)
                    onStack.remove(top.id)
                    stack.removeLast()
                }
            }
        }
        guard let start = memo.max(by: { $0.value.0 < $1.value.0 || ($0.value.0 == $1.value.0 && $0.key > $1.key) }) else {
            return (0, [])
        }
        var chain = [start.key]
        var current = start.key
        while let next = memo[current]?.1 {
            chain.append(next)
            current = next
        }
        return (start.value.0, chain)
    }
}
