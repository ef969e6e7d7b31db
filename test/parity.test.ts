/**
 * One implementation: on the same fixtures, the language server publishes exactly what
 * `sanoma-check` prints (file, range, severity, rule, message), both run as processes.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { RULES } from "../server/src/core/rules/index.ts";
import { printedByCheck, publishedByServer } from "./support/surfaces.ts";
import { removeFixture, writeFixture } from "./support/fixture.ts";
import { CLEAN } from "./support/companies.ts";

const REPO = resolve(import.meta.dirname, "..");
const SEVERITY = ["", "error", "warning", "info", "hint"];

function fromCheck(dir: string): string[] {
  // (The check prints paths relative to the folder it runs in, this process's: B2.)
  return printedByCheck(dir).map((p) => `${resolve(p.file)}:${p.line}:${p.column}-${p.endLine}:${p.endColumn} ${p.severity} ${p.rule} ${p.message}`).sort();
}

async function fromServer(dir: string): Promise<string[]> {
  return (await publishedByServer(dir)).map(({ file, diagnostic: d }) => `${file}:${d.range.start.line + 1}:${d.range.start.character + 1}-${d.range.end.line + 1}:${d.range.end.character + 1} ${SEVERITY[d.severity!]} ${d.code} ${d.message}`).sort();
}

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
