/**
 * `readFileSteps` of the Node file system (server/src/node/fs.ts): a big file read a piece a step
 * gives the text `readFile` gives, in pieces cut only after a line's end, whatever stands at a
 * piece's edge, and the same answers for what is no file.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { nodeFileSystem } from "../../server/src/node/fs.ts";
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
