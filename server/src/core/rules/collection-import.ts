/**
 * `collection-import` (SPEC A8, A9): `collection` is imported from `@sanoma-ai/workflows/data`,
 * and only by a collections file (`resources/data.ts` of a scope).
 */
import { isFrameworkModule } from "../company.ts";
import { checkImports } from "./check-imports.ts";
import { NO_FINDINGS } from "../sites.ts";
import { type ImportRule } from "./rule.ts";

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
