/**
 * Reading files from the Node file system (server/src/node/fs.ts): `readFile` whole whatever stands
 * at its first read's edge, and no file (a FIFO, a device) answered without a wait; `readFileSteps`
 * gives the text `readFile` gives, in pieces cut only after a line's end, whatever stands at a
 * piece's edge, and the same answers for what is no file.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { closeSync, constants, mkdtempSync, openSync, rmSync, symlinkSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FIRST_READ_BYTES, nodeFileSystem } from "../../server/src/node/fs.ts";
import { runSteps } from "../../server/src/core/steps.ts";

const MB = 1024 * 1024;

test("readFileSteps reads what readFile reads, a piece a step, in pieces cut after line ends: characters cut at a piece's edge, a byte order mark, bad UTF-8, lines longer than a piece", () => {
  const dir = mkdtempSync(join(tmpdir(), "sanoma-fs-steps-"));
  try {
    const cases: [string, Buffer][] = [
      ["empty", Buffer.alloc(0)],
      ["ascii over three pieces", Buffer.from("x".repeat(3 * MB + 17))],
      // A 4-byte character across the first edge, a 3-byte one across the second.
      ["characters cut at the edges", Buffer.concat([Buffer.from("a".repeat(MB - 2)), Buffer.from("😀"), Buffer.from("b".repeat(MB - 3)), Buffer.from("€"), Buffer.from("tail")])],
      ["a byte order mark", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("export default {};\n")])],
      ["bad UTF-8 at an edge", Buffer.concat([Buffer.from("c".repeat(MB - 1)), Buffer.from([0xe2, 0x82]), Buffer.from("after")])],
      ["lines", Buffer.from(`${"l".repeat(99)}\n`.repeat(3 * MB / 100 + 5))],
      ["a line over two pieces, \\r\\n line ends", Buffer.from(`a\r\n${"d".repeat(MB + 10)}\r\nb\r\n${"e".repeat(MB)}\r\nend`)],
      ["ends with a line end", Buffer.from(`${"f".repeat(MB - 1)}\n`)],
    ];
    for (const [name, bytes] of cases) {
      const file = join(dir, `${name}.json`);
      writeFileSync(file, bytes);
      let steps = 0;
      const gen = nodeFileSystem.readFileSteps!(file);
      let r = gen.next();
      while (!r.done) { steps++; r = gen.next(); }
      const pieces = r.value!;
      assert.equal(pieces.join(""), nodeFileSystem.readFile(file), name);
      // Each piece but the last ends a line: no line is cut between two pieces.
      for (const piece of pieces.slice(0, -1)) assert.ok(piece.endsWith("\n"), `${name}: a piece ends a line`);
      assert.ok(pieces.length === 1 || pieces.every((p) => p !== ""), `${name}: no empty piece`);
      assert.equal(steps, Math.ceil(bytes.length / MB), `${name}: a step a piece`);
    }
    assert.equal(runSteps(nodeFileSystem.readFileSteps!(join(dir, "missing.json"))), undefined);
    assert.equal(runSteps(nodeFileSystem.readFileSteps!(dir)), undefined, "a folder");
    const fifo = join(dir, "fifo.json");
    execFileSync("mkfifo", [fifo]);
    assert.equal(runSteps(nodeFileSystem.readFileSteps!(fifo)), undefined, "a FIFO, without waiting for a writer");
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test("readFile reads a file whole around the edge of its first read's buffer, and answers undefined for a folder, a FIFO (with a writer or without) and a device, without waiting", () => {
  const dir = mkdtempSync(join(tmpdir(), "sanoma-fs-read-"));
  try {
    const edge = FIRST_READ_BYTES;
    const cases: [string, Buffer][] = [
      ["empty", Buffer.alloc(0)],
      ["one byte", Buffer.from("x")],
      ["one byte short of the buffer", Buffer.from("a".repeat(edge - 1))],
      ["the buffer's size", Buffer.from("b".repeat(edge))],
      ["one byte over", Buffer.from("c".repeat(edge + 1))],
      ["three buffers and a bit", Buffer.from("d".repeat(3 * edge + 5))],
      ["a character across the buffer's edge", Buffer.concat([Buffer.from("e".repeat(edge - 2)), Buffer.from("😀"), Buffer.from("tail")])],
      ["a byte order mark", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("export default {};\n")])],
      ["a byte order mark on a big file", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("f".repeat(edge))])],
    ];
    for (const [name, bytes] of cases) {
      const file = join(dir, `${name}.ts`);
      writeFileSync(file, bytes);
      const text = bytes.toString("utf8");
      assert.equal(nodeFileSystem.readFile(file), text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, name);
    }
    assert.equal(nodeFileSystem.readFile(join(dir, "missing.ts")), undefined, "a missing file");
    assert.equal(nodeFileSystem.readFile(dir), undefined, "a folder");
    const fifo = join(dir, "fifo.ts");
    execFileSync("mkfifo", [fifo]);
    assert.equal(nodeFileSystem.readFile(fifo), undefined, "a FIFO without a writer, at once");
    symlinkSync("/dev/zero", join(dir, "zero.ts"));
    assert.equal(nodeFileSystem.readFile(join(dir, "zero.ts")), undefined, "/dev/zero");
    symlinkSync("/dev/null", join(dir, "null.ts"));
    assert.equal(nodeFileSystem.readFile(join(dir, "null.ts")), undefined, "/dev/null");
    // A FIFO a writer holds open (this process, by opening it for reading and writing, as a
    // box's command could): no wait for more, whether it has written or not.
    const held = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
    try {
      assert.equal(nodeFileSystem.readFile(fifo), undefined, "a FIFO a writer holds open, empty");
      writeSync(held, "export const x = 1;\n");
      assert.equal(nodeFileSystem.readFile(fifo), undefined, "a FIFO a writer holds open, written to");
    } finally { closeSync(held); }
  } finally { rmSync(dir, { recursive: true, force: true }); }
});
