/**
 * `jsonPieces` (server/src/check/formats.ts), how `--format json` and `--format sarif` print a
 * report a problem at a time: its pieces joined are `JSON.stringify(value, null, 2)` to the byte,
 * over thousands of random values (long lists, empty ones, what JSON.stringify leaves out or
 * prints as null, strings with line breaks), and a `Mapped` list prints as the list it maps.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { jsonPieces, Mapped } from "../../server/src/check/formats.ts";

test("jsonPieces joined is JSON.stringify(value, null, 2), over thousands of random values; a Mapped list prints as list.map(make)", () => {
  let seed = 5;
  const rand = (n: number) => { seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff; return seed % n; };
  const leaf = (): unknown => [0, -1.5, 1e21, true, false, null, "", "a\nb\r\"c\\", "é😀\u2028", undefined, () => 1][rand(11)];
  const value = (depth: number): unknown => {
    if (depth > 3 || rand(3) === 0) return leaf();
    // (Long lists hold leaves only: three levels of 65 would be 274,625 values.)
    if (rand(2) === 0) { const length = [0, 1, 3, 64, 65, 130][rand(6)]; return Array.from({ length }, () => (length > 3 ? leaf() : value(depth + 1))); }
    const o: Record<string, unknown> = {};
    for (let k = rand(5); k > 0; k--) o[["a", "b c", "\"q\"", "1", "__x"][rand(5)]] = value(depth + 1);
    return o;
  };
  let pieces = 0;
  for (let k = 0; k < 2000; k++) {
    const v = value(0);
    const out = [...jsonPieces(v, "")];
    pieces += out.length;
    assert.equal(out.join(""), JSON.stringify(v, null, 2) ?? "null", JSON.stringify(v));
  }
  assert.ok(pieces > 2000 * 3, "long lists are printed in pieces");
  const list = Array.from({ length: 100 }, (_, i) => i);
  const make = (i: number) => ({ n: i, twice: [i, i], gone: undefined });
  assert.equal([...jsonPieces({ problems: new Mapped(list, make), empty: new Mapped([], make) }, "")].join(""), JSON.stringify({ problems: list.map(make), empty: [] }, null, 2));
});
