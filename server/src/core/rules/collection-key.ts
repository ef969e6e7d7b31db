/** `collection-key` (SPEC A8): a collection's `key` is one of its `fields`. */
import { didYouMean } from "../text.ts";
import type { Rule } from "./rule.ts";

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
