/**
 * The server's own watcher (`server/src/node/folder-watcher.ts`) when a tree's root goes at the worst
 * moment: between the look that finds it and the watch set on it (a workspace folder deleted while
 * the server starts). Nothing then watched it, and nothing looked for it: made again, it was never
 * indexed again (once in about 25 clean-clone runs of `watcher.test.ts`). The moment is made here:
 * Node's `fs.watch` (or `realpathSync`), for that root only, removes it and fails as the kernel
 * would. Everything else is the real file system.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
// (Node's own `fs` object, which the watcher's `import * as fs` reads through: a mock set on it is seen there.)
import fs from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FolderWatcher, type Change } from "../../server/src/node/folder-watcher.ts";

const base = fs.realpathSync(fs.mkdtempSync(join(tmpdir(), "sanoma-folder-watcher-")));
after(() => fs.rmSync(base, { recursive: true, force: true }));

function enoent(call: string, p: string): Error {
  return Object.assign(new Error(`ENOENT: no such file or directory, ${call} '${p}'`), { code: "ENOENT" });
}

async function until(what: string, ok: () => boolean, ms = 5000): Promise<void> {
  for (const end = Date.now() + ms; !ok();) {
    if (Date.now() > end) assert.fail(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Watches `root` as the server does its workspace folders, `fault` breaking the first call of one `fs` function for that root. */
async function watchedWhileItGoes(name: string, fault: "watch" | "realpathSync"): Promise<void> {
  const root = join(base, name);
  fs.mkdirSync(join(root, "workflows"), { recursive: true });
  const seen: [string, Change][] = [];
  const logged: string[] = [];
  const watcher = new FolderWatcher((file, kind) => seen.push([file, kind]), (m) => logged.push(m));
  const original = fs[fault] as (...args: unknown[]) => unknown;
  let broken = false;
  const mock = test.mock.method(fs, fault, function (this: unknown, ...args: unknown[]) {
    if (!broken && args[0] === root) {
      broken = true;
      fs.rmSync(root, { recursive: true, force: true });
      throw enoent(fault === "watch" ? "watch" : "realpath", root);
    }
    return original.apply(this, args);
  });
  try {
    watcher.watchTree(root, "folder");
    assert.ok(broken, "the root went between the look and the watch");
    mock.mock.restore();
    fs.mkdirSync(join(root, "workflows"), { recursive: true });
    await until("the root made again is reported created", () => seen.some(([f, k]) => f === root && k === "created"));
    // And it is watched now: a file written in it is seen.
    const file = join(root, "workflows", "new.ts");
    fs.writeFileSync(file, "export {};\n");
    await until("a file made in it is seen", () => seen.some(([f]) => f === file || f === join(root, "workflows")));
    assert.deepEqual(logged, []);
  } finally {
    mock.mock.restore();
    watcher.close();
  }
}

test("a tree's root deleted between its stat and its watch is looked for, and watched and reported created when made again", async () => {
  await watchedWhileItGoes("gone-before-watch", "watch");
});

test("a tree's root deleted between the look that found it and the walk's stat is looked for too", async () => {
  await watchedWhileItGoes("gone-before-walk", "realpathSync");
});

test("a tree's root that is there but cannot be watched (the kernel's watches used up) is said, not reported created at every poll", async () => {
  const root = join(base, "unwatchable");
  fs.mkdirSync(root);
  const seen: [string, Change][] = [];
  const logged: string[] = [];
  const watcher = new FolderWatcher((file, kind) => seen.push([file, kind]), (m) => logged.push(m));
  const original = fs.watch as (...args: unknown[]) => unknown;
  const mock = test.mock.method(fs, "watch", function (this: unknown, ...args: unknown[]) {
    if (args[0] === root) throw Object.assign(new Error(`ENOSPC: System limit for number of file watchers reached, watch '${root}'`), { code: "ENOSPC" });
    return original.apply(this, args);
  });
  try {
    watcher.watchTree(root, "folder");
    // Four polls' time: a root taken for gone would be found there at the first and reported created.
    await new Promise((r) => setTimeout(r, 1100));
    assert.deepEqual(seen, []);
    assert.equal(logged.length, 1);
    assert.match(logged[0], /^cannot watch .*unwatchable: ENOSPC/);
  } finally {
    mock.mock.restore();
    watcher.close();
  }
});

test("a root found back by the poll but gone again before its walk is not reported created: it is looked for still, and reported once it is back for good", async () => {
  const root = join(base, "gone-twice");
  fs.mkdirSync(root);
  const seen: [string, Change][] = [];
  const watcher = new FolderWatcher((file, kind) => seen.push([file, kind]), () => {});
  const original = fs.realpathSync as (...args: unknown[]) => unknown;
  let calls = 0;
  const mock = test.mock.method(fs, "realpathSync", function (this: unknown, ...args: unknown[]) {
    // The first two walks of the root (the watch asked for, then the poll's) find it gone.
    if (args[0] === root && ++calls <= 2) {
      fs.rmSync(root, { recursive: true, force: true });
      throw enoent("realpath", root);
    }
    return original.apply(this, args);
  });
  try {
    watcher.watchTree(root, "folder");
    fs.mkdirSync(root);
    await until("the poll's walk found it gone again", () => calls >= 2);
    assert.deepEqual(seen, [], "nothing reported of a root that is not there");
    fs.mkdirSync(root);
    await until("the root back for good is reported created", () => seen.length > 0);
    assert.deepEqual(seen, [[root, "created"]]);
  } finally {
    mock.mock.restore();
    watcher.close();
  }
});
