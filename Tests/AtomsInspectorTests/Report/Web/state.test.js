"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { load, blocks } = require("./fixture.js");
const { parseJSON, pretty } = load("json.js");
const { applyDelta, openReport, FORMAT } = load("state.js");

const applied = (value, delta) => pretty(applyDelta(parseJSON(value), parseJSON(delta)));

test("an object delta sets, changes and removes members", () => {
  assert.equal(applied('{"a":1,"b":{"c":[1]},"d":2}', '["o",{"e":"new"},{"b":["o",{"c":[]},{},[]]},["d"]]'), pretty(parseJSON('{"a":1,"b":{"c":[]},"e":"new"}')));
  assert.equal(applied('{"a":1}', '["o",{},{},[]]'), pretty(parseJSON('{"a":1}')));
});

test("an array delta splices and changes elements in order", () => {
  // Replace 1 at 0, insert two at 2, then change element 3 (after the insertion) in place.
  assert.equal(applied('["a","b",["x",{"k":1}]]', '["a",[[0,1,["A"]],[2,0,["i","j"]],[4,["a",[[1,["o",{"k":2},{},[]]]]]]]]'), pretty(parseJSON('["A","b","i","j",["x",{"k":2}]]')));
  assert.equal(applied("[1,2,3]", '["a",[[0,3,[]]]]'), "[]");
});

test("a long insertion does not overflow the stack", () => {
  const inserted = JSON.stringify(Array.from({ length: 200000 }, (_, n) => n));
  const value = applyDelta(parseJSON("[-1,-2]"), parseJSON(`["a",[[1,0,${inserted}]]]`));
  assert.equal(value.length, 200002);
  assert.equal(value[0].t, "-1");
  assert.equal(value[200001].t, "-2");
  assert.equal(value[1].t, "0");
});

test("a delta that does not fit the value is refused", () => {
  assert.throws(() => applyDelta([], parseJSON('["o",{},{},[]]')), /not an object/);
  assert.throws(() => applyDelta(new Map(), parseJSON('["a",[]]')), /not an array/);
  assert.throws(() => applyDelta(new Map(), parseJSON('["o",{},{"x":["o",{},{},[]]},[]]')), /missing member x/);
  assert.throws(() => applyDelta(parseJSON("[1]"), parseJSON('["a",[[1,["a",[]]]]]')), /missing element/);
  assert.throws(() => applyDelta(parseJSON("[1]"), parseJSON('["a",[[0,2,[]]]]')), /removes missing/);
  assert.throws(() => applyDelta(parseJSON("{}"), parseJSON('["s",[]]')), /unknown delta kind s/);
});

/** Each live atom as `name = text (marks)`. */
const printed = (report, state) => report.liveValues(state).map(({ atom, text, marks }) => `${atom.name} = ${text}${marks ? ` (${marks})` : ""}`);

const expected = {
  0: ["count = 1", 'todo[a] = {\n  "old": null,\n  "tags": [\n    "x"\n  ],\n  "title": "a"\n}', "token = <redacted> (redacted)"],
  1: ["count = 2", 'todo[a] = {\n  "old": null,\n  "tags": [\n    "x"\n  ],\n  "title": "a"\n}', "token = <redacted> (redacted)"],
  2: ["count = 2", 'todo[a] = {\n  "done": true,\n  "tags": [\n    "x",\n    "y"\n  ],\n  "title": "a"\n}', "token = <redacted> (redacted)"],
  3: ["count = 2", 'todo[a] = {\n  "done": true,\n  "tags": [\n    "x",\n    "y"\n  ],\n  "title": "a"\n}', 'todo[b] = {\n  "n": -0.0,\n  "title": "b"\n}'],
};

for (const keyframes of [[0], [0, 2]]) {
  test(`the state at every step, from keyframes at ${keyframes}`, () => {
    const report = openReport(blocks({ keyframes }));
    for (let step = 0; step <= 3; step++) {
      assert.deepEqual(printed(report, report.stateAt(step)), expected[step], `step ${step}`);
    }
    assert.equal(report.keyframeBefore(1), 0);
    assert.equal(report.keyframeBefore(3), keyframes.length - 1);
  });
}

test("stepping forwards gives the states rebuilt from the keyframe, and what changed", () => {
  const report = openReport(blocks());
  const state = report.stateAt(0);
  assert.deepEqual(report.applyTransaction(state, 0, true), [{ id: 1, beforeText: "1", afterText: "2", created: false }]);
  const second = report.applyTransaction(state, 1, true);
  assert.deepEqual(second.map((c) => [c.id, c.unchanged === true]), [[2, false], [1, true]]);
  assert.match(second[0].afterText, /"done": true/);
  const third = report.applyTransaction(state, 2, true);
  assert.deepEqual(third.map((c) => [c.id, !!c.created, !!c.released]), [[3, true, false], [4, false, true]]);
  assert.equal(third[1].afterText, null);
  assert.equal(state.step, 3);
  assert.deepEqual([...state.edges], ["1,3"]);
  assert.deepEqual([...state.subs], ["3,1"]);
  assert.deepEqual(printed(report, state), expected[3]);
});

test("the meta data: names, times, atoms each step gave a value", () => {
  const report = openReport(blocks());
  assert.equal(report.atomName(2), "todo[a]");
  assert.equal(report.atomName(9), "#9");
  assert.deepEqual([...report.times], [100, 1100, 1600, 4100]);
  assert.equal(report.transactionCount, 3);
  assert.deepEqual([0, 1, 2].map(report.changedAtoms), [[1], [2], [3]]);
});

test("a step outside the report, and data of another format, are refused", () => {
  const report = openReport(blocks());
  assert.throws(() => report.stateAt(4), /not in the report/);
  assert.throws(() => report.stateAt(-1), /not in the report/);
  const data = blocks();
  const meta = JSON.parse(data.meta);
  meta.report = FORMAT + 1;
  assert.throws(() => openReport({ ...data, meta: JSON.stringify(meta) }), /format 2; this page reads format 1/);
});

test("a delta for an atom without a JSON value is refused with its step", () => {
  const data = blocks();
  const meta = JSON.parse(data.meta);
  meta.sets[0] = [4];
  const report = openReport({ ...data, meta: JSON.stringify(meta), values: data.values.replace("v2", 'd["a",[]]') });
  assert.throws(() => report.stateAt(1), /step 1: a delta for token, which has no value/);
});
