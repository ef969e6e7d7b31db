/** Architecture invariants that a grep can hold: the core imports no IO, process or protocol module. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const CORE = join(import.meta.dirname, "..", "..", "server", "src", "core");
const FORBIDDEN = /^import [^;]*from "(node:)?(fs|child_process|net|http|os|worker_threads)";|^import [^;]*from "vscode(-languageserver[^"]*)?";|\bprocess\.(env|cwd|argv|exit|stdout|stderr|on)\b/m;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => (statSync(join(dir, e)).isDirectory() ? files(join(dir, e)) : [join(dir, e)]));
}

test("invariant: server/src/core imports no fs, process, network or protocol module", () => {
  const offenders = files(CORE).filter((f) => FORBIDDEN.test(readFileSync(f, "utf8"))).map((f) => f.slice(CORE.length + 1));
  assert.deepEqual(offenders, []);
});

test("invariant: the import-reach rules do not reach the TypeScript parser (the lint plugin bundles them)", () => {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const m of readFileSync(file, "utf8").matchAll(/^import (?!type )[^;]*from "(\.[^"]+\.ts)";/gm)) visit(join(file, "..", m[1]));
  };
  visit(join(CORE, "rules", "imports.ts"));
  const parserUsers = [...seen].filter((f) => /from "typescript"/.test(readFileSync(f, "utf8")));
  assert.deepEqual(parserUsers, []);
});
