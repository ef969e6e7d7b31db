/** Line maps count \n, \r\n and a lone \r as line breaks, as LSP does, on both of their paths; the did-you-mean distance; control characters escaped for one line of output. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { didYouMean, editDistance, escapeControls, LineMap, oneLine, positionAt, rangeOf, thousands } from "../../server/src/core/text.ts";

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
  assert.notEqual(positionAt(5000, 2), positionAt(5000, 2), "a line past the first 2,048 (a lockfile's) is made afresh");
  assert.deepEqual(positionAt(0, -1), { line: 0, character: -1 }, "an offset before its line (none should be) is no shared position");
  assert.ok(!Object.isFrozen(positionAt(0, -1)));
  // Past the table's limit (200,000 positions) it starts again: every position still right.
  const first = positionAt(1, 1);
  for (let line = 0; line < 300; line++) for (let character = 0; character < 1000; character++) {
    const p = positionAt(line, character);
    if (p.line !== line || p.character !== character) assert.fail(`${line}:${character} gave ${JSON.stringify(p)}`);
  }
  assert.deepEqual(positionAt(1, 1), first);
  assert.equal(positionAt(299, 999), positionAt(299, 999));
});

test("ranges within a line are held once each, frozen; a range across lines, or far out, is made afresh", () => {
  const a = new LineMap("import { x } from \"./x\";\n");
  const b = new LineMap("export { y } from \"./x\";\n");
  assert.equal(a.range(18, 23), b.range(18, 23), "the specifier's range in both: one object");
  assert.deepEqual(a.range(18, 23), { start: { line: 0, character: 18 }, end: { line: 0, character: 23 } });
  assert.ok(Object.isFrozen(a.range(18, 23)));
  assert.throws(() => { (a.range(18, 23) as { start: unknown }).start = { line: 9, character: 9 }; }, TypeError);
  const across = new LineMap("a\nb\n").range(0, 3);
  assert.deepEqual(across, { start: { line: 0, character: 0 }, end: { line: 1, character: 1 } });
  assert.notEqual(new LineMap("a\nb\n").range(0, 3), across);
  assert.deepEqual(rangeOf(positionAt(2, 3), positionAt(2, 4000)), { start: { line: 2, character: 3 }, end: { line: 2, character: 4000 } });
  assert.notEqual(rangeOf(positionAt(2, 3), positionAt(2, 4000)), rangeOf(positionAt(2, 3), positionAt(2, 4000)));
  // Past the table's limit it starts again: every range still right.
  for (let line = 0; line < 200; line++) for (let c = 0; c < 1010; c += 1) {
    const r = rangeOf(positionAt(line, c), positionAt(line, c + 3));
    if (r.start.line !== line || r.start.character !== c || r.end.character !== c + 3) assert.fail(`${line}:${c} gave ${JSON.stringify(r)}`);
  }
});

test("editDistance: Levenshtein's, two neighbours swapped one edit (optimal string alignment); didYouMean offers a name typed with a swap", () => {
  const cases: [string, string, number][] = [
    ["name", "name", 0], ["", "abc", 3], ["abc", "", 3], ["kitten", "sitting", 3], ["flaw", "lawn", 2],
    ["nmae", "name", 1], ["ab", "ba", 1], ["abc", "acb", 1], ["abcd", "badc", 2], ["ca", "abc", 3], ["orderz", "orders", 1], ["lst", "list", 1],
  ];
  for (const [a, b, d] of cases) {
    assert.equal(editDistance(a, b), d, `${a} → ${b}`);
    assert.equal(editDistance(b, a), d, `${b} → ${a}`);
  }
  assert.equal(didYouMean("nmae", ["name", "zone", "disk"]), "name");
  assert.equal(didYouMean("zoen", ["name", "zone", "disk"]), "zone");
  assert.equal(didYouMean("xyzw", ["name", "zone", "disk"]), undefined);
});

test("didYouMean passes over candidates whose length alone puts them too far, and answers as trying every candidate does (random names over a small alphabet, so that many are near)", () => {
  /** Every candidate tried: what didYouMean answered before it passed any over. */
  const tryingEvery = (name: string, candidates: string[]): string | undefined => {
    let best: string | undefined;
    let bestDistance = Infinity;
    for (const c of candidates) {
      const d = c.toLowerCase() === name.toLowerCase() ? 0.5 : editDistance(name, c);
      if (d < bestDistance || (d === bestDistance && best !== undefined && c < best)) { best = c; bestDistance = d; }
    }
    return best !== undefined && bestDistance <= Math.max(1, Math.floor(name.length / 3)) ? best : undefined;
  };
  let seed = 7;
  const random = (n: number) => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return (seed >>> 8) % n; };
  const word = () => Array.from({ length: 1 + random(9) }, () => "abAB"[random(4)]).join("");
  let offered = 0;
  for (let round = 0; round < 3000; round++) {
    const name = word();
    const candidates = Array.from({ length: random(12) }, word);
    const expected = tryingEvery(name, candidates);
    if (expected !== undefined) offered++;
    assert.equal(didYouMean(name, candidates), expected, `${name} among ${candidates.join(",")}`);
  }
  assert.ok(offered > 300, `many rounds offer a name (${offered}): the comparison is of answers, not of nothing`);
});

test("escapeControls: C0 controls but tab, line feed and carriage return, DEL and C1 controls become \\u00XX escapes; everything else stays, the text itself where there is nothing to escape; oneLine escapes the line breaks too", () => {
  assert.equal(escapeControls("plain text, tab\there, é, 𝄞"), "plain text, tab\there, é, 𝄞");
  const same = "nothing to escape";
  assert.equal(escapeControls(same), same);
  assert.equal(escapeControls("\u001b]0;PWNED\u0007\u001b[31mred"), "\\u001b]0;PWNED\\u0007\\u001b[31mred");
  assert.equal(escapeControls("\u0000a\u007fb\u0085c\u009f\u00a0"), "\\u0000a\\u007fb\\u0085c\\u009f\u00a0");
  assert.equal(escapeControls("line\nbreak\r\n"), "line\nbreak\r\n", "line breaks are oneLine's");
  assert.equal(oneLine("a\nb\r\u2028\u2029\u001b"), "a\\nb\\r\\u2028\\u2029\\u001b");
  // Every code from 0 to 0x9f, escaped exactly where it is a control.
  for (let c = 0; c <= 0xa0; c++) {
    const ch = String.fromCharCode(c);
    const control = (c < 0x20 && c !== 9 && c !== 10 && c !== 13) || (c >= 0x7f && c <= 0x9f);
    assert.equal(escapeControls(ch), control ? `\\u${c.toString(16).padStart(4, "0")}` : ch, `code ${c}`);
  }
});
