/**
 * What the two processes say of the companies under a folder, for the tests that compare them
 * (parity, conformance, the rule cases): `sanoma-check --format json`'s problems as printed, and
 * the language server's diagnostics once it is idle, each with its file's path.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Diag } from "./lsp.ts";
import { withServer } from "./server.ts";

const CHECK = join(import.meta.dirname, "..", "..", "dist", "check.js");

/** A problem as `--format json` prints it. */
export interface PrintedProblem { file: string; line: number; column: number; endLine: number; endColumn: number; severity: string; rule: string; message: string }

/** `sanoma-check <target> --format json` run in `cwd` (default this process's), its paths as printed (relative to `cwd`); it must exit 0 or 1. */
export function printedByCheck(target: string, cwd?: string): PrintedProblem[] {
  const r = spawnSync(process.execPath, [CHECK, target, "--format", "json"], { cwd, encoding: "utf8", maxBuffer: 64 << 20, timeout: 120_000 });
  assert.ok(r.status === 0 || r.status === 1, `sanoma-check exited ${r.status}:\n${r.stderr}`);
  return JSON.parse(r.stdout).problems;
}

/** What a server whose workspace folder is `dir` publishes once it is idle: each diagnostic with its file's path. */
export function publishedByServer(dir: string, idle?: number): Promise<{ file: string; diagnostic: Diag }[]> {
  return withServer([], async ({ c }) => {
    const out: { file: string; diagnostic: Diag }[] = [];
    for (const [uri, diags] of c.diagnostics) for (const diagnostic of diags) out.push({ file: fileURLToPath(uri), diagnostic });
    return out;
  }, { folders: [dir], ...(idle ? { idle } : {}) });
}
