import AtomsJournalReader
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A value to write into a running program, as typed (`TodosAtom[0].isCompleted` and `true`),
/// resolved against the state the program has: which atom, and its whole new value.
///
/// The path is a `where` path; a member's new value replaces that member in the atom's
/// recorded value, and the program decodes the whole value as the atom's type.
struct ValueWrite {
    /// The atom written.
    let atom: AtomDeclaration
    /// Its whole new value.
    let value: JSONValue

    /// Resolves `path = value` against `state` (the program's present).
    ///
    /// - Throws: ``InspectorError``: usage for a path that names no live atom or leads
    ///   nowhere, or a value that is not JSON; bad data for a member of a value that is not
    ///   recorded as JSON.
    init(path text: String, value valueText: String, in state: JournalState, journal: String) throws(InspectorError) {
        guard case .path(let path) = try WhereExpression.parse(text) else {
            throw InspectorError(.usage, "'\(text)' is not an atom or a member of its value — e.g. TodosAtom[0].isCompleted")
        }
        let bound = try BoundExpression(.path(path), declarations: state.declarations, journal: journal)
        let (ids, components) = bound.binding(of: path)
        guard let id = ids.first(where: { state.values[$0] != nil }), let entry = state.values[id], let atom = state.declarations[id] else {
            throw InspectorError(.usage, "\(path.atom) is not alive at step \(state.step) — only an atom the program holds can be set")
        }
        let new = try Self.json(valueText)
        var value = new
        if !components.isEmpty {
            guard entry.redacted != true, let current = entry.v else {
                throw InspectorError(.dataError, "\(atom.displayName)'s value is not recorded as JSON (redacted, or not Codable) — its members cannot be set")
            }
            value = try Self.replacing(components[...], in: current, with: new, path: text)
        }
        self.atom = atom
        self.value = value
    }

    /// A typed value as JSON.
    static func json(_ text: String) throws(InspectorError) -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        } catch {
            throw InspectorError(.usage, "'\(text)' is not a JSON value — e.g. true, 3, \"completed\" (a string in double quotes), [1, 2], {\"id\": 1}")
        }
    }

    /// `value` with the member at `components` replaced by `new` (an object's last member may
    /// be new: an optional left out of the recorded value).
    private static func replacing(_ components: ArraySlice<ValuePath.Component>, in value: JSONValue, with new: JSONValue, path: String) throws(InspectorError) -> JSONValue {
        guard let first = components.first else { return new }
        let rest = components.dropFirst()
        switch (first, value) {
        case (.member(let name), .object(var members)):
            guard let member = members[name] else {
                guard rest.isEmpty else {
                    throw InspectorError(.usage, "\(path) leads nowhere: no member '\(name)' — members: \(members.keys.sorted().joined(separator: ", "))")
                }
                members[name] = new
                return .object(members)
            }
            members[name] = try replacing(rest, in: member, with: new, path: path)
            return .object(members)
        case (.index(let index), .array(var elements)):
            let position = index < 0 ? elements.count + index : index
            guard elements.indices.contains(position) else {
                throw InspectorError(.usage, "\(path) leads nowhere: index \(index) of an array of \(elements.count)")
            }
            elements[position] = try replacing(rest, in: elements[position], with: new, path: path)
            return .array(elements)
        default:
            let step = switch first {
            case .member(let name): "member '\(name)'"
            case .index(let index): "index \(index)"
            }
            throw InspectorError(.usage, "\(path) leads nowhere: a \(DebugVariables.typeName(value)) has no \(step)")
        }
    }
}
