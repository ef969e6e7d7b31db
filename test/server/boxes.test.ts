/**
 * Boxes and previews through the built server over stdio, as any LSP client would use them: a
 * preview of the example company (its demo agent), its events streamed and resumed from a cursor,
 * the diff and apply round trip, refused names as JSON-RPC errors, and boxes' processes ending
 * with the server.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { LspClient } from "../support/lsp.ts";

const REPO = resolve(import.meta.dirname, "..", "..");
let work: string;
let company: string;
let boxesDir: string;
let c: LspClient;

before(async () => {
  work = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-boxes-")));
  company = join(work, "acme");
  boxesDir = join(work, "boxes");
  cpSync(join(REPO, "examples/acme"), company, { recursive: true });
  c = new LspClient({ initializationOptions: { boxesDir }, settings: { preview: { command: "PREVIEW_SERVE_MS=300 node tools/preview-agent.mjs ${file} ${export}" }, boxes: { isolation: "process" } } });
  await c.initialize([company]);
  await c.waitIdle();
});
after(async () => { await c.shutdown(); rmSync(work, { recursive: true, force: true }); });

test("boxes over stdio: a refused name is a JSON-RPC error whose message is the spec's sentence", async () => {
  for (const name of ["../x", ".hidden", "a/b", ""]) {
    await assert.rejects(c.request("sanoma/boxes/open", { name }), (e: Error) => e.message === `${name} is no box's name`);
  }
  const list = await c.request("sanoma/boxes/list", {});
  assert.equal(list.boxesDir, boxesDir);
  assert.equal(list.tier, "process");
});

test("boxes over stdio: a preview of the example company streams its events, resumable from a cursor", async () => {
  const started = await c.request("sanoma/boxes/preview", { root: company, file: "workflows/nightly.ts", export: "nightly", wait: true }, 60000);
  assert.equal(started.name, "root-nightly", "the box is named <scope>-<export>, the root scope as `root`");
  assert.equal(started.result.exitCode, 0, started.result.stderr);
  assert.match(started.result.stdout, /wrote reports\/nightly\.md/);
  assert.ok(started.sync.copied > 10, "the company was copied in");
  // Live: the events arrived as notifications.
  const live = c.notifications.filter((n) => n.method === "sanoma/boxes/event").map((n) => n.params as any);
  assert.ok(live.some((e) => e.kind === "output"), "output streamed");
  assert.ok(live.some((e) => e.kind === "port" && /^http:\/\/127\.0\.0\.1:\d+$/.test(e.url)), "the port it listened on");
  assert.ok(live.some((e) => e.kind === "exit" && e.exitCode === 0));
  // A client that reconnects resumes after the last event it saw.
  const all = await c.request("sanoma/boxes/events", { name: "root-nightly", cursor: 0 });
  assert.ok(all.events.length >= 4);
  const middle = all.events[1].seq;
  const rest = await c.request("sanoma/boxes/events", { name: "root-nightly", cursor: middle });
  assert.deepEqual(rest.events.map((e: any) => e.seq), all.events.filter((e: any) => e.seq > middle).map((e: any) => e.seq));
  const runs = await c.request("sanoma/boxes/runs", { name: "root-nightly" });
  assert.equal(runs.runs[0].state, "exited");
});

test("boxes over stdio: the diff shows what the preview changed; apply copies only the chosen files back", async () => {
  const diff = await c.request("sanoma/boxes/diff", { name: "root-nightly" });
  const changes = Object.fromEntries(diff.files.map((f: any) => [f.path, f.change]));
  assert.deepEqual(changes, { "reports/nightly.md": "added", "workflows/nightly.ts": "modified" });
  assert.ok(!existsSync(join(company, "reports/nightly.md")), "nothing in the workspace changed yet");
  const before = readFileSync(join(company, "workflows/nightly.ts"), "utf8");
  const applied = await c.request("sanoma/boxes/apply", { name: "root-nightly", files: ["reports/nightly.md"] });
  assert.deepEqual(applied.applied, ["reports/nightly.md"]);
  assert.match(readFileSync(join(company, "reports/nightly.md"), "utf8"), /Total: €42\.00/);
  assert.equal(readFileSync(join(company, "workflows/nightly.ts"), "utf8"), before, "the file not chosen is untouched");
});

test("boxes over stdio: a run's processes end when the server shuts down", async () => {
  // The process tier: there the pid the box reports is the host's (in the namespace tier it is the namespace's own).
  const other = new LspClient({ initializationOptions: { boxesDir: join(work, "boxes2") }, settings: { boxes: { isolation: "process" } } });
  await other.initialize([company]);
  await other.waitIdle();
  assert.equal((await other.request("sanoma/boxes/list", {})).tier, "process");
  await other.request("sanoma/boxes/open", { name: "sleeper" });
  const run = await other.request("sanoma/boxes/run", { name: "sleeper", command: "sleep 300 & echo $! > pid; wait" });
  assert.ok(run.runId);
  const pidFile = join(work, "boxes2", "sleeper", "pid");
  const start = Date.now();
  while (!existsSync(pidFile) || readFileSync(pidFile, "utf8").trim() === "") { if (Date.now() - start > 10000) throw new Error("no pid"); await new Promise((r) => setTimeout(r, 50)); }
  const pid = Number(readFileSync(pidFile, "utf8"));
  await other.shutdown();
  const alive = () => { try { process.kill(pid, 0); return true; } catch { return false; } };
  const t = Date.now();
  while (alive() && Date.now() - t < 5000) await new Promise((r) => setTimeout(r, 50));
  assert.equal(alive(), false, "the background sleep ended with the server");
});
