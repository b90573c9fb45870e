"use strict";
const test = require("node:test");
const assert = require("node:assert/strict");
const { load } = require("./fixture.js");
const { Num, parseJSON, pretty, quoted, byScalars, int } = load("json.js");

test("numbers keep their text", () => {
  const texts = ["-9223372036854775808", "18446744073709551615", "9007199254740993", "0.30000000000000004", "-0.0", "1e400", "1E-7", "0"];
  const parsed = parseJSON(`[${texts.join(",")}]`);
  assert.deepEqual(parsed.map((n) => n.t), texts);
  assert.ok(parsed.every((n) => n instanceof Num));
  assert.equal(pretty(parsed), "[\n" + texts.map((t) => "  " + t).join(",\n") + "\n]");
});

test("objects are Maps in the order read; duplicate members keep the last", () => {
  const value = parseJSON('{"b":1,"a":{"c":[true,false,null]},"b":2}');
  assert.ok(value instanceof Map);
  assert.deepEqual([...value.keys()], ["b", "a"]);
  assert.equal(value.get("b").t, "2");
  assert.deepEqual(value.get("a").get("c"), [true, false, null]);
});

test("strings decode every escape, surrogate pairs included", () => {
  assert.equal(parseJSON(String.raw`"\u003c/script> \"q\" \\ \/ \b\f\n\r\t \ud83d\ude00 é"`), '</script> "q" \\ / \b\f\n\r\t \u{1F600} é');
});

test("what is not one JSON value is refused, with its offset", () => {
  for (const bad of ["", "[1,]", "{\"a\" 1}", "\"open", "\"\\x\"", "\"\\u12\"", "01", "1 2", "\"a\u0001\"", "tru", "[1"]) {
    assert.throws(() => parseJSON(bad), /bad JSON \(.*\) at \d+/, bad);
  }
});

test("pretty prints as JSONValue.prettyText: sorted keys, two spaces, empty containers inline", () => {
  const value = parseJSON('{"z":[],"a":{},"m":[1,{"y":"</script>","x":[[]]}]}');
  assert.equal(pretty(value), [
    "{",
    '  "a": {},',
    '  "m": [',
    "    1,",
    "    {",
    '      "x": [',
    "        []",
    "      ],",
    '      "y": "</script>"',
    "    }",
    "  ],",
    '  "z": []',
    "}",
  ].join("\n"));
  assert.equal(pretty(parseJSON("[]")), "[]");
  assert.equal(pretty(parseJSON("{}")), "{}");
});

test("strings print with only quotes, backslashes and controls escaped", () => {
  assert.equal(quoted("a\"b\\c\nd\re\tf\u0007g/é\u2028😀"), '"a\\"b\\\\c\\nd\\re\\tf\\u0007g/é\u2028😀"');
});

test("keys sort by Unicode scalars, as Swift sorts them", () => {
  const keys = ["\uFF5E", "\u{1F600}", "z", "é", "Z", "ab", "a"];
  assert.deepEqual([...keys].sort(byScalars), ["Z", "a", "ab", "z", "é", "\uFF5E", "\u{1F600}"]);
  // UTF-16 order would put the emoji (a surrogate pair, 0xD83D…) before U+FF5E.
  assert.deepEqual([...keys].sort(), ["Z", "a", "ab", "z", "é", "\u{1F600}", "\uFF5E"]);
});

test("int reads small integers", () => {
  assert.equal(int(new Num("42")), 42);
  assert.equal(int(7), 7);
});
