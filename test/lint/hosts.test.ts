/**
 * One plugin, two hosts, one truth: every import rule's documented examples and the plugin's own
 * fixtures (`fixtures.ts`) are written side by side into one folder and linted once by the real
 * `oxlint` binary (four ways: as shipped, where the prefilter skips files and import sites are
 * read from the text, from the lines of imports a file opens with where the literals that fire
 * stand there, else by the tokenizer where it vouches for the text; with the tokenizer alone; with
 * the prefilter but every site read from the syntax tree; with neither), once by real ESLint, and
 * once by the code of `sanoma-check`. Per
 * fixture: `sanoma-check` reports exactly the markers drawn in the fixture, and each host reports
 * exactly what `sanoma-check` reports for the five import rules — same file, line, columns
 * (UTF-16), rule and message.
 *
 * Needs the built bundle: `node scripts/build.mjs`.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { IMPORT_RULES } from "../../server/src/core/rules/imports.ts";
import { diffExpected, parseFixture, type Found, type Fixture } from "../support/fixture.ts";
import { BUNDLE, IMPORT_RULE_IDS, checkFound, key, runEslint, runOxlint, under } from "./hosts.ts";
import { FIXTURES } from "./fixtures.ts";

interface Case { name: string; fixture: Fixture; crlf: string[] }

const CASES: Case[] = [
  ...IMPORT_RULES.flatMap((r) => [
    { name: `${r.id}.wrong`, fixture: parseFixture(r.doc.wrong), crlf: [] },
    { name: `${r.id}.right`, fixture: parseFixture(r.doc.right), crlf: [] },
  ]),
  ...FIXTURES.map((f) => ({ name: f.name, fixture: parseFixture(f.text), crlf: f.crlf ?? [] })),
];

let dir = "";
const seen: Record<"check" | "oxlint" | "oxlintTokenizer" | "oxlintTree" | "oxlintNoPrefilter" | "eslint", Found[]> = { check: [], oxlint: [], oxlintTokenizer: [], oxlintTree: [], oxlintNoPrefilter: [], eslint: [] };
let oxlintOther: unknown[] = [];
/** How oxlint's default run went, file by file (the plugin's `SANOMA_LINT_STATS`). */
let oxlintStats: { files: number; skipped: number; fromText: number; header: number; tree: number; unsure: number; notTypeScript: number } | undefined;

before(async () => {
  assert.ok(existsSync(BUNDLE), `${BUNDLE} is missing: run node scripts/build.mjs`);
  dir = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-lint-hosts-")));
  for (const c of CASES) {
    for (const [rel, text] of Object.entries(c.fixture.files)) {
      const p = join(dir, c.name, rel);
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, c.crlf.includes(rel) ? text.replace(/\n/g, "\r\n") : text);
    }
  }
  seen.check = checkFound(dir);
  const ox = runOxlint(dir, { env: { SANOMA_LINT_STATS: "1" } });
  seen.oxlint = ox.found;
  oxlintOther = ox.other;
  const stats = /sanoma-lint-stats (\{.*\})/.exec(ox.result.stderr);
  oxlintStats = stats ? JSON.parse(stats[1]) : undefined;
  seen.oxlintTokenizer = runOxlint(dir, { settings: { sanoma: { header: false } } }).found;
  seen.oxlintTree = runOxlint(dir, { settings: { sanoma: { scan: false } } }).found;
  seen.oxlintNoPrefilter = runOxlint(dir, { settings: { sanoma: { prefilter: false } } }).found;
  seen.eslint = (await runEslint(dir)).found;
});

after(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

const show = (found: Found[]) => found.map(key).join("\n");

test("oxlint parses every fixture (no diagnostics besides the plugin's)", () => {
  assert.deepEqual(oxlintOther, []);
});

for (const c of CASES) {
  describe(c.name, () => {
    test("sanoma-check reports exactly the fixture's markers", () => {
      assert.equal(diffExpected(c.fixture.expected, under(seen.check, c.name), { rules: IMPORT_RULE_IDS }), "");
    });
    for (const host of ["oxlint", "oxlintTokenizer", "oxlintTree", "oxlintNoPrefilter", "eslint"] as const) {
      test(`${host} reports exactly what sanoma-check reports`, () => {
        assert.equal(show(under(seen[host], c.name)), show(under(seen.check, c.name)));
      });
    }
  });
}

test("every import rule fires somewhere in the fixtures, in both hosts", () => {
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
  assert.ok(notTypeScript >= 3, "the JavaScript fixtures");
  assert.ok(fromText > 30, `${fromText} files read from the text`);
  assert.ok(header > 20 && header < fromText, `${header} of them from their header alone, the others by the tokenizer`);
  assert.ok(unsure >= 1, "the fixture the scanner cannot vouch for went to the tree");
  assert.ok(skipped > 10, `${skipped} files skipped by the prefilter`);
});

test("the CRLF fixture was written with CRLF", () => {
  assert.ok(readFileSync(join(dir, "crlf", "apps/maps/workflows/win.ts"), "utf8").includes("\r\n"));
});
