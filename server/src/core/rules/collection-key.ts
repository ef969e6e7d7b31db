/** `collection-key` (SPEC A8): a collection's `key` is one of its `fields`. */
import { didYouMean } from "../text.ts";
import type { Rule, RuleCase } from "./rule.ts";

export const rule: Rule = {
  id: "collection-key",
  severity: "error",
  doc: {
    summary: "A collection's `key` is not one of its `fields`.",
    why: "The key identifies a record: `get` and `delete` look records up by it and `save` writes it. A key that is not a field has no value in any record.",
    wrong: `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const sessions = collection({ key: "token", fields: { id: "string" } });
//                                        ^^^^^^^ collection-key
`,
    right: `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const sessions = collection({ key: "token", fields: { token: "string" } });
`,
  },
  companyInputs: (a) => [a.collectionsVersion],
  checkCompany(a, report) {
    for (const c of a.collections) {
      const { key, fields } = c.fact;
      if (!key || !fields) continue;
      const names = fields.map((f) => f.name);
      if (names.includes(key.value)) continue;
      const s = didYouMean(key.value, names);
      report({
        file: c.file.path, range: key.range,
        message: `Key \`${key.value}\` is not a field of collection \`${c.name}\`${s ? `; did you mean \`${s}\`?` : ""} (its fields: ${names.map((n) => `\`${n}\``).join(", ") || "none"})`,
        fixes: s ? [{ title: `Change to "${s}"`, preferred: true, edits: [{ file: c.file.path, range: key.range, newText: JSON.stringify(s) }] }] : undefined,
      });
    }
  },
};

/** Beyond the doc's examples: companies where the rule fires or stays silent, every problem drawn under the text (test/rules/rule-cases.test.ts). */
export const cases = (): RuleCase[] => [
  {
    name: "a collection declared by a const and exported by name is the export's (A8)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
const orders = collection({ key: "id", fields: { id: "string" } });
const items = collection({ key: "sku", fields: { id: "string" } });
//                              ^^^^^ collection-key
const hidden = collection({ key: "id", fields: { id: "string" } });
export { orders, items as lineItems };
//- /workflows/w.ts
export const ops = ["data.orders.get", "data.lineItems.list", "data.items.get", "data.hidden.get"];
//                                                            ^^^^^^^^^^^^^^^^ collection-op
//                                                                              ^^^^^^^^^^^^^^^^^ collection-op
`,
  },
  {
    name: "a key written in another case than its field",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const orders = collection({ key: "ID", fields: { id: "string", total: "number" } });
//                                      ^^^^ collection-key
`,
  },
  {
    name: "the key is one of several fields: nothing to say",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const items = collection({ key: "sku", fields: { sku: "string", name: "string", price: "number" } });
`,
  },
  {
    name: "fields written with a spread may hold the key: nothing is said",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
const base = { uid: "string" };
export const users = collection({ key: "uid", fields: { name: "string", ...base } });
`,
  },
];
