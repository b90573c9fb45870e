/// What ``AtomStore/write(_:from:fileID:line:)`` did.
package enum AtomSeedWrite: Equatable, Sendable {
    /// The value was set, in one `inspector` transaction.
    case written
    /// No cached atom has that identity.
    case notCached
    /// The atom is not a state (a derived value, a task): only states can be set.
    case notState
    /// The seeds' value does not decode as the atom's value type, named here.
    case notDecodable(valueType: String)
}

extension StoreEngine {
    /// Sets a cached state to its seeded value as `set` does, in one `inspector` transaction:
    /// dependents recomputed, subscribers told.
    func write(_ identity: AtomIdentity, from seeds: any AtomValueSeeds, location: SourceLocation) -> AtomSeedWrite {
        var found: AnyAtomNode?
        for case let node? in nodes.slots where !node.isTransient && node.identity == identity {
            found = node
            break
        }
        guard let node = found else { return .notCached }
        guard node.isState else { return .notState }
        guard let apply = node.seededWrite(from: seeds) else {
            return .notDecodable(valueType: node.valueTypeName)
        }
        guard !transactionState.writesAreHeld else {
            transactionState.deferWrite { [self] in
                transact(.inspector, origin: node, location: location) {
                    apply()
                    valueDidChange(node)
                }
            }
            return .written
        }
        transact(.inspector, origin: node, location: location) {
            apply()
            valueDidChange(node)
        }
        return .written
    }
}
