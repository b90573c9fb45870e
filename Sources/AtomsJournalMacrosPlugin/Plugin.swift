import SwiftCompilerPlugin
import SwiftSyntaxMacros

/// The compiler plugin that provides `AtomsJournalMacros`' macros.
@main
struct AtomsJournalMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [JournalRecordableMacro.self]
}
