/**
 * Conformance companies (`test/fixtures/conformance/`, in the format of `shared/conformance`:
 * problems marked where the spec says they are reported, traps that must stay silent): the built
 * `sanoma-check` and the language server over stdio each report exactly what is marked. Written by
 * an adversarial read of the spec, as another company would judge the tooling; each marker can be
 * traced to a sentence of it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { compareExpectations, type Reported } from "./support/expect-comments.ts";
import { withServer } from "./support/server.ts";

const REPO = resolve(import.meta.dirname, "..");
const COMPANIES = join(REPO, "test", "fixtures", "conformance");

function copy(name: string): { dir: string; done: () => void } {
  const work = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-conformance-")));
  const dir = join(work, name);
  cpSync(join(COMPANIES, name), dir, { recursive: true });
  return { dir, done: () => rmSync(work, { recursive: true, force: true }) };
}

function fromCheck(dir: string): Reported[] {
  const r = spawnSync(process.execPath, [join(REPO, "dist", "check.js"), dir, "--format", "json"], { encoding: "utf8", timeout: 60000 });
  assert.ok(r.status === 0 || r.status === 1, r.stderr);
  return JSON.parse(r.stdout).problems.map((p: { file: string; line: number; rule: string; message: string }) => ({ file: relative(dir, p.file), line: p.line, rule: p.rule, message: p.message }));
}

function fromServer(dir: string): Promise<Reported[]> {
  return withServer([], async ({ c }) => {
    const out: Reported[] = [];
    for (const [uri, diags] of c.diagnostics) {
      for (const d of diags) out.push({ file: relative(dir, fileURLToPath(uri)), line: d.range.start.line + 1, rule: String(d.code), message: d.message });
    }
    return out;
  }, { folders: [dir] });
}

for (const name of readdirSync(COMPANIES, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()) {
  test(`conformance: ${name}: sanoma-check and the language server report exactly what is marked`, async () => {
    const { dir, done } = copy(name);
    try {
      const check = fromCheck(dir);
      assert.ok(check.length > 10, "the company has problems to find");
      assert.deepEqual(compareExpectations(dir, check), [], "sanoma-check");
      assert.deepEqual(compareExpectations(dir, await fromServer(dir)), [], "the language server");
    } finally { done(); }
  });
}
