// The state at a step: the embedded data (report format 1, docs/REPORT.md) decoded, a
// keyframe plus the value entries and graph changes after it, and the values as `show` prints
// them. Pure: no DOM.
/* global reportModules */
(function (factory) {
  if (typeof module === "object" && module.exports) module.exports = factory(require("./json.js"));
  else reportModules.state = factory(reportModules.json);
})(function (json) {
  "use strict";
  const { parseJSON, int, pretty, byScalars } = json;

  /** The data format this script reads (`report` in the meta block). */
  const FORMAT = 1;

  /**
   * Applies a delta (object `"o"` or array `"a"`, docs/REPORT.md) to a parsed value, in place
   * where it can, and returns the new value. Throws on a delta that does not fit the value.
   */
  function applyDelta(value, delta) {
    const kind = delta[0];
    if (kind === "o") {
      if (!(value instanceof Map)) throw new Error("an object delta on a value that is not an object");
      if (delta[1]) for (const [k, v] of delta[1]) value.set(k, v);
      if (delta[2]) {
        for (const [k, d] of delta[2]) {
          if (!value.has(k)) throw new Error(`an object delta changes missing member ${k}`);
          value.set(k, applyDelta(value.get(k), d));
        }
      }
      if (delta[3]) for (const k of delta[3]) value.delete(k);
      return value;
    }
    if (kind === "a") {
      if (!Array.isArray(value)) throw new Error("an array delta on a value that is not an array");
      for (const op of delta[1] || []) {
        const index = int(op[0]);
        if (op.length === 2) {
          if (index >= value.length) throw new Error("an array delta changes a missing element");
          value[index] = applyDelta(value[index], op[1]);
        } else {
          const removed = int(op[1]);
          if (index + removed > value.length) throw new Error("an array delta removes missing elements");
          value.splice(index, removed);
          const inserted = op[2];
          // splice(...inserted) would overflow the stack for very long insertions.
          if (inserted.length < 8192) value.splice(index, 0, ...inserted);
          else { const rest = value.splice(index); for (const v of inserted) value.push(v); for (const v of rest) value.push(v); }
        }
      }
      return value;
    }
    throw new Error(`unknown delta kind ${kind}`);
  }

  /** A value's text as `show` prints it: JSON pretty-printed, or the text it was recorded as. */
  const shown = (entry) => entry.kind === "v" ? pretty(entry.value) : entry.text;

  /**
   * Opens the three embedded blocks (their text) as a report: the meta data decoded, and
   * functions giving the state at any step.
   */
  function openReport(blocks) {
    const meta = JSON.parse(blocks.meta);
    if (meta.report !== FORMAT) throw new Error(`report data of format ${meta.report}; this page reads format ${FORMAT}`);
    const valueLines = blocks.values.split("\n");
    const keyframeLines = blocks.keyframes.split("\n");
    const atoms = new Map();
    for (const [id, label, key, type] of meta.atoms) {
      // One atom across its numbers (released, then declared again): its label, key and type.
      const identity = JSON.stringify([label, key, type]);
      atoms.set(id, { id, label, key, type, identity, name: key === null ? label : `${label}[${key}]` });
    }
    const atomName = (id) => atoms.has(id) ? atoms.get(id).name : `#${id}`;
    const atomOf = (id) => atoms.get(id) || { id, label: `#${id}`, key: null, type: "", identity: `#${id}`, name: `#${id}` };
    const transactionCount = meta.last - meta.first;
    const times = new Float64Array(transactionCount + 1);
    times[0] = meta.t0;
    for (let k = 0; k < transactionCount; k++) times[k + 1] = times[k] + meta.dt[k];
    const graphChanges = new Map(meta.graph.map((change) => [change[0], change]));

    function keyframeState(index) {
      const frame = parseJSON(keyframeLines[index]);
      const values = new Map();
      for (const entry of frame.get("values")) {
        const id = int(entry[0]);
        values.set(id, entry[1] === "v" ? { kind: "v", value: entry[2] } : { kind: "t", text: entry[2], marks: entry[3] });
      }
      return {
        step: int(frame.get("step")),
        values,
        edges: new Set(frame.get("edges").map(([f, t]) => `${int(f)},${int(t)}`)),
        subs: new Set(frame.get("subs").map(([a, l]) => `${int(a)},${int(l)}`)),
      };
    }

    /** The value entry `part` (`v`, `t` or `d`) makes of `before`. */
    function entryAfter(part, before, id, step) {
      const kind = part[0];
      if (kind === "v") return { kind: "v", value: parseJSON(part.slice(1)) };
      if (kind === "t") { const [text, marks] = parseJSON(part.slice(1)); return { kind: "t", text, marks }; }
      if (kind === "d") {
        if (!before || before.kind !== "v") throw new Error(`step ${step}: a delta for ${atomName(id)}, which has no value`);
        return { kind: "v", value: applyDelta(before.value, parseJSON(part.slice(1))) };
      }
      throw new Error(`step ${step}: a bad value entry`);
    }

    /**
     * Applies transaction `k` (step `first + 1 + k`) to `state`; with `record`, returns what
     * changed: `{id, unchanged}` or `{id, beforeText, afterText, created, released}`.
     */
    function applyTransaction(state, k, record) {
      const step = meta.first + 1 + k;
      const ids = meta.sets[meta.set[k]];
      const parts = ids.length ? valueLines[k].split("\t") : [];
      const changes = [];
      for (let n = 0; n < ids.length; n++) {
        const id = ids[n], part = parts[n] || "";
        if (part === "=") { if (record) changes.push({ id, unchanged: true }); continue; }
        const before = state.values.get(id);
        const beforeText = record && before ? shown(before) : null;
        const after = entryAfter(part, before, id, step);
        state.values.set(id, after);
        if (record) changes.push({ id, beforeText, afterText: shown(after), created: !before });
      }
      const graph = graphChanges.get(k);
      if (graph) {
        const [, , released, edgesAdded, edgesRemoved, subsAdded, subsRemoved] = graph;
        for (const id of released) {
          const before = state.values.get(id);
          if (record && before) changes.push({ id, beforeText: shown(before), afterText: null, released: true });
          state.values.delete(id);
        }
        for (const [f, t] of edgesAdded) state.edges.add(`${f},${t}`);
        for (const [f, t] of edgesRemoved) state.edges.delete(`${f},${t}`);
        for (const [a, l] of subsAdded) state.subs.add(`${a},${l}`);
        for (const [a, l] of subsRemoved) state.subs.delete(`${a},${l}`);
      }
      state.step = step;
      return changes;
    }

    /** The atoms transaction `k` gave a value (not those written with an equal one). */
    function changedAtoms(k) {
      const ids = meta.sets[meta.set[k]];
      if (!ids.length) return ids;
      const parts = valueLines[k].split("\t");
      return ids.filter((id, n) => parts[n] !== "=");
    }

    /** The index of the last keyframe at or before `step`. */
    function keyframeBefore(step) {
      let low = 0, high = meta.keyframes.length - 1;
      while (low < high) {
        const middle = (low + high + 1) >> 1;
        if (meta.keyframes[middle] <= step) low = middle; else high = middle - 1;
      }
      return low;
    }

    /** The state at `step` (`first…last`): the keyframe before it and the transactions after. */
    function stateAt(step) {
      if (!(step >= meta.first && step <= meta.last)) throw new Error(`step ${step} is not in the report (${meta.first}…${meta.last})`);
      const state = keyframeState(keyframeBefore(step));
      for (let s = state.step + 1; s <= step; s++) applyTransaction(state, s - meta.first - 1, false);
      return state;
    }

    /**
     * The live atoms of `state` in `show`'s order (by name, then id), each with its printed
     * text and marks (`""` when none).
     */
    function liveValues(state) {
      return [...state.values.keys()].map(atomOf)
        .sort((a, b) => byScalars(a.name, b.name) || a.id - b.id)
        .map((atom) => {
          const entry = state.values.get(atom.id);
          return { atom, text: shown(entry), marks: entry.kind === "t" ? entry.marks : "" };
        });
    }

    return { meta, atoms, atomName, atomOf, transactionCount, times, keyframeState, applyTransaction, changedAtoms, keyframeBefore, stateAt, liveValues };
  }

  return { FORMAT, applyDelta, shown, openReport };
});
