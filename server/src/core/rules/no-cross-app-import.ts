/** `no-cross-app-import` (SPEC A9): a file of app `a` imports nothing under another app's folder. */
import { importTarget, targetApp } from "../reach.ts";
import { checkImports } from "./check-imports.ts";
import { NO_FINDINGS } from "../sites.ts";
import { type ImportRule } from "./rule.ts";

export const rule: ImportRule = {
  id: "no-cross-app-import",
  severity: "error",
  doc: {
    summary: "A file of one app imports a file of another app.",
    why: "Apps are deployed and versioned on their own: the framework loads each app with only its own folder and the root scope. An import from another app's folder works on your machine and breaks when the app ships without it. Code that two apps share belongs in the root scope (outside `apps/`).",
    wrong: `
//- /sanoma.config.ts
export default {};
//- /apps/maps/workflows/render.ts
import { rank } from "../../search/workflows/rank";
//                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
//- /apps/search/workflows/rank.ts
export const rank = () => 1;
`,
    right: `
//- /sanoma.config.ts
export default {};
//- /apps/maps/workflows/render.ts
import { rank } from "../../../lib/rank";
//- /lib/rank.ts
export const rank = () => 1;
`,
  },
  judgeImport(site, ctx) {
    if (ctx.role.scope === null) return NO_FINDINGS;
    const target = importTarget(ctx, site.specifier);
    const app = target?.rel !== undefined ? targetApp(target.rel, ctx.hasFile, target.folder) : null;
    if (app === null || app === ctx.role.scope) return NO_FINDINGS;
    return [{ range: site.specifierRange, message: `A file of app \`${ctx.role.scope}\` imports from app \`${app}\` (${target!.rel}); share the code through the root scope (outside apps/) instead` }];
  },
  // Judged per file, and again when a file directly in apps/ comes or goes (`apps/x` may reach it).
  fileInputs: (a) => [a.company.appsFilesVersion],
  checkFileIn(file, a, report) { checkImports(rule, file, a.company.root, report, (rel) => a.company.hasFile(rel)); },
};
