/**
 * Expectations written as comments in a company's files, the conformance format of
 * `shared/conformance`: `// expect: rule-a, rule-b` (a problem of that rule starts on this line),
 * `// expect[+N]: rule` (on this line or one of the N after it), `// allow: rule` (may start
 * here), and `expected-extra.json` for files that cannot hold comments.
 */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

export interface LineExpectation { file: string; from: number; to: number; rule: string }
export interface Reported { file: string; line: number; rule: string; message?: string }

function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir)) {
    if (e === "node_modules" || e.startsWith(".")) continue;
    const p = join(dir, e);
    if (statSync(p).isDirectory()) walk(p, out); else out.push(p);
  }
  return out;
}

export function readExpectations(root: string): { expect: LineExpectation[]; allow: LineExpectation[] } {
  const expect: LineExpectation[] = [];
  const allow: LineExpectation[] = [];
  for (const file of walk(root)) {
    if (!/\.(ts|js|mjs|cjs|json)$/.test(file)) continue;
    const rel = relative(root, file).split("\\").join("/");
    readFileSync(file, "utf8").split("\n").forEach((text, i) => {
      for (const m of text.matchAll(/\b(expect|allow)(?:\[\+(\d+)\])?:\s*([a-z-]+(?:\s*,\s*[a-z-]+)*)/g)) {
        for (const rule of m[3].split(",").map((c) => c.trim())) (m[1] === "expect" ? expect : allow).push({ file: rel, from: i + 1, to: i + 1 + (Number(m[2]) || 0), rule });
      }
    });
  }
  const extra = join(root, "expected-extra.json");
  if (existsSync(extra)) {
    const x = JSON.parse(readFileSync(extra, "utf8"));
    for (const e of x.expect) expect.push({ file: e.file, from: e.line, to: e.line, rule: e.code });
    // (`"line": "*"`: anywhere in the file, as the shared conformance tool reads it.)
    for (const e of x.allow) allow.push({ file: e.file, from: e.line === "*" ? 0 : e.line, to: e.line === "*" ? Infinity : e.line, rule: e.code });
  }
  return { expect, allow };
}

/** Lines of what is missing and what is extra; empty when the report is exactly what is marked. */
export function compareExpectations(root: string, reported: Reported[], rules?: Set<string>): string[] {
  const { expect, allow } = readExpectations(root);
  const want = rules ? expect.filter((e) => rules.has(e.rule)) : expect;
  const fits = (e: LineExpectation, a: Reported) => e.file === a.file && e.rule === a.rule && a.line >= e.from && a.line <= e.to;
  const out: string[] = [];
  for (const e of want) if (!reported.some((a) => fits(e, a))) out.push(`missing ${e.file}:${e.from} ${e.rule}`);
  for (const a of reported) if (!want.some((e) => fits(e, a)) && !allow.some((e) => fits(e, a))) out.push(`extra ${a.file}:${a.line} ${a.rule} ${a.message ?? ""}`);
  return out;
}
