/**
 * The certain fixes (SPEC B3): `secret`/`sanoma` in a data file and `collection` in a collections
 * file move to their one right module, in the quotes the file used, when every name of the import
 * moves with it; an import that also takes other names is left alone. `oxlint --fix` and ESLint's
 * fix give the same files, which are the files the core's own quick fix gives (double-quoted
 * there), and after the fix only the uncertain findings remain.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LineMap } from "../../server/src/core/text.ts";
import { checkDir } from "../support/check.ts";
import { writeFixture } from "../support/fixture.ts";
import { checkFound, loadPlugin, runEslint, runOxlint } from "./hosts.ts";

const BEFORE = `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { secret } from "@sanoma-ai/workflows";
import { sanoma, secret as s } from '@sanoma-ai/workflows/runtime';
import { secret as s2, defineThing } from "@sanoma-ai/workflows";
export { sanoma as sn } from "@sanoma-ai/workflows";
export const key = [secret("KEY"), s("B"), s2("C"), sanoma, defineThing];
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows";
export const orders = collection({ key: "id", fields: { id: "string" } });
//- /apps/billing/resources/data.ts
import { collection as c } from '@sanoma-ai/workflows/resources';
export const invoices = c({ key: "id", fields: { id: "string" } });
//- /workflows/rank.ts
import { collection } from "@sanoma-ai/workflows";
`;

/** The files the fix must leave (by path); files not named stay as they were. */
const AFTER: Record<string, string> = {
  "resources/infra.ts": `import { secret } from "@sanoma-ai/workflows/resources";
import { sanoma, secret as s } from '@sanoma-ai/workflows/resources';
import { secret as s2, defineThing } from "@sanoma-ai/workflows";
export { sanoma as sn } from "@sanoma-ai/workflows/resources";
export const key = [secret("KEY"), s("B"), s2("C"), sanoma, defineThing];
`,
  "resources/data.ts": `import { collection } from "@sanoma-ai/workflows/data";
export const orders = collection({ key: "id", fields: { id: "string" } });
`,
  "apps/billing/resources/data.ts": `import { collection as c } from '@sanoma-ai/workflows/data';
export const invoices = c({ key: "id", fields: { id: "string" } });
`,
  "workflows/rank.ts": `import { collection } from "@sanoma-ai/workflows";
`,
};

/** What is left after the fix: the findings no fix is certain of. */
const LEFT = [
  "resources/infra.ts:3 data-file-imports",
  "workflows/rank.ts:1 collection-import",
];

const dirs: string[] = [];
const fresh = () => { const d = writeFixture(BEFORE, "sanoma-lint-fix-"); dirs.push(d); return d; };
const read = (dir: string, rel: string) => readFileSync(join(dir, rel), "utf8");
const left = (dir: string) => checkFound(dir).map((f) => `${f.file}:${f.line + 1} ${f.rule}`).sort();

let oxlintDir = "", eslintDir = "", coreDir = "";
before(async () => {
  oxlintDir = fresh();
  eslintDir = fresh();
  coreDir = fresh();
  runOxlint(oxlintDir, { fix: true });
  await runEslint(eslintDir, { fix: true });
  // The core's quick fixes, as the language server offers them, applied by hand.
  const edits = checkDir(coreDir).flatMap((p) => p.fixes?.[0]?.edits ?? []);
  for (const file of new Set(edits.map((e) => e.file))) {
    let text = readFileSync(file, "utf8");
    const lines = new LineMap(text);
    const mine = edits.filter((e) => e.file === file).map((e) => ({ from: lines.offset(e.range.start), to: lines.offset(e.range.end), text: e.newText }));
    const unique = [...new Map(mine.map((e) => [`${e.from}:${e.to}`, e])).values()].sort((a, b) => b.from - a.from);
    for (const e of unique) text = text.slice(0, e.from) + e.text + text.slice(e.to);
    writeFileSync(file, text);
  }
});
after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

for (const [rel, want] of Object.entries(AFTER)) {
  test(`oxlint --fix: ${rel}`, () => assert.equal(read(oxlintDir, rel), want));
  test(`ESLint fix: ${rel}`, () => assert.equal(read(eslintDir, rel), want));
  // (The same bytes: each surface keeps the quotes the file uses.)
  test(`the core's quick fix gives the same ${rel}`, () => assert.equal(read(coreDir, rel), want));
}

test("after oxlint --fix, only the findings without a certain fix are left", () => assert.deepEqual(left(oxlintDir), LEFT));
test("after ESLint's fix, only the findings without a certain fix are left", () => assert.deepEqual(left(eslintDir), LEFT));

test("only the two rules with certain fixes declare themselves fixable", () => {
  const plugin = loadPlugin();
  const fixable = Object.entries(plugin.rules).filter(([, r]) => r.meta.fixable === "code").map(([id]) => id).sort();
  assert.deepEqual(fixable, ["collection-import", "data-file-imports"]);
});
