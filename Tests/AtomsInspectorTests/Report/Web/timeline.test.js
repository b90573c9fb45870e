"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { load, blocks } = require("./fixture.js");
const { openReport } = load("state.js");
const { xOf, nearestStep, lanesOf, matcher, describe, causesOf } = load("timeline.js");

test("steps sit along time, or evenly along steps", () => {
  const report = openReport(blocks());
  // Times 100, 1100, 1600, 4100 on an axis 412 wide: 6 of padding each side, 400 to share.
  assert.deepEqual([0, 1, 2, 3].map((s) => xOf(report, "time", s, 412)), [6, 106, 156, 406]);
  assert.deepEqual([0, 1, 2, 3].map((s) => Math.round(xOf(report, "step", s, 412))), [6, 139, 273, 406]);
});

test("when every step has one time, the time axis falls back to steps", () => {
  const data = blocks();
  const meta = JSON.parse(data.meta);
  meta.dt = [0, 0, 0];
  const report = openReport({ ...data, meta: JSON.stringify(meta) });
  assert.equal(xOf(report, "time", 3, 412), 406);
  assert.equal(Math.round(xOf(report, "time", 1, 412)), 139);
});

test("a point is nearest to the step drawn closest to it", () => {
  const report = openReport(blocks());
  assert.deepEqual([0, 6, 55, 57, 130, 155, 290, 500].map((x) => nearestStep(report, "time", x, 412)), [0, 0, 0, 1, 1, 2, 3, 3]);
});

test("lanes list the transactions that gave each atom a value, not equal writes", () => {
  const report = openReport(blocks());
  const lanes = lanesOf(report);
  assert.deepEqual([...lanes.entries()], [[1, [0]], [2, [1]], [3, [2]]].map(([id, steps]) => [report.atomOf(id).identity, steps]));
});

test("an atom declared again under a new number has one lane", () => {
  const data = blocks();
  const meta = JSON.parse(data.meta);
  // `count` released, then back as atom 5: the same label, key and type.
  meta.atoms.push([5, "count", null, "Int"]);
  meta.sets = [[1], [2, 1], [5]];
  const report = openReport({ ...data, meta: JSON.stringify(meta) });
  assert.equal(report.atomOf(5).identity, report.atomOf(1).identity);
  assert.notEqual(report.atomOf(2).identity, report.atomOf(3).identity);
  assert.deepEqual([...lanesOf(report).values()], [[0, 2], [1]]);
});

test("the search matches substrings of name or type, or a whole pattern with *", () => {
  const atom = { name: "todo[a]", label: "todo", type: "m.Todo" };
  assert.equal(matcher("")(atom), true);
  assert.equal(matcher("DO[")(atom), true);
  assert.equal(matcher("m.todo")(atom), true);
  assert.equal(matcher("count")(atom), false);
  assert.equal(matcher("to*")(atom), true);
  assert.equal(matcher("*[a]")(atom), true);
  assert.equal(matcher("do*")(atom), false);
  assert.equal(matcher("(*")({ name: "(x", label: "", type: "" }), true);
  assert.equal(matcher("a.*")({ name: "abc", label: "", type: "" }), false);
});

test("hovering describes the step: cause, site, origin, atoms written and time", () => {
  const report = openReport(blocks());
  assert.equal(describe(report, 0), "step 1 · set @ App/View.swift:7\natoms written: count\ntime: 1.100 ms");
  assert.equal(describe(report, 1), "step 2 · modify\norigin: count\natoms written: todo[a], count\ntime: 1.600 ms");
  const { causes, colorOf } = causesOf(report);
  assert.deepEqual(causes, ["modify", "set"]);
  assert.equal(colorOf("set"), "#2f6fde");
  // A value atoms-inspect wrote has a colour of its own, none of another cause's.
  const known = ["initialize", "set", "modify", "reset", "refresh", "restore", "async-result", "effect", "release"].map(colorOf);
  assert.equal(colorOf("inspector"), "#34404f");
  assert.ok(!known.includes(colorOf("inspector")));
  assert.match(colorOf("custom"), /^#[0-9a-f]{6}$/);
});
