/**
 * A fault of the server's on the way from a file's text to its problems (a company's check, its
 * indexing, a change on disk or an editor's text that cannot be taken) is said where every LSP
 * client shows it: a `check-failed` note on the company's config and the status's `failed`, until
 * the company's next check publishes (docs/settings.md, "A check that fails"). No real input makes
 * those steps throw, so the tests arm failpoints (`SANOMA_FAILPOINTS`, node/failpoints.ts): over
 * stdio as an editor drives the built server, and in-process for what the session decides.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { basename, join } from "node:path";
import { readFileSync, writeFileSync } from "node:fs";
import { type Diag, type LspClient } from "../support/lsp.ts";
import { withServer } from "../support/server.ts";
import { settled, sessionOf } from "../support/session.ts";
import { CLOUD_PACKAGE } from "../support/companies.ts";
import { Failpoints } from "../../server/src/node/failpoints.ts";
import type { StatusResult } from "../../server/src/protocol.ts";

const COMPANY = `
//- /sanoma.config.ts
export default {};
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const orders = collection({ key: "id", fields: { id: "string" } });
//- /workflows/nightly.ts
export async function nightly(ctx: any) {
  await ctx.call("data.order.get", {});
}
//- /apps/maps/workflows/render.ts
import { x } from "../../billing/lib";
${CLOUD_PACKAGE}`;

/** nightly.ts with a second unknown op (`data.orders.nope`) under the first. */
const NIGHTLY_TWO = `export async function nightly(ctx: any) {\n  await ctx.call("data.order.get", {});\n  await ctx.call("data.orders.nope", {});\n}\n`;

const config = (root: string) => join(root, "sanoma.config.ts");
const notesOf = (ds: Diag[]) => ds.filter((d) => d.code === "check-failed");
const status = (c: LspClient) => c.request<StatusResult>("sanoma/status", null);

test("server: a company whose check throws gets a check-failed note on its config and is named in the status; its next check, at an edit, clears both and publishes every file (SANOMA_FAILPOINTS=check:1)", async () => {
  await withServer(COMPANY, async ({ c, root }) => {
    const nightly = join(root, "workflows/nightly.ts");
    const render = join(root, "apps/maps/workflows/render.ts");
    // The first check threw: nothing of the company was published, and the editor is told so.
    const [note, ...rest] = c.diagnosticsFor(config(root));
    assert.equal(rest.length, 0, JSON.stringify(rest));
    assert.equal(note?.code, "check-failed", JSON.stringify(c.diagnosticsFor(config(root))));
    assert.equal(note.severity, 1, "an error");
    assert.equal(note.source, "sanoma");
    assert.deepEqual(note.range, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
    assert.match(note.codeDescription!.href, /docs\/settings\.md#a-check-that-fails$/);
    assert.match(note.message, /^Sanoma's check of \S+ failed: failpoint check: a fault made on purpose/);
    assert.match(note.message, /The problems shown for \S+ may be out of date/);
    assert.match(note.message, /The full stack is in the language server's log/);
    assert.deepEqual(c.diagnosticsFor(nightly), []);
    const s = await status(c);
    assert.equal(s.state, "idle");
    assert.equal(s.failed?.length, 1);
    assert.equal(s.failed![0].root, root);
    assert.match(s.failed![0].message, /^check of \S+ failed: failpoint check: /);
    assert.equal(s.lastCheckAt, undefined, "no check finished");
    assert.match(c.notifications.filter((n) => n.method === "window/logMessage").map((n) => (n.params as { message: string }).message).join("\n"), /check of .* failed: Error: failpoint check: .*\n\s+at /, "the stack in the log");
    // An edit: the next check (the failpoint used up) judges every file, publishes them all, and the note goes.
    c.open(nightly, NIGHTLY_TWO);
    await c.waitFor(() => c.diagnosticsFor(nightly).length === 2, "nightly's two problems");
    await c.waitIdle();
    assert.deepEqual(c.diagnosticsFor(render).map((d) => d.code), ["no-cross-app-import"], "a file not edited is judged too (the check that threw kept nothing)");
    assert.deepEqual(c.diagnosticsFor(config(root)), [], "the note gone");
    assert.deepEqual((await status(c)).failed, []);
  }, { env: { SANOMA_FAILPOINTS: "check:1" } });
});

test("server: a company whose indexing throws gets the note, the other companies of the round are indexed and checked all the same, and an edit of one of its files reads it again (SANOMA_FAILPOINTS=index:1)", async () => {
  await withServer([COMPANY, COMPANY], async ({ c, roots: [a, b] }) => {
    // (The round reads the roots sorted: the first fails.)
    const [failed, other] = [a, b].sort();
    await c.waitFor(() => c.diagnosticsFor(join(other, "workflows/nightly.ts")).length === 1, "the other company's problem");
    await c.waitIdle();
    const notes = notesOf(c.diagnosticsFor(config(failed)));
    assert.equal(notes.length, 1, JSON.stringify(c.diagnosticsFor(config(failed))));
    assert.match(notes[0].message, new RegExp(`^Sanoma's reading of ${basename(failed)}'s files \\(indexing\\) failed: failpoint index: `));
    assert.match(notes[0].message, /may be out of date, or missing/);
    assert.match(notes[0].message, /It is read again at the next change to one of its files/);
    assert.deepEqual(c.diagnosticsFor(join(failed, "workflows/nightly.ts")), [], "not indexed, not checked");
    assert.deepEqual(notesOf(c.diagnosticsFor(config(other))), []);
    assert.deepEqual((await status(c)).failed?.map((f) => f.root), [failed]);
    // An edit of one of its files: the company is read again whole, that text with it, and checked.
    const nightly = join(failed, "workflows/nightly.ts");
    c.open(nightly, NIGHTLY_TWO);
    await c.waitFor(() => c.diagnosticsFor(nightly).length === 2, "the failed company's problems, the edit's included");
    await c.waitIdle();
    assert.deepEqual(c.diagnosticsFor(join(failed, "apps/maps/workflows/render.ts")).map((d) => d.code), ["no-cross-app-import"]);
    assert.deepEqual(c.diagnosticsFor(config(failed)), [], "the note gone");
    assert.deepEqual((await status(c)).failed, []);
  }, (roots) => ({ folders: roots, env: { SANOMA_FAILPOINTS: "index:1" } }));
});

test("server: a file changed on disk whose change cannot be taken has its company noted and read again whole: the change's problem shows, and the note goes (SANOMA_FAILPOINTS=disk:1)", async () => {
  await withServer(COMPANY, async ({ c, root }) => {
    const nightly = join(root, "workflows/nightly.ts");
    await c.waitFor(() => c.diagnosticsFor(nightly).length === 1, "nightly's problem");
    const from = c.publishes.length;
    writeFileSync(nightly, NIGHTLY_TWO);
    c.watched([{ file: nightly, type: 2 }]);
    await c.waitFor(() => c.diagnosticsFor(nightly).length === 2, "the change's problem, after the company was read again");
    await c.waitIdle();
    const noted = c.publishes.slice(from).filter((p) => p.uri === `file://${config(root)}`).map((p) => notesOf(p.diagnostics));
    assert.match(noted[0]?.[0]?.message ?? "", /^Sanoma's reading of workflows\/nightly\.ts changed on disk failed: failpoint disk: .*It is being read again whole/, "the note was published while it was read again");
    assert.deepEqual(c.diagnosticsFor(config(root)), [], "and went with its check");
    assert.deepEqual((await status(c)).failed, []);
    assert.equal(readFileSync(nightly, "utf8"), NIGHTLY_TWO);
  }, { env: { SANOMA_FAILPOINTS: "disk:1" } });
});

// ---- In-process: what the session decides ------------------------------------------------------

test("session in-process: a check that throws after one that published keeps that one's problems (they were right for the text before) under the note, and the next check replaces them", async () => {
  const failpoints = new Failpoints();
  const { session, client, documents, root } = await sessionOf(COMPANY, {}, { failpoints });
  const nightly = join(root, "workflows/nightly.ts");
  assert.deepEqual(client.codes(nightly), ["collection-op"]);
  failpoints.arm("check", 1);
  const uri = documents.set(nightly, NIGHTLY_TWO);
  session.setText(uri, NIGHTLY_TWO);
  await session.checks.flush();
  await settled(session);
  assert.deepEqual(client.codes(nightly), ["collection-op"], "the problems of before, kept");
  assert.deepEqual(client.codes(config(root)), ["check-failed"]);
  assert.equal(session.status().failed?.length, 1);
  assert.equal(client.statuses.at(-1)?.failed?.length, 1, "the status told names it");
  session.setText(uri, NIGHTLY_TWO + "\n");
  await session.checks.flush();
  await settled(session);
  assert.deepEqual(client.codes(nightly), ["collection-op", "collection-op"]);
  assert.deepEqual(client.codes(config(root)), []);
  assert.deepEqual(client.statuses.at(-1)?.failed, []);
});

test("session in-process: an editor's text that cannot be taken has its company read again whole, that text with it (edit:1)", async () => {
  const failpoints = new Failpoints();
  const { session, client, documents, root, log } = await sessionOf(COMPANY, {}, { failpoints });
  const nightly = join(root, "workflows/nightly.ts");
  failpoints.arm("edit", 1);
  const uri = documents.set(nightly, NIGHTLY_TWO);
  session.setText(uri, NIGHTLY_TWO);
  assert.deepEqual(client.codes(config(root)), ["check-failed"]);
  await settled(session);
  assert.deepEqual(client.codes(nightly), ["collection-op", "collection-op"], "the edit's problem");
  assert.deepEqual(client.codes(config(root)), [], "the note gone with the check after the reading");
  assert.ok(log.some((l) => l.startsWith("reading of an edit of workflows/nightly.ts failed: Error: failpoint edit: ")), log.join("\n"));
});

test("session in-process: a file changed on disk that cannot be read between requests has its company read again whole, not its change dropped (read:1)", async () => {
  const failpoints = new Failpoints();
  const { session, client, fs, root, log } = await sessionOf(COMPANY, {}, { failpoints });
  const nightly = join(root, "workflows/nightly.ts");
  failpoints.arm("read", 1);
  fs.files.set(nightly, NIGHTLY_TWO);
  session.diskChanged(nightly, "changed");
  await settled(session);
  await session.idle;
  await settled(session);
  assert.deepEqual(client.codes(nightly), ["collection-op", "collection-op"], "the change's problem");
  assert.deepEqual(client.codes(config(root)), []);
  assert.deepEqual(session.status().failed, []);
  assert.ok(log.some((l) => l.startsWith("reading of workflows/nightly.ts changed on disk failed: Error: failpoint read: ")), log.join("\n"));
});

// Taking the editor's changed settings had no catch: a fault there was an unhandled rejection,
// which ended the server (the client restarted it, re-reading everything, up to 4 times).
test("server: changed settings that cannot be taken (SANOMA_FAILPOINTS=settings:1) leave the server running: a warning says so, every company is read again with them, and they apply", async () => {
  await withServer(COMPANY, async ({ c, root }) => {
    const nightly = join(root, "workflows/nightly.ts");
    await c.waitFor(() => c.diagnosticsFor(nightly).map((d) => d.code).join() === "collection-op", "nightly's problem");
    c.settings = { rules: { "collection-op": "off" } };
    c.notify("workspace/didChangeConfiguration", { settings: null });
    await c.waitFor(() => c.notifications.some((n) => n.method === "window/showMessage" && (n.params as { message: string }).message.startsWith("Sanoma: taking the changed settings failed (failpoint settings: ")), "the warning");
    // Read again with them: the rule turned off applies.
    await c.waitFor(() => c.diagnosticsFor(nightly).length === 0, "collection-op off");
    assert.equal((await status(c)).state, "idle", "the server answers");
    assert.match(c.notifications.filter((n) => n.method === "window/logMessage").map((n) => (n.params as { message: string }).message).join("\n"), /taking the changed settings failed: Error: failpoint settings: .*\n\s+at /, "the stack in the log");
  }, { env: { SANOMA_FAILPOINTS: "settings:1" }, settings: {} });
});
