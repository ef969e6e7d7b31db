/** `collection-file` (SPEC A8): `collection()` is called only in a collections file. */
import { loadFailure } from "../model.ts";
import type { Rule, RuleCase } from "./rule.ts";

export const rule: Rule = {
  id: "collection-file",
  severity: "error",
  doc: {
    summary: "`collection()` is called outside a collections file, where it declares nothing.",
    why: "The framework reads collections from each scope's `resources/data.ts` only. A `collection(...)` anywhere else makes an object that no data layer knows: its operations do not exist and calls to them fail.",
    wrong: `
//- /sanoma.config.ts
export default {};
//- /workflows/rank.ts
import { collection } from "@sanoma-ai/workflows/data";
//                         ^^^^^^^^^^^^^^^^^^^^^^^^^^^ collection-import
export const cache = collection({ key: "id", fields: { id: "string" } });
//                   ^^^^^^^^^^ collection-file
`,
    right: `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const cache = collection({ key: "id", fields: { id: "string" } });
`,
  },
  checkFile(file, _root, report) {
    // (A file that fails to load declares nothing, misplaced or not: A11.)
    if (file.role.isCollectionsFile || !file.facts || file.facts.collections.length === 0 || loadFailure(file)) return;
    for (const c of file.facts.collections) {
      report({ file: file.path, range: c.callRange, message: `\`collection()\` declares nothing outside a collections file; move it to ${file.role.scope === null ? "" : `apps/${file.role.scope}/`}resources/data.ts` });
    }
  },
};

/** Beyond the doc's examples: companies where the rule fires or stays silent, every problem drawn under the text (test/rules/rule-cases.test.ts). */
export const cases = (): RuleCase[] => [
  {
    name: "collection() in a library of the root scope: it declares nothing there",
    company: `
//- /sanoma.config.ts
export default {};
//- /lib/store.ts
import { collection } from "@sanoma-ai/workflows/data";
//                         ^^^^^^^^^^^^^^^^^^^^^^^^^^^ collection-import
export const cache = collection({ key: "id", fields: { id: "string" } });
//                   ^^^^^^^^^^ collection-file
`,
  },
  {
    name: "collection() in an app's resources file other than data.ts",
    company: `
//- /sanoma.config.ts
export default {};
//- /apps/maps/resources/infra.ts
import { collection } from "@sanoma-ai/workflows/data";
//                         ^^^^^^^^^^^^^^^^^^^^^^^^^^^ collection-import
export const tiles = collection({ key: "id", fields: { id: "string" } });
//                   ^^^^^^^^^^ collection-file
`,
  },
  {
    name: "collection() in an app's collections file (apps/<app>/resources/data.ts): nothing to say",
    company: `
//- /sanoma.config.ts
export default {};
//- /apps/maps/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const tiles = collection({ key: "id", fields: { id: "string" } });
`,
  },
  {
    name: "a function of the company's own that is named collection is not the framework's",
    company: `
//- /sanoma.config.ts
export default {};
//- /workflows/w.ts
const collection = (spec: unknown) => spec;
export const notOne = collection({ key: "id", fields: { id: "string" } });
`,
  },
];
