/**
 * The company model's edge cases that a case's markers cannot say: roots found (or not) inside
 * `node_modules`, what a walk reads, listing a folder, links and byte order marks on disk, a pnpm
 * layout of links, the type each declaration resolves to, package `exports` patterns, a problem's
 * exact message, fixes and related places. The rules' own cases (each rule file's `cases`) and the
 * model's (`model-cases.ts`) are run by `rule-cases.test.ts`; the tests here that need one of those
 * companies take it from there by name.
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
import { RING_PACKAGE } from "../../server/src/core/rules/case-packages.ts";
import { caseNamed } from "../support/rule-cases.ts";
import { MemoryFileSystem } from "../support/session.ts";
import { cases as resourceFieldsCases } from "../../server/src/core/rules/resource-fields.ts";
import { cases as collectionOpCases } from "../../server/src/core/rules/collection-op.ts";
import { cases as resourceTypeCases } from "../../server/src/core/rules/resource-type.ts";
import { join, relative } from "node:path";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";

test("model: a company is found for no path inside node_modules, even a package holding its own config (A1)", () => {
  const configs = new Set(["/w", "/w/node_modules/tmpl"]);
  const has = (d: string) => configs.has(d);
  assert.equal(findCompanyRoot("/w/node_modules/tmpl/workflows/a.ts", has), undefined);
  assert.equal(findCompanyRoot("/w/node_modules/tmpl", has, true), undefined);
  assert.equal(findCompanyRoot("/w/workflows/a.ts", has), "/w");
});

test("model: no company is discovered from a folder inside node_modules, though a package there holds a config (A1)", () => {
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

test("model: a call whose name is written with escapes is read, once, from the syntax tree", () => {
  const facts = readFacts("/co/resources/data.ts", `import { collection } from "@sanoma-ai/workflows/data";
export const users = c\\u006fll\\u0065ction({ key: "id", fields: { id: "string" } });
const r = r\\u0065q\\u0075ire("../x"), s = [...require(("../y"))];
`);
  assert.equal(facts.collections.length, 1);
  assert.deepEqual(facts.imports.map((i) => i.specifier), ["@sanoma-ai/workflows/data", "../x", "../y"]);
});

test("model: what a company's walk reads, asked of one path (A3): code files and the root's lockfile, under no skipped folder", () => {
  const reads = (rel: string, exclude?: string[]) => walkReads("/w", `/w/${rel}`, { exclude });
  assert.ok(reads("workflows/a.ts") && reads("apps/b/lib/x.mjs") && reads("sanoma.lock.json") && reads(".eslintrc.js"));
  assert.ok(!reads("workflows/.draft/a.ts"), "a dot folder");
  assert.ok(!reads("lib/node_modules/p/index.js"), "node_modules");
  assert.ok(!reads("notes.md") && !reads("apps/b/sanoma.lock.json") && !reads("package.json"), "no code file, or a lockfile off the root");
  assert.ok(!reads("generated/x.ts", ["generated"]) && !reads("apps/b/gen/x.ts", ["apps/b/gen"]) && reads("apps/b/gen/x.ts", ["gen/x"]), "excluded by name or by path");
  assert.ok(!walkReads("/w", "/elsewhere/a.ts"), "outside the company");
});

test("model: an import that takes helpers or `collection` from the wrong module is one problem at its specifier, naming each helper once", () => {
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

/** Each declaration's type, or what its resolution is where it has none (`unknown`, `unresolved @x/base not-built`, `missing`, `none`). */
function resolutionsOf(fixture: string): Record<string, string> {
  const dir = writeFixture(fixture);
  try {
    const ws = new Workspace(nodeFileSystem);
    const [root] = ws.discoverRoots([dir]);
    ws.loadCompany(root);
    return Object.fromEntries(ws.check(root).analysis.declarations.map((d) => {
      const r = d.resolution;
      return [d.fact.exportName, r.kind === "type" ? r.type.id : r.kind === "unresolved" ? `unresolved ${r.module}${r.why ? ` ${r.why.kind}` : ""}` : r.kind];
    }));
  } finally { removeFixture(dir); }
}

/** `resolutionsOf`, the company held in memory at `/co` (thousands of files, none written); `missing` with the types it lists. */
function resolutionsInMemory(fixture: string): Record<string, string> {
  const fs = new MemoryFileSystem(Object.fromEntries(Object.entries(parseFixture(fixture).files).map(([rel, text]) => [join("/co", rel), text])));
  const ws = new Workspace(fs);
  const [root] = ws.discoverRoots(["/co"]);
  ws.loadCompany(root);
  return Object.fromEntries(ws.check(root).analysis.declarations.map((d) => {
    const r = d.resolution;
    return [d.fact.exportName, r.kind === "type" ? r.type.id : r.kind === "unresolved" ? `unresolved ${r.module}${r.why ? ` ${r.why.kind}` : ""}` : r.kind === "missing" ? `missing ${r.available.join(" ")}` : r.kind];
  }));
}

const THROUGH_EVERY_FORM = caseNamed(resourceFieldsCases(), "resource types through aliases, namespaces, objects, export *, CommonJS and package exports conditions");

test("model: resource types through aliases, namespaces, objects, export *, CommonJS and package exports conditions", () => {
  assert.deepEqual(typesOf(THROUGH_EVERY_FORM), { a: "x.vm", b: "x.vm", c: "x.vm", d: "x.queue", e: "x.queue", f: "x.db", g: "x.sub", h: "x.deep", i: undefined });
});

test("model: a CommonJS connector's Object.assign(exports, { … }) and Object.assign(module.exports, …) are read as module.exports = { … } is (A4): names, members and requires given, a require's exports; a call given it is unknown", () => {
  const assigned = caseNamed(resourceTypeCases(), "a CommonJS connector that fills its exports with Object.assign(exports, { … }) or Object.assign(module.exports, …) is read as module.exports = { … } is: names, members and requires given, a require's exports, and a call's unknown (A4, A5)");
  assert.deepEqual(resolutionsOf(assigned), {
    a: "x.machine", b: "x.volume", c: "x.queue", d: "missing", e: "x.disk", f: "x.extra", g: "missing", h: "x.machine", i: "unknown",
  });
});

test("model: TypeScript's export = is read as module.exports = is (A4): an object literal's names, a namespace or an object named (or filled where it is filled); a call, or a value a .d.ts only declares, is unknown in a connector's module", () => {
  const exportEquals = caseNamed(resourceTypeCases(), "TypeScript's export = in a connector is read as module.exports = is: an object literal's names, a namespace or an object named (or filled), and a call or a value declared only (a .d.ts) unknown (A4, A5)");
  assert.deepEqual(resolutionsOf(exportEquals), { a: "x.machine", b: "missing", c: "x.machine", d: "x.machine", e: "missing", f: "unknown", g: "unknown", h: "x.machine" });
});

test("model: a package a connector re-exports (export *) that Node finds but not built says so, as the data file's own import of it does: not built, not 'not installed' (A4)", () => {
  const peer = `"peerDependencies": { "@sanoma-ai/workflows": "*" }`;
  assert.deepEqual(resolutionsOf(`
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import * as x from "@x/conn";
import { hook } from "@x/base";
export const a = x.hook({ path: "/a" });
export const b = hook({ path: "/b" });
export const c = x.machine({ name: "c" });
//- /node_modules/@x/base/package.json
{ "name": "@x/base", "exports": { ".": "./dist/index.js" }, ${peer} }
//- /node_modules/@x/conn/package.json
{ "name": "@x/conn", "type": "module", "main": "index.js", ${peer} }
//- /node_modules/@x/conn/index.js
export * from "@x/base";
export { machine } from "./machine.js";
//- /node_modules/@x/conn/machine.js
import { defineResource } from "@sanoma-ai/workflows";
export const machine = defineResource({ vendor: "x", type: "machine", schema: z.object({ name: z.string() }) });
`), { a: "unresolved @x/base not-built", b: "unresolved @x/base not-built", c: "x.machine" });
});

test("model: a link to a folder of the company is not followed: each file is read by its own path, with its own role (res-alias -> resources hid resources/data.ts)", () => {
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

test("model: a file saved with a byte order mark is read without it: its first line's columns are the editor's", () => {
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

test("model: a type mismatch carries its fix at both places it is said: the binding and the declaration, each editing the lockfile's type", () => {
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

test("model: a pnpm install: a package's own dependencies are found beside its real folder, as Node finds them (A4)", () => {
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

test("model: a package's exports patterns: the most specific one wins, as in Node, not the first written (A4)", () => {
  assert.equal(exportsTarget({ "./*": "./wrong/*.js", "./types/*": "./src/*.js" }, "./types/c"), "./src/c.js");
  assert.equal(exportsTarget({ "./types/*": "./src/*.js", "./*": "./wrong/*.js" }, "./types/c"), "./src/c.js");
  assert.equal(exportsTarget({ "./*": "./all/*.js" }, "./x/y"), "./all/x/y.js");
  assert.equal(exportsTarget({ "./a/*.js": "./long/*.js", "./a/*": "./short/*" }, "./a/b.js"), "./long/b.js");
  assert.equal(exportsTarget({ "./types/*": "./src/*.js" }, "./other"), undefined);
});

test("model: a type is followed up to 8 hops (each import or re-export into another module is one), not 9", () => {
  const chain = (modules: number) => {
    let fx = `//- /sanoma.config.ts\nexport default {};\n//- /resources/r.ts\nimport { far } from "@x/far";\nexport const c = far({ name: "x" });\n//- /node_modules/@x/far/package.json\n{ "name": "@x/far", "main": "h1.js" }\n`;
    for (let i = 1; i < modules; i++) fx += `//- /node_modules/@x/far/h${i}.js\nexport * from "./h${i + 1}.js";\n`;
    return fx + `//- /node_modules/@x/far/h${modules}.js\nexport const far = defineResource({ vendor: "x", type: "far", schema: z.object({ name: z.string() }) });\n`;
  };
  assert.deepEqual(typesOf(chain(8)), { c: "x.far" }, "r.ts → h1 → … → h8: 8 hops");
  assert.deepEqual(typesOf(chain(9)), {}, "9 hops: not known, so no declaration");
});

test("model: a connector whose modules re-export the next in a chain thousands long (export *, export { x } from, an import exported again, CommonJS requires; export * as) is followed up to 8 hops and no further: it does not take the stack down, a type past reach is no declaration, one within reach its type", () => {
  /** `@x/far`: h1 → … → h`n` by `link`, the type in h`n`; a data file calling `far` and `ns.far` (or `n.far`, `export * as`'s own). */
  const chain = (n: number, link: (next: string) => string, data = `import { far } from "@x/far";\nimport * as ns from "@x/far";\nexport const c = far({ name: "x" });\nexport const d = ns.far({ name: "x" });\n`) => {
    let fx = `//- /sanoma.config.ts\nexport default {};\n//- /resources/r.ts\n${data}//- /node_modules/@x/far/package.json\n{ "name": "@x/far", "main": "h1.js", "peerDependencies": { "@sanoma-ai/workflows": "*" } }\n`;
    for (let i = 1; i < n; i++) fx += `//- /node_modules/@x/far/h${i}.js\n${link(`./h${i + 1}.js`)}\n`;
    return fx + `//- /node_modules/@x/far/h${n}.js\nexport const far = defineResource({ vendor: "x", type: "far", schema: z.object({ name: z.string() }) });\nexport const n = { far };\n`;
  };
  const links: Record<string, (next: string) => string> = {
    "export *": (next) => `export * from "${next}";`,
    "export { far } from": (next) => `export { far } from "${next}";`,
    "an import exported again": (next) => `import { far } from "${next}";\nexport { far };`,
    "module.exports = require()": (next) => `module.exports = require("${next}");`,
    "exports.far = require().far": (next) => `exports.far = require("${next}").far;`,
  };
  for (const [form, link] of Object.entries(links)) {
    assert.deepEqual(resolutionsInMemory(chain(8, link)), { c: "x.far", d: "x.far" }, `${form}: 8 hops`);
    assert.deepEqual(resolutionsInMemory(chain(9, link)), {}, `${form}: 9 hops`);
    assert.deepEqual(resolutionsInMemory(chain(3000, link)), {}, `${form}: 3,000 hops`);
  }
  const starAs = (next: string) => `export * as n from "${next}";`;
  const viaN = `import { n } from "@x/far";\nexport const e = n.far({ name: "x" });\n`;
  assert.deepEqual(resolutionsInMemory(chain(2, starAs, viaN)), { e: "x.far" }, "export * as: r.ts → h1 → h2");
  // (Each namespace is read as far as a member of it is asked: h1's n is h2's, which has no far.)
  assert.deepEqual(resolutionsInMemory(chain(3000, starAs, viaN)), {}, "export * as: 3,000 modules");
});

test("model: a name through export * resolves at its fewest hops whatever was asked before it: in a cycle of 12 modules, far (3 hops) and near (2), by name and through the namespace in either order or alone (far through the namespace was no declaration after far by name, at 14 hops; near, either way, at 11)", () => {
  const asked = { name: `export const a = far({ name: "a" });\nexport const c = near({ name: "c" });\n`, namespace: `export const b = ring.far({ name: "b" });\nexport const d = ring.near({ name: "d" });\n` };
  const company = (...order: (keyof typeof asked)[]) => `//- /sanoma.config.ts\nexport default {};\n//- /resources/r.ts\nimport { far, near } from "@acme/ring";\nimport * as ring from "@acme/ring";\n${order.map((o) => asked[o]).join("")}${RING_PACKAGE}`;
  const both = { a: "ring.far", b: "ring.far", c: "ring.near", d: "ring.near" };
  assert.deepEqual(resolutionsOf(company("name", "namespace")), both, "by name first");
  assert.deepEqual(resolutionsOf(company("namespace", "name")), both, "through the namespace first");
  assert.deepEqual(resolutionsOf(company("name")), { a: "ring.far", c: "ring.near" }, "by name alone");
  assert.deepEqual(resolutionsOf(company("namespace")), { b: "ring.far", d: "ring.near" }, "through the namespace alone");
  // An index that re-exports 3,000 modules, each re-exporting the next too: each is 2 hops away
  // (r.ts → index → h2999), not at the end of the chain the first re-export leads down; a name none
  // of them has is missing, and the types within reach are said. (Depth first, its walk of that
  // chain ran out of stack, and it was quadratic.)
  let fan = `//- /sanoma.config.ts\nexport default {};\n//- /resources/r.ts\nimport { t2999, far } from "@x/fan";\nexport const c = t2999({ name: "x" });\nexport const d = far({ name: "x" });\n//- /node_modules/@x/fan/package.json\n{ "name": "@x/fan", "main": "index.js" }\n//- /node_modules/@x/fan/index.js\n`;
  for (let i = 1; i <= 3000; i++) fan += `export * from "./h${i}.js";\n`;
  for (let i = 1; i <= 3000; i++) fan += `//- /node_modules/@x/fan/h${i}.js\n${i < 3000 ? `export * from "./h${i + 1}.js";\n` : ""}${i % 1000 === 999 ? `export const t${i} = defineResource({ vendor: "x", type: "t${i}", schema: z.object({ name: z.string() }) });\n` : ""}`;
  assert.deepEqual(resolutionsInMemory(fan), { c: "x.t2999", d: "missing t1999 t2999 t999" });
});

test("model: what cannot be read is followed up to 8 hops too, as a type is (A4): further, no declaration; a package not installed lies one hop beyond its importer; each module at its nearest; a nearer unknown holds where the first is out of reach; a cycle ends", () => {
  /** `@x/far`'s modules (`h1.js` its main) and a data file calling `far` from it and `ns.far` through its namespace. */
  const company = (modules: Record<string, string>) => {
    let fx = `//- /sanoma.config.ts\nexport default {};\n//- /resources/r.ts\nimport { far } from "@x/far";\nimport * as ns from "@x/far";\nexport const c = far({ name: "x" });\nexport const d = ns.far({ name: "x" });\n`;
    fx += `//- /node_modules/@x/far/package.json\n{ "name": "@x/far", "main": "h1.js", "peerDependencies": { "@sanoma-ai/workflows": "*" } }\n`;
    for (const [name, text] of Object.entries(modules)) fx += `//- /node_modules/@x/far/${name}\n${text}\n`;
    return fx;
  };
  /** r.ts → h1 → … → h`n` (n hops), the last module's text given. */
  const chain = (n: number, last: string, more: Record<string, string> = {}) => {
    const modules: Record<string, string> = {};
    for (let i = 1; i < n; i++) modules[`h${i}.js`] = `export * from "./h${i + 1}.js";`;
    modules[`h${n}.js`] = last;
    return company({ ...modules, ...more });
  };
  const both = (v: string) => ({ c: v, d: v });
  const unreadable = "module.exports = makeConnector();";
  assert.deepEqual(resolutionsOf(chain(8, unreadable)), both("unknown"), "a module that cannot be read 8 hops away");
  assert.deepEqual(resolutionsOf(chain(9, unreadable)), {}, "9 hops: no more known than a type there, so no declaration");
  assert.deepEqual(resolutionsOf(chain(7, `export * from "@x/gone";`)), both("unresolved @x/gone"), "a package not installed, 8 hops away");
  assert.deepEqual(resolutionsOf(chain(8, `export * from "@x/gone";`)), {}, "9 hops");
  // Reached first down a long way, and by a short one: at its nearest (r.ts → h1 → a → mid: 3 hops, not 12).
  const long: Record<string, string> = { "a.js": `export * from "./b1.js";\nexport * from "./mid.js";`, "mid.js": unreadable };
  for (let i = 1; i <= 8; i++) long[`b${i}.js`] = `export * from "./${i === 8 ? "mid" : `b${i + 1}`}.js";`;
  assert.deepEqual(resolutionsOf(company({ "h1.js": `export * from "./a.js";`, ...long })), both("unknown"));
  // Two things h1 cannot read: the first out of reach, the second not: the second holds; both within reach, the first.
  const deep = (first: string) => chain(10, unreadable, { "h1.js": `export * from "${first}";\nexport * from "@x/gone";` });
  assert.deepEqual(resolutionsOf(deep("./h2.js")), both("unresolved @x/gone"));
  assert.deepEqual(resolutionsOf(deep("./h9.js")), both("unknown"));
  // A cycle of export * (each module re-exports the one before it too): it ends, and h12 is 3 hops away (r.ts → h1 → h11 → h12).
  const cycle: Record<string, string> = {};
  for (let i = 1; i < 12; i++) cycle[`h${i}.js`] = `export * from "./h${i === 1 ? 11 : i - 1}.js";\nexport * from "./h${i + 1}.js";`;
  assert.deepEqual(resolutionsOf(company({ ...cycle, "h12.js": unreadable })), both("unknown"));
});

test("model: listing the files under one folder finds what the walk from the root finds there, and nothing in folders the walk skips", () => {
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

test("model: an operation id naming a collection by the export that declares it (another name) suggests the collection's name, in its message, its related place and its certain fix", () => {
  const fixture = caseNamed(collectionOpCases(), "an operation id naming a collection by the export that declares it (another name) suggests the collection's name");
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

test("secret-bindings: a call of no binding relates to the binding it likely means, else to the config's first binding, else to the config", () => {
  const dir = writeFixture(`
//- /co/sanoma.config.ts
export default {
  secrets: {
    bindings: {
      CLOUD_KEY: { env: "CLOUD" },
      SIGNING_KEY: { bootstrap: true },
    },
  },
};
//- /co/resources/keys.ts
import { secret } from "@sanoma-ai/workflows/resources";
export const a = secret("SIGNING_KEYS");
export const b = secret("SOMETHING_ELSE");
//- /bare/sanoma.config.ts
export default {};
//- /bare/resources/keys.ts
import { secret } from "@sanoma-ai/workflows/resources";
export const c = secret("ANY");
`, "sanoma-secret-related-");
  try {
    const related = (name: string) => {
      const p = checkDir(dir).find((x) => x.rule === "secret-bindings" && x.message.includes(`\`${name}\``));
      assert.ok(p, name);
      return p.related?.map((r) => `${relative(dir, r.file)}:${r.range.start.line + 1}:${r.range.start.character + 1} ${r.message}`);
    };
    assert.deepEqual(related("SIGNING_KEYS"), ["co/sanoma.config.ts:5:7 `SIGNING_KEY` is bound here"]);
    assert.deepEqual(related("SOMETHING_ELSE"), ["co/sanoma.config.ts:4:7 the config's secret bindings"]);
    assert.deepEqual(related("ANY"), ["bare/sanoma.config.ts:1:1 the config's secret bindings"]);
  } finally {
    removeFixture(dir);
  }
});

test("model: a lockfile binding of a file in a folder the company's walk leaves out (exclude) is no orphan, nor bound as another type: the framework loads that file, we did not read it; a missing file elsewhere is still an orphan, and the binding still counts in the shared-object check; the walk's folders changed, it is judged again", () => {
  const dir = writeFixture(`
//- /sanoma.config.ts
export default {};
//- /apps/billing/resources/queue.ts
import { vm } from "@x/cloud";
export const queue = vm({ name: "q" });
//- /resources/ok.ts
import { vm } from "@x/cloud";
export const a = vm({ name: "a" });
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "apps/billing/resources/queue.ts#queue": { "type": "x.other", "object": "o:1" },
  "apps/billing/resources/queue.ts#gone": { "type": "x.vm", "object": "o:2" },
  "generated/resources/g.ts#g": { "type": "x.vm", "object": "o:3" },
  "resources/ok.ts#a": { "type": "x.vm", "object": "o:3" },
  "resources/gone.ts#c": { "type": "x.vm", "object": "o:4" },
  "apps/billing/../x.ts#y": { "type": "x.vm", "object": "o:5" }
} }
//- /node_modules/@x/cloud/package.json
{ "name": "@x/cloud", "main": "index.js" }
//- /node_modules/@x/cloud/index.js
export const vm = defineResource({ vendor: "x", type: "vm", schema: z.object({ name: z.string() }) });
`);
  try {
    const lockProblems = (ws: Workspace) => ws.check(dir).problems.filter((p) => p.rule === "lockfile").map((p) => `${relative(dir, p.file)}:${p.range.start.line} ${p.message}`).sort();
    const shared = [
      "sanoma.lock.json:3 o:3 is bound 2 times (by resources/ok.ts#a too); an object belongs to one declaration",
      "sanoma.lock.json:4 o:3 is bound 2 times (by generated/resources/g.ts#g too); an object belongs to one declaration",
    ];
    const elsewhere = [
      "sanoma.lock.json:5 Orphan binding: resources/gone.ts is no file of this company; apply will ask to delete o:4",
      "sanoma.lock.json:6 Orphan binding: `apps/billing/../x.ts#y` is no declaration id (`<file>#<export>`, the file's path from the company root with / separators); apply will ask to delete o:5",
    ];
    const all = new Workspace(nodeFileSystem);
    all.loadCompany(dir);
    const judged = [
      "apps/billing/resources/queue.ts:1 apps/billing/resources/queue.ts#queue is bound as x.other but declared as x.vm",
      "sanoma.lock.json:1 apps/billing/resources/queue.ts#queue is bound as x.other but declared as x.vm",
      "sanoma.lock.json:2 Orphan binding: apps/billing/resources/queue.ts declares no `gone`; apply will ask to delete o:2",
      "sanoma.lock.json:3 Orphan binding: generated/resources/g.ts is no file of this company; apply will ask to delete o:3",
      ...shared, ...elsewhere,
    ].sort();
    assert.deepEqual(lockProblems(all), judged);
    // Left out by path and by name (a .sanomarc.json's, a flag's, an editor's: the walk's folders alike).
    const left = [...shared, ...elsewhere].sort();
    for (const exclude of [["apps/billing", "generated"], ["billing", "generated"]]) {
      const ws = new Workspace(nodeFileSystem, { exclude });
      ws.loadCompany(dir);
      assert.deepEqual(lockProblems(ws), left, exclude.join(" "));
    }
    // The host changes the walk's folders (settings changed): the next check judges by them, the
    // files that lie there gone from the company, or none there to go.
    all.setExclude(dir, ["generated"]);
    assert.deepEqual(lockProblems(all), judged.filter((p) => !p.includes("generated/resources/g.ts is no file")), "no file went, yet the binding is judged again");
    all.setExclude(dir, ["generated", "apps/billing"]);
    const company = all.companies.get(dir)!;
    const billing = [...company.files.keys()].filter((file) => file.includes("/apps/billing/"));
    for (const file of billing) all.setFile(company, file, undefined);
    assert.deepEqual(lockProblems(all), left);
    all.setExclude(dir, []);
    all.loadCompany(dir);
    assert.deepEqual(lockProblems(all), judged, "let back in: judged again");
  } finally { removeFixture(dir); }
});
