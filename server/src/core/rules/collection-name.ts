/** `collection-name` (SPEC A8): no two collections of a company share a name. */
import type { Collection } from "../analysis.ts";
import type { Rule, RuleCase } from "./rule.ts";

export const rule: Rule = {
  id: "collection-name",
  severity: "error",
  doc: {
    summary: "Two collections of a company have the same name.",
    why: "A collection's name (its `name` property, else its export's name) is its table and the middle of its operation ids: two of one name, even in different scopes, would share `data.<name>.*` and the storage behind it.",
    wrong: `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const users = collection({ key: "id", fields: { id: "string" } });
//           ^^^^^ collection-name
//- /apps/search/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const people = collection({ name: "users", key: "id", fields: { id: "string" } });
//                                       ^^^^^^^ collection-name
`,
    right: `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const users = collection({ key: "id", fields: { id: "string" } });
//- /apps/search/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const people = collection({ name: "searchUsers", key: "id", fields: { id: "string" } });
`,
  },
  companyInputs: (a) => [a.collectionsVersion],
  checkCompany(a, report) {
    const byName = new Map<string, Collection[]>();
    for (const c of a.collections) byName.set(c.name, [...(byName.get(c.name) ?? []), c]);
    for (const [name, list] of byName) {
      if (list.length < 2) continue;
      for (const c of list) {
        const others = list.filter((o) => o !== c);
        report({
          file: c.file.path, range: c.nameRange,
          message: `Another collection is named \`${name}\` (${others.map((o) => `${o.file.rel}#${o.fact.exportName}`).join(", ")}); collection names are unique across the company`,
          related: others.map((o) => ({ file: o.file.path, range: o.nameRange, message: `\`${name}\` is also declared here` })),
        });
      }
    }
  },
};

/** Beyond the doc's examples: companies where the rule fires or stays silent, every problem drawn under the text (test/rules/rule-cases.test.ts). */
export const cases = (): RuleCase[] => [
  {
    name: "collections: a key that is no field, one name twice, collection() outside a collections file, resources/sub/data.ts is no collections file",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection as define } from "@sanoma-ai/workflows/data";
export const orders = define({ key: "uid", fields: { id: "string", ...extra } });
//           ^^^^^^ collection-name
export const items = define({ key: "sku", fields: { id: "string" } });
//           ^^^^^ collection-name
//                                 ^^^^^ collection-key
//- /resources/sub/data.ts
import { collection } from "@sanoma-ai/workflows/data";
//                         ^^^^^^^^^^^^^^^^^^^^^^^^^^^ collection-import
export const nested = collection({ key: "id", fields: { id: "string" } });
//                    ^^^^^^^^^^ collection-file
//- /apps/a/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const orders = collection({ key: "id", fields: { id: "string" } });
//           ^^^^^^ collection-name
export const more = collection({ name: "items", key: "id", fields: { id: "string" } });
//                                     ^^^^^^^ collection-name
//- /apps/a/workflows/w.ts
export const w = (ctx: any) => ctx.call("data.nested.get", {});
//                                      ^^^^^^^^^^^^^^^^^ collection-op
`,
  },
  {
    name: "a collections file that does not parse declares no collection: no duplicate name, no key judged, no collection() outside a collections file said of a broken workflow source, and a reference to its name finds only the app's (A11)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const orders = collection({ key: "nope", fields: { id: "string" } });
export const again = collection({ name: "users", key: "id", fields: { id: "string" } ]);
//                                                                                   ^ syntax-error
//- /apps/a/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const users = collection({ key: "id", fields: { id: "string" } });
//- /workflows/w.ts
import { collection } from "@sanoma-ai/workflows/data";
//                         ^^^^^^^^^^^^^^^^^^^^^^^^^^^ collection-import
export const c = collection({ key: "id", fields: { id: "string" } }
  export const d = 1;
//^^^^^^ syntax-error
//- /workflows/x.ts
export const x = "data.users.get";
//               ^^^^^^^^^^^^^^^^ collection-scope
`,
  },
  {
    name: "a collection's name given in an app that an export of the root already takes: both are said",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const orders = collection({ key: "id", fields: { id: "string" } });
//           ^^^^^^ collection-name
//- /apps/shop/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const purchases = collection({ name: "orders", key: "id", fields: { id: "string" } });
//                                          ^^^^^^^^ collection-name
`,
  },
  {
    name: "one export name in two scopes, the collections given other names: nothing to say",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const orders = collection({ name: "rootOrders", key: "id", fields: { id: "string" } });
//- /apps/shop/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const orders = collection({ key: "id", fields: { id: "string" } });
`,
  },
];
