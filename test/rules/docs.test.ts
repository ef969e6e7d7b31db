/** The rule registry, the docs pages and the diagnostics' links stay in step. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { RULES, RULE_IDS, ruleDocsUrl } from "../../server/src/core/rules/index.ts";
import { pages } from "../../scripts/rule-docs.ts";

const DOCS = join(import.meta.dirname, "..", "..", "docs", "rules");
const SPEC_RULES = ["resource-type", "resource-fields", "resource-type-spec", "one-wakeup", "one-sandbox", "lockfile", "secret-bindings", "collection-op", "collection-file", "collection-import", "collection-name", "collection-key", "collection-scope", "no-cross-app-import", "no-app-import-from-root", "no-import-outside-company", "data-file-imports", "syntax-error"];

test("docs: the registry holds exactly the rule ids of the spec, one file each", () => {
  assert.deepEqual([...RULE_IDS].sort(), [...SPEC_RULES].sort());
  const files = readdirSync(join(import.meta.dirname, "..", "..", "server/src/core/rules")).filter((f) => SPEC_RULES.includes(f.replace(/\.ts$/, "")));
  assert.equal(files.length, SPEC_RULES.length);
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
