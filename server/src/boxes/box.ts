/**
 * One local box (SPEC B4): a home folder under the boxes directory, and the commands run in it.
 * `open`, `start`/`run`, `read`, `write`, `expose`, `kill`, `stop`, `discard`.
 *
 * **Architecture invariant: nothing here imports an editor or LSP module, and a box's command never
 * sees the server's environment** (which holds the user's credentials): it gets `PATH` (the running
 * Node's folder first), `HOME` (the box's home) and `TMPDIR` (a private folder beside the home),
 * under the caller's `env`, and `SANOMA_BOX_RUN`: a tag of the box and the run that follows what
 * the command starts out of its process group (`setsid`), so that stop ends that too.
 *
 * A run ends when its command exits, not when its pipes close (what it left running may hold
 * them), with up to `OUTPUT_GRACE_MS` for its last output. A command that cannot start exits 127.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { createHash } from "node:crypto";
import type { BoxCapabilities, BoxEvent, BoxRunInfo, BoxRunResult, BoxTier } from "../protocol.ts";
import { boxesLabel, bridgePort, engineEnv, ensureContainer, execPlan, removeContainer, removeContainersNow, serverLabel, type BoxContainer, type ContainerSettings, type PortBridge } from "./container.ts";
import { EventLog, type EventLogLimits, type NewBoxEvent } from "./events.ts";
import { checkBoxName } from "./names.ts";
import { removeTree } from "./files.ts";
import { readPreviewSource } from "./preview.ts";
import { companyNodeModules } from "./sync.ts";
import { checkHome } from "./tree.ts";
import { processesWithEnv, processesWorkingIn, readProc, signalFound } from "./procfs.ts";
import { readInHome, resolveInHome, writeInHome } from "./paths.ts";
import { checkRunParams, expose } from "./params.ts";
import { OUTPUT_GRACE_MS, outputRecorder, runProcess, waitUntil, type Captured, type OutputRecorder } from "./run.ts";
import type { ProcessGroup, Supervisor } from "./supervisor.ts";
import { BASE_PATH, planSpawn, type SpawnPlan, type TierChoice } from "./tiers.ts";

export { OUTPUT_GRACE_MS } from "./run.ts";
export { checkRunParams, expose } from "./params.ts";

/** Output kept in a run's result, per stream; the event log keeps everything. */
export const DEFAULT_CAPTURE_BYTES = 1024 * 1024;
/**
 * Output a run may record in its box's log (and stream as events): a command stuck printing in a
 * loop must not fill the disk. Past it, one note says so; the run goes on.
 */
export const DEFAULT_RECORDED_BYTES = 64 * 1024 * 1024;
/** How long `stop` waits after SIGTERM before SIGKILL. */
export const STOP_GRACE_MS = 1500;
/** The container tier: when, after a run stopped before its command was seen in the container, a command started there late is looked for (and killed). */
const LATE_START_CHECKS_MS = [250, 1000, 2500];

export const CAPABILITIES: BoxCapabilities = Object.freeze({ snapshot: true, pause: false, port: true });

/** Where the boxes' bookkeeping lives, beside the homes (dot names are never boxes' names). */
export function runsDir(boxesDir: string, name: string): string {
  return path.join(boxesDir, ".runs", name);
}
export function tmpDir(boxesDir: string, name: string): string {
  return path.join(boxesDir, ".tmp", name);
}

/** What the boxes of one service share. */
export interface BoxContext {
  boxesDir: string;
  tier: TierChoice;
  supervisor: Supervisor;
  /** Every event, as soon as it is on disk. */
  onEvent: (event: BoxEvent) => void;
  /** A run started or ended, or the last process of a box ended. */
  onStateChange: (box: string) => void;
  /** Output a run records at most (`DEFAULT_RECORDED_BYTES` when unset). */
  maxRecordedBytes?: number;
  /** How much of its event log a box keeps (`EventLog`'s defaults when unset). */
  logLimits?: EventLogLimits;
  /** The container tier's image and limits. */
  container?: ContainerSettings;
}

export interface RunOptions {
  /** Relative to the home. */
  cwd?: string;
  /** Laid over the base environment (PATH, HOME, TMPDIR). */
  env?: Record<string, string>;
  /** Written to standard input, which is then closed; without it stdin is /dev/null. */
  stdin?: string | Uint8Array;
  /** Aborting kills the run's group with SIGTERM. */
  signal?: AbortSignal;
  /** Bytes of each stream kept in the result. */
  captureBytes?: number;
  /** Turns the exit into a friendlier `message` (the preview's missing CLI). */
  explainExit?: (exitCode: number, stderrTail: string) => string | undefined;
  /**
   * Makes the box ready for this run, after its start is recorded and before the command starts
   * (a preview's sync). Its failure is the run's `error`: the command never starts.
   */
  prepare?: () => Promise<unknown>;
}

/** A started run: its id now, its result when it ends. */
export interface RunHandle {
  runId: string;
  tier: BoxTier;
  /** The group leader's pid (bash, or bubblewrap in the namespace tier); undefined if it could not start. */
  readonly pid: number | undefined;
  done: Promise<BoxRunResult>;
  /** `prepare`'s result, once the box is ready (rejects with its failure). */
  prepared: Promise<unknown>;
  /** Signals the run's group while something of it lives; false when nothing was hit. */
  kill(signal?: NodeJS.Signals): boolean;
}

interface LiveRun {
  info: BoxRunInfo;
  group: ProcessGroup | undefined;
  commandExited: boolean;
  done?: Promise<BoxRunResult>;
}



export class Box {
  readonly name: string;
  readonly home: string;
  readonly log: EventLog;
  private readonly runs = new Map<string, LiveRun>();

  /** Tags its runs' processes (`SANOMA_BOX_RUN=<tag>.<runId>`): the same for this box in any server, so a later one's stop finds them too. */
  private readonly tag: string;
  /** The boxes folder's own tag (its containers are labelled with it). */
  private readonly boxesLabel: string;
  /** The container being made ready for a run (one at a time: two runs would make two). */
  private containerReady: Promise<void> | undefined;
  private containerIsUp = false;
  /** A run was started here (a container may exist to remove at exit). */
  private everRan = false;

  constructor(private readonly ctx: BoxContext, name: string) {
    this.name = checkBoxName(name);
    this.home = path.join(ctx.boxesDir, name);
    this.log = new EventLog(runsDir(ctx.boxesDir, name), ctx.logLimits);
    this.tag = createHash("sha256").update(`${path.resolve(ctx.boxesDir)}\0${name}`).digest("hex").slice(0, 16);
    this.boxesLabel = boxesLabel(ctx.boxesDir);
  }

  /**
   * The home's path as `/proc/<pid>/cwd` tells a folder there: the boxes folder's real path and the
   * box's name. Never the home's own target: a link the box put in the home's place (a `process`
   * box can) led stop to end every orphan working in the folder it names, another user's daemon
   * among them. With a link there, no process works at this path, and none is found by it.
   */
  private realHome(): string {
    try { return path.join(fs.realpathSync(path.dirname(this.home)), path.basename(this.home)); } catch { return this.home; }
  }

  /**
   * The processes of this box's runs (or of `runId`) that left their process groups, alive, not the
   * server itself: pid → start time (which tells each from a later process with its pid).
   */
  private escaped(runId?: string): Map<number, number> {
    const found = runId === undefined ? processesWithEnv(`${RUN_TAG}=${this.tag}.`, true) : processesWithEnv(`${RUN_TAG}=${this.tag}.${runId}`);
    // For the whole box, also the orphans that work in its home with no terminal: a command can
    // clear its environment of the tag (`env -i setsid -f …`), not the folder it was started in
    // without leaving the home.
    if (runId === undefined) found.push(...processesWorkingIn(this.realHome()));
    const groups = new Set(this.ctx.supervisor.tracked(this.name).map((g) => g.pid));
    return new Map(found.filter((p) => p.pid !== process.pid && !groups.has(p.pgrp)).map((p) => [p.pid, p.startTicks]));
  }

  get tier(): BoxTier {
    return this.ctx.tier.tier;
  }

  get capabilities(): BoxCapabilities {
    return CAPABILITIES;
  }

  exists(): boolean {
    try { return fs.statSync(this.home).isDirectory(); } catch { return false; }
  }

  /** Makes the home (again, if it was deleted by hand); `created` when it did not exist. */
  open(): { created: boolean } {
    checkHome(this.home); // a link in its place is never followed
    const created = !this.exists();
    if (created) fs.mkdirSync(this.home, { recursive: true });
    return { created };
  }

  /** Runs `bash -c command` and waits for it to end. */
  run(command: string, options: RunOptions = {}): Promise<BoxRunResult> {
    return this.start(command, options).done;
  }

  /** Starts `bash -c command` in a process group of its own; see `RunHandle`. */
  start(command: string, options: RunOptions = {}): RunHandle {
    checkRunParams({ command, cwd: options.cwd, env: options.env });
    if (this.ctx.tier.refusal) throw new Error(this.ctx.tier.refusal);
    // The record first: a box another server keeps is refused before anything of it is made.
    this.log.openToWrite();
    // A preparation (a preview's sync) makes the home itself: it must see whether one was there.
    if (options.prepare) checkHome(this.home);
    else this.open();
    const cwd = resolveInHome(this.home, options.cwd ?? "");
    const tmp = tmpDir(this.ctx.boxesDir, this.name);
    fs.mkdirSync(tmp, { recursive: true });
    const env: Record<string, string> = {
      PATH: `${path.dirname(process.execPath)}:${BASE_PATH}`,
      HOME: this.home,
      TMPDIR: tmp,
      ...options.env,
    };
    this.log.revalidate();
    this.everRan = true;
    const startedAt = Date.now();
    const relCwd = path.relative(this.home, cwd).split(path.sep).join("/");
    // The start event's seq names the run (appends are synchronous: nothing comes between).
    const runId = `run-${this.log.seq + 1}`;
    env[RUN_TAG] = `${this.tag}.${runId}`;
    const start = this.append({ kind: "start", box: this.name, runId, at: startedAt, command, cwd: relCwd, tier: this.tier });
    const info: BoxRunInfo = { runId, startSeq: start.seq, box: this.name, command, cwd: relCwd, tier: this.tier, startedAt, state: "running", ports: [] };
    this.log.recordRun(info);
    const live: LiveRun = { info, group: undefined, commandExited: false };
    this.runs.set(runId, live);
    this.ctx.onEvent(start);
    this.ctx.onStateChange(this.name);

    let prepared!: { resolve: (v: unknown) => void; reject: (e: unknown) => void };
    const preparedPromise = new Promise<unknown>((resolve, reject) => (prepared = { resolve, reject }));
    preparedPromise.catch(() => {}); // its failure is the run's error; a caller may not ask
    const done = this.execute(live, command, cwd, tmp, env, options, prepared);
    live.done = done;
    return {
      runId,
      tier: this.tier,
      get pid() {
        return live.group?.pid;
      },
      done,
      prepared: preparedPromise,
      kill: (signal: NodeJS.Signals = "SIGTERM") => this.signalRun(live, signal),
    };
  }

  /** Prepares the box (`prepare`, the tier's own: a container), then runs the command to its end. */
  private async execute(live: LiveRun, command: string, cwd: string, tmp: string, env: Record<string, string>, options: RunOptions, prepared: { resolve: (v: unknown) => void; reject: (e: unknown) => void }): Promise<BoxRunResult> {
    const { captured, output } = this.recorder(live, options.captureBytes);
    // A box that cannot be made ready ends the run at once, its error the first failure (SPEC B4).
    const fail = (error: string) => this.finish(live, 127, null, captured, options, error);
    try {
      prepared.resolve(options.prepare ? await options.prepare() : undefined);
      if (options.prepare) this.open();
    } catch (error) {
      prepared.reject(error);
      return fail(`the box could not be made ready: ${(error as Error).message}`);
    }
    let cwdProblem: string | undefined;
    try {
      if (!fs.statSync(cwd).isDirectory()) cwdProblem = `${live.info.cwd} is not a folder`;
    } catch {
      cwdProblem = `${live.info.cwd || "the home"} does not exist`;
    }
    if (cwdProblem) return fail(`cannot start: ${cwdProblem}`);
    let plan: SpawnPlan;
    const tier = this.ctx.tier;
    if (tier.tier === "container") {
      if (!tier.engine) return fail(tier.reason);
      try {
        await this.containerUp(tmp);
      } catch (error) {
        return fail(`the box's container could not be made ready: ${(error as Error).message}`);
      }
      plan = execPlan(tier.engine, this.container(tmp), this.ctx.container ?? {}, { cwd, env, stdin: options.stdin !== undefined }, command);
    } else plan = planSpawn(tier, { home: this.home, tmp, cwd }, command);
    // (After every wait of the preparation: a shutdown meanwhile means no command starts.)
    if (this.closed) return fail("not started: the box service stopped while the box was being made ready");
    const end = await runProcess({
      plan,
      // The engine's CLI runs here with its own small environment; the command's goes in `--env`.
      cwd: tier.tier === "container" ? this.home : cwd,
      env: tier.tier === "container" ? engineEnv() : env,
      stdin: options.stdin,
      signal: options.signal,
      output,
      started: (pid, child) => this.track(live, pid, child),
      leaderExited: (group) => this.ctx.supervisor.leaderExited(group),
      abort: () => this.signalRun(live, "SIGTERM"),
      setupFailure: (said, code) => tier.tier === "namespace"
        ? `bubblewrap could not make the box's namespaces: ${said || `exit ${code}`}`
        : `${tier.engine?.name ?? "the engine"} could not run the command in the box's container: ${said || `exit ${code}`}`,
    });
    live.commandExited = true;
    if (end.error !== undefined) this.containerIsUp = false;
    return this.finish(live, end.exitCode, end.signal, captured, options, end.error);
  }

  /** The output of a run: recorded as events up to the cap, and kept for its result (`run.ts`). */
  private recorder(live: LiveRun, captureBytes: number | undefined): OutputRecorder {
    const { runId } = live.info;
    return outputRecorder(this.ctx.maxRecordedBytes ?? DEFAULT_RECORDED_BYTES, captureBytes ?? DEFAULT_CAPTURE_BYTES, (stream, text, bytes) =>
      this.ctx.onEvent(this.append({ kind: "output", box: this.name, runId, at: Date.now(), stream, text, bytes })));
  }

  /** The run's leader started: its group, watched by the supervisor (ports, liveness). */
  private track(live: LiveRun, pid: number, child: import("node:child_process").ChildProcess): ProcessGroup {
    const { info } = live;
    const group: ProcessGroup = {
      box: this.name,
      runId: info.runId,
      tier: this.tier,
      pid,
      child,
      leaderExited: false,
      dead: false,
      killedBy: undefined,
      ports: new Set(),
      onPort: (port) => {
        const announce = (url: string) => {
          info.ports.push(port);
          this.log.recordRun({ runId: info.runId, ports: [...info.ports] });
          this.ctx.onEvent(this.append({ kind: "port", box: this.name, runId: info.runId, at: Date.now(), port, url }));
        };
        // A container's port is in its own network: reachable once bridged to this machine's loopback.
        if (this.tier === "container") this.bridge(port).then((url) => announce(url), () => undefined);
        else announce(expose(port));
      },
      onDead: () => {
        this.ctx.onStateChange(this.name);
      },
    };
    if (this.tier === "container") {
      const tag = `${RUN_TAG}=${this.tag}.${info.runId}`;
      group.inside = () => processesWithEnv(tag).map((p) => p.pid).filter((p) => p !== pid);
    }
    live.group = group;
    // (The tag first: what the run detaches from its group is found by it should the server be killed.)
    this.ctx.supervisor.reaper.watchTag(this.tag);
    this.ctx.supervisor.reaper.watchHome(this.realHome());
    this.ctx.supervisor.add(group);
    return group;
  }

  /** The container tier's bridges of ports to this machine's loopback, by port. */
  private readonly bridges = new Map<number, Promise<PortBridge>>();

  /** The URL where a container box's port is reached from this machine (bridged once). */
  bridge(port: number): Promise<string> {
    const { engine } = this.ctx.tier;
    if (this.tier !== "container" || !engine) return Promise.resolve(expose(port));
    let made = this.bridges.get(port);
    if (!made) {
      made = bridgePort(engine, this.container(tmpDir(this.ctx.boxesDir, this.name)), this.ctx.container ?? {}, port);
      made.catch(() => this.bridges.delete(port));
      this.bridges.set(port, made);
    }
    return made.then((b) => b.url);
  }

  private closeBridges(): void {
    for (const made of this.bridges.values()) made.then((b) => b.close(), () => undefined);
    this.bridges.clear();
  }

  /**
   * Signals a run: its group; in the container tier its processes there, as the engine's exec
   * passes no signal on. The exec itself is signalled there only when nothing of the run is left
   * inside, or to kill: signalled, it ends 0 whatever became of the command (a stopped run was
   * recorded as a success), where left alone it ends with the command's status.
   */
  private signalRun(live: LiveRun, signal: NodeJS.Signals): boolean {
    if (this.tier !== "container") return live.group ? this.ctx.supervisor.signal(live.group, signal) : false;
    const inside = this.escaped(live.info.runId);
    signalFound(inside, signal);
    const hit = live.group ? this.signalExec(live.group, signal, inside.size > 0) : false;
    if (inside.size === 0) this.killLateStart(live.info.runId);
    return hit || inside.size > 0;
  }

  /**
   * The container tier, a run stopped with nothing of it seen inside yet: the exec, signalled while
   * it set the command up, may still have the engine start it there, after the exec is gone (no
   * one would stop it then); what starts so is killed.
   */
  private killLateStart(runId: string): void {
    for (const ms of LATE_START_CHECKS_MS) setTimeout(() => signalFound(this.escaped(runId), "SIGKILL"), ms).unref();
  }

  /**
   * Signals a run's group, but in the container tier, while the run has processes inside (just
   * signalled themselves), a signal other than KILL is only noted as sent (so that a status of
   * 128 + its number names it, as in the other tiers): the engine's exec, signalled, ends 0.
   */
  private signalExec(group: ProcessGroup, signal: NodeJS.Signals, runsInside: boolean): boolean {
    if (this.tier === "container" && !runsInside && signal !== "SIGKILL") group.execSignalled = true;
    if (this.tier !== "container" || !runsInside || signal === "SIGKILL") return this.ctx.supervisor.signal(group, signal);
    if (!this.ctx.supervisor.isAlive(group)) return false;
    group.killedBy ??= signal;
    (group.sent ??= new Set()).add(signal);
    return true;
  }

  /** The container tier: makes the box's container ready (an open does, so a run finds it made). */
  async ready(): Promise<void> {
    if (this.tier !== "container" || !this.ctx.tier.engine) return;
    const tmp = tmpDir(this.ctx.boxesDir, this.name);
    fs.mkdirSync(tmp, { recursive: true });
    this.everRan = true;
    await this.containerUp(tmp);
  }

  private containerUp(tmp: string): Promise<void> {
    // Known up since it was made: a run costs one exec, not an inspect too. A run the engine could
    // not start (the container removed by hand) asks again.
    if (this.containerIsUp) return Promise.resolve();
    const engine = this.ctx.tier.engine!;
    // (Before it is made: a server killed while it starts leaves none either.)
    this.ctx.supervisor.reaper.watchEngine({ file: engine.file, podman: engine.name === "podman", env: engineEnv(), label: serverLabel() });
    return (this.containerReady ??= ensureContainer(engine, this.container(tmp), this.ctx.container ?? {})
      .then(() => { this.containerIsUp = true; })
      .finally(() => (this.containerReady = undefined)));
  }

  /** What the container tier makes this box's container from. */
  private container(tmp: string): BoxContainer {
    // The company comes from the server's own record of the last preview (outside the home).
    const root = readPreviewSource(this.log.dir)?.root;
    return { tag: this.tag, home: this.home, tmp, boxesLabel: this.boxesLabel, nodeModules: root === undefined ? undefined : companyNodeModules(root) };
  }

  private finish(
    live: LiveRun,
    exitCode: number,
    signal: NodeJS.Signals | null,
    captured: Captured,
    options: RunOptions,
    failure?: string,
  ): BoxRunResult {
    const { info } = live;
    const endedAt = Date.now();
    const durationMs = endedAt - info.startedAt;
    const stdout = captured.stdout.join("");
    const stderr = captured.stderr.join("");
    // The first failure recorded for the run is kept: what followed from it never replaces it.
    const error = info.error ?? failure;
    const message = error === undefined ? options.explainExit?.(exitCode, stderr.slice(-4000)) : undefined;
    const also = { ...(message ? { message } : {}), ...(error !== undefined ? { error } : {}) };
    Object.assign(info, { state: "exited", endedAt, exitCode, signal, durationMs }, also);
    this.log.recordRun({ runId: info.runId, state: "exited", endedAt, exitCode, signal, durationMs, ...(error !== undefined ? { error } : {}) });
    const exit = this.append({ kind: "exit", box: this.name, runId: info.runId, at: endedAt, exitCode, signal, durationMs, ...also });
    this.ctx.onEvent(exit);
    // A run whose processes all ended is forgotten; one that left some behind stays until they end.
    if (!live.group || live.group.dead) this.runs.delete(info.runId);
    else {
      const previous = live.group.onDead;
      live.group.onDead = () => {
        this.runs.delete(info.runId);
        previous();
      };
    }
    this.ctx.onStateChange(this.name);
    return {
      runId: info.runId, box: this.name, tier: info.tier, exitCode, signal, stdout, stderr,
      outputTruncated: captured.truncated, startedAt: info.startedAt, durationMs, ports: [...info.ports], ...also,
    };
  }

  private append(event: NewBoxEvent): BoxEvent {
    return this.log.append(event);
  }

  /** Runs whose command still runs, or whose processes still live. */
  liveRuns(): BoxRunInfo[] {
    return [...this.runs.values()].filter((r) => !r.commandExited || (r.group && this.ctx.supervisor.isAlive(r.group))).map((r) => r.info);
  }

  /** The run's info while this server knows it live. */
  liveRun(runId: string): BoxRunInfo | undefined {
    return this.runs.get(runId)?.info;
  }

  /** Signals one run's group; false when nothing of it lives. */
  kill(runId: string, signal: NodeJS.Signals = "SIGTERM"): boolean {
    const live = this.runs.get(runId);
    return live ? this.signalRun(live, signal) : false;
  }

  /**
   * Ends every group the box started (or only `runId`'s): SIGTERM, then SIGKILL after `graceMs`
   * to what is left. Resolves with how many groups were alive, once none is.
   */
  async stop(options: { runId?: string; graceMs?: number } = {}): Promise<number> {
    // A box another live server keeps is its to stop: its runs carry this box's tag, which a stop
    // here would find and end (and a discard would delete their home and record under them).
    this.log.refuseIfKept();
    const stopped = await this.stopProcesses(options);
    if (options.runId === undefined) await this.removeContainer();
    return stopped;
  }

  private async stopProcesses(options: { runId?: string; graceMs?: number }): Promise<number> {
    const supervisor = this.ctx.supervisor;
    const groups = supervisor.tracked(this.name).filter((g) => options.runId === undefined || g.runId === options.runId);
    const ending = groups.map((g) => this.runs.get(g.runId)?.done).filter((d): d is Promise<BoxRunResult> => d !== undefined);
    // What left its group (`setsid`) is found by its tag, and ended alike; in the container tier,
    // so is everything a run runs inside (`signalExec`).
    const escaped = this.escaped(options.runId);
    const runsInside = new Set(this.tier === "container" ? groups.filter((g) => this.escaped(g.runId).size > 0) : []);
    signalFound(escaped, "SIGTERM");
    const alive = groups.filter((g) => this.signalExec(g, "SIGTERM", runsInside.has(g)));
    if (this.tier === "container") for (const g of alive) if (!runsInside.has(g)) this.killLateStart(g.runId);
    if (alive.length === 0 && escaped.size === 0) return 0;
    const graceMs = options.graceMs ?? STOP_GRACE_MS;
    const escapedGone = () => [...escaped].every(([pid, start]) => { const now = readProc(pid); return now?.startTicks !== start || now.state === "Z"; });
    await waitUntil(() => alive.every((g) => !supervisor.isAlive(g)) && escapedGone(), graceMs);
    for (const g of alive) supervisor.signal(g, "SIGKILL");
    signalFound(escaped, "SIGKILL");
    await waitUntil(() => alive.every((g) => !supervisor.isAlive(g)), 5000);
    // The runs' last output and exit are recorded before stop answers.
    await Promise.race([Promise.all(ending), new Promise((r) => setTimeout(r, 2 * OUTPUT_GRACE_MS + 100))]);
    return alive.length;
  }

  /** The container tier: the box's container goes with a stop of the whole box (none is left behind). */
  private async removeContainer(): Promise<void> {
    const { engine } = this.ctx.tier;
    this.containerIsUp = false;
    this.closeBridges();
    if (this.tier === "container" && engine) await removeContainer(engine, this.tag);
  }

  /**
   * No command of this box starts from now on: a run still preparing (a preview's copy) ends
   * there, its command never run. The server is shutting down: what it answered "stopped" must
   * not start after the answer.
   */
  closeForGood(): void {
    this.closed = true;
  }

  private closed = false;

  /** SIGKILL to every live group at once, and to what left them, synchronously (for a server that is exiting). */
  killAllNow(): void {
    this.closed = true;
    for (const g of this.ctx.supervisor.tracked(this.name)) this.ctx.supervisor.signal(g, "SIGKILL");
    if (this.log.keeper() !== undefined) return; // what carries the box's tag is another server's (see `stop`)
    signalFound(this.escaped(), "SIGKILL");
    if (this.tier === "container" && this.ctx.tier.engine && this.everRan) removeContainersNow(this.ctx.tier.engine, [this.tag]);
    this.containerIsUp = false;
    this.closeBridges();
  }

  /**
   * Stops the box, then deletes its home, its temporary folder and its log: through descriptors
   * (`removeTree`'s `byDescriptors`), never by path. A process of the box a stop could not find
   * (the process tier's documented escape) may swap a folder of them for a link while they are
   * emptied: by path, the removal went on in the link's target (another user's files, to a server
   * run as root). Such a swap is refused: nothing is deleted through it, and the discard says so
   * (a second one removes the link itself). Trees deeper than PATH_MAX are removed all the same.
   */
  async discard(): Promise<void> {
    await this.stop({ graceMs: 500 });
    try {
      removeTree(this.home, { byDescriptors: true });
      removeTree(tmpDir(this.ctx.boxesDir, this.name), { byDescriptors: true });
      this.log.remove();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ELOOP" && code !== "ENOTDIR" && code !== "EISDIR" && code !== "ENOTEMPTY") throw error;
      throw new Error(`${this.name} could not be discarded whole: its folders changed while they were deleted (a process of the box still running swapped a folder for a link, or wrote into one); nothing was deleted through a link. Discard it again to remove what is left`);
    }
    this.runs.clear();
  }

  /** The file's bytes, or undefined when there is none (`paths.ts`: never outside the home). */
  read(requested: string): Buffer | undefined {
    return readInHome(this.home, requested);
  }

  /** Writes the file, making its parent folders; `mode` sets its permissions (default 0o644). */
  write(requested: string, bytes: string | Uint8Array, options: { mode?: number } = {}): void {
    this.open();
    writeInHome(this.home, requested, bytes, options);
  }

  expose(port: number): string {
    return expose(port);
  }
}

/** The variable that tags a box's processes (see the header). */
const RUN_TAG = "SANOMA_BOX_RUN";

export { boxesLabel } from "./container.ts";
