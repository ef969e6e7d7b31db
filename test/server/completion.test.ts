/**
 * Completion through the built server over stdio, as text is being typed: a scratch file of the
 * company is given a text with the cursor marked `|`, and completion is asked there.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { LspClient, uri } from "../support/lsp.ts";
import { startServer, type RunningServer } from "../support/server.ts";
import { CLOUD_PACKAGE } from "../support/companies.ts";

const COMPANY = `
//- /sanoma.config.ts
import { defineConfig } from "@sanoma-ai/workflows";
export default defineConfig({ name: "acme" });
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const customers = collection({ key: "id", fields: { id: "string" } });
//- /resources/infra.ts
import { vm, cloud } from "@hooli/cloud";
export const web = vm({ name: "web" });
//- /workflows/main.ts
export async function main(ctx: any) {
  await ctx.call("data.customers.get", {});
}
//- /node_modules/@acme/http/package.json
{ "name": "@acme/http", "main": "index.js" }
//- /node_modules/@acme/http/index.js
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const gateway = defineResource({ vendor: "acme", type: "gateway", title: "Gateway", schema: z.object({ "max-size": z.number().optional(), name: z.string() }), fields: {}, writable: true });
${CLOUD_PACKAGE}`;

let server: RunningServer;
let root: string;
let c: LspClient;
const opened = new Set<string>();

/** Gives `file` the text `marked` without its `|`, and asks for completion at the `|`. */
async function complete(file: string, marked: string): Promise<any[]> {
  const i = marked.indexOf("|");
  assert.ok(i >= 0, "a cursor");
  const text = marked.slice(0, i) + marked.slice(i + 1);
  const path = join(root, file);
  if (opened.has(path)) c.change(path, text); else { c.open(path, text); opened.add(path); }
  const lines = marked.slice(0, i).split("\n");
  return c.request("textDocument/completion", { textDocument: { uri: uri(path) }, position: { line: lines.length - 1, character: lines[lines.length - 1].length } });
}

before(async () => { ({ root, c } = server = await startServer(COMPANY)); });
after(() => server.stop());

test("completion: an op id replaces the whole string, not just what is before the cursor", async () => {
  const items = await complete("workflows/main.ts", `export async function main(ctx: any) {\n  await ctx.call("data.customers.|get", {});\n}\n`);
  const list = items.find((i) => i.label === "data.customers.list");
  assert.ok(list, "data.customers.list offered");
  // `  await ctx.call("` is 18 characters: the content runs from 18 to the closing quote at 36.
  assert.deepEqual(list.textEdit.range, { start: { line: 1, character: 18 }, end: { line: 1, character: 36 } });
  assert.equal(list.textEdit.newText, "data.customers.list");
  const single = await complete("workflows/main.ts", `export async function main(ctx: any) {\n  await ctx.call('data.cus|tomers.get', {});\n}\n`);
  assert.deepEqual(single.find((i) => i.label === "data.customers.get").textEdit.range.end, { line: 1, character: 36 });
  // Unterminated (being typed): the rest of the word at the cursor.
  const open = await complete("workflows/main.ts", `export async function main(ctx: any) {\n  await ctx.call("data.|customers\n}\n`);
  assert.deepEqual(open.find((i) => i.label === "data.customers.get").textEdit.range.end, { line: 1, character: 32 });
});

test("completion: every item's edit stays on the cursor's line; a string continued from the line before offers nothing", async () => {
  const continued = await complete("workflows/main.ts", `export async function main(ctx: any) {
  await ctx.call("data.\\
cus|tomers.get", {});
}
`);
  assert.deepEqual(continued ?? [], []);
  const items = await complete("workflows/main.ts", `export async function main(ctx: any) {
  await ctx.call("data.cus|tomers.get\\
", {});
}
`);
  assert.ok(items.length > 0);
  for (const i of items) assert.ok(i.textEdit.range.start.line === 1 && i.textEdit.range.end.line === 1, JSON.stringify(i.textEdit.range));
});

test("completion: an import's specifier is replaced whole too", async () => {
  const items = await complete("resources/infra.ts", `import { vm, cloud } from "@hooli/cloud";\nimport { secret } from "@sanoma-ai/|workflows";\nexport const web = vm({ name: "web" });\n`);
  const item = items.find((i) => i.preselect);
  assert.equal(item.label, "@sanoma-ai/workflows/resources");
  assert.deepEqual(item.textEdit.range, { start: { line: 1, character: 24 }, end: { line: 1, character: 44 } });
});

const labels = (items: any[]) => items.map((i) => i.label).sort();
const MAIN = (line: string) => `export async function main(ctx: any) {\n  ${line}\n}\n`;

test("completion: op ids only in a string that starts as data. does, and never in a comment", async () => {
  // A quote opens every string: what is typed must start data. first.
  assert.deepEqual(await complete("workflows/main.ts", MAIN(`ctx.log("|");`)), []);
  assert.deepEqual(await complete("workflows/main.ts", MAIN(`ctx.log("|`)), []);
  assert.deepEqual(await complete("workflows/main.ts", MAIN(`ctx.log("hello |");`)), []);
  assert.deepEqual(await complete("resources/infra.ts", `import { vm, cloud } from "@hooli/cloud";\nexport const web = vm({ name: "|" });\n`), []);
  assert.ok(labels(await complete("workflows/main.ts", MAIN(`ctx.call("d|");`))).includes("data.customers.get"), "a first letter of data. is enough");
  assert.ok(labels(await complete("workflows/main.ts", MAIN(`ctx.call("data.|");`))).includes("data.customers.get"));
  assert.ok(labels(await complete("workflows/main.ts", MAIN("ctx.call(`data.cu|`);"))).includes("data.customers.get"), "a backtick string");
  // Comments.
  assert.deepEqual(await complete("workflows/main.ts", MAIN(`// "data.|`)), []);
  assert.deepEqual(await complete("workflows/main.ts", MAIN(`ctx.x(); /* "data.| */`)), []);
  assert.deepEqual(await complete("workflows/main.ts", MAIN(`ctx.x(); // fly.|`)), [], "no member completion in a comment either");
  // An escaped quote earlier on the line.
  const escaped = await complete("workflows/main.ts", MAIN(`ctx.call("x\\"y", "data.|");`));
  const item = escaped.find((i) => i.label === "data.customers.get");
  assert.ok(item, "the string after an escaped quote is found");
  assert.deepEqual(item.textEdit.range, { start: { line: 1, character: 20 }, end: { line: 1, character: 25 } });
  assert.deepEqual(await complete("workflows/main.ts", MAIN(`ctx.call("x\\"y", "data.", 1|);`)), [], "outside the string after an escaped quote");
});

const INFRA = (decl: string) => `import { vm, cloud } from "@hooli/cloud";\n${decl}\nexport const api = vm({ name: "api" });\n`;

test("completion: field names only at a key's place of the desired object itself", async () => {
  assert.deepEqual(labels(await complete("resources/infra.ts", INFRA(`export const web = vm({ | });`))), ["disk", "name", "zone"]);
  assert.deepEqual(labels(await complete("resources/infra.ts", INFRA(`export const web = vm({ name: "web", | });`))), ["disk", "zone"]);
  assert.deepEqual(labels(await complete("resources/infra.ts", INFRA(`export const web = cloud.vm({\n  name: "web",\n  zo|\n});`))), ["disk", "zone"]);
  // Not in a value, not in an object nested in a value, not in the options.
  assert.deepEqual(await complete("resources/infra.ts", INFRA(`export const web = vm({ name: process.env.| });`)), []);
  assert.deepEqual(await complete("resources/infra.ts", INFRA(`export const web = vm({ name: "web", zone: | });`)), []);
  assert.deepEqual(await complete("resources/infra.ts", INFRA(`export const web = cloud.vm({ disk: { | } });`)), []);
  assert.deepEqual(await complete("resources/infra.ts", INFRA(`export const web = vm({ name: "web" }, { | });`)), []);
  // An object still unclosed while it is typed, with more code after it.
  assert.deepEqual(labels(await complete("resources/infra.ts", INFRA(`export const web = vm({ name: "web", |`))), ["disk", "zone"]);
});

test("completion: a field whose name is no identifier is inserted quoted, over the name being typed; an identifier's is the label", async () => {
  const gw = (line: string) => `import { gateway } from "@acme/http";\n${line}\n`;
  const items = await complete("resources/gw.ts", gw(`export const gw = gateway({ | });`));
  assert.deepEqual(items.map((i) => [i.label, i.textEdit?.newText ?? i.insertText ?? null]), [["max-size", '"max-size"'], ["name", null]]);
  assert.deepEqual(items[0].textEdit.range, { start: { line: 1, character: 28 }, end: { line: 1, character: 28 } });
  const typed = await complete("resources/gw.ts", gw(`export const gw = gateway({ ma|x });`));
  const max = typed.find((i) => i.label === "max-size");
  assert.deepEqual(max.textEdit, { range: { start: { line: 1, character: 28 }, end: { line: 1, character: 31 } }, newText: '"max-size"' });
});
