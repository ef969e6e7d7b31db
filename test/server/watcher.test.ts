/**
 * The server's own watcher (a client that cannot watch) when the workspace folder itself goes and
 * comes back: it watched the folder, so nothing was left watching for it to come back (a workspace
 * folder deleted while indexing and made again showed 0 companies until a manual re-check).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeFixture } from "../support/fixture.ts";
import { withServer } from "../support/server.ts";
import { CLEAN } from "../support/companies.ts";

test("server's own watcher: a workspace folder deleted while indexing and made again is indexed again, its company back", async () => {
  const source = writeFixture(CLEAN);
  const work = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-watch-")));
  const folder = join(work, "acme");
  cpSync(source, folder, { recursive: true });
  await withServer([{ path: source }, { path: work }], async ({ c }) => {
    const companies = async () => (await c.request<{ companies: { root: string }[] }>("sanoma/companies", null)).companies.map((x) => x.root);
    // While it indexes (or just after): the whole folder goes.
    rmSync(folder, { recursive: true, force: true });
    await c.waitIdle();
    for (let i = 0; i < 100 && (await companies()).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(await companies(), [], "the company went with its folder");
    cpSync(source, folder, { recursive: true });
    let now: string[] = [];
    for (let i = 0; i < 150 && (now = await companies()).length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(now, [folder], "the folder made again: its company found again");
  }, { dynamicWatch: false, folders: [folder], idle: false });
});

test("a client that watches (its globs reach its workspace folders only): the server watches, itself, a company whose root lies outside them (opened through a subfolder), and only there", async () => {
  const top = writeFixture(`
//- /sanoma.config.ts
export default {};
//- /resources/wake.ts
import { collection } from "@sanoma-ai/workflows/data";
export const x = (ctx: any) => ctx.call("data.nope.get", {});
//- /apps/m/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const mine = collection({ key: "id", fields: { id: "string" } });
//- /apps/m/workflows/w.ts
export const w = (ctx: any) => ctx.call("data.gone.get", {});
`);
  const outside = join(top, "resources/wake.ts");
  const inside = join(top, "apps/m/workflows/w.ts");
  await withServer({ path: top }, async ({ c }) => {
    await c.waitFor(() => c.diagnosticsFor(outside).length === 2 && c.diagnosticsFor(inside).length === 1, "the company's problems, from the subfolder");
    // Outside the workspace folder, written with no event from the client: the server's own watch sees it.
    writeFileSync(outside, `export const x = 1;\n`);
    await c.waitFor(() => c.diagnosticsFor(outside).length === 0, "a file outside the folder, changed on disk");
    // Inside it, the client's events are what count: a change it does not report is not read.
    writeFileSync(inside, `export const w = 1;\n`);
    await new Promise((r) => setTimeout(r, 500));
    await c.waitIdle();
    assert.equal(c.diagnosticsFor(inside).length, 1, "the client watches its folder: the server does not watch it twice");
    c.watched([{ file: inside, type: 2 }]);
    await c.waitFor(() => c.diagnosticsFor(inside).length === 0, "the client's event");
  }, { dynamicWatch: true, folders: [join(top, "apps/m")] });
});
