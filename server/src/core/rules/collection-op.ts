/** `collection-op` (SPEC A8): an operation id names a collection and an operation that exist. */
import type { Rule } from "./rule.ts";
import { refProblems } from "./collection-refs.ts";

export const rule: Rule = {
  id: "collection-op",
  severity: "error",
  doc: {
    summary: "An operation id (`data.<collection>.<op>`) names a collection that does not exist, or an operation that collections do not have.",
    why: "Operation ids are plain strings, so nothing else catches a typo before the workflow runs and its call fails. Collections have the operations `get`, `list`, `count`, `save`, `saveMany` (a batch) and `delete`. A collection is named by its `name` when it has one, not by the export that declares it: `data.people.get` reaches no collection when `people` declares the collection `contacts`.",
    wrong: `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const users = collection({ key: "id", fields: { id: "string" } });
export const people = collection({ name: "contacts", key: "id", fields: { id: "string" } });
//- /workflows/nightly.ts
export async function nightly(ctx: any) {
  await ctx.call("data.users.upsert", {});
//               ^^^^^^^^^^^^^^^^^^^ collection-op
  await ctx.call("data.user.get", {});
//               ^^^^^^^^^^^^^^^ collection-op
  await ctx.call("data.people.get", {});
//               ^^^^^^^^^^^^^^^^^ collection-op did you mean \`contacts\`?
}
`,
    right: `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const users = collection({ key: "id", fields: { id: "string" } });
export const people = collection({ name: "contacts", key: "id", fields: { id: "string" } });
//- /workflows/nightly.ts
export async function nightly(ctx: any) {
  await ctx.call("data.users.save", {});
  await ctx.call("data.users.get", {});
  await ctx.call("data.contacts.get", {});
}
`,
  },
  fileInputs: (a) => [a.collectionNamesVersion],
  checkFileIn(file, a, report) {
    for (const p of refProblems(file, a)) if (p.rule === "collection-op") report(p);
  },
};
