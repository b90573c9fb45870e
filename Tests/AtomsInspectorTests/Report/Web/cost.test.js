"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { load, blocks } = require("./fixture.js");
const { openReport } = load("state.js");
const { costOf, barHeights, evaluationsAt, atomTally, formatNs } = load("cost.js");

/** The fixture's report with a `cost` member: step 1 took 4 µs, step 2 12 µs, step 3 has no timing line. */
function timedReport() {
  const data = blocks();
  const meta = JSON.parse(data.meta);
  // count (1) evaluated at steps 1 and 2, todo[a] (2) at step 2 to an equal value.
  meta.cost = { total: [4000, 12000, -1], evals: [[0, 1, 3000, 0], [1, 2, 7000, 1], [1, 1, 2500, 0]] };
  return openReport({ ...data, meta: JSON.stringify(meta) });
}

test("a journal recorded without timing has no cost", () => {
  assert.equal(costOf(openReport(blocks())), null);
});

test("bars are scaled to the slowest transaction, logarithmically from 1 µs; one without timing has none", () => {
  const cost = costOf(timedReport());
  assert.equal(cost.slowest, 1);
  assert.equal(cost.max, 12000);
  // ln(4) / ln(12) of 36.
  assert.deepEqual(barHeights(cost, 36), [20, 36, 0]);
  // The smallest time still shows; 10 µs is halfway between 1 µs and 100 µs.
  assert.deepEqual(barHeights({ totals: [1, 10000, 100000], max: 100000 }, 36), [1, 18, 36]);
  // All below 1 µs: linear.
  assert.deepEqual(barHeights({ totals: [200, 800], max: 800 }, 36), [9, 36]);
});

test("a step's evaluations are its own, in the order they ran", () => {
  const cost = costOf(timedReport());
  assert.deepEqual(evaluationsAt(cost, 0), [{ id: 1, selfNs: 3000, wasted: false }]);
  assert.deepEqual(evaluationsAt(cost, 1), [{ id: 2, selfNs: 7000, wasted: true }, { id: 1, selfNs: 2500, wasted: false }]);
  assert.deepEqual(evaluationsAt(cost, 2), []);
});

test("the slowest atoms add up the steps up to the current one, forwards and back", () => {
  const report = timedReport();
  const tally = atomTally(report, costOf(report));
  assert.deepEqual(tally(0), [{ id: 1, selfNs: 3000, evaluations: 1, wasted: 0 }]);
  const both = [{ id: 2, selfNs: 7000, evaluations: 1, wasted: 1 }, { id: 1, selfNs: 5500, evaluations: 2, wasted: 0 }];
  assert.deepEqual(tally(1), both);
  assert.deepEqual(tally(2), both);
  // Back to step 1: counted again from the start, not twice.
  assert.deepEqual(tally(0), [{ id: 1, selfNs: 3000, evaluations: 1, wasted: 0 }]);
  assert.deepEqual(tally(2), both);
});

test("equal self times are listed by name", () => {
  const data = blocks();
  const meta = JSON.parse(data.meta);
  meta.cost = { total: [10, 10, 10], evals: [[0, 3, 5, 0], [0, 2, 5, 0]] };
  const report = openReport({ ...data, meta: JSON.stringify(meta) });
  assert.deepEqual(atomTally(report, costOf(report))(0).map((a) => report.atomName(a.id)), ["todo[a]", "todo[b]"]);
});

test("times print in microseconds, or milliseconds from one", () => {
  assert.equal(formatNs(2140), "2.1 µs");
  assert.equal(formatNs(999949), "999.9 µs");
  assert.equal(formatNs(1234567), "1.235 ms");
});
