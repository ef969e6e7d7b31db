/** `no-import-outside-company` (SPEC A9): a relative import does not leave the company root. */
import * as path from "node:path";
import { importTarget } from "../reach.ts";
import { checkImports } from "./check-imports.ts";
import { NO_FINDINGS } from "../sites.ts";
import { type ImportRule, type RuleCase } from "./rule.ts";

export const rule: ImportRule = {
  id: "no-import-outside-company",
  severity: "error",
  doc: {
    summary: "A relative or absolute import reaches a file outside the company root.",
    why: "A company is built, checked and deployed from its own folder: the framework copies the company root and nothing above it. A relative path that climbs out of it finds nothing once deployed. Publish shared code as a package and import it by name.",
    wrong: `
//- /sanoma.config.ts
export default {};
//- /workflows/nightly.ts
const shared = require("../../shared/config");
//                     ^^^^^^^^^^^^^^^^^^^^^ no-import-outside-company
`,
    right: `
//- /sanoma.config.ts
export default {};
//- /workflows/nightly.ts
const shared = require("@acme/shared-config");
`,
  },
  judgeImport(site, ctx) {
    const target = importTarget(ctx, site.specifier);
    if (!target || target.rel !== undefined) return NO_FINDINGS;
    return [{ range: site.specifierRange, message: `"${site.specifier}" leaves the company root (${path.basename(ctx.root)}/); import a package by name, or move the file into the company` }];
  },
  checkFile(file, root, report) { checkImports(rule, file, root, report); },
};

/** Beyond the doc's examples: companies where the rule fires or stays silent, every problem drawn under the text (test/rules/rule-cases.test.ts). */
export const cases = (): RuleCase[] => [
  {
    name: "an absolute specifier is judged by where it leads, like a relative one (docs/decisions.md)",
    company: `
//- /sanoma.config.ts
export default {};
//- /workflows/w.ts
import { shared } from "/nonexistent-sanoma-elsewhere/shared/config";
//                     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ no-import-outside-company
import { z } from "zod";
`,
  },
  {
    name: "escaping-paths",
    company: `
//- /sanoma.config.ts
export default {};
//- /workflows/nightly.ts
import { a } from "../../shared/a";
//                ^^^^^^^^^^^^^^^^ no-import-outside-company
import { b } from "../..";
//                ^^^^^^^ no-import-outside-company
import { root } from "..";
import { c } from "../lib/../../up";
//                ^^^^^^^^^^^^^^^^^ no-import-outside-company
import { d } from "/etc/shared/d";
//                ^^^^^^^^^^^^^^^ no-import-outside-company
import { e } from "../lib/../lib/e";
import { f } from "@acme/shared";
import { g } from ".";
//- /apps/billing/lib/deep.ts
const cfg = require("../../../../config");
//                  ^^^^^^^^^^^^^^^^^^^^ no-import-outside-company
`,
  },
  {
    name: "relative imports that climb no higher than the company's root: nothing to say",
    company: `
//- /sanoma.config.ts
export default {};
//- /apps/maps/workflows/render.ts
import { rank } from "../../../lib/rank";
import { up } from "../../maps/lib/up";
export const render = [rank, up];
//- /lib/rank.ts
export const rank = 1;
//- /apps/maps/lib/up.ts
export const up = 1;
`,
  },
  {
    name: "packages and Node's own modules are no path: nothing to say",
    company: `
//- /sanoma.config.ts
export default {};
//- /workflows/nightly.ts
import { z } from "zod";
import fs from "node:fs";
import { x } from "@acme/shared/x";
export const nightly = [z, fs, x];
`,
  },
];
