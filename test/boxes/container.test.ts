/**
 * The `container` tier on the real engine (podman, installed by scripts/setup-test-env.sh), and
 * provisioning failures as the run's root cause in every tier (issue 21). Few tests, each doing
 * several things: a container costs about half a second to make.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as path from "node:path";
import { Box, boxesLabel } from "../../server/src/boxes/box.ts";
import { BoxService } from "../../server/src/boxes/service.ts";
import { Supervisor } from "../../server/src/boxes/supervisor.ts";
import { chooseTier, NO_ENGINE } from "../../server/src/boxes/tiers.ts";
import { cleanupTempDirs, processesWith, tempDir, token, waitFor, writeTree } from "./helpers.ts";

after(cleanupTempDirs);

const services: BoxService[] = [];
after(async () => {
  for (const s of services) await s.dispose();
});

function service(options: ConstructorParameters<typeof BoxService>[0] = {}): BoxService {
  const boxes = new BoxService({ boxesDir: tempDir(), tier: "container", ...options });
  services.push(boxes);
  return boxes;
}

/** Names of the containers whose name is the box's (`sanoma-box-<tag>`), made by any boxes folder: those the box's own. */
function containerNames(): string[] {
  const r = spawnSync("podman", ["ps", "--all", "--format", "{{.Names}}"], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.split("\n").filter((n) => n.startsWith("sanoma-box-"));
}

describe("the container tier, on podman", () => {
  test("podman is installed (scripts/setup-test-env.sh), and the setting takes the tier as asked", () => {
    const choice = chooseTier("container");
    assert.equal(choice.tier, "container");
    assert.equal(choice.engine?.name, "podman", `the container tier needs podman here: ${choice.reason}`);
  });

  test("a run: output, stdin, env, cwd, exit codes, 127, the small environment, no network but loopback, a file in the home", async () => {
    const boxes = service();
    const before = containerNames();
    process.env.SANOMA_BOX_TEST_MARKER = "editor-secret";
    try {
      const opened = await boxes.open({ name: "c" });
      assert.equal(opened.tier, "container");
      assert.equal(containerNames().length, before.length + 1, "open makes the box's container");
      await boxes.run({ name: "c", command: "mkdir -p sub", wait: true });
      const run = await boxes.run({ name: "c", command: "echo \"$FOO\"; pwd; cat; env | cut -d= -f1 | sort | tr '\\n' ' '; echo; ls /sys/class/net; echo made > made.txt; exit 7", cwd: "sub", env: { FOO: "given" }, stdin: "from stdin\n", wait: true });
      assert.equal(run.tier, "container");
      const result = run.result!;
      assert.equal(result.exitCode, 7, result.stderr);
      assert.equal(result.error, undefined);
      const [foo, pwd, stdin, names, nets] = result.stdout.split("\n");
      assert.deepEqual([foo, pwd, stdin], ["given", path.join(opened.box.home, "sub"), "from stdin"]);
      assert.ok(!names!.includes("SANOMA_BOX_TEST_MARKER"), "the server's environment never reaches the box");
      assert.ok(names!.includes("HOME") && names!.includes("TMPDIR") && names!.includes("SANOMA_BOX_RUN"), names);
      assert.equal(nets, "lo", "no network but loopback");
      assert.equal(fs.readFileSync(path.join(opened.box.home, "sub/made.txt"), "utf8"), "made\n");
      const missing = await boxes.run({ name: "c", command: "no-such-command-sanoma-test", wait: true });
      assert.equal(missing.result?.exitCode, 127);
      assert.match(missing.result!.stderr, /not found/);
      assert.equal(missing.result?.error, undefined, "a command not found is the command's failure, not the box's");
      assert.equal(containerNames().length, before.length + 1, "one container for the box");
    } finally {
      delete process.env.SANOMA_BOX_TEST_MARKER;
    }
    await boxes.discard({ name: "c" });
  });

  test("stop ends what a run started with setsid and leaves no container; discard leaves no container and no home; nor does shutdown", async () => {
    const boxes = service();
    const before = containerNames();
    const t = token("ctr");
    const started = await boxes.run({ name: "s", command: `setsid bash -c 'exec -a ${t} sleep 1000' & echo started`, wait: true });
    assert.equal(started.result?.stdout, "started\n");
    await waitFor(() => processesWith(t).length > 0, 15_000, "the setsid sleep");
    await boxes.stop({ name: "s" });
    await waitFor(() => processesWith(t).length === 0, 5_000, "the sleep's end");
    assert.deepEqual(containerNames(), before, "no container after stop");
    // The next run makes it again; discard removes it and the home.
    assert.equal((await boxes.run({ name: "s", command: "echo again", wait: true })).result?.stdout, "again\n");
    assert.equal(containerNames().length, before.length + 1);
    // A container removed by hand: the next run says what the engine said, the one after makes it again.
    const [made] = containerNames().filter((n) => !before.includes(n));
    spawnSync("podman", ["rm", "--force", "--time", "0", made!]);
    const refused = await boxes.run({ name: "s", command: "echo never", wait: true });
    assert.match(refused.result?.error ?? "", /^podman could not run the command in the box's container: .*no (such )?container/i);
    assert.equal((await boxes.run({ name: "s", command: "echo remade", wait: true })).result?.stdout, "remade\n");
    await boxes.discard({ name: "s" });
    assert.deepEqual(containerNames(), before, "no container after discard");
    assert.equal(fs.existsSync(path.join(boxes.boxesDir, "s")), false);
    // The server's shutdown: no container left either.
    await boxes.run({ name: "s", command: "sleep 1000" });
    await waitFor(() => containerNames().length === before.length + 1, 15_000, "the container");
    await boxes.dispose();
    assert.deepEqual(containerNames(), before, "no container after the service's shutdown");
  });

  test("a run stopped is recorded as the other tiers record it (the engine's exec, signalled itself, ended 0: a stopped run read as a success)", async () => {
    const boxes = service();
    let ready = new Set<string>();
    boxes.onEvent((e) => { if (e.kind === "output" && e.runId !== undefined && e.text.includes("ready")) ready.add(e.runId); });
    /** Runs `setUp` (which prints `ready` once its traps are set and its child started), stops it, and gives what the run's record says. */
    const stopped = async (setUp: string) => {
      ready = new Set();
      const { runId } = await boxes.run({ name: "st", command: setUp });
      await waitFor(() => ready.has(runId), 15_000, "the run set up");
      await boxes.stop({ name: "st", runId });
      const info = (await boxes.runs({ name: "st" })).runs.find((r) => r.runId === runId)!;
      return [info.state, info.exitCode, info.signal];
    };
    assert.deepEqual(await stopped("echo ready; exec sleep 1000"), ["exited", 143, "SIGTERM"], "a command TERM ends");
    assert.deepEqual(await stopped("trap 'exit 0' TERM; sleep 1000 & echo ready; wait"), ["exited", 0, null], "a command that ends well on TERM");
    assert.deepEqual(await stopped("trap '' TERM; echo ready; exec sleep 1000"), ["exited", 137, "SIGKILL"], "a command that ignores TERM, killed");
    await boxes.discard({ name: "st" });
  });

  test("a port a run listens on in the container is announced, and reachable from this machine on loopback", async () => {
    const boxes = service();
    const port = 20000 + Math.floor(Math.random() * 20000);
    const events: { port: number; url: string }[] = [];
    boxes.onEvent((e) => e.kind === "port" && events.push({ port: e.port, url: e.url }));
    await boxes.run({ name: "p", command: `node -e 'require("http").createServer((q, r) => r.end("from the box")).listen(${port}, "127.0.0.1")' & echo listening`, wait: true });
    await waitFor(() => events.length > 0, 15_000, "the port event");
    assert.equal(events[0]!.port, port);
    const body = await (await fetch(events[0]!.url)).text();
    assert.equal(body, "from the box");
    assert.equal((await boxes.expose({ name: "p", port })).url, events[0]!.url);
    const [run] = (await boxes.runs({ name: "p" })).runs;
    assert.deepEqual(run?.ports, [port]);
    await boxes.stop({ name: "p" });
    await assert.rejects(fetch(events[0]!.url), "the bridge goes with the container");
  });

  test("a port's bridge trusts nothing the box wrote: a link for its folder removes no file of this machine's, and a link for its socket reaches no socket of this machine's", async () => {
    const boxes = service();
    const base = tempDir();
    const port = 20000 + Math.floor(Math.random() * 20000);
    // A file of this machine's where a link the box makes for the old `.ports` folder would lead.
    const victim = path.join(base, "victim");
    fs.mkdirSync(victim);
    fs.writeFileSync(path.join(victim, `${port}.sock`), "not the box's\n");
    // A socket of this machine's (an ssh agent, an engine's API) the box would have the bridge reach.
    const hostSocket = path.join(base, "host.sock");
    const reached: string[] = [];
    const host = net.createServer((c) => { reached.push("connection"); c.on("data", (d) => reached.push(String(d))); c.end("HOST SECRET"); });
    await new Promise<void>((resolve) => host.listen(hostSocket, resolve));
    try {
    const events: { port: number; url: string }[] = [];
    boxes.onEvent((e) => e.kind === "port" && events.push({ port: e.port, url: e.url }));
    await boxes.run({
      name: "pb",
      command: `ln -sfn ${victim} "$TMPDIR/.ports"; node -e 'require("http").createServer((q, r) => r.end("from the box")).listen(${port}, "127.0.0.1")' &
        until ls "$TMPDIR"/.port*/${port}.sock >/dev/null 2>&1; do sleep 0.05; done
        s=$(ls "$TMPDIR"/.port*/${port}.sock | head -1); rm -f "$s"; ln -s ${hostSocket} "$s"; echo swapped > swapped; wait`,
    });
    await waitFor(() => events.length > 0, 15_000, "the port event");
    const opened = await boxes.open({ name: "pb" });
    await waitFor(() => fs.existsSync(path.join(opened.box.home, "swapped")), 15_000, "the box's swap of the socket for a link");
    const answer = await fetch(events[0]!.url).then((r) => r.text(), (e: Error) => `refused: ${e.message}`);
    assert.match(answer, /^refused/, "nothing answers through the link");
    assert.deepEqual(reached, [], "the socket of this machine's was never connected to");
    assert.equal(fs.readFileSync(path.join(victim, `${port}.sock`), "utf8"), "not the box's\n", "the file of this machine's is still there");
    await boxes.discard({ name: "pb" });
    } finally {
      host.close();
    }
  });

  test("a container mounts the node_modules of the company the box was synced from, read-only, never the folder the box's own link names", async () => {
    const boxes = service();
    const root = tempDir();
    writeTree(root, "//- /sanoma.config.ts\nexport default {};\n//- /workflows/w.ts\nexport const w = async () => 1;\n//- /node_modules/pkg/index.js\nmodule.exports = 'pkg-here';\n");
    const secret = path.join(tempDir(), "host-private");
    fs.mkdirSync(secret);
    fs.writeFileSync(path.join(secret, "key"), "HOST-PRIVATE-KEY\n");
    const preview = await boxes.preview({ root, file: "workflows/w.ts", export: "w", command: "cat node_modules/pkg/index.js; touch node_modules/pkg/x 2>/dev/null && echo writable || echo read-only", wait: true });
    assert.equal(preview.result?.stdout, "module.exports = 'pkg-here';\nread-only\n", preview.result?.stderr);
    const planted = await boxes.run({ name: preview.name, command: `cat ${secret}/key 2>/dev/null || echo unseen; ln -sfn ${secret} node_modules`, wait: true });
    assert.equal(planted.result?.stdout, "unseen\n");
    await boxes.stop({ name: preview.name }); // the next run makes a new container
    const after = await boxes.run({ name: preview.name, command: `cat ${secret}/key 2>/dev/null || echo unseen; cat ${path.join(root, "node_modules/pkg/index.js")}`, wait: true });
    assert.equal(after.result?.stdout, "unseen\nmodule.exports = 'pkg-here';\n", "the company's node_modules is still mounted, the box's choice is not");
    await boxes.discard({ name: preview.name });
  });

  test("the memory limit is enforced (exit 137), and a run cancelled stops inside the container", async () => {
    const boxes = service({ container: { memoryMiB: 64 } });
    const hog = await boxes.run({ name: "m", command: "node -e 'const a = []; for (;;) a.push(Buffer.alloc(1 << 20, 1))'", wait: true });
    assert.equal(hog.result?.exitCode, 137, hog.result?.stderr);
    const t = token("cancel");
    const abort = new AbortController();
    const running = boxes.run({ name: "m", command: `exec -a ${t} sleep 1000`, wait: true }, abort.signal);
    await waitFor(() => processesWith(t).length > 0, 15_000, "the sleep");
    abort.abort();
    const ended = await running;
    assert.equal(ended.result?.exitCode, 143);
    await waitFor(() => processesWith(t).length === 0, 5_000, "the sleep's end");
  });

  test("a run stopped while the engine's exec sets its command up is recorded as stopped, not as the engine's failure, and nothing of it starts there later", async () => {
    const boxes = service();
    await boxes.open({ name: "early" });
    // The window is some tens of milliseconds after the exec starts: several stops across it.
    const tokens: string[] = [];
    for (const ms of [40, 80, 100, 120, 140, 160, 80, 100, 120]) {
      const t = token("early");
      tokens.push(t);
      const abort = new AbortController();
      const running = boxes.run({ name: "early", command: `exec -a ${t} sleep 1000`, wait: true }, abort.signal);
      await new Promise((r) => setTimeout(r, ms));
      abort.abort();
      const ended = await running;
      assert.deepEqual([ended.result?.exitCode, ended.result?.signal, ended.result?.error], [143, "SIGTERM", undefined], `stopped ${ms} ms after it was asked for`);
    }
    await new Promise((r) => setTimeout(r, 2600)); // past the last look for a late start
    assert.deepEqual(tokens.flatMap((t) => processesWith(t)), [], "nothing of the runs stopped lives on in the container");
    await boxes.discard({ name: "early" });
  });

  /** A server of its own (another process, the container tier) whose run is up; `t` marks what it runs. */
  async function killableServer(boxesDir: string, t: string) {
    const serviceTs = path.join(import.meta.dirname, "..", "..", "server", "src", "boxes", "service.ts");
    const other = spawn(process.execPath, ["--import", "tsx", "-e", `
      import(${JSON.stringify(serviceTs)}).then(async (m) => {
        const BoxService = m.BoxService ?? m.default.BoxService;
        const boxes = new BoxService({ boxesDir: ${JSON.stringify(boxesDir)}, tier: "container" });
        // Said once the command runs in its container (its first output).
        boxes.onEvent((e) => e.kind === "output" && process.stdout.write("running\\n"));
        await boxes.run({ name: "k", command: "echo up; exec -a ${t} sleep 1000" });
        setInterval(() => {}, 1000);
      });
    `], { stdio: ["ignore", "pipe", "inherit"] });
    await new Promise<void>((resolve, reject) => {
      other.stdout!.on("data", (d: Buffer) => d.toString().includes("running") && resolve());
      other.on("exit", (code) => reject(new Error(`the other server exited ${code}`)));
    });
    await waitFor(() => processesWith(t).length > 0, 15_000, "the other server's run");
    return other;
  }
  const ofFolder = (boxesDir: string) => spawnSync("podman", ["ps", "--all", "--filter", `label=sanoma.boxes=${boxesLabel(boxesDir)}`, "--format", "{{.Names}}"], { encoding: "utf8" }).stdout.trim();

  test("a server killed outright: its watchdog (the reaper) removes its container, with what it ran", async () => {
    const boxesDir = tempDir();
    const t = token("killed");
    const other = await killableServer(boxesDir, t);
    assert.match(ofFolder(boxesDir), /^sanoma-box-[0-9a-f]{16}$/, "its container");
    other.kill("SIGKILL");
    await new Promise((r) => other.once("exit", r));
    await waitFor(() => ofFolder(boxesDir) === "", 20_000, "the container removed by the reaper, no server having started since");
    await waitFor(() => processesWith(t).length === 0, 5_000, "what it ran");
  });

  test("a server and its reaper both killed outright: the next server removes their container, with what it ran", async () => {
    const boxesDir = tempDir();
    const t = token("killed");
    const other = await killableServer(boxesDir, t);
    // Its reaper first (the mark and the server's pid in its arguments), then the server.
    const reapers = spawnSync("pgrep", ["-f", `sanoma-box-reaper ${other.pid}$`], { encoding: "utf8" }).stdout.trim().split("\n").filter(Boolean).map(Number);
    assert.equal(reapers.length, 1, "the server's reaper");
    process.kill(reapers[0], "SIGKILL");
    other.kill("SIGKILL");
    await new Promise((r) => other.once("exit", r));
    const left = ofFolder(boxesDir);
    assert.match(left, /^sanoma-box-[0-9a-f]{16}$/, "the killed server left its container");
    const next = service({ boxesDir });
    assert.deepEqual(await next.reaping(), [left], "the next server removes it");
    assert.equal(ofFolder(boxesDir), "");
    await waitFor(() => processesWith(t).length === 0, 5_000, "what it ran");
  });
});

describe("provisioning failures are the run's root cause, in every tier", () => {
  test("container: an image that is not there, or no engine at all: the run ends at once with the error, and no output", async () => {
    const boxes = service({ container: { image: "localhost/sanoma-no-such-image:0" } });
    const events: string[] = [];
    boxes.onEvent((e) => events.push(e.kind));
    const run = await boxes.run({ name: "i", command: "echo never", wait: true });
    assert.equal(run.result?.exitCode, 127);
    assert.match(run.result!.error!, /^the box's container could not be made ready: podman run failed: .*sanoma-no-such-image/);
    assert.equal(run.result?.stdout, "");
    assert.deepEqual(events, ["start", "exit"], "the command's output never appears for a run that never started");
    const [listed] = (await boxes.runs({ name: "i" })).runs;
    assert.equal(listed?.error, run.result?.error, "runs shows it");
    const exit = (await boxes.events({ name: "i" })).events.at(-1)!;
    assert.ok(exit.kind === "exit" && exit.error === run.result?.error, "and the exit event");

    const box = new Box({ boxesDir: tempDir(), tier: { tier: "container", reason: NO_ENGINE }, supervisor: new Supervisor(), onEvent: () => {}, onStateChange: () => {} }, "n");
    const none = await box.run("echo never");
    assert.deepEqual([none.exitCode, none.error, none.stdout], [127, NO_ENGINE, ""]);
  });

  test("namespace: bubblewrap that cannot make the box's namespaces is the error, its words not passed off as output", async () => {
    const boxes = new BoxService({ boxesDir: tempDir(), tier: "namespace" });
    services.push(boxes);
    const box = boxes.box("b");
    // The box's temporary folder gone between the run's start and bubblewrap's: it cannot bind it.
    const tmp = path.join(boxes.boxesDir, ".tmp", "b");
    const result = await box.start("echo never", { prepare: async () => fs.rmSync(tmp, { recursive: true }) }).done;
    assert.equal(result.exitCode, 127);
    assert.match(result.error!, /^bubblewrap could not make the box's namespaces: bwrap: Can't find source path .*\.tmp\/b/);
    assert.equal(result.stderr, "");
  });

  test("a preview whose sync fails: the run is recorded with the sync's error, and the request says it", async () => {
    const root = path.join(tempDir(), "acme");
    writeTree(root, "//- /sanoma.config.ts\nexport default {};\n//- /workflows/w.ts\nexport const w = async () => 1;\n");
    const boxes = new BoxService({ boxesDir: tempDir(), tier: "process" });
    services.push(boxes);
    const first = await boxes.preview({ root, file: "workflows/w.ts", export: "w", command: "true", wait: true });
    // The sync's record cannot be written: a folder where its file goes.
    const manifest = path.join(boxes.boxesDir, ".runs", first.name, "sync.json");
    fs.rmSync(manifest);
    fs.mkdirSync(manifest);
    fs.writeFileSync(path.join(manifest, "x"), "");
    await assert.rejects(boxes.preview({ root, file: "workflows/w.ts", export: "w", command: "echo never" }), /^Error: the box could not be made ready: .*sync\.json/);
    const [last] = (await boxes.runs({ name: first.name })).runs;
    assert.equal(last?.command, "echo never");
    assert.match(last!.error!, /^the box could not be made ready: .*sync\.json/);
    assert.equal(last?.exitCode, 127);
  });
});
