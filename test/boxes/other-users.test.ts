/**
 * "What such a command cannot reach itself (another user's private folder), it cannot reach
 * through the server either" (docs/boxes.md, the process tier run by root). Each attack as a box's
 * command would make it: a process the box leaves running, which a stop cannot find (the process
 * tier's documented escape: `env -i setsid -f`, working outside the home), races the server's own
 * work on the box. Run as root (CI), the victim is another user's (uid 65534, mode 700), which the
 * box's capability-less root cannot touch itself; run as anyone else, it is a folder of the test's
 * own, and the server must leave it alone all the same.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { BoxService } from "../../server/src/boxes/service.ts";
import { cleanupTempDirs, killAllWith, processesNamed, tempDir, token, waitFor, writeTree } from "./helpers.ts";

after(cleanupTempDirs);

const ROOT = process.getuid?.() === 0;
/** Whom the victim's files belong to where the tests run as root: no one's the box runs as. */
const OTHER_UID = 65534;

const COMPANY = `
//- /sanoma.config.ts
export default defineConfig({ name: "acme" });
//- /apps/maps/workflows/route.ts
export const route = defineWorkflow({});
//- /lib/a.ts
export const a = 1;
`;

const services: BoxService[] = [];
after(async () => {
  for (const s of services) await s.dispose();
});

/** A company, and a preview box of it in the process tier, synced, with a helper to run in it. */
async function previewed() {
  const root = path.join(tempDir(), "acme");
  writeTree(root, COMPANY);
  const boxes = new BoxService({ boxesDir: tempDir(), tier: "process" });
  services.push(boxes);
  const preview = await boxes.preview({ root, file: "apps/maps/workflows/route.ts", export: "route", command: "true", wait: true });
  assert.equal(preview.tier, "process");
  const name = preview.name;
  const inBox = async (command: string) => {
    const run = await boxes.run({ name, command, wait: true });
    assert.equal(run.result?.exitCode, 0, run.result?.stderr);
    return run.result!;
  };
  return { root, boxes, name, home: path.join(boxes.boxesDir, name), runsDir: path.join(boxes.boxesDir, ".runs", name), inBox };
}

/**
 * A private folder holding `files` (relative paths, folders made on the way): another user's
 * (uid 65534, every folder 700, every file 600) where the tests run as root, else the test's own.
 */
function victimFolder(files: string[]): string {
  const victim = path.join(tempDir("sanoma-victim-"), "alice");
  fs.mkdirSync(victim, { mode: 0o700 });
  for (const rel of files) {
    fs.mkdirSync(path.dirname(path.join(victim, rel)), { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(victim, rel), "alice's\n", { mode: 0o600 });
  }
  if (ROOT) {
    const give = (full: string) => {
      fs.lchownSync(full, OTHER_UID, OTHER_UID);
      if (fs.lstatSync(full).isDirectory()) for (const name of fs.readdirSync(full)) give(path.join(full, name));
    };
    give(victim);
  }
  return victim;
}

/** Every file under `dir`, relative, sorted. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((e) => !e.isDirectory())
    .map((e) => path.relative(dir, path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name)))
    .sort();
}

/**
 * A process of the box's that a stop cannot find: it clears its environment, leaves the box's
 * group and works outside the home. It waits (inotify) until something is deleted in `folder`,
 * then swaps `folder` and `link` in one step (renameat2's RENAME_EXCHANGE): the server, emptying
 * `folder`, then finds a link to the victim at its path. `ready` is made once it watches.
 */
function swapOnDelete(folder: string, link: string, ready: string): string {
  const script = [
    "import ctypes, os, sys",
    "libc = ctypes.CDLL(None, use_errno=True)",
    "fd = libc.inotify_init()",
    "libc.inotify_add_watch(fd, sys.argv[1].encode(), 0x200)", // IN_DELETE
    "open(sys.argv[3], 'w').close()",
    "os.read(fd, 4096)",
    "sys.exit(0 if libc.renameat2(-100, sys.argv[1].encode(), -100, sys.argv[2].encode(), 2) == 0 else 2)", // AT_FDCWD, RENAME_EXCHANGE
  ].join("; ");
  const python = spawnSync("bash", ["-c", "command -v python3"], { encoding: "utf8" }).stdout.trim();
  assert.ok(python, "python3 is installed");
  return `cd / && env -i setsid -f ${python} -c ${JSON.stringify(script)} ${JSON.stringify(folder)} ${JSON.stringify(link)} ${JSON.stringify(ready)} </dev/null >/dev/null 2>&1`;
}

describe("a box's escaped process against the server run by root, process tier", () => {
  const folders: [string, (box: { home: string; tmp: string; runsDir: string }) => string][] = [
    ["its home", (b) => b.home],
    ["its temporary folder", (b) => b.tmp],
    ["its log's folder", (b) => b.runsDir],
  ];
  for (const [where, folderOf] of folders) {
    test(`discard: a folder in ${where} swapped for a link to another user's folder while discard empties it: nothing there is deleted (the discard says it could not finish; the next one does)`, async () => {
      const names = Array.from({ length: 2000 }, (_, i) => `f${i}`);
      const victim = victimFolder([...names, "docs/notes.txt"]);
      const before = filesUnder(victim);
      const { boxes, name, home, runsDir, inBox } = await previewed();
      const tmp = path.join(boxes.boxesDir, ".tmp", name);
      const folder = path.join(folderOf({ home, tmp, runsDir }), "a");
      const partner = tempDir("sanoma-partner-");
      const ready = path.join(partner, "ready");
      after(() => killAllWith(ready)); // the swapper, should the test end before its swap
      // (A process-tier box writes where the server's user may: its log's folder too.)
      await inBox(`mkdir -p ${JSON.stringify(folder)}/docs && cd ${JSON.stringify(folder)} && touch docs/notes.txt && seq 0 1999 | sed 's/^/f/' | xargs touch && ln -s ${JSON.stringify(victim)} ${JSON.stringify(`${partner}/link`)}`);
      if (ROOT) {
        const tried = await boxes.run({ name, command: `rm -rf ${JSON.stringify(victim)}/docs ${JSON.stringify(victim)}/f0`, wait: true });
        assert.notEqual(tried.result?.exitCode, 0, "the box itself cannot delete the victim's files");
      }
      await inBox(swapOnDelete(folder, path.join(partner, "link"), ready));
      await waitFor(() => fs.existsSync(ready), 15_000, "the swapper to watch");
      const first = await boxes.discard({ name }).then(() => "discarded", (e: Error) => e.message);
      await waitFor(() => !fs.lstatSync(path.join(partner, "link")).isSymbolicLink(), 15_000, "the swap (the race was run)");
      assert.deepEqual(filesUnder(victim), before, "nothing of the victim's was deleted");
      assert.ok(first === "discarded" || /could not be discarded whole: its folders changed while they were deleted .*nothing was deleted through a link\. Discard it again/.test(first), first);
      assert.deepEqual(await boxes.discard({ name }), { discarded: first !== "discarded" });
      assert.equal([home, tmp, runsDir].some((d) => fs.existsSync(d)), false, "the box is gone");
      assert.deepEqual(filesUnder(victim), before);
    });
  }

  test("stop and discard: a home the box replaced with a link is never followed: an orphan working in the link's target, no process of the box's, lives on (before, stop, preview, discard and shutdown ended it)", async () => {
    const { boxes, name, inBox } = await previewed();
    const elsewhere = tempDir("sanoma-daemon-cwd-");
    const daemon = token("daemon");
    after(() => killAllWith(daemon));
    // A daemon working there: detached (adopted), no terminal, as a box's escaped orphan would be.
    spawnSync("bash", ["-c", `cd ${JSON.stringify(elsewhere)} && setsid -f bash -c 'exec -a ${daemon} sleep 60' </dev/null >/dev/null 2>&1`]);
    await waitFor(() => processesNamed(daemon).length === 1, 15_000, "the daemon");
    await inBox(`cd / && mv "$HOME" "$HOME.moved" && ln -s ${JSON.stringify(elsewhere)} "$HOME"`);
    await boxes.stop({ name });
    assert.equal(processesNamed(daemon).length, 1, "a stop leaves it alone");
    await boxes.discard({ name });
    assert.equal(processesNamed(daemon).length, 1, "and so does a discard");
    assert.ok(fs.existsSync(elsewhere), "whose deletion removed the link, never its target");
  });

  /**
   * Processes the box did not start, made as another user's would be where the tests run as root
   * (uid 65534): one carrying the box's tag in its environment (a login that read a profile the
   * box wrote: the process tier's root may write root's /etc/profile.d), and an orphan without a
   * terminal working in the box's home. Neither can the box signal itself. Not root, no process of
   * another user's can be made: none is, and only the box's own are asserted on.
   */
  function othersOf(tag: string, home: string): string[] {
    if (!ROOT) return [];
    const tagged = token("theirs-tagged");
    const working = token("theirs-in-home");
    const as = `setpriv --reuid=${OTHER_UID} --regid=${OTHER_UID} --clear-groups`;
    spawnSync("bash", ["-c", `cd / && SANOMA_BOX_RUN=${tag}.planted ${as} setsid -f bash -c 'exec -a ${tagged} sleep 60' </dev/null >/dev/null 2>&1`]);
    spawnSync("bash", ["-c", `cd ${JSON.stringify(home)} && ${as} env -i setsid -f /bin/bash -c 'exec -a ${working} sleep 60' </dev/null >/dev/null 2>&1`]);
    after(() => { killAllWith(tagged); killAllWith(working); });
    return [tagged, working];
  }

  /** The box's own processes that left its group: one keeping the tag, one that cleared it and works in the home. */
  async function escapeesOf(boxes: BoxService, name: string): Promise<string[]> {
    const tagged = token("mine-tagged");
    const cleared = token("mine-cleared");
    after(() => { killAllWith(tagged); killAllWith(cleared); });
    await boxes.run({ name, command: `(setsid bash -c 'exec -a ${tagged} sleep 60' &); env -i setsid -f /bin/bash -c 'exec -a ${cleared} sleep 60'`, wait: true });
    return [tagged, cleared];
  }

  test("stop: what carries the box's tag, or works in its home as an orphan, is ended only when it is the server's own user's (before, another user's was ended too: the box's tag is the box's to plant)", async () => {
    const { boxes, name, home, inBox } = await previewed();
    const tag = (await inBox("echo $SANOMA_BOX_RUN")).stdout.trim().split(".")[0]!;
    const mine = await escapeesOf(boxes, name);
    const theirs = othersOf(tag, home);
    await waitFor(() => [...mine, ...theirs].every((t) => processesNamed(t).length === 1), 15_000, "every process to start");
    for (const t of theirs) assert.notEqual((await boxes.run({ name, command: `kill ${processesNamed(t)[0]}`, wait: true })).result?.exitCode, 0, "the box itself cannot signal another user's process");
    await boxes.stop({ name });
    await waitFor(() => mine.every((t) => processesNamed(t).length === 0), 5_000, "the box's own to end");
    for (const t of theirs) assert.equal(processesNamed(t).length, 1, `${t} lives on`);
  });

  test("a server killed outright: its watchdog ends the box's own processes by the tag and the home, never another user's", async () => {
    const boxesDir = tempDir();
    const service = path.join(import.meta.dirname, "..", "..", "server", "src", "boxes", "service.ts");
    const server = spawn(process.execPath, ["--import", "tsx", "-e", `
      import(${JSON.stringify(service)}).then(async (m) => {
        const BoxService = m.BoxService ?? m.default.BoxService;
        const boxes = new BoxService({ boxesDir: ${JSON.stringify(boxesDir)}, tier: "process" });
        const run = await boxes.run({ name: "b", command: "echo $SANOMA_BOX_RUN", wait: true });
        process.stdout.write(run.result.stdout.split(".")[0] + "\\n");
        setInterval(() => {}, 1000);
      });`], { stdio: ["ignore", "pipe", "inherit"] });
    after(() => server.kill("SIGKILL"));
    const tag = await new Promise<string>((resolve, reject) => {
      let said = "";
      server.stdout!.on("data", (d) => { said += String(d); if (said.includes("\n")) resolve(said.trim()); });
      server.on("exit", (code) => reject(new Error(`the server exited ${code}`)));
    });
    const home = path.join(boxesDir, "b");
    // The box's own, started as its run would (its tag; cleared, in its home), and another user's.
    const tagged = token("mine-tagged");
    const cleared = token("mine-cleared");
    after(() => { killAllWith(tagged); killAllWith(cleared); });
    spawnSync("bash", ["-c", `cd / && SANOMA_BOX_RUN=${tag}.run-9 setsid -f bash -c 'exec -a ${tagged} sleep 60' </dev/null >/dev/null 2>&1`]);
    spawnSync("bash", ["-c", `cd ${JSON.stringify(home)} && env -i setsid -f /bin/bash -c 'exec -a ${cleared} sleep 60' </dev/null >/dev/null 2>&1`]);
    const theirs = othersOf(tag, home);
    await waitFor(() => [tagged, cleared, ...theirs].every((t) => processesNamed(t).length === 1), 15_000, "every process to start");
    server.kill("SIGKILL");
    await waitFor(() => processesNamed(tagged).length === 0 && processesNamed(cleared).length === 0, 15_000, "the watchdog to end the box's own");
    for (const t of theirs) assert.equal(processesNamed(t).length, 1, `${t} lives on`);
  });

  /** A box command that rewrites the box's record (beside the home: a process-tier box can write it) to name `root`. */
  const rewriteRecord = (root: string) => `RUNS="$HOME/../.runs/$(basename "$HOME")"; printf '%s' ${JSON.stringify(JSON.stringify({ root, file: "apps/maps/workflows/route.ts", export: "route", scope: "maps", command: "true" }))} > "$RUNS/box.json" && printf '%s' ${JSON.stringify(JSON.stringify({ version: 1, root, files: {} }))} > "$RUNS/sync.json"`;

  test("apply: a record the box rewrote after the diff, to name another user's folder, is refused: apply writes only into the company the diff shown was made against, and says which", async () => {
    const victim = victimFolder([]);
    const { root, boxes, name, inBox } = await previewed();
    await inBox("printf 'echo owned-by-box\\n' > .bash_login");
    if (ROOT) assert.notEqual((await boxes.run({ name, command: `echo x > ${JSON.stringify(victim)}/direct`, wait: true })).result?.exitCode, 0, "the box itself cannot write there");
    const diff = await boxes.diff({ name });
    assert.deepEqual([diff.root, diff.files.map((f) => f.path)], [root, [".bash_login"]]);
    // As a background job of the box would, while the user reads the diff.
    await inBox(rewriteRecord(victim));
    await assert.rejects(boxes.apply({ name, files: [".bash_login"] }), new RegExp(`record .* names ${victim}, but this server synced the box from ${root}: .*nothing is compared or applied`));
    assert.deepEqual(fs.readdirSync(victim), [], "nothing written in the victim's folder");
    assert.equal(fs.existsSync(path.join(root, ".bash_login")), false, "nor in the company, from a record that says otherwise");
    // The next preview makes the box the company's copy again (the record with it): shown again, it applies, into the company.
    await boxes.preview({ root, file: "apps/maps/workflows/route.ts", export: "route", command: "true", wait: true });
    await inBox("printf 'echo owned-by-box\\n' > .bash_login");
    assert.equal((await boxes.diff({ name })).root, root);
    assert.deepEqual(await boxes.apply({ name, files: [".bash_login"] }), { root, applied: [".bash_login"], skipped: [] });
    assert.deepEqual(fs.readdirSync(victim), []);
  });

  test("diff: a record the box rewrote before the diff is refused too: no diff is shown 'against' another folder, and so none is applied there", async () => {
    const victim = victimFolder([]);
    const { root, boxes, name, inBox } = await previewed();
    await inBox(`printf 'x\\n' > .bash_login && ${rewriteRecord(victim)}`);
    await assert.rejects(boxes.diff({ name }), new RegExp(`names ${victim}, but this server synced the box from ${root}`));
    await assert.rejects(boxes.apply({ name, files: [".bash_login"] }), new RegExp(`names ${victim}, but this server synced the box from ${root}`));
    assert.deepEqual(fs.readdirSync(victim), []);
  });

  test("after a restart the record is all a server has: it is taken only when it names a company root (a folder holding sanoma.config.ts)", async () => {
    const victim = victimFolder([]);
    const { root, boxes, name, inBox } = await previewed();
    await inBox("printf 'x\\n' > .bash_login");
    await boxes.dispose();
    const next = new BoxService({ boxesDir: boxes.boxesDir, tier: "process" });
    services.push(next);
    assert.deepEqual((await next.diff({ name })).files.map((f) => f.path), [".bash_login"], "the record naming the company it was synced from is taken");
    await next.run({ name, command: rewriteRecord(victim), wait: true });
    await assert.rejects(next.diff({ name }), new RegExp(`names ${victim}, which is no company root \\(an absolute path to a folder holding sanoma\\.config\\.ts\\)`));
    await assert.rejects(next.apply({ name, files: [".bash_login"] }), /which is no company root/);
    // Nor one relative to the server's working folder, which holds a company here.
    await next.run({ name, command: rewriteRecord(path.relative(process.cwd(), root)), wait: true });
    await assert.rejects(next.diff({ name }), /which is no company root/);
    assert.deepEqual(fs.readdirSync(victim), []);
    assert.equal(fs.existsSync(path.join(root, ".bash_login")), false);
  });

  test("apply after a preview of another company into the same box (two companies' workflows of one name) is refused: the changes shown were made against the first", async () => {
    const { root, boxes, name, inBox } = await previewed();
    const other = path.join(tempDir(), "other");
    writeTree(other, COMPANY);
    await inBox("printf 'x\\n' > lib/a.ts");
    assert.deepEqual((await boxes.diff({ name })).files.map((f) => f.path), ["lib/a.ts"]);
    assert.equal((await boxes.preview({ root: other, file: "apps/maps/workflows/route.ts", export: "route", command: "printf 'y\\n' > lib/a.ts", wait: true })).name, name);
    await assert.rejects(boxes.apply({ name, files: ["lib/a.ts"] }), new RegExp(`the changes of ${name} you were shown were made against ${root}, but the box is now a copy of ${other}: nothing was applied; show the changes again`));
    assert.equal(fs.readFileSync(path.join(other, "lib/a.ts"), "utf8"), "export const a = 1;\n", "nothing written into the other company");
    const diff = await boxes.diff({ name });
    assert.deepEqual([diff.root, diff.files.map((f) => f.path)], [other, ["lib/a.ts"]]);
    assert.deepEqual(await boxes.apply({ name, files: ["lib/a.ts"] }), { root: other, applied: ["lib/a.ts"], skipped: [] });
  });
});
