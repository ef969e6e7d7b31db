/**
 * What the extension keeps of a box's recent events (`client/src/recent.ts`), without VS Code:
 * bounded by count and by the output they hold. By count alone a box kept some 300 MB.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { KEPT_OUTPUT_BYTES_PER_BOX, RecentEvents } from "../../client/src/recent.ts";
import type { BoxEvent } from "../../server/src/protocol.ts";

const output = (seq: number, runId: string, text: string): BoxEvent => ({ box: "b", runId, seq, at: seq, kind: "output", stream: "stdout", text, bytes: text.length });

test("recent events: three runs of 60 MB of output keep no more than the byte bound, the newest kept", () => {
  const recent = new RecentEvents();
  const chunk = "x".repeat(64 * 1024);
  let seq = 0;
  for (const run of ["r1", "r2", "r3"]) for (let i = 0; i < 480; i++) recent.add(output(++seq, run, chunk)); // 30 MB of text a run (60 MB as UTF-16)
  assert.ok(recent.size.bytes <= KEPT_OUTPUT_BYTES_PER_BOX, `${recent.size.bytes} bytes kept`);
  assert.deepEqual(recent.of("r1"), [], "the oldest run's output went first");
  const last = recent.of("r3");
  assert.equal(last[last.length - 1]!.seq, seq, "the newest event is kept");
});

test("recent events: by count too, and one event bigger than the bound is kept while it is the newest", () => {
  const counted = new RecentEvents(3, 1e9);
  for (let seq = 1; seq <= 5; seq++) counted.add(output(seq, "r", "a"));
  assert.deepEqual(counted.of("r").map((e) => e.seq), [3, 4, 5]);
  const small = new RecentEvents(100, 10);
  small.add(output(1, "r", "abc"));
  small.add(output(2, "r", "x".repeat(50)));
  assert.deepEqual(small.of("r").map((e) => e.seq), [2]);
  small.add({ box: "b", runId: "r", seq: 3, at: 3, kind: "exit", exitCode: 0 } as BoxEvent);
  assert.deepEqual(small.of("r").map((e) => e.seq), [3], "once it is not the newest, what is over the bound goes (a late terminal pages it from the server)");
});
