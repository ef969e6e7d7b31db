/** Line maps count \n, \r\n and a lone \r as line breaks, as LSP does, on both of their paths. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { LineMap, thousands } from "../../server/src/core/text.ts";

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
