/**
 * `settings.sanoma` in oxlint, per config file: oxlint finds a nested `.oxlintrc.json` for the
 * files under its folder, and the plugin reads the settings once per folder (oxlint parses a file's
 * settings JSON anew each time a rule asks for them). Here the root config reads sites from the
 * text and a nested one says `scan: false`: each folder's files go the way their own config says,
 * and both ways find the same problems as `sanoma-check`.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeFixture, writeFixture } from "../support/fixture.ts";
import { BUNDLE, OXLINT, checkFound, sanomaRules } from "./hosts.ts";

const COMPANY = `
//- /sanoma.config.ts
export default {};
//- /apps/maps/lib/one.ts
import { x } from "../../search/lib/x";
//- /apps/maps/lib/two.ts
const y = require("../../search/lib/y");
//- /apps/search/lib/three.ts
import { z } from "../../maps/lib/z";
//- /apps/search/lib/four.ts
export * from "../../maps/lib/w";
`;

const dirs: string[] = [];
after(() => { for (const d of dirs) removeFixture(d); });

test("each folder's files are read as their own config's settings say", () => {
  const dir = writeFixture(COMPANY, "sanoma-lint-settings-");
  dirs.push(dir);
  const config = (settings?: object) => JSON.stringify({ jsPlugins: [BUNDLE], categories: { correctness: "off" }, rules: sanomaRules(), ...(settings ? { settings } : {}) });
  writeFileSync(join(dir, ".oxlintrc.json"), config());
  writeFileSync(join(dir, "apps/search/.oxlintrc.json"), config({ sanoma: { scan: false } }));
  const r = spawnSync(OXLINT, ["-f", "json", "."], { cwd: dir, encoding: "utf8", env: { ...process.env, SANOMA_LINT_STATS: "1" } });
  const stats = JSON.parse(/sanoma-lint-stats (\{.*\})/.exec(r.stderr)![1]);
  assert.equal(stats.fromText, 2, "apps/maps: read from the text");
  assert.equal(stats.tree, 2, "apps/search: read from the tree");
  const found = (JSON.parse(r.stdout).diagnostics as { code: string; filename: string }[]).map((d) => `${d.filename} ${d.code}`).sort();
  const truth = checkFound(dir).map((f) => `${f.file} sanoma(${f.rule})`).sort();
  assert.equal(truth.length, 4);
  assert.deepEqual(found, truth);
});
