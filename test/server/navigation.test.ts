/**
 * Navigation through the built server over stdio: completion, hover, definition, references,
 * rename, quick fixes, symbols, code lenses and the custom requests. Positions are found by text.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { LspClient, uri } from "../support/lsp.ts";
import { startServer, withServer, type RunningServer } from "../support/server.ts";
import { CLOUD_PACKAGE } from "../support/companies.ts";

const COMPANY = `
//- /sanoma.config.ts
import { defineConfig } from "@sanoma-ai/workflows";
export default defineConfig({ name: "acme", secrets: { bindings: { CLOUD_KEY: { env: "K" } } } });
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const orders = collection({ key: "id", fields: { id: "string", total: "number" } });
export const people = collection({ name: "users", key: "id", fields: { id: "string" } });
//- /resources/infra.ts
import { vm, cloud } from "@hooli/cloud";
import { secret } from "@sanoma-ai/workflows";
export const web = vm({ name: "web", zone: "eu-1" });
export const api = cloud.vm({ nam: "api" });
export const key = secret("CLOUD_KEY");
export const typo = secret('CLOUD_KY');
//- /workflows/nightly.ts
export async function nightly(ctx: any) {
  await ctx.call("data.orders.save", {});
  await ctx.call("data.users.list", {});
  await ctx.call("data.orders.lst", {});
  await ctx.call("data.", {});
}
export const hourly = async (ctx: any) => ctx.call("data.orders.count", {});
const notExported = async (ctx: any) => 1;
async function weekly(ctx: any) { return ctx; }
export { notExported as renamed, weekly };
//- /apps/billing/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const invoices = collection({ key: "id", fields: { id: "string" } });
//- /apps/billing/workflows/bill.ts
export const bill = (ctx: any) => ctx.call("data.invoices.get", {}) && ctx.call("data.orders.get", {});
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/infra.ts#web": { "type": "cloud.vm", "object": "cloud:vm/1" }
} }
${CLOUD_PACKAGE}`;

let server: RunningServer;
let root: string;
let c: LspClient;

function at(file: string, needle: string, delta = 0) {
  const text = readFileSync(join(root, file), "utf8");
  const i = text.indexOf(needle);
  assert.ok(i >= 0, `${needle} in ${file}`);
  const lines = text.slice(0, i + delta).split("\n");
  return { textDocument: { uri: uri(join(root, file)) }, position: { line: lines.length - 1, character: lines[lines.length - 1].length } };
}

before(async () => {
  ({ root, c } = server = await startServer(COMPANY));
  for (const f of ["workflows/nightly.ts", "resources/infra.ts", "apps/billing/workflows/bill.ts"]) c.open(join(root, f), readFileSync(join(root, f), "utf8"));
  await c.waitIdle();
});
after(() => server.stop());

test("completion: op ids inside a data. string, only from collections the scope sees", async () => {
  const items = await c.request("textDocument/completion", at("workflows/nightly.ts", `"data.", {}`, 6));
  const labels = items.map((i: any) => i.label);
  assert.ok(labels.includes("data.orders.save"));
  assert.ok(labels.includes("data.users.saveMany"), "named by its name property");
  assert.ok(!labels.some((l: string) => l.startsWith("data.invoices.")), "an app's collection is not offered to the root scope");
  const app = await c.request("textDocument/completion", at("apps/billing/workflows/bill.ts", `data.invoices.get`, 5));
  const appLabels = app.map((i: any) => i.label);
  assert.ok(appLabels.includes("data.invoices.get") && appLabels.includes("data.orders.get"), "an app sees its own and the root's");
  assert.deepEqual(items.find((i: any) => i.label === "data.orders.save").textEdit.newText, "data.orders.save");
});

test("completion: a type's field names inside a desired object, and a connector's types after a dot", async () => {
  const fields = await c.request("textDocument/completion", at("resources/infra.ts", `zone: "eu-1"`, 2));
  assert.deepEqual(fields.map((i: any) => i.label).sort(), ["disk", "zone"], "fields not yet written (zone is the word being typed)");
  const types = await c.request("textDocument/completion", at("resources/infra.ts", `cloud.vm(`, 6));
  assert.deepEqual(types.map((i: any) => i.label).sort(), ["bucket", "runner", "trigger", "vm"]);
});

test("completion: the right framework module inside an import's specifier", async () => {
  const items = await c.request("textDocument/completion", at("resources/infra.ts", `@sanoma-ai/workflows";`, 0));
  const first = items.find((i: any) => i.preselect);
  assert.equal(first.label, "@sanoma-ai/workflows/resources");
});

test("hover: a declaration shows its type's contracts, fields and lock binding", async () => {
  const h = await c.request("textDocument/hover", at("resources/infra.ts", "web ="));
  assert.match(h.contents.value, /cloud\.vm/);
  assert.match(h.contents.value, /Contracts: `host`/);
  assert.match(h.contents.value, /`name` \(required\)/);
  assert.match(h.contents.value, /`zone` \(optional\)/);
  assert.match(h.contents.value, /Lock binding: `cloud:vm\/1`/);
});

test("hover: a client that shows only plain text gets plain text", async () => {
  await withServer([], async ({ c: plain }) => {
    const h = await plain.request("textDocument/hover", at("resources/infra.ts", "web ="));
    assert.equal(h.contents.kind, "plaintext");
    assert.match(h.contents.value, /Contracts: host/);
    assert.doesNotMatch(h.contents.value, /[`*]/);
  }, { hoverFormats: ["plaintext"], folders: [root] });
});

test("hover: an op id shows its collection's key, fields and operations, saveMany as a batch", async () => {
  const h = await c.request("textDocument/hover", at("workflows/nightly.ts", "data.orders.save", 3));
  assert.match(h.contents.value, /Collection \*\*orders\*\*/);
  assert.match(h.contents.value, /Key: `id`/);
  assert.match(h.contents.value, /`saveMany` \(a batch/);
});

test("definition: op id → collection; declaration ↔ lock binding; call → defineResource", async () => {
  const toCollection = await c.request("textDocument/definition", at("workflows/nightly.ts", "data.users.list", 3));
  assert.equal(toCollection[0].uri, uri(join(root, "resources/data.ts")));
  assert.equal(toCollection[0].range.start.line, 2);
  const toLock = await c.request("textDocument/definition", at("resources/infra.ts", "web ="));
  assert.equal(toLock[0].uri, uri(join(root, "sanoma.lock.json")));
  assert.equal(toLock[0].range.start.line, 1);
  const back = await c.request("textDocument/definition", { textDocument: { uri: uri(join(root, "sanoma.lock.json")) }, position: { line: 1, character: 5 } });
  assert.equal(back[0].uri, uri(join(root, "resources/infra.ts")));
  assert.equal(back[0].range.start.line, 2);
  const toSpec = await c.request("textDocument/definition", at("resources/infra.ts", "vm({ name", 1));
  assert.equal(toSpec[0].uri, uri(join(root, "node_modules/@hooli/cloud/src/compute.js")));
});

test("secret(\"NAME\"): hover shows its binding in the config, definition goes to it; an unbound name says so and goes nowhere", async () => {
  const h = await c.request("textDocument/hover", at("resources/infra.ts", `"CLOUD_KEY"`, 3));
  assert.match(h.contents.value, /Secret \*\*CLOUD_KEY\*\*: bound in `sanoma\.config\.ts`/);
  assert.match(h.contents.value, /environment variable `K`/);
  const def = await c.request("textDocument/definition", at("resources/infra.ts", `"CLOUD_KEY"`, 3));
  const config = readFileSync(join(root, "sanoma.config.ts"), "utf8").split("\n");
  assert.equal(def.length, 1);
  assert.equal(def[0].uri, uri(join(root, "sanoma.config.ts")));
  assert.equal(config[def[0].range.start.line].slice(def[0].range.start.character, def[0].range.end.character), "CLOUD_KEY", "the binding's name");
  const typo = await c.request("textDocument/hover", at("resources/infra.ts", `'CLOUD_KY'`, 3));
  assert.match(typo.contents.value, /no binding of that name in `sanoma\.config\.ts`; apply will look for it in the secret store/);
  assert.equal(await c.request("textDocument/definition", at("resources/infra.ts", `'CLOUD_KY'`, 3)), null);
});

test("references: a collection → every op id that names it, in the scopes that see it", async () => {
  const refs = await c.request("textDocument/references", { ...at("resources/data.ts", "orders ="), context: { includeDeclaration: false } });
  const where = refs.map((r: any) => `${r.uri.slice(r.uri.lastIndexOf("/") + 1)}:${r.range.start.line}`).sort();
  assert.deepEqual(where, ["bill.ts:0", "nightly.ts:1", "nightly.ts:3", "nightly.ts:6"]);
});

test("rename: a collection's name literal and every op id naming it, in one edit", async () => {
  const prep = await c.request("textDocument/prepareRename", at("workflows/nightly.ts", "data.users.list", 7));
  assert.equal(prep.placeholder, "users");
  const edit = await c.request("textDocument/rename", { ...at("workflows/nightly.ts", "data.users.list", 7), newName: "members" });
  const data = edit.changes[uri(join(root, "resources/data.ts"))];
  assert.deepEqual(data.map((e: any) => e.newText), ["members"]);
  const nightly = edit.changes[uri(join(root, "workflows/nightly.ts"))];
  assert.equal(nightly.length, 1);
  assert.deepEqual(nightly[0].range, { start: { line: 2, character: 23 }, end: { line: 2, character: 28 } });
  await assert.rejects(c.request("textDocument/rename", { ...at("workflows/nightly.ts", "data.users.list", 7), newName: "a.b" }), /not a collection name/);
});

test("code actions: did-you-mean replacements and the right import source", async () => {
  const nightly = join(root, "workflows/nightly.ts");
  await c.waitFor(() => c.diagnosticsFor(nightly).length > 0, "nightly's problems");
  const d = c.diagnosticsFor(nightly).find((x) => x.code === "collection-op")!;
  const actions = await c.request("textDocument/codeAction", { textDocument: { uri: uri(nightly) }, range: d.range, context: { diagnostics: [d] } });
  assert.equal(actions[0].title, "Change to data.orders.list");
  assert.equal(actions[0].isPreferred, true, "the core's certain fix, as sanoma-check --fix applies it");
  assert.equal(actions[0].edit.changes[uri(nightly)][0].newText, "data.orders.list");
  const infra = join(root, "resources/infra.ts");
  const imp = c.diagnosticsFor(infra).find((x) => x.code === "data-file-imports")!;
  const fix = await c.request("textDocument/codeAction", { textDocument: { uri: uri(infra) }, range: imp.range, context: { diagnostics: [imp] } });
  // (The text between the specifier's quotes: the quotes the file uses stay.)
  const edit = fix[0].edit.changes[uri(infra)][0];
  assert.equal(edit.newText, "@sanoma-ai/workflows/resources");
  assert.deepEqual({ start: edit.range.start.character, end: edit.range.end.character }, { start: imp.range.start.character + 1, end: imp.range.end.character - 1 });
  const field = c.diagnosticsFor(infra).find((x) => x.code === "resource-fields" && /`nam` is not a field/.test(x.message))!;
  const rename = await c.request("textDocument/codeAction", { textDocument: { uri: uri(infra) }, range: field.range, context: { diagnostics: [field] } });
  assert.equal(rename[0].edit.changes[uri(infra)][0].newText, "name");
  const secret = c.diagnosticsFor(infra).find((x) => x.code === "secret-bindings")!;
  assert.match(secret.message, /did you mean `CLOUD_KEY`\?/);
  const change = await c.request("textDocument/codeAction", { textDocument: { uri: uri(infra) }, range: secret.range, context: { diagnostics: [secret] } });
  assert.equal(change.length, 1, "a quick fix for the secret's did-you-mean");
  assert.equal(change[0].title, `Change to "CLOUD_KEY"`);
  const line = readFileSync(infra, "utf8").split("\n")[5];
  assert.deepEqual(change[0].edit.changes[uri(infra)], [{ range: { start: { line: 5, character: line.indexOf("CLOUD_KY") }, end: { line: 5, character: line.indexOf("CLOUD_KY") + 8 } }, newText: "CLOUD_KEY" }]);
});

test("symbols: declarations, collections and workflows, per document and workspace-wide", async () => {
  const doc = await c.request("textDocument/documentSymbol", { textDocument: { uri: uri(join(root, "workflows/nightly.ts")) } });
  assert.deepEqual(doc.map((s: any) => s.name).sort(), ["hourly", "nightly", "renamed", "weekly"], "workflows exported by name count");
  // range: the whole declaration statement; selectionRange: the name.
  const range = (l1: number, c1: number, l2: number, c2: number) => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });
  const width = (file: string, line: number) => readFileSync(join(root, file), "utf8").split("\n")[line].length;
  const nightly = doc.find((s: any) => s.name === "nightly");
  assert.deepEqual([nightly.range, nightly.selectionRange], [range(0, 0, 5, 1), range(0, 22, 0, 29)]);
  const hourly = doc.find((s: any) => s.name === "hourly");
  assert.deepEqual([hourly.range, hourly.selectionRange], [range(6, 0, 6, width("workflows/nightly.ts", 6)), range(6, 13, 6, 19)]);
  const renamed = doc.find((s: any) => s.name === "renamed");
  assert.deepEqual([renamed.range, renamed.selectionRange], [range(7, 0, 7, width("workflows/nightly.ts", 7)), range(7, 6, 7, 17)], "the local const, where the workflow is written");
  const data = await c.request("textDocument/documentSymbol", { textDocument: { uri: uri(join(root, "resources/data.ts")) } });
  const orders = data.find((s: any) => s.name === "orders");
  assert.deepEqual([orders.range, orders.selectionRange], [range(1, 0, 1, width("resources/data.ts", 1)), range(1, 13, 1, 19)]);
  const users = data.find((s: any) => s.name === "users");
  assert.deepEqual(users.selectionRange, range(2, 41, 2, 48), "named by its name literal");
  assert.deepEqual(users.range.start, { line: 2, character: 0 });
  const infra = await c.request("textDocument/documentSymbol", { textDocument: { uri: uri(join(root, "resources/infra.ts")) } });
  const web = infra.find((s: any) => s.name === "web");
  assert.deepEqual([web.range, web.selectionRange], [range(2, 0, 2, width("resources/infra.ts", 2)), range(2, 13, 2, 16)]);
  const all = await c.request("workspace/symbol", { query: "" });
  const names = all.map((s: any) => s.name);
  for (const n of ["web", "api", "orders", "users", "invoices", "nightly", "hourly", "bill"]) assert.ok(names.includes(n), n);
  const q = await c.request("workspace/symbol", { query: "inv" });
  assert.deepEqual(q.map((s: any) => s.name), ["invoices"]);
});

test("workspace symbols: a query is matched by code point, so a name with a character outside the BMP (𝒳, two UTF-16 halves) is found by it", async () => {
  await withServer(`
//- /sanoma.config.ts
export default {};
//- /workflows/w.ts
export const 𝒳web = async () => 1;
export const éte = async () => 2;
`, async ({ c: other }) => {
    const names = async (query: string) => (await other.request("workspace/symbol", { query })).map((s: any) => s.name);
    assert.deepEqual(await names("𝒳"), ["𝒳web"]);
    assert.deepEqual(await names("𝒳w"), ["𝒳web"]);
    assert.deepEqual(await names("web"), ["𝒳web"]);
    assert.deepEqual(await names("ét"), ["éte"]);
  });
});

test("code lenses: a preview lens above each exported workflow", async () => {
  const lenses = await c.request("textDocument/codeLens", { textDocument: { uri: uri(join(root, "workflows/nightly.ts")) } });
  assert.deepEqual(lenses.map((l: any) => l.command.arguments[0].export).sort(), ["hourly", "nightly", "renamed", "weekly"]);
  assert.equal(lenses.find((l: any) => l.command.arguments[0].export === "renamed").range.start.line, 7, "above the const that holds it");
  assert.equal(lenses[0].command.command, "sanoma.preview");
  const none = await c.request("textDocument/codeLens", { textDocument: { uri: uri(join(root, "resources/infra.ts")) } });
  assert.deepEqual(none, []);
});

test("code lenses and symbols: a default export written as an arrow, a call or a name is the workflow default, as export default function is; an overloaded function is one workflow", async () => {
  await withServer(`
//- /sanoma.config.ts
export default {};
//- /workflows/a.ts
export default async function (ctx: any) { await ctx.call("data.x.get"); }
//- /workflows/b.ts
export default async (ctx: any) => { await ctx.call("data.x.get"); };
//- /workflows/c.ts
const run = async (ctx: any) => { await ctx.call("data.x.get"); };
export default run;
//- /workflows/d.ts
async function go(ctx: any) { return ctx; }
export default go;
//- /workflows/e.ts
export default step("e", async (ctx: any) => ctx);
//- /workflows/f.ts
export const limits = { a: 1 };
export default limits;
//- /workflows/over.ts
export function over(ctx: { dry: true }): Promise<void>;
export function over(ctx: { dry: false }): Promise<number>;
export async function over(ctx: any): Promise<any> { return ctx; }
`, async ({ c: other, root: r }) => {
    const files = ["a", "b", "c", "d", "e", "f", "over"].map((f) => join(r, "workflows", `${f}.ts`));
    for (const f of files) other.open(f, readFileSync(f, "utf8"));
    await other.waitIdle();
    const lenses: Record<string, [string, number][]> = {};
    const symbols: Record<string, string[]> = {};
    for (const f of files) {
      const name = f.slice(f.lastIndexOf("/") + 1);
      lenses[name] = (await other.request("textDocument/codeLens", { textDocument: { uri: uri(f) } })).map((l: any) => [l.command.arguments[0].export, l.range.start.line]);
      symbols[name] = (await other.request("textDocument/documentSymbol", { textDocument: { uri: uri(f) } })).map((s: any) => s.name);
    }
    assert.deepEqual(lenses, { "a.ts": [["default", 0]], "b.ts": [["default", 0]], "c.ts": [["default", 0]], "d.ts": [["default", 0]], "e.ts": [["default", 0]], "f.ts": [], "over.ts": [["over", 2]] });
    assert.deepEqual(symbols, { "a.ts": ["default"], "b.ts": ["default"], "c.ts": ["default"], "d.ts": ["default"], "e.ts": ["default"], "f.ts": [], "over.ts": ["over"] });
    assert.equal((await other.request("workspace/symbol", { query: "over" })).length, 1, "one symbol, not one a signature");
  });
});

test("sanoma/companies and sanoma/status describe the company", async () => {
  const { companies } = await c.request("sanoma/companies", null);
  assert.equal(companies.length, 1);
  assert.equal(companies[0].name, "acme");
  assert.deepEqual(companies[0].apps, ["billing"]);
  assert.deepEqual(companies[0].declarationFiles, ["apps/billing/workflows/bill.ts", "workflows/nightly.ts", "apps/billing/resources/data.ts", "resources/data.ts"]);
  assert.equal(companies[0].counts.declarations, 2);
  assert.equal(companies[0].counts.collections, 3);
  const status = await c.request("sanoma/status", null);
  assert.equal(status.state, "idle");
  assert.equal(typeof status.lastCheckMs, "number");
});

test("a request on a file outside any company answers empty, and the server keeps going", async () => {
  const outside = { textDocument: { uri: "file:///nowhere/x.ts" }, position: { line: 0, character: 0 } };
  assert.equal(await c.request("textDocument/hover", outside), null);
  assert.deepEqual(await c.request("textDocument/completion", outside), []);
  assert.equal(await c.request("textDocument/definition", { textDocument: { uri: "untitled:1" }, position: { line: 0, character: 0 } }), null);
  assert.equal((await c.request("sanoma/status", null)).companies, 1);
});

test("hover: a declaration whose package was not found says why: not installed, installed by Yarn's Plug'n'Play, not built", async () => {
  const company = (where: string, pkg: string) => `
//- /${where}/sanoma.config.ts
export default {};
//- /${where}/resources/infra.ts
import { cloud } from "${pkg}";
export const web = cloud.vm({ name: "web" });
`;
  const other = await startServer(`
//- /pnp/.pnp.cjs
module.exports = {};
${company("pnp/co", "@x/cloud")}
${company("bare", "@x/cloud")}
${company("unbuilt", "@x/cloud")}
//- /unbuilt/node_modules/@x/cloud/package.json
{ "name": "@x/cloud", "main": "./dist/index.js" }
`);
  try {
    const said: string[] = [];
    for (const where of ["bare", "pnp/co", "unbuilt"]) {
      const file = join(other.root, where, "resources/infra.ts");
      const text = readFileSync(file, "utf8");
      other.c.open(file, text);
      await other.c.waitIdle();
      const line = text.split("\n").findIndex((l) => l.startsWith("export const web"));
      const h = await other.c.request("textDocument/hover", { textDocument: { uri: uri(file) }, position: { line, character: 14 } });
      said.push(h.contents.value.split("\n\n")[1]);
    }
    assert.deepEqual(said, [
      "Type unknown: the package `@x/cloud` is not installed (install the company's packages first)",
      `Type unknown: the package \`@x/cloud\` is installed by Yarn Plug'n'Play (${join(other.root, "pnp/.pnp.cjs")}), whose packages cannot be read here: set \`nodeLinker: node-modules\` in .yarnrc.yml`,
      "Type unknown: the package `@x/cloud` is there, but not its entry `./dist/index.js` (build it first)",
    ]);
  } finally {
    await other.stop();
  }
});

test("hover: a lock binding no declaration declares is an orphan, as the lockfile rule says, unless its file is there but unread (it does not load, or lies in a folder sanoma.exclude leaves out): then what the file declares is unknown", async () => {
  const company = `
//- /sanoma.config.ts
import { defineConfig } from "@sanoma-ai/workflows";
export default defineConfig({ name: "acme" });
//- /resources/infra.ts
import { vm } from "@hooli/cloud";
export const web = vm({ name: "web" });
//- /resources/broken.ts
import { vm } from "@hooli/cloud";
export const db = vm({ name: "db" ;
//- /apps/legacy/resources/queue.ts
import { vm } from "@hooli/cloud";
export const queue = vm({ name: "q" });
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/infra.ts#web": { "type": "cloud.vm", "object": "cloud:vm/1" },
  "resources/gone.ts#old": { "type": "cloud.vm", "object": "cloud:vm/2" },
  "resources/broken.ts#db": { "type": "cloud.vm", "object": "cloud:vm/3" },
  "apps/legacy/resources/queue.ts#queue": { "type": "cloud.vm", "object": "cloud:vm/4" }
} }
${CLOUD_PACKAGE}`;
  await withServer(company, async ({ root, c: client }) => {
    const lock = join(root, "sanoma.lock.json");
    const lines = readFileSync(lock, "utf8").split("\n");
    const hoverOf = async (key: string) => {
      const line = lines.findIndex((l) => l.includes(`"${key}"`));
      const h = await client.request("textDocument/hover", { textDocument: { uri: uri(lock) }, position: { line, character: lines[line].indexOf(key) + 2 } });
      return h.contents.value.split("\n\n")[1];
    };
    await client.waitFor(() => client.diagnosticsFor(lock).length > 0, "the lockfile checked");
    assert.deepEqual(client.diagnosticsFor(lock).map((d) => d.range.start.line), [2], "the lockfile rule: the one orphan alone");
    assert.equal(await hoverOf("resources/infra.ts#web"), "declared in `resources/infra.ts` as cloud.vm");
    assert.equal(await hoverOf("resources/gone.ts#old"), "no declaration declares it (an orphan)");
    assert.equal(await hoverOf("resources/broken.ts#db"), "`resources/broken.ts` does not load (syntax errors): what it declares is unknown");
    assert.equal(await hoverOf("apps/legacy/resources/queue.ts#queue"), "`apps/legacy/resources/queue.ts` lies in a folder left out (`exclude`): it is not read, so what it declares is unknown");
  }, { settings: { exclude: ["apps/legacy"] } });
});
