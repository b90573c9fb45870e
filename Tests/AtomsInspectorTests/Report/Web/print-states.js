// Prints the live atoms at every step of a report's data as the page's own state module
// rebuilds them, for ReportDifferentialTests to hold against `show --json`:
//
//   node print-states.js DIR    (DIR holds meta.json, values.txt and keyframes.txt)
//
// One JSON line per step: {"step":N,"atoms":[[name, text, marks], …]}, atoms in `show`'s
// order. The page reaches a step two ways, stepping forwards and from the keyframe before it;
// both must agree, or this exits 1.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { load } = require("./fixture.js");
const { openReport } = load("state.js");

const directory = process.argv[2];
const read = (name) => fs.readFileSync(path.join(directory, name), "utf8");
const report = openReport({ meta: read("meta.json"), values: read("values.txt"), keyframes: read("keyframes.txt") });
const printed = (state) => report.liveValues(state).map(({ atom, text, marks }) => [atom.name, text, marks]);

const { first, last } = report.meta;
const state = report.stateAt(first);
const lines = [];
for (let step = first; step <= last; step++) {
  if (step > first) report.applyTransaction(state, step - first - 1, true);
  const atoms = JSON.stringify(printed(state));
  const rebuilt = JSON.stringify(printed(report.stateAt(step)));
  if (rebuilt !== atoms) {
    process.stderr.write(`step ${step}: stepping forwards gives ${atoms}, the keyframe before it ${rebuilt}\n`);
    process.exit(1);
  }
  lines.push(`{"step":${step},"atoms":${atoms}}`);
}
process.stdout.write(lines.join("\n") + "\n");
