/** `resource-fields` (SPEC A4, A5): a desired object's keys are the type's fields, and its required fields are there. */
import { didYouMean } from "../text.ts";
import { declarationsOf } from "../analysis.ts";
import type { Rule } from "./rule.ts";

export const rule: Rule = {
  id: "resource-fields",
  severity: "error",
  doc: {
    summary: "A declaration's desired object has a key that is not a field of its type, or lacks a required field.",
    why: "Apply validates the desired object against the type's schema and refuses unknown keys, strict schema or not; a missing required field fails the same way. The type's fields are the keys of its `z.object({...})` schema; `.optional()`, `.nullish()` and `.default(...)` make one optional.",
    wrong: `
//- /sanoma.config.ts
export default {};
//- /resources/compute.ts
import { vm } from "@hooli/cloud";
export const batch = vm({ nmae: "batch" });
//           ^^^^^ resource-fields
//                        ^^^^ resource-fields
//- /node_modules/@hooli/cloud/package.json
{ "name": "@hooli/cloud", "exports": { ".": "./index.js" } }
//- /node_modules/@hooli/cloud/index.js
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const vm = defineResource({ vendor: "cloud", type: "vm", title: "VM", schema: z.strictObject({ name: z.string(), zone: z.string().default("us-1") }), fields: {}, writable: true });
`,
    right: `
//- /sanoma.config.ts
export default {};
//- /resources/compute.ts
import { vm } from "@hooli/cloud";
export const batch = vm({ name: "batch" });
//- /node_modules/@hooli/cloud/package.json
{ "name": "@hooli/cloud", "exports": { ".": "./index.js" } }
//- /node_modules/@hooli/cloud/index.js
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const vm = defineResource({ vendor: "cloud", type: "vm", title: "VM", schema: z.strictObject({ name: z.string(), zone: z.string().default("us-1") }), fields: {}, writable: true });
`,
  },
  checkFileIn(file, a, report) {
    for (const d of declarationsOf(a, file)) {
      const fields = d.type?.spec.fields;
      const desired = d.fact.desired;
      if (!d.type || !fields || !desired) continue;
      const names = Object.keys(fields);
      for (const k of desired.keys) {
        if (Object.hasOwn(fields, k.name)) continue;
        const s = didYouMean(k.name, names.filter((n) => !desired.keys.some((x) => x.name === n)));
        report({
          file: d.file.path, range: k.range,
          message: `\`${k.name}\` is not a field of ${d.type.id}${s ? `; did you mean \`${s}\`?` : ""} (its fields: ${names.map((n) => `\`${n}\``).join(", ") || "none"})`,
          fixes: s ? [{ title: `Change to \`${s}\``, preferred: true, edits: [{ file: d.file.path, range: k.range, newText: s }] }] : undefined,
        });
      }
      if (desired.hasSpread) continue;
      const missing = names.filter((n) => !fields[n] && !desired.keys.some((k) => k.name === n));
      if (missing.length) {
        report({ file: d.file.path, range: d.fact.nameRange, message: `\`${d.fact.exportName}\` lacks the required field${missing.length > 1 ? "s" : ""} ${missing.map((n) => `\`${n}\``).join(", ")} of ${d.type.id}` });
      }
    }
  },
};
