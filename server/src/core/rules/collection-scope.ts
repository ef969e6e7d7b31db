/** `collection-scope` (SPEC A8): an operation id names a collection of a scope the file cannot see. */
import type { Rule } from "./rule.ts";
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
