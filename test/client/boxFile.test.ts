/**
 * The box's side of a change as the extension shows it (`client/src/boxFile.ts`), without VS Code:
 * never a `file:` document (an editor the user could save through a link the box swapped in), and
 * its text read only from a regular file at its place in the box, with real files, links and FIFOs.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { BOX_FILE_SCHEME, boxFileText, boxSideOf, relOf, SHOWN_BYTES } from "../../client/src/boxFile.ts";

const made: string[] = [];
after(() => { for (const dir of made) fs.rmSync(dir, { recursive: true, force: true }); });

/** A boxes folder with a box `b` holding `lib/a.ts`, and a file of the user's outside it. */
function setup() {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "sanoma-boxfile-")));
  made.push(dir);
  const home = path.join(dir, "boxes", "b");
  fs.mkdirSync(path.join(home, "lib"), { recursive: true });
  fs.writeFileSync(path.join(home, "lib", "a.ts"), "export const a = 'the box';\n");
  const user = path.join(dir, "user");
  fs.mkdirSync(path.join(user, "lib"), { recursive: true });
  fs.writeFileSync(path.join(user, "lib", "a.ts"), "the user's own file\n");
  return { home, user, boxFile: path.join(home, "lib", "a.ts") };
}

test("box side: shown in the sanoma-box scheme, never as a file (no editor to save through), with its path in the box; nothing for what has no box file", () => {
  const side = boxSideOf({ path: "lib/a.ts", boxFile: "/boxes/b/lib/a.ts" });
  assert.deepEqual(side, { scheme: BOX_FILE_SCHEME, fsPath: "/boxes/b/lib/a.ts", query: "rel=lib%2Fa.ts" });
  assert.notEqual(side?.scheme, "file");
  assert.equal(relOf(side!.query), "lib/a.ts");
  assert.equal(boxSideOf({ path: "gone.ts" }), undefined, "a deletion");
  assert.equal(boxSideOf({ path: "l.ts", boxFile: "/boxes/b/l.ts", refused: "the box made a symlink here" }), undefined);
});

test("box side: a regular file's text", () => {
  const { boxFile } = setup();
  assert.equal(boxFileText(boxFile, "lib/a.ts"), "export const a = 'the box';\n");
});

test("box side: a link the box put in the file's place, or in a folder's on its way, or in the home's, is never followed: the user's file is not shown", () => {
  const cases: [string, (s: ReturnType<typeof setup>) => void, RegExp][] = [
    ["the file", (s) => { fs.rmSync(s.boxFile); fs.symlinkSync(path.join(s.user, "lib", "a.ts"), s.boxFile); }, /it is a symlink in the box now/],
    ["a folder", (s) => { fs.rmSync(path.join(s.home, "lib"), { recursive: true }); fs.symlinkSync(path.join(s.user, "lib"), path.join(s.home, "lib")); }, /a folder on its way is a link/],
    ["the home", (s) => { fs.renameSync(s.home, `${s.home}.moved`); fs.symlinkSync(s.user, s.home); }, /a folder on its way is a link/],
  ];
  for (const [what, swap, why] of cases) {
    const s = setup();
    swap(s);
    const text = boxFileText(s.boxFile, "lib/a.ts");
    assert.ok(!text.includes("the user's own file"), `${what}: ${text}`);
    assert.match(text, /^Sanoma: the box's lib\/a\.ts is not shown: /, what);
    assert.match(text, why, what);
  }
});

test("box side: a FIFO is refused at once (never opened to wait for a writer); a file past the bound is not read", () => {
  const s = setup();
  fs.rmSync(s.boxFile);
  assert.equal(spawnSync("mkfifo", [s.boxFile]).status, 0);
  assert.match(boxFileText(s.boxFile, "lib/a.ts"), /is not shown: it is a FIFO \(named pipe\) in the box now/);
  fs.rmSync(s.boxFile);
  fs.writeFileSync(s.boxFile, "");
  fs.truncateSync(s.boxFile, 1024 ** 4); // sparse: 1 TiB
  assert.match(boxFileText(s.boxFile, "lib/a.ts"), new RegExp(`is not shown: it holds 1,099,511,627,776 bytes in the box, more than the ${SHOWN_BYTES / 1024 / 1024} MiB shown here`));
});

test("box side: a path that is not the box file's own is not read", () => {
  const { boxFile } = setup();
  assert.match(boxFileText(boxFile, "other/a.ts"), /is not shown: it is not in the box the diff named/);
});
