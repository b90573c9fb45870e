/// The report page's script and style, written as files of their own in `Report/Web/` (split
/// by role: exact JSON, state at a step, values and diff, timeline and lanes, graph, page
/// wiring) and embedded at build time by `Web/embed.sh` into `ReportWebFiles.swift`.
///
/// Each script is a module that Node can `require` (for `node --test`) and that the page runs
/// inside one function under the Content-Security-Policy nonce, registering itself in
/// `reportModules`.
enum ReportWeb {
    /// One embedded file.
    struct File: Sendable {
        /// The file's name in `Report/Web/`.
        let name: String
        /// Its text, without its last newline.
        let text: String
    }

    /// The page's one script: every module, in order, inside a function that holds
    /// `reportModules`.
    static let script: String = {
        var script = "\"use strict\";\n(() => {\nconst reportModules = {};\n"
        for file in files where file.name.hasSuffix(".js") {
            script += "// ---- \(file.name) ----\n\(file.text)\n"
        }
        script += "})();"
        precondition(!script.lowercased().contains("</script"), "a report script may not close its element")
        return script
    }()

    /// The page's style sheet.
    static let style: String = {
        let style = files.filter { $0.name.hasSuffix(".css") }.map(\.text).joined(separator: "\n")
        precondition(!style.lowercased().contains("</style"), "the report's style may not close its element")
        return style
    }()
}
