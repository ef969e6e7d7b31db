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
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { StringDecoder } from "node:string_decoder";
import { constants as osConstants } from "node:os";
import { createHash } from "node:crypto";
import type { BoxCapabilities, BoxEvent, BoxRunInfo, BoxRunResult, BoxTier } from "../protocol.ts";
import { EventLog, type EventLogLimits, type NewBoxEvent } from "./events.ts";
import { checkBoxName } from "./names.ts";
import { checkHome } from "./sync.ts";
import { processesWithEnv, readProc } from "./procfs.ts";
import { BoxPathError, isInside, resolveInHome } from "./paths.ts";
import type { ProcessGroup, Supervisor } from "./supervisor.ts";
import { BASE_PATH, planSpawn, type TierChoice } from "./tiers.ts";

/** How long a run waits, after its command exits, for the last output still in its pipes. */
export const OUTPUT_GRACE_MS = 200;
/** Output kept in a run's result, per stream; the event log keeps everything. */
export const DEFAULT_CAPTURE_BYTES = 1024 * 1024;
/**
 * Output a run may record in its box's log (and stream as events): a command stuck printing in a
 * loop must not fill the disk. Past it, one note says so; the run goes on.
 */
export const DEFAULT_RECORDED_BYTES = 64 * 1024 * 1024;
/** How long `stop` waits after SIGTERM before SIGKILL. */
export const STOP_GRACE_MS = 1500;

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
}

/** A started run: its id now, its result when it ends. */
export interface RunHandle {
  runId: string;
  tier: BoxTier;
  /** The group leader's pid (bash, or bubblewrap in the namespace tier); undefined if it could not start. */
  readonly pid: number | undefined;
  done: Promise<BoxRunResult>;
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

  constructor(private readonly ctx: BoxContext, name: string) {
    this.name = checkBoxName(name);
    this.home = path.join(ctx.boxesDir, name);
    this.log = new EventLog(runsDir(ctx.boxesDir, name), ctx.logLimits);
    this.tag = createHash("sha256").update(`${path.resolve(ctx.boxesDir)}\0${name}`).digest("hex").slice(0, 16);
  }

  /**
   * The processes of this box's runs (or of `runId`) that left their process groups, alive, not the
   * server itself: pid → start time (which tells each from a later process with its pid).
   */
  private escaped(runId?: string): Map<number, number> {
    const found = runId === undefined ? processesWithEnv(`${RUN_TAG}=${this.tag}.`, true) : processesWithEnv(`${RUN_TAG}=${this.tag}.${runId}`);
    const groups = new Set(this.ctx.supervisor.tracked(this.name).map((g) => g.pid));
    return new Map(found.filter((p) => p.pid !== process.pid && !groups.has(p.pgrp)).map((p) => [p.pid, p.startTicks]));
  }

  /** Signals the processes `escaped` found, each only while it is still the process found (its pid not reused). */
  private static signalEscaped(escaped: Map<number, number>, signal: NodeJS.Signals): void {
    for (const [pid, start] of escaped) {
      if (readProc(pid)?.startTicks !== start) continue;
      try { process.kill(pid, signal); } catch { /* gone */ }
    }
  }

  get tier(): BoxTier {
    return this.ctx.tier.tier;
  }

  get capabilities(): BoxCapabilities {
    return CAPABILITIES;
  }

  exists(): boolean {
    try {
      return fs.statSync(this.home).isDirectory();
    } catch {
      return false;
    }
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
    this.open();
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
    const startedAt = Date.now();
    const relCwd = path.relative(this.home, cwd).split(path.sep).join("/");
    // The start event's seq names the run (appends are synchronous: nothing comes between).
    const runId = `run-${this.log.seq + 1}`;
    env[RUN_TAG] = `${this.tag}.${runId}`;
    const start = this.append({ kind: "start", box: this.name, runId, at: startedAt, command, cwd: relCwd, tier: this.tier });
    const info: BoxRunInfo = { runId, box: this.name, command, cwd: relCwd, tier: this.tier, startedAt, state: "running", ports: [] };
    this.log.recordRun({ runId, box: this.name, command, cwd: relCwd, tier: this.tier, startedAt, state: "running", ports: [] });
    const live: LiveRun = { info, group: undefined, commandExited: false };
    this.runs.set(runId, live);
    this.ctx.onEvent(start);
    this.ctx.onStateChange(this.name);

    const done = this.execute(live, command, cwd, tmp, env, options);
    live.done = done;
    return {
      runId,
      tier: this.tier,
      get pid() {
        return live.group?.pid;
      },
      done,
      kill: (signal: NodeJS.Signals = "SIGTERM") => (live.group ? this.ctx.supervisor.signal(live.group, signal) : false),
    };
  }

  private execute(live: LiveRun, command: string, cwd: string, tmp: string, env: Record<string, string>, options: RunOptions): Promise<BoxRunResult> {
    const { info } = live;
    const cap = options.captureBytes ?? DEFAULT_CAPTURE_BYTES;
    const captured = { stdout: [] as string[], stderr: [] as string[], bytes: { stdout: 0, stderr: 0 }, truncated: false };
    const recordCap = this.ctx.maxRecordedBytes ?? DEFAULT_RECORDED_BYTES;
    let recorded = 0;
    const record = (stream: "stdout" | "stderr", text: string, bytes: number) =>
      this.ctx.onEvent(this.append({ kind: "output", box: this.name, runId: info.runId, at: Date.now(), stream, text, bytes }));
    // An event's `bytes` is the size of its own text (UTF-8): a chunk that ends mid-character
    // gives its bytes to the next event, which holds the character.
    const output = (stream: "stdout" | "stderr", text: string) => {
      if (text.length === 0) return;
      const bytes = Buffer.byteLength(text);
      if (recorded <= recordCap) {
        recorded += bytes;
        if (recorded <= recordCap) record(stream, text, bytes);
        else {
          const note = `\n[sanoma: this run printed more than ${formatBytes(recordCap)}; the rest of its output is neither recorded nor shown. It goes on running: stop it from the Boxes view or with sanoma/boxes/stop.]\n`;
          record("stderr", note, Buffer.byteLength(note));
        }
      }
      if (captured.bytes[stream] < cap) {
        captured[stream].push(text);
        captured.bytes[stream] += bytes;
      } else captured.truncated = true;
    };

    return new Promise<BoxRunResult>((resolve) => {
      let cwdProblem: string | undefined;
      try {
        if (!fs.statSync(cwd).isDirectory()) cwdProblem = `${info.cwd} is not a folder`;
      } catch {
        cwdProblem = `${info.cwd || "the home"} does not exist`;
      }
      if (cwdProblem) {
        output("stderr", `cannot start: ${cwdProblem}\n`);
        resolve(this.finish(live, 127, null, captured, options));
        return;
      }

      const plan = planSpawn(this.ctx.tier, { home: this.home, tmp, cwd }, command);
      const stdio: Array<"pipe" | "ignore"> = [options.stdin !== undefined ? "pipe" : "ignore", "pipe", "pipe"];
      if (plan.statusFd) stdio.push("pipe");
      const child = spawn(plan.file, plan.args, { cwd, env, stdio, detached: true });

      let exitCode: number | undefined;
      let exitSignal: NodeJS.Signals | null = null;
      let statusText = "";
      let reported = false;
      const streamsOpen = new Set<NodeJS.ReadableStream>();
      let graceTimer: NodeJS.Timeout | undefined;
      let onAbort: (() => void) | undefined;

      const decoders = { stdout: new StringDecoder("utf8"), stderr: new StringDecoder("utf8") };
      for (const stream of ["stdout", "stderr"] as const) {
        const readable = child[stream];
        if (!readable) continue;
        streamsOpen.add(readable);
        readable.on("data", (chunk: Buffer) => output(stream, decoders[stream].write(chunk)));
        const closed = () => {
          if (!streamsOpen.delete(readable)) return;
          output(stream, decoders[stream].end());
          settleWhenQuiet();
        };
        readable.on("end", closed);
        readable.on("close", closed);
        readable.on("error", closed);
      }

      // The command exited: give its pipes a short grace, then stop listening to them.
      const commandExited = (code: number, signal: NodeJS.Signals | null) => {
        if (reported) return;
        reported = true;
        live.commandExited = true;
        exitCode = code;
        exitSignal = signal;
        graceTimer = setTimeout(settle, OUTPUT_GRACE_MS);
        settleWhenQuiet();
      };
      // Done early when the pipes closed and the leader was reaped (bubblewrap, in the namespace
      // tier, exits a moment after the command): the box's state is then settled too.
      let leaderReaped = false;
      const settleWhenQuiet = () => {
        if (reported && streamsOpen.size === 0 && (leaderReaped || child.pid === undefined)) settle();
      };
      let settled = false;
      const settle = () => {
        if (settled) return;
        settled = true;
        if (graceTimer) clearTimeout(graceTimer);
        for (const stream of ["stdout", "stderr"] as const) {
          const readable = child[stream];
          if (readable && streamsOpen.has(readable)) {
            output(stream, decoders[stream].end());
            streamsOpen.delete(readable);
            readable.removeAllListeners("data");
            // Not destroyed: what the command left running (a dev server) may still write, and a
            // closed pipe would kill it with SIGPIPE on its next line. Its output is read and
            // dropped until it ends or is stopped; unref'd, the pipe never keeps the server alive.
            readable.resume();
            (readable as NodeJS.ReadableStream & { unref?: () => void }).unref?.();
          }
        }
        // The status pipe and stdin too: an orphan of the box must not keep this process's handles.
        for (const extra of [child.stdio[3], child.stdin]) (extra as NodeJS.ReadableStream & { destroy?: () => void } | null)?.destroy?.();
        if (onAbort) options.signal?.removeEventListener("abort", onAbort);
        resolve(this.finish(live, exitCode ?? 127, exitSignal, captured, options));
      };

      child.on("error", (error: NodeJS.ErrnoException) => {
        // spawn failed (no bash, no bwrap, a vanished cwd): the command could not start.
        if (child.pid === undefined) {
          const message = `cannot start: ${error.message}\n`;
          output("stderr", message);
          commandExited(127, null);
        }
      });

      if (child.pid === undefined) return; // the error event follows

      const group: ProcessGroup = {
        box: this.name,
        runId: info.runId,
        tier: this.tier,
        pid: child.pid,
        child,
        leaderExited: false,
        dead: false,
        killedBy: undefined,
        ports: new Set(),
        onPort: (port) => {
          info.ports.push(port);
          this.log.recordRun({ runId: info.runId, ports: [...info.ports] });
          this.ctx.onEvent(this.append({ kind: "port", box: this.name, runId: info.runId, at: Date.now(), port, url: expose(port) }));
        },
        onDead: () => {
          this.ctx.onStateChange(this.name);
        },
      };
      live.group = group;
      this.ctx.supervisor.add(group);
      onAbort = () => {
        this.ctx.supervisor.signal(group, "SIGTERM");
      };
      if (options.signal) {
        if (options.signal.aborted) queueMicrotask(onAbort);
        else options.signal.addEventListener("abort", onAbort, { once: true });
      }

      if (plan.statusFd) {
        const status = child.stdio[3] as NodeJS.ReadableStream | null;
        status?.on("data", (chunk: Buffer) => {
          statusText += chunk.toString("latin1");
          const line = /^(\d+)\n/.exec(statusText);
          if (line) commandExited(Number(line[1]), statusSignal(group, Number(line[1])));
        });
        status?.on("error", () => {});
      }

      child.on("exit", (code, signal) => {
        leaderReaped = true;
        this.ctx.supervisor.leaderExited(group);
        settleWhenQuiet();
        if (!plan.statusFd) {
          // A signal is named only when we sent it, as in the namespace tier (a command that
          // killed itself, or was killed from outside, exits 128 + n with no signal).
          commandExited(code ?? 128 + signalNumber(signal), signal !== null && group.sent?.has(signal) ? signal : null);
          return;
        }
        // bubblewrap ended; the status line, when written, may still be in its pipe.
        const status = child.stdio[3] as (NodeJS.ReadableStream & { readableEnded?: boolean }) | null;
        const decide = () => {
          if (reported) return;
          const line = /^(\d+)\n/.exec(statusText);
          const killedBy = group.killedBy ?? signal;
          if (line) commandExited(Number(line[1]), statusSignal(group, Number(line[1])));
          else if (killedBy) commandExited(128 + signalNumber(killedBy), killedBy);
          else if (code !== null && code >= 128) commandExited(code, null);
          else {
            // bubblewrap could not set the box up (its message is on stderr): nothing started.
            commandExited(127, null);
          }
        };
        if (!status || status.readableEnded) decide();
        else {
          const timer = setTimeout(decide, OUTPUT_GRACE_MS);
          status.once("close", () => {
            clearTimeout(timer);
            decide();
          });
        }
      });

      if (options.stdin !== undefined && child.stdin) {
        child.stdin.on("error", () => {}); // the command may not read it all
        child.stdin.end(options.stdin);
      }
    });
  }

  private finish(
    live: LiveRun,
    exitCode: number,
    signal: NodeJS.Signals | null,
    captured: { stdout: string[]; stderr: string[]; truncated: boolean },
    options: RunOptions,
  ): BoxRunResult {
    const { info } = live;
    const endedAt = Date.now();
    const durationMs = endedAt - info.startedAt;
    const stdout = captured.stdout.join("");
    const stderr = captured.stderr.join("");
    const message = options.explainExit?.(exitCode, stderr.slice(-4000));
    Object.assign(info, { state: "exited", endedAt, exitCode, signal, durationMs });
    this.log.recordRun({ runId: info.runId, state: "exited", endedAt, exitCode, signal, durationMs });
    const exit = this.append({
      kind: "exit", box: this.name, runId: info.runId, at: endedAt, exitCode, signal, durationMs,
      ...(message ? { message } : {}),
    });
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
      outputTruncated: captured.truncated, startedAt: info.startedAt, durationMs, ports: [...info.ports],
      ...(message ? { message } : {}),
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
    if (!live?.group) return false;
    return this.ctx.supervisor.signal(live.group, signal);
  }

  /**
   * Ends every group the box started (or only `runId`'s): SIGTERM, then SIGKILL after `graceMs`
   * to what is left. Resolves with how many groups were alive, once none is.
   */
  async stop(options: { runId?: string; graceMs?: number } = {}): Promise<number> {
    const supervisor = this.ctx.supervisor;
    const groups = supervisor.tracked(this.name).filter((g) => options.runId === undefined || g.runId === options.runId);
    const ending = groups.map((g) => this.runs.get(g.runId)?.done).filter((d): d is Promise<BoxRunResult> => d !== undefined);
    const alive = groups.filter((g) => supervisor.signal(g, "SIGTERM"));
    // What left its group (`setsid`) is found by its tag, and ended alike.
    const escaped = this.escaped(options.runId);
    Box.signalEscaped(escaped, "SIGTERM");
    if (alive.length === 0 && escaped.size === 0) return 0;
    const graceMs = options.graceMs ?? STOP_GRACE_MS;
    const escapedGone = () => [...escaped].every(([pid, start]) => { const now = readProc(pid); return now?.startTicks !== start || now.state === "Z"; });
    await waitUntil(() => alive.every((g) => !supervisor.isAlive(g)) && escapedGone(), graceMs);
    for (const g of alive) supervisor.signal(g, "SIGKILL");
    Box.signalEscaped(escaped, "SIGKILL");
    await waitUntil(() => alive.every((g) => !supervisor.isAlive(g)), 5000);
    // The runs' last output and exit are recorded before stop answers.
    await Promise.race([Promise.all(ending), new Promise((r) => setTimeout(r, 2 * OUTPUT_GRACE_MS + 100))]);
    return alive.length;
  }

  /** SIGKILL to every live group at once, and to what left them, synchronously (for a server that is exiting). */
  killAllNow(): void {
    for (const g of this.ctx.supervisor.tracked(this.name)) this.ctx.supervisor.signal(g, "SIGKILL");
    Box.signalEscaped(this.escaped(), "SIGKILL");
  }

  /** Stops the box, then deletes its home, its temporary folder and its log. */
  async discard(): Promise<void> {
    await this.stop({ graceMs: 500 });
    fs.rmSync(this.home, { recursive: true, force: true });
    fs.rmSync(tmpDir(this.ctx.boxesDir, this.name), { recursive: true, force: true });
    this.log.remove();
    this.runs.clear();
  }

  /** The file's bytes, or undefined when there is none. */
  read(requested: string): Buffer | undefined {
    const target = resolveInHome(this.home, requested);
    let real: string;
    try {
      real = fs.realpathSync(target);
    } catch {
      return undefined;
    }
    this.assertInside(real, requested);
    let fd: number;
    try {
      fd = fs.openSync(real, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") return undefined;
      throw error;
    }
    try {
      if (fs.fstatSync(fd).isDirectory()) throw new BoxPathError(requested, "is a folder");
      return fs.readFileSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  }

  /** Writes the file, making its parent folders; `mode` sets its permissions (default 0o644). */
  write(requested: string, bytes: string | Uint8Array, options: { mode?: number } = {}): void {
    this.open();
    const target = resolveInHome(this.home, requested);
    if (target === this.home) throw new BoxPathError(requested, "is the box's home, not a file");
    const parent = path.dirname(target);
    fs.mkdirSync(parent, { recursive: true });
    const realParent = fs.realpathSync(parent);
    this.assertInside(realParent, requested);
    let destination = path.join(realParent, path.basename(target));
    try {
      if (fs.lstatSync(destination).isSymbolicLink()) {
        destination = fs.realpathSync(destination); // checked inside by resolveInHome
        this.assertInside(destination, requested);
      }
    } catch (error) {
      if (error instanceof BoxPathError) throw error;
    }
    const fd = fs.openSync(destination, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC | fs.constants.O_NOFOLLOW, options.mode ?? 0o644);
    try {
      fs.writeFileSync(fd, bytes);
      if (options.mode !== undefined) fs.fchmodSync(fd, options.mode);
    } finally {
      fs.closeSync(fd);
    }
  }

  expose(port: number): string {
    return expose(port);
  }

  private assertInside(real: string, requested: string): void {
    const realHome = fs.realpathSync(this.home);
    if (!isInside(realHome, real)) throw new BoxPathError(requested, "leads out of the box's home through a symlink");
  }
}

/** `expose(port)`: the URL where the box's port is reachable from this machine. */
export function expose(port: number): string {
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new RangeError(`${port} is no port number`);
  return `http://127.0.0.1:${port}`;
}

/**
 * Refuses a run's parameters that no command could be started with, before anything is made or
 * recorded: a command that is no text, a NUL character anywhere in the command, the working
 * folder or the environment (a system call would cut the string there: the run would never
 * start, yet be recorded as running), an environment that is no object of texts, a variable's
 * name that is empty or holds `=`.
 */
export function checkRunParams(params: { command: unknown; cwd?: unknown; env?: unknown }): void {
  const { command, cwd, env } = params;
  if (typeof command !== "string") throw new TypeError("command must be the text of a bash command");
  if (command.includes("\0")) throw new TypeError("command holds a NUL character: no command can be started with it");
  if (cwd !== undefined && typeof cwd !== "string") throw new TypeError("cwd must be a path");
  if (typeof cwd === "string" && cwd.includes("\0")) throw new TypeError("cwd holds a NUL character: no folder is named so");
  if (env === undefined) return;
  if (typeof env !== "object" || env === null || Array.isArray(env)) throw new TypeError("env must be an object of variables");
  for (const [key, value] of Object.entries(env)) {
    if (key === "" || key.includes("=") || key.includes("\0")) throw new TypeError(`env: ${JSON.stringify(key)} is no variable's name`);
    if (typeof value !== "string") throw new TypeError(`env.${key} must be text`);
    if (value.includes("\0")) throw new TypeError(`env.${key} holds a NUL character: no variable can hold it`);
  }
}

function signalNumber(signal: NodeJS.Signals | null | undefined): number {
  return (signal && (osConstants.signals as Record<string, number>)[signal]) || 0;
}

/**
 * The signal behind a status from the namespace wrapper: a shell's 128+n cannot tell `exit 143`
 * from a SIGTERM, so a signal is named only when we sent it.
 */
function statusSignal(group: ProcessGroup, status: number): NodeJS.Signals | null {
  for (const sent of group.sent ?? []) if (status === 128 + signalNumber(sent)) return sent;
  return null;
}

/** Polls `condition` every 20 ms until it holds or `ms` pass; resolves with whether it held. */
export async function waitUntil(condition: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round(n / (1024 * 1024))} MiB` : n >= 1024 ? `${Math.round(n / 1024)} KiB` : `${n} bytes`;
}

/** The variable that tags a box's processes (see the header). */
const RUN_TAG = "SANOMA_BOX_RUN";
