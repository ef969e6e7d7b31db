/** `no-cross-app-import` (SPEC A9): a file of app `a` imports nothing under another app's folder. */
import { importTarget, targetApp } from "../reach.ts";
import { checkImports } from "./check-imports.ts";
import { NO_FINDINGS } from "../sites.ts";
import { type ImportRule, type RuleCase } from "./rule.ts";

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

/** Beyond the doc's examples: companies where the rule fires or stays silent, every problem drawn under the text (test/rules/rule-cases.test.ts). */
export const cases = (): RuleCase[] => [
  {
    name: "every import form is judged, type-only ones too",
    company: `
//- /sanoma.config.ts
export default {};
//- /apps/a/workflows/w.ts
import type { T } from "../../b/types";
//                     ^^^^^^^^^^^^^^^ no-cross-app-import
import { type U, v } from "../../b/more";
//                        ^^^^^^^^^^^^^^ no-cross-app-import
export { x } from "../../b/x";
//                ^^^^^^^^^^^ no-cross-app-import
export * from "../../b/all";
//            ^^^^^^^^^^^^^ no-cross-app-import
const lazy = () => import("../../b/lazy");
//                        ^^^^^^^^^^^^^^ no-cross-app-import
const req = require("../../b/req");
//                  ^^^^^^^^^^^^^ no-cross-app-import
import eq = require("../../b/eq");
//                  ^^^^^^^^^^^^ no-cross-app-import
type Q = import("../../b/q").Q;
//              ^^^^^^^^^^^ no-cross-app-import
const notAnImport = ["../../b/string"], dyn = import(\`../../b/\${lazy}\`);
export const w = () => [lazy, req, eq, v, notAnImport, dyn] as unknown as T & U & Q;
`,
  },
  {
    name: "a file directly in apps/ is no app: an app may import it, without extension too (it is what apps/shared resolves to), the root scope may not (A2, A9)",
    company: `
//- /sanoma.config.ts
export default {};
//- /apps/shared.ts
export const s = 1;
//- /apps/a/workflows/x.ts
import { s } from "../../shared.ts";
import { t } from "../../shared.js";
import { v } from "../../shared";
import { w } from "../../other";
//                ^^^^^^^^^^^^^ no-cross-app-import
import { u } from "../../b";
//                ^^^^^^^^^ no-cross-app-import
export const x = [s, t, u, v, w];
//- /workflows/r.ts
import { s } from "../apps/shared.ts";
//                ^^^^^^^^^^^^^^^^^^^ no-app-import-from-root
export const r = s;
`,
  },
  {
    name: "static-imports",
    company: `
//- /sanoma.config.ts
export default {};
//- /apps/maps/workflows/render.ts
import rank, * as all from "../../search/lib/rank";
//                         ^^^^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
import { a as b, "x-y" as z } from '../../search/lib/rank';
//                                 ^^^^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
import "../../search/lib/side-effect";
//     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
import { own } from "../lib/own";
import { shared } from "../../../lib/shared";
export const render = () => [rank, all, b, z, own, shared];
//- /apps/search/lib/rank.ts
export default 1;
`,
  },
  {
    name: "type-only",
    company: `
//- /sanoma.config.ts
export default {};
//- /apps/maps/workflows/types.ts
import type { Rank } from "../../search/lib/rank";
//                        ^^^^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
import { type Score, type Other as O } from "../../search/lib/score";
//                                          ^^^^^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
export type { Rank as R } from "../../search/lib/rank";
//                             ^^^^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
type T = import("../../search/lib/rank").Rank;
//              ^^^^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
let v: typeof import("../../search/lib/score") | undefined;
//                   ^^^^^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
export type Use = [Rank, Score, O, T, typeof v];
`,
  },
  {
    name: "dynamic-and-require",
    company: `
//- /sanoma.config.ts
export default {};
//- /apps/maps/workflows/load.ts
const a = await import("../../search/lib/rank");
//                     ^^^^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
const b = await import(\`../../search/lib/rank\`);
//                     ^^^^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
const c = require("../../search/lib/rank");
//                ^^^^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
const d = require(\`../../search/lib/rank\`);
//                ^^^^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
const name = "../../search/lib/rank";
const e = require(name);
const f = require("../../search/lib/rank", "twice");
const g = await import(name);
const h = await import(\`../../search/\${name}\`);
const i = (require)("../../search/lib/rank");
export const all = [a, b, c, d, e, f, g, h, i];
`,
  },
  {
    name: "import-equals",
    company: `
//- /sanoma.config.ts
export default {};
//- /apps/maps/workflows/old.ts
import rank = require("../../search/lib/rank");
//                    ^^^^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
export import score = require("../../search/lib/score");
//                            ^^^^^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
import Alias = rank.inner;
export const used = [rank, score, Alias];
`,
  },
  {
    name: "export-from",
    company: `
//- /sanoma.config.ts
export default {};
//- /apps/maps/lib/index.ts
export { a as b, c } from "../../search/lib/rank";
//                        ^^^^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
  export * from "../../search/lib/rank";
//              ^^^^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
export * as ns from "../../search/lib/score";
//                  ^^^^^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
export { own } from "./own";
const local = 1;
export { local };
//- /lib/index.ts
export * from "../apps/search/lib/rank";
//            ^^^^^^^^^^^^^^^^^^^^^^^^^ no-app-import-from-root
`,
  },
  {
    // An import without extension of apps/x reaches the file apps/x.ts when there is one, not app x.
    // (A trailing \`/\` or a last \`.\` names the folder, never the file beside it.)
    name: "apps-files-without-extension",
    company: `
//- /sanoma.config.ts
export default {};
//- /apps/shared.ts
export const s = 1;
//- /apps/helpers.d.ts
export declare const h: number;
//- /apps/a/workflows/w.ts
import { s } from "../../shared";
import type { h } from "../../helpers";
const lazy = import("../../shared");
import { n } from "../../nothing";
//                ^^^^^^^^^^^^^^^ no-cross-app-import
import { b } from "../../b";
//                ^^^^^^^^^ no-cross-app-import
import { f } from "../../shared/";
//                ^^^^^^^^^^^^^^^ no-cross-app-import
import { g } from "../../shared/.";
//                ^^^^^^^^^^^^^^^^ no-cross-app-import
export const w = [s, lazy, n, b, f, g];
//- /apps/shared/index.ts
export const f = 1;
`,
  },
  {
    name: "ambient-modules",
    company: `
//- /sanoma.config.ts
export default {};
//- /apps/maps/types.d.ts
declare module "maps-types" {
  import { Rank } from "../search/lib/rank";
  export * from "../search/lib/score";
  export type T = import("../search/lib/rank").Rank;
//                       ^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
}
`,
  },
  {
    name: "an app imports its own files and the root scope's: nothing to say",
    company: `
//- /sanoma.config.ts
export default {};
//- /apps/maps/workflows/render.ts
import { tile } from "../lib/tile";
import { rank } from "../../../lib/rank";
export const render = [tile, rank];
//- /apps/maps/lib/tile.ts
export const tile = 1;
//- /lib/rank.ts
export const rank = 1;
`,
  },
  {
    name: "packages and Node's own modules are no app's: nothing to say",
    company: `
//- /sanoma.config.ts
export default {};
//- /apps/maps/workflows/render.ts
import { z } from "zod";
import { join } from "node:path";
import search from "search";
export const render = [z, join, search];
`,
  },
];
