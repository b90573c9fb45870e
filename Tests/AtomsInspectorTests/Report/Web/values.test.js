"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { load } = require("./fixture.js");
const { lineDiff, foldDiff } = load("values.js");

const marked = (a, b) => lineDiff(a.split(" "), b.split(" ")).map(([mark, line]) => mark + line).join(" ");

test("a line diff keeps the common lines and marks the rest", () => {
  assert.equal(marked("a b c", "a b c"), " a  b  c");
  assert.equal(marked("a b c", "a x c"), " a -b +x  c");
  assert.equal(marked("a b c d", "a c d e"), " a -b  c  d +e");
  assert.equal(marked("x a b", "a b y"), "-x  a  b +y");
});

test("a diff from or to nothing is all added or all removed", () => {
  assert.deepEqual(lineDiff([], ["a", "b"]), [["+", "a"], ["+", "b"]]);
  assert.deepEqual(lineDiff(["a"], []), [["-", "a"]]);
  assert.deepEqual(lineDiff([], []), []);
});

test("a change too large for the table lists the removed lines, then the added ones", () => {
  const before = Array.from({ length: 600 }, (_, n) => `old ${n}`);
  const after = Array.from({ length: 600 }, (_, n) => `new ${n}`);
  const lines = lineDiff(["same", ...before, "end"], ["same", ...after, "end"]);
  assert.equal(lines.length, 1202);
  assert.deepEqual(lines[0], [" ", "same"]);
  assert.deepEqual(lines[1], ["-", "old 0"]);
  assert.deepEqual(lines[601], ["+", "new 0"]);
  assert.deepEqual(lines[1201], [" ", "end"]);
});

test("unchanged runs beyond three lines of context fold into a count", () => {
  const a = Array.from({ length: 20 }, (_, n) => String(n));
  const b = [...a];
  b[10] = "ten";
  const folded = foldDiff(lineDiff(a, b));
  assert.deepEqual(folded, [
    ["…", 7],
    [" ", "7"], [" ", "8"], [" ", "9"],
    ["-", "10"], ["+", "ten"],
    [" ", "11"], [" ", "12"], [" ", "13"],
    ["…", 6],
  ]);
  assert.deepEqual(foldDiff([[" ", "a"]]), [["…", 1]]);
  assert.deepEqual(foldDiff([["+", "a"]], 0), [["+", "a"]]);
});
