/**
 * The core's structures for big inputs: `sortSteps` (server/src/core/steps.ts) gives what
 * `Array.prototype.sort` gives, stable, in steps none of which sorts or merges more than a run;
 * `ShardedMap` (server/src/core/sharded-map.ts) answers as a Map does.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { sortSteps } from "../../server/src/core/steps.ts";
import { ShardedMap } from "../../server/src/core/sharded-map.ts";

test("sortSteps sorts as Array.prototype.sort does, stably, over lists around its run's length, in many steps for a long list", () => {
  let seed = 3;
  const rand = (n: number) => { seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff; return seed % n; };
  const byKey = (a: { key: number }, b: { key: number }) => a.key - b.key;
  for (const length of [0, 1, 2, 4095, 4096, 4097, 8192, 8193, 12_289, 50_000]) {
    // Few keys, so ties are many: stability shows in the order of `at`.
    const list = Array.from({ length }, (_, at) => ({ key: rand(64), at }));
    const before = list.slice();
    const steps = sortSteps(list, byKey);
    let n = 0;
    let r = steps.next();
    while (!r.done) { n++; r = steps.next(); }
    assert.deepEqual(r.value, list.slice().sort(byKey), `length ${length}`);
    assert.deepEqual(list, before, "the list itself is left as it was");
    if (length === 50_000) assert.ok(n >= 50_000 / 4096, `steps: ${n}`);
  }
});

test("ShardedMap answers get, has, set and entries as a Map does, short and empty keys too, and spreads lockfile-like keys over its shards", () => {
  const sharded = new ShardedMap<number>();
  const plain = new Map<string, number>();
  const keys = ["", "a", "ab", "abc", "€", "😀", ...Array.from({ length: 20_000 }, (_, i) => (i % 3 === 0 ? `resources/f${i % 97}.ts#d${i}` : `cloud:vm/${i % 7000}`))];
  keys.forEach((k, i) => { sharded.set(k, i); plain.set(k, i); });
  for (const k of [...keys, "missing", "cloud:vm/7001"]) {
    assert.equal(sharded.get(k), plain.get(k), k);
    assert.equal(sharded.has(k), plain.has(k), k);
  }
  assert.deepEqual(new Map(sharded.entries()), plain);
  const used = (sharded as unknown as { shards: Map<string, number>[] }).shards.filter((s) => s.size > 0).length;
  assert.ok(used > 200, `keys that differ at their ends fill most shards: ${used} of 256`);
});
