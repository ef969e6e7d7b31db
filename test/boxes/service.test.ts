/**
 * `BoxService` as the language server calls it for `sanoma/boxes/*`: JSON in, JSON out, the B4
 * sentence for a refused name, the tier in force, live notifications, one run stopped alone,
 * bookkeeping deleted by hand, and `dispose()` ending every box's processes, in both tiers.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { isUtf8 } from "node:buffer";
import * as fs from "node:fs";
import * as path from "node:path";
import { spawn } from "node:child_process";
import { BoxService, DIFF_MAX_CHARS, DIFF_MAX_FILES } from "../../server/src/boxes/service.ts";
import type { BoxesChangedParams } from "../../server/src/protocol.ts";
import { TIERS, cleanupTempDirs, killAllWith, processesNamed, processesWith, tempDir, token, waitFor } from "./helpers.ts";

after(cleanupTempDirs);

describe("BoxService, either tier", () => {
  test("auto takes the namespace tier where bubblewrap works, and says why", async () => {
    const boxes = new BoxService({ boxesDir: tempDir() });
    try {
      const listed = await boxes.list();
      assert.equal(listed.tier, "namespace");
      assert.equal(listed.tierReason, "bubblewrap is installed");
      assert.deepEqual(listed.capabilities, { snapshot: true, pause: false, port: true });
      boxes.configure({ tier: "process" });
      assert.equal((await boxes.list()).tier, "process");
      assert.equal((await boxes.run({ name: "x", command: "true", wait: true })).tier, "process");
    } finally {
      await boxes.dispose();
    }
  });

  test("the tier is chosen when a box first needs it, not when the service starts (the server answers initialize without waiting for bubblewrap)", async () => {
    // A bwrap of our own first on PATH, which notes each time it runs: the probe runs it once.
    const bin = tempDir();
    const ran = path.join(bin, "ran");
    fs.writeFileSync(path.join(bin, "bwrap"), `#!/bin/sh\necho probe >> "${ran}"\nexit 0\n`, { mode: 0o755 });
    const pathBefore = process.env.PATH;
    process.env.PATH = `${bin}:${pathBefore}`;
    const boxes = new BoxService({ boxesDir: tempDir() });
    try {
      boxes.configure({ tier: "auto" });
      assert.equal(fs.existsSync(ran), false, "nothing probed yet");
      assert.deepEqual(boxes.tier, { tier: "namespace", reason: "bubblewrap is installed" });
      assert.equal(fs.readFileSync(ran, "utf8"), "probe\n", "probed once, when asked");
      void boxes.tier;
      assert.equal(fs.readFileSync(ran, "utf8"), "probe\n", "and only once");
    } finally {
      process.env.PATH = pathBefore;
      await boxes.dispose();
    }
  });

  test("a run that prints past the recording cap records one note, then nothing more, and goes on", async () => {
    const boxes = new BoxService({ boxesDir: tempDir(), tier: "process", maxRecordedBytes: 1000 });
    try {
      // 40 lines of 100 bytes, then a line on stderr: 4,100 bytes against a cap of 1,000.
      const command = "for i in $(seq 40); do printf '%099d\\n' $i; sleep 0.01; done; echo done >&2; exit 3";
      const run = await boxes.run({ name: "chatty", command, wait: true });
      assert.equal(run.result?.exitCode, 3, "the run went on to its end");
      assert.equal(run.result?.stdout.split("\n").filter(Boolean).length, 40, "the run's own result still has all of it");
      const events = (await boxes.events({ name: "chatty" })).events.filter((e) => e.runId === run.runId);
      const outputs = events.filter((e) => e.kind === "output");
      const note = outputs.at(-1)!;
      assert.ok(note.kind === "output" && note.stream === "stderr" && /printed more than 1000 bytes; the rest of its output is neither recorded nor shown/.test(note.text), JSON.stringify(note));
      const recorded = outputs.slice(0, -1).reduce((n, e) => n + (e.kind === "output" ? e.bytes : 0), 0);
      assert.ok(recorded > 0 && recorded <= 1000, `${recorded} bytes recorded`);
      assert.ok(!outputs.some((e) => e.kind === "output" && e.text.includes("done")), "nothing after the note");
      assert.equal(events.at(-1)!.kind, "exit");
    } finally {
      await boxes.dispose();
    }
  });

  test("one chunk of output that crosses the recording cap is recorded up to the cap, then the note", async () => {
    const boxes = new BoxService({ boxesDir: tempDir(), tier: "process", maxRecordedBytes: 1000 });
    try {
      const run = await boxes.run({ name: "burst", command: "printf '%05000d' 0", wait: true });
      const outputs = (await boxes.events({ name: "burst" })).events.filter((e) => e.kind === "output" && e.runId === run.runId);
      const recorded = outputs.slice(0, -1).reduce((n, e) => n + (e.kind === "output" ? e.bytes : 0), 0);
      assert.equal(recorded, 1000, "what fits is recorded, however the pipe batched it");
      assert.match((outputs.at(-1) as { text: string }).text, /printed more than 1000 bytes/);
    } finally {
      await boxes.dispose();
    }
  });

  test("a refused name is an error whose message is the B4 sentence", async () => {
    const boxes = new BoxService({ boxesDir: tempDir(), tier: "process" });
    try {
      for (const name of ["../x", ".hidden", "a/b", "", "x".repeat(256), "é".repeat(128)]) {
        for (const call of [() => boxes.open({ name }), () => boxes.run({ name, command: "true" }), () => boxes.discard({ name }), () => boxes.events({ name })]) {
          await assert.rejects(call, (error: Error) => error.message === `${name} is no box's name`);
        }
      }
      assert.deepEqual((await boxes.list()).boxes, []);
    } finally {
      await boxes.dispose();
    }
  });
});

for (const tier of TIERS) {
  describe(`BoxService, ${tier} tier`, () => {
    const tokens: string[] = [];
    after(() => {
      for (const t of tokens) killAllWith(t);
    });

    test("open, list, run, stop one run, discard, with change notifications", async () => {
      const boxes = new BoxService({ boxesDir: tempDir(), tier });
      const changes: BoxesChangedParams[] = [];
      boxes.onChanged((c) => changes.push(c));
      try {
        const opened = await boxes.open({ name: "work" });
        assert.equal(opened.created, true);
        assert.equal(opened.tier, tier);
        assert.equal(opened.box.home, path.join(boxes.boxesDir, "work"));
        assert.equal((await boxes.open({ name: "work" })).created, false);

        const long = await boxes.run({ name: "work", command: "sleep 600" });
        const other = await boxes.run({ name: "work", command: "sleep 600" });
        const listed = (await boxes.list()).boxes;
        assert.deepEqual(listed.map((b) => [b.name, b.state, b.liveRuns]), [["work", "running", 2]]);
        assert.equal((await boxes.stop({ name: "work", runId: long.runId })).stopped, 1);
        assert.equal((await boxes.list()).boxes[0]!.liveRuns, 1);
        assert.equal((await boxes.stop({ name: "work" })).stopped, 1);
        await waitFor(async () => (await boxes.list()).boxes[0]!.state === "idle");
        const runs = (await boxes.runs({ name: "work" })).runs;
        assert.deepEqual(runs.map((r) => r.runId).sort(), [long.runId, other.runId].sort());

        const cwdRun = await boxes.run({ name: "work", command: "mkdir -p sub && cd sub && pwd", wait: true });
        assert.equal(cwdRun.result?.stdout, `${opened.box.home}/sub\n`);
        assert.equal((await boxes.run({ name: "work", command: "pwd; echo $V", cwd: "sub", env: { V: "given" }, wait: true })).result?.stdout, `${opened.box.home}/sub\ngiven\n`);
        assert.equal((await boxes.expose({ name: "work", port: 3000 })).url, "http://127.0.0.1:3000");

        assert.deepEqual(await boxes.discard({ name: "work" }), { discarded: true });
        assert.deepEqual((await boxes.list()).boxes, []);
        assert.deepEqual(await boxes.discard({ name: "work" }), { discarded: false });
        await waitFor(() => changes.at(-1)?.state === "discarded");
        const states = changes.map((c) => c.state);
        for (const state of ["idle", "running", "discarded"] as const) assert.ok(states.includes(state), `${state} in ${states.join(",")}`);
      } finally {
        await boxes.dispose();
      }
    });

    test("dispose stops every box's processes, and the service refuses work after it", async () => {
      const boxes = new BoxService({ boxesDir: tempDir(), tier });
      const t = token("dispose");
      tokens.push(t);
      for (const name of ["one", "two"]) {
        await boxes.run({ name, command: '(exec -a "$T" sleep 1000) & echo', env: { T: t }, wait: true });
        await boxes.run({ name, command: 'exec -a "$T" sleep 1000', env: { T: t } });
      }
      await waitFor(() => processesWith(t).length === 4, 15_000, "four sleepers");
      await boxes.dispose();
      await waitFor(() => processesWith(t).length === 0, 15_000, "every sleeper to end");
      await assert.rejects(boxes.open({ name: "one" }), /stopped/);
    });

    test("bookkeeping deleted by hand is made again; events and runs keep answering", async () => {
      const boxes = new BoxService({ boxesDir: tempDir(), tier });
      try {
        await boxes.run({ name: "keep", command: "echo 1", wait: true });
        const before = await boxes.events({ name: "keep" });
        fs.rmSync(path.join(boxes.boxesDir, ".runs"), { recursive: true });
        fs.rmSync(path.join(boxes.boxesDir, ".tmp"), { recursive: true });
        assert.deepEqual((await boxes.events({ name: "keep" })).events, []);
        const again = await boxes.run({ name: "keep", command: "echo 2", wait: true });
        assert.equal(again.result?.stdout, "2\n");
        const after = await boxes.events({ name: "keep", cursor: before.cursor });
        assert.ok(after.events.length > 0 && after.events[0]!.seq === before.cursor + 1);
        assert.deepEqual((await boxes.runs({ name: "keep" })).runs.map((r) => r.runId), [again.runId]);
      } finally {
        await boxes.dispose();
      }
    });

    test("a run's parameters of the wrong kind are refused before anything starts (a stdin that was no text left its command running)", async () => {
      const boxes = new BoxService({ boxesDir: tempDir(), tier });
      const t = token("params");
      tokens.push(t);
      try {
        const bad: Record<string, unknown>[] = [{ stdin: 12345 }, { cwd: 7 }, { env: "X=1" }, { env: ["X"] }, { command: 42 }];
        for (const wrong of bad) {
          await assert.rejects(boxes.run({ name: "p", command: 'exec -a "$T" cat', env: { T: t }, ...wrong } as never), TypeError, JSON.stringify(wrong));
        }
        await new Promise((r) => setTimeout(r, 300));
        assert.deepEqual(processesWith(t), [], "nothing was started");
        assert.equal((await boxes.stop({ name: "p" })).stopped, 0);
      } finally {
        await boxes.dispose();
      }
    });

    // (In the namespace tier the stop's TERM ends the box's wrapper whatever the command traps.)
    if (tier === "process") test("a stop that ends in SIGKILL (the command ignores TERM) names SIGKILL", async () => {
      const boxes = new BoxService({ boxesDir: tempDir(), tier });
      try {
        const run = await boxes.run({ name: "stubborn", command: "trap '' TERM; echo ready; while :; do sleep 0.05; done" });
        await waitFor(async () => (await boxes.events({ name: "stubborn" })).events.some((e) => e.kind === "output" && e.text.includes("ready")));
        assert.equal((await boxes.stop({ name: "stubborn" })).stopped, 1);
        await waitFor(async () => (await boxes.events({ name: "stubborn" })).events.some((e) => e.kind === "exit" && e.runId === run.runId), 15_000, "the exit");
        const exit = (await boxes.events({ name: "stubborn" })).events.find((e) => e.kind === "exit" && e.runId === run.runId)!;
        assert.ok(exit.kind === "exit");
        assert.deepEqual([exit.exitCode, exit.signal], [137, "SIGKILL"]);
      } finally {
        await boxes.dispose();
      }
    });

    test("the whole boxes folder deleted by hand is made again by the next open", async () => {
      const boxes = new BoxService({ boxesDir: path.join(tempDir(), "boxes"), tier });
      try {
        await boxes.run({ name: "b", command: "true", wait: true });
        fs.rmSync(boxes.boxesDir, { recursive: true });
        assert.deepEqual((await boxes.list()).boxes, []);
        assert.equal((await boxes.open({ name: "b" })).created, true);
        assert.equal((await boxes.run({ name: "b", command: "echo ok", wait: true })).result?.stdout, "ok\n");
      } finally {
        await boxes.dispose();
      }
    });
  });
}

describe("BoxService: two servers and one boxes folder", () => {
  const serviceTs = path.join(import.meta.dirname, "..", "..", "server", "src", "boxes", "service.ts");
  /**
   * Another server on `boxesDir`: another process (a box's claim is its process's), whose `body`
   * runs with `boxes` its service and says "ready" when done; it then waits until killed.
   */
  async function otherServer(boxesDir: string, body: string) {
    const other = spawn(process.execPath, ["--import", "tsx", "-e", `
      import(${JSON.stringify(serviceTs)}).then(async (m) => {
        const BoxService = m.BoxService ?? m.default.BoxService;
        const boxes = new BoxService({ boxesDir: ${JSON.stringify(boxesDir)}, tier: "process" });
        ${body}
        process.stdout.write("ready\\n");
        setInterval(() => {}, 1000);
      });`], { stdio: ["ignore", "pipe", "inherit"] });
    let said = "";
    await new Promise<void>((resolve, reject) => { other.stdout!.on("data", (d) => { said += String(d); if (said.includes("ready")) resolve(); }); other.on("exit", (code) => reject(new Error(`the other server exited ${code}`))); });
    return Object.assign(other, { said: () => said.slice(0, said.indexOf("ready")) });
  }
  const ended = (other: ReturnType<typeof spawn>) => new Promise((resolve) => { if (other.exitCode !== null || other.signalCode !== null) resolve(undefined); else other.on("exit", resolve); });

  test("a box another live server runs in is not this server's to stop or discard, nor to end at its shutdown", async () => {
    const boxesDir = tempDir();
    const t = token("kept");
    const other = await otherServer(boxesDir, `await boxes.run({ name: "shared", command: "exec -a ${t} sleep 60" });`);
    const boxes = new BoxService({ boxesDir, tier: "process" });
    try {
      await waitFor(() => processesNamed(t).length > 0, 15_000, "the other server's command");
      const kept = new RegExp(`kept by another Sanoma language server \\(pid ${other.pid}\\)`);
      await assert.rejects(boxes.stop({ name: "shared" }), kept);
      await assert.rejects(boxes.discard({ name: "shared" }), kept);
      assert.ok(fs.existsSync(path.join(boxesDir, "shared")), "its home is left");
      assert.ok(fs.existsSync(path.join(boxesDir, ".runs", "shared", "runs.jsonl")), "and its record");
      assert.equal(processesNamed(t).length, 1, "its command runs on");
      await boxes.dispose();
      assert.equal(processesNamed(t).length, 1, "and this server's shutdown leaves it running");
      other.kill("SIGKILL");
      await ended(other);
      killAllWith(t);
      // Its server gone, the box is this server's to stop and discard.
      const next = new BoxService({ boxesDir, tier: "process" });
      try {
        assert.deepEqual(await next.discard({ name: "shared" }), { discarded: true });
      } finally {
        await next.dispose();
      }
    } finally {
      other.kill("SIGKILL");
      killAllWith(t);
      await boxes.dispose();
    }
  });

  test("a preview refused because another live server keeps its box changes nothing: that server's diff still compares its own company", async () => {
    const boxesDir = tempDir();
    const company = (name: string) => {
      const root = path.join(tempDir(), name);
      fs.mkdirSync(path.join(root, "workflows"), { recursive: true });
      fs.writeFileSync(path.join(root, "sanoma.config.ts"), "export default {};\n");
      fs.writeFileSync(path.join(root, "workflows", "w.ts"), "export const w = async () => 1;\n");
      fs.writeFileSync(path.join(root, "a.txt"), `${name}\n`);
      return root;
    };
    const x = company("x");
    const y = company("y");
    const other = await otherServer(boxesDir, `await boxes.preview({ root: ${JSON.stringify(x)}, file: "workflows/w.ts", export: "w", command: "echo from-preview > a.txt", wait: true });`);
    const boxes = new BoxService({ boxesDir, tier: "process" });
    try {
      await assert.rejects(boxes.preview({ root: y, file: "workflows/w.ts", export: "w", command: "true", wait: true }), new RegExp(`kept by another Sanoma language server \\(pid ${other.pid}\\)`));
      assert.equal((await boxes.list()).boxes.find((b) => b.name === "root-w")?.preview?.root, x, "the box still previews x");
      const diff = await boxes.diff({ name: "root-w" });
      assert.deepEqual([diff.root, diff.files.map((f) => `${f.path} ${f.change}`)], [x, ["a.txt modified"]], "the box's change, against x");
      assert.equal(fs.readFileSync(path.join(boxesDir, "root-w", "a.txt"), "utf8"), "from-preview\n");
    } finally {
      other.kill("SIGKILL");
      await ended(other);
      await boxes.dispose();
    }
  });

  test("reading a box's events and runs claims nothing: the server that writes it comes back and goes on", async () => {
    const boxesDir = tempDir();
    const writer = async (text: string) => {
      const other = await otherServer(boxesDir, `const run = await boxes.run({ name: "b1", command: "echo ${text}", wait: true }); if (run.result.stdout !== "${text}\\n") throw new Error("no output"); await boxes.dispose();`);
      other.kill("SIGKILL");
      await ended(other);
    };
    await writer("first");
    const boxes = new BoxService({ boxesDir, tier: "process" });
    try {
      const read = await boxes.events({ name: "b1" });
      assert.deepEqual(read.events.map((e) => e.kind), ["start", "output", "exit"]);
      assert.notEqual(read.logId, "");
      assert.equal((await boxes.runs({ name: "b1" })).runs.length, 1);
      assert.equal(fs.existsSync(path.join(boxesDir, ".runs", "b1", "writer.json")), false, "no claim made by reading");
      await writer("second"); // (refused, it would throw: the other server exits)
      const next = await boxes.events({ name: "b1", cursor: read.cursor });
      assert.deepEqual([next.logId, next.events.map((e) => e.kind === "output" ? e.text : e.kind)], [read.logId, ["start", "second\n", "exit"]], "and this reader sees what it appended since");
      assert.deepEqual(next.events.map((e) => e.seq), [4, 5, 6]);
    } finally {
      await boxes.dispose();
    }
  });

  test("a run another live server runs is running, and its box too; a run left by a server gone is lost, whoever keeps the box since", async () => {
    const boxesDir = tempDir();
    const t = token("theirs");
    const other = await otherServer(boxesDir, `await boxes.run({ name: "b1", command: "exec -a ${t} sleep 60" });`);
    const boxes = new BoxService({ boxesDir, tier: "process" });
    try {
      await waitFor(() => processesNamed(t).length > 0, 15_000, "the other server's command");
      assert.deepEqual((await boxes.runs({ name: "b1" })).runs.map((r) => [r.runId, r.state]), [["run-1", "running"]]);
      assert.deepEqual((await boxes.list()).boxes.map((b) => [b.name, b.state, b.liveRuns, b.lastRun?.state]), [["b1", "running", 1, "running"]]);
      // Gone (killed outright), its run is lost; this server takes the box over and keeps it.
      other.kill("SIGKILL");
      await ended(other);
      await waitFor(() => processesNamed(t).length === 0, 15_000, "its watchdog ending its command");
      assert.deepEqual((await boxes.list()).boxes.map((b) => [b.name, b.state, b.liveRuns, b.lastRun?.state]), [["b1", "idle", 0, "lost"]]);
      await boxes.run({ name: "b1", command: "true", wait: true });
      // A third server, seeing this one keep the box, still reads run-1 as lost.
      const third = await otherServer(boxesDir, `process.stdout.write(JSON.stringify((await boxes.runs({ name: "b1" })).runs.map((r) => [r.runId, r.state])));`);
      try {
        assert.deepEqual(JSON.parse(third.said()), [["run-2", "exited"], ["run-1", "lost"]]);
      } finally {
        third.kill("SIGKILL");
        await ended(third);
      }
    } finally {
      other.kill("SIGKILL");
      killAllWith(t);
      await boxes.dispose();
    }
  });

  test("a box whose record another live server keeps is refused with that server's pid, still listed, and taken over once that server is gone", async () => {
    const boxesDir = tempDir();
    const service = path.join(import.meta.dirname, "..", "..", "server", "src", "boxes", "service.ts");
    // The other server: another process that runs in the box "shared", then waits.
    const other = spawn(process.execPath, ["--import", "tsx", "-e", `
      import(${JSON.stringify(service)}).then(async (m) => {
        const BoxService = m.BoxService ?? m.default.BoxService;
        const boxes = new BoxService({ boxesDir: ${JSON.stringify(boxesDir)}, tier: "process" });
        await boxes.run({ name: "shared", command: "true", wait: true });
        process.stdout.write("ready\\n");
        setInterval(() => {}, 1000);
      });`], { stdio: ["ignore", "pipe", "inherit"] });
    const boxes = new BoxService({ boxesDir, tier: "process" });
    try {
      await new Promise<void>((resolve, reject) => { other.stdout!.on("data", (d) => { if (String(d).includes("ready")) resolve(); }); other.on("exit", (code) => reject(new Error(`the other server exited ${code}`))); });
      await assert.rejects(boxes.run({ name: "shared", command: "true", wait: true }), new RegExp(`kept by another Sanoma language server \\(pid ${other.pid}\\)`));
      assert.deepEqual((await boxes.list()).boxes.map((b) => b.name), ["shared"], "still listed");
      assert.equal((await boxes.run({ name: "mine", command: "echo mine", wait: true })).result?.stdout, "mine\n", "other boxes are this server's to use");
      other.kill("SIGKILL");
      await new Promise((resolve) => other.on("exit", resolve));
      const run = await boxes.run({ name: "shared", command: "echo taken", wait: true });
      assert.equal(run.result?.stdout, "taken\n");
      assert.equal((await boxes.runs({ name: "shared" })).runs.length, 2, "its record goes on");
    } finally {
      other.kill("SIGKILL");
      await boxes.dispose();
    }
  });
});

describe("BoxService: optional parameters as clients send them", () => {
  test("stop's runId: another type is refused, null is absent, an id of no run of the box is an error, a run that ended answers 0", async () => {
    const boxes = new BoxService({ boxesDir: tempDir(), tier: "process" });
    const t = token("stop-id");
    try {
      const run = await boxes.run({ name: "b1", command: `exec -a ${t} sleep 60` });
      const other = await boxes.run({ name: "b2", command: "true", wait: true });
      await waitFor(() => processesNamed(t).length > 0, 15_000, "the command");
      await assert.rejects(boxes.stop({ name: "b1", runId: 1 as never }), { message: "runId must be a run's id (text, such as run-12), or absent: 1 is not" });
      await assert.rejects(boxes.stop({ name: "b1", runId: "run-999" }), { message: "run-999 is no run of b1" });
      await assert.rejects(boxes.stop({ name: "b1", runId: other.runId === run.runId ? "run-2" : other.runId }), /is no run of b1$/);
      assert.equal(processesNamed(t).length, 1, "none of those stopped anything");
      assert.deepEqual(await boxes.stop({ name: "b2", runId: other.runId }), { stopped: 0 }, "a run that ended");
      assert.deepEqual(await boxes.stop({ name: "b1", runId: null as never }), { stopped: 1 }, "null: the whole box");
      assert.equal(processesNamed(t).length, 0);
    } finally {
      killAllWith(t);
      await boxes.dispose();
    }
  });

  test("events' cursor and limit: text is refused, as runs' since is; null is absent", async () => {
    const boxes = new BoxService({ boxesDir: tempDir(), tier: "process" });
    try {
      await boxes.run({ name: "b1", command: "echo one; echo two", wait: true });
      await assert.rejects(boxes.events({ name: "b1", cursor: "4" as never }), { message: `cursor must be a number (the seq of the last event seen), or absent: "4" is not` });
      await assert.rejects(boxes.events({ name: "b1", limit: "1" as never }), /^TypeError: limit must be a number, or absent/);
      await assert.rejects(boxes.runs({ name: "b1", since: "0" as never }), /since must be a number/);
      const all = await boxes.events({ name: "b1", cursor: null as never, limit: null as never });
      assert.equal(all.events[0]?.seq, 1);
      assert.deepEqual((await boxes.events({ name: "b1", cursor: 1, limit: 1 })).events.map((e) => e.seq), [2]);
    } finally {
      await boxes.dispose();
    }
  });
});

describe("BoxService: a preview's company and file", () => {
  test("a preview of a folder that is no company root, or of a file the company does not hold, is refused", async () => {
    const boxes = new BoxService({ boxesDir: tempDir(), tier: "process" });
    try {
      const base = tempDir();
      fs.mkdirSync(path.join(base, "co", "apps", "billing", "workflows"), { recursive: true });
      fs.writeFileSync(path.join(base, "co", "sanoma.config.ts"), "export default {};\n");
      fs.writeFileSync(path.join(base, "co", "apps", "billing", "workflows", "charge.ts"), "export const charge = 1;\n");
      await assert.rejects(boxes.preview({ root: path.join(base, "co", "apps", "billing"), file: "workflows/charge.ts", export: "charge" }), /is no company root \(it holds no sanoma\.config\.ts\)/);
      await assert.rejects(boxes.preview({ root: path.join(base, "co"), file: "apps/billing/workflows/nope.ts", export: "charge" }), /is no file of the company/);
      assert.deepEqual((await boxes.list()).boxes, [], "no box was made");
    } finally {
      await boxes.dispose();
    }
  });
});

describe("BoxService: a diff's answer has bounds", () => {
  async function previewBox() {
    const boxes = new BoxService({ boxesDir: tempDir(), tier: "process" });
    const root = path.join(tempDir(), "co");
    fs.mkdirSync(path.join(root, "workflows"), { recursive: true });
    fs.writeFileSync(path.join(root, "sanoma.config.ts"), "export default {};\n");
    fs.writeFileSync(path.join(root, "workflows", "w.ts"), "export const w = async () => 1;\n");
    const preview = await boxes.preview({ root, file: "workflows/w.ts", export: "w", command: "true", wait: true });
    return { boxes, root, name: preview.name, home: path.join(boxes.boxesDir, preview.name) };
  }

  test(`past ${DIFF_MAX_FILES} changes the rest is counted in omitted, and apply takes an omitted one by path`, async () => {
    const { boxes, root, name, home } = await previewBox();
    try {
      fs.mkdirSync(path.join(home, "gen"));
      for (let i = 0; i < DIFF_MAX_FILES + 7; i++) fs.writeFileSync(path.join(home, "gen", `f${String(i).padStart(5, "0")}.ts`), `export const f = ${i};\n`);
      const diff = await boxes.diff({ name });
      assert.equal(diff.files.length, DIFF_MAX_FILES);
      assert.equal(diff.omitted, 7);
      const last = `gen/f${String(DIFF_MAX_FILES + 6).padStart(5, "0")}.ts`;
      assert.equal(diff.files.some((f) => f.path === last), false, "the last one is not listed");
      assert.deepEqual(await boxes.apply({ name, files: [last] }), { root, applied: [last], skipped: [] });
      assert.equal(fs.readFileSync(path.join(root, last), "utf8"), `export const f = ${DIFF_MAX_FILES + 6};\n`);
    } finally { await boxes.dispose(); }
  });

  test("names that JSON writes six times as long (control characters, deep folders) are listed up to 16 MB of answer: it was dropped past V8's longest string, and the diff never answered", async () => {
    const { boxes, name, home } = await previewBox();
    try {
      // Twelve folders of 250 control characters each, and 400 files in the deepest: an entry is some 60 KB of JSON.
      const folders = Array.from({ length: 12 }, (_, i) => String.fromCharCode(1 + i).repeat(250));
      const deep = path.join(home, ...folders);
      fs.mkdirSync(deep, { recursive: true });
      for (let i = 0; i < 400; i++) fs.writeFileSync(path.join(deep, `${"\u0002".repeat(240)}${i}`), "x");
      const diff = await boxes.diff({ name });
      const chars = JSON.stringify(diff).length;
      assert.ok(chars <= DIFF_MAX_CHARS + 100_000, `${chars} characters`);
      assert.ok(diff.files.length > 100 && diff.files.length < 400, `${diff.files.length} listed`);
      assert.equal(diff.files.length + diff.omitted!, 400);
    } finally { await boxes.dispose(); }
  });
});

describe("BoxService: a tree deeper than PATH_MAX in a box", () => {
  /** `levels` nested folders named `d` under `top`, made through descriptors (a path that long cannot be named whole), and a file at the bottom. */
  function deepChain(top: string, levels: number): void {
    let dir = fs.openSync(top, "r");
    for (let i = 0; i < levels; i++) {
      fs.mkdirSync(`/proc/self/fd/${dir}/d`);
      const next = fs.openSync(`/proc/self/fd/${dir}/d`, "r");
      fs.closeSync(dir);
      dir = next;
    }
    fs.writeFileSync(`/proc/self/fd/${dir}/bottom.txt`, "x");
    fs.closeSync(dir);
  }

  /** A company whose one workflow source exports `w`. */
  function oneWorkflowCompany(): string {
    const root = path.join(tempDir(), "co");
    fs.mkdirSync(path.join(root, "workflows"), { recursive: true });
    fs.writeFileSync(path.join(root, "sanoma.config.ts"), "export default {};\n");
    fs.writeFileSync(path.join(root, "workflows", "w.ts"), "export const w = async () => 1;\n");
    return root;
  }

  test("is removed by discard (it failed for good, ENAMETOOLONG or out of stack, home and log left), and by a preview's reset where the workspace has a file in its place", async () => {
    const boxes = new BoxService({ boxesDir: tempDir(), tier: "process" });
    try {
      const root = oneWorkflowCompany();
      fs.writeFileSync(path.join(root, "lib"), "a file here in the workspace\n");
      const preview = await boxes.preview({ root, file: "workflows/w.ts", export: "w", command: "true", wait: true });
      const home = path.join(boxes.boxesDir, preview.name);
      fs.rmSync(path.join(home, "lib"));
      fs.mkdirSync(path.join(home, "lib"));
      deepChain(path.join(home, "lib"), 2100); // 4,200 characters of path below lib
      assert.throws(() => fs.rmSync(path.join(home, "lib"), { recursive: true, force: true }), Error, "what removed it before fails (ENAMETOOLONG, or its recursion runs out of stack)");
      const again = await boxes.preview({ root, file: "workflows/w.ts", export: "w", command: "true", wait: true, reset: true });
      assert.equal(again.result?.exitCode, 0);
      assert.equal(fs.readFileSync(path.join(home, "lib"), "utf8"), "a file here in the workspace\n", "reset: the workspace's file in the tree's place");
      fs.rmSync(path.join(home, "lib"));
      fs.mkdirSync(path.join(home, "lib"));
      deepChain(path.join(home, "lib"), 2100);
      await boxes.discard({ name: preview.name });
      assert.equal(fs.existsSync(home), false, "the home is gone");
      assert.deepEqual((await boxes.list()).boxes, [], "and the box with it");
    } finally { await boxes.dispose(); }
  });

  test("under a folder whose name is not UTF-8, a name not UTF-8 at its bottom: a reset removes it, and so does discard (both failed for good: rmSync on the bytes, then a string that names nothing)", async () => {
    const boxes = new BoxService({ boxesDir: tempDir(), tier: "process" });
    try {
      const root = oneWorkflowCompany();
      const preview = await boxes.preview({ root, file: "workflows/w.ts", export: "w", command: "true", wait: true });
      const home = path.join(boxes.boxesDir, preview.name);
      const deepUnnamed = () => {
        const top = Buffer.concat([Buffer.from(`${home}/`), Buffer.from([0xff])]);
        fs.mkdirSync(top);
        const fd = fs.openSync(top, "r");
        try {
          deepChain(`/proc/self/fd/${fd}`, 2100);
          fs.writeFileSync(Buffer.concat([Buffer.from(`/proc/self/fd/${fd}/`), Buffer.from([0xfe, 0x2e, 0x74, 0x73])]), "x");
        } finally { fs.closeSync(fd); }
      };
      deepUnnamed();
      const again = await boxes.preview({ root, file: "workflows/w.ts", export: "w", command: "true", wait: true, reset: true });
      assert.equal(again.result?.exitCode, 0, again.result?.error ?? again.result?.stderr);
      assert.deepEqual(fs.readdirSync(home, { encoding: "buffer" }).filter((n) => !isUtf8(n)), [], "reset: gone");
      deepUnnamed();
      await boxes.discard({ name: preview.name });
      assert.equal(fs.existsSync(home), false, "discard: the home is gone");
    } finally { await boxes.dispose(); }
  });
});

describe("BoxService: operations that race (found by a sweep)", () => {
  test("a run sent right after a discard starts on a fresh box, which stop ends; its events are numbered anew", async () => {
    const boxes = new BoxService({ boxesDir: tempDir(), tier: "process" });
    const marker = token("race");
    try {
      await boxes.run({ name: "r", command: "sleep 600", wait: false });
      // Both sent at once: the run is queued behind the discard.
      const [discarded, started] = await Promise.all([boxes.discard({ name: "r" }), boxes.run({ name: "r", command: `sleep 600; : ${marker}` })]);
      assert.equal(discarded.discarded, true);
      await waitFor(() => processesWith(marker).length > 0, 10_000, "the run to start");
      const listed = (await boxes.list()).boxes.find((b) => b.name === "r");
      assert.equal(listed?.state, "running", "the service knows the run it started");
      assert.equal(listed?.liveRuns, 1);
      assert.equal((await boxes.stop({ name: "r" })).stopped, 1);
      await waitFor(() => processesWith(marker).length === 0, 10_000, "the run to end");
      const events = (await boxes.events({ name: "r" })).events;
      assert.ok(events.length > 0 && events.every((e) => e.runId === started.runId), "only the new run's events");
      assert.deepEqual(events.map((e) => e.seq), events.map((_, i) => i + 1), "numbered from 1, one by one");
      assert.deepEqual((await boxes.events({ name: "r", limit: 0 })).events, [], "at most `limit` events, none for 0");
    } finally {
      await boxes.dispose();
      killAllWith(marker);
    }
  });

  test("a diff of a big box lets the event loop turn while it walks (the server goes on answering)", async () => {
    const boxes = new BoxService({ boxesDir: tempDir(), tier: "process" });
    const root = path.join(tempDir(), "acme");
    fs.mkdirSync(path.join(root, "workflows"), { recursive: true });
    fs.writeFileSync(path.join(root, "sanoma.config.ts"), "export default {};\n");
    fs.writeFileSync(path.join(root, "workflows", "w.ts"), "export const w = 1;\n");
    try {
      // The preview writes 12,000 files into its box.
      await boxes.preview({ root, file: "workflows/w.ts", export: "w", command: "mkdir out && cd out && seq 12000 | xargs touch", wait: true });
      let done = false;
      const diff = boxes.diff({ name: "root-w" }).then((d) => { done = true; return d; });
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(done, false, "the diff was not done in one go");
      const { files, omitted } = await diff;
      assert.deepEqual([files.length, omitted], [DIFF_MAX_FILES, 12000 - DIFF_MAX_FILES], "all 12,000 walked: the first listed, the rest counted");
    } finally {
      await boxes.dispose();
    }
  });

  test("two workflows whose box names come out alike: the second finds an exact copy, not the first's changes", async () => {
    const boxes = new BoxService({ boxesDir: tempDir(), tier: "process" });
    const root = path.join(tempDir(), "acme");
    for (const rel of ["apps/a-b/workflows/x.ts", "apps/a/workflows/y.ts"]) {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), "export const w = 1;\n");
    }
    fs.writeFileSync(path.join(root, "sanoma.config.ts"), "export default {};\n");
    try {
      const first = await boxes.preview({ root, file: "apps/a-b/workflows/x.ts", scope: "a-b", export: "c", command: "echo first > out.txt", wait: true });
      const second = await boxes.preview({ root, file: "apps/a/workflows/y.ts", scope: "a", export: "b-c", command: "ls", wait: true });
      assert.equal(first.name, "a-b-c");
      assert.equal(second.name, "a-b-c");
      assert.deepEqual(second.sync.kept, []);
      assert.ok(!second.result?.stdout.includes("out.txt"), second.result?.stdout);
      // The same workflow again keeps its own changes, as before.
      const again = await boxes.preview({ root, file: "apps/a/workflows/y.ts", scope: "a", export: "b-c", command: "echo again > mine.txt", wait: true });
      const third = await boxes.preview({ root, file: "apps/a/workflows/y.ts", scope: "a", export: "b-c", command: "ls", wait: true });
      assert.equal(again.result?.exitCode, 0);
      assert.ok(third.result?.stdout.includes("mine.txt"), third.result?.stdout);
    } finally {
      await boxes.dispose();
    }
  });

  test("a stop sent while a preview still syncs ends the preview once it starts", async () => {
    const boxes = new BoxService({ boxesDir: tempDir(), tier: "process" });
    const marker = token("stop-during-sync");
    const root = path.join(tempDir(), "acme");
    fs.mkdirSync(path.join(root, "workflows"), { recursive: true });
    fs.writeFileSync(path.join(root, "sanoma.config.ts"), "export default {};\n");
    for (let i = 0; i < 3000; i++) fs.writeFileSync(path.join(root, "workflows", `w${i}.ts`), `export const w${i} = ${i};\n`);
    try {
      const preview = boxes.preview({ root, file: "workflows/w1.ts", export: "w1", command: `sleep 600; : ${marker}` });
      const stopped = boxes.stop({ name: "root-w1" });
      await preview;
      assert.equal((await stopped).stopped, 1, "the stop came after the start it was queued behind");
      await waitFor(() => processesWith(marker).length === 0, 10_000, "the preview to end");
    } finally {
      await boxes.dispose();
      killAllWith(marker);
    }
  });
});
