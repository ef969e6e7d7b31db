/** `collection-name` (SPEC A8): no two collections of a company share a name. */
import type { Collection } from "../analysis.ts";
import type { Rule } from "./rule.ts";

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
