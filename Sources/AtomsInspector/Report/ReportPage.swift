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
        page.reserveCapacity(data.count + ReportWeb.script.utf8.count + 16_384)
        page.append(contentsOf: """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'nonce-\(nonce)'; style-src 'unsafe-inline'; img-src data:">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(Markup.escaped(title)) · atoms-inspect report</title>
            <style>\(ReportWeb.style)</style>
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
        page.append(contentsOf: ReportWeb.script.utf8)
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
        <section id="cost-panel" aria-label="What each transaction cost">
          <div class="toolbar"><h2>Cost</h2><span id="cost-summary"></span></div>
          <canvas id="cost-lane" height="40" title="Each transaction's time, from 1 µs to the slowest on a logarithmic scale"></canvas>
          <div id="cost-detail"></div>
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
}
