/** Line maps count \n, \r\n and a lone \r as line breaks, as LSP does, on both of their paths. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { LineMap, positionAt, thousands } from "../../server/src/core/text.ts";

test("LineMap: positions with \\n only, and with \\r\\n and lone \\r", () => {
  const lf = new LineMap("ab\ncd\n\nef");
  assert.deepEqual(lf.position(4), { line: 1, character: 1 });
  assert.deepEqual(lf.position(7), { line: 3, character: 0 });
  const mixed = new LineMap("ab\r\ncd\ref\ng");
  assert.deepEqual(mixed.position(4), { line: 1, character: 0 });
  assert.deepEqual(mixed.position(7), { line: 2, character: 0 });
  assert.deepEqual(mixed.position(10), { line: 3, character: 0 });
  assert.equal(mixed.offset({ line: 2, character: 1 }), 8);
});

test("thousands: what toLocaleString(\"en\") writes for whole numbers", () => {
  for (const n of [0, 7, 999, 1000, 1001, 12_345, 100_000, 999_999, 1_000_000, 1_234_567, 987_654_321_012, -1, -1000, -1_234_567]) {
    assert.equal(thousands(n), n.toLocaleString("en"), String(n));
  }
});

test("positions are held once each: the same object for the same place in any text, frozen; far lines and characters, and a table past its limit, still give the right place", () => {
  const a = new LineMap("import { x } from \"./x\";\nconst y = 1;\n");
  const b = new LineMap("const a = 1;\nexport const b = 2;\n");
  assert.equal(a.position(29), b.position(17), "line 1, character 4 in both: one object");
  assert.deepEqual(a.position(29), { line: 1, character: 4 });
  assert.ok(Object.isFrozen(a.position(29)), "a shared position cannot be changed under another file");
  assert.throws(() => { (a.position(29) as { line: number }).line = 7; }, TypeError);
  assert.deepEqual(a.range(9, 10), { start: { line: 0, character: 9 }, end: { line: 0, character: 10 } });
  // Far out: made afresh, not shared, right all the same.
  const far = positionAt(3, 5000);
  assert.deepEqual(far, { line: 3, character: 5000 });
  assert.notEqual(positionAt(3, 5000), far);
  assert.deepEqual(positionAt(70_000, 2), { line: 70_000, character: 2 });
  // Past the table's limit (200,000 positions) it starts again: every position still right.
  const first = positionAt(1, 1);
  for (let line = 0; line < 300; line++) for (let character = 0; character < 1000; character++) {
    const p = positionAt(line, character);
    if (p.line !== line || p.character !== character) assert.fail(`${line}:${character} gave ${JSON.stringify(p)}`);
  }
  assert.deepEqual(positionAt(1, 1), first);
  assert.equal(positionAt(299, 999), positionAt(299, 999));
});
