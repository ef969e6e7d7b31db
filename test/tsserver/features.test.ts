/**
 * The TypeScript plugin's features in a real tsserver, driven over its protocol as an editor
 * drives it, the plugin installed from its tarball (`test/support/tsserver.ts`): problems among
 * TypeScript's own (which stay), kept current from unsaved buffers and from the disk; op ids in
 * TypeScript's completion list; quick fixes; definitions (op id → collection, declaration → lock
 * binding, `secret("NAME")` → its binding); quick info on a secret; a rename of a declaration's
 * export that renames its lock binding key; and an editor's `configurePlugin` that leaves
 * diagnostics, completion and navigation to a Sanoma language server.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseFixture } from "../support/fixture.ts";
import { CLOUD_NEXT_VERSION, CLOUD_PACKAGE } from "../support/companies.ts";
import { installProject, locationOf, PLUGIN, TsServer, writeTsconfig, type Location, type ProtocolDiagnostic } from "../support/tsserver.ts";
import { RULE_CODES } from "../../ts-plugin/src/codes.ts";

const COMPANY = `
//- /sanoma.config.ts
import { defineConfig } from "@sanoma-ai/workflows";
export default defineConfig({ name: "acme", secrets: { bindings: { CLOUD_KEY: { env: "K", host: true } } } });
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const orders = collection({ key: "id", fields: { id: "string", total: "number" } });
//- /resources/infra.ts
import { vm, trigger } from "@hooli/cloud";
import { secret } from "@sanoma-ai/workflows/resources";
export const web = vm({ name: "web" });
export const hook = trigger({ path: "/a" });
export const key = secret("CLOUD_KEY");
//- /resources/more.ts
import { bucket } from "@hooli/cloud";
export const files = bucket({ name: "files" });
//- /workflows/nightly.ts
import { web } from "../resources/infra.ts";
export async function nightly(ctx: { call(id: string, input: unknown): Promise<unknown> }) {
  await ctx.call("data.orders.save", { web });
  await ctx.call("data.orderz.get", {});
  const n: number = "not a number";
  return n;
}
//- /workflows/typing.ts
export const typing = (ctx: { call(id: string): void }) => ctx.call("data.");
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/infra.ts#web": { "type": "cloud.vm", "object": "cloud:vm/1" }
} }
${CLOUD_PACKAGE}`;

let dir: string;
let s: TsServer;
const file = (rel: string) => join(dir, rel);
const text = (rel: string) => readFileSync(file(rel), "utf8");
const at = (rel: string, needle: string, delta = 0): Location & { file: string } => ({ file: file(rel), ...locationOf(text(rel), needle, delta) });
const sanoma = (ds: ProtocolDiagnostic[]) => ds.filter((d) => d.source === "sanoma");

before(async () => {
  const project = installProject();
  dir = join(project, "features");
  rmSync(dir, { recursive: true, force: true });
  for (const [rel, content] of Object.entries(parseFixture(COMPANY).files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
  writeTsconfig(dir);
  s = new TsServer({ cwd: project, logFile: join(project, "features.log") });
  for (const f of ["workflows/nightly.ts", "resources/infra.ts", "resources/more.ts", "workflows/typing.ts"]) s.open(file(f));
});
after(async () => { await s.close(); });

async function semanticOf(rel: string): Promise<ProtocolDiagnostic[]> {
  const { byFile } = await s.geterr([file(rel)]);
  return byFile.get(file(rel))?.semantic ?? [];
}

test("geterr: a file's Sanoma problems come after TypeScript's own, which stay", async () => {
  const diags = await semanticOf("workflows/nightly.ts");
  const ts2322 = diags.find((d) => d.code === 2322);
  assert.ok(ts2322, "TypeScript's own error is still there");
  assert.equal(ts2322.source, undefined);
  const ours = sanoma(diags);
  assert.equal(ours.length, 1, JSON.stringify(diags));
  assert.equal(ours[0].code, RULE_CODES["collection-op"]);
  assert.equal(ours[0].category, "error");
  assert.match(ours[0].text, /^No collection `orderz` in data\.orderz\.get; did you mean `orders`\?$/);
  assert.deepEqual(ours[0].start, locationOf(text("workflows/nightly.ts"), `"data.orderz.get"`));
  assert.ok(diags.indexOf(ts2322) < diags.indexOf(ours[0]), "after TypeScript's");
  // The company was read whole once the project was built, before this first geterr.
  assert.match(s.log(), /\[sanoma\] read ahead for .*\/workflows\/nightly\.ts: 1 problems there/);
});

test("an unsaved edit in one data file shows a cross-file problem in another; undoing it clears it", async () => {
  assert.equal(sanoma(await semanticOf("resources/infra.ts")).length, 0);
  const end = { line: 3, offset: 1 };
  s.change(file("resources/more.ts"), end, end, `import { trigger } from "@hooli/cloud";\nexport const hook2 = trigger({ path: "/b" });\n`);
  const both = sanoma(await semanticOf("resources/infra.ts"));
  assert.deepEqual(both.map((d) => d.code), [RULE_CODES["one-wakeup"]]);
  assert.match(both[0].text, /an instance has one wakeup: leave out this one or resources\/more\.ts#hook2/);
  assert.equal(both[0].relatedInformation?.[0]?.span?.file, file("resources/more.ts"), "the other wakeup, as related information");
  s.change(file("resources/more.ts"), end, { line: 5, offset: 1 }, "");
  assert.equal(sanoma(await semanticOf("resources/infra.ts")).length, 0);
});

test("a file written on disk (tsserver's own watching) counts, and its deletion too", async () => {
  const other = file("resources/other.ts");
  writeFileSync(other, `import { trigger } from "@hooli/cloud";\nexport const late = trigger({ path: "/c" });\n`);
  try {
    const deadline = Date.now() + 20_000;
    let codes: number[] = [];
    while (Date.now() < deadline && !(codes = sanoma(await semanticOf("resources/infra.ts")).map((d) => d.code)).includes(RULE_CODES["one-wakeup"])) await new Promise((r) => setTimeout(r, 200));
    assert.deepEqual(codes, [RULE_CODES["one-wakeup"]], "the file written on disk was read");
  } finally { rmSync(other); }
  const deadline = Date.now() + 20_000;
  let n = 1;
  while (Date.now() < deadline && (n = sanoma(await semanticOf("resources/infra.ts")).length) > 0) await new Promise((r) => setTimeout(r, 200));
  assert.equal(n, 0, "the deleted file no longer counts");
});

test("a file rewritten on disk in place (a checkout, a generator: its text changed, not created) counts", async () => {
  const other = file("resources/rewritten.ts");
  const until = async (want: number, why: string) => {
    const deadline = Date.now() + 20_000;
    let n = -1;
    while (Date.now() < deadline && (n = sanoma(await semanticOf("resources/infra.ts")).length) !== want) await new Promise((r) => setTimeout(r, 200));
    assert.equal(n, want, why);
  };
  writeFileSync(other, `import { trigger } from "@hooli/cloud";\nexport const late = trigger({ path: "/c" });\n`);
  try {
    await until(1, "the file written on disk was read");
    // The same file, its text replaced: no wakeup in it any more.
    writeFileSync(other, `export const late = 1;\n`);
    await until(0, "the file's new text was read");
    writeFileSync(other, `import { trigger } from "@hooli/cloud";\nexport const again = trigger({ path: "/d" });\n`);
    await until(1, "and its next one");
  } finally { rmSync(other); }
  await until(0, "the deleted file no longer counts");
});

test("a connector package's file rewritten in place (under node_modules, no part of the company's trees; tsserver reports no change in place) counts", async () => {
  const compute = file("node_modules/@hooli/cloud/src/compute.js");
  const original = readFileSync(compute, "utf8");
  const fields = async () => sanoma(await semanticOf("resources/infra.ts")).filter((d) => d.code === RULE_CODES["resource-fields"]).length;
  const until = async (want: number, why: string) => {
    const deadline = Date.now() + 20_000;
    let n = -1;
    while (Date.now() < deadline && (n = await fields()) !== want) await new Promise((r) => setTimeout(r, 200));
    assert.equal(n, want, why);
  };
  await until(0, "the vm's fields as the package has them");
  try {
    // The next version: the vm's zone renamed and made required, so `web` misses a field.
    writeFileSync(compute, CLOUD_NEXT_VERSION(original));
    await until(1, "the package's file rewritten in place was read anew");
  } finally { writeFileSync(compute, original); }
  await until(0, "and again when put back");
});

test("a monorepo's workspace package linked into node_modules, its file rewritten in place at its real path (a dist/ rebuilt), counts", async () => {
  const top = join(dirname(dir), "features-linked");
  rmSync(top, { recursive: true, force: true });
  const co = join(top, "co");
  for (const [rel, content] of Object.entries(parseFixture(COMPANY).files)) {
    mkdirSync(dirname(join(co, rel)), { recursive: true });
    writeFileSync(join(co, rel), content);
  }
  writeTsconfig(co);
  // @hooli/cloud moved to packages/cloud beside the company, and linked back as a workspace manager links it.
  mkdirSync(join(top, "packages"));
  renameSync(join(co, "node_modules/@hooli/cloud"), join(top, "packages/cloud"));
  symlinkSync("../../../packages/cloud", join(co, "node_modules/@hooli/cloud"));
  const infra = join(co, "resources/infra.ts");
  const compute = join(top, "packages/cloud/src/compute.js");
  const fields = async () => sanoma((await s.geterr([infra])).byFile.get(infra)?.semantic ?? []).filter((d) => d.code === RULE_CODES["resource-fields"]).length;
  const until = async (want: number, why: string) => {
    const deadline = Date.now() + 20_000;
    let n = -1;
    while (Date.now() < deadline && (n = await fields()) !== want) await new Promise((r) => setTimeout(r, 200));
    assert.equal(n, want, why);
  };
  try {
    s.open(infra);
    await until(0, "the vm's fields as the package has them");
    writeFileSync(compute, CLOUD_NEXT_VERSION(readFileSync(compute, "utf8")));
    await until(1, "the package's file rewritten at its real path, read anew");
  } finally {
    s.send("close", { file: infra });
    rmSync(top, { recursive: true, force: true });
  }
});

// (Before any configurePlugin: tsserver gives a project made after one the override in place of its tsconfig's entry.)
test("two projects whose exclude options differ each read the companies their way (with one set of companies per tsserver, the last project configured chose for both)", async () => {
  const two = join(dirname(dir), "features-exclude");
  rmSync(two, { recursive: true, force: true });
  for (const [rel, content] of Object.entries(parseFixture(COMPANY).files)) {
    mkdirSync(dirname(join(two, rel)), { recursive: true });
    writeFileSync(join(two, rel), content);
  }
  writeTsconfig(two, { exclude: ["workflows/"] });
  const nightlyTwo = join(two, "workflows/nightly.ts");
  const ofTwo = async () => sanoma((await s.geterr([nightlyTwo])).byFile.get(nightlyTwo)?.semantic ?? []);
  try {
    s.open(nightlyTwo);
    assert.deepEqual(await ofTwo(), [], "left out in the project that says so");
    assert.equal(sanoma(await semanticOf("workflows/nightly.ts")).length, 1, "judged in the one that does not, configured first");
    assert.deepEqual(await ofTwo(), [], "and still left out in the other, asked again");
  } finally {
    s.send("close", { file: nightlyTwo });
    rmSync(two, { recursive: true, force: true });
  }
});

test("completion: op ids in TypeScript's own list inside a \"data. string, with their details", async () => {
  const where = at("workflows/typing.ts", `"data."`, 6);
  const info = await s.request("completionInfo", { ...where, prefix: "" });
  const names = info.entries.map((e: { name: string }) => e.name);
  for (const op of ["get", "list", "count", "save", "saveMany", "delete"]) assert.ok(names.includes(`data.orders.${op}`), `data.orders.${op} in ${names.join(", ")}`);
  const save = info.entries.find((e: { name: string }) => e.name === "data.orders.save");
  // (It replaces the string's whole content.)
  assert.deepEqual(save.replacementSpan, { start: locationOf(text("workflows/typing.ts"), `"data."`, 1), end: locationOf(text("workflows/typing.ts"), `"data."`, 6) });
  const [details] = await s.request("completionEntryDetails", { ...where, entryNames: ["data.orders.save"] });
  assert.match(details.documentation.map((d: { text: string }) => d.text).join(""), /root scope: key id/);
  // Not in code, not in a string that is no op id.
  const code = await s.request("completionInfo", { ...at("workflows/typing.ts", "ctx.call", 4), prefix: "" }).catch(() => undefined);
  assert.ok(!code?.entries.some((e: { name: string }) => e.name.startsWith("data.")));
});

test("quick fixes: the rule's fix through getCodeFixes, and the codes in getSupportedCodeFixes", async () => {
  const supported: string[] = await s.request("getSupportedCodeFixes", { file: file("workflows/nightly.ts") });
  assert.ok(supported.includes(String(RULE_CODES["collection-op"])));
  const [d] = sanoma(await semanticOf("workflows/nightly.ts"));
  const fixes = await s.request("getCodeFixes", { file: file("workflows/nightly.ts"), startLine: d.start.line, startOffset: d.start.offset, endLine: d.end.line, endOffset: d.end.offset, errorCodes: [d.code] });
  const fix = fixes.find((f: { description: string }) => f.description === "Change to data.orders.get");
  assert.ok(fix, JSON.stringify(fixes));
  assert.equal(fix.changes.length, 1);
  assert.equal(fix.changes[0].fileName, file("workflows/nightly.ts"));
  assert.deepEqual(fix.changes[0].textChanges, [{ start: locationOf(text("workflows/nightly.ts"), "data.orderz.get"), end: locationOf(text("workflows/nightly.ts"), "data.orderz.get", 15), newText: "data.orders.get" }]);
});

test("definition: op id → its collection; declaration → itself and its lock binding; secret(\"NAME\") → its binding", async () => {
  const toCollection = await s.request("definition", at("workflows/nightly.ts", "data.orders.save", 3));
  assert.equal(toCollection.length, 1);
  assert.equal(toCollection[0].file, file("resources/data.ts"));
  assert.deepEqual(toCollection[0].start, locationOf(text("resources/data.ts"), "orders ="));
  const fromName = await s.request("definitionAndBoundSpan", at("resources/infra.ts", "web =", 1));
  const lock = text("sanoma.lock.json");
  assert.deepEqual(fromName.definitions.map((d: { file: string }) => d.file), [file("resources/infra.ts"), file("sanoma.lock.json")], "TypeScript's own first");
  assert.deepEqual(fromName.definitions[1].start, locationOf(lock, `"resources/infra.ts#web"`));
  assert.deepEqual(fromName.textSpan.start, locationOf(text("resources/infra.ts"), "web ="));
  const toBinding = await s.request("definition", at("resources/infra.ts", `"CLOUD_KEY"`, 2));
  assert.equal(toBinding.length, 1);
  assert.equal(toBinding[0].file, file("sanoma.config.ts"));
  assert.deepEqual(toBinding[0].start, locationOf(text("sanoma.config.ts"), "CLOUD_KEY:"));
});

test("quick info on secret(\"NAME\") shows its binding", async () => {
  const info = await s.request("quickinfo", at("resources/infra.ts", `"CLOUD_KEY"`, 2));
  assert.match(info.documentation, /Secret \*\*CLOUD_KEY\*\*: bound in `sanoma\.config\.ts`/);
  assert.match(info.documentation, /environment variable `K`/);
  assert.match(info.documentation, /given to the hosts/);
});

test("rename of a declaration's export renames its lock binding key too, from its name or from an import", async () => {
  for (const from of [at("resources/infra.ts", "web =", 1), at("workflows/nightly.ts", "{ web }", 3)]) {
    const r = await s.request("rename", { ...from, findInStrings: false, findInComments: false });
    assert.equal(r.info.canRename, true);
    const lockGroup = r.locs.find((g: { file: string }) => g.file === file("sanoma.lock.json"));
    assert.ok(lockGroup, `the lockfile among ${r.locs.map((g: { file: string }) => g.file).join(", ")}`);
    const key = locationOf(text("sanoma.lock.json"), `#web"`, 1);
    assert.deepEqual(lockGroup.locs.map((l: { start: Location; end: Location }) => [l.start, l.end]), [[key, { line: key.line, offset: key.offset + 3 }]]);
    assert.ok(r.locs.some((g: { file: string }) => g.file === file("resources/infra.ts")), "TypeScript's own locations stay");
  }
  // A name that is no declaration renames nothing in the lockfile.
  const other = await s.request("rename", { ...at("workflows/nightly.ts", "const n", 6), findInStrings: false, findInComments: false });
  assert.ok(!other.locs.some((g: { file: string }) => g.file === file("sanoma.lock.json")));
});

test("configurePlugin { languageServer: true }: diagnostics, completion and definitions are left to the language server; rename stays", async () => {
  const from = s.events.length;
  await s.request("configurePlugin", { pluginName: PLUGIN, configuration: { languageServer: true } });
  await s.waitEvent((e) => e.event === "projectsUpdatedInBackground", from, 10_000); // the editor asks again
  try {
    const diags = await semanticOf("workflows/nightly.ts");
    assert.equal(sanoma(diags).length, 0);
    assert.ok(diags.some((d) => d.code === 2322), "TypeScript's own stay");
    const info = await s.request("completionInfo", { ...at("workflows/typing.ts", `"data."`, 6), prefix: "" }).catch(() => undefined);
    assert.ok(!info?.entries.some((e: { name: string }) => e.name.startsWith("data.")));
    assert.equal((await s.request("definition", at("workflows/nightly.ts", "data.orders.save", 3))).length, 0);
    const r = await s.request("rename", { ...at("resources/infra.ts", "web =", 1), findInStrings: false, findInComments: false });
    assert.ok(r.locs.some((g: { file: string }) => g.file === file("sanoma.lock.json")), "the lock binding is still renamed");
  } finally {
    await s.request("configurePlugin", { pluginName: PLUGIN, configuration: { languageServer: false } });
  }
  assert.equal(sanoma(await semanticOf("workflows/nightly.ts")).length, 1, "reported again once told so");
  assert.match(s.log(), /\[sanoma\] configured: languageServer true; reports no problems/);
});

test("the plugin's rules option sets a rule's severity or turns it off, as the sanoma.rules setting does", async () => {
  try {
    await s.request("configurePlugin", { pluginName: PLUGIN, configuration: { rules: { "collection-op": "warn" } } });
    assert.deepEqual(sanoma(await semanticOf("workflows/nightly.ts")).map((d) => d.category), ["warning"]);
    await s.request("configurePlugin", { pluginName: PLUGIN, configuration: { rules: { "collection-op": "off", "no-such-rule": "error" } } });
    assert.deepEqual(sanoma(await semanticOf("workflows/nightly.ts")), []);
    assert.match(s.log(), /\[sanoma\] the option rules names no rule "no-such-rule"/);
  } finally {
    await s.request("configurePlugin", { pluginName: PLUGIN, configuration: { rules: {} } });
  }
  assert.deepEqual(sanoma(await semanticOf("workflows/nightly.ts")).map((d) => d.category), ["error"]);
});

test(".sanomarc.json counts as the language server and sanoma-check read it: its levels (the plugin's rules option laid over them) and the folders it leaves out; written again, at the next request", async () => {
  const rc = file(".sanomarc.json");
  const generated = file("generated/g.ts");
  mkdirSync(dirname(generated), { recursive: true });
  writeFileSync(generated, `export const g = (ctx: { call(id: string, input: unknown): unknown }) => ctx.call("data.nope.get", {});\n`);
  s.open(generated);
  const categories = async (rel: string) => sanoma(await semanticOf(rel)).map((d) => d.category);
  try {
    assert.deepEqual(await categories("generated/g.ts"), ["error"], "a library file's operation id is judged");
    writeFileSync(rc, `{ "rules": { "collection-op": "warn" }, "exclude": ["generated"] }\n`);
    assert.deepEqual(await categories("workflows/nightly.ts"), ["warning"], "the file's level");
    assert.deepEqual(await categories("generated/g.ts"), [], "a folder it leaves out is not judged");
    await s.request("configurePlugin", { pluginName: PLUGIN, configuration: { rules: { "collection-op": "info" } } });
    assert.deepEqual(await categories("workflows/nightly.ts"), ["message"], "the plugin's own level wins, as an editor's setting does");
    await s.request("configurePlugin", { pluginName: PLUGIN, configuration: { rules: {} } });
    writeFileSync(rc, `{ "rules": { "collection-op": "off" } }\n`);
    assert.deepEqual(await categories("workflows/nightly.ts"), [], "turned off");
    assert.deepEqual(await categories("generated/g.ts"), [], "off everywhere");
    writeFileSync(rc, `{ "rules": { "colection-op": "off" } }\n`);
    assert.deepEqual(await categories("generated/g.ts"), ["error"], "no longer left out, and a bad id changes nothing");
    assert.match(s.log(), /\.sanomarc\.json:1:14: No rule named "colection-op"; did you mean "collection-op"\?/, "the file's problems in tsserver's log");
  } finally {
    await s.request("configurePlugin", { pluginName: PLUGIN, configuration: { rules: {} } });
    rmSync(rc, { force: true });
    rmSync(dirname(generated), { recursive: true, force: true });
  }
  assert.deepEqual(await categories("workflows/nightly.ts"), ["error"], "without the file, the default");
});

test("a company inside a folder that a .sanomarc.json above it leaves out is left out whole; without the file, it is judged", async () => {
  const top = join(dirname(dir), "kits");
  const starter = join(top, "templates", "starter");
  rmSync(top, { recursive: true, force: true });
  mkdirSync(join(starter, "workflows"), { recursive: true });
  writeFileSync(join(starter, "sanoma.config.ts"), "export default {};\n");
  const w = join(starter, "workflows", "w.ts");
  writeFileSync(w, `export const w = (ctx: { call(id: string, input: unknown): unknown }) => ctx.call("data.nope.get", {});\n`);
  writeFileSync(join(top, ".sanomarc.json"), `{ "exclude": ["templates"] }\n`);
  writeTsconfig(top);
  try {
    s.open(w);
    const ours = async () => sanoma((await s.geterr([w])).byFile.get(w)?.semantic ?? []).map((d) => d.code);
    assert.deepEqual(await ours(), [], "left out whole");
    rmSync(join(top, ".sanomarc.json"));
    assert.deepEqual(await ours(), [RULE_CODES["collection-op"]], "judged once nothing leaves it out");
  } finally {
    rmSync(top, { recursive: true, force: true });
  }
});

test("configurePlugin { exclude } with a path leaves out whole a company whose root lies in the folder it names from the company around it (a fixture company under test/fixtures), as sanoma.exclude and --exclude do", async () => {
  const top = join(dirname(dir), "nested-fixtures");
  const fixture = join(top, "test", "fixtures", "broken-co");
  rmSync(top, { recursive: true, force: true });
  mkdirSync(join(fixture, "workflows"), { recursive: true });
  writeFileSync(join(top, "sanoma.config.ts"), "export default {};\n");
  writeFileSync(join(fixture, "sanoma.config.ts"), "export default {};\n");
  const b = join(fixture, "workflows", "b.ts");
  writeFileSync(b, `export const b = (ctx: { call(id: string, input: unknown): unknown }) => ctx.call("data.nope.get", {});\n`);
  writeTsconfig(top);
  const ours = async () => sanoma((await s.geterr([b])).byFile.get(b)?.semantic ?? []).map((d) => d.code);
  try {
    s.open(b);
    assert.deepEqual(await ours(), [RULE_CODES["collection-op"]], "judged while nothing leaves it out");
    await s.request("configurePlugin", { pluginName: PLUGIN, configuration: { exclude: ["test/fixtures/"] } });
    assert.deepEqual(await ours(), [], "left out whole");
  } finally {
    await s.request("configurePlugin", { pluginName: PLUGIN, configuration: { exclude: [] } });
    rmSync(top, { recursive: true, force: true });
  }
});

test("configurePlugin { exclude } leaves a folder out of a company read already (it was taken by companies read later only), written as sanoma.exclude is; an option of no name the plugin knows is said", async () => {
  assert.equal(sanoma(await semanticOf("workflows/nightly.ts")).length, 1);
  try {
    // (`global`: what tsserver adds to a plugin loaded globally, no option of ours, nothing to say of.)
    await s.request("configurePlugin", { pluginName: PLUGIN, configuration: { exclude: ["workflows/"], exlude: ["x"], global: true } });
    assert.deepEqual(sanoma(await semanticOf("workflows/nightly.ts")), [], "left out");
    assert.match(s.log(), /\[sanoma\] the option "exlude" is none of this plugin's \(languageServer, rules, exclude\); did you mean "exclude"\?: left out/);
    assert.doesNotMatch(s.log(), /the option "global"/);
  } finally {
    await s.request("configurePlugin", { pluginName: PLUGIN, configuration: { exclude: [] } });
  }
  assert.equal(sanoma(await semanticOf("workflows/nightly.ts")).length, 1, "judged again");
});

test("the lockfile edited in the editor and closed unsaved: the problems of its unsaved text go with it", async () => {
  const lock = file("sanoma.lock.json");
  const lockfileProblems = async () => sanoma(await semanticOf("resources/infra.ts")).filter((d) => d.code === RULE_CODES.lockfile).length;
  assert.equal(await lockfileProblems(), 0);
  s.open(lock);
  const from = locationOf(text("sanoma.lock.json"), `"cloud.vm"`, 1);
  s.change(lock, from, { line: from.line, offset: from.offset + "cloud.vm".length }, "cloud.bucket");
  assert.equal(await lockfileProblems(), 1, "the unsaved text's type mismatch");
  s.send("close", { file: lock });
  assert.equal(await lockfileProblems(), 0, "the disk's text again");
});

test("an edit of tsconfig.json (tsserver makes the plugin again, over the service it had wrapped): each problem once, a lock key renamed once", async () => {
  const made = () => (s.log().match(/Plugin validation succeeded/g) ?? []).length;
  const before = made();
  const forgotten = () => (s.log().match(/\[sanoma\] forgot the company \S*\/features: /g) ?? []).length;
  const forgottenBefore = forgotten();
  writeTsconfig(dir, {}, { noUnusedLocals: true });
  try {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && made() === before) { await semanticOf("workflows/nightly.ts"); await new Promise((r) => setTimeout(r, 200)); }
    assert.ok(made() > before, "the plugin was made again (else this test proves nothing)");
    assert.equal(sanoma(await semanticOf("workflows/nightly.ts")).length, 1, "one problem, not two");
    const r = await s.request("rename", { ...at("resources/infra.ts", "web =", 1), findInStrings: false, findInComments: false });
    const lockGroup = r.locs.find((g: { file: string }) => g.file === file("sanoma.lock.json"));
    assert.equal(lockGroup?.locs.length, 1, "the key renamed once");
    // The service replaced let go of its share of the companies once the new one had taken it: the company was not read again.
    assert.equal(forgotten(), forgottenBefore);
  } finally {
    writeTsconfig(dir);
  }
});
