// The timeline and the lanes: where each step sits along time or steps, which step a point
// is nearest, when each atom changed, the search, and the canvases that draw them.
/* global reportModules */
(function (factory) {
  if (typeof module === "object" && module.exports) module.exports = factory(require("./json.js"));
  else reportModules.timeline = factory(reportModules.json);
})(function (json) {
  "use strict";
  const { byScalars } = json;

  const PAD = 6;

  /**
   * The x of the step `stepIndex` steps after the first, on an axis `width` wide: along time
   * (`axis` `"time"`, unless every step has one time), or along steps.
   */
  function xOf(report, axis, stepIndex, width) {
    const { times, transactionCount } = report;
    const span = times[transactionCount] - times[0];
    if (axis === "time" && span > 0) return PAD + (times[stepIndex] - times[0]) / span * (width - 2 * PAD);
    return PAD + (transactionCount ? stepIndex / transactionCount : 0.5) * (width - 2 * PAD);
  }

  /** The step nearest to `x` on an axis `width` wide (steps are in time order: bisection). */
  function nearestStep(report, axis, x, width) {
    let low = 0, high = report.transactionCount;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (xOf(report, axis, middle, width) < x) low = middle + 1; else high = middle;
    }
    let best = 0, distance = Infinity;
    for (const candidate of [low - 1, low]) {
      if (candidate < 0 || candidate > report.transactionCount) continue;
      const d = Math.abs(xOf(report, axis, candidate, width) - x);
      if (d < distance) { distance = d; best = candidate; }
    }
    return report.meta.first + best;
  }

  /**
   * For each atom given a value in the range, by its identity (one atom across its numbers),
   * the transactions (indexes) that did.
   */
  function lanesOf(report) {
    const lanes = new Map();
    for (let k = 0; k < report.transactionCount; k++) {
      for (const id of report.changedAtoms(k)) {
        const identity = report.atomOf(id).identity;
        let lane = lanes.get(identity);
        if (!lane) lanes.set(identity, lane = []);
        if (lane[lane.length - 1] !== k) lane.push(k);
      }
    }
    return lanes;
  }

  /**
   * The search: a predicate on atoms. A `*` pattern matches the whole name, label or type;
   * other text is a case-insensitive substring of the name or type. Empty matches all.
   */
  function matcher(query) {
    if (!query) return () => true;
    if (query.includes("*")) {
      const pattern = new RegExp("^" + query.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*") + "$", "s");
      return (atom) => [atom.name, atom.label, atom.type].some((text) => pattern.test(text));
    }
    const needle = query.toLowerCase();
    return (atom) => [atom.name, atom.type].some((text) => text.toLowerCase().includes(needle));
  }

  const formatTime = (micros) => `${(micros / 1000).toFixed(3)} ms`;

  /** What hovering transaction `k` tells: step, cause, site, origin, atoms written, time. */
  function describe(report, k) {
    const { meta } = report;
    const [cause, origin, at] = meta.sites[meta.site[k]];
    const names = meta.sets[meta.set[k]].map(report.atomName);
    const listed = names.slice(0, 12).join(", ") + (names.length > 12 ? `, … (${names.length - 12} more)` : "");
    const lines = [`step ${meta.first + 1 + k} · ${cause}${at >= 0 ? " @ " + meta.locs[at] : ""}`];
    if (origin) lines.push(`origin: ${report.atomName(origin)}`);
    lines.push(`atoms written: ${listed || "none"}`);
    lines.push(`time: ${formatTime(report.times[k + 1])}`);
    return lines.join("\n");
  }

  const causeColors = { initialize: "#9aa3b2", set: "#2f6fde", modify: "#16a3a3", reset: "#e07b00", refresh: "#8b49d6", restore: "#8a5a2b", "async-result": "#1f9d55", effect: "#d6458f", release: "#d63a3a", inspector: "#34404f" };
  const extraColors = ["#5b8c00", "#b35c00", "#0077aa", "#aa0077", "#666666"];

  /** The causes in the report, sorted, and a colour for each. */
  function causesOf(report) {
    const causes = [...new Set(report.meta.sites.map((site) => site[0]))].sort();
    const colorOf = (cause) => causeColors[cause] || extraColors[Math.max(0, causes.indexOf(cause)) % extraColors.length];
    return { causes, colorOf };
  }

  /** Sizes `canvas` to its width and `height` CSS pixels at the screen's pixel ratio. */
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

  /** An offscreen canvas `width` × `height` CSS pixels at the screen's ratio, drawn by `draw`. */
  function bitmap(width, height, draw) {
    const ratio = window.devicePixelRatio || 1;
    const canvas = document.createElement("canvas");
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
    const context = canvas.getContext("2d");
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    draw(context);
    return canvas;
  }

  /**
   * The drawing of the timeline and lanes. The ticks are drawn once per size, axis and
   * search into a bitmap; moving only redraws the marker.
   */
  function timelineView(report) {
    const { colorOf } = causesOf(report);
    const drawn = new Map();
    let lanes = null;
    const view = { axis: "time" };

    function cachedBitmap(name, key, width, height, draw) {
      const cached = drawn.get(name);
      if (cached && cached.key === key) return cached.canvas;
      const canvas = bitmap(width, height, draw);
      drawn.set(name, { key, canvas });
      return canvas;
    }

    view.drawTimeline = (step) => {
      const { context, width } = sizeCanvas(document.getElementById("timeline"), 64);
      context.clearRect(0, 0, width, 64);
      const ticks = cachedBitmap("timeline", `${width}:${view.axis}`, width, 64, (ticks) => {
        for (let k = 0; k < report.transactionCount; k++) {
          ticks.fillStyle = colorOf(report.meta.sites[report.meta.site[k]][0]);
          ticks.fillRect(Math.floor(xOf(report, view.axis, k + 1, width)), 8, 1, 48);
        }
      });
      context.drawImage(ticks, 0, 0, width, 64);
      const x = xOf(report, view.axis, step - report.meta.first, width);
      context.fillStyle = "#111";
      context.fillRect(Math.round(x) - 1, 0, 3, 64);
      context.beginPath();
      context.moveTo(x - 6, 0); context.lineTo(x + 6, 0); context.lineTo(x, 8); context.fill();
    };

    /** Whether the lanes have been computed (they need a pass over every transaction). */
    view.hasLanes = () => lanes !== null;

    view.drawLanes = (step, matches) => {
      if (!lanes) lanes = lanesOf(report);
      const maximumLanes = 60;
      // One row per atom, whatever its numbers: the first number's declaration names it.
      const rows = [...new Map([...report.atoms.values()].reverse().map((atom) => [atom.identity, atom])).values()]
        .filter((atom) => lanes.has(atom.identity) && matches(atom)).sort((a, b) => byScalars(a.name, b.name) || a.id - b.id);
      const shownRows = rows.slice(0, maximumLanes);
      const height = Math.max(20, shownRows.length * 16 + 4);
      const canvas = document.getElementById("lanes");
      const { context, width } = sizeCanvas(canvas, height);
      const labelWidth = Math.min(260, width * 0.3);
      context.clearRect(0, 0, width, height);
      const key = `${width}:${view.axis}:${shownRows.map((atom) => atom.id).join(",")}`;
      const rowsDrawn = cachedBitmap("lanes", key, width, height, (lane) => {
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
          for (const k of lanes.get(atom.identity)) {
            const x = labelWidth + xOf(report, view.axis, k + 1, width - labelWidth);
            lane.fillRect(Math.floor(x), y + 3, 1.5, 10);
          }
        });
      });
      context.drawImage(rowsDrawn, 0, 0, width, height);
      const x = labelWidth + xOf(report, view.axis, step - report.meta.first, width - labelWidth);
      context.fillStyle = "rgba(17,17,17,.6)";
      context.fillRect(Math.round(x), 0, 1, height);
      document.getElementById("search-count").textContent = `${rows.length} atom${rows.length === 1 ? "" : "s"} changed in this range`;
      const more = document.getElementById("lanes-more");
      more.hidden = rows.length <= maximumLanes;
      more.textContent = `… and ${rows.length - maximumLanes} more: narrow the search to see them.`;
      canvas.dataset.labelWidth = String(labelWidth);
    };

    return view;
  }

  return { xOf, nearestStep, lanesOf, matcher, describe, formatTime, causesOf, sizeCanvas, bitmap, timelineView };
});
