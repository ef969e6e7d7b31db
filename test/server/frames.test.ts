/**
 * The base protocol's bad input, over stdio: a header block whose Content-Length is no length is
 * logged and passed over, and the server answers what follows (it went deaf at 17% CPU); a
 * command it never offered is an error naming it (it answered null, as if done).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { withServer } from "../support/server.ts";
import { contentLength, FrameGuard, nestedDeeperThan } from "../../server/src/lsp/frames.ts";

const COMPANY = `
//- /sanoma.config.ts
export default {};
`;

for (const bad of ["abc", "-5", "99999999999999999999", "", "12abc"]) {
  test(`server: a frame whose Content-Length is ${JSON.stringify(bad)} is logged and passed over; the messages after it are answered`, async () => {
    await withServer(COMPANY, async ({ c }) => {
      c.proc.stdin.write(`Content-Length: ${bad}\r\n\r\n{"jsonrpc":"2.0","id":9999,"method":"sanoma/status","params":null}`);
      const status = await c.request<{ state: string }>("sanoma/status", null, 10_000);
      assert.ok(status.state === "idle" || status.state === "indexing");
      await c.waitFor(() => c.stderr.includes("bad message frame passed over"), "the bad frame logged");
      assert.match(c.stderr, /a Content-Length that is no length/);
      // And again, the stream still in step.
      assert.ok(await c.request("sanoma/status", null, 10_000));
    }, { idle: false });
  });
}

test("server: junk between frames, and a header block that never ends, are passed over up to the next Content-Length header", async () => {
  await withServer(COMPANY, async ({ c }) => {
    c.proc.stdin.write("hello there\r\nthis is no header\r\n\r\n");
    assert.ok(await c.request("sanoma/status", null, 10_000));
    c.proc.stdin.write("x".repeat(20_000));
    assert.ok(await c.request("sanoma/status", null, 10_000));
    assert.match(c.stderr, /a header line without a name \("hello there"\)/);
    // (The x's are read with the next frame's header or alone, as the pipe delivers them: either way passed over.)
    assert.equal(c.stderr.match(/bad message frame passed over/g)?.length, 2);
  }, { idle: false });
});

test("frames: contentLength reads a header block as the base protocol writes it, in any case, with a Content-Type", () => {
  assert.equal(contentLength("Content-Length: 52"), 52);
  assert.equal(contentLength("content-length:7\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8"), 7);
  assert.match(String(contentLength("Content-Type: x")), /no Content-Length header/);
  assert.match(String(contentLength("Content-Length: 1e3")), /no length/);
});

test("server: workspace/executeCommand of a command it does not offer is an error naming the command", async () => {
  await withServer(COMPANY, async ({ c }) => {
    await assert.rejects(c.request("workspace/executeCommand", { command: "sanoma.nope", arguments: [] }), /no command "sanoma\.nope"/);
  }, { idle: false });
});

test("frames: a body that comes in many chunks is passed on whole and joined once, not copied again at every chunk", () => {
  const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", method: "textDocument/didOpen", params: { text: "x".repeat(5 * 1024 * 1024) } }));
  const frame = Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body, Buffer.from("Content-Length: 2\r\n\r\n{}")]);
  const guard = new FrameGuard(() => assert.fail("no frame here is bad"));
  const out: Buffer[] = [];
  guard.on("data", (b: Buffer) => out.push(b));
  // Every byte Buffer.concat copies while the guard reads, counted.
  const concat = Buffer.concat;
  let copied = 0;
  Buffer.concat = ((list: readonly Uint8Array[], length?: number) => {
    const joined = concat(list, length);
    copied += joined.length;
    return joined;
  }) as typeof Buffer.concat;
  try {
    for (let at = 0; at < frame.length; at += 64 * 1024) guard.write(frame.subarray(at, at + 64 * 1024));
  } finally {
    Buffer.concat = concat;
  }
  assert.ok(concat(out).equals(frame), "the frames passed on as they came");
  assert.ok(copied < 2 * frame.length, `${(copied / 1048576).toFixed(0)} MB copied to read a frame of ${(frame.length / 1048576).toFixed(0)} MB`);
});

test("server: a message nested thousands deep (no LSP message is) is logged and passed over: it ended the server (vscode-jsonrpc's JSON.stringify of it overflowed the stack), or sent a log line of megabytes", async () => {
  await withServer(COMPANY, async ({ c }) => {
    for (const depth of [2_000, 5_000, 30_000]) {
      const body = "[".repeat(depth) + "]".repeat(depth);
      c.proc.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      assert.ok(await c.request("sanoma/status", null, 10_000), `answers after a message ${depth} deep`);
    }
    assert.equal(c.proc.exitCode, null, "still running");
    await c.waitFor(() => (c.stderr.match(/nested deeper than 256 levels passed over/g)?.length ?? 0) === 3, "each logged once");
    const longest = Math.max(...c.notifications.filter((n) => n.method === "window/logMessage").map((n) => JSON.stringify(n.params).length));
    assert.ok(longest < 10_000, `no log line of ${longest} bytes`);
  }, { idle: false });
});

test("frames: nestedDeeperThan counts arrays and objects, not brackets in strings (escaped quotes too)", () => {
  const deep = (n: number) => Buffer.from("[".repeat(n) + "]".repeat(n));
  assert.equal(nestedDeeperThan(deep(3), 3), false);
  assert.equal(nestedDeeperThan(deep(4), 3), true);
  // Four deep, with brackets and an escaped quote in a string.
  assert.equal(nestedDeeperThan(Buffer.from(String.raw`{"a":{"b":[1,{"c":"[[[[[[\"[[[[["}]}}`), 4), false);
  // A string that ends in an escaped backslash closes there: the brackets after it count (five deep).
  assert.equal(nestedDeeperThan(Buffer.from(String.raw`{"a":{"b":[1,{"c":"x\\"},[[[]]]]}}`), 4), true);
});
