/**
 * Cases of the company model rather than of one rule: which files belong to which company (nested
 * companies, node_modules, dot folders, no company at all) and which role a file has (tests,
 * specs, declaration files). Same format as the rules' cases (`RuleCase`), run by the same runner
 * (rule-cases.test.ts) through every surface.
 */
import type { RuleCase } from "../../server/src/core/rules/rule.ts";
import { FRAMEWORK_PACKAGE } from "../../server/src/core/rules/case-packages.ts";

export const MODEL_CASES = (): RuleCase[] => [
  {
    name: "files under node_modules belong to no company and are never reported",
    company: `
//- /sanoma.config.ts
export default {};
//- /node_modules/some-lib/workflows/x.ts
export const x = (ctx: any) => ctx.call("data.nope.get", {});
import { y } from "../../../../outside";
//- /apps/a/node_modules/lib/index.ts
import { z } from "../../../b/thing";
export const q = "data.ghost.list";
`,
  },
  {
    name: "a nested company is judged by its own root; the outer company does not see into it",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const outer = collection({ key: "id", fields: { id: "string" } });
//- /teams/inner/sanoma.config.ts
export default {};
//- /teams/inner/workflows/w.ts
export const w = (ctx: any) => ctx.call("data.outer.get", {}) && ctx.call("data.mine.get", {});
//                                      ^^^^^^^^^^^^^^^^ collection-op
import { x } from "../../../resources/data";
//                ^^^^^^^^^^^^^^^^^^^^^^^^^ no-import-outside-company
//- /teams/inner/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const mine = collection({ key: "id", fields: { id: "string" } });
//- /workflows/o.ts
export const o = (ctx: any) => ctx.call("data.mine.get", {});
//                                      ^^^^^^^^^^^^^^^ collection-op
`,
  },
  {
    name: "test, spec and declaration files are not workflow sources or data files, but their imports and op ids are checked",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/events.ts
import { trigger } from "@x/cloud";
export const wake = trigger({ path: "/a" });
//- /resources/events.test.ts
import { trigger } from "@x/cloud";
export const wakeInTest = trigger({ path: "/b" });
import { collection } from "@sanoma-ai/workflows/data";
//                         ^^^^^^^^^^^^^^^^^^^^^^^^^^^ collection-import
//- /resources/types.d.ts
import { trigger } from "@x/cloud";
export declare const wakeType: ReturnType<typeof trigger>;
//- /workflows/w.spec.ts
export const t = (ctx: any) => ctx.call("data.nothing.get", {});
//                                      ^^^^^^^^^^^^^^^^^^ collection-op
//- /apps/a/workflows/w.test.ts
import { helper } from "../../b/lib";
//                     ^^^^^^^^^^^^^ no-cross-app-import
//- /node_modules/@x/cloud/package.json
{ "name": "@x/cloud", "main": "index.js" }
//- /node_modules/@x/cloud/index.js
import { defineResource } from "@sanoma-ai/workflows";
export const trigger = defineResource({ vendor: "x", type: "trigger", title: "T", schema: null, fields: {}, writable: true, wakeup: true });
${FRAMEWORK_PACKAGE}`,
  },
  {
    name: "nested-companies",
    company: `
//- /sanoma.config.ts
export default {};
//- /apps/maps/workflows/render.ts
import { x } from "../vendor/workflows/x";
import { y } from "../vendor/apps/inner/lib/y";
//- /apps/maps/vendor/sanoma.config.ts
export default {};
//- /apps/maps/vendor/workflows/x.ts
import { rank } from "../../../search/lib/rank";
//                   ^^^^^^^^^^^^^^^^^^^^^^^^^^ no-import-outside-company
import { y } from "../apps/inner/lib/y";
//                ^^^^^^^^^^^^^^^^^^^^^ no-app-import-from-root
export const x = 1;
//- /apps/maps/vendor/apps/inner/lib/y.ts
import { other } from "../../other/lib/z";
//                    ^^^^^^^^^^^^^^^^^^^ no-cross-app-import
export const y = 1;
`,
  },
  {
    name: "never-read",
    company: `
//- /sanoma.config.ts
export default {};
//- /node_modules/connector/index.ts
import { a } from "../../apps/maps/workflows/a";
import { secret } from "@sanoma-ai/workflows";
const x = require("../../../../outside");
//- /apps/maps/node_modules/lib/index.js
const y = require("../../../search/lib/rank");
//- /.cache/generated.ts
import { a } from "../apps/maps/workflows/a";
//- /apps/.hidden/workflows/w.ts
import { b } from "../../search/lib/b";
//- /workflows/dot-app.ts
import { c } from "../apps/.hidden/lib/c";
//                ^^^^^^^^^^^^^^^^^^^^^^^ no-app-import-from-root
`,
  },
  {
    // A company inside a dot folder (an old copy, a tool's cache) is one a check from above never
    // finds (the search skips dot folders): the hosts, run from above, say nothing of it either.
    name: "company-in-dot-folder",
    company: `
//- /.attic/oldco/sanoma.config.ts
export default {};
//- /.attic/oldco/apps/a/workflows/w.ts
import { y } from "../../b/lib/y";
//- /.attic/oldco/resources/r.ts
import { secret } from "@sanoma-ai/workflows";
`,
  },
  {
    name: "no-company",
    company: `
//- /loose/readme.ts
import { d } from "../../../../../x";
import { secret } from "@sanoma-ai/workflows";
//- /loose/apps/a/workflows/w.ts
import { e } from "../../b/lib/e";
//- /loose/sub/deeper.ts
export * from "/etc/hosts";
`,
  },
  {
    name: "test-files",
    company: `
//- /sanoma.config.ts
export default {};
//- /apps/maps/workflows/render.test.ts
import { rank } from "../../search/lib/rank";
//                   ^^^^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
//- /resources/infra.test.ts
import { secret } from "@sanoma-ai/workflows";
import { plan } from "../workflows/plan";
//- /resources/infra.spec.ts
import { sanoma } from "@sanoma-ai/workflows/runtime";
//- /workflows/plan.ts
export const plan = 1;
`,
  },
];
