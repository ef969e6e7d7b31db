/**
 * Boxes and previews through the built server over stdio, as any LSP client would use them: a
 * preview of the example company (its demo agent), its events streamed and resumed from a cursor,
 * the diff and apply round trip, refused names as JSON-RPC errors, and boxes' processes ending
 * with the server.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { spawnSync } from "node:child_process";
import { uri, type LspClient } from "../support/lsp.ts";
import { startServer, withServer, type RunningServer } from "../support/server.ts";
import { SERVER_NODE_ARGS } from "../../server/src/protocol.ts";

const REPO = resolve(import.meta.dirname, "..", "..");
let work: string;
let company: string;
let boxesDir: string;
let shared: RunningServer;
let c: LspClient;

before(async () => {
  work = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-boxes-")));
  company = join(work, "acme");
  boxesDir = join(work, "boxes");
  cpSync(join(REPO, "examples/acme"), company, { recursive: true });
  ({ c } = shared = await startServer({ path: work }, { initializationOptions: { boxesDir }, settings: { preview: { command: "PREVIEW_SERVE_MS=300 node tools/preview-agent.mjs ${file} ${export}" }, boxes: { isolation: "process" } }, folders: [company] }));
});
after(() => shared.stop());

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
  assert.deepEqual([applied.root, applied.applied], [diff.root, ["reports/nightly.md"]], "into the company the diff was made against, named");
  assert.match(readFileSync(join(company, "reports/nightly.md"), "utf8"), /Total: €42\.00/);
  assert.equal(readFileSync(join(company, "workflows/nightly.ts"), "utf8"), before, "the file not chosen is untouched");
});

test("boxes over stdio: a boxes folder that cannot be made costs the boxes alone: the server starts, checks, and each box request says why", async () => {
  const blocker = join(work, "a-file");
  writeFileSync(blocker, "");
  await withServer([], async ({ c: server }) => {
    assert.ok((await server.request("workspace/symbol", { query: "" })).length > 0, "the company is indexed");
    await assert.rejects(server.request("sanoma/boxes/open", { name: "b" }), /boxes are unavailable: their folder .*a-file\/boxes cannot be made \(ENOTDIR\)/);
  }, { initializationOptions: { boxesDir: join(blocker, "boxes") }, folders: [company] });
  // Under /proc, where Node 20's recursive mkdir never returns: the server starts all the same.
  await withServer([], async ({ c: proc }) => {
    await assert.rejects(proc.request("sanoma/boxes/open", { name: "b" }), /boxes are unavailable: their folder \/proc\/sanoma-boxes\/x cannot be made/);
  }, { initializationOptions: { boxesDir: "/proc/sanoma-boxes/x" }, folders: [company], idle: false });
});

/**
 * The servers whose ends are tested: the built bundle (as the VS Code extension starts it), and the
 * package's command, which runs the server in a worker thread of its process (server/bin/thread.js):
 * a signal reaches that process's first thread, which must pass it on.
 */
const PACKAGE_SERVER = join(REPO, "server", "bin", "sanoma-language-server.js");
const SERVERS = [["the built server", undefined], ["the package's command (in its worker thread)", [process.execPath, PACKAGE_SERVER, "--stdio"]]] as const;

/**
 * Opens a box in a fresh server (process tier; `command`: how the server is started) and starts a
 * background `sleep` there (`detached`: in a session of its own, `setsid`): its pid.
 */
async function sleeperIn(dir: string, command?: readonly string[], detached: boolean | "no-tag" = false): Promise<{ server: LspClient; pid: number }> {
  // The process tier: there the pid the box reports is the host's (in the namespace tier it is the namespace's own).
  const { c: server } = await startServer([], { command: command && [...command], initializationOptions: { boxesDir: dir }, settings: { boxes: { isolation: "process" } }, folders: [company] });
  assert.equal((await server.request("sanoma/boxes/list", {})).tier, "process");
  await server.request("sanoma/boxes/open", { name: "sleeper" });
  // "no-tag": out of its group and its session, and its environment cleared of the box's tag.
  const sleep = detached === "no-tag" ? "env -i setsid -f bash -c 'echo $$ > pid; exec sleep 300'; wait" : `${detached ? "setsid " : ""}sleep 300 & echo $! > pid; wait`;
  const run = await server.request("sanoma/boxes/run", { name: "sleeper", command: sleep });
  assert.ok(run.runId);
  const pidFile = join(dir, "sleeper", "pid");
  const start = Date.now();
  while (!existsSync(pidFile) || readFileSync(pidFile, "utf8").trim() === "") { if (Date.now() - start > 10000) throw new Error("no pid"); await new Promise((r) => setTimeout(r, 50)); }
  return { server, pid: Number(readFileSync(pidFile, "utf8")) };
}

/** Pids of the watchdogs (`server/src/boxes/reaper.ts`) started by the server of pid `server`. */
function reapersOf(server: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, "latin1").split("\0");
      if (argv.includes("sanoma-box-reaper") && argv.includes(String(server))) out.push(Number(name));
    } catch { /* ended meanwhile */ }
  }
  return out;
}

async function gone(pid: number): Promise<boolean> {
  const alive = () => { try { process.kill(pid, 0); return true; } catch { return false; } };
  const t = Date.now();
  while (alive() && Date.now() - t < 5000) await new Promise((r) => setTimeout(r, 50));
  if (alive()) { process.kill(pid, "SIGKILL"); return false; }
  return true;
}

for (const [which, command] of SERVERS) {
  test(`boxes over stdio, ${which}: a run's processes end when the server shuts down`, async () => {
    const { server, pid } = await sleeperIn(join(work, `boxes2-${command ? "package" : "built"}`), command);
    const serverPid = server.proc.pid!;
    assert.equal(reapersOf(serverPid).length, 1, "one watchdog, started with the first run");
    const exited = new Promise<number | null>((r) => server.proc.once("exit", r));
    await server.shutdown();
    assert.equal(await exited, 0, "exit code 0 after a shutdown");
    assert.ok(await gone(pid), "the background sleep ended with the server");
    for (const reaper of reapersOf(serverPid)) assert.ok(await gone(reaper), "the watchdog ends with the server");
  });

  for (const [i, [how, end, code]] of ([
    ["its client closes the pipe without a shutdown", (s: LspClient) => s.proc.stdin.end(), 1],
    ["it is sent SIGTERM", (s: LspClient) => s.proc.kill("SIGTERM"), 0],
    ["it is sent SIGINT", (s: LspClient) => s.proc.kill("SIGINT"), 0],
    ["it is killed (SIGKILL: no code of it runs; a watchdog ends them)", (s: LspClient) => s.proc.kill("SIGKILL"), null],
  ] as const).entries()) {
    test(`boxes over stdio, ${which}: a run's processes end when the server ends because ${how}`, async () => {
      const { server, pid } = await sleeperIn(join(work, `boxes-ended-${i}-${command ? "package" : "built"}`), command);
      const serverPid = server.proc.pid!;
      const exited = new Promise<number | null>((r) => server.proc.once("exit", r));
      end(server);
      assert.equal(await exited, code, "its exit code (the LSP's 1 for a client gone without a shutdown)");
      assert.ok(await gone(pid), "no process of the box outlives the server");
      for (const reaper of reapersOf(serverPid)) assert.ok(await gone(reaper), "nor does the watchdog");
    });
  }
}

// Two ways out of the server's groups: a new session (found by the box's tag in its environment),
// and a new session with the environment cleared too (found as an orphan working in the box's home).
const DETACHED = [
  [true, "detached from its group (setsid)", "by the box's tag"],
  ["no-tag", "detached from its group and cleared of the box's tag (env -i setsid -f)", "working in the box's home"],
] as const;
for (const [which, command] of SERVERS) {
  for (const [mode, how, found] of DETACHED) {
    test(`boxes over stdio, ${which}: what a run ${how} ends when the server is killed (SIGKILL): the watchdog finds it ${found}`, async () => {
      const { server, pid } = await sleeperIn(join(work, `boxes-detached-${mode === true ? "setsid" : mode}-${command ? "package" : "built"}`), command, mode);
      const exited = new Promise<number | null>((r) => server.proc.once("exit", r));
      try {
        // `$!` is written as soon as the shell forks; `setsid` calls setsid(2) and then becomes the
        // sleep, so a sleep by name has its session (read before, the shell's session shows: CI did).
        const stat = () => readFileSync(`/proc/${pid}/stat`, "latin1");
        for (let t = Date.now(); !stat().includes("(sleep)") && Date.now() - t < 10_000;) await new Promise((r) => setTimeout(r, 20));
        const sid = Number(stat().split(") ")[1].split(" ")[3]);
        assert.equal(sid, pid, "the sleep leads a session of its own: no group the server started holds it");
        if (mode === "no-tag") assert.equal(readFileSync(`/proc/${pid}/environ`, "latin1").includes("SANOMA_BOX_RUN"), false, "no tag to find it by");
        const serverPid = server.proc.pid!;
        server.proc.kill("SIGKILL");
        await exited;
        assert.ok(await gone(pid), "the detached sleep does not outlive the server");
        for (const reaper of reapersOf(serverPid)) assert.ok(await gone(reaper), "nor does the watchdog");
      } finally {
        // A failed assertion must not leave a server (and its sleep) holding the test file open.
        if (server.proc.exitCode === null && server.proc.signalCode === null) { server.proc.kill("SIGKILL"); await exited; }
        try { process.kill(pid, "SIGKILL"); } catch { /* ended, as it should */ }
      }
    });
  }
}

test("the package's language server over stdio runs in a worker thread whose young generation is the one the VS Code extension gives the built server by a Node option, and says so in the client's log", async () => {
  const { c: server } = await startServer([], { command: [process.execPath, PACKAGE_SERVER, "--stdio"], folders: [company] });
  try {
    assert.ok((await server.request("workspace/symbol", { query: "" })).length > 0, "it indexed the company");
    const logs = server.notifications.filter((n) => n.method === "window/logMessage").map((n) => (n.params as { message: string }).message);
    // (--max-semi-space-size=4: two semi-spaces of 4 MB, and V8's third for large objects.)
    assert.equal(SERVER_NODE_ARGS.join(" "), "--max-semi-space-size=4");
    assert.ok(logs.includes("running in a worker thread of the package's command, its young generation at most 12 MB"), logs.join("\n"));
  } finally { await server.shutdown(); }
});

test("boxes over stdio: a waited run whose request the client cancels is stopped, and answers RequestCancelled", async () => {
  const marker = `sanoma-cancel-${process.pid}-${Date.now()}`;
  const running = c.request("sanoma/boxes/run", { name: "cancelled", command: 'exec -a "$T" sleep 30', env: { T: marker }, wait: true }, 20000);
  const id = c.lastRequestId;
  const alive = () => spawnSync("pgrep", ["-f", marker]).status === 0;
  for (let i = 0; i < 100 && !alive(); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(alive(), "the command runs");
  c.notify("$/cancelRequest", { id });
  await assert.rejects(running, (e: Error & { code?: number }) => e.code === -32800 && /was stopped: its request was cancelled/.test(e.message));
  for (let i = 0; i < 100 && alive(); i++) await new Promise((r) => setTimeout(r, 50));
  assert.ok(!alive(), "and is gone");
});

/** A small company of its own, for servers that must not share the example's. */
function smallCompany(): string {
  const root = join(work, `small-${Math.random().toString(36).slice(2)}`);
  cpSync(join(REPO, "examples/acme/sanoma.config.ts"), join(root, "sanoma.config.ts"));
  for (const [rel, text] of [["workflows/w.ts", "export const w = async () => 1;\n"], ["lib/x.ts", "wxyz\n"]]) {
    mkdirSync(join(root, rel, ".."), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

test("boxes over stdio (issue 18, 4): a FIFO the box keeps renaming into a file's place never hangs the server's diff or apply", async () => {
  const root = smallCompany();
  await withServer([], async ({ c: server }) => {
    const preview = await server.request("sanoma/boxes/preview", { root, file: "workflows/w.ts", export: "w", command: "mkdir -p .scratch && mkfifo .scratch/fifo", wait: true }, 30000);
    assert.equal(preview.result.exitCode, 0, preview.result.stderr);
    // Hard links to one FIFO, renamed over lib/x.ts, then a file of the workspace file's size: a
    // reader that looked (a file) and then opened (a FIFO) would wait for a writer for ever.
    const script = 'const fs = require("fs"); for (;;) { try { fs.linkSync(".scratch/fifo", ".scratch/l"); fs.renameSync(".scratch/l", "lib/x.ts"); fs.writeFileSync(".scratch/f", "abcd\\n"); fs.renameSync(".scratch/f", "lib/x.ts"); } catch {} }';
    await server.request("sanoma/boxes/run", { name: preview.name, command: `node -e '${script}'` });
    const kinds = new Set<string>();
    // A hundred diffs at least, and on until the loop has started (node takes its time on a busy machine).
    const deadline = Date.now() + 20_000;
    for (let i = 0; i < 100 || (kinds.size === 0 && Date.now() < deadline); i++) {
      const diff = await server.request("sanoma/boxes/diff", { name: preview.name }, 5000);
      for (const f of diff.files) if (f.path === "lib/x.ts") kinds.add(f.kind);
    }
    assert.ok(kinds.size > 0, "the diff listed the file");
    for (let i = 0; i < 50; i++) {
      const applied = await server.request("sanoma/boxes/apply", { name: preview.name, files: ["lib/x.ts"] }, 5000);
      assert.equal(applied.applied.length + applied.skipped.length, 1);
      const now = readFileSync(join(root, "lib/x.ts"), "utf8");
      assert.ok(now === "wxyz\n" || now === "abcd\n", now);
    }
  }, { initializationOptions: { boxesDir: join(work, "boxes-fifo") }, settings: { boxes: { isolation: "namespace" } }, folders: [root], idle: false, kill: true });
});

test("boxes over stdio (issue 17): a run sent right after initialized runs in the tier the settings name", async () => {
  const root = smallCompany();
  // No wait for indexing: the request follows `initialized` at once.
  await withServer([], async ({ c: server }) => {
    const run = await server.request("sanoma/boxes/run", { name: "early", command: "echo ran", wait: true }, 30000);
    assert.equal(run.tier, "process");
    assert.equal(run.result.tier, "process");
    assert.equal(run.result.stdout, "ran\n");
  }, { initializationOptions: { boxesDir: join(work, "boxes-settings") }, settings: { boxes: { isolation: "process" } }, folders: [root], idle: false });
});

test("boxes over stdio (issue 18, 7): the default preview command is the company's installed CLI; where there is none, the preview says so at once and makes nothing", async () => {
  const root = smallCompany();
  const dir = join(work, "boxes-cli");
  await withServer([], async ({ c: server }) => {
    await assert.rejects(server.request("sanoma/boxes/preview", { root, file: "workflows/w.ts", export: "w", wait: true }, 10000), { message: `the Sanoma CLI is not installed: there is no node_modules/.bin/sanoma in ${root} or a folder above it. Install the Sanoma framework in the company (npm install), or set sanoma.preview.command` });
    await assert.rejects(server.request("sanoma/boxes/preview", { root, file: "workflows/w.ts", export: "nope", wait: true }, 10000), { message: "nope is no exported workflow of workflows/w.ts (its workflows: w)" });
    assert.deepEqual(readdirSync(dir), [], "no box was made");
    mkdirSync(join(root, "node_modules/.bin"), { recursive: true });
    writeFileSync(join(root, "node_modules/.bin/sanoma"), '#!/bin/sh\necho "the company\'s CLI: $*"\n', { mode: 0o755 });
    const ran = await server.request("sanoma/boxes/preview", { root, file: "workflows/w.ts", export: "w", wait: true }, 30000);
    assert.equal(ran.result.stdout, "the company's CLI: preview workflows/w.ts#w\n");
  }, { initializationOptions: { boxesDir: dir }, folders: [root], idle: false });
});

test("boxes over stdio: the code lens's command (workspace/executeCommand sanoma.preview) that cannot preview answers an error with the preview's sentence, not a null that reads as done", async () => {
  const root = smallCompany();
  const dir = join(work, "boxes-lens");
  await withServer([], async ({ c: server }) => {
    const file = join(root, "workflows/w.ts");
    const preview = (args: unknown[]) => server.request("workspace/executeCommand", { command: "sanoma.preview", arguments: args }, 10000);
    await assert.rejects(preview([{ uri: uri(file), export: "w" }]), { code: -32602, message: /^the Sanoma CLI is not installed: there is no node_modules\/\.bin\/sanoma in / });
    await assert.rejects(preview([{ uri: uri(file), export: "nope" }]), { code: -32602, message: "nope is no exported workflow of workflows/w.ts (its workflows: w)" });
    await assert.rejects(preview([]), { code: -32602, message: "sanoma.preview takes one argument, { uri, export }: the code lens's" });
    // The lens follows the editor's text; the preview copies what is saved: the refusal says why.
    server.open(file, "export const w = async () => 1;\nexport const fresh = async () => 2;\n");
    const lenses = await server.request("textDocument/codeLens", { textDocument: { uri: uri(file) } });
    assert.deepEqual(lenses.map((l: any) => l.command.arguments[0].export), ["w", "fresh"]);
    await assert.rejects(preview([lenses[1].command.arguments[0]]), { code: -32602, message: "fresh is no exported workflow of workflows/w.ts (its workflows: w) (a preview runs the files as saved, and w.ts has unsaved changes)" });
    // A workflow source saved broken (A11): Sanoma cannot load it; the preview says where, before
    // anything is made (the CLI is there now: nothing else would stop it).
    server.close(file);
    mkdirSync(join(root, "node_modules/.bin"), { recursive: true });
    writeFileSync(join(root, "node_modules/.bin/sanoma"), "#!/bin/sh\necho ran\n", { mode: 0o755 });
    writeFileSync(file, "export const w = async () => {\n  return 1;\n");
    await assert.rejects(preview([{ uri: uri(file), export: "w" }]), { code: -32602, message: "workflows/w.ts does not parse ('}' expected., at line 3): Sanoma cannot load it, so there is nothing to preview until it parses" });
    assert.deepEqual(readdirSync(dir), [], "no box was made");
  }, { initializationOptions: { boxesDir: dir }, folders: [root] });
});
