// The dependency graph of a step: the nodes and edges `atoms-inspect graph --at STEP` prints,
// a layered layout when `dot` drew none, and `dot`'s SVG filtered by an allow-list.
/* global reportModules */
(function (factory) {
  if (typeof module === "object" && module.exports) module.exports = factory(require("./json.js"));
  else reportModules.graph = factory(reportModules.json);
})(function (json) {
  "use strict";
  const { byScalars } = json;

  /** The index in `meta.svgs` of the graph at `step` (`-1` before the first). */
  function graphIndexAt(meta, step) {
    let index = -1;
    for (const [at, graph] of meta.graphAt) { if (at <= step) index = graph; else break; }
    return index;
  }

  /**
   * The graph atoms-inspect's DOT describes at `state`: nodes named by label, or
   * `label[key]` where a family shares one, edges between them, and an edge labelled
   * `line:N` from a watched atom to each subscriber's file.
   */
  function graphOf(report, state) {
    const live = [...state.values.keys()].map(report.atomOf);
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
      const at = report.meta.locs[l], colon = at.lastIndexOf(":");
      const file = colon < 0 ? at : at.slice(0, colon), line = colon < 0 ? "0" : at.slice(colon + 1);
      if (!nodes.has(file) || !nodes.get(file).file) nodes.set(file, { name: file, file: true });
      edges.set(`${names.get(a)}\u0000${file}\u0000${line}`, { from: names.get(a), to: file, label: `line:${line}` });
    }
    return { nodes: [...nodes.values()], edges: [...edges.values()] };
  }

  /** Each node's layer: the longest path to it from a node nothing points at (0 on cycles). */
  function layersOf(graph, incoming, outgoing) {
    const layer = new Map();
    const pending = new Map(graph.nodes.map((n) => [n.name, incoming.get(n.name).length]));
    let queue = graph.nodes.filter((n) => pending.get(n.name) === 0).map((n) => n.name);
    for (const name of queue) layer.set(name, 0);
    while (queue.length) {
      const next = [];
      for (const name of queue) {
        for (const target of outgoing.get(name)) {
          layer.set(target, Math.max(layer.get(target) || 0, layer.get(name) + 1));
          pending.set(target, pending.get(target) - 1);
          if (pending.get(target) === 0) next.push(target);
        }
      }
      queue = next;
    }
    for (const node of graph.nodes) if (!layer.has(node.name)) layer.set(node.name, 0);
    const layers = [];
    for (const node of [...graph.nodes].sort((a, b) => byScalars(a.name, b.name))) {
      const l = layer.get(node.name);
      (layers[l] = layers[l] || []).push(node.name);
    }
    return layers;
  }

  /**
   * A layered layout: longest-path layers, then four barycenter sweeps to order each layer.
   * Returns `{width, height, boxes}`, boxes by node name as `{x, y, w, h}`.
   */
  function layout(graph) {
    const incoming = new Map(graph.nodes.map((n) => [n.name, []]));
    const outgoing = new Map(graph.nodes.map((n) => [n.name, []]));
    for (const edge of graph.edges) {
      if (edge.from !== edge.to) { outgoing.get(edge.from).push(edge.to); incoming.get(edge.to).push(edge.from); }
    }
    const layers = layersOf(graph, incoming, outgoing);
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
    return { width, height: 20 + layers.length * 90, boxes };
  }

  const svgNS = "http://www.w3.org/2000/svg";
  function make(tag, attributes, text) {
    const node = document.createElementNS(svgNS, tag);
    for (const k in attributes) node.setAttribute(k, attributes[k]);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  /** The SVG of `graph` laid out by `layout`: groups `g.node` and `g.edge` with titles. */
  function drawnGraph(graph) {
    const { width, height, boxes } = layout(graph);
    const svg = make("svg", { viewBox: `0 0 ${width} ${height}`, width, height });
    const defs = make("defs", {});
    const marker = make("marker", { id: "arrow", viewBox: "0 0 10 10", refX: "10", refY: "5", markerWidth: "7", markerHeight: "7", orient: "auto-start-reverse" });
    marker.append(make("path", { d: "M0,0 L10,5 L0,10 z", fill: "#333" }));
    defs.append(marker);
    svg.append(defs);
    for (const edge of graph.edges) {
      const a = boxes.get(edge.from), b = boxes.get(edge.to);
      const group = make("g", { class: "edge" });
      group.append(make("title", {}, `${edge.from}->${edge.to}`));
      const x1 = a.x + a.w / 2, y1 = a.y + a.h, x2 = b.x + b.w / 2, y2 = b.y;
      const bend = b.y <= a.y ? 60 : 0;
      group.append(make("path", { d: `M${x1},${y1} C${x1 + bend},${y1 + 40} ${x2 + bend},${y2 - 40} ${x2},${y2}`, fill: "none", stroke: "#333", "marker-end": "url(#arrow)" }));
      if (edge.label) group.append(make("text", { x: (x1 + x2) / 2 + 4, y: (y1 + y2) / 2, "font-size": "11", fill: "#555" }, edge.label));
      svg.append(group);
    }
    for (const node of graph.nodes) {
      const box = boxes.get(node.name);
      const group = make("g", { class: "node" });
      group.append(make("title", {}, node.name));
      group.append(make("rect", { x: box.x, y: box.y, width: box.w, height: box.h, rx: 3, fill: node.file ? "#e4e6eb" : "#fff", stroke: "#333" }));
      group.append(make("text", { x: box.x + box.w / 2, y: box.y + box.h / 2 + 4, "text-anchor": "middle", "font-size": "13" }, node.name));
      svg.append(group);
    }
    return svg;
  }

  /** The SVG elements `dot`'s output may keep; everything else is removed. */
  const svgTags = new Set(["svg", "g", "title", "polygon", "polyline", "path", "ellipse", "circle", "rect", "line", "text", "tspan", "defs", "marker"]);

  /** Whether an attribute may stay: no event handlers, links or style. */
  const allowedAttribute = (name) => {
    const lower = name.toLowerCase();
    return !lower.startsWith("on") && !lower.includes("href") && lower !== "style";
  };

  /** `dot`'s SVG parsed and filtered by the allow-lists, or null when it does not parse. */
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
        if (!allowedAttribute(attribute.name)) node.removeAttribute(attribute.name);
      }
    };
    clean(root);
    return document.importNode(root, true);
  }

  /** Draws the graph at `view.state` into `#graph`, redrawing only when it changed. */
  function graphView(report) {
    let drawnKey = null;
    return function render(view) {
      const { state } = view;
      const index = graphIndexAt(report.meta, state.step);
      const markup = index >= 0 ? report.meta.svgs[index] : null;
      const key = markup ? `svg:${index}` : `own:${index}:${[...state.values.keys()].sort().join(",")}:${[...state.edges].sort().join(";")}:${[...state.subs].sort().join(";")}`;
      const target = document.getElementById("graph");
      if (key !== drawnKey) {
        const svg = (markup && sanitizedSVG(markup)) || drawnGraph(graphOf(report, state));
        target.replaceChildren(svg);
        target.dataset.layout = markup ? "dot" : "page";
        drawnKey = key;
      }
      const changedNames = new Set(view.changes.filter((c) => !c.unchanged).map((c) => report.atomName(c.id)));
      for (const node of target.querySelectorAll("g.node")) {
        const title = node.querySelector("title");
        node.classList.toggle("changed", !!title && changedNames.has(title.textContent));
      }
    };
  }

  return { graphIndexAt, graphOf, layout, svgTags, allowedAttribute, sanitizedSVG, graphView };
});
