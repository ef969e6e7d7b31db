/**
 * The lint plugin's own fixture companies, beyond the rules' documented examples: every import
 * form, nested companies, files the core never reads (node_modules, dot folders, no company),
 * UTF-16 columns, CRLF, texts that try the prefilter (escapes, comments, reserved names) and the
 * text scanner (fake imports in comments, strings, templates and regular expressions).
 * Same format as the rules' docs (`//- /path` headers, `^^^ rule` markers under the text).
 */

export interface LintFixture {
  name: string;
  text: string;
  /** Files rewritten with CRLF line ends after writing. */
  crlf?: string[];
}

export const FIXTURES: LintFixture[] = [
  {
    name: "static-imports",
    text: `
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
    text: `
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
    text: `
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
    // The lines of imports a file opens with (lint-plugin/src/header.ts): what they read, and
    // the fake imports in comments and strings they must not take for sites, before and after.
    name: "header",
    text: `
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
//- /apps/search/lib/rank.ts
export const rank = 1;
export type Score = number;
`,
  },
  {
    name: "import-equals",
    text: `
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
    text: `
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
    name: "nested-companies",
    text: `
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
    text: `
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
    text: `
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
    text: `
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
    name: "escaping-paths",
    text: `
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
    name: "apps-with-dots",
    text: `
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
    // An import without extension of apps/x reaches the file apps/x.ts when there is one, not app x.
    // (A trailing \`/\` or a last \`.\` names the folder, never the file beside it.)
    name: "apps-files-without-extension",
    text: `
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
    name: "test-files",
    text: `
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
  {
    name: "data-file-forms",
    text: `
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
import { fixture } from "../workflows/fixture.spec.ts";
//- /apps/billing/resources/queues/deep.ts
import { secret } from "@sanoma-ai/workflows";
//                     ^^^^^^^^^^^^^^^^^^^^^^ data-file-imports
import { charge } from "../../workflows/charge";
//                     ^^^^^^^^^^^^^^^^^^^^^^^^ data-file-imports
`,
  },
  {
    name: "collection-forms",
    text: `
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
    name: "utf16-columns",
    text: `
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
    text: `
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
    text: `
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
    text: `
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
    text: `
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
    // From a spec sweep: a destructured require takes the names of its pattern (A9 counts
    // require among imports), at their keys; a rest takes them all.
    name: "require-destructured",
    text: `
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
    name: "ambient-modules",
    text: `
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
    name: "js-files",
    text: `
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
    text: `
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
