/// The write sites of the transactions a control endpoint makes for `atoms-inspect`
/// (docs/CONTROL.md): `atoms-inspect/jump:STEP`, `atoms-inspect/live:STEP` and
/// `atoms-inspect/set:STEP`, where STEP is the step jumped to, the present returned to, or
/// the step the value was set at.
///
/// Such a transaction was not written by the program's code: a debugger shows the program's
/// last write site beside it rather than a line of the library.
package enum ControlWriteSite {
    /// The module part of the `#fileID` every such site has.
    package static let module = "atoms-inspect"

    /// What the inspector asked for.
    package enum Request: String, Sendable, CaseIterable {
        /// A trip to a recorded step (`jump`).
        case jump
        /// The return to the present (`live`).
        case live
        /// A value written (`set`).
        case set
    }

    /// The `#fileID` of a request's transactions: `atoms-inspect/jump`.
    package static func fileID(_ request: Request) -> String {
        module + "/" + request.rawValue
    }

    /// The request a write site (`fileID:line`) records, or `nil` for a site of the program's.
    package static func request(of site: String) -> Request? {
        guard site.hasPrefix(module + "/") else { return nil }
        let rest = site.dropFirst(module.count + 1).prefix { $0 != ":" }
        return Request(rawValue: String(rest))
    }
}
