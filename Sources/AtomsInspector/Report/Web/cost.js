// The cost lane and the slowest atoms, from the `cost` member (docs/REPORT.md) a journal
// recorded with timing gives: each transaction's whole time as a bar scaled to the slowest,
// and at the current step that step's evaluations and the atoms that took the most time from
// the report's first step up to it. Without the member the lane is absent and the panel says
// the journal was recorded without timing.
/* global reportModules */
(function (factory) {
  if (typeof module === "object" && module.exports) module.exports = factory(require("./json.js"), require("./timeline.js"), require("./values.js"));
  else reportModules.cost = factory(reportModules.json, reportModules.timeline, reportModules.values);
})(function (json, timeline, values) {
  "use strict";
  const { byScalars } = json;
  const { xOf, sizeCanvas, bitmap } = timeline;
  const { element } = values;

  const LANE_HEIGHT = 40;
  const SLOWEST_LISTED = 10;

  /**
   * The cost data decoded, or `null` when the journal was recorded without timing: each
   * transaction's nanoseconds (`-1` without a timing line), the slowest transaction, and where
   * each transaction's evaluations start in `evals`.
   */
  function costOf(report) {
    const cost = report.meta.cost;
    if (!cost) return null;
    const count = report.transactionCount;
    const totals = cost.total;
    let slowest = -1;
    for (let k = 0; k < count; k++) if (totals[k] > (slowest < 0 ? -1 : totals[slowest])) slowest = k;
    const starts = new Uint32Array(count + 1);
    let e = 0;
    for (let k = 0; k < count; k++) {
      starts[k] = e;
      while (e < cost.evals.length && cost.evals[e][0] === k) e++;
    }
    starts[count] = e;
    return { totals, evals: cost.evals, starts, slowest, max: slowest < 0 ? 0 : totals[slowest] };
  }

  /** Times at or below this many nanoseconds get the shortest bar. */
  const FLOOR_NS = 1000;

  /**
   * Each transaction's bar, in pixels of a lane `height` tall: the slowest fills it, any
   * other time at least 1. The scale is logarithmic from 1 µs to the slowest, so that one
   * slow outlier (a thread preempted, a first computation) does not flatten the rest.
   */
  function barHeights(cost, height) {
    const span = Math.log(Math.max(cost.max, FLOOR_NS) / FLOOR_NS);
    return Array.from(cost.totals, (ns) => {
      if (ns <= 0 || cost.max <= 0) return 0;
      if (span === 0) return Math.max(1, Math.round(ns / cost.max * height));
      return Math.max(1, Math.round(Math.log(Math.max(ns, FLOOR_NS) / FLOOR_NS) / span * height));
    });
  }

  /** Transaction `k`'s evaluations in the order they ran: `{id, selfNs, wasted}`. */
  function evaluationsAt(cost, k) {
    const result = [];
    for (let e = cost.starts[k]; e < cost.starts[k + 1]; e++) {
      const [, id, selfNs, wasted] = cost.evals[e];
      result.push({ id, selfNs, wasted: wasted === 1 });
    }
    return result;
  }

  /**
   * The tally of atoms over transactions `0…k`, as a function of `k`: `{id, selfNs,
   * evaluations, wasted}` by self time, most first, then by name. Moving forward adds the
   * transactions passed; moving back counts again from the start.
   */
  function atomTally(report, cost) {
    let through = -1;
    let byAtom = new Map();
    return (k) => {
      if (k < through) { through = -1; byAtom = new Map(); }
      const end = cost.starts[Math.min(k + 1, report.transactionCount)];
      for (let e = cost.starts[through + 1]; e < end; e++) {
        const [, id, selfNs, wasted] = cost.evals[e];
        let atom = byAtom.get(id);
        if (!atom) byAtom.set(id, atom = { id, selfNs: 0, evaluations: 0, wasted: 0 });
        atom.selfNs += selfNs;
        atom.evaluations += 1;
        atom.wasted += wasted;
      }
      through = Math.max(through, k);
      return [...byAtom.values()].map((atom) => ({ ...atom }))
        .sort((a, b) => b.selfNs - a.selfNs || byScalars(report.atomName(a.id), report.atomName(b.id)));
    };
  }

  /** Nanoseconds as `12.3 µs`, or `1.234 ms` from a millisecond. */
  function formatNs(ns) {
    return ns >= 1e6 ? `${(ns / 1e6).toFixed(3)} ms` : `${(ns / 1e3).toFixed(1)} µs`;
  }

  /** A table of `rows` (arrays of text) under `headings`; cells go in as text. */
  function table(headings, rows) {
    const result = element("table", "cost-table");
    const head = element("tr");
    for (const heading of headings) head.append(element("th", "", heading));
    result.append(head);
    for (const row of rows) {
      const line = element("tr");
      row.forEach((cell, column) => line.append(element("td", column === 0 ? "" : "number", cell)));
      result.append(line);
    }
    return result;
  }

  /**
   * The panel: the lane (bars drawn once per size and axis; moving redraws the marker), the
   * current step's time and evaluations, and the slowest atoms up to it.
   */
  function costView(report) {
    const cost = costOf(report);
    const { meta } = report;
    const $ = (id) => document.getElementById(id);
    if (!cost) {
      $("cost-lane").remove();
      $("cost-summary").textContent = "This journal was recorded without timing: no cost lane. Record the session with timing on (the default: leave JournalRecorder.recordsTiming on, run the samples without --no-timing) to see what each transaction cost.";
      $("cost-panel").dataset.timed = "false";
      return { hasLane: false, draw() {}, render() {} };
    }
    $("cost-panel").dataset.timed = "true";
    const tally = atomTally(report, cost);
    const heights = barHeights(cost, LANE_HEIGHT - 4);
    let bars = null;

    function draw(step, axis) {
      const { context, width } = sizeCanvas($("cost-lane"), LANE_HEIGHT);
      const key = `${width}:${axis}`;
      if (!bars || bars.key !== key) {
        bars = { key, canvas: bitmap(width, LANE_HEIGHT, (drawing) => {
          drawing.fillStyle = "#c2410c";
          for (let k = 0; k < report.transactionCount; k++) {
            if (heights[k]) drawing.fillRect(Math.floor(xOf(report, axis, k + 1, width)), LANE_HEIGHT - 2 - heights[k], 1.5, heights[k]);
          }
        }) };
      }
      context.clearRect(0, 0, width, LANE_HEIGHT);
      context.drawImage(bars.canvas, 0, 0, width, LANE_HEIGHT);
      context.fillStyle = "rgba(17,17,17,.6)";
      context.fillRect(Math.round(xOf(report, axis, step - meta.first, width)), 0, 1, LANE_HEIGHT);
    }

    function render(step) {
      const k = step - meta.first - 1;
      const slowest = cost.slowest < 0 ? "" : ` (the slowest: ${formatNs(cost.max)} at step ${meta.first + 1 + cost.slowest})`;
      const detail = document.createDocumentFragment();
      if (k < 0) {
        $("cost-summary").textContent = `Step ${step}: the first step of the report, no transaction` + slowest;
      } else if (cost.totals[k] < 0) {
        $("cost-summary").textContent = `Step ${step} has no timing line` + slowest;
      } else {
        $("cost-summary").textContent = `Step ${step} took ${formatNs(cost.totals[k])}` + slowest;
      }
      if (k >= 0) {
        const here = evaluationsAt(cost, k);
        const box = element("div", "cost-box");
        box.id = "cost-step";
        box.append(element("h3", "", here.length ? `Evaluations at step ${step}` : `No evaluation at step ${step}`));
        if (here.length) box.append(table(["atom", "self", ""], here.map((e) => [report.atomName(e.id), formatNs(e.selfNs), e.wasted ? "wasted" : ""])));
        detail.append(box);
      }
      const atoms = k >= 0 ? tally(k) : [];
      const box = element("div", "cost-box");
      box.id = "cost-atoms";
      box.append(element("h3", "", atoms.length ? `Slowest atoms, steps ${meta.first}…${step}` : `No evaluation in steps ${meta.first}…${step}`));
      if (atoms.length) {
        box.append(table(["atom", "self", "evals", "wasted"], atoms.slice(0, SLOWEST_LISTED).map((a) => [report.atomName(a.id), formatNs(a.selfNs), String(a.evaluations), String(a.wasted)])));
        if (atoms.length > SLOWEST_LISTED) box.append(element("p", "empty", `… and ${atoms.length - SLOWEST_LISTED} more`));
      }
      detail.append(box);
      $("cost-detail").replaceChildren(detail);
    }

    return { hasLane: true, draw, render };
  }

  return { costOf, barHeights, evaluationsAt, atomTally, formatNs, costView };
});
