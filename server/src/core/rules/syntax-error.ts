/**
 * `syntax-error` (SPEC A11): the config, a data file or a workflow source that does not parse.
 * The framework loads those files by importing them, so a syntax error stops it there. The file is
 * one problem, at its first syntax error; nothing it declares is read by the other rules (see
 * `loadFailure`), while its import sites and operation references are still judged. A file nested
 * too deep for Node to load (`LOAD_DEPTH` in facts-tree.ts) is one problem at its first line.
 */
import { loadFailure } from "../model.ts";
import type { Rule, RuleCase } from "./rule.ts";
import { CLOUD_PACKAGE } from "./case-packages.ts";

export const rule: Rule = {
  id: "syntax-error",
  severity: "error",
  doc: {
    summary: "The config, a data file or a workflow source does not parse, so Sanoma cannot load it.",
    why: "The framework loads `sanoma.config.ts`, every data file and every workflow source by importing it, and a syntax error stops it there: nothing of the company is planned, applied or run. While a file does not parse, what a parser's recovery makes of it is not what Sanoma would load, so nothing it declares is judged or counted (its declarations, collections, `secret()` calls, the config's bindings) until it parses again; its imports and operation ids, read from the text alone, are still checked. A file whose brackets nest 3,000 deep or more does not load either, whatever is inside: Node 20's parser runs out of stack on it (\"Maximum call stack size exceeded\"; for some shapes from some 640 deep, so a file nested less may fail too, which is not said). It is one problem at its first line. Libraries, scenarios and tests are not loaded by the framework: their syntax errors are the compiler's to report.",
    wrong: `
//- /sanoma.config.ts
export default {};
//- /resources/draft.ts
import { vm } from "@hooli/cloud";
export const scratch = vm({ name: "scratch", zone: "eu-2" ;
//                                                        ^ syntax-error
export const other = vm({ nmae: "other" });
//- /node_modules/@hooli/cloud/package.json
{ "name": "@hooli/cloud", "main": "index.js" }
//- /node_modules/@hooli/cloud/index.js
const { defineResource } = require("@sanoma-ai/workflows");
const { z } = require("zod");
exports.vm = defineResource({ vendor: "cloud", type: "vm", title: "VM", schema: z.object({ name: z.string(), zone: z.string().optional() }), fields: {}, writable: true });
`,
    right: `
//- /sanoma.config.ts
export default {};
//- /resources/draft.ts
import { vm } from "@hooli/cloud";
export const scratch = vm({ name: "scratch", zone: "eu-2" });
export const other = vm({ name: "other" });
//- /node_modules/@hooli/cloud/package.json
{ "name": "@hooli/cloud", "main": "index.js" }
//- /node_modules/@hooli/cloud/index.js
const { defineResource } = require("@sanoma-ai/workflows");
const { z } = require("zod");
exports.vm = defineResource({ vendor: "cloud", type: "vm", title: "VM", schema: z.object({ name: z.string(), zone: z.string().optional() }), fields: {}, writable: true });
`,
    fix: "Put the syntax right: the file's problems come back as soon as it parses. (No quick fix is offered: where a parser's recovery would put the missing token is a guess.)",
  },
  checkFile(file, _root, report) {
    const failure = loadFailure(file);
    if (!failure) return;
    report({ file: file.path, range: failure.range, message: `${file.rel} does not parse (${failure.message}): Sanoma cannot load it` });
  },
};

/** `open` brackets nested `n` deep, around `inner`, closed. */
const nest = (n: number, inner = "", open = "[", close = "]"): string => open.repeat(n) + inner + close.repeat(n);

/** Beyond the doc's examples: companies where the rule fires or stays silent, every problem drawn under the text (test/rules/rule-cases.test.ts). */
export const cases = (): RuleCase[] => [
  {
    name: "the config, a data file or a workflow source nested 3,000 brackets deep or more does not load (Node's parser runs out of stack): one syntax-error at its start, whatever is inside; its imports and operation ids are still judged (A11)",
    company: `
//- /sanoma.config.ts
  export default { secrets: { bindings: { A: { env: "A" } } }, nest: ${nest(3000)} };
//^ syntax-error sanoma.config.ts does not parse (nested 3,001 brackets deep: Node's parser runs out of stack on code nested 3,000 deep): Sanoma cannot load it
//- /resources/infra.ts
  import { vm } from "@hooli/cloud";
//^ syntax-error nested 5,002 brackets deep
import { w } from "../workflows/w";
//                ^^^^^^^^^^^^^^^^ data-file-imports
export const web = vm({ nmae: "web", tags: ${nest(5000, "1")} });
//- /workflows/w.ts
  export const w = async (ctx: any) => ctx.call("data.nope.get", ${nest(3000, "1 2")});
//^ syntax-error nested 3,001 brackets deep
//                                              ^^^^^^^^^^^^^^^ collection-op
//- /workflows/v.ts
  export const v = () => ${nest(3000, "1", "(", ")")};
//^ syntax-error nested 3,000 brackets deep
${CLOUD_PACKAGE}`,
  },
  {
    name: "a library nested 3,000 brackets deep is not loaded by the framework: not ours to report; a workflow source nested 1,000 deep loads (A11)",
    company: `
//- /sanoma.config.ts
export default {};
//- /lib/deep.ts
export const a = ${nest(5000, "1 2")};
//- /scenarios/s.ts
export const s = ${nest(3000, "", "{", "}")};
//- /workflows/shallow.ts
export const w = async () => ${nest(1000)};
`,
  },
  {
    name: "a data file whose declaration lost its `})` is one syntax-error; nothing it declares is judged, its imports are (A11, the flood of `const is not a field`)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { vm, trigger } from "@hooli/cloud";
import { secret } from "@sanoma-ai/workflows";
//                     ^^^^^^^^^^^^^^^^^^^^^^ data-file-imports
import { nightly } from "../workflows/nightly";
//                      ^^^^^^^^^^^^^^^^^^^^^^ data-file-imports
export const bad = vm({ nmae: "bad" });
export const web = vm({ name: "web", zone: "eu-1"
  export const wake = trigger({ path: "/wake" });
//^^^^^^ syntax-error resources/infra.ts does not parse (',' expected.): Sanoma cannot load it
export const db = vm({ name: "db" });
export const key = secret("NOPE");
//- /resources/events.ts
import { trigger } from "@hooli/cloud";
export const other = trigger({ path: "/other" });
//           ^^^^^ lockfile bound as cloud.vm
//- /workflows/nightly.ts
export const nightly = async (ctx: any) => ctx.call("data.nope.get", {});
//                                                  ^^^^^^^^^^^^^^^ collection-op
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/infra.ts#gone": { "type": "cloud.vm", "object": "cloud:vm/1" },
  "resources/events.ts#other": { "type": "cloud.vm", "object": "cloud:vm/2" }
//^^^^^^^^^^^^^^^^^^^^^^^^^^^ lockfile bound as cloud.vm
} }
${CLOUD_PACKAGE}`,
  },
  {
    name: "a workflow source that does not parse is a syntax-error; its imports and operation ids are still judged (A11)",
    company: `
//- /sanoma.config.ts
export default {};
//- /apps/a/workflows/w.ts
import { x } from "../../b/lib/x";
//                ^^^^^^^^^^^^^^^ no-cross-app-import
export const w = async (ctx: any) => {
  await ctx.call("data.nope.get", {});
//               ^^^^^^^^^^^^^^^ collection-op
  ctx.
  };
//^ syntax-error Identifier expected
//- /apps/b/lib/x.ts
export const x = 1;
`,
  },
  {
    name: "a library, a scenario, a test or a declaration file that does not parse is not ours to report (A11: the framework does not load them)",
    company: `
//- /sanoma.config.ts
export default {};
//- /lib/util.ts
export const a = (;
//- /scenarios/s.ts
export const s = {;
//- /workflows/w.test.ts
test("x", () => {;
//- /resources/types.d.ts
declare const x: ;
//- /connectors/c.ts
export const c = [;
`,
  },
  {
    name: "a config that does not parse binds nothing that can be known: neither its bindings nor any secret() call is judged (A11)",
    company: `
//- /sanoma.config.ts
export default {
  secrets: { bindings: { PUSH: { host: true }, A: { env: "X", host: true }, B: { env: "X", host: true } } },
  name: "x"
  more: 1,
//^^^^ syntax-error sanoma.config.ts does not parse (',' expected.)
};
//- /resources/infra.ts
import { secret } from "@sanoma-ai/workflows/resources";
export const key = secret("NOT_BOUND");
`,
  },
  {
    name: "files in newer syntax parse: satisfies, optional chaining, private fields, generics, using: nothing to say",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { vm } from "@hooli/cloud";
export const web = vm({ name: "web" } satisfies { name: string });
//- /workflows/w.ts
class Box<T> { #v?: T; get(): T | undefined { return this.#v ?? undefined; } }
export const w = async (ctx: any) => { await using r = ctx?.open?.(); return new Box<number>().get() ?? r?.x; };
${CLOUD_PACKAGE}`,
  },
  {
    name: "the syntax-error is at the first error in the text, not the first the parser reported: a stray backtick's template, unterminated at the file's end, is reported before the `(` it took the place of (A11)",
    company: `
//- /sanoma.config.ts
export default {};
//- /workflows/nightly.ts
export async function nightly\`(ctx: any) {
//                           ^ syntax-error workflows/nightly.ts does not parse ('(' expected.): Sanoma cannot load it
  await ctx.call("data.orders.get", {});
}
`,
  },
  {
    name: "a text nested 3,000 deep is measured past what our tokenizer refuses (a non-ASCII name, a string left open): it does not load; brackets in a string or a template's text are no nesting (A11)",
    company: `
//- /sanoma.config.ts
export default {};
//- /workflows/named.ts
  const café = 1;
//^ syntax-error nested 5,000 brackets deep
export const w = () => ${nest(5000, "café")};
//- /workflows/open.ts
  const s = "left open;
//^ syntax-error nested 5,000 brackets deep
export const w = () => ${nest(5000, "1")};
//- /workflows/strings.ts
const café = 1;
export const s = "${"[".repeat(5000)}";
export const t = \`${"{(".repeat(2500)}\${café}${"[".repeat(10)}\`;
export const r = /[(]{2}/.test(s) ? 1 / café / 2 : café;
`,
  },
];
