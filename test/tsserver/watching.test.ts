/**
 * The TypeScript plugin kept current from the disk in a real tsserver, the plugin installed from
 * its tarball (`test/support/tsserver.ts`): a folder of the company swapped in place (moved away,
 * another moved in under its name); every file closed and the project gone, the company let go
 * (its watches closed) and read anew when a file is opened again; an editor that asks for problems
 * only on its own edits and on `projectsUpdatedInBackground` shown the right ones, with no edit,
 * after a change on disk that tsserver knows nothing of (the lockfile, a `.sanomarc.json` in the
 * company or above it, a connector package's file); a connector package's file open in the editor,
 * its unsaved text read, the disk's again once it is closed. Each test waits, up to a deadline, for the problems to come
 * right, and asserts what they are then.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseFixture } from "../support/fixture.ts";
import { CLOUD_NEXT_VERSION, CLOUD_PACKAGE } from "../support/companies.ts";
import { installProject, locationOf, TsServer, writeTsconfig, type ProtocolDiagnostic } from "../support/tsserver.ts";
import { RULE_CODES } from "../../ts-plugin/src/codes.ts";

const COMPANY = `
//- /sanoma.config.ts
import { defineConfig } from "@sanoma-ai/workflows";
export default defineConfig({ name: "acme", secrets: { bindings: { CLOUD_KEY: { env: "K", host: true } } } });
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const orders = collection({ key: "id", fields: { id: "string", total: "number" } });
//- /resources/infra.ts
import { vm, trigger } from "@hooli/cloud";
import { secret } from "@sanoma-ai/workflows/resources";
export const web = vm({ name: "web" });
export const hook = trigger({ path: "/a" });
export const key = secret("CLOUD_KEY");
//- /apps/billing/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const invoices = collection({ key: "id", fields: { id: "string" } });
//- /apps/billing/resources/hooks.ts
import { trigger } from "@hooli/cloud";
export const billingHook = trigger({ path: "/b" });
//- /apps/billing/workflows/bill.ts
export const bill = async (ctx: any) => ctx.call("data.invoices.list", {}) && ctx.call("data.orders.count", {});
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/infra.ts#web": { "type": "cloud.vm", "object": "cloud:vm/1" }
} }
${CLOUD_PACKAGE}`;

const servers: TsServer[] = [];
after(async () => { for (const s of servers) await s.close(); });

function writeCompany(project: string, name: string, changes: Record<string, string | null> = {}): string {
  const dir = join(project, name);
  rmSync(dir, { recursive: true, force: true });
  for (const [rel, content] of Object.entries(parseFixture(COMPANY).files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
  for (const [rel, content] of Object.entries(changes)) {
    if (content === null) rmSync(join(dir, rel));
    else { mkdirSync(dirname(join(dir, rel)), { recursive: true }); writeFileSync(join(dir, rel), content); }
  }
  writeTsconfig(dir);
  return dir;
}

const sanoma = (ds: ProtocolDiagnostic[]) => ds.filter((d) => d.source === "sanoma");

/** The Sanoma problems' codes of each file, as `geterr` gives them, asked again until they are `want` or the deadline passes. */
async function until(s: TsServer, want: Record<string, number[]>, why: string, ms = 20_000): Promise<void> {
  const files = Object.keys(want);
  const deadline = Date.now() + ms;
  let got: Record<string, number[]> = {};
  for (;;) {
    const { byFile } = await s.geterr(files);
    got = Object.fromEntries(files.map((f) => [f, sanoma(byFile.get(f)?.semantic ?? []).map((d) => d.code).sort()]));
    if (JSON.stringify(got) === JSON.stringify(want) || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.deepEqual(got, want, why);
}

test("a folder swapped in place (moved away, another moved in under its name): its files gone go, those of the same name are read anew", { timeout: 120_000 }, async () => {
  const project = installProject();
  const dir = writeCompany(project, "swapped");
  const s = new TsServer({ cwd: project, logFile: join(project, "swapped.log") });
  servers.push(s);
  const bill = join(dir, "apps/billing/workflows/bill.ts");
  const infra = join(dir, "resources/infra.ts");
  s.open(bill);
  s.open(infra);
  await until(s, { [bill]: [], [infra]: [RULE_CODES["one-wakeup"]] }, "the company as written: two wakeups, hooks.ts's and infra.ts's");
  // `apps/billing/resources` swapped as a generator or a checkout tool does it: the folder moved
  // away, a new one made beside the company moved in. `data.ts` has another collection now; `hooks.ts` is gone.
  const resources = join(dir, "apps/billing/resources");
  const staged = join(project, "swapped-staged");
  rmSync(staged, { recursive: true, force: true });
  mkdirSync(staged);
  writeFileSync(join(staged, "data.ts"), `import { collection } from "@sanoma-ai/workflows/data";\nexport const invoicez = collection({ key: "id", fields: { id: "string" } });\n`);
  renameSync(resources, join(project, "swapped-old"));
  renameSync(staged, resources);
  try {
    await until(s, { [bill]: [RULE_CODES["collection-op"]], [infra]: [] }, "data.ts read anew (no collection invoices), hooks.ts gone (one wakeup left)");
  } finally {
    s.send("close", { file: bill });
    s.send("close", { file: infra });
    rmSync(join(project, "swapped-old"), { recursive: true, force: true });
  }
});

test("every file of a company closed and its project gone: the company is let go, its watches closed; opened again, it is read anew", { timeout: 120_000 }, async () => {
  const project = installProject();
  const dir = writeCompany(project, "released");
  const log = join(project, "released.log");
  const s = new TsServer({ cwd: project, logFile: log });
  servers.push(s);
  const infra = join(dir, "resources/infra.ts");
  const forgot = () => (s.log().match(new RegExp(`\\[sanoma\\] forgot the company ${dir}: no project reads it`, "g")) ?? []).length;
  s.open(infra);
  await until(s, { [infra]: [RULE_CODES["one-wakeup"]] }, "the company as written");
  assert.equal(forgot(), 0);
  // Closed, and a file of no project of the company opened: tsserver closes the project then.
  s.send("close", { file: infra });
  const other = join(project, "released-other.ts");
  writeFileSync(other, "export const x = 1;\n");
  s.open(other);
  await s.geterr([other]);
  const deadline = Date.now() + 20_000;
  while (forgot() === 0 && Date.now() < deadline) { await s.geterr([other]); await new Promise((r) => setTimeout(r, 200)); }
  assert.equal(forgot(), 1, "the company was let go with the last project that read it");
  assert.match(readFileSync(log, "utf8"), /\[sanoma\] project .*released\/tsconfig\.json: a service let go of its companies/);
  // Meanwhile hooks.ts went; the company, read anew, knows.
  rmSync(join(dir, "apps/billing/resources/hooks.ts"));
  s.send("close", { file: other });
  s.open(infra);
  await until(s, { [infra]: [] }, "read anew: one wakeup left");
  s.send("close", { file: infra });
});

test("an editor that asks for problems on its own edits and on projectsUpdatedInBackground only shows the right ones, with no edit, after changes on disk tsserver knows nothing of", { timeout: 180_000 }, async () => {
  const project = installProject();
  // (A folder above the company, for a .sanomarc.json there.)
  const top = join(project, "told");
  rmSync(top, { recursive: true, force: true });
  const dir = writeCompany(project, "told/co", {
    "apps/billing/resources/hooks.ts": null,
    "workflows/nightly.ts": `export const nightly = (ctx: { call(id: string, input: unknown): unknown }) => ctx.call("data.orderz.get", {});\n`,
  });
  // VS Code's way, and typescript-language-server's with --noGetErrOnBackgroundUpdate: tsserver
  // checks nothing of itself on a change; the editor asks.
  const s = new TsServer({ cwd: project, args: ["--noGetErrOnBackgroundUpdate"], logFile: join(project, "told.log") });
  servers.push(s);
  const infra = join(dir, "resources/infra.ts");
  const nightly = join(dir, "workflows/nightly.ts");
  const files = [infra, nightly];
  s.open(infra);
  s.open(nightly);
  /** What the editor shows: each file's Sanoma problems, as code and category, from its last geterr. */
  let shown: Record<string, string[]> = {};
  const ask = async () => {
    const { byFile } = await s.geterr(files);
    shown = Object.fromEntries(files.map((f) => [f, sanoma(byFile.get(f)?.semantic ?? []).map((d) => `${d.code} ${d.category}`).sort()]));
  };
  await ask();
  const collectionOp = (category: string) => [`${RULE_CODES["collection-op"]} ${category}`];
  assert.deepEqual(shown, { [infra]: [], [nightly]: collectionOp("error") }, "the company as written");
  /** `act`, then what the editor shows once it asked again on each projectsUpdatedInBackground since, until it is `want` or the deadline passes. */
  const shownAfter = async (act: () => void, want: Record<string, string[]>, why: string) => {
    let from = s.events.length;
    act();
    const deadline = Date.now() + 20_000;
    while (JSON.stringify(shown) !== JSON.stringify(want)) {
      let event;
      try { event = await s.waitEvent((e) => e.event === "projectsUpdatedInBackground", from, Math.max(0, deadline - Date.now())); } catch { break; }
      from = s.events.indexOf(event) + 1;
      await ask();
    }
    assert.deepEqual(shown, want, why);
  };
  const lock = join(dir, "sanoma.lock.json");
  const lockText = readFileSync(lock, "utf8");
  await shownAfter(() => writeFileSync(lock, lockText.replace(`"cloud.vm"`, `"cloud.bucket"`)), { [infra]: [`${RULE_CODES.lockfile} error`], [nightly]: collectionOp("error") }, "the lockfile rewritten in place");
  await shownAfter(() => writeFileSync(lock, lockText), { [infra]: [], [nightly]: collectionOp("error") }, "and put back");
  const rc = join(dir, ".sanomarc.json");
  await shownAfter(() => writeFileSync(rc, `{ "rules": { "collection-op": "warning" } }\n`), { [infra]: [], [nightly]: collectionOp("warning") }, "the company's .sanomarc.json made");
  await shownAfter(() => writeFileSync(rc, `{ "rules": { "collection-op": "info" } }\n`), { [infra]: [], [nightly]: collectionOp("message") }, "and rewritten in place");
  await shownAfter(() => unlinkSync(rc), { [infra]: [], [nightly]: collectionOp("error") }, "and deleted");
  const above = join(top, ".sanomarc.json");
  try {
    await shownAfter(() => writeFileSync(above, `{ "rules": { "collection-op": "hint" } }\n`), { [infra]: [], [nightly]: collectionOp("suggestion") }, "a .sanomarc.json made above the company");
    await shownAfter(() => writeFileSync(above, `{ "rules": { "collection-op": "warning" } }\n`), { [infra]: [], [nightly]: collectionOp("warning") }, "and rewritten in place");
    await shownAfter(() => unlinkSync(above), { [infra]: [], [nightly]: collectionOp("error") }, "and deleted");
  } finally { rmSync(above, { force: true }); }
  const cloud = join(dir, "node_modules/@hooli/cloud");
  const compute = join(cloud, "src/compute.js");
  const computeText = readFileSync(compute, "utf8");
  await shownAfter(() => writeFileSync(compute, CLOUD_NEXT_VERSION(computeText)), { [infra]: [`${RULE_CODES["resource-fields"]} error`], [nightly]: collectionOp("error") }, "a connector package's file edited in place");
  await shownAfter(() => writeFileSync(compute, computeText), { [infra]: [], [nightly]: collectionOp("error") }, "and put back");
  // The package replaced as npm install replaces it: the next version unpacked apart, the one there moved away and deleted, the new one moved in.
  const staged = join(project, "told-staged");
  rmSync(staged, { recursive: true, force: true });
  cpSync(cloud, staged, { recursive: true });
  writeFileSync(join(staged, "src/compute.js"), CLOUD_NEXT_VERSION(computeText));
  await shownAfter(() => {
    renameSync(cloud, `${cloud}.old`);
    rmSync(`${cloud}.old`, { recursive: true });
    renameSync(staged, cloud);
  }, { [infra]: [`${RULE_CODES["resource-fields"]} error`], [nightly]: collectionOp("error") }, "a connector package replaced by its next version");
  assert.match(s.log(), /\[sanoma\] a change on disk feeds the company \S*\/told\/co: tsserver is told the projects changed/);
  s.send("close", { file: infra });
  s.send("close", { file: nightly });
});

/** `ask()` again every 200 ms until `done` says yes of its answer or 20 s pass; the last answer. */
async function askUntil<T>(ask: () => Promise<T>, done: (answer: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const answer = await ask();
    if (done(answer) || Date.now() > deadline) return answer;
    await new Promise((r) => setTimeout(r, 200));
  }
}

test("a slim company (the extension's languageServer: true): the lockfile a first apply writes after the company was read is read, and a rename renames its binding", { timeout: 120_000 }, async () => {
  const project = installProject();
  const dir = writeCompany(project, "slim-lock", { "sanoma.lock.json": null });
  writeTsconfig(dir, { languageServer: true });
  const s = new TsServer({ cwd: project, logFile: join(project, "slim-lock.log") });
  servers.push(s);
  const infra = join(dir, "resources/infra.ts");
  const text = readFileSync(infra, "utf8");
  s.open(infra);
  const rename = async () => ((await s.request("rename", { file: infra, ...locationOf(text, "web =", 1), findInStrings: false, findInComments: false })).locs as { file: string }[]).map((g) => g.file).sort();
  assert.deepEqual(await rename(), [infra], "no lockfile yet: the declaration alone");
  assert.match(s.log(), /\[sanoma\] read \d+ files of the company .*slim-lock \(slim\)/);
  const lock = join(dir, "sanoma.lock.json");
  writeFileSync(lock, `{ "version": 1, "bindings": { "resources/infra.ts#web": { "type": "cloud.vm", "object": "cloud:vm/1" } } }\n`);
  assert.deepEqual(await askUntil(rename, (files) => files.length === 2), [infra, lock].sort(), "the lockfile written since: its binding renamed too");
  s.send("close", { file: infra });
});

test("a slim company (tsserver's partial-semantic server): collections files made after the company was read, in a scope, in an app made since, are read, and their op ids offered", { timeout: 120_000 }, async () => {
  const project = installProject();
  // No collections file anywhere; no `resources` folder at the root, no `apps/shipping` at all.
  const dir = writeCompany(project, "slim-made", {
    "apps/billing/resources/data.ts": null,
    "apps/billing/workflows/bill.ts": `export const bill = (ctx: { call(id: string): void }) => ctx.call("data.");\n`,
  });
  rmSync(join(dir, "resources"), { recursive: true });
  const s = new TsServer({ cwd: project, args: ["--serverMode", "partialSemantic", "--globalPlugins", "@sanoma-ai/typescript-plugin"], logFile: join(project, "slim-made.log") });
  servers.push(s);
  const opIds = async (file: string) => {
    const text = readFileSync(file, "utf8");
    const info = await s.request("completionInfo", { file, ...locationOf(text, `"data.`, 6), prefix: "" }).catch(() => undefined);
    return ((info?.entries ?? []) as { name: string }[]).map((e) => e.name).filter((n) => n.startsWith("data.")).sort();
  };
  const bill = join(dir, "apps/billing/workflows/bill.ts");
  s.open(bill);
  assert.deepEqual(await opIds(bill), [], "no collection yet");
  assert.match(s.log(), /\[sanoma\] read \d+ files of the company .*slim-made \(slim\)/);
  const collectionsFile = (name: string) => `import { collection } from "@sanoma-ai/workflows/data";\nexport const ${name} = collection({ key: "id", fields: { id: "string" } });\n`;
  mkdirSync(join(dir, "resources"));
  writeFileSync(join(dir, "resources/data.ts"), collectionsFile("orders"));
  let ids = await askUntil(() => opIds(bill), (got) => got.some((n) => n.startsWith("data.orders.")));
  assert.ok(ids.includes("data.orders.get") && !ids.some((n) => n.startsWith("data.invoices.")), `the root's collections file made (and its folder): ${ids.join(", ")}`);
  writeFileSync(join(dir, "apps/billing/resources/data.ts"), collectionsFile("invoices"));
  ids = await askUntil(() => opIds(bill), (got) => got.some((n) => n.startsWith("data.invoices.")));
  assert.ok(ids.includes("data.invoices.get") && ids.includes("data.orders.get"), `the app's collections file made: ${ids.join(", ")}`);
  // An app made whole, as a generator or a checkout makes it: its collections file with it.
  mkdirSync(join(dir, "apps/shipping/resources"), { recursive: true });
  writeFileSync(join(dir, "apps/shipping/resources/data.ts"), collectionsFile("parcels"));
  mkdirSync(join(dir, "apps/shipping/workflows"));
  const ship = join(dir, "apps/shipping/workflows/ship.ts");
  writeFileSync(ship, `export const ship = (ctx: { call(id: string): void }) => ctx.call("data.");\n`);
  s.open(ship);
  ids = await askUntil(() => opIds(ship), (got) => got.some((n) => n.startsWith("data.parcels.")));
  assert.ok(ids.includes("data.parcels.get") && ids.includes("data.orders.get") && !ids.some((n) => n.startsWith("data.invoices.")), `an app made since, with its collections file: ${ids.join(", ")}`);
  assert.doesNotMatch(s.log(), /\(full\)/, "still nothing of a whole company read");
  s.send("close", { file: bill });
  s.send("close", { file: ship });
});

test("a connector package's file open in the editor: its unsaved text is what the connectors are read from, edited or not; closed unsaved, the disk's again", { timeout: 120_000 }, async () => {
  const project = installProject();
  const dir = writeCompany(project, "buffer", { "apps/billing/resources/hooks.ts": null });
  const s = new TsServer({ cwd: project, logFile: join(project, "buffer.log") });
  servers.push(s);
  const infra = join(dir, "resources/infra.ts");
  const compute = join(dir, "node_modules/@hooli/cloud/src/compute.js");
  const disk = readFileSync(compute, "utf8");
  const next = CLOUD_NEXT_VERSION(disk);
  assert.notEqual(next, disk);
  // The package's next version typed in the editor, not saved: the vm's zone renamed and made required.
  await typeConnectorUnsaved(s, infra, compute, disk, next, "the unsaved text of the connector's file");
});

test("a monorepo's workspace connector linked into node_modules and open in the editor at its real path (as editors open it): its unsaved text is what the connectors are read from, as the language server reads it; closed unsaved, the disk's again", { timeout: 120_000 }, async () => {
  const project = installProject();
  const top = join(project, "linked-buffer");
  const co = writeCompany(top, "co", { "apps/billing/resources/hooks.ts": null });
  // @hooli/cloud moved to packages/cloud beside the company, and linked back as a workspace manager links it.
  mkdirSync(join(top, "packages"));
  renameSync(join(co, "node_modules/@hooli/cloud"), join(top, "packages/cloud"));
  symlinkSync("../../../packages/cloud", join(co, "node_modules/@hooli/cloud"));
  const s = new TsServer({ cwd: project, logFile: join(project, "linked-buffer.log") });
  servers.push(s);
  const infra = join(co, "resources/infra.ts");
  const compute = join(top, "packages/cloud/src/compute.js");
  const disk = readFileSync(compute, "utf8");
  const next = CLOUD_NEXT_VERSION(disk);
  await typeConnectorUnsaved(s, infra, compute, disk, next, "the unsaved text of the connector's file, open at its real path");
});

/**
 * The connector's file `compute` opened in the editor with `next` (not saved), edited back to the
 * disk's text and forth, and closed unsaved: `infra`'s problems follow the editor's text each
 * time (a vm's fields problem with `next`, none with the disk's), and nothing is written.
 */
async function typeConnectorUnsaved(s: TsServer, infra: string, compute: string, disk: string, next: string, what: string): Promise<void> {
  const fields = [RULE_CODES["resource-fields"]];
  s.open(infra);
  await until(s, { [infra]: [] }, "the vm's fields as the package on disk has them");
  s.open(compute, next);
  await until(s, { [infra]: fields }, what);
  const whole = (text: string) => { const lines = text.split("\n"); return { line: lines.length, offset: lines[lines.length - 1].length + 1 }; };
  s.change(compute, { line: 1, offset: 1 }, whole(next), disk);
  await until(s, { [infra]: [] }, "edited back, unsaved");
  s.change(compute, { line: 1, offset: 1 }, whole(disk), next);
  await until(s, { [infra]: fields }, "edited again");
  s.send("close", { file: compute });
  await until(s, { [infra]: [] }, "closed unsaved: the disk's text again");
  assert.equal(readFileSync(compute, "utf8"), disk, "(nothing was written)");
  s.send("close", { file: infra });
}
