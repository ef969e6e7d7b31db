/**
 * The TypeScript plugin in a real tsserver, installed from its tarball into a company project (see
 * `test/support/tsserver.ts`), on every conformance company (`test/fixtures/conformance/*` and the
 * shared `hooli`, when present): per file of the program, its Sanoma problems among the semantic
 * diagnostics are exactly `sanoma-check`'s (rule, severity, message and range), cross-file rules
 * included; the only problems tsserver cannot show are those of files outside any program (the
 * lockfile).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { LineMap } from "../../server/src/core/text.ts";
import { RULE_CODES } from "../../ts-plugin/src/codes.ts";
import { copyInto, installProject, REPO, TsServer, writeTsconfig } from "../support/tsserver.ts";

const COMPANIES = join(REPO, "test", "fixtures", "conformance");
const SHARED = resolve(REPO, "..", "shared", "conformance", "hooli");
const RULE_OF = new Map(Object.entries(RULE_CODES).map(([rule, code]) => [code, rule]));
const SEVERITY: Record<string, string> = { error: "error", warning: "warning", message: "info", suggestion: "hint" };

interface Found { file: string; line: number; column: number; endLine: number; endColumn: number; severity: string; rule: string; message: string }
const key = (f: Found) => `${f.file}:${f.line}:${f.column}-${f.endLine}:${f.endColumn} ${f.severity} ${f.rule} ${f.message}`;

function fromCheck(dir: string): Found[] {
  const r = spawnSync(process.execPath, [join(REPO, "dist", "check.js"), dir, "--format", "json"], { encoding: "utf8", timeout: 60_000 });
  assert.ok(r.status === 0 || r.status === 1, r.stderr);
  return JSON.parse(r.stdout).problems.map((p: Found) => ({ ...p, file: relative(dir, p.file) }));
}

/** Every file of the program under `dir`, and the Sanoma problems tsserver gives for each. */
async function fromTsserver(project: string, dir: string): Promise<{ found: Found[]; programFiles: Set<string> }> {
  const s = new TsServer({ cwd: project });
  try {
    const first = readdirSync(dir, { recursive: true, encoding: "utf8" }).find((f) => f.endsWith(".ts") && !f.includes("node_modules"))!;
    s.open(join(dir, first));
    const info = await s.request("projectInfo", { file: join(dir, first), needFileNameList: true });
    assert.equal(info.configFileName, join(dir, "tsconfig.json"));
    const files: string[] = info.fileNames.filter((f: string) => f.startsWith(dir + "/") && !f.includes("/node_modules/") && /\.[cm]?[jt]sx?$/.test(f));
    const found: Found[] = [];
    for (const file of files) {
      const lines = new LineMap(readFileSync(file, "utf8").replace(/^\uFEFF/, ""));
      for (const d of await s.semantic(file).catch((e) => { throw new Error(`${file}: ${e.message}`); })) {
        if (d.source !== "sanoma") continue;
        const start = lines.position(d.start), end = lines.position(d.start + d.length);
        found.push({ file: relative(dir, file), line: start.line + 1, column: start.character + 1, endLine: end.line + 1, endColumn: end.character + 1, severity: SEVERITY[d.category], rule: RULE_OF.get(d.code) ?? `code ${d.code}`, message: d.message });
      }
    }
    return { found, programFiles: new Set(files.map((f) => relative(dir, f))) };
  } finally { await s.close(); }
}

const companies = readdirSync(COMPANIES, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => ({ name: e.name, from: join(COMPANIES, e.name) }));
if (existsSync(SHARED)) companies.push({ name: "hooli", from: SHARED });

for (const { name, from } of companies) {
  test(`tsserver with the plugin: ${name}: each file's Sanoma problems are sanoma-check's`, { timeout: 300_000 }, async () => {
    const project = installProject();
    const dir = copyInto(project, from, name);
    writeTsconfig(dir);
    const want = fromCheck(dir);
    assert.ok(want.length > 10, "the company has problems to find");
    const { found, programFiles } = await fromTsserver(project, dir);
    const inProgram = want.filter((p) => programFiles.has(p.file));
    assert.deepEqual(found.map(key).sort(), inProgram.map(key).sort());
    // What no tsserver can show: problems of files in no program (the lockfile is JSON).
    const outside = [...new Set(want.filter((p) => !programFiles.has(p.file)).map((p) => p.file))];
    for (const f of outside) assert.match(f, /(^|\/)sanoma\.lock\.json$/, `${f} has problems but is in no program`);
  });
}
