/// The report page's script: decodes the embedded keyframes and deltas (``ReportData``),
/// rebuilds the state at the chosen step, and draws the timeline, lanes, values, diff and
/// graph. Every text from the journal reaches the page through `textContent` or an SVG
/// sanitized by an allow-list, never as markup.
///
/// For tests and benchmarks it exposes `window.atomsReport`: `go(step)`, `step()`,
/// `firstRenderMs`, `error`.
enum ReportScript {
    static let source = #"""
"use strict";
(() => {
  const report = { go, step: () => current.step, firstRenderMs: null, error: null };
  window.atomsReport = report;

  // ---- Exact JSON: numbers keep their text, objects are Maps ----
  class Num { constructor(text) { this.t = text; } }
  const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
  function parseJSON(text) {
    let i = 0;
    const fail = (what) => { throw new Error(`bad JSON (${what}) at ${i}`); };
    const space = () => { for (;;) { const c = text.charCodeAt(i); if (c === 32 || c === 10 || c === 13 || c === 9) i++; else return; } };
    const expect = (ch) => { space(); if (text[i] !== ch) fail(`expected ${ch}`); i++; };
    function string() {
      if (text[i] !== '"') fail("expected a string");
      i++;
      let out = "", start = i;
      for (;;) {
        const c = text.charCodeAt(i);
        if (c === 34) { out += text.slice(start, i); i++; return out; }
        if (c === 92) {
          out += text.slice(start, i);
          const e = text[i + 1];
          i += 2;
          switch (e) {
            case '"': out += '"'; break;
            case "\\": out += "\\"; break;
            case "/": out += "/"; break;
            case "b": out += "\b"; break;
            case "f": out += "\f"; break;
            case "n": out += "\n"; break;
            case "r": out += "\r"; break;
            case "t": out += "\t"; break;
            case "u": {
              const hex = text.slice(i, i + 4);
              if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("bad \\u escape");
              out += String.fromCharCode(parseInt(hex, 16));
              i += 4;
              break;
            }
            default: fail("bad escape");
          }
          start = i;
          continue;
        }
        if (Number.isNaN(c)) fail("unterminated string");
        i++;
      }
    }
    function value() {
      space();
      const ch = text[i];
      if (ch === "{") {
        i++;
        const members = new Map();
        space();
        if (text[i] === "}") { i++; return members; }
        for (;;) {
          space();
          const key = string();
          expect(":");
          members.set(key, value());
          space();
          if (text[i] === ",") { i++; continue; }
          expect("}");
          return members;
        }
      }
      if (ch === "[") {
        i++;
        const elements = [];
        space();
        if (text[i] === "]") { i++; return elements; }
        for (;;) {
          elements.push(value());
          space();
          if (text[i] === ",") { i++; continue; }
          expect("]");
          return elements;
        }
      }
      if (ch === '"') return string();
      if (text.startsWith("true", i)) { i += 4; return true; }
      if (text.startsWith("false", i)) { i += 5; return false; }
      if (text.startsWith("null", i)) { i += 4; return null; }
      NUMBER.lastIndex = i;
      const match = NUMBER.exec(text);
      if (!match) fail("unexpected character");
      i += match[0].length;
      return new Num(match[0]);
    }
    const result = value();
    space();
    if (i !== text.length) fail("text after the value");
    return result;
  }
  const int = (value) => value instanceof Num ? Number(value.t) : value;

  // ---- Text exactly as atoms-inspect prints it (JSONValue.prettyText) ----
  function quoted(s) {
    let out = '"';
    for (let k = 0; k < s.length; k++) {
      const c = s.charCodeAt(k);
      if (c === 34) out += '\\"';
      else if (c === 92) out += "\\\\";
      else if (c === 10) out += "\\n";
      else if (c === 13) out += "\\r";
      else if (c === 9) out += "\\t";
      else if (c < 32) out += "\\u00" + c.toString(16).padStart(2, "0");
      else out += s[k];
    }
    return out + '"';
  }
  // Swift orders strings by Unicode scalar values: compare by code points, not UTF-16 units.
  function byScalars(a, b) {
    const n = Math.min(a.length, b.length);
    for (let k = 0; k < n; k++) {
      const x = a.codePointAt(k), y = b.codePointAt(k);
      if (x !== y) return x < y ? -1 : 1;
      if (x > 0xffff) k++;
    }
    return a.length - b.length;
  }
  function pretty(value, indent = "") {
    if (value === null) return "null";
    if (value === true) return "true";
    if (value === false) return "false";
    if (value instanceof Num) return value.t;
    if (typeof value === "string") return quoted(value);
    const inner = indent + "  ";
    if (Array.isArray(value)) {
      if (value.length === 0) return "[]";
      return "[\n" + value.map((v) => inner + pretty(v, inner)).join(",\n") + "\n" + indent + "]";
    }
    if (value.size === 0) return "{}";
    const keys = [...value.keys()].sort(byScalars);
    return "{\n" + keys.map((k) => inner + quoted(k) + ": " + pretty(value.get(k), inner)).join(",\n") + "\n" + indent + "}";
  }
  const shown = (entry) => entry.kind === "v" ? pretty(entry.value) : entry.text;

  // ---- Deltas: object and array deltas, applied in place ----
  function applyDelta(value, delta) {
    const kind = delta[0];
    if (kind === "o") {
      if (!(value instanceof Map)) throw new Error("an object delta on a value that is not an object");
      if (delta[1]) for (const [k, v] of delta[1]) value.set(k, v);
      if (delta[2]) for (const [k, d] of delta[2]) {
        if (!value.has(k)) throw new Error(`an object delta changes missing member ${k}`);
        value.set(k, applyDelta(value.get(k), d));
      }
      if (delta[3]) for (const k of delta[3]) value.delete(k);
      return value;
    }
    if (kind === "a") {
      if (!Array.isArray(value)) throw new Error("an array delta on a value that is not an array");
      for (const op of delta[1] || []) {
        const index = int(op[0]);
        if (op.length === 2) {
          if (index >= value.length) throw new Error("an array delta changes a missing element");
          value[index] = applyDelta(value[index], op[1]);
        } else {
          value.splice(index, int(op[1]));
          const inserted = op[2];
          // splice(...inserted) would overflow the stack for very long insertions.
          if (inserted.length < 8192) value.splice(index, 0, ...inserted);
          else { const rest = value.splice(index); for (const v of inserted) value.push(v); for (const v of rest) value.push(v); }
        }
      }
      return value;
    }
    throw new Error(`unknown delta kind ${kind}`);
  }

  // ---- The embedded data ----
  const meta = JSON.parse(document.getElementById("report-meta").textContent);
  const valueLines = document.getElementById("report-values").textContent.split("\n");
  const keyframeLines = document.getElementById("report-keyframes").textContent.split("\n");
  const atoms = new Map();
  for (const [id, label, key, type] of meta.atoms) {
    atoms.set(id, { id, label, key, type, name: key === null ? label : `${label}[${key}]` });
  }
  const atomName = (id) => atoms.has(id) ? atoms.get(id).name : `#${id}`;
  const transactionCount = meta.last - meta.first;
  const times = new Float64Array(transactionCount + 1);
  times[0] = meta.t0;
  for (let k = 0; k < transactionCount; k++) times[k + 1] = times[k] + meta.dt[k];
  const graphChanges = new Map(meta.graph.map((change) => [change[0], change]));

  // ---- States ----
  function keyframeState(index) {
    const frame = parseJSON(keyframeLines[index]);
    const values = new Map();
    for (const entry of frame.get("values")) {
      const id = int(entry[0]);
      values.set(id, entry[1] === "v" ? { kind: "v", value: entry[2] } : { kind: "t", text: entry[2], marks: entry[3] });
    }
    return {
      step: int(frame.get("step")),
      values,
      edges: new Set(frame.get("edges").map(([f, t]) => `${int(f)},${int(t)}`)),
      subs: new Set(frame.get("subs").map(([a, l]) => `${int(a)},${int(l)}`)),
    };
  }

  // Applies transaction `k` (step first + 1 + k); with `record`, returns what changed.
  function applyTransaction(state, k, record) {
    const ids = meta.sets[meta.set[k]];
    const parts = ids.length ? valueLines[k].split("\t") : [];
    const changes = [];
    for (let n = 0; n < ids.length; n++) {
      const id = ids[n], part = parts[n] || "", kind = part[0];
      const before = state.values.get(id);
      if (kind === "=") { if (record) changes.push({ id, unchanged: true }); continue; }
      const beforeText = record && before ? shown(before) : null;
      let after;
      if (kind === "v") after = { kind: "v", value: parseJSON(part.slice(1)) };
      else if (kind === "t") { const [text, marks] = parseJSON(part.slice(1)); after = { kind: "t", text, marks }; }
      else if (kind === "d") {
        if (!before || before.kind !== "v") throw new Error(`step ${meta.first + 1 + k}: a delta for ${atomName(id)}, which has no value`);
        after = { kind: "v", value: applyDelta(before.value, parseJSON(part.slice(1))) };
      } else throw new Error(`step ${meta.first + 1 + k}: a bad value entry`);
      state.values.set(id, after);
      if (record) changes.push({ id, beforeText, afterText: shown(after), created: !before });
    }
    const graph = graphChanges.get(k);
    if (graph) {
      const [, , released, edgesAdded, edgesRemoved, subsAdded, subsRemoved] = graph;
      for (const id of released) {
        const before = state.values.get(id);
        if (record && before) changes.push({ id, beforeText: shown(before), afterText: null, released: true });
        state.values.delete(id);
      }
      for (const [f, t] of edgesAdded) state.edges.add(`${f},${t}`);
      for (const [f, t] of edgesRemoved) state.edges.delete(`${f},${t}`);
      for (const [a, l] of subsAdded) state.subs.add(`${a},${l}`);
      for (const [a, l] of subsRemoved) state.subs.delete(`${a},${l}`);
    }
    state.step = meta.first + 1 + k;
    return changes;
  }

  function keyframeBefore(step) {
    let low = 0, high = meta.keyframes.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (meta.keyframes[middle] <= step) low = middle; else high = middle - 1;
    }
    return low;
  }

  function stateAt(step) {
    const index = keyframeBefore(step);
    const state = keyframeState(index);
    for (let s = state.step + 1; s <= step; s++) applyTransaction(state, s - meta.first - 1, false);
    return state;
  }

  // ---- Current step ----
  let current = { step: NaN };
  let changes = [];
  function go(step) {
    step = Math.max(meta.first, Math.min(meta.last, Math.round(Number(step))));
    if (!Number.isFinite(step)) return;
    if (step === current.step) return;
    if (step === meta.first) {
      current = stateAt(step);
      changes = [];
    } else {
      const state = current.step === step - 1 ? current : stateAt(step - 1);
      changes = applyTransaction(state, step - meta.first - 1, true);
      current = state;
    }
    render();
  }

  // ---- Drawing ----
  const $ = (id) => document.getElementById(id);
  const element = (tag, className, text) => {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const causeColors = { initialize: "#9aa3b2", set: "#2f6fde", modify: "#16a3a3", reset: "#e07b00", refresh: "#8b49d6", restore: "#8a5a2b", "async-result": "#1f9d55", effect: "#d6458f", release: "#d63a3a" };
  const extraColors = ["#5b8c00", "#b35c00", "#0077aa", "#aa0077", "#666666"];
  const siteCause = (k) => meta.sites[meta.site[k]][0];
  const causes = [...new Set(meta.sites.map((site) => site[0]))].sort();
  const colorOf = (cause) => causeColors[cause] || extraColors[causes.indexOf(cause) % extraColors.length];
  const locationText = (index) => index >= 0 ? meta.locs[index] : null;

  function describe(k) {
    const [cause, origin, at] = meta.sites[meta.site[k]];
    const step = meta.first + 1 + k;
    const ids = meta.sets[meta.set[k]];
    const names = ids.map(atomName);
    const listed = names.slice(0, 12).join(", ") + (names.length > 12 ? `, … (${names.length - 12} more)` : "");
    const lines = [`step ${step} · ${cause}${at >= 0 ? " @ " + locationText(at) : ""}`];
    if (origin) lines.push(`origin: ${atomName(origin)}`);
    lines.push(`atoms written: ${listed || "none"}`);
    lines.push(`time: ${formatTime(times[k + 1])}`);
    return lines.join("\n");
  }
  const formatTime = (micros) => `${(micros / 1000).toFixed(3)} ms`;

  // The x of each step on the timeline (time axis unless all steps share one time).
  let axis = "time";
  function xOf(stepIndex, width) {
    const pad = 6;
    const span = times[transactionCount] - times[0];
    if (axis === "time" && span > 0) return pad + (times[stepIndex] - times[0]) / span * (width - 2 * pad);
    return pad + (transactionCount ? stepIndex / transactionCount : 0.5) * (width - 2 * pad);
  }
  function sizeCanvas(canvas, height) {
    const ratio = window.devicePixelRatio || 1;
    const width = canvas.clientWidth || 800;
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    canvas.style.height = height + "px";
    const context = canvas.getContext("2d");
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    return { context, width };
  }
  // The ticks are drawn once per size, axis and search into a bitmap; moving only redraws the marker.
  const drawnBitmaps = new Map();
  function cachedBitmap(name, key, width, height, draw) {
    const cached = drawnBitmaps.get(name);
    if (cached && cached.key === key) return cached.canvas;
    const ratio = window.devicePixelRatio || 1;
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    const context = canvas.getContext("2d");
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    draw(context);
    drawnBitmaps.set(name, { key, canvas });
    return canvas;
  }
  function drawTimeline() {
    const canvas = $("timeline");
    const { context, width } = sizeCanvas(canvas, 64);
    context.clearRect(0, 0, width, 64);
    const ticks = cachedBitmap("timeline", `${width}:${axis}`, width, 64, (ticks) => {
      for (let k = 0; k < transactionCount; k++) {
        ticks.fillStyle = colorOf(siteCause(k));
        ticks.fillRect(Math.floor(xOf(k + 1, width)), 8, 1, 48);
      }
    });
    context.drawImage(ticks, 0, 0, width, 64);
    const x = xOf(current.step - meta.first, width);
    context.fillStyle = "#111";
    context.fillRect(Math.round(x) - 1, 0, 3, 64);
    context.beginPath();
    context.moveTo(x - 6, 0); context.lineTo(x + 6, 0); context.lineTo(x, 8); context.fill();
  }
  function nearestStep(clientX, canvas) {
    const rect = canvas.getBoundingClientRect();
    const x = clientX - rect.left;
    let best = 0, distance = Infinity;
    // Steps are ordered by time, so the nearest is found by bisection.
    let low = 0, high = transactionCount;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (xOf(middle, rect.width) < x) low = middle + 1; else high = middle;
    }
    for (const candidate of [low - 1, low]) {
      if (candidate < 0 || candidate > transactionCount) continue;
      const d = Math.abs(xOf(candidate, rect.width) - x);
      if (d < distance) { distance = d; best = candidate; }
    }
    return meta.first + best;
  }

  // ---- Lanes: when each atom matching the search changed ----
  let lanes = null;
  function computeLanes() {
    lanes = new Map();
    for (let k = 0; k < transactionCount; k++) {
      const ids = meta.sets[meta.set[k]];
      if (!ids.length) continue;
      const parts = valueLines[k].split("\t");
      for (let n = 0; n < ids.length; n++) {
        if (parts[n] === "=") continue;
        let lane = lanes.get(ids[n]);
        if (!lane) lanes.set(ids[n], lane = []);
        lane.push(k);
      }
    }
  }
  let query = "";
  function matches(atom) {
    if (!query) return true;
    if (query.includes("*")) {
      const pattern = new RegExp("^" + query.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*") + "$", "s");
      return [atom.name, atom.label, atom.type].some((text) => pattern.test(text));
    }
    const needle = query.toLowerCase();
    return [atom.name, atom.type].some((text) => text.toLowerCase().includes(needle));
  }
  const maximumLanes = 60;
  function drawLanes() {
    if (!lanes) computeLanes();
    const rows = [...atoms.values()].filter((atom) => lanes.has(atom.id) && matches(atom)).sort((a, b) => byScalars(a.name, b.name));
    const shownRows = rows.slice(0, maximumLanes);
    const height = Math.max(20, shownRows.length * 16 + 4);
    const canvas = $("lanes");
    const { context, width } = sizeCanvas(canvas, height);
    const labelWidth = Math.min(260, width * 0.3);
    context.clearRect(0, 0, width, height);
    const rowsDrawn = cachedBitmap("lanes", `${width}:${axis}:${shownRows.map((atom) => atom.id).join(",")}`, width, height, (lane) => {
      lane.font = "12px system-ui, sans-serif";
      lane.textBaseline = "middle";
      shownRows.forEach((atom, row) => {
        const y = 2 + row * 16;
        if (row % 2) { lane.fillStyle = "#f4f5f8"; lane.fillRect(0, y, width, 16); }
        lane.fillStyle = "#1d1f24";
        lane.save();
        lane.beginPath(); lane.rect(0, y, labelWidth - 6, 16); lane.clip();
        lane.fillText(atom.name, 6, y + 8);
        lane.restore();
        lane.fillStyle = "#2f6fde";
        for (const k of lanes.get(atom.id)) {
          const x = labelWidth + xOf(k + 1, width - labelWidth);
          lane.fillRect(Math.floor(x), y + 3, 1.5, 10);
        }
      });
    });
    context.drawImage(rowsDrawn, 0, 0, width, height);
    const x = labelWidth + xOf(current.step - meta.first, width - labelWidth);
    context.fillStyle = "rgba(17,17,17,.6)";
    context.fillRect(Math.round(x), 0, 1, height);
    $("search-count").textContent = `${rows.length} atom${rows.length === 1 ? "" : "s"} changed in this range`;
    const more = $("lanes-more");
    more.hidden = rows.length <= maximumLanes;
    more.textContent = `… and ${rows.length - maximumLanes} more: narrow the search to see them.`;
    canvas.dataset.labelWidth = String(labelWidth);
  }

  // ---- Values, diff and graph at the current step ----
  function renderValues() {
    const changed = new Set(changes.filter((c) => !c.unchanged && !c.released).map((c) => c.id));
    const live = [...current.values.keys()].map((id) => atoms.get(id) || { id, name: `#${id}`, label: `#${id}`, type: "" })
      .sort((a, b) => byScalars(a.name, b.name) || a.id - b.id);
    const list = $("values");
    const fragment = document.createDocumentFragment();
    let count = 0;
    for (const atom of live) {
      if (!matches(atom)) continue;
      count++;
      const entry = current.values.get(atom.id);
      const box = element("div", "atom" + (changed.has(atom.id) ? " changed" : ""));
      box.dataset.atom = atom.name;
      const name = element("div", "name", atom.name);
      if (changed.has(atom.id)) name.append(element("span", "badge", "changed"));
      if (entry.kind === "t" && entry.marks) name.append(element("span", "marks", `(${entry.marks})`));
      box.append(name, element("pre", "value", shown(entry)));
      fragment.append(box);
    }
    if (!count) fragment.append(element("p", "empty", live.length ? "No live atom matches the search." : "No live atoms at this step."));
    list.replaceChildren(fragment);
    $("values-title").textContent = `Values at step ${current.step} (${live.length} live)`;
  }

  function lineDiff(a, b) {
    let prefix = 0;
    while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
    let suffix = 0;
    while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
    const x = a.slice(prefix, a.length - suffix), y = b.slice(prefix, b.length - suffix);
    const middle = [];
    if (x.length * y.length <= 250000) {
      const table = Array.from({ length: x.length + 1 }, () => new Uint32Array(y.length + 1));
      for (let i = x.length - 1; i >= 0; i--) for (let j = y.length - 1; j >= 0; j--)
        table[i][j] = x[i] === y[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
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
  function renderDiffLines(lines) {
    const pre = element("pre");
    const context = 3;
    const keep = lines.map(() => false);
    lines.forEach(([mark], n) => { if (mark !== " ") for (let m = Math.max(0, n - context); m <= Math.min(lines.length - 1, n + context); m++) keep[m] = true; });
    for (let n = 0; n < lines.length;) {
      if (keep[n]) {
        const [mark, text] = lines[n];
        pre.append(element("span", "line" + (mark === "+" ? " add" : mark === "-" ? " remove" : ""), `${mark} ${text}`));
        n++;
      } else {
        let m = n;
        while (m < lines.length && !keep[m]) m++;
        pre.append(element("span", "line fold", `  … (${m - n} unchanged line${m - n === 1 ? "" : "s"})`));
        n = m;
      }
    }
    return pre;
  }
  function renderDiff() {
    const list = $("diff");
    const fragment = document.createDocumentFragment();
    const shownChanges = changes.filter((c) => !c.unchanged && matches(atoms.get(c.id) || { name: "", label: "", type: "" }));
    for (const change of shownChanges) {
      const box = element("div", "diff");
      box.dataset.atom = atomName(change.id);
      const what = change.released ? "released" : change.created ? "created" : "changed";
      box.append(element("div", "name", `${atomName(change.id)} — ${what}`));
      const before = change.beforeText === null ? [] : change.beforeText.split("\n");
      const after = change.afterText === null ? [] : change.afterText.split("\n");
      box.append(renderDiffLines(lineDiff(before, after)));
      fragment.append(box);
    }
    const equal = changes.filter((c) => c.unchanged).map((c) => atomName(c.id));
    if (equal.length) fragment.append(element("p", "empty", `Written with an equal value: ${equal.join(", ")}`));
    if (!shownChanges.length && !equal.length) fragment.append(element("p", "empty", current.step === meta.first ? "The first step of the report: nothing before it to compare." : "No value changed at this step."));
    list.replaceChildren(fragment);
    $("diff-title").textContent = current.step === meta.first ? "Changes" : `Changes from step ${current.step - 1} to ${current.step}`;
  }

  const svgTags = new Set(["svg", "g", "title", "polygon", "polyline", "path", "ellipse", "circle", "rect", "line", "text", "tspan", "defs", "marker"]);
  function sanitizedSVG(markup) {
    const parsed = new DOMParser().parseFromString(markup, "image/svg+xml");
    const root = parsed.documentElement;
    if (!root || root.localName !== "svg" || parsed.getElementsByTagName("parsererror").length) return null;
    const clean = (node) => {
      for (const child of [...node.children]) {
        if (!svgTags.has(child.localName)) { child.remove(); continue; }
        clean(child);
      }
      for (const attribute of [...node.attributes]) {
        const name = attribute.name.toLowerCase();
        if (name.startsWith("on") || name.includes("href") || name === "style") node.removeAttribute(attribute.name);
      }
    };
    clean(root);
    return document.importNode(root, true);
  }

  function graphIndexAt(step) {
    let index = -1;
    for (const [at, graph] of meta.graphAt) { if (at <= step) index = graph; else break; }
    return index;
  }

  // The graph atoms-inspect's DOT describes: labels, or label[key] where a family shares one.
  function graphOf(state) {
    const live = [...state.values.keys()].map((id) => atoms.get(id) || { id, label: `#${id}`, name: `#${id}` });
    const perLabel = new Map();
    for (const atom of live) perLabel.set(atom.label, (perLabel.get(atom.label) || 0) + 1);
    const names = new Map(live.map((atom) => [atom.id, perLabel.get(atom.label) > 1 ? atom.name : atom.label]));
    const nodes = new Map();
    for (const name of names.values()) nodes.set(name, { name, file: false });
    const edges = new Map();
    for (const key of state.edges) {
      const [f, t] = key.split(",").map(Number);
      if (names.has(f) && names.has(t)) edges.set(`${names.get(f)}\u0000${names.get(t)}\u0000`, { from: names.get(f), to: names.get(t), label: null });
    }
    for (const key of state.subs) {
      const [a, l] = key.split(",").map(Number);
      if (!names.has(a)) continue;
      const at = meta.locs[l], colon = at.lastIndexOf(":");
      const file = colon < 0 ? at : at.slice(0, colon), line = colon < 0 ? "0" : at.slice(colon + 1);
      if (!nodes.has(file) || !nodes.get(file).file) nodes.set(file, { name: file, file: true });
      edges.set(`${names.get(a)}\u0000${file}\u0000${line}`, { from: names.get(a), to: file, label: `line:${line}` });
    }
    return { nodes: [...nodes.values()], edges: [...edges.values()] };
  }

  // A layered layout: longest-path layers, then a few barycenter sweeps to order each layer.
  function layoutGraph(graph) {
    const svgNS = "http://www.w3.org/2000/svg";
    const make = (tag, attributes) => { const node = document.createElementNS(svgNS, tag); for (const k in attributes) node.setAttribute(k, attributes[k]); return node; };
    const incoming = new Map(graph.nodes.map((n) => [n.name, []]));
    const outgoing = new Map(graph.nodes.map((n) => [n.name, []]));
    for (const edge of graph.edges) { if (edge.from !== edge.to) { outgoing.get(edge.from).push(edge.to); incoming.get(edge.to).push(edge.from); } }
    const layer = new Map();
    const pending = new Map(graph.nodes.map((n) => [n.name, incoming.get(n.name).length]));
    let queue = graph.nodes.filter((n) => pending.get(n.name) === 0).map((n) => n.name);
    for (const name of queue) layer.set(name, 0);
    while (queue.length) {
      const next = [];
      for (const name of queue) for (const target of outgoing.get(name)) {
        layer.set(target, Math.max(layer.get(target) || 0, layer.get(name) + 1));
        pending.set(target, pending.get(target) - 1);
        if (pending.get(target) === 0) next.push(target);
      }
      queue = next;
    }
    for (const node of graph.nodes) if (!layer.has(node.name)) layer.set(node.name, 0); // on a cycle
    const layers = [];
    for (const node of [...graph.nodes].sort((a, b) => byScalars(a.name, b.name))) {
      const l = layer.get(node.name);
      (layers[l] = layers[l] || []).push(node.name);
    }
    const position = new Map();
    const reindex = () => layers.forEach((names) => names.forEach((name, i) => position.set(name, i)));
    reindex();
    for (let sweep = 0; sweep < 4; sweep++) {
      const down = sweep % 2 === 0;
      for (const names of down ? layers : [...layers].reverse()) {
        if (!names) continue;
        const weight = (name) => {
          const near = down ? incoming.get(name) : outgoing.get(name);
          return near.length ? near.reduce((sum, other) => sum + position.get(other), 0) / near.length : position.get(name);
        };
        names.sort((a, b) => weight(a) - weight(b));
        reindex();
      }
    }
    const boxes = new Map();
    let width = 0;
    layers.forEach((names, l) => {
      if (!names) return;
      let x = 20;
      for (const name of names) {
        const w = Math.max(60, 7.2 * [...name].length + 24);
        boxes.set(name, { x, y: 20 + l * 90, w, h: 34 });
        x += w + 36;
      }
      width = Math.max(width, x);
    });
    const height = 20 + layers.length * 90;
    const svg = make("svg", { viewBox: `0 0 ${width} ${height}`, width, height });
    const defs = make("defs", {});
    const marker = make("marker", { id: "arrow", viewBox: "0 0 10 10", refX: "10", refY: "5", markerWidth: "7", markerHeight: "7", orient: "auto-start-reverse" });
    marker.append(make("path", { d: "M0,0 L10,5 L0,10 z", fill: "#333" }));
    defs.append(marker);
    svg.append(defs);
    for (const edge of graph.edges) {
      const a = boxes.get(edge.from), b = boxes.get(edge.to);
      const group = make("g", { class: "edge" });
      const title = make("title", {});
      title.textContent = `${edge.from}->${edge.to}`;
      group.append(title);
      const x1 = a.x + a.w / 2, y1 = a.y + a.h, x2 = b.x + b.w / 2, y2 = b.y;
      const bend = b.y <= a.y ? 60 : 0;
      group.append(make("path", { d: `M${x1},${y1} C${x1 + bend},${y1 + 40} ${x2 + bend},${y2 - 40} ${x2},${y2}`, fill: "none", stroke: "#333", "marker-end": "url(#arrow)" }));
      if (edge.label) {
        const label = make("text", { x: (x1 + x2) / 2 + 4, y: (y1 + y2) / 2, "font-size": "11", fill: "#555" });
        label.textContent = edge.label;
        group.append(label);
      }
      svg.append(group);
    }
    for (const node of graph.nodes) {
      const box = boxes.get(node.name);
      const group = make("g", { class: "node" });
      const title = make("title", {});
      title.textContent = node.name;
      group.append(title);
      group.append(make("rect", { x: box.x, y: box.y, width: box.w, height: box.h, rx: 3, fill: node.file ? "#e4e6eb" : "#fff", stroke: "#333" }));
      const text = make("text", { x: box.x + box.w / 2, y: box.y + box.h / 2 + 4, "text-anchor": "middle", "font-size": "13" });
      text.textContent = node.name;
      group.append(text);
      svg.append(group);
    }
    return svg;
  }

  let drawnGraph = null;
  function renderGraph() {
    const index = graphIndexAt(current.step);
    const markup = index >= 0 ? meta.svgs[index] : null;
    const key = markup ? `svg:${index}` : `own:${index}:${[...current.values.keys()].sort().join(",")}:${[...current.edges].sort().join(";")}:${[...current.subs].sort().join(";")}`;
    const target = $("graph");
    if (key !== drawnGraph) {
      const svg = (markup && sanitizedSVG(markup)) || layoutGraph(graphOf(current));
      target.replaceChildren(svg);
      target.dataset.layout = markup ? "dot" : "page";
      drawnGraph = key;
    }
    const changedNames = new Set(changes.filter((c) => !c.unchanged).map((c) => atomName(c.id)));
    for (const node of target.querySelectorAll("g.node")) {
      const title = node.querySelector("title");
      node.classList.toggle("changed", !!title && changedNames.has(title.textContent));
    }
  }

  function renderHeader() {
    const k = current.step - meta.first - 1;
    $("position").textContent = k >= 0 ? describe(k).split("\n")[0] + ` · ${formatTime(times[k + 1])}` : `step ${current.step} · the first step of the report`;
    $("slider").value = String(current.step);
  }

  function render() {
    renderHeader();
    drawTimeline();
    renderValues();
    renderDiff();
    renderGraph();
    if (lanes) drawLanes();
    const hash = `#step=${current.step}`;
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }

  // ---- Wiring ----
  function stepFromHash() {
    const match = /^#step=(-?\d+)$/.exec(location.hash);
    if (!match) return null;
    const step = Number(match[1]);
    if (step < meta.first || step > meta.last) {
      showNotice(`Step ${step} is not in this report (steps ${meta.first}…${meta.last}); showing the nearest.`);
    }
    return step;
  }
  function showNotice(text) { const notice = $("notice"); notice.textContent = text; notice.hidden = false; }

  function start() {
    $("journal").textContent = `${meta.journal} · steps ${meta.first}…${meta.last}` + (meta.last < meta.journalLast || meta.first > 0 ? ` of the journal's ${meta.journalLast}` : "");
    const slider = $("slider");
    slider.min = String(meta.first);
    slider.max = String(meta.last);
    slider.addEventListener("input", () => go(slider.value));
    $("prev").addEventListener("click", () => go(current.step - 1));
    $("next").addEventListener("click", () => go(current.step + 1));
    $("axis").addEventListener("change", (event) => { axis = event.target.value; drawTimeline(); if (lanes) drawLanes(); });
    for (const cause of causes) {
      const item = element("span");
      const swatch = element("i");
      swatch.style.background = colorOf(cause);
      item.append(swatch, document.createTextNode(cause));
      $("legend").append(item);
    }
    const timeline = $("timeline");
    const tooltip = $("tooltip");
    timeline.addEventListener("mousemove", (event) => {
      const step = nearestStep(event.clientX, timeline);
      if (step === meta.first) { tooltip.hidden = true; return; }
      tooltip.textContent = describe(step - meta.first - 1);
      tooltip.hidden = false;
      const panel = $("timeline-panel").getBoundingClientRect();
      tooltip.style.left = Math.min(event.clientX - panel.left + 12, panel.width - 300) + "px";
      tooltip.style.top = (event.clientY - panel.top + 16) + "px";
    });
    timeline.addEventListener("mouseleave", () => { tooltip.hidden = true; });
    timeline.addEventListener("click", (event) => go(nearestStep(event.clientX, timeline)));
    const lanesCanvas = $("lanes");
    lanesCanvas.addEventListener("click", (event) => {
      const rect = lanesCanvas.getBoundingClientRect();
      const labelWidth = Number(lanesCanvas.dataset.labelWidth || 0);
      const x = event.clientX - rect.left - labelWidth;
      if (x < 0) return;
      let best = meta.first, distance = Infinity;
      for (let s = 0; s <= transactionCount; s++) {
        const d = Math.abs(xOf(s, rect.width - labelWidth) - x);
        if (d < distance) { distance = d; best = meta.first + s; }
      }
      go(best);
    });
    document.addEventListener("keydown", (event) => {
      if (event.target instanceof HTMLInputElement && event.target.type !== "range") return;
      if (event.target instanceof HTMLSelectElement) return;
      const moves = { ArrowLeft: -1, ArrowRight: 1 };
      if (event.key in moves) { event.preventDefault(); go(current.step + moves[event.key]); }
      else if (event.key === "Home") { event.preventDefault(); go(meta.first); }
      else if (event.key === "End") { event.preventDefault(); go(meta.last); }
    });
    $("search").addEventListener("input", (event) => { query = event.target.value.trim(); renderValues(); renderDiff(); drawLanes(); });
    window.addEventListener("hashchange", () => { const step = stepFromHash(); if (step !== null) go(step); });
    window.addEventListener("resize", () => { drawTimeline(); if (lanes) drawLanes(); });
    const initial = stepFromHash();
    go(initial === null ? meta.last : initial);
    requestAnimationFrame(() => {
      report.firstRenderMs = performance.now();
      // The lanes need a pass over every transaction: after the first paint.
      setTimeout(drawLanes, 0);
    });
  }

  try {
    start();
  } catch (error) {
    report.error = String(error && error.message || error);
    showNotice(`This report could not be shown: ${report.error}`);
  }
})();
"""#
}
