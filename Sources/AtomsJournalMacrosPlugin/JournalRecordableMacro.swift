import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@JournalRecordable`: writes a struct's `JournalRecordable` conformance from its stored
/// properties, as `Codable` synthesizes `encode(to:)` from them: one `member` call and one
/// `compare` call per property, in declaration order, keyed by the property's name.
///
/// The members are `nonisolated`: the recorder calls them on its own thread, and a struct
/// isolated to the main actor (or a module whose default isolation is the main actor) would
/// otherwise conform only there.
///
/// It refuses what would make the two disagree: a type that is not a struct, `CodingKeys` or
/// an `encode(to:)` of its own, property wrappers, `lazy` properties, and tuple patterns.
public struct JournalRecordableMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let structure = declaration.as(StructDeclSyntax.self) else {
            throw DiagnosticsError(diagnostics: [
                Diagnostic(node: node, message: JournalRecordableDiagnostic.notAStruct)
            ])
        }
        let properties = try StoredProperties.of(structure)
        // Conformed already (by hand, or in an extension the macro cannot see).
        guard !protocols.isEmpty else { return [] }

        let access = accessModifier(of: structure)
        let writes = ["writer.beginObject()"] + properties.map { "writer.member(\(literal($0)), self.\($0))" } + ["writer.endObject()"]
        let compares = properties.map { "changes.compare(\(literal($0)), old.\($0), self.\($0))" }
        let requirements = genericRequirements(of: structure)

        let source: DeclSyntax = """
            extension \(type.trimmed): AtomsJournal.JournalRecordable\(raw: requirements) {
                \(raw: access)nonisolated func writeJournalJSON(to writer: inout AtomsJournal._JournalJSONWriter) {
                    \(raw: writes.joined(separator: "\n"))
                }

                \(raw: access)nonisolated func writeJournalChanges(from old: Self, to changes: inout AtomsJournal._JournalChanges) {
                    \(raw: compares.isEmpty ? "_ = old" : compares.joined(separator: "\n"))
                }
            }
            """
        guard let extensionDecl = source.as(ExtensionDeclSyntax.self) else { return [] }
        return [extensionDecl]
    }

    /// The property's name as a string literal: its coding key.
    private static func literal(_ name: String) -> String {
        "\"\(name)\""
    }

    /// `public ` or `package ` when the struct is, so that the conformance's members are as
    /// visible as the conformance; nothing otherwise.
    private static func accessModifier(of structure: StructDeclSyntax) -> String {
        for modifier in structure.modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): return "public "
            case .keyword(.package): return "package "
            default: continue
            }
        }
        return ""
    }

    /// ` where T: Encodable, …` for a generic struct: its members are encoded only when its
    /// parameters are.
    private static func genericRequirements(of structure: StructDeclSyntax) -> String {
        guard let parameters = structure.genericParameterClause?.parameters, !parameters.isEmpty else { return "" }
        return " where " + parameters.map { "\($0.name.text): Swift.Encodable" }.joined(separator: ", ")
    }
}

/// The stored instance properties of a struct, in declaration order.
enum StoredProperties {
    static func of(_ structure: StructDeclSyntax) throws -> [String] {
        var names: [String] = []
        var diagnostics: [Diagnostic] = []
        for member in structure.memberBlock.members {
            let decl = member.decl
            if let nested = decl.as(EnumDeclSyntax.self), nested.name.text == "CodingKeys" {
                diagnostics.append(Diagnostic(node: nested.name, message: JournalRecordableDiagnostic.customCodingKeys))
                continue
            }
            if let function = decl.as(FunctionDeclSyntax.self), function.name.text == "encode",
                function.signature.parameterClause.parameters.first?.firstName.text == "to"
            {
                diagnostics.append(Diagnostic(node: function.name, message: JournalRecordableDiagnostic.customEncode))
                continue
            }
            guard let variable = decl.as(VariableDeclSyntax.self) else { continue }
            if variable.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) || $0.name.tokenKind == .keyword(.class) }) {
                continue
            }
            let isLazy = variable.modifiers.contains { $0.name.tokenKind == .keyword(.lazy) }
            let hasWrapper = variable.attributes.contains { $0.is(AttributeSyntax.self) }
            for binding in variable.bindings where isStored(binding) {
                if isLazy {
                    diagnostics.append(Diagnostic(node: binding.pattern, message: JournalRecordableDiagnostic.lazyProperty))
                } else if hasWrapper {
                    diagnostics.append(Diagnostic(node: binding.pattern, message: JournalRecordableDiagnostic.propertyWrapper))
                } else if let identifier = binding.pattern.as(IdentifierPatternSyntax.self) {
                    names.append(identifier.identifier.identifier?.name ?? identifier.identifier.text)
                } else {
                    diagnostics.append(Diagnostic(node: binding.pattern, message: JournalRecordableDiagnostic.tuplePattern))
                }
            }
        }
        if !diagnostics.isEmpty {
            throw DiagnosticsError(diagnostics: diagnostics)
        }
        return names
    }

    /// Whether a binding stores its value: no accessors, or only observers.
    private static func isStored(_ binding: PatternBindingSyntax) -> Bool {
        guard let accessors = binding.accessorBlock?.accessors else { return true }
        switch accessors {
        case .getter:
            return false
        case .accessors(let list):
            return list.allSatisfy { accessor in
                [.keyword(.willSet), .keyword(.didSet)].contains(accessor.accessorSpecifier.tokenKind)
            }
        }
    }
}

/// What `@JournalRecordable` refuses, and why.
enum JournalRecordableDiagnostic: String, DiagnosticMessage {
    case notAStruct
    case customCodingKeys
    case customEncode
    case lazyProperty
    case propertyWrapper
    case tuplePattern

    var message: String {
        switch self {
        case .notAStruct:
            "@JournalRecordable applies to structs; other types are recorded through Codable"
        case .customCodingKeys:
            "@JournalRecordable writes members under their property names; remove it from a type with its own CodingKeys"
        case .customEncode:
            "@JournalRecordable writes members as the synthesized encode(to:) does; remove it from a type with its own encode(to:)"
        case .lazyProperty:
            "@JournalRecordable cannot write a lazy property; make it a plain stored property or remove the macro"
        case .propertyWrapper:
            "@JournalRecordable cannot see through a property wrapper, whose Codable encoding is its own; remove the macro from this type"
        case .tuplePattern:
            "@JournalRecordable needs one name per stored property; declare the tuple's members separately"
        }
    }

    var diagnosticID: MessageID {
        MessageID(domain: "AtomsJournalMacros", id: rawValue)
    }

    var severity: DiagnosticSeverity { .error }
}
