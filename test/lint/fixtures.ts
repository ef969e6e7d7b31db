/**
 * The lint plugin's own cases: how it reads a file's import sites rather than what a rule judges
 * (the rules' cases are in their files): the lines of imports a file opens with, UTF-16 columns,
 * CRLF, texts that try the prefilter (escapes, comments, reserved names), calls read from the
 * syntax tree, JavaScript files, and the text scanner (fake imports in comments, strings,
 * templates and regular expressions). Same format as the rules' cases (`RuleCase`), run by the same
 * runner (test/rules/rule-cases.test.ts) through the core, sanoma-check, the server and both hosts.
 */
import type { RuleCase } from "../../server/src/core/rules/rule.ts";

export const FIXTURES = (): RuleCase[] => [
  {
    // The lines of imports a file opens with (lint-plugin/src/header.ts): what they read, and
    // the fake imports in comments and strings they must not take for sites, before and after.
    name: "header",
    company: `
//- /sanoma.config.ts
export default {};
//- /apps/maps/workflows/header.ts
#!/usr/bin/env node
/**
 * Licence. See import x from "../../search/lib/no" and require('../../../../no').
 */
// import y from "../../search/lib/no2"
import {
  rank,
  type Score as S,
} from "../../search/lib/rank"; // it's "../../search/lib/no3"
//     ^^^^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
export * from "../../search/lib/all"
//            ^^^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
const out = require('../../../../shared/out'); // '
//                  ^^^^^^^^^^^^^^^^^^^^^^^^ no-import-outside-company
import own from "../lib/own";
export const header = [rank, out, own] as S[];
//- /apps/maps/workflows/body.ts
import { own } from "../lib/own";
export const path = "../../search/lib/not-a-site";
export const load = () => import("../../search/lib/late");
//                               ^^^^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
//- /apps/maps/resources/infra.ts
const { secret } = require("@sanoma-ai/workflows");
//                         ^^^^^^^^^^^^^^^^^^^^^^ data-file-imports
import type { W } from "../workflows/header";
//                     ^^^^^^^^^^^^^^^^^^^^^ data-file-imports
export const key = secret("KEY");
//                        ^^^^^ secret-bindings
//- /apps/search/lib/rank.ts
export const rank = 1;
export type Score = number;
`,
  },
  {
    name: "utf16-columns",
    company: `
//- /sanoma.config.ts
export default {};
//- /apps/maps/workflows/intl.ts
const é = "ü😀"; const m = require("../../search/lib/rank");
//                                 ^^^^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
/* 日本語 */ import { r } from "../../search/lib/r";
//                          ^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
`,
  },
  {
    name: "crlf",
    crlf: ["apps/maps/workflows/win.ts"],
    company: `
//- /sanoma.config.ts
export default {};
//- /apps/maps/workflows/win.ts
// a file saved on Windows
import {
  rank,
} from "../../search/lib/rank";
//     ^^^^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
const x = require("../../search/lib/x");
//                ^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
`,
  },
  {
    name: "prefilter-texts",
    company: `
//- /sanoma.config.ts
export default {};
//- /apps/maps/workflows/escaped.ts
import { a } from "\\u002e\\u002e/\\x2e./search/lib/a";
//                ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
const b = require('..\\/..\\/search/lib/b');
//                ^^^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
const s = "it's a \\"quoted\\" ../../search/x";
//- /apps/maps/workflows/comments.ts
import { a } from /* where */ "../../search/lib/a";
//                            ^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
import { b } from // the next line
  "../../search/lib/b";
//^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
//- /resources/clauses.ts
import { defineThing, import as imported, secret } from "@sanoma-ai/workflows";
//                                                      ^^^^^^^^^^^^^^^^^^^^^^ data-file-imports
import { /* import */ sanoma } from "@sanoma-ai/workflows";
//                                  ^^^^^^^^^^^^^^^^^^^^^^ data-file-imports
import {
  // export
  secret as s3,
} from "@sanoma-ai/workflows";
//     ^^^^^^^^^^^^^^^^^^^^^^ data-file-imports
export * as import from "@sanoma-ai/workflows";
import { "secret" as s4 } from "@sanoma-ai/workflows";
//                             ^^^^^^^^^^^^^^^^^^^^^^ data-file-imports
const tpl = \`../../\${"x"}\`;
//- /resources/continued.ts
const s5 = "../wor\\
kflows/x";
import { p } from "../lib/\\
plan";
//- /workflows/plan.ts
export const plan = 1;
`,
  },
  {
    // Found by an adversarial sweep: clauses the prefilter once read as taking fewer names than
    // they do, so it skipped files where a name-judging rule fires.
    name: "prefilter-clauses",
    company: `
//- /sanoma.config.ts
export default {};
//- /workflows/escaped-name.ts
import { c\\u006fllection } from "@sanoma-ai/workflows/data";
//                              ^^^^^^^^^^^^^^^^^^^^^^^^^^^ collection-import
//- /resources/comment-after-from.ts
import { secret } from // helpers
  "@sanoma-ai/workflows";
//^^^^^^^^^^^^^^^^^^^^^^ data-file-imports
//- /workflows/nbsp-before-from.ts
import { collection }\u00a0from "@sanoma-ai/workflows/data";
//                         ^^^^^^^^^^^^^^^^^^^^^^^^^^^ collection-import
//- /resources/wide-space-after-from.ts
import { secret } from\u3000"@sanoma-ai/workflows";
//                     ^^^^^^^^^^^^^^^^^^^^^^ data-file-imports
//- /resources/keyword-in-comment.ts
import { secret, // export {
  x } from "@sanoma-ai/workflows";
//         ^^^^^^^^^^^^^^^^^^^^^^ data-file-imports
//- /resources/keyword-after-dot-in-comment.ts
import { sanoma, // see. export {
  y } from "@sanoma-ai/workflows";
//         ^^^^^^^^^^^^^^^^^^^^^^ data-file-imports
`,
  },
  {
    // Also from the sweep: calls the core's syntax-tree reading once passed over (data files and
    // texts the scanner refuses are read from the tree), and an argument in parentheses.
    name: "tree-read-calls",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/lazy.ts
export const m = import /* lazy */ ("../workflows/w");
//                                  ^^^^^^^^^^^^^^^^ data-file-imports
//- /resources/spread.ts
export const all = [...require("../workflows/w")];
//                             ^^^^^^^^^^^^^^^^ data-file-imports
//- /workflows/escaped.ts
const x = \\u0072equire("../apps/b/x");
//                     ^^^^^^^^^^^^^ no-app-import-from-root
const y = re\\u0071uire("../apps/b/y");
//                     ^^^^^^^^^^^^^ no-app-import-from-root
export const e = [x, y, "\\u0072"];
//- /workflows/parens.ts
const x = require(("../apps/b/x"));
//                 ^^^^^^^^^^^^^ no-app-import-from-root
const y = import((("../apps/b/y")));
//                 ^^^^^^^^^^^^^ no-app-import-from-root
export const p = [x, y];
//- /workflows/w.ts
export const w = 1;
`,
  },
  {
    name: "js-files",
    company: `
//- /sanoma.config.ts
export default {};
//- /apps/maps/lib/legacy.cjs
const rank = require("../../search/lib/rank");
//                   ^^^^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
module.exports = { rank };
//- /apps/maps/lib/modern.mjs
export { rank } from "../../search/lib/rank.mjs";
//                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
//- /workflows/plain.js
import x from "../apps/maps/lib/modern.mjs";
//            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ no-app-import-from-root
`,
  },
  {
    // oxlint reads these files' import sites from their text (scan.ts), but one: fake imports in
    // comments, strings, templates and regular expressions; real ones inside substitutions;
    // non-ASCII text before a site (UTF-16 columns); a file the scanner leaves to the syntax tree.
    name: "text-scanner",
    company: `
//- /sanoma.config.ts
export default {};
//- /apps/maps/workflows/tricky.ts
// import { x } from "../../search/lib/in-a-comment";
/* require("../../search/lib/in-a-block") */ const s = "import '../../search/lib/in-a-string'"; // '
const t = \`import("../../search/lib/in-a-template") \${require("../../search/lib/c")} \${\`\${import("../../search/lib/d")}\`}\`;
//                                                            ^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
//                                                                                               ^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
const r = /'|"|\\/\\/ import("x")/g.test(s) ? 1 : 2 / 3;
if (r) /"/.test("'"); const k = require('../../search/lib/e'); // "
//                                      ^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
const u = "ü😀"; const v = import("../../search/lib/f"); // 日本語
//                                ^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
export { g as h } from "../../search/lib/g"; export * from "../../search/lib/all";
//                     ^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
//                                                         ^^^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
const o = { import: "../../search/lib/key", require: "../../search/lib/key" }; o.require("../../search/lib/member");
//- /apps/maps/workflows/left-to-the-tree.ts
function f() { return 1; }
/'/.test("x"); // a regular expression after } that a tokenizer cannot tell from a division
import { q } from "../../search/lib/q";
//                ^^^^^^^^^^^^^^^^^^^^ no-cross-app-import
//- /resources/texty.ts
// import { secret } from "@sanoma-ai/workflows";
import {
  /* sanoma, */ secret, // collection
} from '@sanoma-ai/workflows';
//     ^^^^^^^^^^^^^^^^^^^^^^ data-file-imports
const w = \`\${require("../workflows/w")}\`;
//                   ^^^^^^^^^^^^^^^^ data-file-imports
`,
  },
];
