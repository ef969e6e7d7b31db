/**
 * The sync into a box (SPEC B5) called directly: what the manifest records of each copy, that a
 * copy never writes through what the box put at a file's path (a symlink or hard link to the
 * user's files), and that modes and symlinks are copied as they are.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { diffBox } from "../../server/src/boxes/diff.ts";
import { readManifest, statOf, syncIntoBox } from "../../server/src/boxes/sync.ts";
import { cleanupTempDirs, tempDir, writeTree } from "./helpers.ts";

after(cleanupTempDirs);

const COMPANY = `
//- /sanoma.config.ts
export default defineConfig({ name: "acme" });
//- /README.md
read me
//- /.gitignore
*.log
//- /resources/data.ts
export const orders = collection({ key: "id" });
//- /scripts/run.sh
#!/bin/sh
echo run
`;

function setup() {
  const base = tempDir();
  const root = path.join(base, "acme");
  writeTree(root, COMPANY);
  fs.chmodSync(path.join(root, "scripts/run.sh"), 0o755);
  fs.symlinkSync("../resources/data.ts", path.join(root, "scripts/data-link.ts"));
  const home = path.join(base, "boxes", "acme-box");
  const runsDir = path.join(base, "boxes", ".runs", "acme-box");
  // A file of the user's outside both the company and the box.
  const outside = path.join(base, "outside.txt");
  fs.writeFileSync(outside, "the user's own file\n");
  const sync = (reset = false) => syncIntoBox({ root, home, runsDir, reset });
  return { root, home, runsDir, outside, sync };
}

const read = (file: string) => fs.readFileSync(file, "utf8");

describe("syncing into a box", () => {
  test("the manifest records the workspace file and the box's own copy, as they are on disk", async () => {
    const { root, home, runsDir, sync } = setup();
    const report = await sync();
    assert.equal(report.copied, 6);
    const manifest = readManifest(runsDir, root);
    assert.deepEqual(Object.keys(manifest.files).sort(), [".gitignore", "README.md", "resources/data.ts", "sanoma.config.ts", "scripts/data-link.ts", "scripts/run.sh"]);
    for (const [rel, entry] of Object.entries(manifest.files)) {
      assert.deepEqual(entry.src, statOf(path.join(root, rel)), rel);
      assert.deepEqual(entry.box, statOf(path.join(home, rel)), rel);
    }
  });

  test("modes and symlinks are copied as they are", async () => {
    const { home, sync } = setup();
    await sync();
    assert.equal(fs.statSync(path.join(home, "scripts/run.sh")).mode & 0o777, 0o755);
    assert.equal(fs.readlinkSync(path.join(home, "scripts/data-link.ts")), "../resources/data.ts");
  });

  test("an edit in the box that keeps the file's size is still the box's change", async () => {
    const { root, home, runsDir, sync } = setup();
    await sync();
    const file = path.join(home, "resources/data.ts");
    const before = statOf(file)!;
    // Past the file system's timestamp granularity, so the edit's mtime is a later one.
    await new Promise((resolve) => setTimeout(resolve, 50));
    fs.writeFileSync(file, read(file).replace('"id"', '"no"'));
    assert.equal(statOf(file)!.size, before.size);
    assert.deepEqual(diffBox({ root, home, runsDir }).map((c) => [c.path, c.change]), [["resources/data.ts", "modified"]]);
    const again = await sync();
    assert.deepEqual(again.kept, ["resources/data.ts"]);
    assert.match(read(file), /"no"/);
  });

  test("a reset replaces a symlink the box put in a file's place, never writing through it", async () => {
    const { root, home, outside, sync } = setup();
    await sync();
    const file = path.join(home, "resources/data.ts");
    fs.rmSync(file);
    fs.symlinkSync(outside, file);
    assert.deepEqual((await sync()).kept, ["resources/data.ts"]);
    await sync(true);
    assert.equal(read(outside), "the user's own file\n");
    assert.equal(fs.lstatSync(file).isFile(), true);
    assert.equal(read(file), read(path.join(root, "resources/data.ts")));
  });

  test("a reset replaces a hard link the box made to a workspace file, never writing through it", async () => {
    const { root, home, sync } = setup();
    await sync();
    const workspaceData = path.join(root, "resources/data.ts");
    const before = read(workspaceData);
    const boxReadme = path.join(home, "README.md");
    fs.rmSync(boxReadme);
    fs.linkSync(workspaceData, boxReadme); // the process tier can: same file system, the user's uid
    await sync(true);
    assert.equal(read(workspaceData), before, "the user's file is untouched");
    assert.equal(read(boxReadme), "read me\n");
    assert.notEqual(fs.statSync(boxReadme).ino, fs.statSync(workspaceData).ino);
  });

  test("a file new in the workspace replaces a symlink the box hid from the walk at its path", async () => {
    const { root, home, outside, sync } = setup();
    await sync();
    // The box's own .gitignore hides new.ts from the box's walk; a symlink out waits there.
    fs.appendFileSync(path.join(home, ".gitignore"), "new.ts\n");
    fs.symlinkSync(outside, path.join(home, "new.ts"));
    fs.writeFileSync(path.join(root, "new.ts"), "export const added = 1;\n");
    const report = await sync();
    assert.equal(report.copied, 1);
    assert.equal(read(outside), "the user's own file\n");
    assert.equal(fs.lstatSync(path.join(home, "new.ts")).isFile(), true);
    assert.equal(read(path.join(home, "new.ts")), "export const added = 1;\n");
  });

  test("a folder where the workspace has a file is replaced by the file", async () => {
    const { home, sync } = setup();
    fs.mkdirSync(path.join(home, "README.md"), { recursive: true });
    fs.writeFileSync(path.join(home, "README.md", "inner.txt"), "x");
    const report = await sync();
    assert.equal(report.copied, 6);
    assert.equal(read(path.join(home, "README.md")), "read me\n");
  });
});
