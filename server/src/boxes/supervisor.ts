/**
 * Keeps track of every process group the boxes started, and is the only code that signals them.
 *
 * **Invariant: a group is signalled only while something of it is alive**, so a pid that the
 * system has handed to another process is never hit. While the leader is unreaped (Node has not
 * seen it exit) its pid cannot be reused, so its group is ours. After the leader exits the group
 * may live on (background children in the `process` tier), and a group id stays reserved while it
 * has members: we look in `/proc` for a live member (zombies do not count) right before
 * signalling, and a watch marks the group dead for ever the first time it finds none. A pid number
 * is only reused after the system has gone through all the others (32768 here), far longer than
 * the watch's 250 ms.
 *
 * `namespace` tier: the leader is bubblewrap, which normally lives exactly as long as the
 * namespace. But a bubblewrap killed while it is still setting up (its child has not yet asked to
 * die with it) leaves that child, the namespace's init, running as an orphan in our group; so a
 * namespace group that outlives its leader gets SIGKILL, which takes the whole namespace with its
 * init, `setsid` processes included.
 *
 * The same watch reports loopback ports that a live group's processes listen on (SPEC B5 `port`
 * events), by matching the socket inodes in `/proc/net/tcp{,6}` with the processes' descriptors.
 */
import type { ChildProcess } from "node:child_process";
import type { BoxTier } from "../protocol.ts";
import { groupHasLiveMember, listProcesses, listeningSockets, membersOf, socketInodes, type ProcInfo } from "./procfs.ts";
import { Reaper } from "./reaper.ts";

/** One run's process group. `pid` is the leader's pid, which is also the group's id. */
export interface ProcessGroup {
  box: string;
  runId: string;
  tier: BoxTier;
  pid: number;
  child: ChildProcess;
  leaderExited: boolean;
  dead: boolean;
  ports: Set<number>;
  /** The first signal we sent it: tells "killed" from "could not start" when no status came. */
  killedBy: NodeJS.Signals | undefined;
  /** Every signal we sent it (a stop sends TERM, then KILL): the one it died of is named if among them. */
  sent?: Set<NodeJS.Signals>;
  /**
   * The container tier: the engine's `exec` (the leader) was itself signalled, nothing of the run
   * being seen inside yet. Signalled, it ends 0 whatever became of the command.
   */
  execSignalled?: boolean;
  onPort: (port: number) => void;
  onDead: () => void;
  /**
   * The container tier: the run's processes inside the box's container (found by their tag), which
   * the engine's `exec` (the leader) neither holds in its group nor outlives. The group lives while
   * any does, and its ports are theirs, in the container's own network.
   */
  inside?: () => number[];
}

const WATCH_MS = 250;

export class Supervisor {
  private readonly groups = new Set<ProcessGroup>();
  private timer: NodeJS.Timeout | undefined;

  /** Ends the groups still alive should the server be killed (`reaper.ts`). */
  constructor(readonly reaper: Reaper = new Reaper((message) => process.stderr.write(`${message}\n`))) {}

  /** Starts watching a group just spawned (its leader alive). */
  add(group: ProcessGroup): void {
    this.groups.add(group);
    this.reaper.watch(group.pid);
    this.timer ??= setInterval(() => this.tick(), WATCH_MS).unref();
  }

  /** Node reaped the leader: from now on liveness is judged from `/proc`. */
  leaderExited(group: ProcessGroup): void {
    group.leaderExited = true;
    if (!groupHasLiveMember(group.pid) && !group.inside?.().length) this.markDead(group);
    else if (group.tier === "namespace") this.endOrphanedNamespace(group);
  }

  isAlive(group: ProcessGroup): boolean {
    if (group.dead) return false;
    if (!group.leaderExited || groupHasLiveMember(group.pid)) return true;
    if (group.inside && group.inside().length > 0) return true;
    this.markDead(group);
    return false;
  }

  /** Sends `signal` to the group when something of it is alive; false when nothing was hit. */
  signal(group: ProcessGroup, signal: NodeJS.Signals): boolean {
    if (!this.isAlive(group)) return false;
    group.killedBy ??= signal;
    (group.sent ??= new Set()).add(signal);
    try {
      process.kill(-group.pid, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ESRCH") {
        if (group.leaderExited) this.markDead(group);
        return false;
      }
      throw error;
    }
    return true;
  }

  /** The live groups of one box (all boxes when `box` is undefined). */
  live(box?: string): ProcessGroup[] {
    return [...this.groups].filter((g) => (box === undefined || g.box === box) && this.isAlive(g));
  }

  /** Every group, alive or not yet known dead, of a box. */
  tracked(box: string): ProcessGroup[] {
    return [...this.groups].filter((g) => g.box === box);
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** A namespace group alive without its bubblewrap: its members are orphans of a killed setup. */
  private endOrphanedNamespace(group: ProcessGroup): void {
    try {
      process.kill(-group.pid, "SIGKILL"); // members exist (just checked), so the id is still ours
    } catch {
      // ended meanwhile
    }
  }

  private markDead(group: ProcessGroup): void {
    if (group.dead) return;
    group.dead = true;
    this.groups.delete(group);
    this.reaper.forget(group.pid);
    if (this.groups.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
    group.onDead();
  }

  /** One look at `/proc`: groups that died, and ports that groups started listening on. */
  private tick(): void {
    if (this.groups.size === 0) return;
    const processes: ProcInfo[] = listProcesses();
    // Deleting from a Set while iterating it is safe: markDead may remove the current group.
    const inside = new Map<ProcessGroup, number[]>();
    for (const group of this.groups) if (group.inside) inside.set(group, group.inside());
    for (const group of this.groups) {
      if (!group.leaderExited) continue;
      if (!groupHasLiveMember(group.pid, processes) && !inside.get(group)?.length) this.markDead(group);
      else if (group.tier === "namespace") this.endOrphanedNamespace(group);
    }
    if (this.groups.size === 0) return;
    const sockets = listeningSockets();
    const portByInode = new Map(sockets.map((s) => [s.inode, s.port]));
    // A container's sockets are in its own network: read through one of its processes.
    for (const pids of inside.values()) if (pids.length > 0) for (const s of listeningSockets(pids[0])) portByInode.set(s.inode, s.port);
    if (portByInode.size === 0) return;
    for (const group of this.groups) {
      const members = inside.get(group) ?? membersOf(processes, group.pid, group.leaderExited ? undefined : group.pid);
      for (const pid of members) {
        for (const inode of socketInodes(pid)) {
          const port = portByInode.get(inode);
          if (port !== undefined && !group.ports.has(port)) {
            group.ports.add(port);
            group.onPort(port);
          }
        }
      }
    }
  }
}
