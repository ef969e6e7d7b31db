/**
 * The lint plugin's hosts, driven for real: the `oxlint` binary as a process (`-f json`, a
 * generated `.oxlintrc.json` naming the built bundle) and ESLint through its Node API (flat config,
 * `@typescript-eslint/parser`). Each gives its findings in the fixture harness's `Found` shape, with
 * UTF-16 columns (oxlint reports byte offsets; they are converted with the core's own line map), so
 * they compare directly with what `sanoma-check`'s code finds on the same folder.
 */
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { ESLint, type Linter } from "eslint";
import * as tsParser from "@typescript-eslint/parser";
import { IMPORT_RULES } from "../../server/src/core/rules/imports.ts";
import { IMPORT_RULE_IDS as IMPORT_RULE_IDS_LIST } from "../../server/src/core/rules/ids.ts";
import { LineMap } from "../../server/src/core/text.ts";
import { checkDir, toFound } from "../support/check.ts";
import type { Found } from "../support/fixture.ts";

export const REPO = resolve(__dirname, "../..");
export const BUNDLE = join(REPO, "lint-plugin", "dist", "index.mjs");
export const OXLINT = join(REPO, "node_modules", ".bin", "oxlint");
export const IMPORT_RULE_IDS = new Set<string>(IMPORT_RULE_IDS_LIST);

/** The built plugin, as a host loads it. */
export function loadPlugin(): { meta: { name: string; version: string }; rules: Record<string, any>; configs: Record<string, any> } {
  return require(BUNDLE);
}

/** Every sanoma rule at `error`, as a host's config says it. */
export function sanomaRules(): Record<string, "error"> {
  return Object.fromEntries(IMPORT_RULES.map((r) => [`sanoma/${r.id}`, "error" as const]));
}

/** What `sanoma-check` finds under `dir`, for the five import rules only. */
export function checkFound(dir: string): Found[] {
  return sort(toFound(dir, checkDir(dir)).filter((f) => IMPORT_RULE_IDS.has(f.rule)));
}

export interface OxlintOptions {
  /** `settings` of the generated config (e.g. `{ sanoma: { prefilter: false } }`). */
  settings?: Record<string, unknown>;
  fix?: boolean;
  /** Paths to lint, relative to `dir` (default `.`). */
  paths?: string[];
  /** Environment variables for the oxlint process, added to this one's. */
  env?: Record<string, string>;
}

/** Writes `dir/.oxlintrc.json` (the bundle, the five rules, built-in rules off) and runs oxlint there. */
export function runOxlint(dir: string, options: OxlintOptions = {}): { found: Found[]; other: unknown[]; result: SpawnSyncReturns<string> } {
  writeFileSync(join(dir, ".oxlintrc.json"), JSON.stringify({
    jsPlugins: [BUNDLE],
    categories: { correctness: "off" },
    rules: sanomaRules(),
    ...(options.settings ? { settings: options.settings } : {}),
  }, null, 2));
  const args = ["-c", ".oxlintrc.json", "-f", "json", ...(options.fix ? ["--fix"] : []), ...(options.paths ?? ["."])];
  const result = spawnSync(OXLINT, args, { cwd: dir, encoding: "utf8", maxBuffer: 64 << 20, env: options.env ? { ...process.env, ...options.env } : undefined });
  if (result.error) throw result.error;
  let parsed: { diagnostics: OxDiagnostic[] };
  try { parsed = JSON.parse(result.stdout); } catch { throw new Error(`oxlint did not print JSON (exit ${result.status}):\n${result.stdout}\n${result.stderr}`); }
  const found: Found[] = [];
  const other: unknown[] = [];
  const texts = new Map<string, { bytes: Buffer; lines: LineMap }>();
  for (const d of parsed.diagnostics) {
    const m = /^sanoma\((.+)\)$/.exec(d.code ?? "");
    const span = d.labels?.[0]?.span;
    if (!m || !span) { other.push(d); continue; }
    let t = texts.get(d.filename);
    if (!t) {
      const bytes = readFileSync(join(dir, d.filename));
      t = { bytes, lines: new LineMap(bytes.toString("utf8")) };
      texts.set(d.filename, t);
    }
    // oxlint's offsets count UTF-8 bytes; positions here count UTF-16 units, as LSP and the core do.
    const utf16 = (byteOffset: number) => t!.bytes.subarray(0, byteOffset).toString("utf8").length;
    const start = t.lines.position(utf16(span.offset));
    const end = t.lines.position(utf16(span.offset + span.length));
    found.push({
      file: d.filename.split("\\").join("/"), line: start.line, startCol: start.character,
      endCol: end.line === start.line ? end.character : start.character + 1, rule: m[1], message: d.message,
    });
  }
  return { found: sort(found), other, result };
}

interface OxDiagnostic {
  message: string;
  code?: string;
  filename: string;
  labels?: { span: { offset: number; length: number; line: number; column: number } }[];
}

/** The flat config the tests (and the README) give ESLint: the TypeScript parser for code files, the five rules. */
export function eslintConfig(plugin = loadPlugin()): Linter.Config[] {
  return [
    // A fixture's node_modules are linted too: the plugin itself must say nothing there.
    { ignores: ["!**/node_modules/"] },
    {
      files: ["**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}"],
      languageOptions: { parser: tsParser as Linter.Parser },
      plugins: { sanoma: plugin as any },
      rules: sanomaRules(),
    },
  ];
}

export function eslintFor(dir: string, options: { fix?: boolean } = {}): ESLint {
  return new ESLint({ cwd: dir, overrideConfigFile: true, overrideConfig: eslintConfig(), fix: options.fix ?? false });
}

/** Lints `dir` with ESLint; fatal parse errors fail loudly rather than hide findings. */
export async function runEslint(dir: string, options: { fix?: boolean; eslint?: ESLint; paths?: string[] } = {}): Promise<{ found: Found[]; results: ESLint.LintResult[] }> {
  const eslint = options.eslint ?? eslintFor(dir, options);
  const results = await eslint.lintFiles(options.paths ?? ["."]);
  if (options.fix) await ESLint.outputFixes(results);
  const found: Found[] = [];
  for (const r of results) {
    for (const m of r.messages) {
      if (m.fatal) throw new Error(`ESLint could not parse ${r.filePath}: ${m.message}`);
      if (!m.ruleId?.startsWith("sanoma/")) continue;
      found.push({
        file: relative(dir, r.filePath).split("\\").join("/"), line: m.line - 1, startCol: m.column - 1,
        endCol: m.endLine === m.line && m.endColumn !== undefined ? m.endColumn - 1 : m.column, rule: m.ruleId.slice("sanoma/".length), message: m.message,
      });
    }
  }
  return { found: sort(found), results };
}

export function key(f: Found): string {
  return `${f.file}:${f.line + 1}:${f.startCol + 1}-${f.endCol + 1} ${f.rule} ${f.message}`;
}

export function sort(found: Found[]): Found[] {
  return found.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/** Found problems under one folder of `dir`, with paths made relative to that folder. */
export function under(found: Found[], folder: string): Found[] {
  return found.filter((f) => f.file.startsWith(folder + "/")).map((f) => ({ ...f, file: f.file.slice(folder.length + 1) }));
}
