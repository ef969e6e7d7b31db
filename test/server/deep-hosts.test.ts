/**
 * A11 in every host: a workflow source nested deep, with a syntax error after the nesting, is
 * given one answer by the extension's server (`dist/server.js`, on a main thread), its check
 * (`dist/check.js`, the same) and the package's commands (`sanoma-check`, `sanoma-language-server`,
 * in a worker thread with four times the stack). Before, TypeScript's parser ran out of stack on a
 * main thread from some 650 deep and not in the worker: a `syntax-error` in the package's commands,
 * nothing in the extension's server, "skipped" in `dist/check.js` (`PARSE_DEPTH` in facts-tree.ts).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { appendFileSync, cpSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { LspClient } from "../support/lsp.ts";

const REPO = join(import.meta.dirname, "..", "..");
const CHECKS = { "dist/check.js": join(REPO, "dist/check.js"), "sanoma-check": join(REPO, "server/bin/sanoma-check.js") };
const SERVERS = { "dist/server.js": join(REPO, "dist/server.js"), "sanoma-language-server": join(REPO, "server/bin/sanoma-language-server.js") };

/** What a host says of workflows/nightly.ts: its problems' rule ids, or "skipped". */
async function answers(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [name, cmd] of Object.entries(CHECKS)) {
    const r = spawnSync(process.execPath, [cmd, ".", "--verbose"], { cwd: dir, encoding: "utf8", timeout: 120_000 });
    const lines = (r.stdout + r.stderr).split("\n").filter((l) => l.includes("workflows/nightly.ts"));
    out[name] = lines.some((l) => /skipped/.test(l)) ? "skipped" : lines.map((l) => /\b(syntax-error|[a-z]+(?:-[a-z]+)+)\b/.exec(l)?.[1] ?? l).sort().join(",");
  }
  for (const [name, server] of Object.entries(SERVERS)) {
    const c = new LspClient({ command: [process.execPath, server, "--stdio"] });
    try {
      await c.initialize([dir]);
      await c.waitIdle(60_000);
      out[name] = c.diagnosticsFor(join(dir, "workflows/nightly.ts")).map((d) => String(d.code)).sort().join(",");
    } finally {
      await c.shutdown();
    }
  }
  return out;
}

for (const depth of [250, 400, 1000, 2000]) {
  test(`a workflow source nested ${depth} arrays deep with a syntax error after: one answer in every host (A11)`, async () => {
    const dir = join(realpathSync(mkdtempSync(join(tmpdir(), "sanoma-deep-"))), "c");
    try {
      cpSync(join(REPO, "examples/acme"), dir, { recursive: true });
      appendFileSync(join(dir, "workflows/nightly.ts"), `\nexport const deep = ${"[".repeat(depth)}1${"]".repeat(depth)};\nconst broken = ;\n`);
      const got = await answers(dir);
      const expected = depth < 300 ? "syntax-error" : "skipped";
      // (The servers do not publish a skipped file's skip: no problem there.)
      const want = Object.fromEntries(Object.keys(got).map((k) => [k, expected === "skipped" && k in SERVERS ? "" : expected]));
      assert.deepEqual(got, want);
    } finally {
      rmSync(join(dir, ".."), { recursive: true, force: true });
    }
  });
}
