/** `resource-type` (SPEC A5): a declaration's callee names a module that defines resource types, but no type there. */
import { suggestion } from "../text.ts";
import { declarationsOf } from "../analysis.ts";
import type { Rule } from "./rule.ts";

export const rule: Rule = {
  id: "resource-type",
  severity: "error",
  doc: {
    summary: "A declaration calls a resource type that its connector does not define.",
    why: "A declaration's callee is looked up in the connector it is imported from. When the connector defines resource types but none by that name, apply cannot create the resource: usually a typo, or a type that a newer version of the connector added.",
    wrong: `
//- /sanoma.config.ts
export default {};
//- /resources/events.ts
import { cloud } from "@hooli/cloud";
export const two = cloud.vmm({ name: "two" });
//                       ^^^ resource-type
//- /node_modules/@hooli/cloud/package.json
{ "name": "@hooli/cloud", "main": "index.js" }
//- /node_modules/@hooli/cloud/index.js
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
const vm = defineResource({ vendor: "cloud", type: "vm", title: "VM", schema: z.object({ name: z.string() }), fields: {}, writable: true });
export const cloud = { vm };
`,
    right: `
//- /sanoma.config.ts
export default {};
//- /resources/events.ts
import { cloud } from "@hooli/cloud";
export const two = cloud.vm({ name: "two" });
//- /node_modules/@hooli/cloud/package.json
{ "name": "@hooli/cloud", "main": "index.js" }
//- /node_modules/@hooli/cloud/index.js
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
const vm = defineResource({ vendor: "cloud", type: "vm", title: "VM", schema: z.object({ name: z.string() }), fields: {}, writable: true });
export const cloud = { vm };
`,
  },
  checkFileIn(file, a, report) {
    for (const d of declarationsOf(a, file)) {
      const r = d.resolution;
      if (r.kind !== "missing") continue;
      const fix = suggestion(r.name, r.available);
      const s = fix ? fix.replace(/^; did you mean `(.*)`\?$/, "$1") : undefined;
      const range = d.fact.callee.memberRange ?? d.fact.callee.range;
      report({
        file: d.file.path, range,
        message: `\`${r.module}\` has no resource type \`${r.name}\`${fix || (r.available.length ? `; it defines ${r.available.map((t) => `\`${t}\``).join(", ")}` : "")}`,
        fixes: s ? [{ title: `Change to \`${s}\``, preferred: true, edits: [{ file: d.file.path, range, newText: s }] }] : undefined,
      });
    }
  },
};
