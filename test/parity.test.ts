/**
 * One implementation: on the same fixtures, the language server publishes exactly what
 * `sanoma-check` prints (file, range, severity, rule, message), both run as processes.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { RULES } from "../server/src/core/rules/index.ts";
import { withServer } from "./support/server.ts";
import { removeFixture, writeFixture } from "./support/fixture.ts";
import { CLEAN } from "./support/companies.ts";

const REPO = resolve(import.meta.dirname, "..");
const SEVERITY = ["", "error", "warning", "info", "hint"];

function fromCheck(dir: string): string[] {
  const r = spawnSync(process.execPath, [join(REPO, "dist/check.js"), dir, "--format", "json"], { encoding: "utf8", timeout: 60000 });
  return JSON.parse(r.stdout).problems.map((p: any) => `${p.file}:${p.line}:${p.column}-${p.endLine}:${p.endColumn} ${p.severity} ${p.rule} ${p.message}`).sort();
}

function fromServer(dir: string): Promise<string[]> {
  return withServer([], async ({ c }) => {
    const out: string[] = [];
    for (const [u, diags] of c.diagnostics) {
      const file = fileURLToPath(u);
      for (const d of diags) out.push(`${file}:${d.range.start.line + 1}:${d.range.start.character + 1}-${d.range.end.line + 1}:${d.range.end.character + 1} ${SEVERITY[d.severity!]} ${d.code} ${d.message}`);
    }
    return out.sort();
  }, { folders: [dir] });
}

/** Each case makes its company folder, and says what to remove after (the folder it made it in). */
const cases: [string, () => { dir: string; made: string[] }][] = [
  ["the broken example", () => { const d = realpathSync(mkdtempSync(join(tmpdir(), "parity-"))); cpSync(join(REPO, "examples/acme-broken"), join(d, "c"), { recursive: true }); return { dir: join(d, "c"), made: [d] }; }],
  ["the clean company", () => { const d = writeFixture(CLEAN); return { dir: d, made: [d] }; }],
  ["every rule's wrong examples together", () => {
    // Each example in a folder of its own, all in one workspace: several companies at once.
    const d = realpathSync(mkdtempSync(join(tmpdir(), "parity-")));
    const made = [d];
    for (const r of RULES) { const example = writeFixture(r.doc.wrong); made.push(example); cpSync(example, join(d, r.id), { recursive: true }); }
    return { dir: d, made };
  }],
];

for (const [name, make] of cases) {
  test(`parity: the server publishes exactly what sanoma-check prints, on ${name}`, async () => {
    const { dir, made } = make();
    try {
      const cli = fromCheck(dir);
      assert.ok(cli.length > 0 || name.includes("clean"), "the fixture has problems to compare");
      assert.deepEqual(await fromServer(dir), cli);
    } finally { for (const d of made) removeFixture(d); }
  });
}
