/**
 * SPEC B4, every behaviour in both tiers, with real processes: group kill with a background child,
 * trailing output after exit, a run ending while its pipes stay open, kill never hitting a reused
 * group, 127, the environment, path escapes, names, stop then reopen, discard; and what only the
 * namespace tier ends (a `setsid` escapee) or refuses (writing the system).
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { Box } from "../../server/src/boxes/box.ts";
import { BoxNameError } from "../../server/src/boxes/names.ts";
import { BoxPathError } from "../../server/src/boxes/paths.ts";
import { isAlive } from "../../server/src/boxes/procfs.ts";
import { TIERS, cleanupTempDirs, killAllWith, makeBox, processesWith, tempDir, token, waitFor } from "./helpers.ts";

after(cleanupTempDirs);

for (const tier of TIERS) {
  describe(`Box, ${tier} tier`, () => {
    const boxes: Box[] = [];
    const tokens: string[] = [];
    const fresh = (name = "box") => {
      const made = makeBox(tier, name);
      boxes.push(made.box);
      return made;
    };
    after(async () => {
      for (const box of boxes) await box.stop({ graceMs: 200 });
      for (const t of tokens) killAllWith(t);
    });

    test("run reports the tier in force, the exit code and both streams", async () => {
      const { box } = fresh();
      const result = await box.run("echo out; echo err >&2; exit 3");
      assert.equal(result.tier, tier);
      assert.equal(result.exitCode, 3);
      assert.equal(result.signal, null);
      assert.equal(result.stdout, "out\n");
      assert.equal(result.stderr, "err\n");
    });

    test("stop kills the group, background children included", async () => {
      const { box } = fresh();
      const t = token("bg");
      tokens.push(t);
      const result = await box.run('(exec -a "$T" sleep 1000) & echo started', { env: { T: t } });
      assert.equal(result.stdout, "started\n");
      await waitFor(() => processesWith(t).length === 1, 15_000, "the background child");
      assert.equal(box.liveRuns().length, 1, "the run's group is still alive");
      assert.equal(await box.stop(), 1);
      await waitFor(() => processesWith(t).length === 0, 15_000, "the background child to end");
      assert.equal(box.liveRuns().length, 0);
    });

    test("output written right after the command exits is kept (the grace)", async () => {
      const { box } = fresh();
      // The background writer waits for its parent to exit, then writes at once.
      const result = await box.run("(while kill -0 $$ 2>/dev/null; do sleep 0.01; done; echo late) & echo early");
      assert.equal(result.stdout, "early\nlate\n");
      await box.stop({ graceMs: 200 });
    });

    test("a command that kills itself exits 128 + n, with no signal named: one is named only when we sent it", async () => {
      const { box } = fresh();
      const result = await box.run("kill -9 $$");
      assert.deepEqual([result.exitCode, result.signal], [137, null]);
    });

    test("an output event's bytes are its text's size, a character split across writes included", async () => {
      const { box, events } = fresh();
      await box.run("printf '\\303'; sleep 0.2; printf '\\251'; sleep 0.2; printf '\\377\\n'");
      const outputs = events.filter((e) => e.kind === "output") as Array<{ text: string; bytes: number }>;
      assert.equal(outputs.map((e) => e.text).join(""), "é\ufffd\n");
      for (const e of outputs) assert.equal(e.bytes, Buffer.byteLength(e.text), JSON.stringify(e));
    });

    test("what the command left running may print after the run ended, and goes on running (no SIGPIPE)", async () => {
      const { box } = fresh();
      const marker = path.join(box.home, "still-alive");
      const result = await box.run("(sleep 0.5; echo late; echo more >&2; touch still-alive) & echo early");
      assert.equal(result.stdout, "early\n");
      await waitFor(() => fs.existsSync(marker), 15_000, "the background process to print, then go on");
      await box.stop({ graceMs: 200 });
    });

    test("a run ends when its command exits, though a child holds its pipes", async () => {
      const { box } = fresh();
      const started = Date.now();
      const result = await box.run("sleep 600 & echo parent done");
      assert.equal(result.exitCode, 0);
      assert.equal(result.stdout, "parent done\n");
      assert.ok(Date.now() - started < 10_000, "the run did not wait for the child's pipes");
      assert.equal(await box.stop(), 1);
    });

    test("kill signals the run's group while it lives, and ends the run", async () => {
      const { box } = fresh();
      const handle = box.start("sleep 600");
      await waitFor(() => handle.pid !== undefined && isAlive(handle.pid));
      assert.equal(handle.kill("SIGTERM"), true);
      const result = await handle.done;
      assert.equal(result.exitCode, 128 + 15);
      assert.equal(result.signal, "SIGTERM");
    });

    test("an aborted signal ends the run", async () => {
      const { box } = fresh();
      const controller = new AbortController();
      const handle = box.start("sleep 600", { signal: controller.signal });
      await waitFor(() => handle.pid !== undefined && isAlive(handle.pid));
      controller.abort();
      assert.equal((await handle.done).signal, "SIGTERM");
    });

    test("kill does not hit a reused group: a stranger given the old group's id survives", async (t) => {
      const lastPid = "/proc/sys/kernel/ns_last_pid";
      try {
        fs.accessSync(lastPid, fs.constants.W_OK);
      } catch {
        t.skip("needs root to steer pid allocation through /proc/sys/kernel/ns_last_pid");
        return;
      }
      const { box } = fresh();
      // The first run starts the watchdog (server/src/boxes/reaper.ts), a Node process whose threads
      // take pids while it starts: it must be up before pids are steered below.
      await box.start("true").done;
      await new Promise((r) => setTimeout(r, 500));
      const handle = box.start("true");
      const old = handle.pid!;
      await handle.done;
      await waitFor(() => box.liveRuns().length === 0, 15_000, "the group to be known dead");
      // Make a process whose pid, and own group, is the old group's id.
      let stranger: ChildProcess | undefined;
      for (let attempt = 0; attempt < 200 && !stranger; attempt++) {
        fs.writeFileSync(lastPid, String(old - 1));
        const child = spawn("sleep", ["600"], { detached: true, stdio: "ignore" });
        if (child.pid === old) stranger = child;
        else child.kill("SIGKILL");
      }
      assert.ok(stranger, `could not get pid ${old} again (the machine forks too much)`);
      try {
        assert.equal(handle.kill("SIGKILL"), false);
        assert.equal(box.kill(handle.runId, "SIGKILL"), false);
        assert.equal(await box.stop({ graceMs: 100 }), 0);
        await new Promise((r) => setTimeout(r, 200));
        assert.ok(isAlive(old), "the stranger survived");
      } finally {
        stranger.kill("SIGKILL");
      }
    });

    test("a command that cannot start exits 127", async () => {
      const { box } = fresh();
      const missing = await box.run("no-such-command-sanoma-test");
      assert.equal(missing.exitCode, 127);
      assert.match(missing.stderr, /not found/);
      const noCwd = await box.run("true", { cwd: "no/such/folder" });
      assert.equal(noCwd.exitCode, 127);
      // It never started: the reason is the run's error, never passed off as the command's output.
      assert.equal(noCwd.error, "cannot start: no/such/folder does not exist");
      assert.equal(noCwd.stderr, "");
    });

    test("the environment is the small base under the caller's env, never ours", async () => {
      process.env.SANOMA_BOX_TEST_MARKER = "editor-secret";
      try {
        const { box } = fresh();
        const result = await box.run("env", { env: { GIVEN: "yes" } });
        const env = Object.fromEntries(result.stdout.trim().split("\n").map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));
        assert.equal(env.SANOMA_BOX_TEST_MARKER, undefined);
        assert.ok(!result.stdout.includes("editor-secret"));
        assert.equal(env.GIVEN, "yes");
        assert.equal(env.HOME, box.home);
        assert.ok(env.PATH?.startsWith(path.dirname(process.execPath) + ":"), env.PATH);
        const overridden = await box.run("echo $HOME", { env: { HOME: "/elsewhere" } });
        assert.equal(overridden.stdout, "/elsewhere\n", "the caller's env is laid over the base");
      } finally {
        delete process.env.SANOMA_BOX_TEST_MARKER;
      }
    });

    test("stdin is written to the command and closed", async () => {
      const { box } = fresh();
      assert.equal((await box.run("cat", { stdin: "fed\n" })).stdout, "fed\n");
      assert.equal((await box.run("cat")).stdout, "", "without stdin the command reads nothing");
    });

    test("read and write stay in the home: .., absolute paths and symlinks out are refused", async () => {
      const { box } = fresh();
      const outside = tempDir();
      fs.writeFileSync(path.join(outside, "secret.txt"), "outside");
      assert.equal(box.read("a.txt"), undefined, "a box never opened holds no file");
      box.write("a/b/c.txt", "deep");
      assert.equal(box.read("a/b/c.txt")?.toString(), "deep", "write makes parent folders");
      assert.equal(box.read("a/./b/c.txt")?.toString(), "deep");
      assert.equal(box.read("missing.txt"), undefined, "a missing file reads as nothing");
      box.write("tool.sh", "#!/bin/sh\necho tool\n", { mode: 0o755 });
      assert.equal(fs.statSync(path.join(box.home, "tool.sh")).mode & 0o777, 0o755);
      assert.equal((await box.run("./tool.sh")).stdout, "tool\n");

      for (const bad of ["../x", "a/../../x", "..", path.join(outside, "secret.txt"), "/etc/passwd"]) {
        assert.throws(() => box.read(bad), BoxPathError, `read ${bad}`);
        assert.throws(() => box.write(bad, "x"), BoxPathError, `write ${bad}`);
      }
      fs.symlinkSync(outside, path.join(box.home, "out"));
      fs.symlinkSync(path.join(outside, "secret.txt"), path.join(box.home, "secret-link"));
      fs.symlinkSync(path.join(outside, "not-there"), path.join(box.home, "dangling"));
      assert.throws(() => box.read("out/secret.txt"), BoxPathError);
      assert.throws(() => box.read("secret-link"), BoxPathError);
      assert.throws(() => box.write("out/new.txt", "x"), BoxPathError);
      assert.throws(() => box.write("secret-link", "x"), BoxPathError);
      assert.throws(() => box.write("dangling", "x"), BoxPathError);
      assert.equal(fs.readFileSync(path.join(outside, "secret.txt"), "utf8"), "outside");
      assert.ok(!fs.existsSync(path.join(outside, "new.txt")) && !fs.existsSync(path.join(outside, "not-there")));
      assert.throws(() => box.start("true", { cwd: "../" }), BoxPathError);
      assert.throws(() => box.start("true", { cwd: "out" }), BoxPathError);

      // A symlink that stays inside is fine.
      fs.symlinkSync("a/b", path.join(box.home, "inside"));
      assert.equal(box.read("inside/c.txt")?.toString(), "deep");
      box.write("inside/d.txt", "via link");
      assert.equal(fs.readFileSync(path.join(box.home, "a/b/d.txt"), "utf8"), "via link");
      assert.equal((await box.run("cat c.txt", { cwd: "inside" })).stdout, "deep");
    });

    test("names that are empty, hold a separator, are .. or start with . are refused", () => {
      const boxesDir = tempDir();
      const { ctx } = makeBox(tier, "ok", boxesDir);
      for (const bad of ["", "a/b", "../x", "..", ".hidden", ".", "a\\b"]) {
        assert.throws(() => new Box(ctx, bad), (error: unknown) => error instanceof BoxNameError && error.message === `${bad} is no box's name`, bad);
      }
      assert.deepEqual(fs.readdirSync(boxesDir), [], "nothing was made for a refused name");
      assert.equal(new Box(ctx, "fine-name_1.2").name, "fine-name_1.2");
    });

    test("stop then reopen keeps the home's files", async () => {
      const boxesDir = tempDir();
      const first = makeBox(tier, "keep", boxesDir).box;
      boxes.push(first);
      await first.run("echo kept > file.txt; sleep 600 & echo");
      assert.equal(await first.stop(), 1);
      const again = makeBox(tier, "keep", boxesDir).box;
      boxes.push(again);
      assert.equal(again.open().created, false);
      assert.equal(again.read("file.txt")?.toString(), "kept\n");
      assert.equal((await again.run("cat file.txt")).stdout, "kept\n");
    });

    test("discard stops the box and removes its home and its log", async () => {
      const { box, ctx } = fresh("gone");
      const t = token("discard");
      tokens.push(t);
      await box.run('(exec -a "$T" sleep 1000) & echo > here.txt', { env: { T: t } });
      await waitFor(() => processesWith(t).length === 1);
      await box.discard();
      await waitFor(() => processesWith(t).length === 0, 15_000, "the box's processes to end");
      assert.equal(fs.existsSync(box.home), false);
      assert.equal(fs.existsSync(path.join(ctx.boxesDir, ".runs", "gone")), false);
      assert.equal(fs.existsSync(path.join(ctx.boxesDir, ".tmp", "gone")), false);
    });

    test("a home deleted by hand is made again by the next run", async () => {
      const { box } = fresh();
      await box.run("echo one > one.txt");
      fs.rmSync(box.home, { recursive: true, force: true });
      const result = await box.run("ls; echo two > two.txt");
      assert.equal(result.exitCode, 0);
      assert.equal(box.read("two.txt")?.toString(), "two\n");
    });

    test("expose gives a loopback URL and capabilities say snapshot, no pause, port", () => {
      const { box } = fresh();
      assert.equal(box.expose(8123), "http://127.0.0.1:8123");
      assert.throws(() => box.expose(0), RangeError);
      assert.deepEqual({ ...box.capabilities }, { snapshot: true, pause: false, port: true });
    });

    test("a port a run listens on is reported as a port event and reachable at its URL", async () => {
      const { box, events } = fresh();
      box.write("serve.js", "require('http').createServer((q, s) => s.end('from the box')).listen(0, '127.0.0.1', function () { console.log('port ' + this.address().port); });\n");
      const handle = box.start("node serve.js");
      await waitFor(() => events.some((e) => e.kind === "port" && e.runId === handle.runId), 20_000, "a port event");
      const port = events.find((e) => e.kind === "port")!;
      assert.equal(port.kind, "port");
      if (port.kind !== "port") return;
      const printed = events.filter((e) => e.kind === "output").map((e) => (e.kind === "output" ? e.text : "")).join("");
      assert.match(printed, new RegExp(`port ${port.port}`));
      assert.equal(port.url, `http://127.0.0.1:${port.port}`);
      assert.equal(await (await fetch(port.url)).text(), "from the box");
      assert.ok(handle.kill());
      await handle.done;
    });

    if (tier === "namespace") {
      test("stop ends a setsid escapee", async () => {
        const { box } = fresh();
        const t = token("setsid");
        tokens.push(t);
        await box.run('setsid bash -c \'exec -a "$T" sleep 1000\' & echo', { env: { T: t } });
        await waitFor(() => processesWith(t).length === 1, 15_000, "the escapee");
        assert.equal(await box.stop(), 1);
        await waitFor(() => processesWith(t).length === 0, 15_000, "the escapee to end");
      });

      test("the system is read-only, the home writable, and no one is root", async () => {
        const { box } = fresh();
        const result = await box.run("id -u; touch /usr/sanoma-box-test 2>/dev/null && echo wrote-system; echo x > mine.txt && echo wrote-home; touch $TMPDIR/t && echo wrote-tmp");
        const uid = process.getuid?.() === 0 ? 1000 : process.getuid?.();
        assert.equal(result.stdout, `${uid}\nwrote-home\nwrote-tmp\n`);
        assert.equal(fs.existsSync("/usr/sanoma-box-test"), false);
      });

      test("killing the box's runs leaves no process of its namespace", async () => {
        const { box } = fresh();
        const handle = box.start("sleep 600 & sleep 600 & wait");
        await waitFor(() => handle.pid !== undefined && isAlive(handle.pid));
        assert.equal(await box.stop({ graceMs: 100 }), 1);
        assert.equal(isAlive(handle.pid!), false);
        assert.equal((await handle.done).exitCode, 128 + 15);
      });
    } else {
      test("a setsid escapee leaves the process tier's group, and stop still ends it (found by its run's tag), one run's or the box's", async () => {
        const { box } = fresh();
        const t = token("escape");
        tokens.push(t);
        const first = await box.run('setsid bash -c \'exec -a "$T" sleep 1000\' & echo', { env: { T: t } });
        await box.run('setsid bash -c \'exec -a "$T" sleep 1001\' & echo', { env: { T: t } });
        await waitFor(() => processesWith(t).length === 2, 15_000, "the escapees");
        // Their groups are gone (the runs ended): only their tag leads to them.
        assert.equal(await box.stop({ runId: first.runId, graceMs: 200 }), 0, "no group of the run was alive");
        await waitFor(() => processesWith(t).length === 1, 15_000, "the first run's escapee to end");
        await box.stop({ graceMs: 200 });
        await waitFor(() => processesWith(t).length === 0, 15_000, "the other to end");
      });

      test("the tag a run's processes carry is SANOMA_BOX_RUN, the box's and the run's", async () => {
        const { box } = fresh();
        const run = await box.run("echo $SANOMA_BOX_RUN");
        assert.match(run.stdout, new RegExp(`^[0-9a-f]{16}\\.${run.runId}\\n$`));
      });
    }
  });
}
