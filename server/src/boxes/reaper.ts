/**
 * The last line against orphaned processes: a small watchdog process that outlives the server by
 * a moment and ends the boxes' process groups the server could not end itself.
 *
 * Every way the server ends on its own (shutdown, its client gone, SIGTERM, an uncaught error)
 * already stops every box's groups (`BoxService.disposeSync`). SIGKILL, the kernel's OOM killer or
 * a native crash run none of the server's code: in the `process` tier a box's dev server would
 * then live on, holding its port, with no one to stop it. (The `namespace` tier dies with the
 * server through bubblewrap's `--die-with-parent`; its groups are watched here too, for the
 * orphans of a setup that was cut short.)
 *
 * So the first group a supervisor watches starts one reaper: `node -e <REAPER_SOURCE>` in a session
 * of its own (a Ctrl+C or a signal to the server's group does not reach it), its stdin a pipe from
 * the server and nothing else. The server writes `+<pgid>` when a group starts and `-<pgid>` when
 * it has ended, `T<tag>` and `H<home as JSON>` for each box that runs, `E<engine as JSON>` for
 * each container engine it makes containers with. When the pipe closes (the server is gone, however
 * it went: the kernel closes its end) the reaper removes the server's containers, ends the groups
 * still listed, TERM, then KILL to what is left a second later, and exits. After a clean exit the list is empty and it exits at once.
 *
 * The supervisor's invariant holds here too: a group is signalled only while `/proc` shows a live
 * member of it, so a group id the system may have handed to someone else is never hit.
 */
import { spawn, type ChildProcess } from "node:child_process";

/** The reaper's program: plain JavaScript, run by the server's own Node (`-e`), needing no file. */
export const REAPER_SOURCE = `
"use strict";
const fs = require("fs");
const listed = new Set();
const tags = new Set();
const homes = new Set();
const engines = new Map();
let pending = "";
process.stdin.setEncoding("latin1");
process.stdin.on("data", (chunk) => {
  pending += chunk;
  for (let nl = pending.indexOf("\\n"); nl >= 0; nl = pending.indexOf("\\n")) {
    const line = pending.slice(0, nl);
    pending = pending.slice(nl + 1);
    if (line[0] === "T") { if (/^[0-9a-f]{16}$/.test(line.slice(1))) tags.add(line.slice(1)); continue; }
    if (line[0] === "E") { try { const e = JSON.parse(line.slice(1)); if (e && typeof e.file === "string" && e.file.startsWith("/") && typeof e.label === "string" && /^[0-9]+-[0-9]+$/.test(e.label) && e.env && typeof e.env === "object") engines.set(e.file, e); } catch {} continue; }
    if (line[0] === "H") { try { const home = JSON.parse(line.slice(1)); if (typeof home === "string" && home.startsWith("/") && home.length > 1) homes.add(home); } catch {} continue; }
    const id = Number(line.slice(1));
    if (!Number.isInteger(id) || id <= 1) continue;
    if (line[0] === "+") listed.add(id);
    else if (line[0] === "-") listed.delete(id);
  }
});
// A process's /proc/<pid>/stat fields after its name: [0] state, [2] process group, [19] start time.
function statFields(pid) {
  const stat = fs.readFileSync("/proc/" + pid + "/stat", "latin1");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}
function liveGroups() {
  const groups = new Set();
  let names = [];
  try { names = fs.readdirSync("/proc"); } catch {}
  for (const name of names) {
    if (!/^[0-9]+$/.test(name)) continue;
    try {
      const fields = statFields(name);
      if (fields[0] !== "Z" && fields[0] !== "X") groups.add(Number(fields[2]));
    } catch {}
  }
  return groups;
}
function hit(signal) {
  const live = liveGroups();
  let any = false;
  for (const id of listed) {
    if (!live.has(id)) { listed.delete(id); continue; }
    try { process.kill(-id, signal); any = true; } catch { listed.delete(id); }
  }
  return any;
}
// What adopts an orphan (as procfs.ts's adopted()): pid 1, or a service manager or container init.
const ADOPTERS = new Set(["systemd", "init", "tini", "dumb-init", "docker-init", "catatonit"]);
// An orphan with no terminal working in a box's home: what cleared its environment of the tag
// (env -i setsid -f), found as a live server's stop finds it (procfs.ts's processesWorkingIn).
function worksInHome(pid, fields) {
  if (homes.size === 0 || fields[4] !== "0") return false;
  let adopted = fields[1] === "1";
  if (!adopted) try { adopted = ADOPTERS.has(fs.readFileSync("/proc/" + fields[1] + "/comm", "latin1").trim()); } catch {}
  if (!adopted) return false;
  let cwd;
  try { cwd = fs.readlinkSync("/proc/" + pid + "/cwd"); } catch { return false; }
  if (cwd.endsWith(" (deleted)")) cwd = cwd.slice(0, -" (deleted)".length);
  for (const home of homes) if (cwd === home || cwd.startsWith(home + "/")) return true;
  return false;
}
// Whether a process is this user's (its real uid, as procfs.ts's ownerOf): another user's is
// never ended for a box, whatever it carries or wherever it works.
const OWN_UID = process.getuid();
function ours(pid) {
  try { const uid = /^Uid:\\s+(\\d+)/m.exec(fs.readFileSync("/proc/" + pid + "/status", "latin1")); return uid !== null && Number(uid[1]) === OWN_UID; } catch { return false; }
}
// What left its group (setsid) but carries a box's tag in its environment, or works in a box's
// home as an orphan, and is this user's: pid -> start time.
function tagged() {
  const found = new Map();
  if (tags.size === 0 && homes.size === 0) return found;
  let names = [];
  try { names = fs.readdirSync("/proc"); } catch {}
  for (const name of names) {
    if (!/^[0-9]+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const fields = statFields(name);
      if (fields[0] === "Z" || fields[0] === "X") continue;
      let env = "";
      try { env = "\\0" + fs.readFileSync("/proc/" + name + "/environ", "latin1"); } catch {}
      const at = env.indexOf("\\0SANOMA_BOX_RUN=");
      if (((at >= 0 && tags.has(env.slice(at + 16, at + 32))) || worksInHome(name, fields)) && ours(name)) found.set(Number(name), fields[19]);
    } catch {}
  }
  return found;
}
// Signals those still the processes found (the same start time: never a pid handed to another).
function hitTagged(found, signal) {
  let any = false;
  for (const [pid, start] of found) {
    try {
      const fields = statFields(pid);
      if (fields[19] !== start || fields[0] === "Z" || fields[0] === "X") { found.delete(pid); continue; }
      process.kill(pid, signal);
      any = true;
    } catch { found.delete(pid); }
  }
  return any;
}
// The containers the server made (labelled with it: never another server's), removed with what
// they run: a container's processes are the engine's, no group or tag of them is the server's.
function removeContainers() {
  const { spawnSync } = require("child_process");
  for (const e of engines.values()) {
    const r = spawnSync(e.file, ["ps", "--all", "--filter", "label=sanoma.server=" + e.label, "--format", "{{.Names}}"], { env: e.env, encoding: "utf8", timeout: 20000 });
    const names = String(r.stdout || "").split("\\n").map((n) => n.trim()).filter((n) => /^sanoma-box-[0-9a-f]{16}$/.test(n));
    if (names.length > 0) spawnSync(e.file, ["rm", "--force", ...(e.podman ? ["--time", "0"] : []), "--volumes", ...names], { env: e.env, stdio: "ignore", timeout: 20000 });
  }
}
let reaping = false;
function reap() {
  if (reaping) return;
  reaping = true;
  try { removeContainers(); } catch {}
  const escaped = tagged();
  const groups = hit("SIGTERM");
  if (!hitTagged(escaped, "SIGTERM") && !groups) process.exit(0);
  const started = Date.now();
  setInterval(() => {
    const live = liveGroups();
    const left = [...listed].some((id) => live.has(id)) || hitTagged(escaped, 0);
    if (!left) process.exit(0);
    if (Date.now() - started >= 1000) { hit("SIGKILL"); hitTagged(escaped, "SIGKILL"); process.exit(0); }
  }, 100);
}
process.stdin.on("end", reap);
process.stdin.on("close", reap);
process.stdin.on("error", reap);
`;

/** The argument that marks a reaper in a process list (with the pid of the server it watches). */
export const REAPER_MARK = "sanoma-box-reaper";

export class Reaper {
  private child: ChildProcess | undefined;
  private failed = false;

  constructor(private readonly log: (message: string) => void = () => {}) {}

  /** A group started: the reaper ends it should the server die without doing so. */
  watch(pgid: number): void {
    this.send(`+${pgid}\n`);
  }

  /**
   * A box's tag (`SANOMA_BOX_RUN=<tag>.<run>` in its runs' environments): should the server die, the
   * reaper also ends what carries it, what left its group (`setsid`) as much as what did not.
   */
  watchTag(tag: string): void {
    if (this.tags.has(tag)) return;
    this.tags.add(tag);
    this.send(`T${tag}\n`);
  }

  private readonly tags = new Set<string>();

  /**
   * A box's home (its real path): should the server die, the reaper also ends the orphans without
   * a terminal that work in it, what cleared its environment of the tag too (`env -i setsid -f`).
   */
  watchHome(home: string): void {
    if (this.homes.has(home)) return;
    this.homes.add(home);
    this.send(`H${JSON.stringify(home)}\n`);
  }

  private readonly homes = new Set<string>();

  /**
   * A container engine the server makes boxes' containers with (its executable, the environment it
   * runs in, the label the server gives its containers): should the server die, the reaper removes
   * the containers with that label, and so everything they run.
   */
  watchEngine(engine: { file: string; podman: boolean; env: Record<string, string>; label: string }): void {
    if (this.engines.has(engine.file)) return;
    this.engines.add(engine.file);
    this.send(`E${JSON.stringify(engine)}\n`);
  }

  private readonly engines = new Set<string>();

  /** A group ended (or the server ended it). */
  forget(pgid: number): void {
    if (this.child) this.send(`-${pgid}\n`);
  }

  /** The pid of the reaper process, once started (tests). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  private send(line: string): void {
    const child = this.start();
    if (!child?.stdin?.writable) return;
    child.stdin.write(line);
  }

  private start(): ChildProcess | undefined {
    if (this.child || this.failed) return this.child;
    try {
      // (`ELECTRON_RUN_AS_NODE`: inside VS Code the server's Node is the editor's own binary.)
      const child = spawn(process.execPath, ["-e", REAPER_SOURCE, REAPER_MARK, String(process.pid)], {
        stdio: ["pipe", "ignore", "ignore"],
        detached: true,
        env: { ELECTRON_RUN_AS_NODE: "1" },
      });
      child.on("error", (error) => {
        this.failed = true;
        this.child = undefined;
        this.log(`boxes: the watchdog that ends boxes' processes if the server is killed could not run (${error.message}); they end with the server whenever it exits by itself`);
      });
      child.stdin?.on("error", () => {}); // the reaper gone: nothing to tell it any more
      // Never what keeps the server running.
      child.unref();
      (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
      this.child = child;
    } catch (error) {
      this.failed = true;
      this.log(`boxes: the watchdog could not start (${(error as Error).message})`);
    }
    return this.child;
  }
}
