/**
 * The status bar's words (`client/src/statusView.ts`), without VS Code: the company and scope of
 * the active file, indexing, a failed server and a slow check as warnings, and hiding outside
 * Sanoma projects. The end-to-end test (test/e2e) reads the same label from a real VS Code; a check
 * slower than two seconds is not something it can make happen on demand, so that state is held
 * here.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { formatMs, slowCheckMs, statusView } from "../../client/src/statusView.ts";
import type { CompanyOfResult, StatusResult } from "../../server/src/protocol.ts";

const running = { kind: "running" } as const;
const billing: CompanyOfResult = { root: "/w/acme", name: "acme", scope: "billing", kind: "workflows" };
const idle = (lastCheckMs?: number): StatusResult => ({ state: "idle", companies: 1, files: 40, indexedFiles: 40, lastCheckMs, lastCheckAt: lastCheckMs === undefined ? undefined : 1 });

test("status: the active file's company and scope, ready", () => {
  assert.deepEqual(statusView(running, idle(120), billing), { text: "$(organization) acme › billing", warning: undefined, label: "Sanoma: acme › billing, ready", visible: true });
  assert.equal(statusView(running, idle(), { ...billing, scope: null }).text, "$(organization) acme › root");
});

test("status: indexing shows its progress", () => {
  const v = statusView(running, { ...idle(), state: "indexing", indexedFiles: 12 }, billing);
  assert.equal(v.text, "$(sync~spin) acme › billing · indexing 12/40");
  assert.equal(v.label, "Sanoma: acme › billing, indexing");
});

test("status: a check slower than the threshold is a warning that says how slow; one at the threshold is not", () => {
  const slow = statusView(running, idle(slowCheckMs + 1500), billing);
  assert.equal(slow.text, "$(warning) acme › billing");
  assert.equal(slow.warning, "The last check took 3.5 s, more than 2.0 s");
  assert.equal(slow.label, "Sanoma: acme › billing, warning: The last check took 3.5 s, more than 2.0 s");
  assert.equal(statusView(running, idle(slowCheckMs), billing).warning, undefined);
  // Indexing wins over an older slow check: the spinner says what is happening now.
  assert.equal(statusView(running, { ...idle(slowCheckMs + 1), state: "indexing" }, billing).warning, undefined);
});

test("status: a company whose check failed is a warning that says which and what, the active file's company first; indexing wins over it", () => {
  const failed = (roots: string[]): StatusResult => ({ ...idle(120), failed: roots.map((root) => ({ root, name: root.slice(3), message: `check of ${root.slice(3)} failed: boom` })) });
  const one = statusView(running, failed(["/w/acme"]), billing);
  assert.equal(one.text, "$(warning) acme › billing");
  assert.equal(one.warning, "The check of acme failed: boom: the problems shown for it may be out of date (the output has the stack)");
  assert.equal(one.label, `Sanoma: acme › billing, warning: ${one.warning}`);
  assert.equal(statusView(running, failed(["/w/beta", "/w/acme"]), billing).warning, "The check of acme failed: boom (and 1 more company): the problems shown for it may be out of date (the output has the stack)");
  assert.equal(statusView(running, failed(["/w/beta", "/w/gamma", "/w/delta"]), null).warning, "The check of beta failed: boom (and 2 more companies): the problems shown for it may be out of date (the output has the stack)");
  assert.equal(statusView(running, { ...failed(["/w/acme"]), state: "indexing" }, billing).warning, undefined);
  assert.equal(statusView(running, { ...idle(120), failed: [] }, billing).warning, undefined);
});

test("status: a failed or restarting server is a warning with its reason, shown even outside a company", () => {
  const failed = statusView({ kind: "failed", reason: "the server exited 4 times in 3 minutes" }, undefined, null);
  assert.deepEqual(failed, { text: "$(warning) Sanoma", warning: "the server exited 4 times in 3 minutes", label: "Sanoma: Sanoma, warning: the server exited 4 times in 3 minutes", visible: true });
  assert.equal(statusView({ kind: "restarting", reason: "exited" }, idle(), billing).warning, "exited");
});

test("status: outside Sanoma projects the item hides; while the server starts it shows", () => {
  assert.equal(statusView(running, { ...idle(), companies: 0 }, null).visible, false);
  assert.equal(statusView(running, undefined, null).visible, false);
  assert.equal(statusView({ kind: "starting" }, undefined, null).visible, true);
  assert.equal(statusView(running, idle(), null).visible, true, "a workspace with companies, a file outside them");
});

test("status: durations under a second in ms, above in seconds", () => {
  assert.equal(formatMs(12.4), "12 ms");
  assert.equal(formatMs(999), "999 ms");
  assert.equal(formatMs(2000), "2.0 s");
});
