/**
 * What Linux's `/proc` says about the box's processes: who is alive (a zombie is not: where no
 * init reaps orphans they stay zombies for ever), who belongs to a process group, who descends
 * from whom, and which loopback ports a set of processes listens on. Reads only; never signals.
 * Everything returns empty rather than throwing, because processes come and go between two reads.
 */
import * as fs from "node:fs";

export interface ProcInfo {
  pid: number;
  ppid: number;
  pgrp: number;
  /** One-letter state: R, S, D, Z (zombie), X (dead), ... */
  state: string;
  /** Start time after boot, in clock ticks: tells a process from a later one with its pid. */
  startTicks: number;
  /** Its controlling terminal (`tty_nr`): 0 for none, as for every process a box starts (pipes, no terminal). */
  tty: number;
}

/** `/proc/<pid>/stat` parsed, or undefined when the process is gone. */
export function readProc(pid: number): ProcInfo | undefined {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, "latin1");
  } catch {
    return undefined;
  }
  return parseStat(text);
}

/** Parses a stat line; the command name sits in parentheses and may hold spaces and `)`. */
export function parseStat(text: string): ProcInfo | undefined {
  const close = text.lastIndexOf(")");
  if (close < 0) return undefined;
  const pid = Number.parseInt(text, 10);
  const rest = text.slice(close + 2).split(" ");
  // Fields after the name: state(3) ppid(4) pgrp(5) session(6) ... starttime(22), numbered from 1.
  const [state, ppid, pgrp, tty] = [rest[0] ?? "?", Number(rest[1]), Number(rest[2]), Number(rest[4])];
  const startTicks = Number(rest[19]);
  if (!Number.isFinite(pid) || !Number.isFinite(ppid) || !Number.isFinite(pgrp)) return undefined;
  return { pid, ppid, pgrp, state, startTicks, tty: Number.isFinite(tty) ? tty : 0 };
}

/** Every process this system shows us, zombies included (callers decide what a zombie means). */
export function listProcesses(): ProcInfo[] {
  let entries: string[];
  try {
    entries = fs.readdirSync("/proc");
  } catch {
    return [];
  }
  const out: ProcInfo[] = [];
  for (const entry of entries) {
    const code = entry.charCodeAt(0);
    if (code < 48 || code > 57) continue; // not a pid
    const info = readProc(Number(entry));
    if (info) out.push(info);
  }
  return out;
}

export function isLiveState(state: string): boolean {
  return state !== "Z" && state !== "X" && state !== "x";
}

/** True while `pid` is a process that is neither gone nor a zombie. */
export function isAlive(pid: number): boolean {
  const info = readProc(pid);
  return info !== undefined && isLiveState(info.state);
}

/**
 * True while the process group `pgid` has a member that is not a zombie. A cheap `kill(-pgid, 0)`
 * answers "no member at all" without reading `/proc`.
 */
export function groupHasLiveMember(pgid: number, processes?: ProcInfo[]): boolean {
  if (!processes) {
    try {
      process.kill(-pgid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
      // EPERM: a member we may not signal exists; fall through to /proc.
    }
  }
  return (processes ?? listProcesses()).some((p) => p.pgrp === pgid && isLiveState(p.state));
}

/** Live members of `pgid` plus every live descendant of `root`, from one listing. */
export function membersOf(processes: ProcInfo[], pgid: number, root: number | undefined): Set<number> {
  const members = new Set<number>();
  const children = new Map<number, number[]>();
  for (const p of processes) {
    if (!isLiveState(p.state)) continue;
    if (p.pgrp === pgid) members.add(p.pid);
    let list = children.get(p.ppid);
    if (!list) children.set(p.ppid, (list = []));
    list.push(p.pid);
  }
  if (root !== undefined) {
    // Descendants reach processes that left the group (setsid) while their ancestors live.
    const stack = [root];
    while (stack.length > 0) {
      const pid = stack.pop()!;
      members.add(pid);
      for (const child of children.get(pid) ?? []) if (!members.has(child)) stack.push(child);
    }
  }
  return members;
}

/** A TCP socket in LISTEN state that loopback clients can reach. */
export interface ListeningSocket { port: number; inode: string }

const LOOPBACK_REACHABLE_V4 = new Set(["0100007F", "00000000"]);
const LOOPBACK_REACHABLE_V6 = new Set([
  "00000000000000000000000000000000", // ::
  "00000000000000000000000001000000", // ::1
  "0000000000000000FFFF00000100007F", // ::ffff:127.0.0.1
]);

/**
 * Sockets listening on 127.0.0.1, ::1 or every address, from `/proc/net/tcp` and `tcp6`: of the
 * server's network namespace, or of `pid`'s (a container's, which has a network of its own).
 */
export function listeningSockets(pid?: number): ListeningSocket[] {
  const out: ListeningSocket[] = [];
  const net = pid === undefined ? "/proc/net" : `/proc/${pid}/net`;
  for (const [file, reachable] of [[`${net}/tcp`, LOOPBACK_REACHABLE_V4], [`${net}/tcp6`, LOOPBACK_REACHABLE_V6]] as const) {
    let text: string;
    try {
      text = fs.readFileSync(file, "latin1");
    } catch {
      continue;
    }
    for (const line of text.split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10 || cols[3] !== "0A") continue; // 0A: LISTEN
      const [address, portHex] = (cols[1] ?? "").split(":");
      if (!address || !portHex || !reachable.has(address.toUpperCase())) continue;
      out.push({ port: Number.parseInt(portHex, 16), inode: cols[9] ?? "" });
    }
  }
  return out;
}

/** The socket inodes that `pid` holds open (`socket:[<inode>]` links in `/proc/<pid>/fd`). */
export function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  let fds: string[];
  try {
    fds = fs.readdirSync(`/proc/${pid}/fd`);
  } catch {
    return inodes;
  }
  for (const fd of fds) {
    try {
      const link = fs.readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (link.startsWith("socket:[")) inodes.add(link.slice(8, -1));
    } catch {
      // closed meanwhile
    }
  }
  return inodes;
}

/** The server's own user: the only one whose processes the boxes' lookups below ever return. */
const OWN_UID = process.getuid?.();

/** Who a process is (its real uid, the first of `Uid:` in `/proc/<pid>/status`); undefined when it is gone. */
export function ownerOf(pid: number): number | undefined {
  let status: string;
  try { status = fs.readFileSync(`/proc/${pid}/status`, "latin1"); } catch { return undefined; }
  const uid = /^Uid:\s+(\d+)/m.exec(status)?.[1];
  return uid === undefined ? undefined : Number(uid);
}

/**
 * Whether a process is the server's own user's (where the system has users). A box's processes
 * are (the `process` tier runs them as the server's uid, the namespace and container tiers map
 * theirs to it outside); another user's never are, whatever it carries or wherever it works: a
 * server run as root must not end, for a box, what the box's capability-less root cannot signal.
 */
function isOurs(pid: number): boolean {
  return OWN_UID === undefined || ownerOf(pid) === OWN_UID;
}

/**
 * The processes of the server's own user whose starting environment holds `entry` (a whole
 * `NAME=value`, or its start when `prefix`): what a box tagged them with follows them out of their
 * process group (`setsid`). Another user's process that carries it (planted by the box where that
 * user's logins read it) is never one: run by root, the server could read its environment.
 */
export function processesWithEnv(entry: string, prefix = false): ProcInfo[] {
  const out: ProcInfo[] = [];
  const needle = Buffer.from(prefix ? entry : `${entry}\0`);
  for (const info of listProcesses()) {
    if (!isLiveState(info.state)) continue;
    let environ: Buffer;
    try { environ = fs.readFileSync(`/proc/${info.pid}/environ`); } catch { continue; }
    // At an entry's start: the first, or right after a NUL.
    for (let at = environ.indexOf(needle); at >= 0; at = environ.indexOf(needle, at + 1)) {
      if (at === 0 || environ[at - 1] === 0) {
        if (isOurs(info.pid)) out.push(info);
        break;
      }
    }
  }
  return out;
}

/**
 * What adopts a process whose parent is gone: pid 1, or a user's service manager or a container's
 * init, which make themselves the adopters of their descendants' orphans (a subreaper).
 */
const ADOPTERS = new Set(["systemd", "init", "tini", "dumb-init", "docker-init", "catatonit"]);

function adopted(info: ProcInfo): boolean {
  if (info.ppid === 1) return true;
  try {
    return ADOPTERS.has(fs.readFileSync(`/proc/${info.ppid}/comm`, "latin1").trim());
  } catch {
    return false;
  }
}

/**
 * The live orphans without a terminal whose working folder lies in `dir` (a real path): what a
 * box's command left running after leaving its group and clearing its environment of the tag
 * `processesWithEnv` looks for (`env -i setsid -f …`: adopted, as it detached). Never a user's
 * shell there (it has a terminal), nor a tool an editor opened on that folder runs (its parent is
 * the editor, not an adopter), nor another user's process (only the server's own user's).
 */
export function processesWorkingIn(dir: string): ProcInfo[] {
  const out: ProcInfo[] = [];
  const prefix = dir.endsWith("/") ? dir : `${dir}/`;
  for (const info of listProcesses()) {
    if (!isLiveState(info.state) || info.tty !== 0 || !adopted(info)) continue;
    let cwd: string;
    try { cwd = fs.readlinkSync(`/proc/${info.pid}/cwd`); } catch { continue; }
    // (A folder deleted while a process works in it reads as `<path> (deleted)`.)
    if (cwd.endsWith(" (deleted)")) cwd = cwd.slice(0, -" (deleted)".length);
    if ((cwd === dir || cwd.startsWith(prefix)) && isOurs(info.pid)) out.push(info);
  }
  return out;
}

/** Signals processes found earlier (pid → start time), each only while it is still the process found (its pid not reused). */
export function signalFound(found: Map<number, number>, signal: NodeJS.Signals): void {
  for (const [pid, start] of found) {
    if (readProc(pid)?.startTicks !== start) continue;
    try { process.kill(pid, signal); } catch { /* gone */ }
  }
}
