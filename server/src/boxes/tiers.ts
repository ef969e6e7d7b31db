/**
 * The isolation tiers (SPEC B4) and how each starts a command.
 *
 * - `process`: `bash -c command` as the leader of a new session and process group. Killing the
 *   group ends the command and whatever it started, except what left the group (`setsid`, a
 *   double fork that calls `setpgid`). The system is not protected from the command. Run by
 *   root, the command drops every capability and gets no-new-privileges (util-linux `setpriv`):
 *   root's uid without root's powers (no mount over the machine's `/tmp`, no module loaded);
 *   where `setpriv` cannot be had, the tier refuses to run as root and names the namespace tier.
 * - `namespace`: the same under bubblewrap: a user namespace (uid 1000 when we are root, so root
 *   inside is no root outside), a pid namespace, the system read-only, the box's home and private
 *   temporary folder read-write, the network shared (exposed ports work), `--die-with-parent`.
 *   Killing bubblewrap ends every process of the namespace, `setsid` ones included.
 *
 * In the `namespace` tier the namespace ends as soon as its first process (pid 1) exits, which
 * would kill what a command leaves running (its late output, a server it started in the
 * background). So pid 1 is a small bash wrapper: it runs the command, writes its exit status to
 * fd 3 (the moment the run "ends"), then stays while other processes live in the namespace, waking
 * every 200 ms without forking (`read -t` on a pipe it holds). As pid 1 it also reaps the orphans
 * of the namespace (bash reaps every child that ends).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import type { BoxTier } from "../protocol.ts";

export type TierSetting = "auto" | BoxTier;

/** The tier in force and why; `bwrap` is set for the namespace tier. */
export interface TierChoice {
  tier: BoxTier;
  reason: string;
  bwrap?: string;
  /** The process tier run by root: `setpriv`, which drops root's capabilities before the command. */
  setpriv?: string;
  /** Why no command can run in this tier here (the process tier as root without `setpriv`). */
  refusal?: string;
  /** The container tier's engine; absent when none is installed (each run then fails, saying so). */
  engine?: ContainerEngine;
}

/** A container engine found on this machine. */
export interface ContainerEngine {
  /** `podman` or `docker`. */
  name: string;
  /** Its executable. */
  file: string;
}

/** podman, else docker: the engine this machine has, if any. */
export function findEngine(): ContainerEngine | undefined {
  for (const name of ["podman", "docker"]) {
    const file = findExecutable(name);
    if (file) return { name, file };
  }
  return undefined;
}

/** Why the container tier cannot run here: no engine. */
export const NO_ENGINE = "no container engine is installed: install podman (apt-get install podman runc fuse-overlayfs uidmap slirp4netns), or docker, or choose another tier (sanoma.boxes.isolation)";

/** setpriv's arguments: no capability of any set, and no way to gain one (setuid binaries included). */
export const SETPRIV_ARGS = ["--no-new-privs", "--inh-caps=-all", "--ambient-caps=-all", "--bounding-set=-all", "--"];

const setprivProbe = new Map<string, string | undefined>();

/** Runs `true` under setpriv once; returns why it fails, or undefined when it works. */
function probeSetpriv(setpriv: string): string | undefined {
  if (setprivProbe.has(setpriv)) return setprivProbe.get(setpriv);
  const probe = spawnSync(setpriv, [...SETPRIV_ARGS, bash(), "-c", "true"], { encoding: "utf8", timeout: 10_000, env: { PATH: BASE_PATH } });
  const problem = probe.error ? probe.error.message : probe.status === 0 ? undefined : (probe.stderr || `exit ${probe.status ?? probe.signal}`).trim();
  setprivProbe.set(setpriv, problem);
  return problem;
}

/**
 * The process tier: as root, with `setpriv` to drop root's powers, or refused. `setpriv` may name
 * another path to try (tests: one that is not there).
 */
export function processTier(reason: string, options: { setpriv?: string } = {}): TierChoice {
  if (process.getuid?.() !== 0) return { tier: "process", reason };
  const setpriv = options.setpriv ?? findExecutable("setpriv");
  const problem = setpriv === undefined ? "util-linux's setpriv is not installed" : fs.existsSync(setpriv) ? probeSetpriv(setpriv) : `${setpriv} does not exist`;
  if (setpriv === undefined || problem !== undefined) {
    return {
      tier: "process", reason,
      refusal: `the process tier runs no command as root without dropping root's powers, and cannot here (${problem}): install util-linux (setpriv), or use the namespace tier (set sanoma.boxes.isolation to namespace, with bubblewrap installed)`,
    };
  }
  return { tier: "process", reason: `${reason}; run as root, so every capability is dropped (setpriv)`, setpriv };
}

/** Folders searched for `bash` and `bwrap` besides the server's PATH. */
const SYSTEM_DIRS = ["/usr/local/bin", "/usr/bin", "/bin", "/usr/local/sbin", "/usr/sbin", "/sbin"];

/** The PATH a box's commands get after the running Node's folder. */
export const BASE_PATH = SYSTEM_DIRS.join(":");

/** An executable named `name` in the server's PATH or the system folders. */
export function findExecutable(name: string): string | undefined {
  // Reading the server's PATH to *find* tools is fine; it is never handed to a box.
  const dirs = [...(process.env.PATH ?? "").split(path.delimiter).filter(Boolean), ...SYSTEM_DIRS];
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

let bashPath: string | undefined;
/** Absolute path of bash: the box's PATH is the caller's to change, so we never look bash up by it. */
export function bash(): string {
  return (bashPath ??= findExecutable("bash") ?? "/bin/bash");
}

const probeCache = new Map<string, string | undefined>();
/** The bubblewraps that take `--disable-userns` (0.8.0 on, not a setuid build). */
const disablingUserns = new Set<string>();

/**
 * Runs `true` under bubblewrap once; returns why it fails, or undefined when it works. It is tried
 * first with `--disable-userns`, and that is kept where it works: a box that can make no user
 * namespace of its own can make no mount namespace either, where it could bind-mount any file of
 * the machine at a path of its home (`whereIs` refuses what lies there too; this is the wall
 * before that one).
 */
export function probeBwrap(bwrap: string): string | undefined {
  if (probeCache.has(bwrap)) return probeCache.get(bwrap);
  const tryWith = (disableUserns: boolean) => {
    const probe = spawnSync(bwrap, [...namespaceArgs({ home: "/", tmp: undefined, cwd: "/" }, disableUserns), bash(), "-c", "true"], {
      encoding: "utf8",
      timeout: 10_000,
      env: { PATH: BASE_PATH },
    });
    return probe.error
      ? probe.error.message
      : probe.status === 0
        ? undefined
        : (probe.stderr || `exit ${probe.status ?? probe.signal}`).trim();
  };
  let problem = tryWith(true);
  if (problem === undefined) disablingUserns.add(bwrap);
  else problem = tryWith(false);
  probeCache.set(bwrap, problem);
  return problem;
}

/**
 * The tier for a setting: `auto` takes `namespace` when bubblewrap is installed and works here,
 * else `process`; asking for `namespace` where it cannot work falls back to `process` and says why.
 * `container` is taken as asked: without an engine each run fails with `NO_ENGINE`.
 */
export function chooseTier(setting: TierSetting = "auto"): TierChoice {
  if (setting === "process") return processTier("the setting asks for the process tier");
  if (setting === "container") {
    // No fallback: a box that cannot be made ready says why on each run (SPEC B4).
    const engine = findEngine();
    return engine ? { tier: "container", reason: `the setting asks for the container tier (${engine.name})`, engine } : { tier: "container", reason: NO_ENGINE };
  }
  const bwrap = findExecutable("bwrap");
  if (!bwrap) return processTier("bubblewrap (bwrap) is not installed");
  const problem = probeBwrap(bwrap);
  if (problem) return processTier(`bubblewrap cannot make a namespace here: ${problem}`);
  return { tier: "namespace", reason: setting === "namespace" ? "the setting asks for the namespace tier" : "bubblewrap is installed", bwrap };
}

/** The uid and gid a box's processes have inside the user namespace: never root. */
function insideIds(): { uid: number; gid: number } {
  const uid = process.getuid?.() ?? 1000;
  const gid = process.getgid?.() ?? 1000;
  return { uid: uid === 0 ? 1000 : uid, gid: gid === 0 ? 1000 : gid };
}

/** bubblewrap's arguments for a box, up to (not including) the command. */
export function namespaceArgs(where: { home: string; tmp: string | undefined; cwd: string }, disableUserns: boolean): string[] {
  const { uid, gid } = insideIds();
  const args = [
    "--unshare-user", ...(disableUserns ? ["--disable-userns"] : []), "--uid", String(uid), "--gid", String(gid),
    // --as-pid-1: our wrapper is the namespace's init. bubblewrap's own init is never reaped by
    // bubblewrap and stays a zombie wherever the system's init does not reap orphans.
    "--unshare-pid", "--as-pid-1", "--die-with-parent", "--share-net",
    "--ro-bind", "/", "/",
    "--dev", "/dev",
    "--proc", "/proc",
  ];
  if (where.home !== "/") args.push("--bind", where.home, where.home);
  if (where.tmp) args.push("--bind", where.tmp, where.tmp);
  args.push("--chdir", where.cwd);
  return args;
}

/**
 * Runs the command (`$1`) with fd 3 closed, reports its status on fd 3, then outlives it while the
 * namespace holds other processes than this shell (its pid 1).
 */
const NAMESPACE_WRAPPER = [
  // `S`: the namespaces are made, the command starts (what bubblewrap said before it is its own failure).
  "echo S >&3",
  'SHLVL=$((SHLVL - 1)) "$0" -c "$1" 3>&-',
  "echo $? >&3",
  // Let go of the run's pipes: only what the command left running may hold them now.
  "exec 3>&- </dev/null >/dev/null 2>&1",
  "set -- /proc/[0-9]*; [ $# -le 1 ] && exit 0",
  "exec {nap}<> <(:)",
  "while :; do set -- /proc/[0-9]*; [ $# -le 1 ] && exit 0; read -t 0.2 -u $nap; done",
].join("\n");

/** How to spawn a command in a tier: the file, its arguments, and whether fd 3 reports the status. */
export interface SpawnPlan {
  file: string;
  args: string[];
  statusFd: boolean;
  /**
   * Where the leader marks the command's start, when it sets the box up first: `fd3` (the
   * namespace wrapper's `S`), `stderr` (a container's wrapper, `STARTED_MARK`). Before the mark,
   * what the leader says is its own failure.
   */
  started?: "fd3" | "stderr";
}

export function planSpawn(choice: TierChoice, where: { home: string; tmp: string; cwd: string }, command: string): SpawnPlan {
  if (choice.tier === "namespace" && choice.bwrap) {
    return { file: choice.bwrap, args: [...namespaceArgs(where, disablingUserns.has(choice.bwrap)), bash(), "-c", NAMESPACE_WRAPPER, bash(), command], statusFd: true, started: "fd3" };
  }
  if (choice.setpriv) return { file: choice.setpriv, args: [...SETPRIV_ARGS, bash(), "-c", command], statusFd: false };
  return { file: bash(), args: ["-c", command], statusFd: false };
}
