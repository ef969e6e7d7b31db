/** The rule registry, the docs pages and the diagnostics' links stay in step. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { IMPORT_RULES, IMPORT_RULE_IDS, RULES, RULE_IDS, ruleDocsUrl } from "../../server/src/core/rules/index.ts";
import { pages } from "../../scripts/rule-docs.ts";
import { PACKAGE_JSON, packageJsonWithRulesSetting } from "../../scripts/rules-setting.ts";

const DOCS = join(import.meta.dirname, "..", "..", "docs", "rules");

test("docs: the registry holds exactly the rule ids of ids.ts, in their order, one file each named by its id", () => {
  assert.deepEqual(RULES.map((r) => r.id), [...RULE_IDS]);
  assert.deepEqual(IMPORT_RULES.map((r) => r.id), [...IMPORT_RULE_IDS]);
  const files = readdirSync(join(import.meta.dirname, "..", "..", "server/src/core/rules")).filter((f) => (RULE_IDS as readonly string[]).includes(f.replace(/\.ts$/, "")));
  assert.equal(files.length, RULE_IDS.length);
});

test("docs: every page in docs/rules is what the rules generate (run `node --import tsx scripts/rule-docs.ts`)", () => {
  const want = pages();
  const have = readdirSync(DOCS).filter((f) => f.endsWith(".md")).sort();
  assert.deepEqual(have, Object.keys(want).sort());
  for (const [name, text] of Object.entries(want)) assert.equal(readFileSync(join(DOCS, name), "utf8"), text, `${name} is stale`);
});

test("docs: each diagnostic's link names its rule's page", () => {
  for (const r of RULES) {
    assert.ok(ruleDocsUrl(r.id).endsWith(`/docs/rules/${r.id}.md`));
    assert.ok(existsSync(join(DOCS, `${r.id}.md`)));
  }
});

test("docs: package.json's sanoma.rules setting is what the registry's ids make (run `node --import tsx scripts/rules-setting.ts`)", () => {
  const text = readFileSync(PACKAGE_JSON, "utf8");
  assert.equal(text, packageJsonWithRulesSetting(text), "package.json is stale");
  const properties = JSON.parse(text).contributes.configuration.properties["sanoma.rules"].properties;
  assert.deepEqual(Object.keys(properties), [...RULE_IDS]);
});
