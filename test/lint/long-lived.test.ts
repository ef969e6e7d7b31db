/**
 * Long-lived hosts: one ESLint instance, and one `oxlint --lsp` process, lint a company; then a
 * `sanoma.config.ts` appears deeper in the tree (a company nested in an app), then goes away. With
 * no restart, each lint's findings follow the company roots as they are on disk at that moment,
 * which is what `sanoma-check` reports at the same moment.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeFixture, writeFixture } from "../support/fixture.ts";
import { LspClient, type Diag } from "../support/lsp.ts";
import { OXLINT, checkFound, eslintFor, runEslint, sanomaRules, BUNDLE } from "./hosts.ts";

const COMPANY = `
//- /sanoma.config.ts
export default {};
//- /apps/maps/workflows/render.ts
import { rank } from "../../search/lib/rank";
import { own } from "../lib/own";
export const render = () => [rank, own];
//- /apps/maps/lib/own.ts
export const own = 1;
//- /apps/search/lib/rank.ts
export const rank = 1;
`;
const FILE = "apps/maps/workflows/render.ts";
const NESTED = "apps/maps/sanoma.config.ts";

const dirs: string[] = [];
after(() => { for (const d of dirs) removeFixture(d); });

/** What sanoma-check says now, as `rule@line:col` for the one file. */
const truth = (dir: string) => checkFound(dir).filter((f) => f.file === FILE).map((f) => `${f.rule}@${f.line}:${f.startCol}`).sort();

test("one ESLint instance sees a sanoma.config.ts added deeper, then removed", async () => {
  const dir = writeFixture(COMPANY, "sanoma-lint-live-");
  dirs.push(dir);
  const eslint = eslintFor(dir);
  const lint = async () => (await runEslint(dir, { eslint, paths: [FILE] })).found.map((f) => `${f.rule}@${f.line}:${f.startCol}`).sort();

  const first = await lint();
  assert.deepEqual(first, ["no-cross-app-import@0:21"]);
  assert.deepEqual(first, truth(dir));

  writeFileSync(join(dir, NESTED), "export default {};\n");
  const nested = await lint();
  // apps/maps is a company of its own now: the import leaves it.
  assert.deepEqual(nested, ["no-import-outside-company@0:21"]);
  assert.deepEqual(nested, truth(dir));

  unlinkSync(join(dir, NESTED));
  assert.deepEqual(await lint(), first);
});

/** oxlint's diagnostics as `rule@line:character`, its `sanoma(<rule>)` codes unwrapped. */
function findings(diagnostics: Diag[]): string[] {
  return diagnostics.map((d) => `${/^sanoma\((.+)\)$/.exec(d.code ?? "")?.[1] ?? d.code}@${d.range.start.line}:${d.range.start.character}`).sort();
}

test("one oxlint --lsp process sees a sanoma.config.ts added deeper, then removed", async () => {
  const dir = writeFixture(COMPANY, "sanoma-lint-lsp-");
  dirs.push(dir);
  writeFileSync(join(dir, ".oxlintrc.json"), JSON.stringify({ jsPlugins: [BUNDLE], categories: { correctness: "off" }, rules: sanomaRules() }));
  const lsp = new LspClient({ command: [OXLINT, "--lsp"], cwd: dir, settings: {} });
  try {
    await lsp.initialize([dir]);
    const file = join(dir, FILE);
    const text = readFileSync(file, "utf8");
    let from = lsp.publishes.length;
    lsp.open(file, text);
    const first = findings(await lsp.nextDiagnostics(file, from));
    assert.deepEqual(first, ["no-cross-app-import@0:21"]);
    assert.deepEqual(first, truth(dir));

    const relint = async () => {
      from = lsp.publishes.length;
      lsp.change(file, text);
      return findings(await lsp.nextDiagnostics(file, from));
    };
    writeFileSync(join(dir, NESTED), "export default {};\n");
    const nested = await relint();
    assert.deepEqual(nested, ["no-import-outside-company@0:21"]);
    assert.deepEqual(nested, truth(dir));

    rmSync(join(dir, NESTED));
    assert.deepEqual(await relint(), first);
  } finally {
    await lsp.shutdown();
  }
});
