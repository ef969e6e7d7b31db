/**
 * `data-file-imports` (SPEC A9): a data file takes `secret` and `sanoma` from
 * `@sanoma-ai/workflows/resources` only, and imports no workflow source or scenario file.
 */
import { isWorkflowOrScenarioPath, roleOf } from "../company.ts";
import { isFrameworkModule } from "../company.ts";
import { importTarget } from "../reach.ts";
import { checkImports } from "./check-imports.ts";
import { NO_FINDINGS, type ImportFinding } from "../sites.ts";
import { type ImportRule, type RuleCase } from "./rule.ts";

export const RESOURCES_MODULE = "@sanoma-ai/workflows/resources";
const RESOURCE_HELPERS = new Set(["secret", "sanoma"]);

export const rule: ImportRule = {
  id: "data-file-imports",
  severity: "error",
  doc: {
    summary: "A data file imports `secret` or `sanoma` from the wrong module, or imports a workflow source or a scenario.",
    why: "Data files are read on their own, before any workflow is loaded, by the framework's data-file reader: it gives them `secret` and `sanoma` from `@sanoma-ai/workflows/resources` only, and does not load workflows or scenarios. The same names from elsewhere in the framework are runtime helpers that mean something else there; an import of a workflow would load the workflow's whole graph into the reader.",
    wrong: `
//- /sanoma.config.ts
export default { secrets: { bindings: { KEY: { env: "KEY" } } } };
//- /resources/infra.ts
import { secret } from "@sanoma-ai/workflows";
//                     ^^^^^^^^^^^^^^^^^^^^^^ data-file-imports
import { plan } from "../workflows/plan";
//                   ^^^^^^^^^^^^^^^^^^^ data-file-imports
export const key = secret("KEY");
//- /workflows/plan.ts
export const plan = 1;
`,
    right: `
//- /sanoma.config.ts
export default { secrets: { bindings: { KEY: { env: "KEY" } } } };
//- /resources/infra.ts
import { secret } from "@sanoma-ai/workflows/resources";
import { plan } from "../lib/plan";
export const key = secret("KEY");
//- /lib/plan.ts
export const plan = 1;
`,
  },
  judgeImport(site, ctx) {
    if (!ctx.role.isDataFile) return NO_FINDINGS;
    const out: ImportFinding<typeof site.specifierRange>[] = [];
    if (isFrameworkModule(site.specifier) && site.specifier !== RESOURCES_MODULE) {
      const wrong = site.names.filter((n) => RESOURCE_HELPERS.has(n.imported));
      // The specifier can be replaced only when every name of the import moves with it.
      const certain = wrong.length > 0 && wrong.length === site.names.length;
      // One problem per import, at its specifier (B1), naming each helper it takes from there once.
      const helpers = [...new Set(wrong.map((n) => `\`${n.imported}\``))];
      if (helpers.length > 0) {
        out.push({ range: site.specifierRange, message: `A data file takes ${helpers.join(" and ")} from "${RESOURCES_MODULE}", not "${site.specifier}"`, replaceSpecifier: certain ? RESOURCES_MODULE : undefined });
      }
    }
    const target = importTarget(ctx, site.specifier);
    if (target?.rel !== undefined && isWorkflowOrScenarioPath(target.rel)) {
      // (`../scenarios` itself reaches its index file.)
      const scenario = roleOf(target.rel).kind === "scenarios" || roleOf(`${target.rel}/index.ts`).kind === "scenarios";
      const what = scenario ? "a scenario file" : "a workflow source";
      out.push({ range: site.specifierRange, message: `A data file cannot import ${what} (${target.rel}); data files are read without workflows and scenarios: move the shared code to a module outside workflows/ and scenarios/` });
    }
    return out;
  },
  checkFile(file, root, report) { checkImports(rule, file, root, report); },
};

/** Beyond the doc's examples: companies where the rule fires or stays silent, every problem drawn under the text (test/rules/rule-cases.test.ts). */
export const cases = (): RuleCase[] => [
  {
    name: "data files take secret and sanoma only from /resources, and import no workflow or scenario by path",
    company: `
//- /sanoma.config.ts
export default { secrets: { bindings: { K: { env: "K" } } } };
//- /resources/infra.ts
import { sanoma } from "@sanoma-ai/workflows/data";
//                     ^^^^^^^^^^^^^^^^^^^^^^^^^^^ data-file-imports
import { defineResource, secret as s } from "@sanoma-ai/workflows";
//                                          ^^^^^^^^^^^^^^^^^^^^^^ data-file-imports
import { plan } from "../workflows/plan.js";
//                   ^^^^^^^^^^^^^^^^^^^^^^ data-file-imports
import { never } from "../apps/a/workflows/missing";
//                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ data-file-imports
//                    ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ no-app-import-from-root
import { sc } from "./../scenarios/first";
//                 ^^^^^^^^^^^^^^^^^^^^^^ data-file-imports
import { testHelper } from "../workflows/plan.test";
import { lib } from "../lib/shared";
export const key = s("K");
//- /workflows/plan.ts
export const plan = 1;
//- /workflows/nightly.ts
import { secret } from "@sanoma-ai/workflows";
export const fine = secret;
`,
  },
  {
    name: "a data file may import what no walk reads as a workflow source or scenario file: other extensions, dot folders, node_modules (A3, A9)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import d from "../workflows/data.json";
import e from "../workflows/README.md";
import g from "../workflows/plan.mts";
import s from "../workflows/plan.tsx";
import t from "../workflows/.hidden/x";
import u from "../workflows/node_modules/x";
import b from "../scenarios/.fixtures/x.json";
import p from "../workflows/plan";
//            ^^^^^^^^^^^^^^^^^^^ data-file-imports a workflow source
import w from "../workflows";
//            ^^^^^^^^^^^^^^ data-file-imports a workflow source
import v from "../scenarios/";
//            ^^^^^^^^^^^^^^^ data-file-imports a scenario file
import q from "../workflows/plan.js";
//            ^^^^^^^^^^^^^^^^^^^^^^ data-file-imports a workflow source
import r from "../workflows/scenarios/x.ts";
//            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ data-file-imports a workflow source
import k from "../scenarios/fixtures/x.json";
//            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ data-file-imports a scenario file
export const z = [d, e, g, s, t, u, b, p, w, v, q, r, k];
`,
  },
  {
    name: "data-file-forms",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { secret as s } from "@sanoma-ai/workflows/runtime";
//                          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ data-file-imports
import { sanoma, secret } from '@sanoma-ai/workflows';
//                             ^^^^^^^^^^^^^^^^^^^^^^ data-file-imports
import * as wf from "@sanoma-ai/workflows";
import { secret as ok } from "@sanoma-ai/workflows/resources";
import { defineThing, secret as s2 } from "@sanoma-ai/workflows";
//                                        ^^^^^^^^^^^^^^^^^^^^^^ data-file-imports
export { secret } from "@sanoma-ai/workflows";
//                     ^^^^^^^^^^^^^^^^^^^^^^ data-file-imports
const plan = require("../workflows/plan");
//                   ^^^^^^^^^^^^^^^^^^^ data-file-imports
import type { Story } from "../scenarios/story";
//                         ^^^^^^^^^^^^^^^^^^^^ data-file-imports
import { helper } from "../workflows/lib/helper.test";
import type { Types } from "../workflows/types.d";
import type { More } from "../workflows/types.d.js";
import { fixture } from "../workflows/fixture.spec.ts";
//- /apps/billing/resources/queues/deep.ts
import { secret } from "@sanoma-ai/workflows";
//                     ^^^^^^^^^^^^^^^^^^^^^^ data-file-imports
import { charge } from "../../workflows/charge";
//                     ^^^^^^^^^^^^^^^^^^^^^^^^ data-file-imports
`,
  },
  {
    name: "a data file takes secret and sanoma from /resources and imports the company's libraries: nothing to say",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { secret, sanoma } from "@sanoma-ai/workflows/resources";
import { defineResource } from "@sanoma-ai/workflows";
import { region } from "../lib/region";
export const all = [secret, sanoma, defineResource, region];
//- /lib/region.ts
export const region = "eu";
`,
  },
  {
    name: "a workflow source is no data file: it imports what it likes",
    company: `
//- /sanoma.config.ts
export default {};
//- /workflows/nightly.ts
import { secret } from "@sanoma-ai/workflows";
import { plan } from "./plan";
import { story } from "../scenarios/story";
export const nightly = [secret, plan, story];
//- /workflows/plan.ts
export const plan = 1;
`,
  },
];
