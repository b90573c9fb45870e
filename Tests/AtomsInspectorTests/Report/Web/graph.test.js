"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { load, blocks } = require("./fixture.js");
const { openReport } = load("state.js");
const { graphIndexAt, graphOf, layout, allowedAttribute, svgTags } = load("graph.js");

const edgesOf = (graph) => graph.edges.map((e) => `${e.from}->${e.to}${e.label ? " " + e.label : ""}`).sort();

test("the graph of a step: labels, label[key] for families, subscriptions to files", () => {
  const report = openReport(blocks());
  const first = graphOf(report, report.stateAt(0));
  assert.deepEqual(first.nodes.map((n) => [n.name, n.file]).sort(), [["App/View.swift", true], ["count", false], ["todo", false], ["token", false]]);
  assert.deepEqual(edgesOf(first), ["count->App/View.swift line:7", "count->todo"]);
  const last = graphOf(report, report.stateAt(3));
  assert.deepEqual(last.nodes.map((n) => n.name).sort(), ["App/Model.swift", "count", "todo[a]", "todo[b]"]);
  assert.deepEqual(edgesOf(last), ["count->todo[b]", "todo[b]->App/Model.swift line:12"]);
});

test("the graph drawn by dot at each step, from the graphAt changes", () => {
  const { meta } = openReport(blocks());
  assert.deepEqual([-1, 0, 1, 2, 3, 9].map((s) => graphIndexAt(meta, s)), [-1, 0, 0, 0, 1, 1]);
});

test("layers follow the edges; a layer is ordered; boxes never overlap", () => {
  const nodes = ["a", "b", "c", "d", "e"].map((name) => ({ name, file: false }));
  const edges = [["a", "b"], ["b", "c"], ["a", "c"], ["d", "c"], ["e", "e"]].map(([from, to]) => ({ from, to, label: null }));
  const { width, height, boxes } = layout({ nodes, edges });
  const layer = (name) => (boxes.get(name).y - 20) / 90;
  assert.deepEqual(["a", "b", "c", "d", "e"].map(layer), [0, 1, 2, 0, 0]);
  for (const edge of edges) if (edge.from !== edge.to) assert.ok(layer(edge.from) < layer(edge.to), `${edge.from}->${edge.to}`);
  for (const [name, box] of boxes) {
    assert.ok(box.x >= 20 && box.x + box.w <= width && box.y + box.h <= height, name);
    for (const [other, next] of boxes) {
      if (other !== name && next.y === box.y) assert.ok(box.x + box.w <= next.x || next.x + next.w <= box.x, `${name} and ${other}`);
    }
  }
  assert.equal(height, 20 + 3 * 90);
});

test("a cycle is laid out without looping, its nodes on the first layer", () => {
  const nodes = [{ name: "x" }, { name: "y" }];
  const { boxes } = layout({ nodes, edges: [{ from: "x", to: "y" }, { from: "y", to: "x" }] });
  assert.deepEqual([boxes.get("x").y, boxes.get("y").y], [20, 20]);
  assert.ok(boxes.get("x").x < boxes.get("y").x);
});

test("a box is as wide as its name, in characters not UTF-16 units", () => {
  const { boxes } = layout({ nodes: [{ name: "😀😀😀😀😀😀😀😀😀😀" }, { name: "a" }], edges: [] });
  assert.equal(boxes.get("😀😀😀😀😀😀😀😀😀😀").w, 7.2 * 10 + 24);
  assert.equal(boxes.get("a").w, 60);
});

test("dot's SVG keeps no event handlers, links, style or foreign elements", () => {
  for (const name of ["onload", "ONCLICK", "href", "xlink:href", "style"]) assert.equal(allowedAttribute(name), false, name);
  for (const name of ["fill", "d", "viewBox", "class", "transform"]) assert.equal(allowedAttribute(name), true, name);
  for (const tag of ["script", "foreignObject", "a", "image", "use", "animate", "set", "style"]) assert.equal(svgTags.has(tag), false, tag);
});
