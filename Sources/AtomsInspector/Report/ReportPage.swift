/// The HTML of a report: markup, style, the embedded data and the script, in one file that
/// needs no network.
///
/// A Content-Security-Policy allows only the page's own script (by a nonce made for each
/// report), inline style and `data:` images, so even markup that escaped into the page could
/// neither run nor load anything. The escaping of the data (``ReportData``) is what keeps it
/// from getting there.
enum ReportPage {
    /// The page for `data`, titled `title`.
    static func html(data: ReportData, title: String, nonce: String = makeNonce()) -> [UInt8] {
        var page: [UInt8] = []
        page.reserveCapacity(data.count + ReportScript.source.utf8.count + 16_384)
        page.append(contentsOf: """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-\(nonce)'; style-src 'unsafe-inline'; img-src data:">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(Markup.escaped(title)) · atoms-inspect report</title>
            <style>\(style)</style>
            </head>
            <body>
            \(body)
            <script type="application/json" id="report-meta">
            """.utf8)
        page.append(contentsOf: data.meta)
        page.append(contentsOf: "</script>\n<script type=\"text/plain\" id=\"report-values\">".utf8)
        page.append(contentsOf: data.values)
        page.append(contentsOf: "</script>\n<script type=\"text/plain\" id=\"report-keyframes\">".utf8)
        page.append(contentsOf: data.keyframes)
        page.append(contentsOf: "</script>\n<script nonce=\"\(nonce)\">\n".utf8)
        page.append(contentsOf: ReportScript.source.utf8)
        page.append(contentsOf: "\n</script>\n</body>\n</html>\n".utf8)
        return page
    }

    /// 128 random bits, base64: a nonce no embedded text can have guessed.
    static func makeNonce() -> String {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        return String((0..<22).map { _ in alphabet[Int(generator.next(upperBound: UInt8(64)))] })
    }

    private static let body = """
        <header>
          <h1>atoms-inspect report</h1>
          <span id="journal"></span>
          <span id="position" aria-live="polite"></span>
        </header>
        <noscript><p class="notice">This report draws itself with JavaScript: allow scripts for this file.</p></noscript>
        <p id="notice" class="notice" hidden></p>
        <section id="timeline-panel" aria-label="Timeline">
          <div class="toolbar">
            <button id="prev" type="button" title="Previous step (←)">◀</button>
            <input id="slider" type="range" aria-label="Step">
            <button id="next" type="button" title="Next step (→)">▶</button>
            <label>x axis <select id="axis"><option value="time">time</option><option value="step">step</option></select></label>
            <span id="legend"></span>
          </div>
          <canvas id="timeline" height="64"></canvas>
          <div id="tooltip" role="tooltip" hidden></div>
        </section>
        <section id="lanes-panel" aria-label="When each atom changed">
          <div class="toolbar">
            <input id="search" type="search" placeholder="Search atoms: name, or a pattern with *" aria-label="Search atoms">
            <span id="search-count"></span>
          </div>
          <canvas id="lanes" height="20"></canvas>
          <p id="lanes-more" hidden></p>
        </section>
        <main>
          <section id="values-panel"><h2 id="values-title">Values</h2><div id="values"></div></section>
          <div id="side">
            <section id="diff-panel"><h2 id="diff-title">Changes</h2><div id="diff"></div></section>
            <section id="graph-panel"><h2>Dependency graph</h2><div id="graph"></div></section>
          </div>
        </main>
        """

    private static let style = """
        :root { --fg: #1d1f24; --dim: #6b7280; --line: #d9dce3; --changed: #fff1b8; --add: #e3f7e3; --remove: #fde4e4; --accent: #2f6fde; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: #fafbfc; }
        header { display: flex; gap: 1.5em; align-items: baseline; padding: .6em 1em; border-bottom: 1px solid var(--line); background: #fff; position: sticky; top: 0; z-index: 2; }
        h1 { font-size: 1.05em; margin: 0; }
        h2 { font-size: .95em; margin: .2em 0 .5em; color: var(--dim); font-weight: 600; }
        #position { font-variant-numeric: tabular-nums; }
        .notice { margin: .5em 1em; padding: .5em .8em; background: #fff4e5; border: 1px solid #f0c36d; border-radius: 4px; }
        section { padding: .5em 1em; }
        .toolbar { display: flex; gap: .6em; align-items: center; flex-wrap: wrap; margin-bottom: .4em; }
        #slider { flex: 1; min-width: 12em; }
        #legend { display: flex; gap: .8em; flex-wrap: wrap; font-size: .85em; color: var(--dim); }
        #legend i { display: inline-block; width: .8em; height: .8em; border-radius: 2px; margin-right: .3em; vertical-align: -1px; }
        canvas { display: block; width: 100%; background: #fff; border: 1px solid var(--line); border-radius: 4px; cursor: pointer; }
        #timeline-panel { position: relative; }
        #tooltip { position: absolute; z-index: 3; max-width: 36em; padding: .4em .6em; background: #22252b; color: #fff; border-radius: 4px; font-size: .85em; pointer-events: none; white-space: pre-wrap; }
        #search { flex: 1; min-width: 16em; padding: .3em .5em; }
        #lanes-more { color: var(--dim); margin: .3em 0 0; }
        main { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 0; }
        @media (max-width: 900px) { main { grid-template-columns: 1fr; } }
        .atom { background: #fff; border: 1px solid var(--line); border-radius: 4px; margin-bottom: .5em; }
        .atom.changed { border-color: #e0b300; background: var(--changed); }
        .atom .name { font-weight: 600; padding: .3em .6em; border-bottom: 1px solid var(--line); display: flex; gap: .8em; align-items: baseline; }
        .atom .marks { font-weight: normal; color: #9a6700; font-size: .85em; }
        .atom .badge { font-weight: normal; font-size: .8em; color: #7a5b00; }
        pre { margin: 0; padding: .4em .6em; font: 12.5px/1.35 ui-monospace, "SF Mono", Menlo, Consolas, monospace; white-space: pre-wrap; word-break: break-word; max-height: 28em; overflow: auto; }
        .diff { background: #fff; border: 1px solid var(--line); border-radius: 4px; margin-bottom: .5em; }
        .diff .name { font-weight: 600; padding: .3em .6em; border-bottom: 1px solid var(--line); }
        .diff .line { display: block; }
        .diff .add { background: var(--add); }
        .diff .remove { background: var(--remove); }
        .diff .fold { color: var(--dim); }
        .empty { color: var(--dim); font-style: italic; }
        #graph { background: #fff; border: 1px solid var(--line); border-radius: 4px; overflow: auto; max-height: 40em; }
        #graph svg { display: block; max-width: 100%; height: auto; }
        #graph g.node.changed polygon, #graph g.node.changed rect { fill: var(--changed); }
        #graph text { font-family: system-ui, sans-serif; }
        """
}
