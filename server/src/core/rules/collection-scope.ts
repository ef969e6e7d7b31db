/** `collection-scope` (SPEC A8): an operation id names a collection of a scope the file cannot see. */
import type { Rule, RuleCase } from "./rule.ts";
import { refProblems } from "./collection-refs.ts";

export const rule: Rule = {
  id: "collection-scope",
  severity: "error",
  doc: {
    summary: "An operation id names a collection of another scope.",
    why: "A file of the root scope sees the root scope's collections; a file of an app sees the root scope's and its own app's. Another app's collection is not deployed with this app, so the call fails at run time.",
    wrong: `
//- /sanoma.config.ts
export default {};
//- /apps/search/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const queries = collection({ key: "id", fields: { id: "string" } });
//- /apps/maps/workflows/render.ts
export async function render(ctx: any) {
  await ctx.call("data.queries.list", {});
//               ^^^^^^^^^^^^^^^^^^^ collection-scope
}
`,
    right: `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const queries = collection({ key: "id", fields: { id: "string" } });
//- /apps/maps/workflows/render.ts
export async function render(ctx: any) {
  await ctx.call("data.queries.list", {});
}
`,
  },
  fileInputs: (a) => [a.collectionNamesVersion],
  checkFileIn(file, a, report) {
    for (const p of refProblems(file, a)) if (p.rule === "collection-scope") report(p);
  },
};

/** Beyond the doc's examples: companies where the rule fires or stays silent, every problem drawn under the text (test/rules/rule-cases.test.ts). */
export const cases = (): RuleCase[] => [
  {
    name: "the root scope calls an app's collection",
    company: `
//- /sanoma.config.ts
export default {};
//- /apps/billing/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const invoices = collection({ key: "id", fields: { id: "string" } });
//- /workflows/w.ts
export const w = (ctx: any) => ctx.call("data.invoices.get", {});
//                                      ^^^^^^^^^^^^^^^^^^^ collection-scope
`,
  },
  {
    name: "an app calls another app's collection, named by its name",
    company: `
//- /sanoma.config.ts
export default {};
//- /apps/billing/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const bills = collection({ name: "invoices", key: "id", fields: { id: "string" } });
//- /apps/shop/workflows/w.ts
export const w = (ctx: any) => ctx.call("data.invoices.list", {});
//                                      ^^^^^^^^^^^^^^^^^^^^ collection-scope
`,
  },
  {
    name: "an app calls its own collections and the root scope's: nothing to say",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const orders = collection({ key: "id", fields: { id: "string" } });
//- /apps/billing/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const invoices = collection({ key: "id", fields: { id: "string" } });
//- /apps/billing/workflows/w.ts
export const w = (ctx: any) => [ctx.call("data.invoices.get", {}), ctx.call("data.orders.list", {})];
`,
  },
  {
    name: "a library of an app may name its app's collections too: nothing to say",
    company: `
//- /sanoma.config.ts
export default {};
//- /apps/billing/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const invoices = collection({ key: "id", fields: { id: "string" } });
//- /apps/billing/lib/ops.ts
export const OPS = ["data.invoices.count", "data.invoices.delete"];
`,
  },
];
