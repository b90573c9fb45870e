// Exact JSON: values parse with numbers keeping their text and objects as Maps, and print
// exactly as atoms-inspect prints them (`JSONValue.prettyText` in Sources/AtomsJournalReader).
/* global reportModules */
(function (factory) {
  if (typeof module === "object" && module.exports) module.exports = factory();
  else reportModules.json = factory();
})(function () {
  "use strict";

  /** A JSON number, kept as its text: `0.1`, `18446744073709551615`, `-0.0` print as read. */
  class Num {
    constructor(text) { this.t = text; }
  }

  const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

  /**
   * Parses JSON text: objects become Maps (member order kept), numbers `Num`s.
   * Throws an Error naming the offset on anything that is not one JSON value.
   */
  function parseJSON(text) {
    let i = 0;
    const fail = (what) => { throw new Error(`bad JSON (${what}) at ${i}`); };
    const space = () => {
      for (;;) {
        const c = text.charCodeAt(i);
        if (c === 32 || c === 10 || c === 13 || c === 9) i++; else return;
      }
    };
    const expect = (ch) => { space(); if (text[i] !== ch) fail(`expected ${ch}`); i++; };
    function escaped(e) {
      switch (e) {
        case '"': return '"';
        case "\\": return "\\";
        case "/": return "/";
        case "b": return "\b";
        case "f": return "\f";
        case "n": return "\n";
        case "r": return "\r";
        case "t": return "\t";
        case "u": {
          const hex = text.slice(i, i + 4);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("bad \\u escape");
          i += 4;
          return String.fromCharCode(parseInt(hex, 16));
        }
        default: return fail("bad escape");
      }
    }
    function string() {
      if (text[i] !== '"') fail("expected a string");
      i++;
      let out = "", start = i;
      for (;;) {
        const c = text.charCodeAt(i);
        if (c === 34) { out += text.slice(start, i); i++; return out; }
        if (c === 92) {
          out += text.slice(start, i);
          const e = text[i + 1];
          i += 2;
          out += escaped(e);
          start = i;
          continue;
        }
        if (Number.isNaN(c)) fail("unterminated string");
        if (c < 32) fail("a control character in a string");
        i++;
      }
    }
    function container(close, member) {
      i++;
      space();
      if (text[i] === close) { i++; return; }
      for (;;) {
        member();
        space();
        if (text[i] === ",") { i++; continue; }
        expect(close);
        return;
      }
    }
    function value() {
      space();
      const ch = text[i];
      if (ch === "{") {
        const members = new Map();
        container("}", () => { space(); const key = string(); expect(":"); members.set(key, value()); });
        return members;
      }
      if (ch === "[") {
        const elements = [];
        container("]", () => elements.push(value()));
        return elements;
      }
      if (ch === '"') return string();
      if (text.startsWith("true", i)) { i += 4; return true; }
      if (text.startsWith("false", i)) { i += 5; return false; }
      if (text.startsWith("null", i)) { i += 4; return null; }
      NUMBER.lastIndex = i;
      const match = NUMBER.exec(text);
      if (!match) fail("unexpected character");
      i += match[0].length;
      return new Num(match[0]);
    }
    const result = value();
    space();
    if (i !== text.length) fail("text after the value");
    return result;
  }

  /** A small integer read as a `Num` (ids, steps, indexes) as a JavaScript number. */
  const int = (value) => value instanceof Num ? Number(value.t) : value;

  /** A JSON string literal as atoms-inspect writes one: only `"`, `\` and controls escaped. */
  function quoted(s) {
    let out = '"';
    for (let k = 0; k < s.length; k++) {
      const c = s.charCodeAt(k);
      if (c === 34) out += '\\"';
      else if (c === 92) out += "\\\\";
      else if (c === 10) out += "\\n";
      else if (c === 13) out += "\\r";
      else if (c === 9) out += "\\t";
      else if (c < 32) out += "\\u00" + c.toString(16).padStart(2, "0");
      else out += s[k];
    }
    return out + '"';
  }

  /** Orders strings as Swift does for sorting keys: by Unicode scalar values, not UTF-16 units. */
  function byScalars(a, b) {
    const n = Math.min(a.length, b.length);
    for (let k = 0; k < n; k++) {
      const x = a.codePointAt(k), y = b.codePointAt(k);
      if (x !== y) return x < y ? -1 : 1;
      if (x > 0xffff) k++;
    }
    return a.length - b.length;
  }

  /** Indented JSON with sorted keys, two spaces a level, empty containers as `[]` and `{}`. */
  function pretty(value, indent = "") {
    if (value === null) return "null";
    if (value === true) return "true";
    if (value === false) return "false";
    if (value instanceof Num) return value.t;
    if (typeof value === "string") return quoted(value);
    const inner = indent + "  ";
    if (Array.isArray(value)) {
      if (value.length === 0) return "[]";
      return "[\n" + value.map((v) => inner + pretty(v, inner)).join(",\n") + "\n" + indent + "]";
    }
    if (value.size === 0) return "{}";
    const keys = [...value.keys()].sort(byScalars);
    return "{\n" + keys.map((k) => inner + quoted(k) + ": " + pretty(value.get(k), inner)).join(",\n") + "\n" + indent + "}";
  }

  return { Num, parseJSON, int, quoted, byScalars, pretty };
});
