/** Architecture invariants that a grep can hold: the core imports no IO, process or protocol module. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

const CORE = join(import.meta.dirname, "..", "..", "server", "src", "core");
const FORBIDDEN = /^import [^;]*from "(node:)?(fs|child_process|net|http|os|worker_threads)";|^import [^;]*from "vscode(-languageserver[^"]*)?";|\bprocess\.(env|cwd|argv|exit|stdout|stderr|on)\b/m;

/**
 * A source's text with what its template literals hold blanked out: the rules' doc examples and
 * cases are companies written in template literals, whose own imports are not the module's.
 */
function code(file: string): string {
  const text = readFileSync(file, "utf8");
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const spans: [number, number][] = [];
  const visit = (n: ts.Node) => {
    if (ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n)) spans.push([n.getStart(sf), n.end]);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  let out = text;
  for (const [a, b] of spans) out = out.slice(0, a) + out.slice(a, b).replace(/[^\n]/g, " ") + out.slice(b);
  return out;
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((e) => (statSync(join(dir, e)).isDirectory() ? files(join(dir, e)) : [join(dir, e)]));
}

test("invariant: server/src/core imports no fs, process, network or protocol module", () => {
  const offenders = files(CORE).filter((f) => FORBIDDEN.test(code(f))).map((f) => f.slice(CORE.length + 1));
  assert.deepEqual(offenders, []);
});

test("invariant: the import-reach rules do not reach the TypeScript parser (the lint plugin bundles them)", () => {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const m of code(file).matchAll(/^import (?!type )[^;]*from "(\.[^"]+\.ts)";/gm)) visit(join(file, "..", m[1]));
  };
  visit(join(CORE, "rules", "imports.ts"));
  const parserUsers = [...seen].filter((f) => /from "typescript"/.test(code(f)));
  assert.deepEqual(parserUsers, []);
});
