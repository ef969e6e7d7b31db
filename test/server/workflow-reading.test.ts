/**
 * Workflows for symbol search, through the built server over stdio. Most workflow files are
 * indexed from their text alone; their workflows (which workspace symbols list) need a syntax
 * tree. The parse that judges whether a workflow source parses (A11, asked while indexing and by
 * every check) reads them too, so nothing is left for a search to parse, or for the server to
 * read ahead. What a search does find to read (an edit whose check is still to come) it logs with
 * its count.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { LspClient } from "../support/lsp.ts";
import { startServer, type RunningServer } from "../support/server.ts";

const COMPANY = `
//- /sanoma.config.ts
export default { name: "acme" };
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const orders = collection({ key: "id", fields: { id: "string" } });
//- /workflows/nightly.ts
export async function nightly(ctx: any) {
  await ctx.call("data.orders.save", {});
}
//- /workflows/hourly.ts
export const hourly = async (ctx: any) => ctx.call("data.orders.get", {});
//- /apps/billing/workflows/bill.ts
import { helper } from "../lib/helper";
export const bill = (ctx: any) => helper(ctx);
//- /apps/billing/lib/helper.ts
export const helper = (ctx: any) => ctx;
`;

let server: RunningServer;
let root: string;
let c: LspClient;

const readings = (): string[] =>
  c.notifications
    .filter((n) => n.method === "window/logMessage")
    .map((n) => (n.params as { message: string }).message)
    .filter((m) => m.startsWith("read the workflows of "));

/** Longer than the server used to wait, idle, before reading ahead (500 ms). */
const IDLE_MS = 1500;

before(async () => { ({ root, c } = server = await startServer(COMPANY)); });
after(() => server.stop());

test("the workflows are read by the parse that judges each workflow source: an idle server reads nothing more, and a search parses nothing", async () => {
  await c.waitIdle();
  await new Promise((r) => setTimeout(r, IDLE_MS));
  assert.deepEqual(readings(), [], "nothing was left to read");
  const all = await c.request("workspace/symbol", { query: "" });
  for (const name of ["nightly", "hourly", "bill", "orders"]) assert.ok(all.some((s: { name: string }) => s.name === name), name);
  assert.deepEqual(readings(), [], "the search parsed nothing");
});

test("a workflow file changed in the editor: its check reads its workflows again; a search sent with the change finds them either way", async () => {
  const file = join(root, "workflows/hourly.ts");
  c.open(file, `export const hourly = async (ctx: any) => ctx.call("data.orders.get", {});\nexport const daily = async (ctx: any) => ctx;\n`);
  // Sent at once: the search may come before the edit's check (then it reads the file itself) or after.
  const q = await c.request("workspace/symbol", { query: "daily" });
  assert.deepEqual(q.map((s: { name: string }) => s.name), ["daily"]);
  assert.ok(readings().every((m) => /^read the workflows of 1 file for a symbol search in \d+ ms$/.test(m)), readings().join("\n"));
  c.change(file, `export const hourly = async (ctx: any) => ctx.call("data.orders.get", {});\nexport const weekly = async (ctx: any) => ctx;\n`);
  await c.waitIdle();
  const seen = readings().length;
  const w = await c.request("workspace/symbol", { query: "ly" });
  assert.deepEqual(w.map((s: { name: string }) => s.name).sort(), ["bill", "hourly", "nightly", "weekly"].filter((n) => n.includes("ly")).sort());
  assert.equal(readings().length, seen, "after its check, the search parsed nothing");
});
