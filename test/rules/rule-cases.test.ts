/**
 * The one runner of every rule's cases (test/support/rule-cases.ts gathers them: each rule's doc
 * examples and `cases`, the company model's, the lint plugin's). All are written side by side
 * under one folder, each case a folder of its own, and every surface runs once over the lot:
 *   - the core, as `sanoma-check` runs it (test/support/check.ts);
 *   - the real `sanoma-check` (dist/check.js, `--format json`), one process;
 *   - the language server over stdio (dist/server.js), one process, the folder its workspace;
 *   - for the import rules' cases, the model's and the plugin's own: the real `oxlint` with the
 *     built plugin (four ways: as shipped, where the prefilter skips files and sites are read from
 *     the text, from the lines of imports a file opens with where the literals that fire stand
 *     there, else by the tokenizer; with the tokenizer alone; with every site read from the syntax
 *     tree; with no prefilter) and real ESLint, each once.
 * Per case: the core, `sanoma-check` and the server each report exactly the problems drawn in the
 * case's text, of every rule (file, line, columns, rule, the message's marked words); each lint
 * host reports exactly what the core reports for the five import rules, messages too.
 *
 * Needs the built bundles: `node scripts/build.mjs`.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { RULE_IDS, IMPORT_RULE_IDS } from "../../server/src/core/rules/ids.ts";
import { checkDir, toFound } from "../support/check.ts";
import { diffExpected, type Found } from "../support/fixture.ts";
import { SERVER } from "../support/lsp.ts";
import { printedByCheck, publishedByServer } from "../support/surfaces.ts";
import { allCases, writeCases } from "../support/rule-cases.ts";
import { CLOUD_PACKAGE } from "../../server/src/core/rules/case-packages.ts";
// @ts-expect-error the benchmark's generator is plain JavaScript
import { cloudPackageFiles } from "../../bench/generate.mjs";
import { BUNDLE, IMPORT_RULE_IDS as IMPORT_RULE_SET, REPO, key, runEslint, runOxlint, sort, under } from "../lint/hosts.ts";

const CHECK = join(REPO, "dist", "check.js");
const CASES = allCases();

const LINT_HOSTS = ["oxlint", "oxlintTokenizer", "oxlintTree", "oxlintNoPrefilter", "eslint"] as const;
type Surface = "core" | "check" | "server" | (typeof LINT_HOSTS)[number];

let root = "";
const seen = {} as Record<Surface, Found[]>;
let oxlintOther: unknown[] = [];
/** How oxlint's default run went, file by file (the plugin's `SANOMA_LINT_STATS`). */
let oxlintStats: { files: number; skipped: number; fromText: number; header: number; tree: number; unsure: number; notTypeScript: number } | undefined;

/** What `sanoma-check --format json` prints under `dir`, as found problems (paths relative to `dir`). */
function fromCheck(dir: string): Found[] {
  return printedByCheck(".", dir).map((p) => ({ file: p.file, line: p.line - 1, startCol: p.column - 1, endCol: p.endLine === p.line ? p.endColumn - 1 : p.column, rule: p.rule, message: p.message }));
}

/** What the server publishes for the workspace folder `dir` once it is idle. */
async function fromServer(dir: string): Promise<Found[]> {
  return (await publishedByServer(dir, 120000)).map(({ file, diagnostic: d }) => ({
    file: relative(dir, file).split("\\").join("/"), line: d.range.start.line, startCol: d.range.start.character,
    endCol: d.range.end.line === d.range.start.line ? d.range.end.character : d.range.start.character + 1, rule: String(d.code), message: d.message,
  }));
}

before(async () => {
  for (const f of [CHECK, SERVER, BUNDLE]) assert.ok(existsSync(f), `${f} is missing: run node scripts/build.mjs`);
  root = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-rule-cases-")));
  writeCases(root, CASES);
  seen.core = toFound(root, checkDir(root));
  seen.check = fromCheck(root);
  seen.server = await fromServer(root);
  const lint = join(root, "lint");
  const ox = runOxlint(lint, { env: { SANOMA_LINT_STATS: "1" } });
  seen.oxlint = ox.found;
  oxlintOther = ox.other;
  const stats = /sanoma-lint-stats (\{.*\})/.exec(ox.result.stderr);
  oxlintStats = stats ? JSON.parse(stats[1]) : undefined;
  seen.oxlintTokenizer = runOxlint(lint, { settings: { sanoma: { header: false } } }).found;
  seen.oxlintTree = runOxlint(lint, { settings: { sanoma: { scan: false } } }).found;
  seen.oxlintNoPrefilter = runOxlint(lint, { settings: { sanoma: { prefilter: false } } }).found;
  seen.eslint = (await runEslint(lint)).found;
  // The hosts' paths are relative to lint/, the others' to the root.
  for (const host of LINT_HOSTS) seen[host] = seen[host].map((f) => ({ ...f, file: `lint/${f.file}` }));
});

after(() => { if (root) rmSync(root, { recursive: true, force: true }); });

const show = (found: Found[]) => sort(found).map(key).join("\n");
const importRules = (found: Found[]) => found.filter((f) => IMPORT_RULE_SET.has(f.rule));

for (const c of CASES) {
  describe(`${c.owner}: ${c.name}`, () => {
    if (c.kind === "doc-wrong") test("marks at least one problem of its rule", () => assert.ok(c.fixture.expected.some((e) => e.rule === c.owner)));
    if (c.kind === "doc-right") test("marks no problem", () => assert.deepEqual(c.fixture.expected, []));
    for (const surface of ["core", "check", "server"] as const) {
      test(`${surface} reports exactly the problems drawn in the text`, () => {
        assert.equal(diffExpected(c.fixture.expected, under(seen[surface], c.folder)), "");
      });
    }
    if (c.lint) {
      for (const host of LINT_HOSTS) {
        test(`${host} reports exactly what the core reports for the import rules`, () => {
          assert.equal(show(under(seen[host], c.folder)), show(importRules(under(seen.core, c.folder))));
        });
      }
    }
  });
}

test("every rule has cases of its own beyond its doc's examples: at least two where it fires and two where it is silent", () => {
  for (const id of RULE_IDS) {
    const own = CASES.filter((c) => c.owner === id && c.kind === "case");
    const fires = own.filter((c) => c.fixture.expected.some((e) => e.rule === id)).length;
    assert.ok(fires >= 2 && own.length - fires >= 2, `${id}: ${fires} cases where it fires, ${own.length - fires} where it is silent`);
  }
});

test("every case's folder holds problems from nowhere else: nothing reported outside the cases' folders", () => {
  const folders = CASES.map((c) => c.folder + "/");
  for (const surface of Object.keys(seen) as Surface[]) {
    assert.deepEqual(seen[surface].filter((f) => !folders.some((d) => f.file.startsWith(d))).map(key), [], surface);
  }
});

test("oxlint parses every lint case (no diagnostics besides the plugin's)", () => {
  assert.deepEqual(oxlintOther, []);
});

test("every import rule fires somewhere in the lint cases, in both hosts", () => {
  for (const id of IMPORT_RULE_IDS) {
    assert.ok(seen.oxlint.some((f) => f.rule === id), `oxlint: ${id}`);
    assert.ok(seen.eslint.some((f) => f.rule === id), `ESLint: ${id}`);
  }
});

test("oxlint read most files' sites from their text (most from their header), left some to the tree, and skipped others", () => {
  assert.ok(oxlintStats, "the plugin printed its stats");
  const { files, skipped, fromText, header, tree, unsure, notTypeScript } = oxlintStats!;
  assert.equal(skipped + fromText + tree, files);
  assert.equal(tree, unsure + notTypeScript, "every tree visited was a file the scanner could not vouch for, or JavaScript");
  assert.ok(notTypeScript >= 3, "the JavaScript cases");
  assert.ok(fromText > 30, `${fromText} files read from the text`);
  assert.ok(header > 20 && header < fromText, `${header} of them from their header alone, the others by the tokenizer`);
  assert.ok(unsure >= 1, "the case the scanner cannot vouch for went to the tree");
  assert.ok(skipped > 10, `${skipped} files skipped by the prefilter`);
});

test("the CRLF case was written with CRLF", () => {
  const crlf = CASES.filter((c) => c.crlf.length > 0);
  assert.ok(crlf.length > 0);
  for (const c of crlf) for (const f of c.crlf) assert.ok(readFileSync(join(root, c.folder, f), "utf8").includes("\r\n"), `${c.folder}/${f}`);
});

test("the benchmark reads every file of the rules' connector package (bench/generate.mjs reads case-packages.ts as text)", () => {
  const files = cloudPackageFiles() as Record<string, string>;
  const headers = [...CLOUD_PACKAGE.matchAll(/^\/\/- \/(.+)$/gm)].map((m) => m[1]);
  assert.deepEqual(Object.keys(files).sort(), headers.sort());
  for (const [path, text] of Object.entries(files)) assert.ok(CLOUD_PACKAGE.includes(`//- /${path}\n${text.trimEnd()}`), path);
});
