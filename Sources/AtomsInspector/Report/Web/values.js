// Values and changes at the current step: the line diff of a value's text (pure), and the
// panels that show them. Journal text reaches the page only through `textContent`.
/* global reportModules */
(function (factory) {
  if (typeof module === "object" && module.exports) module.exports = factory();
  else reportModules.values = factory();
})(function () {
  "use strict";

  /** Above this many cells the diff lists the removed lines, then the added ones. */
  const TABLE_LIMIT = 250000;

  /**
   * A line diff of `a` to `b` (arrays of lines): `[mark, line]` pairs, mark `" "`, `"-"` or
   * `"+"`, a longest common subsequence between the common prefix and suffix.
   */
  function lineDiff(a, b) {
    let prefix = 0;
    while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
    let suffix = 0;
    while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
    const x = a.slice(prefix, a.length - suffix), y = b.slice(prefix, b.length - suffix);
    const middle = [];
    if (x.length * y.length <= TABLE_LIMIT) {
      const table = Array.from({ length: x.length + 1 }, () => new Uint32Array(y.length + 1));
      for (let i = x.length - 1; i >= 0; i--) {
        for (let j = y.length - 1; j >= 0; j--) {
          table[i][j] = x[i] === y[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
        }
      }
      let i = 0, j = 0;
      while (i < x.length || j < y.length) {
        if (i < x.length && j < y.length && x[i] === y[j]) { middle.push([" ", x[i]]); i++; j++; }
        else if (i < x.length && (j === y.length || table[i + 1][j] >= table[i][j + 1])) { middle.push(["-", x[i]]); i++; }
        else { middle.push(["+", y[j]]); j++; }
      }
    } else {
      for (const line of x) middle.push(["-", line]);
      for (const line of y) middle.push(["+", line]);
    }
    return [...a.slice(0, prefix).map((l) => [" ", l]), ...middle, ...a.slice(a.length - suffix).map((l) => [" ", l])];
  }

  /**
   * The diff's lines as shown: changed lines with `context` unchanged lines around them, and
   * each longer unchanged run as one `["…", count]`.
   */
  function foldDiff(lines, context = 3) {
    const keep = lines.map(() => false);
    lines.forEach(([mark], n) => {
      if (mark === " ") return;
      for (let m = Math.max(0, n - context); m <= Math.min(lines.length - 1, n + context); m++) keep[m] = true;
    });
    const shownLines = [];
    for (let n = 0; n < lines.length;) {
      if (keep[n]) { shownLines.push(lines[n]); n++; continue; }
      let m = n;
      while (m < lines.length && !keep[m]) m++;
      shownLines.push(["…", m - n]);
      n = m;
    }
    return shownLines;
  }

  const element = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };

  /** Fills `#values` with the live values at `view.state` that `view.matches`. */
  function renderValues(report, view) {
    const changed = new Set(view.changes.filter((c) => !c.unchanged && !c.released).map((c) => c.id));
    const live = report.liveValues(view.state);
    const fragment = document.createDocumentFragment();
    let count = 0;
    for (const { atom, text, marks } of live) {
      if (!view.matches(atom)) continue;
      count++;
      const box = element("div", "atom" + (changed.has(atom.id) ? " changed" : ""));
      box.dataset.atom = atom.name;
      const name = element("div", "name", atom.name);
      if (changed.has(atom.id)) name.append(element("span", "badge", "changed"));
      if (marks) name.append(element("span", "marks", `(${marks})`));
      box.append(name, element("pre", "value", text));
      fragment.append(box);
    }
    if (!count) fragment.append(element("p", "empty", live.length ? "No live atom matches the search." : "No live atoms at this step."));
    document.getElementById("values").replaceChildren(fragment);
    document.getElementById("values-title").textContent = `Values at step ${view.state.step} (${live.length} live)`;
  }

  function diffBlock(lines) {
    const pre = element("pre");
    for (const [mark, text] of foldDiff(lines)) {
      if (mark === "…") pre.append(element("span", "line fold", `  … (${text} unchanged line${text === 1 ? "" : "s"})`));
      else pre.append(element("span", "line" + (mark === "+" ? " add" : mark === "-" ? " remove" : ""), `${mark} ${text}`));
    }
    return pre;
  }

  /** Fills `#diff` with the changes `view.changes` made to reach `view.state`. */
  function renderDiff(report, view) {
    const first = view.state.step === report.meta.first;
    const fragment = document.createDocumentFragment();
    const shownChanges = view.changes.filter((c) => !c.unchanged && view.matches(report.atomOf(c.id)));
    for (const change of shownChanges) {
      const name = report.atomName(change.id);
      const box = element("div", "diff");
      box.dataset.atom = name;
      const what = change.released ? "released" : change.created ? "created" : "changed";
      box.append(element("div", "name", `${name} — ${what}`));
      const before = change.beforeText === null ? [] : change.beforeText.split("\n");
      const after = change.afterText === null ? [] : change.afterText.split("\n");
      box.append(diffBlock(lineDiff(before, after)));
      fragment.append(box);
    }
    const equal = view.changes.filter((c) => c.unchanged).map((c) => report.atomName(c.id));
    if (equal.length) fragment.append(element("p", "empty", `Written with an equal value: ${equal.join(", ")}`));
    if (!shownChanges.length && !equal.length) {
      fragment.append(element("p", "empty", first ? "The first step of the report: nothing before it to compare." : "No value changed at this step."));
    }
    document.getElementById("diff").replaceChildren(fragment);
    document.getElementById("diff-title").textContent = first ? "Changes" : `Changes from step ${view.state.step - 1} to ${view.state.step}`;
  }

  return { lineDiff, foldDiff, renderValues, renderDiff, element };
});
