/**
 * A box's links into a mount namespace that is not ours (`/proc/<pid>/root/…`). `/proc` tells the
 * path of a file reached that way as that namespace sees it, so a box that made a namespace of
 * its own (a nested `unshare -Urm` in bubblewrap) and bind-mounted any file of the machine at
 * `<home>/d/leak.txt` there had the server read that file as the box's own: `read` returned it,
 * and `diff`/`apply` (which open what they listed, checking where it is) took it into the
 * workspace. And Node's own `realpath` went round such a link for ever, freezing the server.
 * Here the other namespace is made by the test with bubblewrap, outside any box, as the box's
 * nested one would be; the box's own bubblewrap now refuses to make one at all (`--disable-userns`).
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { openRegular, whereIs } from "../../server/src/boxes/files.ts";
import { readInHome } from "../../server/src/boxes/paths.ts";
import { BoxService } from "../../server/src/boxes/service.ts";
import { cleanupTempDirs, processesNamed, tempDir, token, waitFor } from "./helpers.ts";

const started: ChildProcess[] = [];
after(() => {
  for (const p of started) p.kill("SIGKILL");
  cleanupTempDirs();
});

/**
 * A process in a mount namespace of its own (bubblewrap, unprivileged) where `home` is a tmpfs
 * holding `d/`, and `d/leak.txt` is `secret` bind-mounted: what a box's nested namespace would
 * make. Returns the process's pid as this side sees it.
 */
async function foreignNamespace(home: string, secret: string | undefined): Promise<number> {
  const mark = token("foreign-ns");
  const binds = secret ? ["--ro-bind", secret, `${home}/d/leak.txt`] : [];
  const p = spawn("bwrap", ["--unshare-user", "--unshare-pid", "--die-with-parent", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", home, "--dir", `${home}/d`, ...binds, "bash", "-c", `exec -a ${mark} sleep 120`], { stdio: "ignore" });
  started.push(p);
  // (By argv[0]: bubblewrap's own two processes mention the mark too, and the first is in our namespace.)
  await waitFor(() => processesNamed(mark).length === 1, 15_000, "the other namespace's process");
  return processesNamed(mark)[0];
}

test("a file reached through another mount namespace (/proc/<pid>/root) is not where /proc says: opened for a diff or apply it is refused, read it is refused", async () => {
  const base = tempDir();
  const home = path.join(base, "home");
  fs.mkdirSync(home);
  const secret = path.join(base, "secret.txt");
  fs.writeFileSync(secret, "SECRET of another user\n");
  const pid = await foreignNamespace(home, secret);
  // In our namespace `d` is a link into the other one, where `<home>/d/leak.txt` is the secret.
  fs.symlinkSync(`/proc/${pid}/root${home}/d`, path.join(home, "d"));
  assert.equal(fs.readFileSync(path.join(home, "d/leak.txt"), "utf8"), "SECRET of another user\n", "the link does reach it (the kernel follows it)");

  // What diff and apply do with a file they listed: open it, and check it is where it was listed.
  const opened = openRegular(path.join(home, "d/leak.txt"), path.join(home, "d/leak.txt"));
  if ("fd" in opened) { opened.close(); assert.fail("opened as the box's own file: /proc names it <home>/d/leak.txt, as the other namespace sees it"); }
  assert.equal(opened.problem, "a folder on its way is a link (or it moved meanwhile)");

  // The Sandbox contract's read.
  assert.throws(() => readInHome(home, "d/leak.txt"), { message: "d/leak.txt leads out of the box's home through a symlink" });

  // A file of our own namespace is still where /proc says.
  fs.mkdirSync(path.join(home, "e"));
  fs.writeFileSync(path.join(home, "e/own.txt"), "own\n");
  const fd = fs.openSync(path.join(home, "e/own.txt"), "r");
  try { assert.equal(whereIs(fd), path.join(home, "e/own.txt")); } finally { fs.closeSync(fd); }
  assert.equal(readInHome(home, "e/own.txt")?.toString(), "own\n");
});

test("a link through another namespace's root back to itself is judged at once: Node's realpath went round it for ever", async () => {
  const base = tempDir();
  const home = path.join(base, "home");
  fs.mkdirSync(home);
  const pid = await foreignNamespace(home, undefined);
  // `d` here leads to `<home>/d` there, a folder; Node's realpath read /proc/<pid>/root as `/` and came back to this `d`.
  fs.symlinkSync(`/proc/${pid}/root${home}/d`, path.join(home, "d"));
  // In a process of its own, so that a loop is a failure of this test, not a hang of the run.
  const script = path.join(base, "read.ts");
  fs.writeFileSync(script, `import { readInHome } from ${JSON.stringify(path.join(import.meta.dirname, "../../server/src/boxes/paths.ts"))};
try { console.log(JSON.stringify(readInHome(${JSON.stringify(home)}, "d/x.txt") ?? null)); } catch (e) { console.log((e as Error).message); }
`);
  const r = spawnSync(process.execPath, ["--import", "tsx", script], { encoding: "utf8", timeout: 30_000 });
  assert.equal(r.signal, null, `it never ended (killed after 30 s): ${r.stderr}`);
  assert.equal(r.stdout.trim(), "d/x.txt leads out of the box's home through a symlink", r.stderr);
});

test("the namespace tier's boxes cannot make a user namespace of their own (bubblewrap's --disable-userns), so no mount namespace either", async () => {
  const root = path.join(tempDir(), "acme");
  fs.mkdirSync(path.join(root, "workflows"), { recursive: true });
  fs.writeFileSync(path.join(root, "sanoma.config.ts"), "export default {};\n");
  const boxes = new BoxService({ boxesDir: tempDir(), tier: "namespace" });
  try {
    await boxes.open({ name: "nested" });
    const plain = await boxes.run({ name: "nested", command: "echo inside", wait: true });
    assert.equal(plain.tier, "namespace");
    assert.equal(plain.result?.stdout, "inside\n", plain.result?.stderr);
    const nested = await boxes.run({ name: "nested", command: "unshare -Urm true", wait: true });
    assert.notEqual(nested.result?.exitCode, 0, "unshare succeeded in the box");
    assert.match(nested.result!.stderr, /unshare failed|Operation not permitted|No space left on device/, nested.result?.stderr);
  } finally { await boxes.dispose(); }
});
