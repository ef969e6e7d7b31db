/**
 * The server's own watcher (a client that cannot watch) when the workspace folder itself goes and
 * comes back: it watched the folder, so nothing was left watching for it to come back (a workspace
 * folder deleted while indexing and made again showed 0 companies until a manual re-check).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
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
