/**
 * Reading ahead for symbol search, through the built server over stdio. Most workflow files are
 * indexed from their text alone; their workflows (which workspace symbols list) need a syntax
 * tree. Once the server has been idle a moment after a check, it reads those trees in slices, so
 * the first search finds nothing left to parse. The server logs each reading with its count.
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

before(async () => { ({ root, c } = server = await startServer(COMPANY)); });
after(() => server.stop());

test("the workflows of the three workflow files are read ahead once the server is idle, and a search then reads nothing", async () => {
  await c.waitFor(() => readings().some((m) => m.includes("ahead of a symbol search")), "the read-ahead");
  assert.match(readings()[0]!, /^read the workflows of 3 files ahead of a symbol search in \d+ ms$/);
  const seen = readings().length;
  const all = await c.request("workspace/symbol", { query: "" });
  for (const name of ["nightly", "hourly", "bill", "orders"]) assert.ok(all.some((s: { name: string }) => s.name === name), name);
  assert.deepEqual(readings().slice(seen), [], "the search parsed nothing");
});

test("a workflow file changed in the editor is read from its text again, and read ahead again after its check", async () => {
  const seen = readings().length;
  const file = join(root, "workflows/hourly.ts");
  c.open(file, `export const hourly = async (ctx: any) => ctx.call("data.orders.get", {});\nexport const daily = async (ctx: any) => ctx;\n`);
  await c.waitFor(() => readings().length > seen, "a second read-ahead");
  assert.match(readings()[seen]!, /^read the workflows of 1 file ahead of a symbol search/);
  const q = await c.request("workspace/symbol", { query: "daily" });
  assert.deepEqual(q.map((s: { name: string }) => s.name), ["daily"]);
  assert.equal(readings().length, seen + 1, "the search parsed nothing");
});
