/**
 * SPEC B5's record of runs: events numbered in order, resumed from a cursor (also by a new service
 * over the same folder, as after a server restart), live events equal to the recorded ones, and
 * runs listed per box and per time window, newest first, with a limit and `truncated`.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { EventLog } from "../../server/src/boxes/events.ts";
import { BoxService } from "../../server/src/boxes/service.ts";
import type { BoxEvent } from "../../server/src/protocol.ts";
import { TIERS, cleanupTempDirs, tempDir } from "./helpers.ts";

after(cleanupTempDirs);

for (const tier of TIERS) {
  describe(`events and runs, ${tier} tier`, () => {
    const services: BoxService[] = [];
    const service = (boxesDir = tempDir()) => {
      const made = new BoxService({ boxesDir, tier });
      services.push(made);
      return made;
    };
    after(async () => {
      for (const s of services) await s.dispose();
    });

    test("events resume after a cursor, in order, with nothing lost or repeated", async () => {
      const boxes = service();
      const live: BoxEvent[] = [];
      boxes.onEvent((e) => live.push(e));
      const { runId, result } = await boxes.run({ name: "ev", command: "echo one; echo two >&2; exit 4", wait: true });
      assert.equal(result?.exitCode, 4);
      const all = await boxes.events({ name: "ev" });
      assert.deepEqual(all.events.map((e) => e.seq), all.events.map((_, i) => i + 1));
      assert.deepEqual(all.events, live, "live events are the recorded ones");
      assert.equal(all.events[0]!.kind, "start");
      assert.equal(all.events.at(-1)!.kind, "exit");
      assert.ok(all.events.every((e) => e.runId === runId && e.box === "ev"));
      const exit = all.events.at(-1)!;
      assert.ok(exit.kind === "exit" && exit.exitCode === 4 && exit.durationMs >= 0);
      const text = (stream: string) => all.events.map((e) => (e.kind === "output" && e.stream === stream ? e.text : "")).join("");
      assert.equal(text("stdout"), "one\n");
      assert.equal(text("stderr"), "two\n");
      assert.equal(all.more, false);
      assert.equal(all.cursor, all.events.at(-1)!.seq);

      // A client that saw the first two resumes after them.
      const resumed = await boxes.events({ name: "ev", cursor: 2 });
      assert.deepEqual(resumed.events, all.events.slice(2));
      // Paging with a limit walks the same events.
      const paged: BoxEvent[] = [];
      let cursor = 0;
      for (;;) {
        const page = await boxes.events({ name: "ev", cursor, limit: 1 });
        paged.push(...page.events);
        cursor = page.cursor;
        if (!page.more) break;
      }
      assert.deepEqual(paged, all.events);
      // Nothing new past the end.
      assert.deepEqual((await boxes.events({ name: "ev", cursor: all.cursor })).events, []);
    });

    test("a new service over the same folder resumes the numbering and the cursor", async () => {
      const boxesDir = tempDir();
      const first = service(boxesDir);
      await first.run({ name: "restart", command: "echo before", wait: true });
      const seen = await first.events({ name: "restart" });
      await first.dispose();

      const second = service(boxesDir);
      await second.run({ name: "restart", command: "echo after", wait: true });
      const after = await second.events({ name: "restart", cursor: seen.cursor });
      assert.equal(after.logId, seen.logId);
      assert.equal(after.events[0]!.seq, seen.cursor + 1);
      assert.equal(after.events[0]!.kind, "start");
      assert.ok(after.events.some((e) => e.kind === "output" && e.text === "after\n"));
      assert.ok(!after.events.some((e) => e.kind === "output" && e.text === "before\n"));
    });

    test("a discarded box's log is gone; the next one has another logId and starts at 1", async () => {
      const boxes = service();
      await boxes.run({ name: "again", command: "true", wait: true });
      const before = await boxes.events({ name: "again" });
      await boxes.discard({ name: "again" });
      assert.deepEqual(await boxes.events({ name: "again" }), { events: [], cursor: 0, more: false, logId: "", skipped: 0 });
      await boxes.run({ name: "again", command: "true", wait: true });
      const after = await boxes.events({ name: "again" });
      assert.notEqual(after.logId, before.logId);
      assert.equal(after.events[0]!.seq, 1);
    });

    test("runs are listed per box and per time window, newest first, with limit and truncated", async () => {
      const boxes = service();
      const started: Record<string, number> = {};
      for (const [name, command] of [["a", "echo a1"], ["b", "echo b1"], ["a", "exit 2"], ["a", "echo a3"]] as const) {
        const { runId } = await boxes.run({ name, command, wait: true });
        started[`${name}:${runId}`] = (await boxes.runs({ name })).runs.find((r) => r.runId === runId)!.startedAt;
        await new Promise((r) => setTimeout(r, 15)); // distinct start times
      }
      const ofA = await boxes.runs({ name: "a" });
      assert.equal(ofA.truncated, false);
      assert.deepEqual(ofA.runs.map((r) => r.command), ["echo a3", "exit 2", "echo a1"]);
      assert.deepEqual(ofA.runs.map((r) => r.exitCode), [0, 2, 0]);
      assert.ok(ofA.runs.every((r) => r.state === "exited" && r.tier === tier && r.box === "a"));

      const all = await boxes.runs({});
      assert.deepEqual(all.runs.map((r) => `${r.box}:${r.command}`), ["a:echo a3", "a:exit 2", "b:echo b1", "a:echo a1"]);

      const limited = await boxes.runs({ limit: 2 });
      assert.equal(limited.truncated, true);
      assert.deepEqual(limited.runs.map((r) => r.command), ["echo a3", "exit 2"]);

      const b1 = all.runs.find((r) => r.command === "echo b1")!;
      const a2 = all.runs.find((r) => r.command === "exit 2")!;
      const window = await boxes.runs({ since: b1.startedAt, until: a2.startedAt });
      assert.deepEqual(window.runs.map((r) => r.command), ["exit 2", "echo b1"]);
      assert.equal(window.truncated, false);
      assert.deepEqual((await boxes.runs({ since: Date.now() + 60_000 })).runs, []);
      // A window that is no number is refused, not an empty answer.
      await assert.rejects(boxes.runs({ since: "x" as never }), /since must be a number/);
      await assert.rejects(boxes.runs({ limit: "2" as never }), /limit must be a number/);
    });

    test("a run's startSeq is its start event's seq: one run's events are read from there, not from the log's start", async () => {
      const boxes = service();
      const first = await boxes.run({ name: "busy", command: "for i in $(seq 1 300); do echo $i; done", wait: true });
      const second = await boxes.run({ name: "busy", command: "echo late", wait: true });
      const runs = (await boxes.runs({ name: "busy" })).runs;
      for (const { runId } of [first, second]) {
        const run = runs.find((r) => r.runId === runId)!;
        const from = await boxes.events({ name: "busy", cursor: run.startSeq - 1, limit: 1 });
        assert.deepEqual(from.events.map((e) => [e.kind, e.runId]), [["start", runId]], `${runId} read from its startSeq`);
      }
      const late = runs.find((r) => r.runId === second.runId)!;
      const early = runs.find((r) => r.runId === first.runId)!;
      assert.ok(late.startSeq > early.startSeq + 2, `the second run starts after the first's output and exit (${early.startSeq}, ${late.startSeq})`);
      // The live run's info says it too, while it runs.
      const { runId } = await boxes.run({ name: "busy", command: "sleep 600" });
      const running = (await boxes.runs({ name: "busy" })).runs.find((r) => r.runId === runId)!;
      assert.equal((await boxes.events({ name: "busy", cursor: running.startSeq - 1, limit: 1 })).events[0]?.runId, runId);
      await boxes.stop({ name: "busy" });
    });

    test("a running run is listed as running, then exited", async () => {
      const boxes = service();
      const { runId } = await boxes.run({ name: "long", command: "sleep 600" });
      const running = (await boxes.runs({ name: "long" })).runs[0]!;
      assert.equal(running.runId, runId);
      assert.equal(running.state, "running");
      assert.equal((await boxes.list()).boxes.find((b) => b.name === "long")?.state, "running");
      assert.equal((await boxes.stop({ name: "long" })).stopped, 1);
      const exited = (await boxes.runs({ name: "long" })).runs[0]!;
      assert.equal(exited.state, "exited");
      assert.equal(exited.signal, "SIGTERM");
    });
  });
}

describe("EventLog", () => {
  test("a run recorded before runs said their start's seq gets it from its id", () => {
    const dir = path.join(tempDir(), "log");
    const log = new EventLog(dir);
    log.append({ kind: "output", box: "x", runId: "run-0", at: 0, stream: "stdout", text: "x\n", bytes: 2 });
    log.recordRun({ runId: "run-2", box: "x", command: "true", cwd: "", tier: "process", startedAt: 1, state: "running" } as never);
    log.recordRun({ runId: "odd", box: "x", command: "true", cwd: "", tier: "process", startedAt: 2, state: "running" } as never);
    assert.deepEqual(log.runs().map((r) => [r.runId, r.startSeq]), [["run-2", 2], ["odd", 1]]);
    log.close();
  });

  test("a torn last line (a crash mid-write) is skipped and numbering goes on", () => {
    const dir = path.join(tempDir(), "log");
    const log = new EventLog(dir);
    for (let i = 0; i < 600; i++) log.append({ kind: "output", box: "x", runId: "run-1", at: i, stream: "stdout", text: `${i}\n`, bytes: 2 });
    log.close();
    fs.appendFileSync(path.join(dir, "events.jsonl"), '{"seq":601,"kind":"outp');
    const reopened = new EventLog(dir);
    assert.equal(reopened.seq, 600);
    const next = reopened.append({ kind: "output", box: "x", runId: "run-1", at: 0, stream: "stdout", text: "next\n", bytes: 5 });
    assert.equal(next.seq, 601);
    const page = reopened.read(590, 100);
    assert.deepEqual(page.events.map((e) => e.seq), [591, 592, 593, 594, 595, 596, 597, 598, 599, 600, 601]);
    assert.equal(page.more, false);
    // Seeking through the sparse index lands on the right events from any cursor.
    for (const cursor of [0, 1, 255, 256, 257, 511, 512, 513]) assert.equal(reopened.read(cursor, 1).events[0]!.seq, cursor + 1, `cursor ${cursor}`);
    reopened.close();
  });

  test("the log keeps its newest segments: older ones are deleted past the limit, and a reader is told how many events it missed", () => {
    const dir = path.join(tempDir(), "log");
    const limits = { maxBytes: 40_000, segmentBytes: 10_000 };
    const log = new EventLog(dir, limits);
    const text = "x".repeat(80) + "\n";
    for (let i = 0; i < 2000; i++) log.append({ kind: "output", box: "x", runId: "run-1", at: i, stream: "stdout", text, bytes: text.length });
    const files = fs.readdirSync(dir).filter((f) => f.startsWith("events"));
    const bytes = files.reduce((n, f) => n + fs.statSync(path.join(dir, f)).size, 0);
    assert.ok(bytes <= limits.maxBytes + 200, `${bytes} bytes kept in ${files.join(", ")}`);
    assert.ok(files.length >= 3, files.join(", "));
    const first = log.firstSeq;
    assert.ok(first > 1 && first < 2000, `first kept: ${first}`);
    // From the start: the events it missed are counted, then every event kept, in order, across segments.
    const seen: number[] = [];
    let page = log.read(0, 150);
    assert.equal(page.skipped, first - 1);
    for (;;) {
      seen.push(...page.events.map((e) => e.seq));
      if (!page.more) break;
      page = log.read(page.cursor, 150);
      assert.equal(page.skipped, 0);
    }
    assert.deepEqual(seen, Array.from({ length: 2000 - first + 1 }, (_, k) => first + k));
    // From any cursor within what is kept, the next event; from one older, the oldest kept.
    for (const cursor of [first - 1, first, first + 53, first + 54, first + 55, 1999]) assert.equal(log.read(cursor, 1).events[0]!.seq, cursor + 1, `cursor ${cursor}`);
    const older = log.read(first - 100, 1);
    assert.deepEqual([older.events[0]!.seq, older.skipped], [first, 99]);
    log.close();
    // Opened again (another server): the same events, and numbering goes on.
    const reopened = new EventLog(dir, limits);
    assert.equal(reopened.firstSeq, first);
    assert.equal(reopened.seq, 2000);
    assert.equal(reopened.read(1990, 1).events[0]!.seq, 1991);
    assert.equal(reopened.append({ kind: "output", box: "x", runId: "run-2", at: 0, stream: "stdout", text, bytes: text.length }).seq, 2001);
    reopened.close();
  });

  test("a log written before segments (one big events.jsonl) is read, then sealed and let go once past the limit", () => {
    const dir = path.join(tempDir(), "log");
    const text = "y".repeat(80) + "\n";
    const old = new EventLog(dir, { maxBytes: 10_000_000, segmentBytes: 10_000_000 });
    for (let i = 0; i < 600; i++) old.append({ kind: "output", box: "x", runId: "run-1", at: i, stream: "stdout", text, bytes: text.length });
    old.close();
    const log = new EventLog(dir, { maxBytes: 40_000, segmentBytes: 10_000 });
    assert.equal(log.read(0, 1).events[0]!.seq, 1, "still there until the next event");
    assert.equal(log.append({ kind: "output", box: "x", runId: "run-2", at: 0, stream: "stdout", text, bytes: text.length }).seq, 601);
    assert.equal(log.firstSeq, 601);
    assert.deepEqual(log.read(0, 10).events.map((e) => e.seq), [601]);
    assert.equal(log.read(0, 10).skipped, 600);
    log.close();
  });

  test("a log folder deleted by hand while a run writes is remade when the segment rolls, and numbering goes on", () => {
    const dir = path.join(tempDir(), "log");
    const log = new EventLog(dir, { maxBytes: 40_000, segmentBytes: 10_000 });
    const text = "z".repeat(80) + "\n";
    for (let i = 0; i < 30; i++) log.append({ kind: "output", box: "x", runId: "run-1", at: i, stream: "stdout", text, bytes: text.length });
    fs.rmSync(dir, { recursive: true });
    for (let i = 0; i < 100; i++) log.append({ kind: "output", box: "x", runId: "run-1", at: i, stream: "stdout", text, bytes: text.length });
    assert.equal(log.seq, 130);
    assert.equal(log.read(129, 1).events[0]!.seq, 130);
    log.close();
  });

  test("a reader reads the files as they are, writing nothing, and follows a writer's appends and rolls", () => {
    const dir = path.join(tempDir(), "log");
    const limits = { maxBytes: 40_000, segmentBytes: 10_000 };
    const writer = new EventLog(dir, limits);
    const text = "r".repeat(80) + "\n";
    const write = (n: number) => { for (let i = 0; i < n; i++) writer.append({ kind: "output", box: "x", runId: "run-1", at: i, stream: "stdout", text, bytes: text.length }); };
    write(10);
    writer.close();
    fs.appendFileSync(path.join(dir, "events.jsonl"), '{"seq":11,"kind":"outp'); // a line being written (or torn)
    const files = () => Object.fromEntries(fs.readdirSync(dir).map((f) => [f, fs.readFileSync(path.join(dir, f), "utf8")]));
    const before = files();
    const reader = new EventLog(dir, limits);
    assert.deepEqual([reader.seq, reader.firstSeq, reader.read(0, 100).events.length], [10, 1, 10]);
    assert.notEqual(reader.logId, "");
    assert.deepEqual(files(), before, "nothing written, no claim made");
    // A writer appends (and rolls segments, and lets the oldest go) while the reader reads.
    const next = new EventLog(dir, limits);
    assert.equal(next.append({ kind: "output", box: "x", runId: "run-2", at: 0, stream: "stdout", text, bytes: text.length }).seq, 11);
    assert.deepEqual(reader.read(10, 100).events.map((e) => e.seq), [11]);
    let cursor = 11;
    for (let round = 0; round < 8; round++) {
      for (let i = 0; i < 60; i++) next.append({ kind: "output", box: "x", runId: "run-2", at: i, stream: "stdout", text, bytes: text.length });
      const seen: number[] = [];
      for (let page = reader.read(cursor, 25); ; page = reader.read(cursor, 25)) {
        seen.push(...page.events.map((e) => e.seq));
        cursor = page.cursor;
        if (!page.more) break;
      }
      assert.deepEqual(seen, Array.from({ length: 60 }, (_, k) => 12 + round * 60 + k), `round ${round}`);
    }
    assert.equal(reader.firstSeq, next.firstSeq, "the segments let go are seen");
    assert.ok(reader.firstSeq > 1);
    next.close();
  });

  test("a log folder deleted by hand is remade and numbering goes on", () => {
    const dir = path.join(tempDir(), "log");
    const log = new EventLog(dir);
    log.append({ kind: "port", box: "x", runId: "run-1", at: 0, port: 1, url: "http://127.0.0.1:1" });
    fs.rmSync(dir, { recursive: true });
    log.revalidate();
    const next = log.append({ kind: "port", box: "x", runId: "run-1", at: 0, port: 2, url: "http://127.0.0.1:2" });
    assert.equal(next.seq, 2);
    assert.deepEqual(log.read(0, 10).events.map((e) => e.seq), [2]);
    log.close();
  });
});
