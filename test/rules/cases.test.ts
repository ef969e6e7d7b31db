/**
 * The company model's edge cases, each a fixture company with its problems drawn under the text:
 * nested companies, `node_modules`, test and declaration files, every import form, and resource
 * types reached through aliases, re-exports, namespaces, objects, CommonJS and package `exports`.
 * Run through the same core as `sanoma-check` (the parity test holds the server to it).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { diffExpected, parseFixture, removeFixture, writeFixture } from "../support/fixture.ts";
import { checkDir, toFound } from "../support/check.ts";
import { Workspace } from "../../server/src/core/workspace.ts";
import { nodeFileSystem } from "../../server/src/node/fs.ts";
import { runSteps } from "../../server/src/core/steps.ts";
import { findCompanyRoot } from "../../server/src/core/company.ts";
import { walkReads } from "../../server/src/core/model.ts";
import { readFacts } from "../../server/src/core/facts.ts";
import { exportsTarget } from "../../server/src/core/connectors.ts";
import { CLOUD_PACKAGE } from "../support/companies.ts";
import { join } from "node:path";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";

function check(fixture: string): void {
  const fx = parseFixture(fixture);
  const dir = writeFixture(fx);
  try {
    assert.equal(diffExpected(fx.expected, toFound(dir, checkDir(dir))), "");
  } finally { removeFixture(dir); }
}

const FRAMEWORK = `
//- /node_modules/@sanoma-ai/workflows/package.json
{ "name": "@sanoma-ai/workflows", "exports": { ".": "./index.js", "./resources": "./resources.js", "./data": "./data.js" } }
//- /node_modules/@sanoma-ai/workflows/index.js
export const defineResource = (s) => s;
`;

test("cases: files under node_modules belong to no company and are never reported", () => check(`
//- /sanoma.config.ts
export default {};
//- /node_modules/some-lib/workflows/x.ts
export const x = (ctx: any) => ctx.call("data.nope.get", {});
import { y } from "../../../../outside";
//- /apps/a/node_modules/lib/index.ts
import { z } from "../../../b/thing";
export const q = "data.ghost.list";
`));

test("cases: a company is found for no path inside node_modules, even a package holding its own config (A1)", () => {
  const configs = new Set(["/w", "/w/node_modules/tmpl"]);
  const has = (d: string) => configs.has(d);
  assert.equal(findCompanyRoot("/w/node_modules/tmpl/workflows/a.ts", has), undefined);
  assert.equal(findCompanyRoot("/w/node_modules/tmpl", has, true), undefined);
  assert.equal(findCompanyRoot("/w/workflows/a.ts", has), "/w");
});

test("cases: no company is discovered from a folder inside node_modules, though a package there holds a config (A1)", () => {
  const dir = writeFixture(`
//- /sanoma.config.ts
export default {};
//- /node_modules/tmpl/sanoma.config.ts
export default {};
//- /node_modules/tmpl/workflows/a.ts
export const a = 1;
`);
  try {
    const ws = new Workspace(nodeFileSystem);
    for (const start of ["node_modules", "node_modules/tmpl", "node_modules/tmpl/workflows"]) assert.deepEqual(ws.discoverRoots([join(dir, start)]), [], start);
    assert.deepEqual(ws.discoverRoots([dir]), [dir]);
  } finally { removeFixture(dir); }
});

test("cases: a call whose name is written with escapes is read, once, from the syntax tree", () => {
  const facts = readFacts("/co/resources/data.ts", `import { collection } from "@sanoma-ai/workflows/data";
export const users = c\\u006fll\\u0065ction({ key: "id", fields: { id: "string" } });
const r = r\\u0065q\\u0075ire("../x"), s = [...require(("../y"))];
`);
  assert.equal(facts.collections.length, 1);
  assert.deepEqual(facts.imports.map((i) => i.specifier), ["@sanoma-ai/workflows/data", "../x", "../y"]);
});

test("cases: what a company's walk reads, asked of one path (A3): code files and the root's lockfile, under no skipped folder", () => {
  const reads = (rel: string, exclude?: string[]) => walkReads("/w", `/w/${rel}`, { exclude });
  assert.ok(reads("workflows/a.ts") && reads("apps/b/lib/x.mjs") && reads("sanoma.lock.json") && reads(".eslintrc.js"));
  assert.ok(!reads("workflows/.draft/a.ts"), "a dot folder");
  assert.ok(!reads("lib/node_modules/p/index.js"), "node_modules");
  assert.ok(!reads("notes.md") && !reads("apps/b/sanoma.lock.json") && !reads("package.json"), "no code file, or a lockfile off the root");
  assert.ok(!reads("generated/x.ts", ["generated"]) && !reads("apps/b/gen/x.ts", ["apps/b/gen"]) && reads("apps/b/gen/x.ts", ["gen/x"]), "excluded by name or by path");
  assert.ok(!walkReads("/w", "/elsewhere/a.ts"), "outside the company");
});

test("cases: a nested company is judged by its own root; the outer company does not see into it", () => check(`
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
`));

test("cases: test, spec and declaration files are not workflow sources or data files, but their imports and op ids are checked", () => check(`
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
${FRAMEWORK}`));

test("cases: every import form is judged, type-only ones too", () => check(`
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
`));

test("cases: data files take secret and sanoma only from /resources, and import no workflow or scenario by path", () => check(`
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
`));

test("cases: an import that takes helpers or `collection` from the wrong module is one problem at its specifier, naming each helper once", () => {
  const dir = writeFixture(`
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { sanoma, secret, secret as s2, defineResource } from "@sanoma-ai/workflows";
import {
  secret as s3,
} from "@sanoma-ai/workflows/runtime";
//- /resources/data.ts
import { collection, collection as c2 } from "@sanoma-ai/workflows";
`);
  try {
    const ws = new Workspace(nodeFileSystem);
    const [root] = ws.discoverRoots([dir]);
    ws.loadCompany(root);
    const seen = ws.check(root).problems
      .filter((p) => p.rule === "data-file-imports" || p.rule === "collection-import")
      .map((p) => `${p.file.slice(root.length + 1)}:${p.range.start.line + 1}:${p.range.start.character + 1} ${p.rule} ${p.message}`)
      .sort();
    assert.deepEqual(seen, [
      'resources/data.ts:1:46 collection-import `collection` comes from "@sanoma-ai/workflows/data", not "@sanoma-ai/workflows"',
      'resources/infra.ts:1:62 data-file-imports A data file takes `sanoma` and `secret` from "@sanoma-ai/workflows/resources", not "@sanoma-ai/workflows"',
      'resources/infra.ts:4:8 data-file-imports A data file takes `secret` from "@sanoma-ai/workflows/resources", not "@sanoma-ai/workflows/runtime"',
    ]);
  } finally { removeFixture(dir); }
});

/** The resolved type of each declaration of a fixture company: proves a silent declaration was understood, not skipped. */
function typesOf(fixture: string): Record<string, string | undefined> {
  const dir = writeFixture(fixture);
  try {
    const ws = new Workspace(nodeFileSystem);
    const [root] = ws.discoverRoots([dir]);
    ws.loadCompany(root);
    return Object.fromEntries(ws.check(root).analysis.declarations.map((d) => [d.fact.exportName, d.type?.id]));
  } finally { removeFixture(dir); }
}

const THROUGH_EVERY_FORM = `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { vm as machine, cloud } from "@x/esm";
import * as ns from "@x/esm";
import cjs from "@x/cjs";
import { queue } from "@x/cjs";
import { db } from "@x/conditions";
import { sub } from "@x/esm/sub";
export const a = machine({ name: "a" });
export const b = cloud.machine({ nam: "b" });
//                               ^^^ resource-fields
//           ^ resource-fields
export const c = ns.vm({ name: "c", extra: 1 });
//                                  ^^^^^ resource-fields
export const d = cjs.queue({ name: "d" });
export const e = queue({ size: 2 });
//           ^ resource-fields
export const f = db({ name: "f" });
export const g = sub({ name: "g" });
export const h = ns.deep({ name: "h" });
export const i = ns.vmm({ name: "i" });
//                  ^^^ resource-type
//- /node_modules/@x/esm/package.json
{ "name": "@x/esm", "type": "module", "exports": { ".": "./lib/index.js", "./sub": { "types": "./sub.d.ts", "default": "./lib/sub.js" } } }
//- /node_modules/@x/esm/lib/index.js
export { machine as vm } from "./machine.js";
export * from "./deep.js";
import { machine } from "./machine.js";
export const cloud = { machine };
//- /node_modules/@x/esm/lib/machine.js
import { defineResource } from "@sanoma-ai/workflows";
export const machine = defineResource({ vendor: "x", type: "vm", title: "VM", schema: z.object({ name: z.string() }), fields: {}, writable: true });
//- /node_modules/@x/esm/lib/deep.js
export * from "./deeper.js";
//- /node_modules/@x/esm/lib/deeper.js
import { defineResource } from "@sanoma-ai/workflows";
export const deep = defineResource({ vendor: "x", type: "deep", title: "Deep", schema: z.object({ name: z.string() }), fields: {}, writable: true });
//- /node_modules/@x/esm/lib/sub.js
import { defineResource } from "@sanoma-ai/workflows";
export const sub = defineResource({ vendor: "x", type: "sub", title: "Sub", schema: z.object({ name: z.string() }), fields: {}, writable: true });
//- /node_modules/@x/cjs/package.json
{ "name": "@x/cjs", "main": "main.cjs" }
//- /node_modules/@x/cjs/main.cjs
const { defineResource } = require("@sanoma-ai/workflows");
const queue = defineResource({ vendor: "x", type: "queue", title: "Q", schema: z.object({ name: z.string(), size: z.number().optional() }), fields: {}, writable: true });
module.exports = { queue };
//- /node_modules/@x/conditions/package.json
{ "name": "@x/conditions", "exports": { ".": { "types": "./types.d.ts", "node": "./node.cjs", "import": "./esm.mjs", "default": "./missing.js" } } }
//- /node_modules/@x/conditions/esm.mjs
import { defineResource } from "@sanoma-ai/workflows";
export const db = defineResource({ vendor: "x", type: "db", title: "DB", schema: z.object({ name: z.string() }), fields: {}, writable: true, database: {} });
//- /node_modules/@x/conditions/node.cjs
exports.db = require("@sanoma-ai/workflows").defineResource({ vendor: "x", type: "db-node", title: "DB", schema: z.object({ other: z.string() }), fields: {}, writable: true });
${FRAMEWORK}`;

test("cases: resource types through aliases, namespaces, objects, export *, CommonJS and package exports conditions", () => {
  check(THROUGH_EVERY_FORM);
  assert.deepEqual(typesOf(THROUGH_EVERY_FORM), { a: "x.vm", b: "x.vm", c: "x.vm", d: "x.queue", e: "x.queue", f: "x.db", g: "x.sub", h: "x.deep", i: undefined });
});

test("cases: what is not a declaration says nothing — helpers, framework calls, unreadable modules, more than 8 hops", () => check(`
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { helper } from "./helpers";
import { far } from "@x/far";
import { gone } from "@x/not-installed";
import { secret } from "@sanoma-ai/workflows/resources";
export const a = helper({ anything: 1 });
export const b = gone({ anything: 1 });
export const c = far({ anything: 1 });
export const d = secret("NOPE");
//                      ^^^^^^ secret-bindings
const local = helper({ x: 1 });
export const e = local;
//- /resources/helpers.ts
export const helper = (x: unknown) => x;
//- /node_modules/@x/far/package.json
{ "name": "@x/far", "main": "h1.js" }
//- /node_modules/@x/far/h1.js
export * from "./h2.js";
//- /node_modules/@x/far/h2.js
export * from "./h3.js";
//- /node_modules/@x/far/h3.js
export * from "./h4.js";
//- /node_modules/@x/far/h4.js
export * from "./h5.js";
//- /node_modules/@x/far/h5.js
export * from "./h6.js";
//- /node_modules/@x/far/h6.js
export * from "./h7.js";
//- /node_modules/@x/far/h7.js
export * from "./h8.js";
//- /node_modules/@x/far/h8.js
export * from "./h9.js";
//- /node_modules/@x/far/h9.js
export * from "./h10.js";
//- /node_modules/@x/far/h10.js
import { defineResource } from "@sanoma-ai/workflows";
export const far = defineResource({ vendor: "x", type: "far", title: "Far", schema: z.object({ name: z.string() }), fields: {}, writable: true });
${FRAMEWORK}`));

test("cases: operation ids are whole-string literals; specifiers, substitutions and longer paths are not", () => check(`
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const people = collection({ name: "users", key: "id", fields: { id: "string" } });
//- /workflows/w.ts
import x from "data.users.nope";
const ok = ["data.users.saveMany", \`data.users.count\`, 'data.users.delete'];
const bad = [\`data.people.get\`, "data.users.upsert"];
//           ^^^^^^^^^^^^^^^^^ collection-op
//                              ^^^^^^^^^^^^^^^^^^^ collection-op
const notRefs = ["data.users.get.more", "data.users", \`data.\${x}.get\`, "xdata.users.nope", "data.users.nope "];
export const w = () => [ok, bad, notRefs];
`));

test("cases: a lockfile binding into a data file with syntax errors is not an orphan; into a missing file it is", () => check(`
//- /sanoma.config.ts
export default {};
//- /resources/broken.ts
export const web = vm({ name: "web" ;;;
//                                  ^ syntax-error resources/broken.ts does not parse (',' expected.): Sanoma cannot load it
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/broken.ts#web": { "type": "x.vm", "object": "x:1" },
  "resources/gone.ts#web": { "type": "x.vm", "object": "x:2" }
//^^^^^^^^^^^^^^^^^^^^^^^ lockfile is no file of this company
} }
`));

test("cases: a link to a folder of the company is not followed: each file is read by its own path, with its own role (res-alias -> resources hid resources/data.ts)", () => {
  const fx = parseFixture(`
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const orders = collection({ key: "id", fields: { id: "string" } });
//- /workflows/w.ts
export const w = (ctx: any) => ctx.call("data.orders.get", {});
`);
  const dir = writeFixture(fx);
  try {
    // Named to come first in the walk's order, as the reviewer's did.
    symlinkSync("resources", join(dir, "a-alias"));
    symlinkSync("../resources", join(dir, "workflows", "res"));
    assert.deepEqual(checkDir(dir).map((p) => `${p.file} ${p.rule}`), []);
    const ws = new Workspace(nodeFileSystem);
    assert.ok(ws.reads(dir, join(dir, "resources/data.ts")));
    assert.ok(!ws.reads(dir, join(dir, "a-alias/data.ts")), "a path through the link is not the company's");
    assert.ok(ws.reads(dir, join(dir, "workflows/new/x.ts")), "a folder not on disk yet: judged by its path");
  } finally { removeFixture(dir); }
});

test("cases: a file saved with a byte order mark is read without it: its first line's columns are the editor's", () => {
  const fx = parseFixture(`
//- /sanoma.config.ts
export default {};
//- /workflows/a.ts
export const a = (ctx: any) => ctx.call("data.nope.get", {});
`);
  const dir = writeFixture(fx);
  try {
    const file = join(dir, "workflows/a.ts");
    writeFileSync(file, "\uFEFF" + readFileSync(file, "utf8"));
    const found = checkDir(dir).filter((p) => p.rule === "collection-op");
    assert.deepEqual(found.map((p) => [p.range.start.line, p.range.start.character, p.range.end.character]), [[0, 40, 55]]);
  } finally { removeFixture(dir); }
});

test("cases: a binding into a data file with syntax errors shares no object: nothing is said of its bindings (A6)", () => check(`
//- /sanoma.config.ts
export default {};
//- /resources/broken.ts
export const x = vm({ name: "x" ;
//                              ^ syntax-error
//- /resources/ok.ts
import { vm } from "@x/cloud";
export const a = vm({ name: "a" });
export const b = vm({ name: "b" });
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/ok.ts#a": { "type": "x.vm", "object": "o:1" },
  "resources/broken.ts#x": { "type": "x.vm", "object": "o:1" },
  "resources/ok.ts#b": { "type": "x.vm", "object": "o:2" },
//^^^^^^^^^^^^^^^^^^^ lockfile is bound 2 times
  "resources/gone.ts#c": { "type": "x.vm", "object": "o:2" }
//^^^^^^^^^^^^^^^^^^^^^ lockfile is no file of this company
//^^^^^^^^^^^^^^^^^^^^^ lockfile is bound 2 times
} }
//- /node_modules/@x/cloud/package.json
{ "name": "@x/cloud", "main": "index.js" }
//- /node_modules/@x/cloud/index.js
export const vm = defineResource({ vendor: "x", type: "vm", schema: z.object({ name: z.string() }) });
`));

test("cases: an orphan binding's message says what is wrong with its key: not a declaration id, no such file, or no such export (A3, A6)", () => check(`
//- /sanoma.config.ts
export default { secrets: { bindings: { A: { env: "A", host: true }, B: { env: "A", host: true }, C: { env: "A", host: true } } } };
//                                      ^ secret-bindings \`A\`, \`B\` and \`C\` all give the hosts the variable A
//                                                                   ^ secret-bindings all give
//                                                                                                ^ secret-bindings all give
//- /resources/wake.ts
import { vm } from "@x/cloud";
export const a = vm({ name: "a" });
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/wake.ts#a": { "type": "x.vm", "object": "o:1" },
  "resources/wake.ts": { "type": "x.vm", "object": "o:2" },
//^^^^^^^^^^^^^^^^^^^ lockfile \`resources/wake.ts\` is no declaration id
  "/resources/wake.ts#a": { "type": "x.vm", "object": "o:3" },
//^^^^^^^^^^^^^^^^^^^^^^ lockfile \`/resources/wake.ts#a\` is no declaration id
  "resources/./wake.ts#a": { "type": "x.vm", "object": "o:4" },
//^^^^^^^^^^^^^^^^^^^^^^^ lockfile is no declaration id
  "resources\\\\wake.ts#a": { "type": "x.vm", "object": "o:5" },
//^^^^^^^^^^^^^^^^^^^^^^ lockfile is no declaration id
  "resources/wake.ts#b": { "type": "x.vm", "object": "o:6" },
//^^^^^^^^^^^^^^^^^^^^^ lockfile resources/wake.ts declares no \`b\`
  "resources/gone.ts#a": { "type": "x.vm", "object": "o:7" }
//^^^^^^^^^^^^^^^^^^^^^ lockfile resources/gone.ts is no file of this company
} }
//- /node_modules/@x/cloud/package.json
{ "name": "@x/cloud", "main": "index.js" }
//- /node_modules/@x/cloud/index.js
export const vm = defineResource({ vendor: "x", type: "vm", schema: z.object({ name: z.string() }) });
`));

test("cases: a binding of another shape is said where it goes wrong, each of them; the other bindings are still judged (A6: at the offending place)", () => check(`
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { vm } from "@x/cloud";
export const a = vm({ name: "a" });
export const b = vm({ name: "b" });
export const c = vm({ name: "c" });
export const d = vm({ name: "d" });
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/infra.ts#a": { "type": "x.vm", "object": "o:1" },
//^^^^^^^^^^^^^^^^^^^^^^ lockfile is bound 2 times
  "resources/infra.ts#b": { "type": 5, "object": "o:2" },
//                                  ^ lockfile binds resources/infra.ts#b in another shape at \`type\`
  "resources/infra.ts#c": { "type": "x.vm", "object": ["o:3"] },
//                                                    ^^^^^^^ lockfile in another shape at \`object\`
  "resources/infra.ts#d": "o:4",
//                        ^^^^^ lockfile in another shape
  "resources/infra.ts#e": { "type": "x.vm", "object": "o:1" }
//^^^^^^^^^^^^^^^^^^^^^^ lockfile declares no \`e\`
//^^^^^^^^^^^^^^^^^^^^^^ lockfile is bound 2 times
} }
//- /node_modules/@x/cloud/package.json
{ "name": "@x/cloud", "main": "index.js" }
//- /node_modules/@x/cloud/index.js
export const vm = defineResource({ vendor: "x", type: "vm", schema: z.object({ name: z.string() }) });
`));

test("cases: a lockfile binding into a data file with syntax errors is not judged for its type either; a type id that is not literal is unknown, not different (A6)", () => check(`
//- /sanoma.config.ts
export default {};
//- /resources/broken.ts
import { box } from "@x/cloud";
export const web = box({ name: "web" });
export const oops = box({ name: "x" }
  export const after = 1;
//^^^^^^ syntax-error ',' expected
//- /resources/ok.ts
import { vm, box } from "@x/cloud";
export const api = vm({ name: "api" });
export const bin = box({ name: "bin" });
//           ^^^ lockfile bound as x.vm
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/broken.ts#web": { "type": "x.bucket", "object": "o:1" },
  "resources/ok.ts#api": { "type": "x.vm", "object": "o:2" },
  "resources/ok.ts#bin": { "type": "x.vm", "object": "o:3" }
//^^^^^^^^^^^^^^^^^^^^^ lockfile bound as x.vm
} }
//- /node_modules/@x/cloud/package.json
{ "name": "@x/cloud", "main": "index.js" }
//- /node_modules/@x/cloud/index.js
const VENDOR = "x";
export const vm = defineResource({ vendor: VENDOR, type: "vm", schema: z.object({ name: z.string() }) });
export const box = defineResource({ vendor: "x", type: "box", schema: z.object({ name: z.string() }) });
`));

test("cases: a type mismatch carries its fix at both places it is said: the binding and the declaration, each editing the lockfile's type", () => {
  const fx = parseFixture(`
//- /sanoma.config.ts
export default {};
//- /resources/ok.ts
import { box } from "@x/cloud";
export const bin = box({ name: "bin" });
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/ok.ts#bin": { "type": "x.vm", "object": "o:3" }
} }
//- /node_modules/@x/cloud/package.json
{ "name": "@x/cloud", "main": "index.js" }
//- /node_modules/@x/cloud/index.js
export const box = defineResource({ vendor: "x", type: "box", schema: z.object({ name: z.string() }) });
`);
  const dir = writeFixture(fx);
  try {
    const mismatch = checkDir(dir).filter((p) => p.rule === "lockfile");
    assert.deepEqual(mismatch.map((p) => p.file.slice(dir.length + 1)).sort(), ["resources/ok.ts", "sanoma.lock.json"]);
    for (const p of mismatch) {
      assert.equal(p.fixes?.length, 1, p.file);
      const edit = p.fixes![0].edits[0];
      assert.deepEqual([p.fixes![0].title, edit.file, edit.newText, edit.range.start.line], [`Change to "x.box"`, join(dir, "sanoma.lock.json"), `"x.box"`, 1], p.file);
    }
  } finally { removeFixture(dir); }
});

test("cases: in a lockfile written one field a line, every binding problem is at the binding's key; a key written twice is said and hides no other problem (A6, B1)", () => check(`
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { vm, box } from "@x/cloud";
export const web = vm({ name: "web" });
export const api = vm({ name: "api" });
export const bin = box({ name: "bin" });
//           ^^^ lockfile bound as x.vm
//- /sanoma.lock.json
{
  "version": 1,
  "bindings": {
    "resources/infra.ts#web": {
//  ^^^^^^^^^^^^^^^^^^^^^^^^ lockfile is bound 2 times
      "type": "x.vm",
      "object": "o:1"
    },
    "resources/infra.ts#api": {
      "type": "x.vm",
      "object": "o:2"
    },
    "resources/infra.ts#api": {
//  ^^^^^^^^^^^^^^^^^^^^^^^^ lockfile binds resources/infra.ts#api twice (first on line 8)
//  ^^^^^^^^^^^^^^^^^^^^^^^^ lockfile is bound 2 times
      "type": "x.vm",
      "object": "o:1"
    },
    "resources/infra.ts#bin": {
//  ^^^^^^^^^^^^^^^^^^^^^^^^ lockfile bound as x.vm
      "type": "x.vm",
      "object": "o:3"
    },
    "resources/infra.ts#gone": {
//  ^^^^^^^^^^^^^^^^^^^^^^^^^ lockfile declares no
      "type": "x.vm",
      "object": "o:4"
    }
  }
}
//- /node_modules/@x/cloud/package.json
{ "name": "@x/cloud", "main": "index.js" }
//- /node_modules/@x/cloud/index.js
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const vm = defineResource({ vendor: "x", type: "vm", schema: z.object({ name: z.string() }) });
export const box = defineResource({ vendor: "x", type: "box", schema: z.object({ name: z.string() }) });
`));

test("cases: secret bindings after a spread or an unreadable computed name are still judged; those before it may be overridden, and any name may be bound (A7)", () => check(`
//- /sanoma.config.ts
import { shared, KEY_NAME } from "./lib/secrets";
export default {
  secrets: {
    bindings: {
      EARLY: { host: true },
      [KEY_NAME]: { env: "K" },
      MIDDLE: { host: true },
      ...shared,
      PUSH: { host: true },
//    ^^^^ secret-bindings
      A: { env: "SAME", host: true },
//    ^ secret-bindings
      B: { env: "SAME", host: true },
//    ^ secret-bindings
    },
  },
};
//- /lib/secrets.ts
export const shared = {};
export const KEY_NAME = "K";
//- /resources/infra.ts
import { secret } from "@sanoma-ai/workflows/resources";
export const k = secret("WHATEVER_THE_SPREAD_HOLDS");
`));

test("cases: a declaration is an exported const; an exported let or var calling a resource type declares nothing, and its lock binding is an orphan (A5, A6)", () => check(`
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { vm } from "@x/cloud";
export let web = vm({ nmae: "web" });
export var api = vm({ nmae: "api" });
export const db = vm({ nmae: "db" });
//                     ^^^^ resource-fields is not a field
//           ^^ resource-fields lacks the required field
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/infra.ts#web": { "type": "x.vm", "object": "o:1" },
//^^^^^^^^^^^^^^^^^^^^^^^^ lockfile declares no
  "resources/infra.ts#db": { "type": "x.vm", "object": "o:2" }
} }
//- /node_modules/@x/cloud/package.json
{ "name": "@x/cloud", "main": "index.js" }
//- /node_modules/@x/cloud/index.js
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const vm = defineResource({ vendor: "x", type: "vm", schema: z.object({ name: z.string() }) });
`));

test("cases: a type's flags held in top-level consts are read as their values (A4: the definition rules and the contracts read the same flags)", () => check(`
//- /sanoma.config.ts
export default {};
//- /connectors/local.ts
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
const spec = { image: "ubuntu" };
const sandbox = { image: "debian" };
const OFF = false;
const YES = true;
export const box = defineResource({ vendor: "local", type: "box", title: "Box", schema: z.object({}), fields: {}, sandbox: spec });
//                                                                                                                ^^^^^^^ resource-type-spec a sandbox type is writable
export const box2 = defineResource({ vendor: "local", type: "box2", title: "Box", schema: z.object({}), fields: {}, sandbox });
//                                                                                                                  ^^^^^^^ resource-type-spec a sandbox type is writable
export const db = defineResource({ vendor: "local", type: "db", title: "DB", schema: z.object({}), fields: {}, database: OFF });
export const none = defineResource({ vendor: "local", type: "none", title: "None", schema: z.object({}), fields: {}, vendorless: YES, writable: true });
//                                                                                                                   ^^^^^^^^^^ resource-type-spec a vendorless type
`));

test("cases: collection taken from any module but @sanoma-ai/workflows/data is a problem, a library's own or a helper's (A8: 'from anywhere but'); other names from them are not", () => check(`
//- /sanoma.config.ts
export default {};
//- /workflows/sync.ts
import { collection, doc } from "firebase/firestore";
//                              ^^^^^^^^^^^^^^^^^^^^ collection-import
import { doc as d2, getDoc } from "firebase/firestore";
const { collection: c } = require("./helpers");
//                                ^^^^^^^^^^^ collection-import
export const w = [collection, doc, d2, getDoc, c];
//- /workflows/helpers.ts
export const collection = 1;
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
import { collection as fire } from "firebase/firestore";
//                                 ^^^^^^^^^^^^^^^^^^^^ collection-import
export const items = collection({ key: "id", fields: { id: "string" } });
`));

test("cases: an operation id is read by its value: written with escapes, anywhere in it, it is one (A8: its whole text)", () => check(`
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const subjects = collection({ key: "id", fields: { id: "string" } });
//- /workflows/escapes.ts
export const refs = [
  "data.subjects.n\\x6fpe",
//^^^^^^^^^^^^^^^^^^^^^^^ collection-op
  "\\x64ata.subjects.nope",
//^^^^^^^^^^^^^^^^^^^^^^^ collection-op
  "data\\u002esubjects\\u002enope",
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ collection-op
  \`\\u0064ata.subjects.nope\`,
//^^^^^^^^^^^^^^^^^^^^^^^^^ collection-op
  "\\x64ata.subjects.get",
  "dat\\na.subjects.get",
];
`));

test("cases: module names are no operation references, in declare module blocks too (A8)", () => check(`
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const subjects = collection({ key: "id", fields: { id: "string" } });
//- /workflows/ambient.d.ts
declare module "data.subjects.nope1" {
  export * from "data.subjects.nope2";
  export { Missing } from "data.subjects.nope3";
  import type { Other } from "data.subjects.nope4";
  import "data.subjects.nope5";
  import x = require("data.subjects.nope6");
  export type T = import("data.subjects.nope7").T;
}
//- /workflows/use.ts
export const w = (ctx: any) => ctx.call("data.subjects.nope", {});
//                                      ^^^^^^^^^^^^^^^^^^^^ collection-op
`));

test("cases: a config read through top-level consts, with shorthand and computed binding names (A3, A7)", () => check(`
//- /sanoma.config.ts
import { defineConfig } from "@sanoma-ai/workflows";
const CLOUD_KEY = { env: "CLOUD_KEY" };
const bindings = { CLOUD_KEY, ["SIGNING"]: { bootstrap: true }, PUSH: { host: true } };
//                                                              ^^^^ secret-bindings
const config = defineConfig({ name: "acme", secrets: { bindings } });
export default config;
//- /resources/infra.ts
import { secret } from "@sanoma-ai/workflows/resources";
export const k = secret("CLOUD_KEY");
export const s = secret("SIGNING");
export const m = secret("MISSING");
//                      ^^^^^^^^^ secret-bindings
`));

test("cases: a binding name computed from anything but a literal makes the bindings unknown: no call is said to lack one", () => check(`
//- /sanoma.config.ts
const NAME = process.env.N!;
export default { secrets: { bindings: { [NAME]: { env: "X" } } } };
//- /resources/infra.ts
import { secret } from "@sanoma-ai/workflows/resources";
export const m = secret("ANYTHING");
`));

test("cases: a file directly in apps/ is no app: an app may import it, without extension too (it is what apps/shared resolves to), the root scope may not (A2, A9)", () => check(`
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
`));

test("cases: objects wrapped in as const, parentheses or satisfies are read as they are; a key named like an Object member is no field (A4, A5, A8)", () => check(`
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { vm } from "@x/cloud";
export const a = vm({ name: "a", bogus: 1 } as const);
//                               ^^^^^ resource-fields
export const b = vm(({ bogus: 1 }));
//           ^ resource-fields lacks the required field
//                     ^^^^^ resource-fields
export const c = vm({ zone: "x" } satisfies object);
//           ^ resource-fields lacks the required field
export const d = vm({ name: "d", constructor: 1, toString: "x" });
//                               ^^^^^^^^^^^ resource-fields
//                                               ^^^^^^^^ resource-fields
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const people = collection({ name: "users", key: "token", fields: { id: "string" } } as const);
//                                                     ^^^^^^^ collection-key
//- /workflows/w.ts
export const ops = ["data.users.get", "data.people.get"];
//                                    ^^^^^^^^^^^^^^^^^ collection-op
//- /node_modules/@x/cloud/package.json
{ "name": "@x/cloud", "main": "index.js" }
//- /node_modules/@x/cloud/index.js
export const vm = defineResource({ vendor: "x", type: "vm", schema: z.object({ name: z.string(), zone: z.string().optional() } as const) } as const);
`));

test("cases: a data file may import what no walk reads as a workflow source or scenario file: other extensions, dot folders, node_modules (A3, A9)", () => check(`
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
`));

test("cases: collection() and secret() on a framework namespace count, secret() on any namespace too (A7: wherever it was imported from); a local that shadows the import does not (A7, A8)", () => check(`
//- /sanoma.config.ts
export default { secrets: { bindings: { TOKEN: { env: "TOKEN" } } } };
//- /resources/data.ts
import * as d from "@sanoma-ai/workflows/data";
export const orders = d.collection({ key: "sku", fields: { id: "string" } });
//                                        ^^^^^ collection-key
//- /resources/infra.ts
import { secret } from "@sanoma-ai/workflows/resources";
import * as res from "@sanoma-ai/workflows/resources";
export const k = secret("TOKEN");
export const n = res.secret("MISSING_NS");
//                          ^^^^^^^^^^^^ secret-bindings
export const hooks = [1].map(() => { const secret = (x: string) => x; return secret("not-a-secret"); });
export const more = (secret: (x: string) => string) => secret("param");
export const last = secret("MISSING");
//                         ^^^^^^^^^ secret-bindings
//- /resources/more.ts
import * as helpers from "../lib/helpers";
export const viaHelpers = helpers.secret("MISSING_HELPER");
//                                       ^^^^^^^^^^^^^^^^ secret-bindings
export const other = helpers.collection({ key: "id", fields: { id: "string" } });
//- /lib/helpers.ts
export { secret } from "@sanoma-ai/workflows/resources";
export const collection = (x: unknown) => x;
//- /workflows/w.ts
import * as data from "@sanoma-ai/workflows/data";
export const cache = data.collection({ key: "id", fields: { id: "string" } });
//                   ^^^^^^^^^^^^^^^ collection-file
export async function w(ctx: any) { await ctx.call("data.orders.get", {}); }
`));

test("cases: a pnpm install: a package's own dependencies are found beside its real folder, as Node finds them (A4)", () => {
  const fx = parseFixture(`
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { vm } from "@acme/cloud";
export const web = vm({ name: "web", bogus: 1 });
//                                   ^^^^^ resource-fields
//- /node_modules/.pnpm/@acme+cloud@1.0.0/node_modules/@acme/cloud/package.json
{ "name": "@acme/cloud", "main": "index.js" }
//- /node_modules/.pnpm/@acme+cloud@1.0.0/node_modules/@acme/cloud/index.js
export { vm } from "@acme/cloud-core";
//- /node_modules/.pnpm/@acme+cloud-core@1.0.0/node_modules/@acme/cloud-core/package.json
{ "name": "@acme/cloud-core", "main": "index.js" }
//- /node_modules/.pnpm/@acme+cloud-core@1.0.0/node_modules/@acme/cloud-core/index.js
export const vm = defineResource({ vendor: "cloud", type: "vm", schema: z.object({ name: z.string() }) });
`);
  const dir = writeFixture(fx);
  try {
    mkdirSync(join(dir, "node_modules/@acme"));
    symlinkSync("../.pnpm/@acme+cloud@1.0.0/node_modules/@acme/cloud", join(dir, "node_modules/@acme/cloud"));
    symlinkSync("../../../@acme+cloud-core@1.0.0/node_modules/@acme/cloud-core", join(dir, "node_modules/.pnpm/@acme+cloud@1.0.0/node_modules/@acme/cloud-core"));
    assert.equal(diffExpected(fx.expected, toFound(dir, checkDir(dir))), "");
  } finally { removeFixture(dir); }
});

test("cases: a member or export this reading cannot see (a spread, an export * of a module that cannot be read) is unknown, not missing (A5)", () => check(`
//- /sanoma.config.ts
export default { secrets: { bindings: { KEY: { env: "KEY" } } } };
//- /resources/infra.ts
import { fly } from "../conn/index";
import { secret, vm } from "../lib/sanoma";
export const a = fly.vm({ name: "a" });
export const b = fly.machine({ name: "b", bogus: 1 });
//                                        ^^^^^ resource-fields
export const c = fly.nope({ name: "c" });
//                   ^^^^ resource-type
export const key = secret("KEY");
export const web = vm({ name: "web" });
//- /lib/sanoma.ts
export * from "@sanoma-ai/workflows/resources";
export * from "../conn/compute";
//- /conn/index.ts
import * as compute from "./compute";
import { machine } from "./machine";
export const fly = { ...compute, machine };
export const other = { machine };
//- /conn/compute.ts
export const vm = defineResource({ vendor: "fly", type: "vm", schema: z.object({ name: z.string() }) });
//- /conn/machine.ts
export const machine = defineResource({ vendor: "fly", type: "machine", schema: z.object({ name: z.string() }) });
//- /resources/more.ts
import { other } from "../conn/index";
export const d = other.vm({ name: "d" });
//                     ^^ resource-type
`));

test("cases: a type reached through members of members, a bracketed member or a parenthesized callee is a type (A4: a namespace import and a member, an object whose property is a type)", () => check(`
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import * as conn from "../conn/index";
import { fly, machine } from "../conn/index";
export const a = conn.fly.machine({ name: "a", bogus: 1 });
//                                             ^^^^^ resource-fields
export const b = fly["machine"]({ name: "b", bogus: 1 });
//                                           ^^^^^ resource-fields
export const c = (machine)({ name: "c", bogus: 1 });
//                                      ^^^^^ resource-fields
export const d = (conn.fly as any).machine({ name: "d", bogus: 1 });
//                                                      ^^^^^ resource-fields
export const e = conn.fly.nope({ name: "e" });
//                        ^^^^ resource-type
export const f = conn.helpers.format({ name: "f" });
export const g = conn.fly.machine.name({});
//- /conn/index.ts
import { machine } from "./machine";
export { machine };
export const fly = { machine };
export const helpers = { format: (x: unknown) => x };
//- /conn/machine.ts
export const machine = defineResource({ vendor: "fly", type: "machine", schema: z.object({ name: z.string() }) });
`));

test("cases: defineResource imported under another name, and called as tsc compiles it to CommonJS, defines a type (A4)", () => check(`
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { vm } from "@acme/alias";
import { job } from "@acme/cjs";
export const web = vm({ name: "web", bogus: 1 });
//                                   ^^^^^ resource-fields
export const j = job({ name: "j", bogus: 1 });
//                                ^^^^^ resource-fields
//- /node_modules/@acme/alias/package.json
{ "name": "@acme/alias", "main": "index.js" }
//- /node_modules/@acme/alias/index.js
import { defineResource as define } from "@sanoma-ai/workflows";
import { z } from "zod";
export const vm = define({ vendor: "alias", type: "vm", schema: z.object({ name: z.string() }) });
//- /node_modules/@acme/cjs/package.json
{ "name": "@acme/cjs", "main": "dist/index.js" }
//- /node_modules/@acme/cjs/dist/index.js
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.job = void 0;
const workflows_1 = require("@sanoma-ai/workflows");
const zod_1 = require("zod");
exports.job = (0, workflows_1.defineResource)({ vendor: "cjs", type: "job", schema: zod_1.z.object({ name: zod_1.z.string() }) });
`));

test("cases: a package's exports patterns: the most specific one wins, as in Node, not the first written (A4)", () => {
  assert.equal(exportsTarget({ "./*": "./wrong/*.js", "./types/*": "./src/*.js" }, "./types/c"), "./src/c.js");
  assert.equal(exportsTarget({ "./types/*": "./src/*.js", "./*": "./wrong/*.js" }, "./types/c"), "./src/c.js");
  assert.equal(exportsTarget({ "./*": "./all/*.js" }, "./x/y"), "./all/x/y.js");
  assert.equal(exportsTarget({ "./a/*.js": "./long/*.js", "./a/*": "./short/*" }, "./a/b.js"), "./long/b.js");
  assert.equal(exportsTarget({ "./types/*": "./src/*.js" }, "./other"), undefined);
});

test("cases: a collection declared by a const and exported by name is the export's (A8)", () => check(`
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
const orders = collection({ key: "id", fields: { id: "string" } });
const items = collection({ key: "sku", fields: { id: "string" } });
//                              ^^^^^ collection-key
const hidden = collection({ key: "id", fields: { id: "string" } });
export { orders, items as lineItems };
//- /workflows/w.ts
export const ops = ["data.orders.get", "data.lineItems.list", "data.items.get", "data.hidden.get"];
//                                                            ^^^^^^^^^^^^^^^^ collection-op
//                                                                              ^^^^^^^^^^^^^^^^^ collection-op
`));

test("cases: a CommonJS module whose module.exports is a type is that type when required or imported by default (A4)", () => check(`
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { vm } from "cjs-b";
import single from "cjs-single";
export const x3 = vm({ name: "x", bogus: 1 });
//                                ^^^^^ resource-fields
export const x5 = single({ name: "x", bogus: 1 });
//                                    ^^^^^ resource-fields
//- /node_modules/cjs-b/package.json
{ "name": "cjs-b", "main": "index.js" }
//- /node_modules/cjs-b/index.js
module.exports = { vm: require("./vm") };
//- /node_modules/cjs-b/vm.js
const { defineResource } = require("@sanoma-ai/workflows");
const { z } = require("zod");
module.exports = defineResource({ vendor: "cb", type: "vm", schema: z.object({ name: z.string() }) });
//- /node_modules/cjs-single/package.json
{ "name": "cjs-single", "main": "index.js" }
//- /node_modules/cjs-single/index.js
const { defineResource } = require("@sanoma-ai/workflows");
const { z } = require("zod");
module.exports = defineResource({ vendor: "cs", type: "one", schema: z.object({ name: z.string() }) });
`));

test("cases: a package's imports (#name) are resolved as Node resolves them, patterns too (A4)", () => check(`
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { d, e } from "p-imports";
export const x = d({ bogus: 1 });
//                   ^^^^^ resource-fields
export const y = e({ bogus: 1 });
//                   ^^^^^ resource-fields
//- /node_modules/p-imports/package.json
{ "name": "p-imports", "type": "module", "main": "index.js", "imports": { "#defs": "./lib/defs.js", "#more/*": { "import": "./lib/*.js" } } }
//- /node_modules/p-imports/index.js
export { d } from "#defs";
export { e } from "#more/e";
//- /node_modules/p-imports/lib/defs.js
export const d = defineResource({ vendor: "p", type: "d", schema: z.object({}) });
//- /node_modules/p-imports/lib/e.js
export const e = defineResource({ vendor: "p", type: "e", schema: z.object({}) });
`));

test("cases: an operation id's names may be any script's letters (A8)", () => check(`
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const commandés = collection({ key: "id", fields: { id: "string" } });
//- /workflows/w.ts
export const ops = ["data.commandés.get", "data.commandés.upsert", "data.注文.get"];
//                                        ^^^^^^^^^^^^^^^^^^^^^^^ collection-op
//                                                                 ^^^^^^^^^^^^^ collection-op
`));

test("cases: secret bindings: a name written twice is one binding, the last; env: null or undefined is no env (A7)", () => check(`
//- /sanoma.config.ts
export default { secrets: { bindings: { A: { env: "X", host: true }, A: { env: "X", host: true }, D: { bootstrap: true, host: true, env: undefined }, N: { env: null, host: true } } } };
//                                                                                                ^ secret-bindings
//                                                                                                                                                    ^ secret-bindings
`));

test("cases: contracts: a property that is null is present, one that is void 0 is undefined (A4)", () => check(`
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { tvoid, tnull, tzero } from "../conn/t";
export const a = tvoid({}); export const b = tnull({}); export const c = tzero({});
//                                       ^ one-wakeup
//                                                                   ^ one-wakeup
//- /conn/t.ts
export const tvoid = defineResource({ vendor: "c", type: "tvoid", schema: z.object({}), wakeup: void 0 });
export const tnull = defineResource({ vendor: "c", type: "tnull", schema: z.object({}), wakeup: null });
export const tzero = defineResource({ vendor: "c", type: "tzero", schema: z.object({}), wakeup: 0 });
`));

test("cases: a module with syntax errors, or a package whose package.json is not JSON, is not said to lack a type (A5)", () => check(`
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { cc } from "../conn/broken";
import { vm } from "bad-pj";
export const x = cc({ name: "x" });
export const y = vm({ name: "y" });
//- /conn/broken.ts
export const aa = defineResource({ vendor: "c", type: "aa", schema: z.object({}) });
export const bb = defineResource({ vendor: "c", type: "bb", schema: z.object({} );
//- /node_modules/bad-pj/package.json
{ "name": "bad-pj", "main": "lib.js", }
//- /node_modules/bad-pj/index.js
export const other = defineResource({ vendor: "b", type: "other", schema: z.object({}) });
`));

test("cases: a resource declared by a const and exported by name is a declaration of the export's name (A5)", () => check(`
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { trigger } from "@x/cloud";
const hidden = trigger({ path: "/a" });
const other = trigger({ path: "/b", bogus: 1 });
//                                  ^^^^^ resource-fields
export { hidden, other as api };
//       ^^^^^^ one-wakeup
//                        ^^^ one-wakeup
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/infra.ts#hidden": { "type": "x.trigger", "object": "o:1" },
  "resources/infra.ts#api": { "type": "x.trigger", "object": "o:2" }
} }
//- /node_modules/@x/cloud/package.json
{ "name": "@x/cloud", "main": "index.js" }
//- /node_modules/@x/cloud/index.js
export const trigger = defineResource({ vendor: "x", type: "trigger", schema: z.object({ path: z.string() }), wakeup: { verify: "hmac" } });
`));

test("cases: a collections file that fails to load declares no collection: a reference to a collection not found may name one of it, so nothing is said; an unknown operation of a collection of a file that loads still is (A6's rule for the lockfile, A11, B1)", () => check(`
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const orders = collection({ key: "id", fields: { id: "string" } });
export const broken = collection({ key: "id", fields: { id: "string" } ;
//                                                                     ^ syntax-error
export const items = collection({ key: "id", fields: { id: "string" } });
export const twice = collection({ name: "mine", key: "nope", fields: { id: "string" } });
//- /workflows/w.ts
export const ops = ["data.orders.get", "data.items.get", "data.orders.upsert"];
//- /apps/a/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const mine = collection({ key: "id", fields: { id: "string" } });
//- /apps/b/workflows/w.ts
export const ops = ["data.nope.get"];
//- /apps/a/workflows/w.ts
export const ops = ["data.mine.get", "data.nope.get", "data.mine.upsert"];
//                                                    ^^^^^^^^^^^^^^^^^^ collection-op
`));

test("cases: a call without a desired object lacks every required field; a lock binding into any file with syntax errors is not an orphan; a copy of the bindings elsewhere in the lockfile does not move where problems land (A4, A6)", () => check(`
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { vm } from "@x/cloud";
export const a = vm();
//           ^ resource-fields lacks the required field
//           ^ lockfile bound as x.bucket
//- /workflows/broken.ts
export const w = (;
//                ^ syntax-error workflows/broken.ts does not parse (Expression expected.)
//- /sanoma.lock.json
{ "previous": { "bindings": { "resources/infra.ts#a": { "type": "x.bucket", "object": "o:1" } } },
  "version": 1, "bindings": {
  "resources/infra.ts#a": { "type": "x.bucket", "object": "o:1" },
//^^^^^^^^^^^^^^^^^^^^^^ lockfile bound as x.bucket
  "workflows/broken.ts#w": { "type": "x.vm", "object": "o:2" }
} }
//- /node_modules/@x/cloud/package.json
{ "name": "@x/cloud", "main": "index.js" }
//- /node_modules/@x/cloud/index.js
export const vm = defineResource({ vendor: "x", type: "vm", schema: z.object({ name: z.string() }) });
`));

test("cases: collections: a key that is no field, one name twice, collection() outside a collections file, resources/sub/data.ts is no collections file", () => check(`
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection as define } from "@sanoma-ai/workflows/data";
export const orders = define({ key: "uid", fields: { id: "string", ...extra } });
//           ^^^^^^ collection-name
export const items = define({ key: "sku", fields: { id: "string" } });
//           ^^^^^ collection-name
//                                 ^^^^^ collection-key
//- /resources/sub/data.ts
import { collection } from "@sanoma-ai/workflows/data";
//                         ^^^^^^^^^^^^^^^^^^^^^^^^^^^ collection-import
export const nested = collection({ key: "id", fields: { id: "string" } });
//                    ^^^^^^^^^^ collection-file
//- /apps/a/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const orders = collection({ key: "id", fields: { id: "string" } });
//           ^^^^^^ collection-name
export const more = collection({ name: "items", key: "id", fields: { id: "string" } });
//                                     ^^^^^^^ collection-name
//- /apps/a/workflows/w.ts
export const w = (ctx: any) => ctx.call("data.nested.get", {});
//                                      ^^^^^^^^^^^^^^^^^ collection-op
`));

test("cases: a type is followed up to 8 hops (each import or re-export into another module is one), not 9", () => {
  const chain = (modules: number) => {
    let fx = `//- /sanoma.config.ts\nexport default {};\n//- /resources/r.ts\nimport { far } from "@x/far";\nexport const c = far({ name: "x" });\n//- /node_modules/@x/far/package.json\n{ "name": "@x/far", "main": "h1.js" }\n`;
    for (let i = 1; i < modules; i++) fx += `//- /node_modules/@x/far/h${i}.js\nexport * from "./h${i + 1}.js";\n`;
    return fx + `//- /node_modules/@x/far/h${modules}.js\nexport const far = defineResource({ vendor: "x", type: "far", schema: z.object({ name: z.string() }) });\n`;
  };
  assert.deepEqual(typesOf(chain(8)), { c: "x.far" }, "r.ts → h1 → … → h8: 8 hops");
  assert.deepEqual(typesOf(chain(9)), {}, "9 hops: not known, so no declaration");
});

test("cases: listing the files under one folder finds what the walk from the root finds there, and nothing in folders the walk skips", () => {
  const dir = writeFixture(`
//- /sanoma.config.ts
export default {};
//- /sanoma.lock.json
{ "version": 1, "bindings": {} }
//- /workflows/a.ts
export const a = 1;
//- /workflows/deep/b.ts
export const b = 1;
//- /workflows/deep/notes.md
not code
//- /apps/web/lib/c.ts
export const c = 1;
//- /apps/web/generated/d.ts
export const d = 1;
//- /apps/inner/sanoma.config.ts
export default {};
//- /apps/inner/workflows/e.ts
export const e = 1;
//- /node_modules/pkg/index.js
module.exports = {};
//- /.cache/f.ts
export const f = 1;
//- /lib/.hidden/g.ts
export const g = 1;
`);
  try {
    const ws = new Workspace(nodeFileSystem, { exclude: ["generated"] });
    const all = ws.listFiles(dir);
    assert.ok(all.some((f) => f.endsWith("/c.ts")) && !all.some((f) => /\/(d|e|f|g)\.ts$|index\.js$/.test(f)), all.join("\n"));
    const under = (rel: string) => runSteps(ws.listFilesSteps(dir, join(dir, rel))).sort();
    for (const rel of ["workflows", "workflows/deep", "apps", "apps/web", "apps/web/lib", "apps/web/generated", "apps/inner", "apps/inner/workflows", "node_modules", "node_modules/pkg", ".cache", "lib/.hidden", "missing"]) {
      assert.deepEqual(under(rel), all.filter((f) => f.startsWith(join(dir, rel) + "/")).sort(), rel);
    }
    assert.deepEqual(under("workflows/deep").map((f) => f.slice(dir.length)), ["/workflows/deep/b.ts"]);
  } finally { removeFixture(dir); }
});

test("cases: an absolute specifier is judged by where it leads, like a relative one (docs/decisions.md)", () => check(`
//- /sanoma.config.ts
export default {};
//- /workflows/w.ts
import { shared } from "/nonexistent-sanoma-elsewhere/shared/config";
//                     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ no-import-outside-company
import { z } from "zod";
`));

// ---- A11: files that do not load ------------------------------------------------------------------

test("cases: a data file whose declaration lost its `})` is one syntax-error; nothing it declares is judged, its imports are (A11, the flood of `const is not a field`)", () => check(`
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
${CLOUD_PACKAGE}`));

test("cases: a workflow source that does not parse is a syntax-error; its imports and operation ids are still judged (A11)", () => check(`
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
`));

test("cases: a library, a scenario, a test or a declaration file that does not parse is not ours to report (A11: the framework does not load them)", () => check(`
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
`));

test("cases: a config that does not parse binds nothing that can be known: neither its bindings nor any secret() call is judged (A11)", () => check(`
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
`));

test("cases: a data file that does not parse calls no secret(): nothing is said of its calls while the config's bindings are still judged (A11)", () => check(`
//- /sanoma.config.ts
export default { secrets: { bindings: { PUSH: { host: true } } } };
//                                      ^^^^ secret-bindings
//- /resources/infra.ts
import { secret } from "@sanoma-ai/workflows/resources";
export const key = secret("NOT_BOUND") +;
//                                      ^ syntax-error
//- /resources/ok.ts
import { secret } from "@sanoma-ai/workflows/resources";
export const key = secret("ALSO_NOT_BOUND");
//                        ^^^^^^^^^^^^^^^^ secret-bindings
`));

test("cases: a declaration in a file that does not parse holds no wakeup or sandbox: the pair it made goes (A11)", () => check(`
//- /sanoma.config.ts
export default {};
//- /resources/a.ts
import { trigger, runner } from "@hooli/cloud";
export const wake = trigger({ path: "/a" });
export const run = runner({ image: "a" });
//- /resources/b.ts
import { trigger, runner } from "@hooli/cloud";
export const wake = trigger({ path: "/b" });
export const run = runner({ image: "b" }) }
//                                        ^ syntax-error
${CLOUD_PACKAGE}`));

test("cases: a collections file that does not parse declares no collection: no duplicate name, no key judged, no collection() outside a collections file said of a broken workflow source (A11)", () => check(`
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const orders = collection({ key: "nope", fields: { id: "string" } });
export const again = collection({ name: "users", key: "id", fields: { id: "string" } ]);
//                                                                                   ^ syntax-error
//- /apps/a/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const users = collection({ key: "id", fields: { id: "string" } });
//- /workflows/w.ts
import { collection } from "@sanoma-ai/workflows/data";
//                         ^^^^^^^^^^^^^^^^^^^^^^^^^^^ collection-import
export const c = collection({ key: "id", fields: { id: "string" } }
  export const d = 1;
//^^^^^^ syntax-error
//- /workflows/x.ts
export const x = "data.users.get";
`));

test("cases: an operation id naming a collection by the export that declares it (another name) suggests the collection's name, in its message, its related place and its certain fix", () => {
  const fixture = `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const people = collection({ name: "contacts", key: "id", fields: { id: "string" } });
export const peeps = collection({ key: "id", fields: { id: "string" } });
export const friends = collection({ name: "peeps2", key: "id", fields: { id: "string" } });
//- /apps/crm/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const leads = collection({ name: "prospects", key: "id", fields: { id: "string" } });
//- /workflows/w.ts
export async function w(ctx: any) {
  await ctx.call("data.people.get", {});
//               ^^^^^^^^^^^^^^^^^ collection-op \`people\` is the export that declares the collection \`contacts\`: did you mean \`contacts\`?
  await ctx.call("data.contacts.list", {});
  await ctx.call("data.peeps.get", {});
  await ctx.call("data.leads.get", {});
//               ^^^^^^^^^^^^^^^^ collection-op
}
`;
  check(fixture);
  const dir = writeFixture(fixture);
  try {
    const problems = checkDir(dir).filter((p) => p.rule === "collection-op");
    const people = problems.find((p) => p.message.includes("`people`"))!;
    assert.deepEqual(people.fixes?.map((f) => [f.title, f.preferred, f.edits.map((e) => e.newText)]), [["Change to data.contacts.get", true, ["data.contacts.get"]]]);
    assert.deepEqual(people.related?.map((r) => [r.file.slice(dir.length), r.range.start.line, r.message]), [["/resources/data.ts", 1, "`contacts` is declared here, exported as `people`"]]);
    // An export of a scope the file cannot see is no suggestion.
    const leads = problems.find((p) => p.message.includes("`leads`"))!;
    assert.equal(leads.message, "No collection `leads` in data.leads.get");
    assert.equal(leads.fixes, undefined);
  } finally { removeFixture(dir); }
});
