/**
 * Conformance companies (`test/fixtures/conformance/`, in the format of `shared/conformance`:
 * problems marked where the spec says they are reported, traps that must stay silent): the built
 * `sanoma-check` and the language server over stdio each report exactly what is marked. Written by
 * an adversarial read of the spec, as another company would judge the tooling; each marker can be
 * traced to a sentence of it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { compareExpectations, type Reported } from "./support/expect-comments.ts";
import { printedByCheck, publishedByServer } from "./support/surfaces.ts";

const REPO = resolve(import.meta.dirname, "..");
const COMPANIES = join(REPO, "test", "fixtures", "conformance");

function copy(name: string): { dir: string; done: () => void } {
  const work = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-conformance-")));
  const dir = join(work, name);
  cpSync(join(COMPANIES, name), dir, { recursive: true });
  return { dir, done: () => rmSync(work, { recursive: true, force: true }) };
}

function fromCheck(dir: string): Reported[] {
  return printedByCheck(dir).map((p) => ({ file: relative(dir, p.file), line: p.line, rule: p.rule, message: p.message }));
}

async function fromServer(dir: string): Promise<Reported[]> {
  return (await publishedByServer(dir)).map(({ file, diagnostic: d }) => ({ file: relative(dir, file), line: d.range.start.line + 1, rule: String(d.code), message: d.message }));
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
