/**
 * The server's own watcher (a client that cannot watch) when the workspace folder itself goes and
 * comes back: it watched the folder, so nothing was left watching for it to come back (a workspace
 * folder deleted while indexing and made again showed 0 companies until a manual re-check).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeFixture } from "../support/fixture.ts";
import { LspClient, uri } from "../support/lsp.ts";
import { withServer } from "../support/server.ts";
import { CLEAN, CLOUD_NEXT_VERSION, SHARED_CONNECTOR, SHARED_WITHOUT_HOOK, writeLinkedMonorepo } from "../support/companies.ts";

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

/** A company with one problem in each of two files: the root scope's and app `a`'s. */
const TWO_PROBLEMS = `
//- /sanoma.config.ts
export default {};
//- /workflows/w.ts
export const w = (ctx: any) => ctx.call("data.nope.get", {});
//- /apps/a/workflows/x.ts
export const x = (ctx: any) => ctx.call("data.zip.get", {});
`;
const companiesOf = async (c: { request<T>(method: string, params: unknown): Promise<T> }) => (await c.request<{ companies: { root: string }[] }>("sanoma/companies", null)).companies.map((x) => x.root).sort();

test("a config made in a dot folder, or a company moved into one, makes no company (the client's events): a fresh server finds none there either (A3)", async () => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-dot-")));
  const acme = join(base, "acme");
  const beta = join(base, "beta");
  cpSync(writeFixture(TWO_PROBLEMS), acme, { recursive: true });
  cpSync(writeFixture(TWO_PROBLEMS), beta, { recursive: true });
  try {
    await withServer([], async ({ c }) => {
      await c.waitFor(() => c.diagnosticsFor(join(beta, "workflows/w.ts")).length === 1, "beta's problems");
      // A config (and a workflow) made in acme/.tmp, reported file by file as VS Code reports them.
      mkdirSync(join(acme, ".tmp/workflows"), { recursive: true });
      writeFileSync(join(acme, ".tmp/sanoma.config.ts"), "export default {};\n");
      writeFileSync(join(acme, ".tmp/workflows/t.ts"), `export const t = (ctx: any) => ctx.call("data.nope.get", {});\n`);
      c.watched([{ file: join(acme, ".tmp"), type: 1 }, { file: join(acme, ".tmp/sanoma.config.ts"), type: 1 }, { file: join(acme, ".tmp/workflows/t.ts"), type: 1 }]);
      // beta moved into a dot folder: one deletion and one creation, as VS Code reports a rename.
      mkdirSync(join(base, ".hidden"));
      renameSync(beta, join(base, ".hidden/beta"));
      c.watched([{ file: beta, type: 3 }, { file: join(base, ".hidden/beta"), type: 1 }]);
      await c.waitFor(() => c.diagnosticsFor(join(beta, "workflows/w.ts")).length === 0, "beta's problems gone with it");
      await new Promise((r) => setTimeout(r, 300));
      await c.waitIdle();
      assert.deepEqual(await companiesOf(c), [acme], "no company in a dot folder");
      assert.deepEqual(c.diagnosticsFor(join(acme, ".tmp/workflows/t.ts")), []);
      assert.deepEqual(c.diagnosticsFor(join(base, ".hidden/beta/workflows/w.ts")), []);
    }, { folders: [base], dynamicWatch: true });
  } finally { rmSync(base, { recursive: true, force: true }); }
});

for (const dynamicWatch of [true, false]) {
  for (const through of ["a subfolder", "an open file"] as const) {
    test(`${dynamicWatch ? "a client that watches" : "the server's own watcher"}: a company found through ${through} comes back when its deleted config is written again (a checkout), as a fresh server would find it`, async () => {
      const base = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-back-")));
      const acme = join(base, "acme");
      const other = join(base, "other");
      cpSync(writeFixture(TWO_PROBLEMS), acme, { recursive: true });
      mkdirSync(other);
      const w = join(acme, "workflows/w.ts");
      const x = join(acme, "apps/a/workflows/x.ts");
      try {
        await withServer([], async ({ c }) => {
          if (through === "an open file") c.open(w, readFileSync(w, "utf8"));
          const shown = () => c.diagnosticsFor(w).length + c.diagnosticsFor(x).length;
          await c.waitFor(() => shown() === 2, "the company's problems");
          const config = join(acme, "sanoma.config.ts");
          rmSync(config);
          await c.waitFor(() => shown() === 0, "no company, no problems");
          writeFileSync(config, "export default {};\n");
          await c.waitFor(() => shown() === 2, "the company back", 10_000);
          assert.deepEqual(await companiesOf(c), [acme]);
        }, { folders: [through === "a subfolder" ? join(acme, "apps/a") : other], dynamicWatch });
      } finally { rmSync(base, { recursive: true, force: true }); }
    });
  }
}

test("a client that watches: a company kept after its workspace folder is removed (another folder lies inside it) is watched by the server where the client no longer watches", async () => {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-kept-")));
  const acme = join(base, "acme");
  cpSync(writeFixture(TWO_PROBLEMS), acme, { recursive: true });
  const w = join(acme, "workflows/w.ts");
  try {
    await withServer([], async ({ c }) => {
      await c.waitFor(() => c.diagnosticsFor(w).length === 1, "the company's problems");
      c.notify("workspace/didChangeWorkspaceFolders", { event: { added: [], removed: [{ uri: uri(acme), name: "acme" }] } });
      await c.waitIdle();
      await new Promise((r) => setTimeout(r, 300));
      assert.deepEqual(await companiesOf(c), [acme], "kept: acme/apps/a leads to it");
      // Outside acme/apps/a: the client reports nothing of it any more.
      writeFileSync(w, "export const w = 1;\n");
      await c.waitFor(() => c.diagnosticsFor(w).length === 0, "the change on disk seen", 10_000);
    }, { folders: [acme, join(acme, "apps/a")], dynamicWatch: true });
  } finally { rmSync(base, { recursive: true, force: true }); }
});

for (const dynamicWatch of [true, false]) {
  test(`${dynamicWatch ? "a client that watches" : "the server's own watcher"}: a config made above a workspace folder that is a company's root (a monorepo's, made by a checkout) makes no company of its own: the folder's company is nested in it, as a fresh server has it`, async () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-above-nested-")));
    const mono = join(base, "mono");
    const sib1 = join(mono, "companies/sib1");
    cpSync(writeFixture(TWO_PROBLEMS), mono, { recursive: true });
    cpSync(writeFixture(TWO_PROBLEMS), sib1, { recursive: true });
    const config = readFileSync(join(mono, "sanoma.config.ts"), "utf8");
    rmSync(join(mono, "sanoma.config.ts"));
    const r = join(sib1, "workflows/w.ts");
    const shown = (c: LspClient) => [...c.diagnostics].filter(([, ds]) => ds.length > 0).map(([u, ds]) => `${fileURLToPath(u).slice(base.length + 1)}: ${ds.map((d) => `${d.code}/${d.severity}`).sort().join(" ")}`).sort();
    try {
      await withServer([], async ({ c }) => {
        await c.waitFor(() => c.diagnosticsFor(r).length === 1, "sib1's problems");
        assert.deepEqual(await companiesOf(c), [sib1]);
        writeFileSync(join(mono, "sanoma.config.ts"), config);
        // Then a team's settings beside it, which hold for sib1 (no nearer file): seen, so was the config.
        writeFileSync(join(mono, ".sanomarc.json"), `{ "rules": { "collection-op": "warning" } }\n`);
        await c.waitFor(() => c.diagnosticsFor(r)[0]?.severity === 2, "the settings made beside the config read, for sib1", 10_000);
        await c.waitIdle();
        assert.deepEqual(await companiesOf(c), [sib1], "only the folder's company");
        assert.deepEqual(shown(c), ["mono/companies/sib1/apps/a/workflows/x.ts: collection-op/2", "mono/companies/sib1/workflows/w.ts: collection-op/2"], "only its problems");
        // A fresh server on the same folder shows the same.
        const fresh = new LspClient({ folders: [sib1] });
        try {
          await fresh.initialize();
          await fresh.waitIdle();
          assert.deepEqual(await companiesOf(fresh), [sib1]);
          assert.deepEqual(shown(fresh), shown(c), "as a fresh server on the folder");
        } finally { await fresh.shutdown(); }
      }, { folders: [sib1], dynamicWatch });
    } finally { rmSync(base, { recursive: true, force: true }); }
  });
}

for (const dynamicWatch of [true, false]) {
  test(`${dynamicWatch ? "a client that watches" : "the server's own watcher"}: a config that is a link goes with what it leads to (its target deleted), and the company's problems with it`, async () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-linked-")));
    const acme = join(base, "acme");
    cpSync(writeFixture(TWO_PROBLEMS), acme, { recursive: true });
    mkdirSync(join(base, "shared"));
    writeFileSync(join(base, "shared/config.ts"), "export default {};\n");
    rmSync(join(acme, "sanoma.config.ts"));
    symlinkSync("../shared/config.ts", join(acme, "sanoma.config.ts"));
    const w = join(acme, "workflows/w.ts");
    try {
      await withServer([], async ({ c }) => {
        await c.waitFor(() => c.diagnosticsFor(w).length === 1, "the company's problems");
        rmSync(join(base, "shared/config.ts"));
        if (dynamicWatch) c.watched([{ file: join(base, "shared/config.ts"), type: 3 }]);
        await c.waitFor(() => c.diagnosticsFor(w).length === 0, "no company: its config leads nowhere", 10_000);
        assert.deepEqual(await companiesOf(c), []);
      }, { folders: [base], dynamicWatch });
    } finally { rmSync(base, { recursive: true, force: true }); }
  });
}

for (const dynamicWatch of [true, false]) {
  test(`${dynamicWatch ? "a client that watches" : "the server's own watcher"}: a config made in an app of a company opened through another app's folder takes that app's files from the company, and makes no company of its own (nothing leads to it)`, async () => {
    const base = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-split-")));
    const acme = join(base, "acme");
    cpSync(writeFixture(TWO_PROBLEMS), acme, { recursive: true });
    mkdirSync(join(acme, "apps/b"));
    const x = join(acme, "apps/a/workflows/x.ts");
    try {
      await withServer([], async ({ c }) => {
        await c.waitFor(() => c.diagnosticsFor(x).length === 1, "app a's problem, as the company's");
        writeFileSync(join(acme, "apps/a/sanoma.config.ts"), "export default {};\n");
        await c.waitFor(() => c.diagnosticsFor(x).length === 0, "no longer the company's", 10_000);
        await c.waitFor(() => c.diagnosticsFor(join(acme, "workflows/w.ts")).length === 1, "the company read anew", 10_000);
        await c.waitIdle();
        assert.deepEqual(await companiesOf(c), [acme], "the new company is found by nothing: not known");
        assert.equal(c.diagnosticsFor(join(acme, "workflows/w.ts")).length, 1, "the company's own problem stays");
      }, { folders: [join(acme, "apps/b")], dynamicWatch });
    } finally { rmSync(base, { recursive: true, force: true }); }
  });
}

for (const dynamicWatch of [true, false]) {
  test(`a sanoma.config.ts that is a link: its target deleted, the company goes; its target made again, the company comes back (${dynamicWatch ? "the client's events" : "the server's own watcher"})`, async () => {
    const top = writeFixture(`
//- /shared/config.ts
export default {};
//- /co/workflows/w.ts
export const w = (ctx: any) => ctx.call("data.nope.get", {});
`, "sanoma-linked-config-");
    const target = join(top, "shared/config.ts");
    const w = join(top, "co/workflows/w.ts");
    symlinkSync("../shared/config.ts", join(top, "co/sanoma.config.ts"));
    try {
      await withServer({ path: top }, async ({ c }) => {
        await c.waitFor(() => c.diagnosticsFor(w).length === 1, "the company's problem");
        rmSync(target);
        if (dynamicWatch) c.watched([{ file: target, type: 3 }]);
        await c.waitFor(() => c.diagnosticsFor(w).length === 0, "gone with its config's target");
        writeFileSync(target, "export default {};\n");
        if (dynamicWatch) c.watched([{ file: target, type: 1 }]);
        await c.waitFor(() => c.diagnosticsFor(w).length === 1, "back with it");
      }, { folders: [top], dynamicWatch });
    } finally { rmSync(top, { recursive: true, force: true }); }
  });
}

/**
 * The server's own watcher leaves `node_modules` out of its trees (tens of thousands of folders),
 * so a client that does not watch (Neovim) had `npm install` seen by a restart only. The package
 * folders the connectors were read from, or looked for in vain, are watched now (`watchPackages`).
 */
const countOf = (ds: { code?: unknown }[], code: string) => ds.filter((d) => d.code === code).length;

test("server's own watcher: a connector package's file edited in place, and the package replaced as npm install replaces it, are read anew", async () => {
  await withServer(CLEAN, async ({ c, root }) => {
    const infra = join(root, "resources/infra.ts");
    const pkg = join(root, "node_modules/@hooli/cloud");
    const compute = join(pkg, "src/compute.js");
    await c.waitIdle();
    assert.deepEqual(c.diagnosticsFor(infra), [], "clean at first");
    const original = readFileSync(compute, "utf8");
    writeFileSync(compute, CLOUD_NEXT_VERSION(original));
    await c.waitFor(() => countOf(c.diagnosticsFor(infra), "resource-fields") === 2, "the file edited in place, read anew");
    // npm's way: the old folder moved aside, the new one extracted in its place, the old removed.
    const retired = join(root, "node_modules/@hooli/.cloud-retired");
    renameSync(pkg, retired);
    cpSync(retired, pkg, { recursive: true });
    writeFileSync(compute, original);
    rmSync(retired, { recursive: true });
    await c.waitFor(() => c.diagnosticsFor(infra).length === 0, "the package replaced, its new version read");
  }, { dynamicWatch: false });
});

for (const missing of ["node_modules", "the package"] as const) {
  test(`server's own watcher: a connector package installed after the server started (${missing === "node_modules" ? "a fresh clone: no node_modules at all" : "node_modules there, the package not"}) is read once installed`, async () => {
    const root = writeFixture(CLEAN);
    const compute = join(root, "node_modules/@hooli/cloud/src/compute.js");
    writeFileSync(compute, CLOUD_NEXT_VERSION(readFileSync(compute, "utf8")));
    const aside = `${root}-packages`;
    const moved = missing === "node_modules" ? join(root, "node_modules") : join(root, "node_modules/@hooli");
    renameSync(moved, aside);
    try {
      await withServer({ path: root }, async ({ c }) => {
        const infra = join(root, "resources/infra.ts");
        await c.waitIdle();
        assert.equal(countOf(c.diagnosticsFor(infra), "resource-fields"), 0, "the connector is not installed: its types are not known");
        // As an install makes it: the folder, then its files.
        mkdirSync(moved);
        await new Promise((r) => setTimeout(r, 300));
        cpSync(aside, moved, { recursive: true });
        await c.waitFor(() => countOf(c.diagnosticsFor(infra), "resource-fields") === 2, "the package installed, its types judged");
      }, { dynamicWatch: false });
    } finally { rmSync(aside, { recursive: true, force: true }); rmSync(root, { recursive: true, force: true }); }
  });
}

for (const dynamicWatch of [true, false]) {
  test(`a workspace folder opened before its company's config was made above it (a checkout, \`sanoma init\`): the config made is seen, and the folder's files judged (${dynamicWatch ? "a client that watches its folder" : "the server's own watcher"})`, async () => {
    const top = writeFixture(`
//- /apps/billing/workflows/bill.ts
export const bill = (ctx: any) => ctx.call("data.nope.get", {});
`, "sanoma-config-above-");
    const folder = join(top, "apps/billing");
    await withServer({ path: top }, async ({ c }) => {
      const bill = join(folder, "workflows/bill.ts");
      await c.waitIdle();
      assert.deepEqual(c.diagnosticsFor(bill), [], "no company yet: nothing judged");
      // No event is sent: no client watches above its folders.
      writeFileSync(join(top, "sanoma.config.ts"), "export default {};\n");
      await c.waitFor(() => c.diagnosticsFor(bill).some((d) => d.code === "collection-op"), "the company made above the folder");
    }, { folders: [folder], dynamicWatch });
  });
}
/**
 * A monorepo opened one company at a time (the editor on `packages/b`): the workspace connector
 * `@acme/shared` is read through `packages/b/node_modules/@acme/shared`, a path inside the folder,
 * but that is a link to `packages/shared`, outside it, where the client reports nothing (and no
 * client reports a change through a link in `node_modules`). The server watched no package inside
 * a folder the client watches: an edit of the connector was seen by a restart only.
 */
test("a client that watches: a workspace connector linked into node_modules whose real folder lies outside every workspace folder (an editor opened on the companies of a monorepo) is watched by the server, for each company that links it", async () => {
  const top = writeLinkedMonorepo();
  const shared = join(top, "packages/shared/index.ts");
  const infra = ["b", "c"].map((name) => join(top, "packages", name, "resources/infra.ts"));
  await withServer({ path: top }, async ({ c }) => {
    await c.waitIdle();
    for (const file of infra) assert.deepEqual(c.diagnosticsFor(file), [], `clean at first: ${file}`);
    // Written with no event from the client: only the server's own watch can see it.
    writeFileSync(shared, SHARED_WITHOUT_HOOK);
    await c.waitFor(() => infra.every((file) => countOf(c.diagnosticsFor(file), "resource-type") === 1), "both companies judge the connector without `hook`");
    writeFileSync(shared, SHARED_CONNECTOR);
    await c.waitFor(() => infra.every((file) => c.diagnosticsFor(file).length === 0), "the connector written back: both clean again");
  }, { dynamicWatch: true, folders: [join(top, "packages/b"), join(top, "packages/c")] });
});

for (const dynamicWatch of [true, false]) {
  test(`a company's own package.json edited (the exports it imports itself through) is read anew: what resolved through it is judged again (${dynamicWatch ? "the client's event" : "the server's own watcher"})`, async () => {
    const { CLOUD_PACKAGE } = await import("../../server/src/core/rules/case-packages.ts");
    const co = writeFixture(`
//- /sanoma.config.ts
export default {};
//- /package.json
{ "name": "acme", "exports": { "./conn": "./lib/conn.js" } }
//- /lib/conn.js
export { cloud } from "@hooli/cloud";
//- /lib/other.js
import { cloud as c } from "@hooli/cloud";
export const cloud = { vmm: c.vm };
//- /resources/infra.ts
import { cloud } from "acme/conn";
export const web = cloud.vmm({ name: "web" });
${CLOUD_PACKAGE}`, "sanoma-self-ref-");
    await withServer({ path: co }, async ({ c }) => {
      const infra = join(co, "resources/infra.ts");
      await c.waitFor(() => c.diagnosticsFor(infra).some((d) => d.code === "resource-type"), "vmm is no type of the package's own conn");
      const pj = join(co, "package.json");
      writeFileSync(pj, `{ "name": "acme", "exports": { "./conn": "./lib/other.js" } }`);
      if (dynamicWatch) c.watched([{ file: pj, type: 2 }]);
      await c.waitFor(() => c.diagnosticsFor(infra).length === 0, "its exports now lead to a conn where vmm is a type");
    }, { dynamicWatch });
  });
}
