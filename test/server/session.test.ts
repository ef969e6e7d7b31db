/**
 * The server's logic in-process (`test/support/session.ts`): a session over a company in memory,
 * driven as the connection would drive it, its client's record read back. No process, no disk.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { Documents, MemoryFileSystem, RecordingClient, sessionOf, settled } from "../support/session.ts";
import { Session } from "../../server/src/lsp/session.ts";
import { CLOUD_PACKAGE } from "../support/companies.ts";

const COMPANY = `
//- /sanoma.config.ts
export default {};
//- /resources/a.ts
import { trigger } from "@hooli/cloud";
export const wake = trigger({ path: "/a" });
//- /resources/b.ts
import { trigger } from "@hooli/cloud";
export const other = trigger({ path: "/b" });
//- /workflows/w.ts
export const w = (ctx: any) => ctx.call("data.nope.get", {});
${CLOUD_PACKAGE}`;

test("session in-process: indexes a company held in memory, publishes every file's problems, and is idle", async () => {
  const { session, client, root } = await sessionOf(COMPANY);
  assert.deepEqual(client.codes(join(root, "resources/a.ts")), ["one-wakeup"]);
  assert.deepEqual(client.codes(join(root, "resources/b.ts")), ["one-wakeup"]);
  assert.deepEqual(client.codes(join(root, "workflows/w.ts")), ["collection-op"]);
  assert.equal(session.status().state, "idle");
  assert.equal(session.status().companies, 1);
  // (Once the messages already received are handled: the scheduled flush that finds nothing to do.)
  for (let i = 0; i < 100 && client.statuses.at(-1)?.state !== "idle"; i++) await new Promise((r) => setTimeout(r, 10));
  assert.equal(client.statuses.at(-1)?.state, "idle", "the last status the client heard is idle (it heard 'indexing' last: a check done within its first slice published while a flush was still scheduled)");
});

test("session in-process: an unsaved edit wins over the disk, and what it changes elsewhere is published; closing it brings the disk's text back", async () => {
  const { session, client, documents, root } = await sessionOf(COMPANY);
  const b = join(root, "resources/b.ts");
  const uri = documents.set(b, `import { trigger } from "@hooli/cloud";\nexport const other = trigger({ path: "/b" ;\n`);
  session.setText(uri, documents.get(uri)!.getText());
  await session.checks.flush();
  assert.deepEqual(client.codes(b), ["syntax-error"]);
  assert.deepEqual(client.codes(join(root, "resources/a.ts")), [], "the pair went with the broken file");
  documents.close(b);
  session.closed(uri);
  await session.checks.flush();
  assert.deepEqual(client.codes(b), ["one-wakeup"]);
  assert.deepEqual(client.codes(join(root, "resources/a.ts")), ["one-wakeup"]);
});

test("session in-process: settings come from the client per company (a rule turned off, a level changed) and a bad value is one warning", async () => {
  const { client, root } = await sessionOf(COMPANY, { rules: { "one-wakeup": "off", "collection-op": "warning", "nope-rule": 3 } });
  assert.deepEqual(client.codes(join(root, "resources/a.ts")), []);
  assert.equal(client.diagnostics.get(`file://${join(root, "workflows/w.ts")}`)?.[0].severity, 2);
  assert.equal(client.warnings.length, 1);
});

test("session in-process: a related location in a file the editor has open is that document's URI, as the client spells it", async () => {
  const { session, client, documents, root } = await sessionOf(`
//- /sanoma.config.ts
export default {};
//- /resources/a.ts
import { trigger } from "@hooli/cloud";
export const wake = trigger({ path: "/a" });
//- /resources/b.ts
export const nothing = 1;
${CLOUD_PACKAGE}`);
  const a = join(root, "resources/a.ts");
  const b = join(root, "resources/b.ts");
  const spelled = "file:///co/resources/%62.ts"; // the client's own spelling of /co/resources/b.ts
  documents.set(b, `import { trigger } from "@hooli/cloud";\nexport const other = trigger({ path: "/b" });\n`, spelled);
  session.setText(spelled, documents.get(spelled)!.getText());
  await session.checks.flush();
  assert.deepEqual(client.codes(a), ["one-wakeup"]);
  const related = client.diagnostics.get(`file://${a}`)![0].relatedInformation!;
  assert.deepEqual(related.map((r) => r.location.uri), [spelled]);
  assert.ok(client.diagnostics.has(spelled), "b's own problems go to its document's URI");
});

/** A session over several companies in memory under `/ws` (the workspace folder), started, its first checks done. */
async function sessionOver(files: Record<string, string>): Promise<{ session: Session; client: RecordingClient; documents: Documents; fs: MemoryFileSystem; log: string[] }> {
  const fs = new MemoryFileSystem(Object.fromEntries(Object.entries(files).map(([rel, text]) => [join("/ws", rel), text])));
  const client = new RecordingClient();
  const documents = new Documents();
  const log: string[] = [];
  const session = new Session(fs, client, documents, { folders: ["/ws"], configuration: true, log: (m) => log.push(m) });
  await session.start();
  await settled(session);
  return { session, client, documents, fs, log };
}

/** Each file's codes as the client has them. */
const codesOf = (client: RecordingClient): Record<string, string[]> =>
  Object.fromEntries([...client.diagnostics].map(([uri, ds]) => [uri, ds.map((d) => String(d.code)).sort()]).sort(([a], [b]) => (a < b ? -1 : 1)));

/** What a fresh session says of the tree as it is now (what sanoma-check and a restarted server say). */
async function freshCodes(fs: MemoryFileSystem): Promise<Record<string, string[]>> {
  const { client } = await sessionOver(Object.fromEntries([...fs.files].map(([p, t]) => [p.slice("/ws/".length), t])));
  return codesOf(client);
}

const ORDERS = (name: string) => `import { collection } from "@sanoma-ai/workflows/data";\nexport const ${name} = collection({ key: "id", fields: { id: "string" } });\n`;

for (const made of ["tools", "tools/deep"]) {
  test(`session in-process: a config made at a/${made} (${made.includes("/") ? "two levels" : "one level"} below a known company's root) takes its files out of that company, for good`, async () => {
    const t = `a/${made}/t.ts`;
    const { session, client, fs } = await sessionOver({
      "a/sanoma.config.ts": "export default {};\n",
      "a/resources/data.ts": ORDERS("orders"),
      [t]: `import "${"../".repeat(made.split("/").length)}escape.ts";\nexport const op = "data.orders.get";\n`,
    });
    assert.deepEqual(client.codes(join("/ws", t)), [], "a's own file: its collection, its folder");
    fs.files.set(join("/ws/a", made, "sanoma.config.ts"), "export default {};\n");
    session.diskChanged(join("/ws/a", made, "sanoma.config.ts"), "created");
    await settled(session);
    assert.equal(session.ws.companies.get("/ws/a")?.files.has(join("/ws", t)), false, "a no longer holds it");
    assert.deepEqual(client.codes(join("/ws", t)), ["collection-op", "no-import-outside-company"]);
    assert.deepEqual(codesOf(client), await freshCodes(fs));
    // An unrelated change in a: it judges only its own files.
    fs.files.set("/ws/a/resources/data.ts", ORDERS("orders2"));
    session.diskChanged("/ws/a/resources/data.ts", "changed");
    await settled(session);
    assert.deepEqual(client.codes(join("/ws", t)), ["collection-op", "no-import-outside-company"]);
    assert.deepEqual(codesOf(client), await freshCodes(fs));
  });
}

test("session in-process: a config made inside a company leaves the problems of a company nested in it alone", async () => {
  const { session, client, fs } = await sessionOver({
    "a/sanoma.config.ts": "export default {};\n",
    "a/lib/z.ts": `import "../../escape.ts";\n`,
    "a/sub/sanoma.config.ts": "export default {};\n",
    "a/sub/lib/y.ts": `import "../../escape.ts";\n`,
    "a/apps/web/lib/x.ts": `import "../../../../escape.ts";\n`,
  });
  const y = "/ws/a/sub/lib/y.ts";
  assert.deepEqual(client.codes(y), ["no-import-outside-company"]);
  assert.deepEqual(client.codes("/ws/a/lib/z.ts"), ["no-import-outside-company"]);
  const published = client.publishes.length;
  fs.files.set("/ws/a/apps/web/lib/sanoma.config.ts", "export default {};\n");
  session.diskChanged("/ws/a/apps/web/lib/sanoma.config.ts", "created");
  await settled(session);
  assert.deepEqual(client.codes(y), ["no-import-outside-company"], "sub's problem stays");
  assert.deepEqual(codesOf(client), await freshCodes(fs));
  const after = client.publishes.slice(published).map((p) => p.uri);
  assert.ok(!after.includes("file:///ws/a/sub/lib/y.ts") && !after.includes("file:///ws/a/lib/z.ts"), `only the files that moved are published again, no flicker elsewhere: ${after.join(", ")}`);
});

/** `n` companies under /ws/companies (co00, co01…), each with one file that has a problem. */
function manyCompanies(n: number): MemoryFileSystem {
  const fs = new MemoryFileSystem();
  for (let i = 0; i < n; i++) {
    const co = `/ws/companies/co${String(i).padStart(2, "0")}`;
    fs.files.set(`${co}/sanoma.config.ts`, "export default {};\n");
    fs.files.set(`${co}/workflows/w.ts`, `export const w = (ctx: any) => ctx.call("data.nope.get", {});\n`);
    for (let j = 0; j < 5; j++) fs.files.set(`${co}/lib/l${j}.ts`, `export const l = ${j};\n`);
  }
  return fs;
}

const indexedOrder = (log: string[]) => log.filter((l) => l.startsWith("indexed ")).map((l) => /co\d+/.exec(l)![0]);

test("session in-process: the company of a file opened as the server starts is indexed, and its problems published, before the other companies", async () => {
  const fs = manyCompanies(12);
  const client = new RecordingClient();
  const documents = new Documents();
  const log: string[] = [];
  const session = new Session(fs, client, documents, { folders: ["/ws"], configuration: true, log: (m) => log.push(m) });
  const opened = "/ws/companies/co11/workflows/w.ts";
  // Opened as an editor opens it, once the server has started (its folders are being searched).
  const started = session.start();
  session.setText(documents.set(opened, fs.files.get(opened)!), fs.files.get(opened)!);
  await started;
  await settled(session);
  assert.deepEqual(indexedOrder(log), ["co11", ...Array.from({ length: 11 }, (_, i) => `co${String(i).padStart(2, "0")}`)]);
  assert.equal(client.publishes.find((p) => p.count > 0)?.uri, `file://${opened}`, "the open file's problems are the first published");
  assert.equal(client.diagnostics.size, 12);
});

test("session in-process: a file opened while companies are indexed moves its company to the front of what is left", async () => {
  const fs = manyCompanies(12);
  fs.files.set("/elsewhere/sanoma.config.ts", "export default {};\n");
  fs.files.set("/elsewhere/workflows/w.ts", `export const w = (ctx: any) => ctx.call("data.nope.get", {});\n`);
  const client = new RecordingClient();
  const documents = new Documents();
  const log: string[] = [];
  const session = new Session(fs, client, documents, { folders: ["/ws"], configuration: true, log: (m) => log.push(m) });
  const open = (file: string) => session.setText(documents.set(file, fs.files.get(file)!), fs.files.get(file)!);
  const started: string[] = [];
  session.companyListeners.push({
    indexing: (root) => {
      started.push(root);
      // While the second company is read: a file of the last one, then one of a company no workspace folder holds.
      if (started.length === 2) { open("/ws/companies/co10/workflows/w.ts"); open("/elsewhere/workflows/w.ts"); }
    },
    gone: () => {},
  });
  await session.start();
  await settled(session);
  assert.deepEqual(started.slice(0, 4), ["/ws/companies/co00", "/ws/companies/co01", "/elsewhere", "/ws/companies/co10"], "the last opened first, then the one opened before it, then the rest");
  assert.deepEqual(started.slice(4), ["co02", "co03", "co04", "co05", "co06", "co07", "co08", "co09", "co11"].map((c) => `/ws/companies/${c}`));
  assert.equal(client.diagnostics.size, 13, "every company indexed once, and checked");
  assert.equal(log.filter((l) => l.startsWith("indexed /elsewhere")).length, 1);
});

test("session in-process: companies outside the workspace folders whose files are opened and closed while indexing runs are never indexed, or are dropped", async () => {
  const fs = manyCompanies(6);
  const outside = ["/out0", "/out1", "/out2"];
  for (const o of outside) {
    fs.files.set(`${o}/sanoma.config.ts`, "export default {};\n");
    fs.files.set(`${o}/workflows/w.ts`, `export const w = (ctx: any) => ctx.call("data.nope.get", {});\n`);
  }
  const client = new RecordingClient();
  const documents = new Documents();
  const session = new Session(fs, client, documents, { folders: ["/ws"], configuration: true, log: () => {} });
  const started: string[] = [];
  session.companyListeners.push({
    indexing: (root) => {
      started.push(root);
      if (started.length !== 2) return;
      // While the second company is read: a file of each outside company opened, then all closed.
      const uris = outside.map((o) => { const f = `${o}/workflows/w.ts`; const uri = documents.set(f, fs.files.get(f)!); session.setText(uri, fs.files.get(f)!); return uri; });
      for (const [i, uri] of uris.entries()) { documents.close(`${outside[i]}/workflows/w.ts`); session.closed(uri); }
    },
    gone: () => {},
  });
  await session.start();
  await settled(session);
  await settled(session);
  assert.equal(session.status().companies, 6, `only the workspace's companies are known: ${[...session.ws.companies.keys()].join(", ")}`);
  assert.deepEqual([...client.diagnostics.keys()].filter((u) => u.includes("/out")), [], "no outside file keeps diagnostics");
});

/** `fs` with links: each key a link's path, leading to its value (a folder). */
function withLinks(fs: MemoryFileSystem, links: Record<string, string>): MemoryFileSystem {
  const resolve = (p: string) => {
    for (const [link, target] of Object.entries(links)) if (p === link || p.startsWith(link + "/")) return target + p.slice(link.length);
    return p;
  };
  const linked = Object.create(fs) as MemoryFileSystem;
  linked.readFile = (p) => fs.readFile(resolve(p));
  linked.isFile = (p) => fs.isFile(resolve(p));
  linked.isDir = (p) => fs.isDir(resolve(p));
  linked.readDir = (p) => fs.readDir(resolve(p));
  linked.realPath = (p) => fs.realPath(resolve(p));
  linked.mayExist = (p) => fs.mayExist(resolve(p));
  return linked;
}

test("session in-process: a file opened through a link while indexing runs joins the company the folders found, indexed once, and closing it leaves nothing on the link's spelling", async () => {
  const mem = manyCompanies(6);
  const fs = withLinks(mem, { "/link/co04": "/ws/companies/co04" });
  const client = new RecordingClient();
  const documents = new Documents();
  const log: string[] = [];
  const session = new Session(fs, client, documents, { folders: ["/ws"], configuration: true, log: (m) => log.push(m) });
  const linked = "/link/co04/workflows/w.ts";
  const text = fs.readFile(linked)!;
  let uri = "";
  const started: string[] = [];
  session.companyListeners.push({
    indexing: (root) => { started.push(root); if (started.length === 2) session.setText((uri = documents.set(linked, text)), text); },
    gone: () => {},
  });
  await session.start();
  await settled(session);
  await settled(session);
  assert.deepEqual(started.slice(0, 3), ["/ws/companies/co00", "/ws/companies/co01", "/ws/companies/co04"], "the linked company is read next, under the folders' spelling");
  assert.equal(log.filter((l) => l.startsWith("indexed ")).length, 6, `each company indexed once: ${log.filter((l) => l.startsWith("indexed ")).join("; ")}`);
  assert.equal(session.status().companies, 6);
  assert.deepEqual([...client.diagnostics.keys()].filter((u) => u.includes("/link/")), [uri], "only the open document under the link's spelling");
  documents.close(linked);
  session.closed(uri);
  await settled(session);
  assert.equal(session.status().companies, 6);
  assert.deepEqual([...client.diagnostics.keys()].filter((u) => u.includes("/link/")), []);
  assert.deepEqual(client.codes("/ws/companies/co04/workflows/w.ts"), ["collection-op"]);
});

for (const kase of ["its company's folder is deleted", "its company's config is deleted", "every company under it gets a nearer one"]) {
  test(`session in-process: a .sanomarc.json's problems go when it holds for no company any more: ${kase}`, async () => {
    const fs = manyCompanies(3);
    const co = (i: number) => `/ws/companies/co0${i}`;
    const nearer = kase.startsWith("every");
    const rc = nearer ? "/ws/companies/.sanomarc.json" : `${co(1)}/.sanomarc.json`;
    fs.files.set(rc, `{ "rules": { "colection-op": "off" } }`);
    const client = new RecordingClient();
    const session = new Session(fs, client, new Documents(), { folders: ["/ws"], configuration: true, log: () => {} });
    await session.start();
    await settled(session);
    assert.equal(client.diagnostics.get(`file://${rc}`)?.length, 1, "its problem, published");
    if (kase.startsWith("its company's folder")) {
      for (const f of Array.from(fs.files.keys())) if (f.startsWith(co(1) + "/")) fs.files.delete(f);
      session.diskChanged(co(1), "deleted");
    } else if (kase.startsWith("its company's config")) {
      fs.files.delete(`${co(1)}/sanoma.config.ts`);
      session.diskChanged(`${co(1)}/sanoma.config.ts`, "deleted");
    } else {
      for (const i of [0, 1, 2]) { fs.files.set(`${co(i)}/.sanomarc.json`, "{}"); session.diskChanged(`${co(i)}/.sanomarc.json`, "created"); }
    }
    await settled(session);
    await settled(session);
    assert.equal(client.diagnostics.get(`file://${rc}`), undefined, "no problem left on it");
  });
}

test("session in-process: a .sanomarc.json made in a company the indexing round has not reached yet is read when it gets there", async () => {
  const fs = manyCompanies(6);
  const client = new RecordingClient();
  const documents = new Documents();
  const session = new Session(fs, client, documents, { folders: ["/ws"], configuration: true, log: () => {} });
  const rc = "/ws/companies/co05/.sanomarc.json";
  let made = false;
  session.companyListeners.push({
    indexing: (root) => {
      // While the second company is read (the round asked every company's settings when it began).
      if (root.endsWith("co01") && !made) {
        made = true;
        fs.files.set(rc, JSON.stringify({ rules: { "collection-op": "off" } }));
        session.diskChanged(rc, "created");
      }
    },
    gone: () => {},
  });
  await session.start();
  await settled(session);
  assert.ok(made);
  const late = client.diagnostics.get("file:///ws/companies/co05/workflows/w.ts") ?? [];
  assert.deepEqual(late.map((d) => d.code), [], "its collection-op problem is off, as sanoma-check says");
  assert.deepEqual((client.diagnostics.get("file:///ws/companies/co04/workflows/w.ts") ?? []).map((d) => d.code), ["collection-op"], "a company the file does not hold for keeps it");
});
