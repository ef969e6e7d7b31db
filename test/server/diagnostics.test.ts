/**
 * The built server over stdio, as an editor drives it: diagnostics for files never opened, edits
 * in unsaved buffers, cross-file consequences, only changed files republished, disk changes
 * (through the client's watcher and through the server's own), companies appearing and
 * dissolving, several folders and nested companies.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { LspClient, SERVER, uri, type Diag } from "../support/lsp.ts";
import { withCompanies, withServer } from "../support/server.ts";
import { diffExpected, parseFixture, removeFixture, writeFixture, type Found } from "../support/fixture.ts";
import { CLEAN, CLOUD_NEXT_VERSION, CLOUD_PACKAGE, NESTED_FIXTURE_COMPANIES, SHARED_CONNECTOR, SHARED_WITHOUT_HOOK, writeLinkedMonorepo } from "../support/companies.ts";
import { tmpdir } from "node:os";
import { spawn, spawnSync } from "node:child_process";
// @ts-expect-error the benchmark's generator is plain JavaScript
import { generateCompany } from "../../bench/generate.mjs";

function found(root: string, client: LspClient): Found[] {
  const out: Found[] = [];
  for (const [u, diags] of client.diagnostics) {
    const file = relative(root, fileURLToPath(u));
    for (const d of diags) out.push({ file, line: d.range.start.line, startCol: d.range.start.character, endCol: d.range.end.character, rule: String(d.code), message: d.message });
  }
  return out;
}

const codes = (ds: Diag[]) => ds.map((d) => d.code).sort();

const BROKEN = `
//- /sanoma.config.ts
import { defineConfig } from "@sanoma-ai/workflows";
export default defineConfig({ name: "acme" });
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const orders = collection({ key: "id", fields: { id: "string" } });
//- /resources/events.ts
import { trigger } from "@hooli/cloud";
export const wake = trigger({ path: "/wake" });
//- /workflows/nightly.ts
export async function nightly(ctx: any) {
  await ctx.call("data.orders.save", {});
  await ctx.call("data.order.get", {});
//               ^^^^^^^^^^^^^^^^ collection-op
}
//- /apps/maps/workflows/render.ts
import { x } from "../../billing/lib";
//                ^^^^^^^^^^^^^^^^^^^ no-cross-app-import
${CLOUD_PACKAGE}`;

test("server: one progress report over a folder of several companies rises steadily (each company a share of it), as LSP asks of its percentage", async () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-progress-")));
  try {
    for (const [name, seed] of [["one", 1], ["two", 2], ["three", 3]] as const) generateCompany(join(dir, name), { files: 1500, seed });
    await withServer({ path: dir }, async ({ c }) => {
      const values = c.notifications.filter((n) => n.method === "$/progress").map((n) => (n.params as any).value);
      const percentages = values.filter((v) => v.kind === "report" && typeof v.percentage === "number").map((v) => v.percentage as number);
      assert.ok(percentages.length >= 3, `several reports: ${percentages.join(" ")}`);
      assert.deepEqual(percentages, [...percentages].sort((a, b) => a - b), `rising: ${percentages.join(" ")}`);
      assert.ok(percentages.every((p) => p >= 0 && p <= 100));
      assert.equal(values.filter((v) => v.kind === "begin").length, 1, "one report for the three");
    }, { folders: [dir] });
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test("server: publishes every file's problems after indexing, for files never opened, with source, code, docs link", async () => {
  const fx = parseFixture(BROKEN);
  await withServer(fx, async ({ c, root }) => {
    await c.waitFor(() => diffExpected(fx.expected, found(root, c)) === "", "the marked problems");
    const d = c.diagnosticsFor(join(root, "workflows/nightly.ts"))[0];
    assert.equal(d.source, "sanoma");
    assert.equal(d.code, "collection-op");
    assert.match(d.codeDescription!.href, /collection-op\.md$/);
    assert.match(d.message, /did you mean `orders`/);
    // Progress was reported while indexing.
    assert.ok(c.serverRequests.some((r) => r.method === "window/workDoneProgress/create"), "asks for a progress token");
    assert.ok(c.notifications.some((n) => n.method === "$/progress" && (n.params as any).value.kind === "end"), "ends its progress");
  });
});

test("server: unsaved edits win over disk; a second wakeup flags both files; undoing clears both", async () => {
  await withServer(BROKEN, async ({ c, root }) => {
    const data = join(root, "resources/data.ts");
    const events = join(root, "resources/events.ts");
    const original = readFileSync(data, "utf8");
    c.open(data, original);
    const edited = `import { trigger } from "@hooli/cloud";\n${original}export const wake2 = trigger({ path: "/two" });\n`;
    c.change(data, edited);
    await c.waitFor(() => codes(c.diagnosticsFor(events)).includes("one-wakeup") && codes(c.diagnosticsFor(data)).includes("one-wakeup"), "one-wakeup in both files");
    const msg = c.diagnosticsFor(events).find((d) => d.code === "one-wakeup")!;
    assert.equal(msg.message, "an instance has one wakeup: leave out this one or resources/data.ts#wake2");
    assert.equal(msg.relatedInformation?.[0].location.uri, `file://${data}`);
    assert.equal(readFileSync(data, "utf8"), original, "the file on disk is untouched");
    c.change(data, original);
    await c.waitFor(() => c.diagnosticsFor(events).length === 0 && c.diagnosticsFor(data).length === 0, "both cleared");
  });
});

test("server: a connector's unsaved text (a package's file under node_modules) wins over the disk, as a company file's does; closed, the disk's counts again", async () => {
  await withServer(CLEAN, async ({ c, root }) => {
    const infra = join(root, "resources/infra.ts");
    const compute = join(root, "node_modules/@hooli/cloud/src/compute.js");
    await c.waitIdle();
    assert.deepEqual(c.diagnosticsFor(infra), [], "clean at first");
    const original = readFileSync(compute, "utf8");
    assert.ok(original.includes(`zone: z.string().default("us-1")`), original);
    // The type's zone made required, and renamed: \`zone\` of the declaration is no field now.
    c.open(compute, original, "javascript");
    c.change(compute, CLOUD_NEXT_VERSION(original));
    await c.waitFor(() => codes(c.diagnosticsFor(infra)).filter((x) => x === "resource-fields").length === 2, "the connector's unsaved schema judged");
    assert.equal(readFileSync(compute, "utf8"), original, "the package's file on disk is untouched");
    c.close(compute);
    await c.waitFor(() => c.diagnosticsFor(infra).length === 0, "the disk's text again");
  });
});

test("server: a connector package replaced as npm install does it, reported as its folder deleted and made again, is read anew (its old files' types were kept)", async () => {
  await withServer(CLEAN, async ({ c, root }) => {
    const infra = join(root, "resources/infra.ts");
    const pkg = join(root, "node_modules/@hooli/cloud");
    const compute = join(pkg, "src/compute.js");
    await c.waitIdle();
    assert.deepEqual(c.diagnosticsFor(infra), [], "clean at first");
    const original = readFileSync(compute, "utf8");
    // The new version: the type's zone made required and renamed, so the declaration's \`zone\` is no field of it.
    const moved = `${pkg}-old`;
    renameSync(pkg, moved);
    cpSync(moved, pkg, { recursive: true });
    rmSync(moved, { recursive: true });
    writeFileSync(compute, CLOUD_NEXT_VERSION(original));
    c.watched([{ file: pkg, type: 3 }, { file: pkg, type: 1 }]);
    await c.waitFor(() => codes(c.diagnosticsFor(infra)).filter((x) => x === "resource-fields").length === 2, "the new version's schema judged");
  });
});

for (const dynamicWatch of [true, false]) {
  test(`server: a monorepo's workspace package linked into node_modules (npm, pnpm, yarn workspaces), edited at its real path, is read anew (${dynamicWatch ? "the client's events" : "the server's own watcher"})`, async () => {
    const top = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-linked-package-")));
    const co = join(top, "co");
    renameSync(writeFixture(CLEAN), co);
    // @hooli/cloud moved to packages/cloud, and linked back as a workspace manager links it.
    const pkg = join(top, "packages/cloud");
    mkdirSync(join(top, "packages"));
    renameSync(join(co, "node_modules/@hooli/cloud"), pkg);
    symlinkSync("../../../packages/cloud", join(co, "node_modules/@hooli/cloud"));
    const compute = join(pkg, "src/compute.js");
    try {
      await withServer({ path: top }, async ({ c }) => {
        const infra = join(co, "resources/infra.ts");
        await c.waitIdle();
        assert.deepEqual(c.diagnosticsFor(infra), [], "clean at first");
        writeFileSync(compute, CLOUD_NEXT_VERSION(readFileSync(compute, "utf8")));
        if (dynamicWatch) c.watched([{ file: compute, type: 2 }]);
        await c.waitFor(() => codes(c.diagnosticsFor(infra)).filter((x) => x === "resource-fields").length === 2, "the package's new schema judged");
      }, { folders: [top], dynamicWatch });
    } finally { rmSync(top, { recursive: true, force: true }); }
  });
}

/**
 * A monorepo's workspace connector (`packages/shared/index.ts`, linked into each company's
 * `node_modules`) edited in the editor, unsaved. An editor opens it at its real path, which names
 * no `node_modules` and belongs to no company: its text was taken by nothing, and the resolvers,
 * reading it through the links, looked an open text up by the link's path. B1: the unsaved text
 * wins over the disk, for every company that reads the file, by whatever path it is opened.
 */
test("server: a linked workspace connector's unsaved text wins over the disk for every company that reads it through a link, opened at its real path or through a company's link; closed, the disk's text counts again", async () => {
  const top = writeLinkedMonorepo();
  const real = join(top, "packages/shared/index.ts");
  const infra = ["b", "c"].map((name) => join(top, "packages", name, "resources/infra.ts"));
  await withServer({ path: top }, async ({ c }) => {
    const withoutHook = () => infra.every((file) => codes(c.diagnosticsFor(file)).filter((x) => x === "resource-type").length === 1);
    const clean = () => infra.every((file) => c.diagnosticsFor(file).length === 0);
    await c.waitIdle();
    assert.ok(clean(), "clean at first");
    c.open(real, SHARED_CONNECTOR);
    c.change(real, SHARED_WITHOUT_HOOK);
    await c.waitFor(withoutHook, "the unsaved text without `hook`, judged by both companies");
    // The disk's text changed meanwhile (and reported): the editor's still wins.
    writeFileSync(real, `${SHARED_CONNECTOR}// written elsewhere\n`);
    c.watched([{ file: real, type: 2 }]);
    await new Promise((r) => setTimeout(r, 300));
    await c.waitIdle();
    assert.ok(withoutHook(), "an open document's disk text does not count");
    c.close(real);
    await c.waitFor(clean, "closed: the disk's text (with `hook`) counts again for both companies");
    // Opened through company c's link: company b reads the same file through its own.
    const viaC = join(top, "packages/c/node_modules/@acme/shared/index.ts");
    c.open(viaC, readFileSync(real, "utf8"));
    c.change(viaC, SHARED_WITHOUT_HOOK);
    await c.waitFor(withoutHook, "the unsaved text opened through c's link, judged by both companies");
    c.close(viaC);
    await c.waitFor(clean, "closed through c's link: the disk's text counts again for both companies");
  }, { folders: [top] });
});

test("server: renaming a collection in a buffer flags its references in other files, and only changed files are republished", async () => {
  await withServer(BROKEN, async ({ c, root }) => {
    const data = join(root, "resources/data.ts");
    const nightly = join(root, "workflows/nightly.ts");
    await c.waitFor(() => c.diagnosticsFor(nightly).length === 1, "the initial problem");
    const before = c.publishes.length;
    c.open(data, readFileSync(data, "utf8"));
    c.change(data, readFileSync(data, "utf8").replace("export const orders", "export const purchases"));
    await c.waitFor(() => c.diagnosticsFor(nightly).length === 2, "both references flagged");
    const after = c.publishes.slice(before);
    assert.deepEqual([...new Set(after.map((p) => relative(root, fileURLToPath(p.uri))))], ["workflows/nightly.ts"], "only the file whose problems changed is published");
  });
});

for (const dynamicWatch of [true, false]) {
  test(`server: files created, changed and deleted on disk are picked up (${dynamicWatch ? "client's didChangeWatchedFiles" : "server's own watcher"})`, async () => {
    await withServer(BROKEN, async ({ c, root }) => {
      const file = join(root, "workflows/new.ts");
      writeFileSync(file, `export const f = (ctx: any) => ctx.call("data.nope.get", {});\n`);
      if (dynamicWatch) c.watched([{ file, type: 1 }]);
      await c.waitFor(() => codes(c.diagnosticsFor(file)).includes("collection-op"), "the new file's problem");
      writeFileSync(file, `export const f = (ctx: any) => ctx.call("data.orders.get", {});\n`);
      if (dynamicWatch) c.watched([{ file, type: 2 }]);
      await c.waitFor(() => c.diagnosticsFor(file).length === 0, "the fixed file clears");
      const nightly = join(root, "workflows/nightly.ts");
      unlinkSync(nightly);
      if (dynamicWatch) c.watched([{ file: nightly, type: 3 }]);
      await c.waitFor(() => c.diagnosticsFor(nightly).length === 0, "a deleted file's problems go");
      // A folder that appears at once (a checkout) is read whole.
      mkdirSync(join(root, "apps/maps/resources"), { recursive: true });
      const wake = join(root, "apps/maps/resources/wake.ts");
      writeFileSync(wake, `import { trigger } from "@hooli/cloud";\nexport const other = trigger({ path: "/x" });\n`);
      if (dynamicWatch) c.watched([{ file: wake, type: 1 }]);
      await c.waitFor(() => codes(c.diagnosticsFor(wake)).includes("one-wakeup"), "a file in a new folder");
    }, { dynamicWatch });
  });
}

test("server's own watcher: watches every company it indexes (no workspace folder, a folder added under a company, a file opened from elsewhere), and lets a forgotten one go", async () => {
  // It watched only the companies known when the first indexing ended: the unopened files of
  // those found later changed on disk unseen.
  const company = (name: string) => `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const ${name} = collection({ key: "id", fields: { id: "string" } });
//- /workflows/${name}.ts
export const ${name}Flow = (ctx: any) => ctx.call("data.${name}.get", {});
//- /apps/billing/workflows/b.ts
export const b = (ctx: any) => ctx.call("data.${name}.get", {});
`;
  const bad = (name: string) => `export const ${name}Flow = (ctx: any) => ctx.call("data.nope.get", {});\n`;
  const roots = async (c: LspClient) => (await c.request("sanoma/companies", null)).companies.map((co: any) => co.root).sort();
  await withCompanies([company("loose"), company("upper"), company("home")], async ([loose, upper, home]) => {
    // No workspace folder at all: the company of the file opened (the first indexing over, with nothing to index).
    await withServer([], async ({ c }) => {
      const opened = join(loose, "workflows/loose.ts");
      c.open(opened, readFileSync(opened, "utf8"));
      await c.waitIdle();
      const b = join(loose, "apps/billing/workflows/b.ts");
      writeFileSync(b, bad("b"));
      await c.waitFor(() => codes(c.diagnosticsFor(b)).includes("collection-op"), "an unopened file changed on disk, in the opened file's company");
      writeFileSync(join(loose, "resources/data.ts"), readFileSync(join(loose, "resources/data.ts"), "utf8").replace("loose", "renamed"));
      await c.waitFor(() => codes(c.diagnosticsFor(opened)).includes("collection-op"), "the open file judged against the data file changed on disk");
      // Closed, the company goes, and is watched no more: its config changed on disk does not bring it back.
      c.close(opened);
      await c.waitFor(() => c.diagnosticsFor(b).length === 0, "its problems go with its last open file");
      await c.waitIdle();
      assert.deepEqual(await roots(c), []);
      writeFileSync(join(loose, "sanoma.config.ts"), "export default { };\n");
      await new Promise((r) => setTimeout(r, 500));
      await c.waitIdle();
      assert.deepEqual(await roots(c), [], "a forgotten company is not watched");
    }, { dynamicWatch: false });
    // A folder added later under a company, and a file opened from outside the folders.
    await withServer([], async ({ c: d }) => {
      d.notify("workspace/didChangeWorkspaceFolders", { event: { added: [{ uri: uri(join(upper, "apps/billing")), name: "billing" }], removed: [] } });
      const upperFlow = join(upper, "workflows/upper.ts");
      await d.waitFor(() => d.diagnosticsFor(join(upper, "apps/billing/workflows/b.ts")).length === 0 && d.diagnosticsFor(upperFlow).length === 0, "the company above the folder indexed");
      await d.waitIdle();
      assert.deepEqual(await roots(d), [home, upper].sort());
      writeFileSync(upperFlow, bad("upper"));
      await d.waitFor(() => codes(d.diagnosticsFor(upperFlow)).includes("collection-op"), "a file above the added folder, in its company, changed on disk");
      const opened = join(loose, "workflows/loose.ts");
      d.open(opened, readFileSync(opened, "utf8"));
      await d.waitIdle();
      const b = join(loose, "apps/billing/workflows/b.ts");
      assert.deepEqual(codes(d.diagnosticsFor(b)), ["collection-op"]);
      writeFileSync(b, `export const b = (ctx: any) => ctx.call("data.renamed.get", {});\n`); // the collection's name since the rename above
      await d.waitFor(() => d.diagnosticsFor(b).length === 0, "an unopened file of a company opened from elsewhere, changed on disk");
      // A workspace folder that is a company's root stays watched when the company dissolves.
      const homeFlow = join(home, "workflows/home.ts");
      const config = readFileSync(join(home, "sanoma.config.ts"), "utf8");
      writeFileSync(homeFlow, bad("home"));
      await d.waitFor(() => d.diagnosticsFor(homeFlow).length === 1, "the folder's company's file changed on disk");
      unlinkSync(join(home, "sanoma.config.ts"));
      await d.waitFor(() => d.diagnosticsFor(homeFlow).length === 0, "the dissolved company's problems go");
      writeFileSync(join(home, "sanoma.config.ts"), config);
      await d.waitFor(() => d.diagnosticsFor(homeFlow).length === 1, "the company back with its config");
    }, { dynamicWatch: false, folders: [home] });
  });
});

test("server's own watcher: a folder deleted or moved away and made again at once (rm -rf gen && mkdir gen, a checkout) is watched again, and the files indexed under it are let go or read again", async () => {
  // The folder was still a folder when its events were coalesced, so its old watch (of the folder
  // that went) was kept: nothing under it was seen again, and what was indexed there stayed.
  await withServer(BROKEN + `
//- /workflows/gen/a.ts
export const a = (ctx: any) => ctx.call("data.ghost.get", {});
//- /workflows/gen/keep.ts
export const keep = (ctx: any) => ctx.call("data.kept.get", {});
//- /workflows/gen/deep/d.ts
export const d = (ctx: any) => ctx.call("data.deep.get", {});
`, async ({ c, root }) => {
    const bad = (name: string) => `export const ${name} = (ctx: any) => ctx.call("data.nope.get", {});\n`;
    const gen = join(root, "workflows/gen");
    const [a, keep, d] = [join(gen, "a.ts"), join(gen, "keep.ts"), join(gen, "deep/d.ts")];
    assert.ok([a, keep, d].every((f) => codes(c.diagnosticsFor(f)).includes("collection-op")));
    // Moved away (the old folder's watch says only that it went) and made again, with one file
    // fixed, one gone, one as it was, all before the events are coalesced.
    const keepText = readFileSync(keep, "utf8");
    renameSync(gen, join(root, ".gen-old"));
    mkdirSync(gen);
    writeFileSync(a, `export const a = (ctx: any) => ctx.call("data.orders.get", {});\n`);
    writeFileSync(keep, keepText);
    await c.waitFor(() => c.diagnosticsFor(a).length === 0 && c.diagnosticsFor(d).length === 0, "the files of the folder that went are let go or read again");
    await c.waitIdle();
    assert.deepEqual(codes(c.diagnosticsFor(keep)), ["collection-op"], "a file made again as it was keeps its problem");
    // Written later into the folder made again, and into a folder under it.
    const b = join(gen, "b.ts");
    writeFileSync(b, bad("b"));
    await c.waitFor(() => codes(c.diagnosticsFor(b)).includes("collection-op"), "a file written into the folder made again");
    mkdirSync(join(gen, "deep"));
    await c.waitIdle();
    writeFileSync(d, bad("d"));
    await c.waitFor(() => codes(c.diagnosticsFor(d)).includes("collection-op"), "a file written under it");
    // A whole tree made again at once, folders under it too.
    rmSync(join(root, "workflows"), { recursive: true });
    mkdirSync(join(gen, "deep"), { recursive: true });
    await c.waitFor(() => c.diagnosticsFor(join(root, "workflows/nightly.ts")).length === 0 && c.diagnosticsFor(b).length === 0, "the tree's files let go");
    await c.waitIdle();
    writeFileSync(d, bad("d"));
    await c.waitFor(() => codes(c.diagnosticsFor(d)).includes("collection-op"), "a file written deep in the tree made again");
  }, { dynamicWatch: false });
});

test("server: a client that offers to watch files but refuses the registration gets the server's own watcher", async () => {
  // The server only logged the refusal: nothing changed on disk was seen until a restart.
  await withServer(BROKEN, async ({ c, root }) => {
    assert.ok(c.serverRequests.some((r) => r.method === "client/registerCapability"), "it was asked");
    const file = join(root, "workflows/new.ts");
    writeFileSync(file, `export const f = (ctx: any) => ctx.call("data.nope.get", {});\n`);
    await c.waitFor(() => codes(c.diagnosticsFor(file)).includes("collection-op"), "a file created on disk, no client event sent");
    const nightly = join(root, "workflows/nightly.ts");
    writeFileSync(nightly, `export const n = (ctx: any) => ctx.call("data.orders.get", {});\n`);
    await c.waitFor(() => c.diagnosticsFor(nightly).length === 0, "a file changed on disk");
  }, { dynamicWatch: true, refuseRegistration: true });
});

test("server: a client that offers to watch files but never answers the registration gets the server's own watcher after the wait", async () => {
  // Indexing went on after 2 s, and nothing changed on disk was seen until a restart.
  await withServer(BROKEN, async ({ c, root }) => {
    await c.waitIdle();
    assert.ok(c.serverRequests.some((r) => r.method === "client/registerCapability"), "it was asked");
    const file = join(root, "workflows/new.ts");
    writeFileSync(file, `export const f = (ctx: any) => ctx.call("data.nope.get", {});\n`);
    await c.waitFor(() => codes(c.diagnosticsFor(file)).includes("collection-op"), "a file created on disk, no client event sent");
    assert.match(c.stderr + JSON.stringify(c.notifications), /did not answer the file watchers' registration within 2 s: the server watches the folders itself/);
  }, { dynamicWatch: true, neverAnswer: ["client/registerCapability"], idle: false });
});

test("server: a folder deleted on disk (one event for the folder) keeps the open buffers under it: the editor's text wins", async () => {
  // Found by test/server/random-edits.test.ts: the folder's open files left the company, their
  // problems with them, until the next keystroke in each.
  await withServer(BROKEN, async ({ c, root }) => {
    const nightly = join(root, "workflows/nightly.ts");
    c.open(nightly, readFileSync(nightly, "utf8"));
    await c.waitIdle();
    assert.deepEqual(codes(c.diagnosticsFor(nightly)), ["collection-op"]);
    rmSync(join(root, "workflows"), { recursive: true });
    c.watched([{ file: join(root, "workflows"), type: 3 }]);
    await c.waitIdle();
    assert.deepEqual(codes(c.diagnosticsFor(nightly)), ["collection-op"], "the open buffer still counts");
    c.close(nightly);
    await c.waitIdle();
    assert.deepEqual(c.diagnosticsFor(nightly), [], "closed, its file is gone");
  });
});

test("server: a folder deleted or renamed in as one event (as VS Code reports it) takes its files, and its companies, along", async () => {
  const elsewhere = `
//- /atlas/workflows/a.ts
export const a = (ctx: any) => ctx.call("data.atlas.get", {});
//- /lab/sanoma.config.ts
export default {};
//- /lab/workflows/l.ts
export const l = (ctx: any) => ctx.call("data.lab.get", {});
`;
  await withServer([BROKEN, elsewhere], async ({ c, roots: [root, elsewhere] }) => {
    // The client is asked to report creates and deletes of any path, folders included.
    const registration = c.serverRequests.find((r) => r.method === "client/registerCapability") as { params: { registrations: { registerOptions: { watchers: { globPattern: string; kind?: number }[] } }[] } };
    assert.ok(registration.params.registrations[0].registerOptions.watchers.some((w) => w.globPattern === "**/*" && w.kind === (1 | 4)), "a watcher of any path's creates and deletes");
    const render = join(root, "apps/maps/workflows/render.ts");
    await c.waitFor(() => c.diagnosticsFor(render).length === 1, "render's problem");
    rmSync(join(root, "apps/maps"), { recursive: true });
    c.watched([{ file: join(root, "apps/maps"), type: 3 }]);
    await c.waitFor(() => c.diagnosticsFor(render).length === 0, "a deleted folder's problems go");
    // A folder renamed in: one created event, for the folder.
    renameSync(join(elsewhere, "atlas"), join(root, "apps/atlas"));
    c.watched([{ file: join(root, "apps/atlas"), type: 1 }]);
    const a = join(root, "apps/atlas/workflows/a.ts");
    await c.waitFor(() => codes(c.diagnosticsFor(a)).includes("collection-op"), "the files of a folder renamed in are read");
    // A company's folder renamed in makes a company; deleted, it dissolves.
    renameSync(join(elsewhere, "lab"), join(root, "lab"));
    c.watched([{ file: join(root, "lab"), type: 1 }]);
    const l = join(root, "lab/workflows/l.ts");
    await c.waitFor(() => codes(c.diagnosticsFor(l)).includes("collection-op"), "the company renamed in is checked");
    await c.waitIdle();
    assert.deepEqual((await c.request("sanoma/companies", null)).companies.map((co: any) => co.root).sort(), [root, join(root, "lab")]);
    rmSync(join(root, "lab"), { recursive: true });
    c.watched([{ file: join(root, "lab"), type: 3 }]);
    await c.waitFor(() => c.diagnosticsFor(l).length === 0, "the deleted company's problems go");
    await c.waitIdle();
    assert.deepEqual((await c.request("sanoma/companies", null)).companies.map((co: any) => co.root), [root]);
  });
});


test("server: an event naming a link to a folder (created or changed) is not followed, as the walk follows none: a link to / or to another company adds nothing", async () => {
  const elsewhere = `
//- /lab/sanoma.config.ts
export default {};
//- /lab/workflows/l.ts
export const l = (ctx: any) => ctx.call("data.lab.get", {});
`;
  await withServer([BROKEN, elsewhere], async ({ c, roots: [root, elsewhere] }) => {
    await c.waitIdle();
    const before = (await c.request("sanoma/companies", null)).companies.map((co: any) => co.root);
    for (const [name, target] of [["everything", "/"], ["lab", join(elsewhere, "lab")], ["labs", elsewhere]] as const) {
      const link = join(root, "apps/maps", name);
      symlinkSync(target, link);
      c.watched([{ file: link, type: 1 }]);
      c.watched([{ file: link, type: 2 }]);
    }
    // A real folder made after them, which is read: the events before it were taken and passed over.
    mkdirSync(join(root, "apps/atlas/workflows"), { recursive: true });
    writeFileSync(join(root, "apps/atlas/workflows/a.ts"), `export const a = (ctx: any) => ctx.call("data.atlas.get", {});\n`);
    c.watched([{ file: join(root, "apps/atlas"), type: 1 }]);
    const a = join(root, "apps/atlas/workflows/a.ts");
    await c.waitFor(() => codes(c.diagnosticsFor(a)).includes("collection-op"), "the real folder's file is read");
    await c.waitIdle();
    assert.deepEqual((await c.request("sanoma/companies", null)).companies.map((co: any) => co.root), before, "no company through a link");
    assert.deepEqual(c.diagnosticsFor(join(root, "apps/maps/lab/workflows/l.ts")), [], "nothing read under a link");
  });
});

test("server: a new sanoma.config.ts makes a company; deleting it dissolves the company and clears its problems", async () => {
  await withServer(`
//- /README.md
a monorepo
//- /teams/a/workflows/x.ts
export const x = (ctx: any) => ctx.call("data.ghost.get", {});
`, async ({ c, root }) => {
    const x = join(root, "teams/a/workflows/x.ts");
    assert.equal(c.diagnosticsFor(x).length, 0, "no company, nothing said");
    const config = join(root, "teams/a/sanoma.config.ts");
    writeFileSync(config, "export default {};\n");
    c.watched([{ file: config, type: 1 }]);
    await c.waitFor(() => codes(c.diagnosticsFor(x)).includes("collection-op"), "the new company's problem");
    const companies = await c.request("sanoma/companies", null);
    assert.deepEqual(companies.companies.map((co: any) => co.root), [join(root, "teams/a")]);
    unlinkSync(config);
    c.watched([{ file: config, type: 3 }]);
    await c.waitFor(() => c.diagnosticsFor(x).length === 0, "the problems go with the company");
    assert.deepEqual((await c.request("sanoma/companies", null)).companies, []);
  });
});

test("server: a folder deleted on disk (one event for the folder) dissolves the companies whose config went with it", async () => {
  // Found by test/server/random-edits.test.ts: the nested company stayed, and so did its deleted
  // files' problems, until a restart.
  await withServer(`
//- /sanoma.config.ts
export default {};
//- /apps/billing/workflows/y.ts
export const y = (ctx: any) => ctx.call("data.ghost.get", {});
//- /apps/inner/sanoma.config.ts
export default {};
//- /apps/inner/workflows/x.ts
export const x = (ctx: any) => ctx.call("data.ghost.get", {});
`, async ({ c, root }) => {
    const x = join(root, "apps/inner/workflows/x.ts");
    const y = join(root, "apps/billing/workflows/y.ts");
    await c.waitFor(() => c.diagnosticsFor(x).length === 1 && c.diagnosticsFor(y).length === 1, "both problems");
    rmSync(join(root, "apps"), { recursive: true });
    c.watched([{ file: join(root, "apps"), type: 3 }]);
    await c.waitIdle();
    assert.deepEqual([c.diagnosticsFor(x), c.diagnosticsFor(y)], [[], []], "the deleted files' problems go");
    assert.deepEqual((await c.request("sanoma/companies", null)).companies.map((co: any) => co.root), [root]);
  });
});

test("server: a sanoma.config.ts created and deleted before its company is indexed makes no company", async () => {
  // Found by test/server/random-edits.test.ts: the deletion found no company to dissolve, then
  // the queued index made one anyway, which stayed until a restart.
  await withServer(`
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const orders = collection({ key: "id", fields: { id: "string" } });
//- /apps/inner/workflows/x.ts
export const x = (ctx: any) => ctx.call("data.orders.get", {});
`, async ({ c, root }) => {
    const config = join(root, "apps/inner/sanoma.config.ts");
    writeFileSync(config, "export default {};\n");
    c.watched([{ file: config, type: 1 }]);
    unlinkSync(config);
    c.watched([{ file: config, type: 3 }]);
    await c.waitIdle();
    assert.deepEqual((await c.request("sanoma/companies", null)).companies.map((co: any) => co.root), [root]);
    assert.deepEqual(c.diagnosticsFor(join(root, "apps/inner/workflows/x.ts")), [], "x.ts sees the outer company's collection");
  });
});

test("server: a nested sanoma.config.ts deleted before its company is indexed, after the enclosing company was listed without its files, gives them back", async () => {
  // Found by test/server/random-edits.test.ts: the enclosing company's round (its files listed
  // while the nested config was there) left them out, and the nested company was never made.
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-config-gone-")));
  const root = join(dir, "big");
  generateCompany(root, { files: 2000 });
  const w = join(root, "apps/inner/workflows/w.ts");
  mkdirSync(dirname(w), { recursive: true });
  writeFileSync(w, `export const f = (ctx: any) => ctx.call("data.nope.get", {});\n`);
  await withServer({ path: dir }, async ({ c }) => {
    assert.deepEqual(codes(c.diagnosticsFor(w)), ["collection-op"]);
    const reports = () => c.notifications.filter((n) => n.method === "$/progress" && /Indexing bench: [1-9]/.test((n.params as any)?.value?.message ?? "")).length;
    const before = reports();
    const config = join(root, "apps/inner/sanoma.config.ts");
    writeFileSync(config, "export default {};\n");
    c.watched([{ file: config, type: 1 }]);
    await c.waitFor(() => reports() > before, "the enclosing company's round under way, its files listed");
    unlinkSync(config);
    c.watched([{ file: config, type: 3 }]);
    await c.waitIdle();
    assert.deepEqual((await c.request("sanoma/companies", null)).companies.map((co: any) => co.root), [root]);
    assert.deepEqual(codes(c.diagnosticsFor(w)), ["collection-op"], "w.ts is the enclosing company's again");
  }, { folders: [root] });
});

test("server: a sanoma.config.ts deleted while its company is first indexed ends that company's round, not the others'", async () => {
  // The round read on for a company that was gone, then threw (its state was gone too), and the
  // companies after it in the round were never indexed: no diagnostics until a restart.
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-config-gone-")));
  generateCompany(join(dir, "a-big"), { files: 2000 });
  const small = writeFixture(BROKEN);
  cpSync(small, join(dir, "b-small"), { recursive: true });
  removeFixture(small);
  await withServer({ path: dir }, async ({ c }) => {
    await c.waitFor(() => c.notifications.some((n) => n.method === "$/progress" && /Indexing bench: [1-9]/.test((n.params as any)?.value?.message ?? "")), "a progress report of a-big's round");
    const config = join(dir, "a-big/sanoma.config.ts");
    unlinkSync(config);
    c.watched([{ file: config, type: 3 }]);
    assert.ok(!c.notifications.some((n) => n.method === "window/logMessage" && /indexed .*a-big/.test((n.params as any).message)), "the deletion reached the server while it read a-big (else this test proves nothing)");
    await c.waitIdle();
    assert.deepEqual((await c.request("sanoma/companies", null)).companies.map((co: any) => co.root), [join(dir, "b-small")]);
    assert.deepEqual(codes(c.diagnosticsFor(join(dir, "b-small/workflows/nightly.ts"))), ["collection-op"]);
    assert.deepEqual(c.notifications.filter((n) => n.method === "window/logMessage" && /failed/.test((n.params as any).message)), []);
  }, { idle: false });
});

test("server: two workspace folders, a nested company and a company opened through a subfolder", async () => {
  const one = `
//- /sanoma.config.ts
export default {};
//- /workflows/a.ts
export const a = (ctx: any) => ctx.call("data.one.get", {});
//- /inner/sanoma.config.ts
export default {};
//- /inner/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const one = collection({ key: "id", fields: { id: "string" } });
//- /inner/workflows/b.ts
export const b = (ctx: any) => ctx.call("data.one.get", {});
`;
  const two = `
//- /sanoma.config.ts
export default {};
//- /apps/web/workflows/c.ts
export const c = (ctx: any) => ctx.call("data.two.get", {});
`;
  // The second company is opened through a subfolder: its root lies above the workspace folder.
  await withServer([one, two], async ({ c, roots: [one, two] }) => {
    const roots = (await c.request("sanoma/companies", null)).companies.map((co: any) => co.root).sort();
    assert.deepEqual(roots, [one, join(one, "inner"), two].sort());
    await c.waitFor(() => c.diagnosticsFor(join(one, "workflows/a.ts")).length === 1 && c.diagnosticsFor(join(two, "apps/web/workflows/c.ts")).length === 1, "problems in both folders");
    // The nested company's collection is not the outer company's: a.ts is wrong, b.ts is right.
    assert.equal(c.diagnosticsFor(join(one, "inner/workflows/b.ts")).length, 0);
    const of = await c.request("sanoma/companyOf", { uri: `file://${join(two, "apps/web/workflows/c.ts")}` });
    assert.deepEqual({ root: of.root, scope: of.scope, kind: of.kind }, { root: two, scope: "web", kind: "workflow" });
  }, ([one, two]) => ({ folders: [one, join(two, "apps/web")] }));
});

test("server: sanoma/companyOf asked before the company is known (a preview right after a start or a restart) answers once it is, not with null", async () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-company-of-early-")));
  generateCompany(dir, { files: 3000 });
  const file = join(dir, "apps/app00/workflows/w.ts");
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, "export const w = (ctx: any) => ctx.call(\"data.orders.get\", {});\n");
  await withServer({ path: dir }, async ({ c }) => {
    // Both sent at once, answered in order: the first says what the server knew when the second came.
    const [known, of] = await Promise.all([c.request("sanoma/companies", null), c.request("sanoma/companyOf", { uri: uri(file) })]);
    assert.deepEqual(known.companies, [], "asked before the company was known (else this test proves nothing)");
    assert.deepEqual(of && { root: of.root, scope: of.scope, kind: of.kind }, { root: dir, scope: "app00", kind: "workflow" });
  }, { idle: false });
});

test("server: a removed workspace folder takes the companies found only through it, and their problems", async () => {
  const company = (name: string) => `
//- /sanoma.config.ts
export default {};
//- /workflows/${name}.ts
export const ${name} = (ctx: any) => ctx.call("data.${name}.get", {});
`;
  const file = (root: string, name: string) => join(root, `workflows/${name}.ts`);
  const companies = [company("one") + company("inner").replace(/\/\/- \//g, "//- /inner/"), company("two"), company("three"), company("four")];
  await withServer(companies, async ({ c, roots: [one, two, three, four] }) => {
    const roots = async () => (await c.request("sanoma/companies", null)).companies.map((co: any) => co.root).sort();
    c.open(file(three, "three"), readFileSync(file(three, "three"), "utf8"));
    await c.waitFor(() => [file(one, "one"), file(join(one, "inner"), "inner"), file(two, "two"), file(three, "three")].every((f) => c.diagnosticsFor(f).length === 1), "every company's problem");
    c.notify("workspace/didChangeWorkspaceFolders", { event: { added: [], removed: [join(one, "inner"), two, three].map((f) => ({ uri: uri(f), name: f })) } });
    await c.waitFor(() => c.diagnosticsFor(file(two, "two")).length === 0, "the removed folder's problems go");
    await c.waitIdle();
    // inner is still under the folder one; three has a file open.
    assert.deepEqual(await roots(), [one, join(one, "inner"), three].sort());
    assert.equal(c.diagnosticsFor(file(three, "three")).length, 1);
    assert.deepEqual((await c.request("workspace/symbol", { query: "two" })).map((x: any) => x.name), [], "its symbols go too");
    // Removed and added at once: the removed one goes, the added one comes.
    c.notify("workspace/didChangeWorkspaceFolders", { event: { added: [{ uri: uri(four), name: "four" }], removed: [{ uri: uri(one), name: "one" }] } });
    await c.waitFor(() => c.diagnosticsFor(file(four, "four")).length === 1 && c.diagnosticsFor(file(one, "one")).length === 0, "four comes, one goes");
    await c.waitIdle();
    assert.deepEqual(await roots(), [three, four].sort());
    assert.equal(c.diagnosticsFor(file(join(one, "inner"), "inner")).length, 0, "inner went with one");
  }, ([one, two, three]) => ({ folders: [one, join(one, "inner"), two, three] }));
});

/** A monorepo's company with a problem in its root scope and in an app, and a company nested in it with one of its own. */
const NESTED_IN_MONOREPO = `
//- /sanoma.config.ts
export default {};
//- /workflows/a.ts
export const a = (ctx: any) => ctx.call("data.nope.get", {});
//- /apps/billing/workflows/b.ts
export const b = (ctx: any) => ctx.call("data.nope.get", {});
//- /companies/sib1/sanoma.config.ts
export default {};
//- /companies/sib1/workflows/r.ts
export const r = (ctx: any) => ctx.call("data.zip.get", {});
`;

/** What a server shows: its companies, and each file's problems (files with none left out), from `root`. */
async function shown(c: LspClient, root: string): Promise<{ companies: string[]; problems: string[] }> {
  const companies = (await c.request("sanoma/companies", null)).companies.map((co: any) => relative(root, co.root)).sort();
  const problems = [...c.diagnostics].filter(([, ds]) => ds.length > 0).map(([u, ds]) => `${relative(root, fileURLToPath(u))}: ${codes(ds).join(" ")}`).sort();
  return { companies, problems };
}

// A workspace folder that is a company nested in another is that company alone (its walk up stops
// at its own config): the outer company stayed when the folder that had brought it in was removed.
for (const removed of ["", "apps/billing"]) {
  test(`server: the folder ${removed ? `${removed} (a subfolder of a monorepo's company)` : "of a monorepo's company"} removed, a folder that is a company nested in it keeps that company only, as a fresh server on it has it, and the outer company's problems are cleared`, async () => {
    await withServer(NESTED_IN_MONOREPO, async ({ c, root }) => {
      const sib1 = join(root, "companies/sib1");
      const outer = [join(root, "workflows/a.ts"), join(root, "apps/billing/workflows/b.ts")];
      await c.waitFor(() => [...outer, join(sib1, "workflows/r.ts")].every((f) => c.diagnosticsFor(f).length === 1), "both companies' problems");
      assert.deepEqual((await shown(c, root)).companies, ["", "companies/sib1"]);
      const from = c.publishes.length;
      c.notify("workspace/didChangeWorkspaceFolders", { event: { added: [], removed: [{ uri: uri(join(root, removed)), name: "outer" }] } });
      await c.waitFor(() => outer.every((f) => c.publishes.slice(from).some((p) => p.uri === uri(f) && p.diagnostics.length === 0)), "the outer company's problems cleared (an empty publish for each of its files)", 10_000);
      await c.waitIdle();
      const after = await shown(c, root);
      assert.deepEqual(after, { companies: ["companies/sib1"], problems: ["companies/sib1/workflows/r.ts: collection-op"] });
      // A fresh server on the folder left shows the same.
      const fresh = new LspClient({ folders: [sib1] });
      try {
        await fresh.initialize();
        await fresh.waitIdle();
        assert.deepEqual(await shown(fresh, root), after, "as a fresh server on the folder left");
      } finally { await fresh.shutdown(); }
    }, (roots) => ({ folders: [join(roots[0], removed), join(roots[0], "companies/sib1")] }));
  });
}

test("server: settings turn a rule off and change severities; a settings change re-checks", async () => {
  await withServer(BROKEN, async ({ c, root }) => {
    const nightly = join(root, "workflows/nightly.ts");
    await c.waitFor(() => c.diagnosticsFor(nightly)[0]?.severity === 2, "collection-op as a warning");
    c.settings = { rules: { "collection-op": "off" } };
    c.notify("workspace/didChangeConfiguration", { settings: null });
    await c.waitFor(() => c.diagnosticsFor(nightly).length === 0, "collection-op off");
    c.settings = { rules: "not an object" };
    c.notify("workspace/didChangeConfiguration", { settings: null });
    await c.waitFor(() => c.diagnosticsFor(nightly).length === 1, "bad settings fall back to the defaults");
    await c.waitFor(() => c.notifications.some((n) => n.method === "window/showMessage" && /sanoma\.rules/.test((n.params as any).message)), "a message about the bad setting");
  }, { settings: { rules: { "collection-op": "warning" } } });
});

test("server: sanoma.exclude changed at run time leaves out a company inside a folder it names, and lets it back in, as a start with that setting does (and sanoma-check --exclude)", async () => {
  const top = writeFixture(`
//- /acme/sanoma.config.ts
export default {};
//- /acme/workflows/w.ts
export const w = (ctx: any) => ctx.call("data.nope.get", {});
//- /acme/templates/starter/sanoma.config.ts
export default {};
//- /acme/templates/starter/workflows/s.ts
export const s = (ctx: any) => ctx.call("data.nope.get", {});
`, "sanoma-exclude-company-");
  const w = join(top, "acme/workflows/w.ts");
  const starter = join(top, "acme/templates/starter/workflows/s.ts");
  // Started with the folder left out: the company under it is not searched for.
  await withServer({ path: top }, async ({ c }) => {
    await c.waitFor(() => c.diagnosticsFor(w).length === 1, "acme's problem");
    assert.equal(c.diagnosticsFor(starter).length, 0, "starter left out at the start");
    c.settings = { exclude: [] };
    c.notify("workspace/didChangeConfiguration", { settings: null });
    await c.waitFor(() => c.diagnosticsFor(starter).length === 1, "let back in");
    c.settings = { exclude: ["templates/"] };
    c.notify("workspace/didChangeConfiguration", { settings: null });
    await c.waitFor(() => c.diagnosticsFor(starter).length === 0, "left out again, whole");
    assert.equal(c.diagnosticsFor(w).length, 1, "acme still judged");
  }, { folders: [top], settings: { exclude: ["templates"] } });
});

test("server: a path in sanoma.exclude leaves out a company whose root lies in the folder it names (a fixture company under test/fixtures), from each company root around it or the workspace folder in no company, at the start, opened, and changed at run time, as sanoma-check --exclude does", async () => {
  const top = writeFixture(NESTED_FIXTURE_COMPANIES, "sanoma-exclude-path-");
  const mono = join(top, "mono");
  const files = { w: "acme/workflows/w.ts", loose: "acme/test/fixtures/loose.ts", b: "acme/test/fixtures/broken-co/workflows/b.ts", o: "legacy/old/workflows/o.ts" };
  // (A file judged: one with a rule's problem; an open file of a company left out whole has a note, "left-out", instead.)
  const judged = (c: LspClient) => Object.entries(files).filter(([, f]) => c.diagnosticsFor(join(mono, f)).some((d) => d.code !== "left-out")).map(([k]) => k).sort().join(" ");
  const noted = (c: LspClient) => Object.entries(files).filter(([, f]) => c.diagnosticsFor(join(mono, f)).some((d) => d.code === "left-out")).map(([k]) => k).sort().join(" ");
  await withServer({ path: top }, async ({ c }) => {
    // At the start: a path from acme's root, and one from the workspace folder (in no company).
    await c.waitFor(() => judged(c) !== "", "acme's problem");
    assert.equal(judged(c), "w");
    // A file of the company left out, opened: still nothing of it judged, and a note that says why
    // (it showed nothing, as a clean file does), and by what: the entry of sanoma.exclude.
    c.open(join(mono, files.b), readFileSync(join(mono, files.b), "utf8"));
    await c.waitIdle();
    assert.equal(judged(c), "w");
    assert.deepEqual(c.diagnosticsFor(join(mono, files.b)).map((d) => `${d.severity} ${d.message}`), [`3 This file's company (broken-co) is left out whole by sanoma.exclude "test/fixtures": Sanoma judges none of its files, this one included`]);
    c.settings = { exclude: [] };
    c.notify("workspace/didChangeConfiguration", { settings: null });
    await c.waitFor(() => judged(c) === "b loose o w", "let back in");
    assert.equal(noted(c), "", "the note gone with the exclude");
    c.settings = { exclude: ["./test/fixtures/"] };
    c.notify("workspace/didChangeConfiguration", { settings: null });
    await c.waitFor(() => judged(c) === "o w" && noted(c) === "b", "left out again, whole; the open file noted again");
  }, { folders: [mono], settings: { exclude: ["test/fixtures", "legacy/old"] } });
});

test("server: a client that cannot be asked for settings pushes them; they hold until the next push", async () => {
  await withServer(BROKEN, async ({ c, root }) => {
    const nightly = join(root, "workflows/nightly.ts");
    await c.waitFor(() => c.diagnosticsFor(nightly)[0]?.severity === 1, "collection-op as an error (the defaults)");
    c.notify("workspace/didChangeConfiguration", { settings: { sanoma: { rules: { "collection-op": "warning" } } } });
    await c.waitFor(() => c.diagnosticsFor(nightly)[0]?.severity === 2, "collection-op as a warning");
    c.notify("workspace/didChangeConfiguration", { settings: null });
    await c.waitIdle();
    assert.equal(c.diagnosticsFor(nightly)[0]?.severity, 2, "a push without settings keeps the pushed ones");
    c.notify("workspace/didChangeConfiguration", { settings: { sanoma: { rules: { "collection-op": "off" } } } });
    await c.waitFor(() => c.diagnosticsFor(nightly).length === 0, "collection-op off");
    c.notify("workspace/didChangeConfiguration", { settings: { sanoma: { rules: [] } } });
    await c.waitFor(() => c.diagnosticsFor(nightly).length === 1, "bad settings fall back to the defaults");
    await c.waitFor(() => c.notifications.some((n) => n.method === "window/showMessage" && /sanoma\.rules/.test((n.params as any).message)), "a message about the bad setting");
    c.notify("workspace/didChangeConfiguration", { settings: { other: {} } });
    await c.waitIdle();
    assert.equal(c.diagnosticsFor(nightly)[0]?.severity, 1, "settings without a sanoma section: the defaults");
    assert.ok(!c.serverRequests.some((r) => r.method === "workspace/configuration"), "the server never asks a client that cannot answer");
  }, { pullConfiguration: false });
});

test("server: the clean example company has no problems", async () => {
  await withServer(CLEAN, async ({ c, root }) => {
    assert.deepEqual([...c.diagnostics.values()].flat(), []);
    const status = await c.request("sanoma/status", null);
    assert.equal(status.companies, 1);
    assert.equal(status.files, 6, "indexes the company's six code files");
    assert.equal(status.indexedFiles, 6, "and has read them all");
    assert.ok(existsSync(root));
  });
});

test("server: editing a connector in the company's own tree re-resolves the declarations that use it", async () => {
  await withServer(`
//- /sanoma.config.ts
export default {};
//- /connectors/queue.ts
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const queue = defineResource({ vendor: "acme", type: "queue", title: "Queue", schema: z.object({ name: z.string() }), fields: {}, writable: true });
//- /resources/infra.ts
import { queue } from "../connectors/queue";
export const jobs = queue({ name: "jobs", retention: 7 });
`, async ({ c, root }) => {
    const infra = join(root, "resources/infra.ts");
    await c.waitFor(() => c.diagnosticsFor(infra).some((d) => /`retention` is not a field of acme\.queue/.test(d.message)), "the unknown field");
    const connector = join(root, "connectors/queue.ts");
    c.open(connector, readFileSync(connector, "utf8"));
    c.change(connector, readFileSync(connector, "utf8").replace("name: z.string() }", "name: z.string(), retention: z.number().optional() }"));
    await c.waitFor(() => c.diagnosticsFor(infra).length === 0, "the field is known now");
  });
});

test("server: settings skip extra folders and add company roots no workspace folder leads to", async () => {
  const root = `
//- /sanoma.config.ts
export default {};
//- /generated/x.ts
export const x = (ctx: any) => ctx.call("data.ghost.get", {});
//- /workflows/y.ts
export const y = (ctx: any) => ctx.call("data.ghost.get", {});
`;
  const elsewhere = `
//- /sanoma.config.ts
export default {};
//- /workflows/z.ts
export const z = (ctx: any) => ctx.call("data.ghost.get", {});
`;
  await withServer([root, elsewhere], async ({ c, roots: [root, elsewhere] }) => {
    await c.waitFor(() => c.diagnosticsFor(join(elsewhere, "workflows/z.ts")).length === 1, "the manual root's problem");
    assert.equal(c.diagnosticsFor(join(root, "workflows/y.ts")).length, 1);
    assert.equal(c.diagnosticsFor(join(root, "generated/x.ts")).length, 0, "an excluded folder is not read");
  }, ([, elsewhere]) => ({ settings: { exclude: ["generated"], companyRoots: [elsewhere] } }));
});

for (const pull of [true, false]) {
  test(`server: a change of the companyRoots setting indexes the roots it names now and lets go those it no longer names (${pull ? "pulled" : "pushed right after initialized"})`, async () => {
    // The setting was read only at startup: a later change, or the first push of a client that
    // cannot be asked (it pushes after \`initialized\`), was ignored.
    const company = (name: string) => `
//- /sanoma.config.ts
export default {};
//- /workflows/${name}.ts
export const ${name} = (ctx: any) => ctx.call("data.${name}.get", {});
//- /workflows/${name}2.ts
export const ${name}2 = (ctx: any) => ctx.call("data.${name}.get", {});
`;
    // Started without it (when pulled, the first indexing over).
    await withServer([company("home"), company("extra")], async ({ c, roots: [home, extra] }) => {
      const setSettings = (sanoma: unknown) => {
        if (pull) { c.settings = sanoma; c.notify("workspace/didChangeConfiguration", { settings: null }); }
        else c.notify("workspace/didChangeConfiguration", { settings: { sanoma } });
      };
      const roots = async () => (await c.request("sanoma/companies", null)).companies.map((co: any) => co.root).sort();
      const [a, b] = [join(extra, "workflows/extra.ts"), join(extra, "workflows/extra2.ts")];
      setSettings({ companyRoots: [extra] });
      await c.waitFor(() => c.diagnosticsFor(a).length === 1 && c.diagnosticsFor(b).length === 1, "the named company's problems");
      await c.waitIdle();
      assert.deepEqual(await roots(), [extra, home].sort());
      // No longer named: it goes, with its problems.
      setSettings({});
      await c.waitFor(() => c.diagnosticsFor(a).length === 0 && c.diagnosticsFor(b).length === 0, "its problems go");
      await c.waitIdle();
      assert.deepEqual(await roots(), [home]);
      // No longer named while a file of it is open: it stays until that file closes.
      setSettings({ companyRoots: [extra] });
      await c.waitFor(() => c.diagnosticsFor(b).length === 1, "named again");
      c.open(a, readFileSync(a, "utf8"));
      setSettings({ rules: {} });
      await c.waitIdle();
      assert.deepEqual(await roots(), [extra, home].sort(), "a file of it is open");
      assert.equal(c.diagnosticsFor(b).length, 1);
      c.close(a);
      await c.waitFor(() => c.diagnosticsFor(b).length === 0, "gone with its last open file");
      await c.waitIdle();
      assert.deepEqual(await roots(), [home]);
      // The workspace folder's own company stays when named and then no more.
      setSettings({ companyRoots: [home] });
      await c.waitIdle();
      setSettings({});
      await c.waitIdle();
      assert.deepEqual(await roots(), [home]);
      assert.equal(c.diagnosticsFor(join(home, "workflows/home.ts")).length, 1);
    }, { pullConfiguration: pull, idle: pull });
  });
}

test("server: a company found only through open files goes when the last of them closes, with its problems; one the settings name stays", async () => {
  const company = (name: string) => `
//- /sanoma.config.ts
export default {};
//- /workflows/${name}.ts
export const ${name} = (ctx: any) => ctx.call("data.${name}.get", {});
//- /workflows/${name}2.ts
export const ${name}2 = (ctx: any) => ctx.call("data.${name}.get", {});
`;
  const text = (f: string) => readFileSync(f, "utf8");
  await withServer([company("home"), company("loose"), company("named")], async ({ c, roots: [folder, loose, named] }) => {
    const roots = async () => (await c.request("sanoma/companies", null)).companies.map((co: any) => co.root).sort();
    const [a, b] = [join(loose, "workflows/loose.ts"), join(loose, "workflows/loose2.ts")];
    c.open(a, text(a));
    c.open(b, text(b));
    await c.waitFor(() => c.diagnosticsFor(a).length === 1 && c.diagnosticsFor(b).length === 1, "the loose company's problems");
    c.close(a);
    await c.waitIdle();
    assert.deepEqual(await roots(), [folder, loose, named].sort(), "one of its files is still open");
    assert.equal(c.diagnosticsFor(a).length, 1);
    c.close(b);
    await c.waitFor(() => c.diagnosticsFor(a).length === 0 && c.diagnosticsFor(b).length === 0, "its problems go with its last open file");
    await c.waitIdle();
    assert.deepEqual(await roots(), [folder, named].sort());
    // Opened again: it comes back.
    c.open(a, text(a));
    await c.waitFor(() => c.diagnosticsFor(b).length === 1, "back when a file of it is opened again");
    // A company the settings name, and the workspace folder's own, stay when their files close.
    for (const f of [join(named, "workflows/named.ts"), join(folder, "workflows/home.ts")]) { c.open(f, text(f)); await c.waitIdle(); c.close(f); }
    await c.waitIdle();
    assert.deepEqual(await roots(), [folder, loose, named].sort());
    assert.equal(c.diagnosticsFor(join(named, "workflows/named2.ts")).length, 1);
    assert.equal(c.diagnosticsFor(join(folder, "workflows/home2.ts")).length, 1);
  }, ([, , named]) => ({ settings: { companyRoots: [named] } }));
});

test("server: a workspace folder spelled with a trailing slash, // or .. is the one company its files find (each spelling made a second company)", async () => {
  await withCompanies([`
//- /sanoma.config.ts
export default {};
//- /workflows/a.ts
export const a = (ctx: any) => ctx.call("data.nope.get", {});
`], async ([root]) => {
    for (const spelling of [`${root}/`, root.replace(/\/([^/]+)$/, "//$1"), `${root}/workflows/..`]) {
      await withServer([], async ({ c }) => {
        const a = join(root, "workflows/a.ts");
        c.open(a, readFileSync(a, "utf8"));
        await c.waitIdle();
        assert.deepEqual((await c.request("sanoma/companies", null)).companies.map((co: any) => co.root), [root], spelling);
        assert.equal(c.diagnosticsFor(a).length, 1, spelling);
        assert.deepEqual([...c.diagnostics.keys()].filter((u) => c.diagnostics.get(u)!.length > 0), [uri(a)], `${spelling}: published under one URI`);
      }, { folders: [spelling] });
    }
  });
});

test("server: a file opened through a link to its company's folder (or by its real path, the folder being a link) joins the one company, its problems to the URI opened", async () => {
  await withCompanies([`
//- /real/sanoma.config.ts
export default {};
//- /real/workflows/a.ts
export const a = (ctx: any) => ctx.call("data.nope.get", {});
//- /real/workflows/b.ts
export const b = (ctx: any) => ctx.call("data.nope.get", {});
`], async ([top]) => {
    const real = join(top, "real"), link = join(top, "link");
    symlinkSync("real", link);
    for (const [folder, other] of [[real, link], [link, real]]) {
      await withServer([], async ({ c }) => {
        const [a, b] = [join(folder, "workflows/a.ts"), join(folder, "workflows/b.ts")];
        const aOther = join(other, "workflows/a.ts");
        await c.waitFor(() => c.diagnosticsFor(a).length === 1 && c.diagnosticsFor(b).length === 1, "the folder's problems");
        c.open(aOther, readFileSync(a, "utf8"));
        await c.waitFor(() => c.diagnosticsFor(aOther).length === 1 && c.diagnosticsFor(a).length === 0, `${folder}: a's problem moves to the URI opened`);
        await c.waitIdle();
        assert.deepEqual((await c.request("sanoma/companies", null)).companies.map((co: any) => co.root), [folder], "one company");
        assert.equal(c.diagnosticsFor(join(other, "workflows/b.ts")).length, 0, "b is not published twice");
        assert.equal((await c.request("workspace/symbol", { query: "" })).filter((x: any) => x.name === "b").length, 1, "nor listed twice");
        c.change(aOther, "export const a = 1;\n");
        await c.waitFor(() => c.diagnosticsFor(aOther).length === 0, "the buffer's text is judged");
        assert.equal(c.diagnosticsFor(a).length, 0, "no stale problem on the other spelling");
        c.close(aOther);
        await c.waitFor(() => c.diagnosticsFor(a).length === 1 && c.diagnosticsFor(aOther).length === 0, "closed: the disk's problem, back at the folder's spelling");
      }, { folders: [folder] });
    }
  });
});

test("server: a company opened through a link to a folder inside a workspace folder (which its walk never follows) goes when its last file closes, as a fresh server would not have it", async () => {
  await withCompanies([`
//- /outside/sanoma.config.ts
export default {};
//- /outside/workflows/a.ts
export const a = (ctx: any) => ctx.call("data.nope.get", {});
//- /ws/sanoma.config.ts
export default {};
//- /ws/workflows/w.ts
export const w = 1;
`], async ([top]) => {
    const ws = join(top, "ws");
    symlinkSync("../outside", join(ws, "linked"));
    await withServer([], async ({ c }) => {
      const roots = async () => (await c.request("sanoma/companies", null)).companies.map((co: any) => co.root);
      await c.waitIdle();
      assert.deepEqual(await roots(), [ws], "the walk does not follow the link");
      const a = join(ws, "linked/workflows/a.ts");
      c.open(a, readFileSync(a, "utf8"));
      await c.waitFor(() => c.diagnosticsFor(a).length === 1, "the company opened through the link, its problem");
      assert.deepEqual((await roots()).sort(), [ws, join(ws, "linked")].sort());
      c.close(a);
      await c.waitFor(() => c.diagnosticsFor(a).length === 0, "its problem goes with it");
      await c.waitIdle();
      assert.deepEqual(await roots(), [ws], "the company goes with its last open file");
    }, { folders: [ws] });
  });
});

test("server: a file open under two URIs (through a link and by its real path) keeps the editor's text when one of them closes", async () => {
  await withCompanies([`
//- /real/sanoma.config.ts
export default {};
//- /real/workflows/a.ts
export const a = (ctx: any) => ctx.call("data.nope.get", {});
`], async ([top]) => {
    const real = join(top, "real");
    symlinkSync("real", join(top, "link"));
    await withServer([], async ({ c }) => {
      const [a, aLink] = [join(real, "workflows/a.ts"), join(top, "link/workflows/a.ts")];
      await c.waitFor(() => c.diagnosticsFor(a).length === 1, "the disk's problem");
      c.open(a, "export const a = 1;\n");
      c.open(aLink, "export const a = 1;\n");
      await c.waitFor(() => c.diagnosticsFor(a).length === 0 && c.diagnosticsFor(aLink).length === 0, "the editor's text: no problem");
      await c.waitIdle();
      c.close(aLink);
      await c.waitIdle();
      assert.deepEqual(c.diagnosticsFor(a), [], "still open by its real path: the editor's text still wins over the disk's");
      c.close(a);
      await c.waitFor(() => c.diagnosticsFor(a).length === 1, "both closed: the disk's problem is back");
    }, { folders: [real] });
  });
});

test("server: an open file whose URI the client spells its own way (%5b for [) keeps the editor's text when the disk changes, and its problems go to that URI", async () => {
  await withServer(`
//- /sanoma.config.ts
export default {};
//- /workflows/[id]/w.ts
export const w = (ctx: any) => ctx.call("data.nope.get", {});
`, async ({ c, root }) => {
    const file = join(root, "workflows/[id]/w.ts");
    const canonical = uri(file);
    const spelled = canonical.replace("%5B", "%5b").replace("%5D", "%5d");
    assert.notEqual(spelled, canonical);
    await c.waitFor(() => c.diagnosticsFor(file).length === 1, "the problem on disk");
    c.notify("textDocument/didOpen", { textDocument: { uri: spelled, languageId: "typescript", version: 1, text: readFileSync(file, "utf8") } });
    c.notify("textDocument/didChange", { textDocument: { uri: spelled, version: 2 }, contentChanges: [{ text: "export const w = 1;\n" }] });
    await c.waitFor(() => (c.diagnostics.get(spelled) ?? [1]).length === 0, "the buffer's text is clean, said to the client's URI");
    // The file is saved elsewhere with another problem (a checkout); the watcher says so.
    writeFileSync(file, `export const w = (ctx: any) => ctx.call("data.other.get", {});\n`);
    c.watched([{ file, type: 2 }]);
    await c.waitIdle();
    assert.deepEqual(c.diagnostics.get(spelled) ?? [], [], "the editor's text still wins");
    assert.deepEqual(c.diagnosticsFor(file).filter((d) => /other/.test(d.message)), [], "nothing read from the disk is published");
  });
});

test("server: each workspace folder's companyRoots setting is read, its relative paths from that folder", async () => {
  const company = (name: string) => `
//- /sanoma.config.ts
export default {};
//- /workflows/${name}.ts
export const ${name} = (ctx: any) => ctx.call("data.${name}.get", {});
`;
  const top = writeFixture(company("x").replace(/\/\/- \//g, "//- /one/x/") + company("y").replace(/\/\/- \//g, "//- /two/y/"));
  const [a, b] = [join(top, "one", "a"), join(top, "two", "b")];
  mkdirSync(a, { recursive: true });
  mkdirSync(b, { recursive: true });
  await withServer({ path: top }, async ({ c }) => {
    assert.deepEqual((await c.request("sanoma/companies", null)).companies.map((co: any) => co.root).sort(), [join(top, "one", "x"), join(top, "two", "y")]);
  }, { settings: (scope?: string) => (scope === uri(a) ? { companyRoots: ["../x"] } : scope === uri(b) ? { companyRoots: ["../y"] } : {}), folders: [a, b] });
});

test("server: each company leaves out the folders its own settings exclude, for files opened or created later too", async () => {
  const company = `
//- /sanoma.config.ts
export default {};
//- /workflows/w.ts
export const w = 1;
//- /gen/x.ts
export const x = (ctx: any) => ctx.call("data.nope.get", {});
`;
  await withServer([company, company], async ({ c, roots: [a, b] }) => {
    await c.waitFor(() => c.diagnosticsFor(join(b, "gen/x.ts")).length === 1, "b reads its gen/");
    assert.equal(c.diagnosticsFor(join(a, "gen/x.ts")).length, 0, "a leaves out its gen/");
    const text = `export const y = (ctx: any) => ctx.call("data.nope.get", {});\n`;
    for (const root of [a, b]) c.open(join(root, "gen/new.ts"), text);
    await c.waitFor(() => c.diagnosticsFor(join(b, "gen/new.ts")).length === 1, "a new file in b's gen/ is judged");
    await c.waitIdle();
    // (Not judged: its one diagnostic is the note that its folder is left out, docs/settings.md.)
    assert.deepEqual(c.diagnosticsFor(join(a, "gen/new.ts")).map((d) => d.code), ["left-out"], "one in a's gen/ is not");
  }, ([a, b]) => ({ settings: (scope?: string) => (scope === uri(a) ? { exclude: ["gen"] } : {}), folders: [a, b] }));
});

test("server: files the company's walk skips stay out of it when opened, closed or reported by the watcher", async () => {
  // Each of these once joined the company in the server (found by a sweep against sanoma-check),
  // and its problems, and those it caused in real files, stayed until a restart.
  await withServer(`
//- /sanoma.config.ts
export default {};
//- /workflows/ok.ts
export const ok = 1;
//- /workflows/.draft/x.ts
export const x = (ctx: any) => ctx.call("data.nope.get", {});
//- /notes.md
Call "data.orders.get" from a workflow.
//- /apps/billing/sanoma.lock.json
{ "x": "data.y.z" }
//- /node_modules/tmpl/sanoma.config.ts
export default {};
//- /node_modules/tmpl/workflows/a.ts
export const a = (ctx: any) => ctx.call("data.nope.get", {});
`, async ({ c, root }) => {
    const skipped = ["workflows/.draft/x.ts", "notes.md", "apps/billing/sanoma.lock.json", "node_modules/tmpl/workflows/a.ts"].map((f) => join(root, f));
    for (const f of skipped) c.open(f, readFileSync(f, "utf8"));
    // Written on disk and reported by the client's watcher, in a dot folder.
    const cached = join(root, "workflows/.cache/y.ts");
    mkdirSync(join(root, "workflows/.cache"));
    writeFileSync(cached, `export const y = "data.nope.get";\n`);
    c.watched([{ file: cached, type: 1 }]);
    // A real problem after them all: once it is published, the server has handled what came before.
    c.open(join(root, "workflows/ok.ts"), `export const ok = (ctx: any) => ctx.call("data.real.get", {});\n`);
    await c.waitIdle();
    await c.waitFor(() => c.diagnosticsFor(join(root, "workflows/ok.ts")).length === 1, "the real problem");
    for (const f of [...skipped, cached]) assert.deepEqual(c.diagnosticsFor(f), [], f);
    for (const f of skipped) c.close(f);
    c.close(join(root, "workflows/ok.ts"));
    await c.waitIdle();
    await c.waitFor(() => c.diagnosticsFor(join(root, "workflows/ok.ts")).length === 0, "the real file back to its disk text");
    for (const f of [...skipped, cached]) assert.deepEqual(c.diagnosticsFor(f), [], f);
  });
});

test("server: files the company's walk skips stay out of it when they are already open as the first index ends", async () => {
  // An editor restoring its tabs opens them right after \`initialized\`; the end of the index
  // round once added every open document of the company, skipped or not (found by a sweep).
  await withServer(`
//- /sanoma.config.ts
export default {};
//- /workflows/ok.ts
export const ok = (ctx: any) => ctx.call("data.real.get", {});
//- /workflows/.draft/x.ts
export const x = (ctx: any) => ctx.call("data.nope.get", {});
//- /notes.md
import "../../../../../../../../../../zz-md";
//- /workflows/data.json
{ "a": "data.nope.get" }
`, async ({ c, root }) => {
    const skipped = ["workflows/.draft/x.ts", "notes.md", "workflows/data.json"].map((f) => join(root, f));
    for (const f of skipped) c.open(f, readFileSync(f, "utf8"));
    await c.waitIdle();
    await c.waitFor(() => c.diagnosticsFor(join(root, "workflows/ok.ts")).length === 1, "the real problem");
    for (const f of skipped) assert.deepEqual(c.diagnosticsFor(f), [], f);
  }, { idle: false });
});

test("server: params without what a request reads are refused (InvalidParams, saying what is missing); a handler that throws answers an empty result, logs, and the server keeps working", async () => {
  await withServer(BROKEN, async ({ c, root }) => {
    const file = `file://${join(root, "workflows/nightly.ts")}`;
    const refused = { code: -32602 };
    await assert.rejects(c.request("textDocument/hover", { textDocument: { uri: file }, position: null }), { ...refused, message: "hover needs textDocument.uri (a string) and position ({ line, character }, integers)" });
    await assert.rejects(c.request("textDocument/definition", { textDocument: {}, position: { line: 1, character: 2 } }), refused);
    await assert.rejects(c.request("textDocument/completion", { textDocument: { uri: file }, position: { line: "1", character: 2 } }), refused);
    await assert.rejects(c.request("textDocument/codeAction", { textDocument: { uri: file }, range: null, context: { diagnostics: [] } }), { ...refused, message: /^codeAction needs .*range/ });
    await assert.rejects(c.request("textDocument/documentSymbol", { textDocument: {} }), refused);
    await assert.rejects(c.request("workspace/symbol", { query: null }), { ...refused, message: "workspaceSymbol needs query (a string)" });
    await assert.rejects(c.request("sanoma/companyOf", {}), { ...refused, message: "companyOf needs uri (a string)" });
    // Well-formed params that a handler still cannot take (a diagnostic with no range) make it throw inside.
    assert.deepEqual(await c.request("textDocument/codeAction", { textDocument: { uri: file }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, context: { diagnostics: [{ source: "sanoma", code: "collection-op", range: null, message: "x" }] } }), []);
    await c.waitFor(() => c.notifications.some((n) => n.method === "window/logMessage" && /codeAction failed/.test((n.params as any).message)), "the failure logged");
    assert.ok(!c.notifications.some((n) => n.method === "window/logMessage" && /(hover|definition|completion|documentSymbol|workspaceSymbol|companyOf) failed/.test((n.params as any).message)), "a refusal is no failure of ours: no stack in the log");
    const d = await c.request("textDocument/definition", { textDocument: { uri: file }, position: { line: 1, character: 20 } });
    assert.equal(d[0].uri, `file://${join(root, "resources/data.ts")}`, "still answers");
  });
});

test("server: after shutdown, requests are refused (InvalidRequest), and exit ends the server with code 0", async () => {
  await withServer(BROKEN, async ({ c, root }) => {
    const file = `file://${join(root, "workflows/nightly.ts")}`;
    assert.equal(await c.request("shutdown", null), null);
    await assert.rejects(c.request("textDocument/hover", { textDocument: { uri: file }, position: { line: 1, character: 20 } }), /shutting down/);
    await assert.rejects(c.request("workspace/symbol", { query: "" }), /shutting down/);
    await assert.rejects(c.request("sanoma/boxes/list", {}), { code: -32600, message: /shutting down/ }, "the boxes' requests too");
    const exited = new Promise<number | null>((r) => c.proc.once("exit", (code) => r(code)));
    c.notify("exit", null);
    assert.equal(await exited, 0);
  });
});

test("server: a request before initialize is refused (ServerNotInitialized), and a second initialize (InvalidRequest) leaves the first session at work", async () => {
  await withCompanies([BROKEN], async ([root]) => {
    const c = new LspClient();
    try {
      const file = uri(join(root, "workflows/nightly.ts"));
      // (A shutdown and an executeCommand too, and the boxes' requests, whose handlers come with the session.)
      for (const [method, params] of [["textDocument/hover", { textDocument: { uri: file }, position: { line: 1, character: 20 } }], ["workspace/symbol", { query: "" }], ["sanoma/status", null], ["shutdown", null], ["workspace/executeCommand", { command: "sanoma.checkWorkspace" }], ["sanoma/boxes/list", {}]] as const) {
        await assert.rejects(c.request(method, params), { code: -32002, message: "the server is not initialized: send initialize first" }, method);
      }
      await c.initialize([root]);
      await assert.rejects(c.request("sanoma/nothing", {}), { code: -32601 }, "a method of no one's, once initialized");
      await c.waitIdle();
      const problems = c.diagnosticsFor(join(root, "workflows/nightly.ts")).length;
      assert.ok(problems > 0);
      await assert.rejects(c.request("initialize", { processId: null, rootUri: null, capabilities: {} }), { code: -32600, message: "initialize may only be sent once" });
      assert.equal((await c.request("sanoma/status", null)).companies, 1, "the first session's company is still there");
      c.open(join(root, "workflows/nightly.ts"), "export const x = 1;\n");
      await c.waitFor(() => c.diagnosticsFor(join(root, "workflows/nightly.ts")).length < problems, "and it still publishes");
    } finally { await c.shutdown(); }
  });
});

test("server: sanoma.checkWorkspace reads every company again from disk and answers the status once what it found is published (idle)", async () => {
  await withServer(BROKEN, async ({ c, root }) => {
    const file = join(root, "workflows/nightly.ts");
    const before = c.diagnosticsFor(file).length;
    // A change the server is not told of (no watcher event): only the command finds it.
    writeFileSync(file, readFileSync(file, "utf8") + '\nexport const extra = "data.nope.get";\n');
    const sent = Date.now();
    const status = await c.request("workspace/executeCommand", { command: "sanoma.checkWorkspace", arguments: [] });
    assert.equal(status.state, "idle", JSON.stringify(status));
    assert.ok(status.lastCheckAt >= sent, "checked after the request");
    assert.equal(c.diagnosticsFor(file).length, before + 1, "and the new problem is already published");
  }); // (the test's client takes the watchers and never reports an event)
});

test("server: a client that closes the pipe ends the server: code 0 after a shutdown, 1 without (nothing else need happen first)", async () => {
  for (const shutdownFirst of [true, false]) {
    await withServer(BROKEN, async ({ c }) => {
      // The client's pid is given at initialize (as VS Code does): vscode-languageserver's check of it must not keep the server alive.
      if (shutdownFirst) assert.equal(await c.request("shutdown", null), null);
      const exited = new Promise<number | null>((r) => c.proc.once("exit", (code) => r(code)));
      c.proc.stdin.end();
      const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r("still running after 10 s"), 10_000))]);
      assert.equal(code, shutdownFirst ? 0 : 1);
    });
  }
});

test("server: a client that never answers window/workDoneProgress/create or workspace/configuration still gets its problems (the defaults' levels); its settings answered at last are applied then", async () => {
  await withServer(BROKEN, async ({ c, root }) => {
    const nightly = join(root, "workflows/nightly.ts");
    // Indexing went on without progress after 2 s, and without the client's settings after 10.
    await c.waitFor(() => c.diagnosticsFor(nightly).length === 1 && c.diagnosticsFor(nightly)[0].severity === 1, "the problem, at the default level", 30_000);
    assert.match(c.stderr + JSON.stringify(c.notifications), /did not answer workspace\/configuration within 10 s/);
    c.answerLate();
    await c.waitFor(() => c.diagnosticsFor(nightly).length === 1 && c.diagnosticsFor(nightly)[0].severity === 2, "the client's own level, once it answered", 30_000);
  }, { idle: false, neverAnswer: ["window/workDoneProgress/create", "workspace/configuration"], settings: { rules: { "collection-op": "warning" } } });
});

test("server: started, never initialized, its parent dead while its stdin is held open elsewhere: it ends (no client's pid to watch yet)", async () => {
  // A parent (bash) that starts the server on a FIFO opened for reading and writing (so the pipe
  // never ends: as when a wrapper or multiplexer holds it), says its pid, and waits.
  const dir = mkdtempSync(join(tmpdir(), "sanoma-orphan-"));
  const fifo = join(dir, "in");
  spawnSync("mkfifo", [fifo]);
  const parent = spawn("bash", ["-c", 'exec 3<>"$1"; "$2" "$3" --stdio <&3 >/dev/null 2>&1 & echo $!; exec 3>&-; wait', "_", fifo, process.execPath, SERVER], { stdio: ["ignore", "pipe", "inherit"] });
  let pid = 0;
  try {
    pid = await new Promise<number>((resolve) => parent.stdout!.once("data", (d: Buffer) => resolve(Number(d.toString().trim()))));
    const alive = () => { try { process.kill(pid, 0); return true; } catch { return false; } };
    await new Promise((r) => setTimeout(r, 1500));
    assert.ok(alive(), "the server waits for its initialize while its parent lives");
    parent.kill("SIGKILL");
    for (let i = 0; i < 100 && alive(); i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(alive(), false, "ended within 10 s of its parent's death, its stdin still open");
  } finally {
    if (pid) try { process.kill(pid, "SIGKILL"); } catch { /* gone */ }
    if (parent.exitCode === null) parent.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  }
});

test("server over node IPC (as VS Code starts it): a client that closes the channel ends the server, code 0 after a shutdown, 1 without", async () => {
  for (const shutdownFirst of [true, false]) {
    const server = spawn(process.execPath, [SERVER, "--node-ipc"], { stdio: ["ignore", "ignore", "pipe", "ipc"] });
    try {
      const answers = new Map<number, unknown>();
      server.on("message", (m: { id?: number; result?: unknown }) => { if (m.id !== undefined) answers.set(m.id, m.result); });
      const answered = async (id: number) => { for (let i = 0; i < 400 && !answers.has(id); i++) await new Promise((r) => setTimeout(r, 25)); assert.ok(answers.has(id), `request ${id} answered`); };
      // The client's pid is given (as VS Code gives it): vscode-languageserver's check of it must not keep the server alive.
      server.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { processId: process.pid, rootUri: null, capabilities: {} } });
      await answered(1);
      server.send({ jsonrpc: "2.0", method: "initialized", params: {} });
      if (shutdownFirst) { server.send({ jsonrpc: "2.0", id: 2, method: "shutdown", params: null }); await answered(2); }
      const exited = new Promise<number | null>((r) => server.once("exit", (code) => r(code)));
      server.disconnect();
      const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r("still running after 10 s"), 10_000))]);
      assert.equal(code, shutdownFirst ? 0 : 1);
    } finally {
      if (server.exitCode === null && server.signalCode === null) server.kill("SIGKILL");
    }
  }
});

test("server: editing the lockfile in a buffer re-judges its bindings at once", async () => {
  await withServer(CLEAN, async ({ c, root }) => {
    const lock = join(root, "sanoma.lock.json");
    const text = readFileSync(lock, "utf8");
    c.open(lock, text);
    c.change(lock, text.replace("resources/infra.ts#web", "resources/infra.ts#gone"));
    await c.waitFor(() => c.diagnosticsFor(lock).some((d) => d.code === "lockfile" && d.severity === 2 && /Orphan binding/.test(d.message)), "the orphan warning");
    c.change(lock, text);
    await c.waitFor(() => c.diagnosticsFor(lock).length === 0, "cleared when undone");
  });
});

test("server: the lockfile changed on disk is read again (twice changed, as it is in the end), deleted its problems go, and closed its text on disk counts again", async () => {
  await withServer(CLEAN, async ({ c, root }) => {
    const lock = join(root, "sanoma.lock.json");
    const text = readFileSync(lock, "utf8");
    const orphan = (key: string) => (d: { code?: unknown; message: string }) => d.code === "lockfile" && d.message.includes(`declares no \`${key}\``);
    writeFileSync(lock, text.replace("resources/infra.ts#web", "resources/infra.ts#first"));
    c.watched([{ file: lock, type: 2 }]);
    writeFileSync(lock, text.replace("resources/infra.ts#web", "resources/infra.ts#second"));
    c.watched([{ file: lock, type: 2 }]);
    await c.waitFor(() => c.diagnosticsFor(lock).some(orphan("second")), "the orphan of the later change");
    await c.waitIdle();
    assert.ok(!c.diagnosticsFor(lock).some(orphan("first")));
    rmSync(lock);
    c.watched([{ file: lock, type: 3 }]);
    await c.waitFor(() => c.diagnosticsFor(lock).length === 0, "no problems of a lockfile that is gone");
    writeFileSync(lock, text.replace("resources/infra.ts#web", "resources/infra.ts#third"));
    c.open(lock, text);
    await c.waitIdle();
    assert.deepEqual(c.diagnosticsFor(lock), [], "the editor's text wins while open");
    c.close(lock);
    await c.waitFor(() => c.diagnosticsFor(lock).some(orphan("third")), "the disk's text once closed");
  });
});

test("server: a file changed on disk while its company is being indexed is read again once the round is done", async () => {
  const dir = join(tmpdir(), `sanoma-late-change-${process.pid}`);
  generateCompany(dir, { files: 3000 });
  // Root files are listed first: this one is read in the round's first batch.
  const early = join(dir, "zz.ts");
  writeFileSync(early, `export const f = (ctx: any) => ctx.call("data.nope.get", {});\n`);
  await withServer({ path: dir }, async ({ c: client }) => {
    await client.waitFor(() => client.notifications.some((n) => n.method === "$/progress" && (n.params as any)?.value?.kind === "report"), "a progress report of the index round");
    writeFileSync(early, `export const f = (ctx: any) => ctx.call("data.orders.get", {});\n`);
    client.watched([{ file: early, type: 2 }]);
    const status = await client.request("sanoma/status", null);
    assert.equal(status.state, "indexing", "the change reached the server while it was indexing (else this test proves nothing)");
    await client.waitIdle();
    assert.deepEqual(client.diagnosticsFor(early), []);
  }, { idle: false });
});
