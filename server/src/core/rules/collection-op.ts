/** `collection-op` (SPEC A8): an operation id names a collection and an operation that exist. */
import type { Rule, RuleCase } from "./rule.ts";
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

/** Beyond the doc's examples: companies where the rule fires or stays silent, every problem drawn under the text (test/rules/rule-cases.test.ts). */
export const cases = (): RuleCase[] => [
  {
    name: "operation ids are whole-string literals; specifiers, substitutions and longer paths are not",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const people = collection({ name: "users", key: "id", fields: { id: "string" } });
//- /workflows/w.ts
import x from "data.users.nope";
const ok = ["data.users.saveMany", \`data.users.count\`, 'data.users.delete'];
const bad = [\`data.people.get\`, "data.users.upsert"];
//           ^^^^^^^^^^^^^^^^^ collection-op
//                              ^^^^^^^^^^^^^^^^^^^ collection-op
const notRefs = ["data.users.get.more", "data.users", \`data.\${x}.get\`, "xdata.users.nope", "data.users.nope "];
export const w = () => [ok, bad, notRefs];
`,
  },
  {
    name: "a collection's name or key written twice is the last one written, as JavaScript keeps it (the first is dead)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const twice = collection({ name: "a1", key: "id", name: "a2", fields: { id: "string" } });
//- /workflows/w.ts
export const w = (ctx: any) => [ctx.call("data.a2.get", {}), ctx.call("data.a1.get", {})];
//                                                                    ^^^^^^^^^^^^^ collection-op
`,
  },
  {
    name: "an operation id is read by its value: written with escapes, anywhere in it, it is one (A8: its whole text)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const subjects = collection({ key: "id", fields: { id: "string" } });
//- /workflows/escapes.ts
export const refs = [
  "data.subjects.n\\x6fpe",
//^^^^^^^^^^^^^^^^^^^^^^^ collection-op
  "\\x64ata.subjects.nope",
//^^^^^^^^^^^^^^^^^^^^^^^ collection-op
  "data\\u002esubjects\\u002enope",
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ collection-op
  \`\\u0064ata.subjects.nope\`,
//^^^^^^^^^^^^^^^^^^^^^^^^^ collection-op
  "\\x64ata.subjects.get",
  "dat\\na.subjects.get",
];
`,
  },
  {
    name: "module names are no operation references, in declare module blocks too (A8)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const subjects = collection({ key: "id", fields: { id: "string" } });
//- /workflows/ambient.d.ts
declare module "data.subjects.nope1" {
  export * from "data.subjects.nope2";
  export { Missing } from "data.subjects.nope3";
  import type { Other } from "data.subjects.nope4";
  import "data.subjects.nope5";
  import x = require("data.subjects.nope6");
  export type T = import("data.subjects.nope7").T;
}
//- /workflows/use.ts
export const w = (ctx: any) => ctx.call("data.subjects.nope", {});
//                                      ^^^^^^^^^^^^^^^^^^^^ collection-op
`,
  },
  {
    name: "an operation id's names may be any script's letters (A8)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const commandés = collection({ key: "id", fields: { id: "string" } });
//- /workflows/w.ts
export const ops = ["data.commandés.get", "data.commandés.upsert", "data.注文.get"];
//                                        ^^^^^^^^^^^^^^^^^^^^^^^ collection-op
//                                                                 ^^^^^^^^^^^^^ collection-op
`,
  },
  {
    name: "a collections file that fails to load declares no collection (A11: a collection in it is no collection): a reference to one is to no collection; the file's syntax error says why",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const orders = collection({ key: "id", fields: { id: "string" } });
export const broken = collection({ key: "id", fields: { id: "string" } ;
//                                                                     ^ syntax-error
export const items = collection({ key: "id", fields: { id: "string" } });
export const twice = collection({ name: "mine", key: "nope", fields: { id: "string" } });
//- /workflows/w.ts
export const ops = ["data.orders.get", "data.items.get", "data.orders.upsert"];
//                  ^^^^^^^^^^^^^^^^^ collection-op No collection \`orders\`
//                                     ^^^^^^^^^^^^^^^^ collection-op No collection \`items\`
//                                                       ^^^^^^^^^^^^^^^^^^^^ collection-op No collection \`orders\`
//- /apps/a/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const mine = collection({ key: "id", fields: { id: "string" } });
//- /apps/b/workflows/w.ts
export const ops = ["data.nope.get", "data.mine.get"];
//                  ^^^^^^^^^^^^^^^ collection-op
//                                   ^^^^^^^^^^^^^^^ collection-scope
//- /apps/a/workflows/w.ts
export const ops = ["data.mine.get", "data.nope.get", "data.mine.upsert"];
//                                   ^^^^^^^^^^^^^^^ collection-op
//                                                    ^^^^^^^^^^^^^^^^^^ collection-op
`,
  },
  {
    name: "an operation id naming a collection by the export that declares it (another name) suggests the collection's name",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const people = collection({ name: "contacts", key: "id", fields: { id: "string" } });
export const peeps = collection({ key: "id", fields: { id: "string" } });
export const friends = collection({ name: "peeps2", key: "id", fields: { id: "string" } });
//- /apps/crm/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const leads = collection({ name: "prospects", key: "id", fields: { id: "string" } });
//- /workflows/w.ts
export async function w(ctx: any) {
  await ctx.call("data.people.get", {});
//               ^^^^^^^^^^^^^^^^^ collection-op \`people\` is the export that declares the collection \`contacts\`: did you mean \`contacts\`?
  await ctx.call("data.contacts.list", {});
  await ctx.call("data.peeps.get", {});
  await ctx.call("data.leads.get", {});
//               ^^^^^^^^^^^^^^^^ collection-op
}
`,
  },
  {
    name: "every operation of a collection, by its name, and by its export where it has no name: nothing to say",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const people = collection({ name: "users", key: "id", fields: { id: "string" } });
export const orders = collection({ key: "id", fields: { id: "string" } });
//- /workflows/w.ts
export const ops = ["data.users.get", "data.users.list", "data.users.save", "data.users.saveMany", "data.users.delete", "data.users.count", "data.orders.get"];
`,
  },
  {
    name: "strings that only look like operation ids are none: other prefixes, fewer or more parts",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const orders = collection({ key: "id", fields: { id: "string" } });
//- /workflows/w.ts
export const notOps = ["date.orders.get", "data.orders", "data", "data.orders.get.now", "Data.orders.get", "the data.nope.get"];
`,
  },
];
