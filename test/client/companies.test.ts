/**
 * The companies' words (`client/src/companiesView.ts`), without VS Code: a company's line in the
 * quick pick behind the status bar and its overview, for a company judged and one left out whole
 * (`sanoma/companies`' `leftOut`: test/server/sanomarc.test.ts holds the server to it). The
 * end-to-end test (test/e2e) reads a judged company's overview from a real VS Code.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { companySummary, overviewMarkdown } from "../../client/src/companiesView.ts";
import type { CompanyInfo } from "../../server/src/protocol.ts";

const shop: CompanyInfo = {
  root: "/w/shop", name: "shop", apps: ["billing"], declarationFiles: ["workflows/a.ts"],
  counts: { files: 12, dataFiles: 1, workflowSources: 3, declarations: 4, collections: 2, problems: 1 },
};
const none = { files: 0, dataFiles: 0, workflowSources: 0, declarations: 0, collections: 0, problems: 0 };
const starter: CompanyInfo = { root: "/w/shop/templates/starter", name: "starter", apps: [], declarationFiles: [], counts: none, leftOut: `../../.sanomarc.json's exclude "templates"` };

test("companies: a judged company's line gives its apps and counts", () => {
  assert.equal(companySummary(shop), "1 app (billing) · 12 files · 4 declarations · 2 collections · 1 problem");
  assert.doesNotMatch(overviewMarkdown(shop), /Left out/);
});

test("companies: a company left out whole says by what, not 0 files as an empty company would", () => {
  assert.equal(companySummary(starter), `left out whole by ../../.sanomarc.json's exclude "templates": none of its files is judged`);
  const overview = overviewMarkdown(starter);
  assert.match(overview, /\*\*Left out whole\*\* by \.\.\/\.\.\/\.sanomarc\.json's exclude "templates": Sanoma reads and judges none of its files/);
  assert.ok(overview.indexOf("Left out whole") < overview.indexOf("| Files | 0 |"), "said before its counts");
});
