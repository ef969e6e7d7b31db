/**
 * Facts keep no file's text (core/intern.ts): the strings they hold stand alone, so a company's
 * facts do not keep every text they were read from. Measured in a process of its own, its heap
 * collected.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { intern, internAll } from "../../server/src/core/intern.ts";

test("facts read lightly, from the tree or from a data file's tokens keep no slice of their text: the texts can go", () => {
  const r = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", join(import.meta.dirname, "..", "support", "retained-text.ts")], { encoding: "utf8", cwd: join(import.meta.dirname, "..", "..") });
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout.trim().split("\n").pop()!);
  assert.equal(out.specifiers.length, 60);
  assert.ok(out.specifiers.every((s: string, i: number) => s === `./a-specifier-long-enough-to-slice-${i}`), "the facts were read");
  assert.equal(out.light, 20, "a third were read without a tree");
  assert.equal(out.fromTokens, 20, "a third were data files read from tokens");
  // 60 texts of 1 MB: kept, the heap grows by 60 MB; let go, by the facts alone.
  assert.ok(out.grewMb < 8, `the heap grew by ${out.grewMb.toFixed(1)} MB: the facts keep their texts`);
});

test("intern: equal strings give one copy; internAll keeps a fact's value equal, maps in their order", () => {
  const a = "x".repeat(20) + "y";
  const b = ("z" + a).slice(1);
  assert.equal(intern(a), intern(b));
  const fact = { name: b, list: [b, 1, { deep: b }], map: new Map<string, unknown>([[b, { source: b }], ["k", "v"]]) };
  const copy = structuredClone(fact);
  assert.deepEqual(internAll(fact), copy);
  assert.deepEqual([...fact.map.keys()], [a, "k"]);
  const frozen = Object.freeze({ s: b });
  assert.equal(internAll(frozen), frozen, "a frozen value is left as it is");
});
