// The page: reads the embedded blocks, keeps the current step, and wires the controls. For
// tests and benchmarks it exposes `window.atomsReport`: `go(step)`, `step()`,
// `firstRenderMs`, `error`.
/* global reportModules */
(function (factory) {
  if (typeof module === "object" && module.exports) return;
  factory(reportModules);
})(function (modules) {
  "use strict";
  const { openReport } = modules.state;
  const { renderValues, renderDiff, element } = modules.values;
  const { nearestStep, matcher, describe, formatTime, causesOf, timelineView } = modules.timeline;
  const { graphView } = modules.graph;
  const { costView } = modules.cost;

  const $ = (id) => document.getElementById(id);
  const api = { go: () => {}, step: () => NaN, firstRenderMs: null, error: null };
  window.atomsReport = api;

  function showNotice(text) {
    const notice = $("notice");
    notice.textContent = text;
    notice.hidden = false;
  }

  function start() {
    const report = openReport({
      meta: $("report-meta").textContent,
      values: $("report-values").textContent,
      keyframes: $("report-keyframes").textContent,
    });
    const { meta } = report;
    const timeline = timelineView(report);
    const renderGraph = graphView(report);
    const cost = costView(report);
    // What the panels show: the state at the current step, the changes that led to it, the search.
    const view = { state: { step: NaN }, changes: [], matches: matcher("") };

    function render() {
      const k = view.state.step - meta.first - 1;
      $("position").textContent = k >= 0 ? describe(report, k).split("\n")[0] + ` · ${formatTime(report.times[k + 1])}` : `step ${view.state.step} · the first step of the report`;
      $("slider").value = String(view.state.step);
      timeline.drawTimeline(view.state.step);
      cost.draw(view.state.step, timeline.axis);
      cost.render(view.state.step);
      renderValues(report, view);
      renderDiff(report, view);
      renderGraph(view);
      if (timeline.hasLanes()) timeline.drawLanes(view.state.step, view.matches);
      const hash = `#step=${view.state.step}`;
      if (location.hash !== hash) history.replaceState(null, "", hash);
    }

    function go(target) {
      const step = Math.max(meta.first, Math.min(meta.last, Math.round(Number(target))));
      if (!Number.isFinite(step) || step === view.state.step) return;
      if (step === meta.first) {
        view.state = report.stateAt(step);
        view.changes = [];
      } else {
        const state = view.state.step === step - 1 ? view.state : report.stateAt(step - 1);
        view.changes = report.applyTransaction(state, step - meta.first - 1, true);
        view.state = state;
      }
      render();
    }
    api.go = go;
    api.step = () => view.state.step;

    function stepFromHash() {
      const match = /^#step=(-?\d+)$/.exec(location.hash);
      if (!match) return null;
      const step = Number(match[1]);
      if (step < meta.first || step > meta.last) {
        showNotice(`Step ${step} is not in this report (steps ${meta.first}…${meta.last}); showing the nearest.`);
      }
      return step;
    }

    $("journal").textContent = `${meta.journal} · steps ${meta.first}…${meta.last}` + (meta.last < meta.journalLast || meta.first > 0 ? ` of the journal's ${meta.journalLast}` : "");
    const slider = $("slider");
    slider.min = String(meta.first);
    slider.max = String(meta.last);
    slider.addEventListener("input", () => go(slider.value));
    $("prev").addEventListener("click", () => go(view.state.step - 1));
    $("next").addEventListener("click", () => go(view.state.step + 1));
    const redrawAxes = () => { timeline.drawTimeline(view.state.step); cost.draw(view.state.step, timeline.axis); if (timeline.hasLanes()) timeline.drawLanes(view.state.step, view.matches); };
    $("axis").addEventListener("change", (event) => { timeline.axis = event.target.value; redrawAxes(); });
    const { causes, colorOf } = causesOf(report);
    for (const cause of causes) {
      const item = element("span");
      const swatch = element("i");
      swatch.style.background = colorOf(cause);
      item.append(swatch, document.createTextNode(cause));
      $("legend").append(item);
    }
    wirePointer(report, timeline, go);
    document.addEventListener("keydown", (event) => {
      if (event.target instanceof HTMLInputElement && event.target.type !== "range") return;
      if (event.target instanceof HTMLSelectElement) return;
      const moves = { ArrowLeft: -1, ArrowRight: 1 };
      if (event.key in moves) { event.preventDefault(); go(view.state.step + moves[event.key]); }
      else if (event.key === "Home") { event.preventDefault(); go(meta.first); }
      else if (event.key === "End") { event.preventDefault(); go(meta.last); }
    });
    $("search").addEventListener("input", (event) => {
      view.matches = matcher(event.target.value.trim());
      renderValues(report, view);
      renderDiff(report, view);
      timeline.drawLanes(view.state.step, view.matches);
    });
    window.addEventListener("hashchange", () => { const step = stepFromHash(); if (step !== null) go(step); });
    window.addEventListener("resize", redrawAxes);
    const initial = stepFromHash();
    go(initial === null ? meta.last : initial);
    requestAnimationFrame(() => {
      api.firstRenderMs = performance.now();
      // The lanes need a pass over every transaction: after the first paint.
      setTimeout(() => timeline.drawLanes(view.state.step, view.matches), 0);
    });
  }

  /** Hovering the timeline describes a step; clicking it or a lane moves there. */
  function wirePointer(report, timeline, go) {
    const { meta } = report;
    const canvas = $("timeline");
    const tooltip = $("tooltip");
    const stepAt = (event, target, inset) => {
      const rect = target.getBoundingClientRect();
      return nearestStep(report, timeline.axis, event.clientX - rect.left - inset, rect.width - inset);
    };
    canvas.addEventListener("mousemove", (event) => {
      const step = stepAt(event, canvas, 0);
      if (step === meta.first) { tooltip.hidden = true; return; }
      tooltip.textContent = describe(report, step - meta.first - 1);
      tooltip.hidden = false;
      const panel = $("timeline-panel").getBoundingClientRect();
      tooltip.style.left = Math.min(event.clientX - panel.left + 12, panel.width - 300) + "px";
      tooltip.style.top = (event.clientY - panel.top + 16) + "px";
    });
    canvas.addEventListener("mouseleave", () => { tooltip.hidden = true; });
    canvas.addEventListener("click", (event) => go(stepAt(event, canvas, 0)));
    const costLane = $("cost-lane");
    if (costLane) costLane.addEventListener("click", (event) => go(stepAt(event, costLane, 0)));
    const lanes = $("lanes");
    lanes.addEventListener("click", (event) => {
      const labelWidth = Number(lanes.dataset.labelWidth || 0);
      if (event.clientX - lanes.getBoundingClientRect().left < labelWidth) return;
      go(stepAt(event, lanes, labelWidth));
    });
  }

  try {
    start();
  } catch (error) {
    api.error = String(error && error.message || error);
    showNotice(`This report could not be shown: ${api.error}`);
  }
});
