/** `no-app-import-from-root` (SPEC A9): a file of the root scope imports nothing under `apps/`. */
import { importTarget } from "../reach.ts";
import { checkImports } from "./check-imports.ts";
import { NO_FINDINGS } from "../sites.ts";
import { type ImportRule, type RuleCase } from "./rule.ts";

export const rule: ImportRule = {
  id: "no-app-import-from-root",
  severity: "error",
  doc: {
    summary: "A file of the root scope imports a file under `apps/`.",
    why: "The root scope is shared by every app and loads before any of them; an app may be left out of a deployment. A root-scope file that reaches into `apps/` depends on an app being there. Move what both need into the root scope.",
    wrong: `
//- /sanoma.config.ts
export default {};
//- /workflows/nightly.ts
import { rank } from "../apps/search/workflows/rank";
//                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ no-app-import-from-root
//- /apps/search/workflows/rank.ts
export const rank = () => 1;
`,
    right: `
//- /sanoma.config.ts
export default {};
//- /workflows/nightly.ts
import { rank } from "../lib/rank";
//- /lib/rank.ts
export const rank = () => 1;
`,
  },
  judgeImport(site, ctx) {
    if (ctx.role.scope !== null) return NO_FINDINGS;
    const target = importTarget(ctx, site.specifier);
    if (target?.rel === undefined || !(target.rel === "apps" || target.rel.startsWith("apps/"))) return NO_FINDINGS;
    return [{ range: site.specifierRange, message: `A file of the root scope imports \`${target.rel}\` under apps/; the root scope cannot depend on an app: move the shared code out of apps/` }];
  },
  checkFile(file, root, report) { checkImports(rule, file, root, report); },
};

/** Beyond the doc's examples: companies where the rule fires or stays silent, every problem drawn under the text (test/rules/rule-cases.test.ts). */
export const cases = (): RuleCase[] => [
  {
    name: "apps-with-dots",
    company: `
//- /sanoma.config.ts
export default {};
//- /apps/my.app/workflows/w.ts
import { x } from "../../other.app/lib/x";
//                ^^^^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
import { y } from "../lib/y";
import { z } from "../../.shared/z";
//- /apps/other.app/lib/x.ts
export const x = 1;
//- /workflows/root.ts
import { x } from "../apps/other.app/lib/x";
//                ^^^^^^^^^^^^^^^^^^^^^^^^^ no-app-import-from-root
import { ok } from "./apps/x";
//- /apps/readme.ts
import { m } from "./my.app/lib/m";
//                ^^^^^^^^^^^^^^^^ no-app-import-from-root
`,
  },
  {
    name: "a library of the root scope requires a file of an app",
    company: `
//- /sanoma.config.ts
export default {};
//- /lib/pick.ts
const m = require("../apps/maps/lib/m");
//                ^^^^^^^^^^^^^^^^^^^^ no-app-import-from-root
export const pick = m;
//- /apps/maps/lib/m.ts
export const m = 1;
`,
  },
  {
    name: "the root scope imports its own files, apps import the root: nothing to say",
    company: `
//- /sanoma.config.ts
export default {};
//- /workflows/nightly.ts
import { rank } from "../lib/rank";
export const nightly = rank;
//- /apps/maps/workflows/render.ts
import { rank } from "../../../lib/rank";
export const render = rank;
//- /lib/rank.ts
export const rank = 1;
`,
  },
  {
    name: "a folder named apps elsewhere than at the company's root is no app: nothing to say",
    company: `
//- /sanoma.config.ts
export default {};
//- /workflows/nightly.ts
import { x } from "../lib/apps/x";
import { y } from "./apps/y";
export const nightly = [x, y];
//- /lib/apps/x.ts
export const x = 1;
//- /workflows/apps/y.ts
export const y = 1;
`,
  },
];
