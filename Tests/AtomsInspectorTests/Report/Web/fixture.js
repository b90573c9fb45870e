// A small report's embedded blocks (report format 1, docs/REPORT.md), for the unit tests.
"use strict";
const path = require("node:path");

const web = path.join(__dirname, "../../../../Sources/AtomsInspector/Report/Web");
/** Loads one of the page's modules. */
const load = (name) => require(path.join(web, name));

/**
 * Steps 0…3: a keyframe at 0 (count = 1, todo[a], a redacted token), then count = 2, a
 * delta of todo[a] with an equal write of count, and todo[b] created while the token is
 * released. Keyframes at `keyframes` (0 always; 2 adds the state at step 2).
 */
function blocks({ keyframes = [0] } = {}) {
  const meta = {
    report: 1, journal: "t.jsonl", first: 0, last: 3, journalLast: 5, t0: 100,
    atoms: [[1, "count", null, "Int"], [2, "todo", "a", "m.Todo"], [3, "todo", "b", "m.Todo"], [4, "token", null, "Swift.String"]],
    locs: ["App/View.swift:7", "App/Model.swift:12"],
    sites: [["set", 0, 0], ["modify", 1, -1]],
    dt: [1000, 500, 2500], site: [0, 1, 0], set: [0, 1, 2],
    sets: [[1], [2, 1], [3]],
    graph: [[2, [3], [4], [[1, 3]], [[1, 2]], [[3, 1]], [[1, 0]]]],
    keyframes, svgs: [null, null], graphAt: [[0, 0], [3, 1]],
  };
  const values = [
    "v2",
    'd["o",{"done":true},{"tags":["a",[[1,0,["y"]]]]},["old"]]\t=',
    'v{"title":"b","n":-0.0}',
  ].join("\n") + "\n";
  const frames = [
    '{"step":0,"values":[[1,"v",1],[2,"v",{"title":"a","tags":["x"],"old":null}],[4,"t","\\u003credacted>","redacted"]],"edges":[[1,2]],"subs":[[1,0]]}',
  ];
  if (keyframes.includes(2)) {
    frames.push('{"step":2,"values":[[1,"v",2],[2,"v",{"title":"a","tags":["x","y"],"done":true}],[4,"t","\\u003credacted>","redacted"]],"edges":[[1,2]],"subs":[[1,0]]}');
  }
  return { meta: JSON.stringify(meta), values, keyframes: frames.join("\n") + "\n" };
}

module.exports = { load, blocks };
