/**
 * `collection-import` (SPEC A8, A9): `collection` is imported from `@sanoma-ai/workflows/data`,
 * and only by a collections file (`resources/data.ts` of a scope).
 */
import { isFrameworkModule } from "../company.ts";
import { checkImports } from "./check-imports.ts";
import { NO_FINDINGS } from "../sites.ts";
import { type ImportRule, type RuleCase } from "./rule.ts";

export const DATA_MODULE = "@sanoma-ai/workflows/data";

export const rule: ImportRule = {
  id: "collection-import",
  severity: "error",
  doc: {
    summary: "`collection` is imported from a module other than `@sanoma-ai/workflows/data`, or by a file that is not a collections file.",
    why: "Collections are declared in one place per scope, `resources/data.ts`, which the framework reads to build the data layer; `collection` from `@sanoma-ai/workflows/data` is the only declaration it understands. Imported anywhere else, `collection` declares nothing and its operations do not exist.",
    wrong: `
//- /sanoma.config.ts
export default {};
//- /workflows/rank.ts
import { collection } from "@sanoma-ai/workflows/data";
//                         ^^^^^^^^^^^^^^^^^^^^^^^^^^^ collection-import
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows";
//                         ^^^^^^^^^^^^^^^^^^^^^^ collection-import
export const users = collection({ key: "id", fields: { id: "string" } });
`,
    right: `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const users = collection({ key: "id", fields: { id: "string" } });
`,
    fix: "Declare collections in the scope's `resources/data.ts`, importing `collection` from `@sanoma-ai/workflows/data`. A library's own `collection` (Firestore's, say) is taken through its namespace: `import * as firestore from \"firebase/firestore\"`.",
  },
  judgeImport(site, ctx) {
    const names = site.names.filter((n) => n.imported === "collection");
    if (names.length === 0) return NO_FINDINGS;
    // One problem per import (`collection as a, collection as b` is one), at its specifier (B1).
    const at = site.specifierRange;
    if (site.specifier !== DATA_MODULE) {
      // From anywhere else (A8: "anywhere but @sanoma-ai/workflows/data"): another part of the
      // framework, a library's own `collection`, a helper of the company. The specifier is replaced
      // only where that is certain: a collections file taking it from elsewhere in the framework.
      const certain = isFrameworkModule(site.specifier) && names.length === site.names.length && ctx.role.isCollectionsFile;
      return [{ range: at, message: `\`collection\` comes from "${DATA_MODULE}", not "${site.specifier}"`, replaceSpecifier: certain ? DATA_MODULE : undefined }];
    }
    return ctx.role.isCollectionsFile ? NO_FINDINGS : [{ range: at, message: `Only a collections file (resources/data.ts of a scope) imports \`collection\`; declare the collection there` }];
  },
  checkFile(file, root, report) { checkImports(rule, file, root, report); },
};

/** Beyond the doc's examples: companies where the rule fires or stays silent, every problem drawn under the text (test/rules/rule-cases.test.ts). */
export const cases = (): RuleCase[] => [
  {
    name: "collection taken from any module but @sanoma-ai/workflows/data is a problem, a library's own or a helper's (A8: 'from anywhere but'); other names from them are not",
    company: `
//- /sanoma.config.ts
export default {};
//- /workflows/sync.ts
import { collection, doc } from "firebase/firestore";
//                              ^^^^^^^^^^^^^^^^^^^^ collection-import
import { doc as d2, getDoc } from "firebase/firestore";
const { collection: c } = require("./helpers");
//                                ^^^^^^^^^^^ collection-import
export const w = [collection, doc, d2, getDoc, c];
//- /workflows/helpers.ts
export const collection = 1;
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
import { collection as fire } from "firebase/firestore";
//                                 ^^^^^^^^^^^^^^^^^^^^ collection-import
export const items = collection({ key: "id", fields: { id: "string" } });
`,
  },
  {
    name: "collection-forms",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "./my-collections";
//                         ^^^^^^^^^^^^^^^^^^ collection-import
import { collection as c2 } from "@sanoma-ai/workflows";
//                               ^^^^^^^^^^^^^^^^^^^^^^ collection-import
export const orders = c2({ key: "id", fields: { id: "string" } });
//- /apps/billing/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const invoices = collection({ key: "id", fields: { id: "string" } });
//- /apps/billing/workflows/charge.ts
import { collection as c } from "@sanoma-ai/workflows/data";
//                              ^^^^^^^^^^^^^^^^^^^^^^^^^^^ collection-import
import { collection as mine } from "../lib/collection";
//                                 ^^^^^^^^^^^^^^^^^^^ collection-import
//- /resources/other.ts
import { collection, secret } from "@sanoma-ai/workflows";
//                                 ^^^^^^^^^^^^^^^^^^^^^^ collection-import
//                                 ^^^^^^^^^^^^^^^^^^^^^^ data-file-imports
`,
  },
  {
    // From a spec sweep: a destructured require takes the names of its pattern (A9 counts
    // require among imports), at their keys; a rest takes them all.
    name: "require-destructured",
    company: `
//- /sanoma.config.ts
export default { secrets: { bindings: { K: { env: "K" } } } };
//- /resources/a.ts
const { secret } = require("@sanoma-ai/workflows");
//                         ^^^^^^^^^^^^^^^^^^^^^^ data-file-imports
const { sanoma: s, ...rest } = (require("@sanoma-ai/workflows/resources"));
export const k = secret("K");
export const more = [s, rest];
//- /resources/data.ts
const { collection } = require("@sanoma-ai/workflows");
//                             ^^^^^^^^^^^^^^^^^^^^^^ collection-import
export const users = collection({ key: "id", fields: { id: "string" } });
//- /workflows/w.ts
const { collection, "x": y } = require("@sanoma-ai/workflows/data");
//                                     ^^^^^^^^^^^^^^^^^^^^^^^^^^^ collection-import
const { collection: c } = require("@acme/other");
//                                ^^^^^^^^^^^^^ collection-import
const whole = require("@sanoma-ai/workflows/data");
export const w = [collection, y, c, whole];
`,
  },
  {
    // From a spec audit: `await import("m")` destructured takes the names of its pattern as a
    // destructured require does (A9 counts `import()` with a literal among imports), at their keys;
    // a rest takes them all. Not awaited, or not destructured whole, it takes the namespace.
    name: "import-destructured",
    company: `
//- /sanoma.config.ts
export default { secrets: { bindings: { K: { env: "K" } } } };
//- /resources/a.ts
const { secret: s3 } = await import("@sanoma-ai/workflows");
//                                  ^^^^^^^^^^^^^^^^^^^^^^ data-file-imports
const { sanoma: s, ...rest } = (await (import("@sanoma-ai/workflows/resources")));
const { "default": d } = await import("@sanoma-ai/workflows/resources");
export const more = [s3, s, rest, d];
//- /resources/data.ts
const { collection } = await import("@sanoma-ai/workflows");
//                                  ^^^^^^^^^^^^^^^^^^^^^^ collection-import
export const users = collection({ key: "id", fields: { id: "string" } });
//- /workflows/w.ts
export async function w() {
  const { collection, "x": y } = await import("@sanoma-ai/workflows/data");
//                                            ^^^^^^^^^^^^^^^^^^^^^^^^^^^ collection-import
  const { collection: c } = await import("@acme/other");
//                                       ^^^^^^^^^^^^^ collection-import
  const whole = await import("@sanoma-ai/workflows/data");
  const { other } = await import("@sanoma-ai/workflows/data");
  const later = import("@sanoma-ai/workflows/data").then(({ collection: x }) => x);
  return [collection, y, c, whole, other, later];
}
`,
  },
  {
    name: "collection from @sanoma-ai/workflows/data in the collections files of the root and of an app: nothing to say",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const orders = collection({ key: "id", fields: { id: "string" } });
//- /apps/maps/resources/data.ts
import { collection as define } from "@sanoma-ai/workflows/data";
export const tiles = define({ key: "id", fields: { id: "string" } });
`,
  },
  {
    name: "other names from the framework's modules, anywhere: nothing to say",
    company: `
//- /sanoma.config.ts
export default {};
//- /workflows/w.ts
import { defineConfig } from "@sanoma-ai/workflows";
import type { Collection } from "@sanoma-ai/workflows/data";
export const w = [defineConfig] as unknown as Collection[];
//- /lib/l.ts
import * as data from "@sanoma-ai/workflows/data";
export const l = data;
`,
  },
];
