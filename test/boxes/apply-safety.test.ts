/**
 * What the sync, the diff and apply must never carry between a box and the workspace (SPEC B5),
 * called directly on real files: `.git` and `node_modules` of any kind, a box's entry the server
 * cannot read (never taken for deleted), the mode bits a box gives its files, files named like
 * `Object.prototype`'s keys, and apply paths that are no company paths.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { execFileSync } from "node:child_process";
import { applyToWorkspace, diffBox, readDiff, readShown, tooManyFiles } from "../../server/src/boxes/diff.ts";
import { readManifest } from "../../server/src/boxes/manifest.ts";
import { syncIntoBox } from "../../server/src/boxes/sync.ts";
import { cleanupTempDirs, tempDir, unprivileged, writeTree } from "./helpers.ts";

after(cleanupTempDirs);

const COMPANY = `
//- /sanoma.config.ts
export default defineConfig({ name: "acme" });
//- /README.md
read me
//- /apps/maps/lib/existing.ts
export const existing = 1;
//- /apps/maps/lib/other.ts
export const other = 1;
//- /resources/data.ts
export const orders = collection({ key: "id" });
//- /scripts/run.sh
#!/bin/sh
echo run
//- /node_modules/pkg/index.js
module.exports = 1;
`;

function setup(fixture = COMPANY) {
  const base = tempDir();
  const root = path.join(base, "acme");
  writeTree(root, fixture);
  const home = path.join(base, "boxes", "acme-box");
  const runsDir = path.join(base, "boxes", ".runs", "acme-box");
  const sides = { root, home, runsDir };
  return { base, root, home, runsDir, sides, sync: () => syncIntoBox(sides) };
}

const read = (file: string) => fs.readFileSync(file, "utf8");
const NEVER_APPLIED = "apply never writes into .git or node_modules: a box's version could make your git or your tools run its commands";

describe(".git and node_modules, of any kind and at any depth, never cross", () => {
  test("the sync copies no .git or node_modules entry but links the root node_modules", async () => {
    const { base, root, home, runsDir, sync } = setup();
    const shared = path.join(base, "shared-node_modules");
    fs.mkdirSync(shared);
    // A worktree's and a submodule's `.git` files, a pnpm-style link, a nested folder, a link named `.git`.
    const entries: Array<[rel: string, make: (full: string) => void]> = [
      [".git", (full) => fs.writeFileSync(full, "gitdir: /elsewhere/worktrees/acme\n")],
      ["apps/maps/.git", (full) => fs.writeFileSync(full, "gitdir: ../../.git/modules/maps\n")],
      ["apps/maps/node_modules", (full) => fs.symlinkSync(shared, full)],
      ["apps/web/node_modules/pkg/index.js", (full) => writeTree(path.dirname(full), "//- /index.js\nmodule.exports = 2;\n")],
      ["resources/.git", (full) => fs.symlinkSync("/elsewhere", full)],
      ["resources/node_modules", (full) => fs.writeFileSync(full, "a file of that name\n")],
    ];
    for (const [rel, make] of entries) {
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      make(path.join(root, rel));
    }
    await sync();
    for (const [rel] of entries) assert.equal(fs.existsSync(path.join(home, rel)) || isLink(path.join(home, rel)), false, `${rel} is in the box`);
    assert.equal(fs.readlinkSync(path.join(home, "node_modules")), path.join(root, "node_modules"));
    const synced = Object.keys(readManifest(runsDir, root).files);
    assert.deepEqual(synced.filter((rel) => /(^|\/)(\.git|node_modules)(\/|$)/.test(rel)), []);
  });

  test("the diff lists none the box made, and apply refuses every path through one, saying why", async () => {
    const { root, home, sides, sync } = setup();
    fs.writeFileSync(path.join(root, ".git"), "gitdir: /elsewhere/worktrees/acme\n");
    await sync();
    // What a box writes to repoint the user's git (its config runs `core.fsmonitor`) or plant code.
    writeTree(home, `
//- /.git
gitdir: apps/maps/evil
//- /apps/maps/.GIT
gitdir: evil
//- /apps/maps/node_modules/evil.js
module.exports = "evil";
//- /apps/Node_Modules/evil.js
module.exports = "evil";
//- /resources/z.ts
export const z = 1;
`);
    fs.symlinkSync("/elsewhere", path.join(home, "resources/node_modules"));
    assert.deepEqual((await diffBox(sides)).map((c) => c.path), ["resources/z.ts"]);
    const refused = [".git", "./.git", ".git/config", "apps/maps/.GIT", "apps/maps/node_modules/evil.js", "apps/Node_Modules/evil.js", "resources/node_modules", "node_modules/pkg/index.js"];
    const result = await applyToWorkspace(sides, [...refused, "resources/z.ts"]);
    assert.deepEqual(result, { applied: ["resources/z.ts"], skipped: refused.filter((p) => p !== "./.git").map((p) => ({ path: p, reason: NEVER_APPLIED })) });
    assert.equal(read(path.join(root, ".git")), "gitdir: /elsewhere/worktrees/acme\n");
    for (const rel of ["apps/maps/.GIT", "apps/maps/node_modules", "apps/Node_Modules", "resources/node_modules"]) assert.equal(fs.existsSync(path.join(root, rel)), false, rel);
  });
});

function isLink(full: string): boolean {
  try {
    return fs.lstatSync(full).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Run as an ordinary user (root reads everything): the diff, then apply of `files`. */
const DIFF_AND_APPLY = `
const { diffBox, applyToWorkspace } = require("./server/src/boxes/diff.ts");
const { sides, files } = JSON.parse(process.argv[1]);
(async () => {
  const diff = await diffBox(sides);
  const apply = await applyToWorkspace(sides, files ?? diff.map((c) => c.path));
  process.stdout.write(JSON.stringify({ diff: diff.map((c) => [c.path, c.change, c.kind ?? null, c.refused ?? null]), apply }));
})();
`;

describe("what the box has but the server cannot read", () => {
  test("is listed, refused as unreadable; never hidden, never taken for deleted, and apply deletes nothing for it", async () => {
    const { root, home, sides, sync } = setup();
    await sync();
    writeTree(home, "//- /resources/data.ts\nexport const orders = 666;\n//- /resources/secret.ts\nnew\n//- /resources/visible.ts\nvisible\n");
    // [box entry, its mode, what the diff lists: change, kind, why]
    const cases: Array<[rel: string, mode: number, change: string, kind: string | null, refused: RegExp]> = [
      ["apps/maps/lib", 0o000, "modified", null, /^the box's folder cannot be read \(EACCES\): what changed in it cannot be seen, and apply copies or deletes nothing under it/],
      ["resources/data.ts", 0o000, "modified", "file", /^the box's file cannot be read \(EACCES\): apply cannot copy it/],
      ["resources/secret.ts", 0o000, "added", "file", /^the box's file cannot be read \(EACCES\)/],
      // Listed but not searchable: its entries cannot even be looked at.
      ["scripts", 0o644, "modified", null, /^the box's file cannot be read \(EACCES\)/],
    ];
    for (const [rel, mode] of cases) fs.chmodSync(path.join(home, rel), mode);
    try {
      const files = ["apps/maps/lib/existing.ts", "apps/maps/lib/other.ts", "apps/maps/lib", "resources/data.ts", "resources/secret.ts", "scripts/run.sh", "resources/visible.ts"];
      const { diff, apply } = unprivileged(DIFF_AND_APPLY, { sides, files }) as { diff: Array<[string, string, string | null, string | null]>; apply: { applied: string[]; skipped: Array<{ path: string; reason: string }> } };
      const expected = [...cases.map(([rel, , change, kind]) => (rel === "scripts" ? ["scripts/run.sh", change, "file"] : [rel, change, kind])), ["resources/visible.ts", "added", "file"]];
      assert.deepEqual(diff.map(([p, change, kind]) => [p, change, kind]), expected.sort((a, b) => (a[0]! < b[0]! ? -1 : 1)));
      for (const [rel, , , , refused] of cases) assert.match(diff.find(([p]) => p === rel || p.startsWith(`${rel}/`))![3] ?? "", refused, rel);
      assert.deepEqual(apply.applied, ["resources/visible.ts"]);
      assert.deepEqual(apply.skipped.map((s) => s.path), files.slice(0, -1));
      for (const { path: p, reason } of apply.skipped) assert.match(reason, /cannot be read \(EACCES\)/, p);
      for (const rel of ["apps/maps/lib/existing.ts", "apps/maps/lib/other.ts", "resources/data.ts", "scripts/run.sh"]) assert.ok(fs.existsSync(path.join(root, rel)), `${rel} is still in the workspace`);
    } finally {
      for (const [rel] of cases) fs.chmodSync(path.join(home, rel), 0o755);
    }
  });

  test("a file or folder whose name is not UTF-8 is listed, refused (it cannot be named), never hidden", async () => {
    const { root, home, sides, sync } = setup();
    await sync();
    const bytes = (rel: string, tail: number[]) => Buffer.concat([Buffer.from(path.join(home, rel)), Buffer.from(tail)]);
    fs.writeFileSync(bytes("resources/", [0x6e, 0xff, 0x2e, 0x74, 0x73]), "export const x = 1;\n"); // n\xff.ts
    fs.mkdirSync(bytes("apps/", [0xc3, 0x28]));
    fs.writeFileSync(Buffer.concat([bytes("apps/", [0xc3, 0x28]), Buffer.from("/inside.ts")]), "x\n");
    const diff = await diffBox(sides);
    const listed = diff.filter((c) => c.path.includes("\uFFFD")).map((c) => [c.path, c.change, c.kind, c.refused]);
    assert.deepEqual(listed, [
      ["apps/\uFFFD(", "added", undefined, "the box made a folder whose name is not UTF-8 (shown here with �): apply cannot name it; rename it in the box, then show the changes again"],
      ["resources/n\uFFFD.ts", "added", "file", "the box made a file whose name is not UTF-8 (shown here with �): apply cannot name it; rename it in the box, then show the changes again"],
    ]);
    const applied = await applyToWorkspace(sides, ["resources/n\uFFFD.ts"]);
    assert.deepEqual(applied.applied, []);
    assert.match(applied.skipped[0].reason, /whose name is not UTF-8/);
    assert.deepEqual(fs.readdirSync(path.join(root, "resources")), ["data.ts"], "nothing written");
  });

  test("a box's folder that cannot be read at all is an error, not a box whose every file was deleted", async () => {
    const { home, sides, sync } = setup();
    await sync();
    fs.chmodSync(home, 0o000);
    try {
      assert.throws(() => unprivileged(DIFF_AND_APPLY, { sides, files: ["README.md"] }), /acme-box cannot be read \(EACCES\)/);
    } finally {
      fs.chmodSync(home, 0o755);
    }
    assert.equal(read(path.join(sides.root, "README.md")), "read me\n");
  });
});

describe("apply's modes, as git checks files out", () => {
  // [path, the workspace's mode (none: a new file), the box's mode, the mode applied under umask 027]
  const CASES: Array<[rel: string, workspace: number | undefined, box: number, applied: number]> = [
    ["resources/data.ts", 0o644, 0o777, 0o755],
    ["README.md", 0o644, 0o4777, 0o755],
    ["apps/maps/lib/existing.ts", 0o600, 0o755, 0o700],
    ["scripts/run.sh", 0o755, 0o666, 0o644],
    ["apps/maps/lib/other.ts", 0o4750, 0o700, 0o750],
    ["sanoma.config.ts", 0o664, 0o666, 0o664],
    ["new/setuid.ts", undefined, 0o4777, 0o750],
    ["new/plain.ts", undefined, 0o666, 0o640],
    ["new/owner-x.sh", undefined, 0o744, 0o750],
  ];

  test("a workspace file keeps its mode but for x, which follows the box's (and the diff says where x changes); a new one is 666 or 777 less the umask; never a setuid bit", async () => {
    const { root, home, sides, sync } = setup();
    for (const [rel, workspace] of CASES) if (workspace !== undefined) fs.chmodSync(path.join(root, rel), workspace);
    await sync();
    for (const [rel, , box] of CASES) {
      fs.mkdirSync(path.dirname(path.join(home, rel)), { recursive: true });
      fs.writeFileSync(path.join(home, rel), `changed ${rel}\n`);
      fs.chmodSync(path.join(home, rel), box);
    }
    // The diff says where apply changes whether a file is executable (git shows it as a mode change).
    const listed = new Map((await diffBox(sides)).map((c) => [c.path, c.executable]));
    assert.deepEqual(CASES.map(([rel]) => [rel, listed.get(rel)]), CASES.map(([rel, workspace, box]) => {
      const [was, is] = [((workspace ?? 0) & 0o100) !== 0, (box & 0o100) !== 0];
      return [rel, was === is ? undefined : is];
    }));
    assert.deepEqual([listed.get("resources/data.ts"), listed.get("scripts/run.sh"), listed.get("sanoma.config.ts"), listed.get("new/plain.ts")], [true, false, undefined, undefined]);
    const umask = process.umask(0o027);
    try {
      const result = await applyToWorkspace(sides, CASES.map(([rel]) => rel));
      assert.deepEqual(result.skipped, []);
    } finally {
      process.umask(umask);
    }
    const modes = CASES.map(([rel]) => [rel, (fs.statSync(path.join(root, rel)).mode & 0o7777).toString(8)]);
    assert.deepEqual(modes, CASES.map(([rel, , , applied]) => [rel, applied.toString(8)]));
  });
});

describe("who owns what apply makes, when the server runs as root", () => {
  test("each folder apply makes gets the owner of the nearest folder above it, and so does the file made in it; a replaced file keeps its own", { skip: process.getuid?.() !== 0 && "needs root (only root gives files away)" }, async () => {
    const { root, home, sides, sync } = setup();
    await sync();
    // The user's workspace (uid 1000), with one folder of another user's (1001) in it.
    const chownTree = (full: string, uid: number, gid: number) => {
      fs.lchownSync(full, uid, gid);
      if (fs.lstatSync(full).isDirectory()) for (const name of fs.readdirSync(full)) chownTree(path.join(full, name), uid, gid);
    };
    chownTree(root, 1000, 1000);
    chownTree(path.join(root, "resources"), 1001, 1002);
    writeTree(home, "//- /newdir/deeper/f.txt\nnew\n//- /resources/made/deep/g.ts\nnew\n//- /README.md\nchanged\n");
    assert.deepEqual(await applyToWorkspace(sides, ["newdir/deeper/f.txt", "resources/made/deep/g.ts", "README.md"]), { applied: ["newdir/deeper/f.txt", "resources/made/deep/g.ts", "README.md"], skipped: [] });
    const owners = ["newdir", "newdir/deeper", "newdir/deeper/f.txt", "resources/made", "resources/made/deep", "resources/made/deep/g.ts", "README.md"].map((rel) => {
      const stat = fs.lstatSync(path.join(root, rel));
      return [rel, `${stat.uid}:${stat.gid}`];
    });
    assert.deepEqual(owners, [
      ["newdir", "1000:1000"], ["newdir/deeper", "1000:1000"], ["newdir/deeper/f.txt", "1000:1000"],
      ["resources/made", "1001:1002"], ["resources/made/deep", "1001:1002"], ["resources/made/deep/g.ts", "1001:1002"],
      ["README.md", "1000:1000"],
    ]);
  });
});

describe("a box of many files", () => {
  test("the diff opens none of the files the box added (apply opens each it copies): it lists them as its walk saw them", async () => {
    const { home, sides, sync } = setup();
    await sync();
    fs.mkdirSync(path.join(home, "generated"));
    for (let i = 0; i < 50; i++) fs.writeFileSync(path.join(home, `generated/f${i}.ts`), `export const f = ${i};\n`);
    fs.writeFileSync(path.join(home, "README.md"), "the box's readme\n"); // modified: opened, to be compared
    const nodeFs = (await import("node:fs")).default;
    const openSync = nodeFs.openSync;
    const opened: string[] = [];
    nodeFs.openSync = ((p: fs.PathLike, ...rest: unknown[]) => { opened.push(String(p)); return (openSync as (...a: unknown[]) => number)(p, ...rest); }) as typeof fs.openSync;
    let diff;
    try {
      diff = await readDiff(sides);
    } finally {
      nodeFs.openSync = openSync;
    }
    assert.equal(diff.changes.length, 51);
    assert.deepEqual(opened.filter((p) => p.includes("generated")), [], "no added file opened");
    assert.ok(opened.some((p) => p.endsWith("/README.md")), "a modified file is opened to be compared");
    const result = await applyToWorkspace(sides, ["generated/f7.ts", "README.md"], { shown: diff.seen });
    assert.deepEqual(result, { applied: ["generated/f7.ts", "README.md"], skipped: [] });
    assert.equal(read(path.join(sides.root, "generated/f7.ts")), "export const f = 7;\n");
  });

  /** An added file of the box, and what a box's process puts in its place (or on its way) meanwhile. */
  function swappable(home: string) {
    const outside = tempDir();
    fs.writeFileSync(path.join(outside, "f.ts"), "the machine's secret\n");
    writeTree(home, "//- /new/plain.ts\nplain\n//- /new/link.ts\nbenign\n//- /new/fifo.ts\nbenign\n//- /new/renamed.ts\nbenign\n//- /new/rewritten.ts\nbenign\n//- /sub/f.ts\nbenign\n");
    const at = (rel: string) => path.join(home, rel);
    const swaps: Record<string, () => void> = {
      "new/link.ts": () => { fs.rmSync(at("new/link.ts")); fs.symlinkSync(path.join(outside, "f.ts"), at("new/link.ts")); },
      "new/fifo.ts": () => { fs.rmSync(at("new/fifo.ts")); execFileSync("mkfifo", [at("new/fifo.ts")]); },
      // The same bytes, another file; the same size, rewritten in place.
      "new/renamed.ts": () => { fs.writeFileSync(at("new/.other"), "benign\n"); fs.renameSync(at("new/.other"), at("new/renamed.ts")); },
      "new/rewritten.ts": () => fs.writeFileSync(at("new/rewritten.ts"), "BOGUS\n"),
      "sub/f.ts": () => { fs.renameSync(at("sub"), at(".sub")); fs.symlinkSync(outside, at("sub")); },
    };
    return { files: ["new/plain.ts", ...Object.keys(swaps)], swaps };
  }

  test("an added file swapped between the diff and apply (a link, a FIFO, another file, a folder on its way made a link, rewritten) is refused; the rest applies", async () => {
    const { root, home, sides, sync } = setup();
    await sync();
    const { files, swaps } = swappable(home);
    const diff = await readDiff(sides);
    assert.deepEqual(diff.changes.map((c) => [c.path, c.change, c.kind]), [...files].sort().map((p) => [p, "added", "file"]));
    for (const swap of Object.values(swaps)) swap();
    const result = await applyToWorkspace(sides, files, { shown: diff.seen });
    assert.deepEqual(result.applied, ["new/plain.ts"]);
    assert.deepEqual(result.skipped.map((s) => s.path), files.slice(1));
    assert.equal(read(path.join(root, "new/plain.ts")), "plain\n");
    for (const rel of files.slice(1)) assert.equal(fs.existsSync(path.join(root, rel)), false, `${rel} was written`);
  });

  test("an added file swapped after apply's own diff, just before apply opens it, is refused by what its descriptor tells", async () => {
    const { root, home, sides, sync } = setup();
    await sync();
    const { files, swaps } = swappable(home);
    const diff = await readDiff(sides);
    // Each swap made as apply opens the box's file to copy it: after apply's own diff.
    const nodeFs = (await import("node:fs")).default;
    const openSync = nodeFs.openSync;
    const realHome = fs.realpathSync(home);
    nodeFs.openSync = ((p: fs.PathLike, ...rest: unknown[]) => {
      const rel = String(p).startsWith(`${realHome}/`) ? String(p).slice(realHome.length + 1) : undefined;
      if (rel !== undefined && swaps[rel]) { swaps[rel](); delete swaps[rel]; }
      return (openSync as (...a: unknown[]) => number)(p, ...rest);
    }) as typeof fs.openSync;
    let result;
    try {
      result = await applyToWorkspace(sides, files, { shown: diff.seen });
    } finally {
      nodeFs.openSync = openSync;
    }
    assert.deepEqual(Object.keys(swaps), [], "every swap was made");
    assert.deepEqual(result.applied, ["new/plain.ts"]);
    assert.deepEqual(result.skipped, [
      { path: "new/link.ts", reason: "it is a symlink in the box now: show the changes again" },
      { path: "new/fifo.ts", reason: "it is a FIFO (named pipe) in the box now: show the changes again" },
      { path: "new/renamed.ts", reason: "the box changed it since the diff: show the changes again" },
      { path: "new/rewritten.ts", reason: "the box changed it since the diff: show the changes again" },
      { path: "sub/f.ts", reason: "it vanished from the box" },
    ]);
    for (const rel of files.slice(1)) assert.equal(fs.existsSync(path.join(root, rel)), false, `${rel} was written`);
  });

  test("past its bound on entries the diff answers with what it found, says the box holds too many files, and lists no deletion; apply says so of a path it did not see", async () => {
    const { root, home, sides, sync } = setup();
    await sync();
    fs.rmSync(path.join(home, "README.md")); // deleted by the box
    for (let d = 0; d < 4; d++) {
      fs.mkdirSync(path.join(home, `g${d}`));
      for (let i = 0; i < 25; i++) fs.writeFileSync(path.join(home, `g${d}/f${i}.ts`), "x\n");
    }
    const whole = await readDiff(sides);
    assert.equal(whole.tooMany, undefined);
    assert.deepEqual(whole.changes.filter((c) => c.change === "deleted").map((c) => c.path), ["README.md"]);
    assert.equal(whole.changes.length, 101);

    const bounded = await readDiff(sides, { maxEntries: 40 });
    assert.equal(bounded.tooMany, tooManyFiles(40));
    assert.match(bounded.tooMany!, /^the box holds more than 40 files and folders, too many to list: the diff shows what changed among the first 40 it looked at, and no deletions/);
    assert.ok(bounded.changes.length > 0 && bounded.changes.length < 40, `${bounded.changes.length} listed`);
    assert.deepEqual(bounded.changes.filter((c) => c.change === "deleted"), [], "no deletion listed: the rest of the box was not seen");
    const listed = bounded.changes[0].path;
    const unseen = whole.changes.map((c) => c.path).find((p) => p !== "README.md" && !bounded.changes.some((c) => c.path === p))!;
    const result = await applyToWorkspace(sides, [listed, unseen, "README.md"], { maxEntries: 40 });
    assert.deepEqual(result, { applied: [listed], skipped: [{ path: unseen, reason: tooManyFiles(40) }, { path: "README.md", reason: tooManyFiles(40) }] });
    assert.equal(read(path.join(root, "README.md")), "read me\n", "not deleted");
  });

  test("the diff shown reads no more of the box's files than its bound to hash them: past it a file is listed refused, and apply skips it; once the others are applied, shown again, it applies", async () => {
    const { root, home, sides, sync } = setup();
    await sync();
    const MiB = 2 ** 20;
    for (const [name, size] of [["a.bin", 3 * MiB], ["b.bin", 3 * MiB], ["c.bin", MiB]] as const) {
      fs.writeFileSync(path.join(home, name), "");
      fs.truncateSync(path.join(home, name), size);
    }
    const diff = await readDiff(sides);
    await readShown(sides, diff, 5000, { maxReadBytes: 5 * MiB });
    const notRead = "the diff reads no more than 5 MiB of the box's files (what it shows is hashed, so that apply copies those bytes and no others), and the files before it took 3 MiB: apply those, then show the changes again";
    assert.deepEqual(diff.changes.map((c) => [c.path, c.refused]), [["a.bin", undefined], ["b.bin", notRead], ["c.bin", undefined]]);
    assert.deepEqual(await applyToWorkspace(sides, ["a.bin", "b.bin", "c.bin"], { shown: diff.seen }), {
      applied: ["a.bin", "c.bin"],
      skipped: [{ path: "b.bin", reason: "the diff that showed it did not read it (it had read as much of the box's files as it reads at once): apply the others, then show the changes again" }],
    });
    const again = await readDiff(sides);
    await readShown(sides, again, 5000, { maxReadBytes: 5 * MiB });
    assert.deepEqual(again.changes.map((c) => [c.path, c.refused]), [["b.bin", undefined]]);
    assert.deepEqual(await applyToWorkspace(sides, ["b.bin"], { shown: again.seen }), { applied: ["b.bin"], skipped: [] });
    assert.deepEqual(fs.readdirSync(root).filter((f) => f.endsWith(".bin")).sort(), ["a.bin", "b.bin", "c.bin"]);
  });

  /** `count` empty files at the bottom of 15 folders of 250-byte names, each path some 4 KB (a box's own making: the audit's 200,000 took the server past its heap). */
  function longPaths(home: string, count: number): string[] {
    let dir = "deep";
    for (let i = 0; i < 15; i++) dir += `/${String(i).padStart(3, "0")}${"d".repeat(247)}`;
    fs.mkdirSync(path.join(home, dir), { recursive: true });
    const made: string[] = [];
    for (let i = 0; i < count; i++) {
      const rel = `${dir}/${String(i).padStart(5, "0")}${"f".repeat(245)}`;
      fs.closeSync(fs.openSync(path.join(home, rel), "w"));
      made.push(rel);
    }
    return made;
  }

  test("past its bound on the bytes of the box's paths (fewer entries, longer paths) the diff answers with what it found, says so, and lists no deletion; apply says so of a path it did not see", async () => {
    const { root, home, sides, sync } = setup();
    await sync();
    fs.rmSync(path.join(home, "README.md")); // deleted by the box
    const made = longPaths(home, 40);
    const whole = await readDiff(sides);
    assert.deepEqual([whole.tooMany, whole.changes.length], [undefined, 41]);

    // 40 paths of 4,044 bytes, and their folders: 20 of them take some 80 KB.
    const bounded = await readDiff(sides, { maxPathBytes: 100_000 });
    assert.match(bounded.tooMany ?? "", /^the paths of the box's files and folders take more than 97\.7 KiB in all, too many to list: the diff shows what changed among the first \d+ it looked at, and no deletions/);
    assert.ok(bounded.changes.length > 0 && bounded.changes.length < 40, `${bounded.changes.length} listed`);
    assert.deepEqual(bounded.changes.filter((c) => c.change === "deleted"), [], "no deletion listed: the rest of the box was not seen");
    const unseen = made.find((rel) => !bounded.changes.some((c) => c.path === rel))!;
    const result = await applyToWorkspace(sides, [bounded.changes[0].path, unseen, "README.md"], { maxPathBytes: 100_000 });
    assert.deepEqual(result, { applied: [bounded.changes[0].path], skipped: [{ path: unseen, reason: bounded.tooMany }, { path: "README.md", reason: bounded.tooMany }] });
    assert.equal(read(path.join(root, "README.md")), "read me\n", "not deleted");
  });

  test("at its own bound, 32 MiB of paths, the diff of a box of 8,400 paths of 4 KB stops; it keeps one string of each path, not three (the absolute ones are made for what is listed)", async () => {
    const { home, sides, sync } = setup();
    await sync();
    longPaths(home, 8400);
    const diff = await readDiff(sides);
    assert.match(diff.tooMany ?? "", /^the paths of the box's files and folders take more than 32 MiB in all, too many to list/);
    assert.ok(diff.changes.length > 8000 && diff.changes.length < 8400, `${diff.changes.length} listed`);
    assert.deepEqual(diff.changes.filter((c) => "workspaceFile" in c || "boxFile" in c).length, 0, "no absolute path kept");
    const [first] = await diffBox(sides);
    assert.deepEqual(first, { ...diff.changes[0], boxFile: path.join(home, first.path), workspaceFile: path.join(sides.root, first.path) });
  });
});

describe("files named like Object.prototype's keys", () => {
  test("are synced, kept in step, listed and applied like any other", async () => {
    const { root, home, runsDir, sides, sync } = setup();
    await sync();
    const NAMES = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"];
    for (const name of NAMES) fs.writeFileSync(path.join(root, name), `${name}\n`);
    assert.equal((await sync()).copied, NAMES.length);
    for (const name of NAMES) assert.equal(read(path.join(home, name)), `${name}\n`, name);
    assert.deepEqual(Object.keys(readManifest(runsDir, root).files).filter((rel) => NAMES.includes(rel)).sort(), [...NAMES].sort());
    const again = await sync();
    assert.deepEqual([again.copied, again.updated, again.kept], [0, 0, []]);
    assert.deepEqual(await diffBox(sides), []);
    fs.writeFileSync(path.join(home, "constructor"), "changed by the box\n");
    fs.rmSync(path.join(home, "__proto__"));
    assert.deepEqual((await diffBox(sides)).map((c) => [c.path, c.change]), [["__proto__", "deleted"], ["constructor", "modified"]]);
    assert.deepEqual(await applyToWorkspace(sides, ["constructor", "__proto__"]), { applied: ["constructor", "__proto__"], skipped: [] });
    assert.equal(read(path.join(root, "constructor")), "changed by the box\n");
    assert.equal(fs.existsSync(path.join(root, "__proto__")), false);
  });
});

describe("apply paths", () => {
  test("an absolute path is refused, and every skip names the path as the request wrote it", async () => {
    const { root, home, sides, sync } = setup();
    await sync();
    writeTree(home, "//- /resources/z.ts\nexport const z = 1;\n//- /README.md\nchanged\n");
    fs.writeFileSync(path.join(root, "README.md"), "the user's edit\n");
    fs.rmSync(path.join(root, "scripts"), { recursive: true });
    fs.symlinkSync(path.join(root, "resources"), path.join(root, "scripts"));
    fs.writeFileSync(path.join(home, "scripts/new.sh"), "new\n");
    const result = await applyToWorkspace(sides, ["/resources/z.ts", path.join(root, "resources/z.ts"), ".//README.md", "./scripts//new.sh", "resources/./nothing.ts"], { overwrite: ["/README.md"] });
    assert.deepEqual(result, {
      applied: [],
      skipped: [
        { path: "/resources/z.ts", reason: "is an absolute path: files lists paths relative to the company root" },
        { path: path.join(root, "resources/z.ts"), reason: "is an absolute path: files lists paths relative to the company root" },
        { path: ".//README.md", reason: "it changed in the workspace too since the box was synced: name it in overwrite to replace your version" },
        { path: "resources/./nothing.ts", reason: "the box did not change it" },
        { path: "./scripts//new.sh", reason: "scripts is a symlink in the workspace: apply never writes through a link" },
      ],
    });
    assert.equal(fs.existsSync(path.join(root, "resources/z.ts")), false);
  });
});

describe("while apply copies (the box and the user both act meanwhile)", () => {
  /**
   * Runs `during` once, the first time apply writes into its temporary file for `name` (with
   * `write` or `writeSync`), through Node's own fs object (which the apply reads through).
   */
  async function applyWhile(sides: { root: string; home: string; runsDir: string }, files: string[], name: string, during: () => void, options: Parameters<typeof applyToWorkspace>[2] = {}) {
    const nodeFs = (await import("node:fs")).default;
    const { writeSync, write, openSync } = nodeFs;
    let done = false;
    const opened = new Map<number, string>();
    const first = (fd: number) => {
      const temp = path.basename(opened.get(fd) ?? "");
      if (!done && temp.startsWith(".sanoma-apply-") && temp.endsWith(`-${name}`)) { done = true; during(); }
    };
    nodeFs.openSync = ((p: fs.PathLike, ...rest: unknown[]) => { const fd = (openSync as (...a: unknown[]) => number)(p, ...rest); opened.set(fd, String(p)); return fd; }) as typeof fs.openSync;
    nodeFs.writeSync = ((fd: number, ...rest: unknown[]) => { first(fd); return (writeSync as (...a: unknown[]) => number)(fd, ...rest); }) as typeof fs.writeSync;
    nodeFs.write = ((fd: number, ...rest: unknown[]) => { first(fd); return (write as (...a: unknown[]) => void)(fd, ...rest); }) as typeof fs.write;
    try {
      return await applyToWorkspace(sides, files, options);
    } finally {
      Object.assign(nodeFs, { writeSync, write, openSync });
    }
  }

  test("a box file that grows once its copy has begun is refused: no more than the size judged is ever written (a sparse terabyte filled the disk)", async () => {
    const { root, home, sides, sync } = setup();
    await sync();
    fs.writeFileSync(path.join(home, "gen.bin"), Buffer.alloc(64 * 1024, 1));
    const result = await applyWhile(sides, ["gen.bin"], "gen.bin", () => fs.truncateSync(path.join(home, "gen.bin"), 1024 ** 4)); // sparse: 1 TiB
    assert.deepEqual(result, { applied: [], skipped: [{ path: "gen.bin", reason: "the box changed it while it was copied: show the changes again" }] });
    assert.equal(fs.existsSync(path.join(root, "gen.bin")), false);
    assert.deepEqual(fs.readdirSync(root).filter((f) => f.includes("sanoma-apply")), [], "no temporary file left");
  });

  test("a big file is copied a chunk at a time, the event loop turning meanwhile: the server answers other requests (a box's sparse 4 GiB file kept every request waiting 28 s)", async () => {
    const { root, home, sides, sync } = setup();
    await sync();
    fs.writeFileSync(path.join(home, "big.bin"), "");
    fs.truncateSync(path.join(home, "big.bin"), 48 * 2 ** 20); // sparse: 48 MiB that take no disk in the box
    let settled = false;
    let turns = 0;
    const turn = () => { if (!settled) { turns++; setImmediate(turn); } };
    const result = await applyWhile(sides, ["big.bin"], "big.bin", () => setImmediate(turn));
    settled = true;
    assert.deepEqual(result, { applied: ["big.bin"], skipped: [] });
    assert.equal(fs.statSync(path.join(root, "big.bin")).size, 48 * 2 ** 20);
    assert.ok(turns >= 48, `the event loop turned ${turns} times while 48 chunks of 1 MiB were copied`);
  });

  test("a file past the largest apply copies is listed with its size and refused; one apply copies no more than its bound in all, and says so of the rest", async () => {
    const { root, home, sides, sync } = setup();
    await sync();
    const MiB = 2 ** 20;
    for (const [name, size] of [["a.bin", 3 * MiB], ["b.bin", 3 * MiB], ["c.bin", 5 * MiB]] as const) {
      fs.writeFileSync(path.join(home, name), "");
      fs.truncateSync(path.join(home, name), size);
    }
    const limits = { maxFileBytes: 4 * MiB, maxApplyBytes: 5 * MiB };
    const tooBig = "the box's file takes 5 MiB, more than apply copies (4 MiB a file, so that a box's sparse file, which takes no disk in the box, cannot fill yours): copy it by hand if you want it";
    const diff = await readDiff(sides, limits);
    assert.deepEqual(diff.changes.map((c) => [c.path, c.size, c.refused]), [["a.bin", 3 * MiB, undefined], ["b.bin", 3 * MiB, undefined], ["c.bin", 5 * MiB, tooBig]]);
    assert.equal((await diffBox(sides, limits)).find((c) => c.path === "c.bin")?.boxFile, undefined, "no box file to open: it is refused");
    const result = await applyToWorkspace(sides, ["a.bin", "b.bin", "c.bin"], limits);
    assert.deepEqual(result, { applied: ["a.bin"], skipped: [{ path: "c.bin", reason: tooBig }, { path: "b.bin", reason: "one apply copies at most 5 MiB, and the files before it took 3 MiB: apply it again, with fewer files" }] });
    assert.deepEqual(fs.readdirSync(root).filter((f) => f.endsWith(".bin")), ["a.bin"]);
    assert.deepEqual(await applyToWorkspace(sides, ["b.bin"], limits), { applied: ["b.bin"], skipped: [] });
    assert.deepEqual(fs.readdirSync(root).filter((f) => f.includes("sanoma-apply")), [], "no temporary file left");
  });

  test("a box file whose name takes 255 bytes, the most a name may, is applied (the temporary file's name beside it passed 255)", async () => {
    const { root, home, sides, sync } = setup();
    await sync();
    const long = `${"é".repeat(126)}.t`; // 252 + 2 bytes: 254
    fs.writeFileSync(path.join(home, long), "long\n");
    assert.deepEqual(await applyWhile(sides, [long], long, () => {}), { applied: [long], skipped: [] });
    assert.equal(read(path.join(root, long)), "long\n");
    assert.deepEqual(fs.readdirSync(root).filter((f) => f.includes("sanoma-apply")), []);
  });

  test("a workspace file the user saves while apply runs is kept: it is no longer as it was at the diff, whether it is the file being copied or one after it", async () => {
    const { root, home, sides, sync } = setup();
    await sync();
    fs.writeFileSync(path.join(home, "README.md"), "the box's readme\n");
    fs.writeFileSync(path.join(home, "resources/data.ts"), "export const box = 1;\n");
    // Saved while the README's bytes are copied: both the README itself and data.ts (applied after it).
    const saved = () => {
      fs.writeFileSync(path.join(root, "README.md"), "the user's new readme, saved meanwhile\n");
      fs.writeFileSync(path.join(root, "resources/data.ts"), "export const users = 1; // saved meanwhile\n");
    };
    const result = await applyWhile(sides, ["README.md", "resources/data.ts"], "README.md", saved);
    const kept = "it changed in the workspace while the apply ran (your version is kept): show the changes again, and name it in overwrite to replace it";
    assert.deepEqual(result, { applied: [], skipped: [{ path: "README.md", reason: kept }, { path: "resources/data.ts", reason: kept }] });
    assert.equal(read(path.join(root, "README.md")), "the user's new readme, saved meanwhile\n");
    assert.equal(read(path.join(root, "resources/data.ts")), "export const users = 1; // saved meanwhile\n");
  });
});
