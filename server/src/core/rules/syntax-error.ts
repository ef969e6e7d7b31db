/**
 * `syntax-error` (SPEC A11): the config, a data file or a workflow source that does not parse.
 * The framework loads those files by importing them, so a syntax error stops it there. The file is
 * one problem, at its first syntax error; nothing it declares is read by the other rules (see
 * `loadFailure`), while its import sites and operation references are still judged.
 */
import { loadFailure } from "../model.ts";
import type { Rule } from "./rule.ts";

export const rule: Rule = {
  id: "syntax-error",
  severity: "error",
  doc: {
    summary: "The config, a data file or a workflow source does not parse, so Sanoma cannot load it.",
    why: "The framework loads `sanoma.config.ts`, every data file and every workflow source by importing it, and a syntax error stops it there: nothing of the company is planned, applied or run. While a file does not parse, what a parser's recovery makes of it is not what Sanoma would load, so nothing it declares is judged or counted (its declarations, collections, `secret()` calls, the config's bindings) until it parses again; its imports and operation ids, read from the text alone, are still checked. Libraries, scenarios and tests are not loaded by the framework: their syntax errors are the compiler's to report.",
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
