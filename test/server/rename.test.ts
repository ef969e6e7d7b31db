/**
 * Renaming a collection through the built server over stdio: the edit is applied to the open
 * documents, and the company must come out whole (no problem, the TypeScript names untouched).
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
export default defineConfig({ name: "acme" });
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const customers = collection({
  key: "id",
  fields: { id: "string" },
});
export const orders = collection({ key: "id", fields: { id: "string" } });
export const people = collection({ name: "users", key: "id", fields: { id: "string" } });
//- /workflows/main.ts
import { customers, orders } from "../resources/data";
export async function main(ctx: any) {
  await ctx.call("data.customers.get", { customers });
  await ctx.call("data.orders.list", { orders });
  await ctx.call("data.users.count", {});
}
//- /apps/billing/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const invoices = collection({ key: "id", fields: { id: "string" } });
${CLOUD_PACKAGE}`;

let server: RunningServer;
let root: string;
let c: LspClient;
const texts = new Map<string, string>();

function at(file: string, needle: string, delta = 0) {
  const text = texts.get(file)!;
  const i = text.indexOf(needle);
  assert.ok(i >= 0, `${needle} in ${file}`);
  const lines = text.slice(0, i + delta).split("\n");
  return { textDocument: { uri: uri(join(root, file)) }, position: { line: lines.length - 1, character: lines[lines.length - 1].length } };
}

/** Applies a workspace edit to the open documents, as a client does. */
function apply(edit: { changes: Record<string, { range: any; newText: string }[]> }) {
  for (const file of texts.keys()) {
    const edits = edit.changes[uri(join(root, file))];
    if (!edits) continue;
    let text = texts.get(file)!;
    const offset = (p: { line: number; character: number }) => text.split("\n").slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
    for (const e of [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start))) text = text.slice(0, offset(e.range.start)) + e.newText + text.slice(offset(e.range.end));
    texts.set(file, text);
    c.change(join(root, file), text);
  }
}

before(async () => {
  ({ root, c } = server = await startServer(COMPANY));
  for (const f of ["resources/data.ts", "workflows/main.ts"]) { texts.set(f, readFileSync(join(root, f), "utf8")); c.open(join(root, f), texts.get(f)!); }
  await c.waitIdle();
});
after(() => server.stop());

test("rename: a bad name or one another collection has is refused, saying why", async () => {
  const params = at("resources/data.ts", "customers =");
  await assert.rejects(c.request("textDocument/rename", { ...params, newName: "1x" }), /1x is not a collection name: .*not starting with a digit/);
  await assert.rejects(c.request("textDocument/rename", { ...params, newName: "a.b" }), /not a collection name/);
  await assert.rejects(c.request("textDocument/rename", { ...params, newName: "orders" }), /a collection named orders exists already/);
  await assert.rejects(c.request("textDocument/rename", { ...params, newName: "users" }), /a collection named users exists already/, "named by its name literal");
  await assert.rejects(c.request("textDocument/rename", { ...params, newName: "invoices" }), /a collection named invoices exists already \(apps\/billing\/resources\/data\.ts\)/, "in another scope");
});

test("prepareRename and rename: an op id naming a collection of a scope its file does not see is refused, saying why", async () => {
  await withServer(`
//- /sanoma.config.ts
export default {};
//- /apps/billing/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const invoices = collection({ key: "id", fields: { id: "string" } });
//- /apps/billing/workflows/bill.ts
export const bill = (ctx: any) => ctx.call("data.invoices.get");
//- /apps/shop/workflows/shop.ts
export const shop = (ctx: any) => ctx.call("data.invoices.list");
//- /workflows/nightly.ts
export const n = (ctx: any) => ctx.call("data.invoices.get");
${CLOUD_PACKAGE}`, async ({ c: other, root: r }) => {
    const where = (file: string, line: string) => ({ textDocument: { uri: uri(join(r, file)) }, position: { line: 0, character: line.indexOf("data.invoices") + 7 } });
    const nightly = where("workflows/nightly.ts", `export const n = (ctx: any) => ctx.call("data.invoices.get");`);
    await assert.rejects(other.request("textDocument/prepareRename", nightly), /invoices is a collection of app billing \(apps\/billing\/resources\/data\.ts\), which the root scope does not see/);
    await assert.rejects(other.request("textDocument/rename", { ...nightly, newName: "bills" }), /which the root scope does not see/);
    const shop = where("apps/shop/workflows/shop.ts", `export const shop = (ctx: any) => ctx.call("data.invoices.list");`);
    await assert.rejects(other.request("textDocument/prepareRename", shop), /which app shop does not see/);
    // From its own app: renamed, with the op ids of the scopes that see it.
    const bill = where("apps/billing/workflows/bill.ts", `export const bill = (ctx: any) => ctx.call("data.invoices.get");`);
    assert.equal((await other.request("textDocument/prepareRename", bill)).placeholder, "invoices");
    const edit = await other.request("textDocument/rename", { ...bill, newName: "bills" });
    assert.deepEqual(Object.keys(edit.changes).map((u) => u.slice(uri(r).length + 1)).sort(), ["apps/billing/resources/data.ts", "apps/billing/workflows/bill.ts"]);
  });
});

test("prepareRename: the name under the cursor, with the collection's name", async () => {
  assert.deepEqual(await c.request("textDocument/prepareRename", at("resources/data.ts", "customers =", 3)),
    { range: { start: { line: 1, character: 13 }, end: { line: 1, character: 22 } }, placeholder: "customers" });
  assert.deepEqual(await c.request("textDocument/prepareRename", at("resources/data.ts", `"users"`, 2)),
    { range: { start: { line: 6, character: 42 }, end: { line: 6, character: 47 } }, placeholder: "users" });
  assert.deepEqual(await c.request("textDocument/prepareRename", at("resources/data.ts", "people =", 2)),
    { range: { start: { line: 6, character: 13 }, end: { line: 6, character: 19 } }, placeholder: "users" }, "the export's name of a named collection");
  assert.deepEqual(await c.request("textDocument/prepareRename", at("workflows/main.ts", "data.orders.list", 7)),
    { range: { start: { line: 3, character: 23 }, end: { line: 3, character: 29 } }, placeholder: "orders" });
});

test("rename: a collection named by its export gets a name property; the identifier, its import and its uses stay", async () => {
  apply(await c.request("textDocument/rename", { ...at("resources/data.ts", "customers =", 2), newName: "clients" }));
  apply(await c.request("textDocument/rename", { ...at("workflows/main.ts", "data.orders.list", 7), newName: "purchases" }));
  apply(await c.request("textDocument/rename", { ...at("resources/data.ts", `"users"`, 2), newName: "members" }));
  assert.equal(texts.get("resources/data.ts"), `import { collection } from "@sanoma-ai/workflows/data";
export const customers = collection({
  name: "clients",
  key: "id",
  fields: { id: "string" },
});
export const orders = collection({ name: "purchases", key: "id", fields: { id: "string" } });
export const people = collection({ name: "members", key: "id", fields: { id: "string" } });
`);
  assert.equal(texts.get("workflows/main.ts"), `import { customers, orders } from "../resources/data";
export async function main(ctx: any) {
  await ctx.call("data.clients.get", { customers });
  await ctx.call("data.purchases.list", { orders });
  await ctx.call("data.members.count", {});
}
`);
  await c.waitIdle();
  for (const f of texts.keys()) assert.deepEqual(c.diagnosticsFor(join(root, f)), [], `${f} has no problem`);
  // Named now: a second rename edits the literal it got.
  const again = await c.request("textDocument/rename", { ...at("resources/data.ts", "customers =", 2), newName: "buyers" });
  assert.deepEqual(again.changes[uri(join(root, "resources/data.ts"))], [{ range: { start: { line: 2, character: 9 }, end: { line: 2, character: 16 } }, newText: "buyers" }]);
});

test("rename: a collection whose name property is no literal is refused (a second name would be a duplicate key); an op id written with escapes is written anew, whole", async () => {
  await withServer(`
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
const NAME = "named";
export const byConst = collection({ name: NAME, key: "id", fields: { id: "string" } });
export const esc = collection({ key: "id", fields: { id: "string" } });
//- /workflows/w.ts
export const w = (ctx: any) => [ctx.call("data.\\u0065sc.get", {}), ctx.call("data.esc.list", {})];
`, async ({ c: s, root: dir }) => {
    const data = readFileSync(join(dir, "resources/data.ts"), "utf8").split("\n");
    const pos = (lines: string[], line: number, needle: string) => ({ line, character: lines[line].indexOf(needle) + 1 });
    await assert.rejects(s.request("textDocument/rename", { textDocument: { uri: uri(join(dir, "resources/data.ts")) }, position: pos(data, 2, "byConst"), newName: "other" }), /name property is not a string literal/);
    const w = readFileSync(join(dir, "workflows/w.ts"), "utf8").split("\n");
    const at = { textDocument: { uri: uri(join(dir, "workflows/w.ts")) }, position: pos(w, 0, "\\u0065sc") };
    const prepared = await s.request("textDocument/prepareRename", at);
    assert.equal(prepared.placeholder, "esc");
    const edit = await s.request("textDocument/rename", { ...at, newName: "esc2" });
    const start = w[0].indexOf(`"data.\\u0065sc.get"`) + 1;
    assert.deepEqual(edit.changes[uri(join(dir, "workflows/w.ts"))].sort((a: any, b: any) => a.range.start.character - b.range.start.character), [
      { range: { start: { line: 0, character: start }, end: { line: 0, character: start + `data.\\u0065sc.get`.length } }, newText: "data.esc2.get" },
      { range: { start: { line: 0, character: w[0].indexOf("data.esc.list") + 5 }, end: { line: 0, character: w[0].indexOf("data.esc.list") + 8 } }, newText: "esc2" },
    ]);
  });
});

for (const [eol, name] of [["\r\n", "CRLF"], ["\r", "a lone CR"]] as const) {
  test(`rename: in a file whose lines end with ${name}, the name property added on a line of its own ends with ${name} too, indented as the first property`, async () => {
    const text = ["import { collection } from \"@sanoma-ai/workflows/data\";", "export const customers = collection({", "\t\tkey: \"id\",", "\t\tfields: { id: \"string\" },", "});", ""].join(eol);
    await withServer(COMPANY, async ({ c: other, root: otherRoot }) => {
      const file = join(otherRoot, "resources/data.ts");
      other.open(file, text);
      await other.waitIdle();
      const edit = await other.request("textDocument/rename", { textDocument: { uri: uri(file) }, position: { line: 1, character: 15 }, newName: "clients" });
      assert.deepEqual(edit.changes[uri(file)], [{ range: { start: { line: 2, character: 2 }, end: { line: 2, character: 2 } }, newText: `name: "clients",${eol}\t\t` }]);
    });
  });
}
