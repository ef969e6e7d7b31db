/**
 * One command's process, from spawn to exit (SPEC B4): its output read as UTF-8 and handed on, its
 * stdin written, and its end decided. A run ends when its command exits, not when its pipes close
 * (what it left running may hold them), with up to `OUTPUT_GRACE_MS` for its last output.
 *
 * How the command's exit is known depends on the tier (`SpawnPlan`): the leader's own exit
 * (process tier, and a container's `exec`), or a status line on fd 3 (namespace tier, whose leader
 * is bubblewrap). Where the leader sets the box up first (bubblewrap, the engine's `exec`), the
 * command's start is marked (`started`) before it runs: what the leader said before that is its
 * own failure, not the command's output, and becomes the run's `error` (SPEC B4: provisioning
 * failures are the root cause).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { StringDecoder } from "node:string_decoder";
import { constants as osConstants } from "node:os";
import type { ProcessGroup } from "./supervisor.ts";
import type { SpawnPlan } from "./tiers.ts";

/** How long a run waits, after its command exits, for the last output still in its pipes. */
export const OUTPUT_GRACE_MS = 200;

/** The byte a container's wrapper writes on stderr before it runs the command. */
export const STARTED_MARK = "\u001e";

export interface ProcessRun {
  plan: SpawnPlan;
  cwd: string;
  env: Record<string, string>;
  stdin?: string | Uint8Array;
  signal?: AbortSignal;
  /** Output of the command, as it comes. */
  output(stream: "stdout" | "stderr", text: string): void;
  /** The leader started: its group, for the supervisor to watch and signal. */
  started(pid: number, child: ChildProcess): ProcessGroup;
  /** Node reaped the leader. */
  leaderExited(group: ProcessGroup): void;
  /** The caller's signal aborted: end the run. */
  abort(group: ProcessGroup): void;
  /** Words for a leader's own failure before the command started (`stderr`: what it said). */
  setupFailure(said: string, exitCode: number | null): string;
}

export interface ProcessEnd {
  exitCode: number;
  signal: NodeJS.Signals | null;
  /** Why the command never started, when it did not. */
  error?: string;
}

/** Spawns the plan and resolves once its command ended (see the header). */
export function runProcess(run: ProcessRun): Promise<ProcessEnd> {
  const { plan } = run;
  return new Promise<ProcessEnd>((resolve) => {
    const stdio: Array<"pipe" | "ignore"> = [run.stdin !== undefined ? "pipe" : "ignore", "pipe", "pipe"];
    if (plan.statusFd) stdio.push("pipe");
    const child = spawn(plan.file, plan.args, { cwd: run.cwd, env: run.env, stdio, detached: true });

    // Until the command is known to run, what the leader writes is held: the setup's own words.
    let commandStarted = plan.started === undefined;
    const held: Array<["stdout" | "stderr", string]> = [];
    const output = (stream: "stdout" | "stderr", text: string) => {
      if (text.length === 0) return;
      if (commandStarted) run.output(stream, text);
      else held.push([stream, text]);
    };
    const markStarted = () => {
      if (commandStarted) return;
      commandStarted = true;
      for (const [stream, text] of held.splice(0)) run.output(stream, text);
    };

    let exitCode: number | undefined;
    let exitSignal: NodeJS.Signals | null = null;
    let error: string | undefined;
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
      readable.on("data", (chunk: Buffer) => {
        let text = decoders[stream].write(chunk);
        if (!commandStarted && plan.started === "stderr" && stream === "stderr") {
          const at = text.indexOf(STARTED_MARK);
          if (at >= 0) {
            output(stream, text.slice(0, at));
            markStarted();
            text = text.slice(at + STARTED_MARK.length);
          }
        }
        output(stream, text);
      });
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
      exitCode = code;
      exitSignal = signal;
      graceTimer = setTimeout(settle, OUTPUT_GRACE_MS);
      settleWhenQuiet();
    };
    /** The command never started: the leader's words (held) are the error. */
    const setupFailed = (code: number | null) => {
      if (reported) return;
      const said = held.map(([, text]) => text).join("").trim();
      held.length = 0;
      error ??= run.setupFailure(said, code);
      commandExited(127, null);
    };
    // Done early when the pipes closed and the leader was reaped: the box's state is then settled too.
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
      // What the command printed before a setup that then failed (none, normally) is dropped with it.
      if (error === undefined && held.length > 0) markStarted();
      // The status pipe and stdin too: an orphan of the box must not keep this process's handles.
      for (const extra of [child.stdio[3], child.stdin]) (extra as NodeJS.ReadableStream & { destroy?: () => void } | null)?.destroy?.();
      if (onAbort) run.signal?.removeEventListener("abort", onAbort);
      resolve({ exitCode: exitCode ?? 127, signal: exitSignal, ...(error !== undefined ? { error } : {}) });
    };

    child.on("error", (spawnError: NodeJS.ErrnoException) => {
      // spawn failed (no bash, no bwrap, no engine): the command could not start.
      if (child.pid === undefined) {
        error ??= `${plan.file} could not be started: ${spawnError.message}`;
        commandExited(127, null);
      }
    });

    if (child.pid === undefined) return; // the error event follows

    const group = run.started(child.pid, child);
    onAbort = () => run.abort(group);
    if (run.signal) {
      if (run.signal.aborted) queueMicrotask(onAbort);
      else run.signal.addEventListener("abort", onAbort, { once: true });
    }

    if (plan.statusFd) {
      // `S` when the command starts, then its exit status.
      const status = child.stdio[3] as NodeJS.ReadableStream | null;
      status?.on("data", (chunk: Buffer) => {
        statusText += chunk.toString("latin1");
        if (statusText.startsWith("S\n")) markStarted();
        const line = /^S\n(\d+)\n/.exec(statusText);
        if (line) commandExited(Number(line[1]), statusSignal(group, Number(line[1])));
      });
      status?.on("error", () => {});
    }

    child.on("exit", (code, signal) => {
      leaderReaped = true;
      run.leaderExited(group);
      settleWhenQuiet();
      // The container tier's exec, signalled itself while the command was not seen inside yet
      // (its start's mark may come after): it ends 0 whatever became of the command, which the
      // stop kills when it shows up. A stop, recorded as the signal's, not a success.
      if (!plan.statusFd && group.execSignalled && group.killedBy !== undefined && code === 0) {
        commandExited(128 + signalNumber(group.killedBy), group.killedBy);
        return;
      }
      if (!plan.statusFd && !commandStarted) {
        // The engine's exec ended with no mark of the command's start read yet: wait for the rest
        // of its stderr, where the mark would be, then decide.
        const stderr = child.stderr;
        const decide = () => {
          if (reported) return;
          if (commandStarted) commandExited(code ?? 128 + signalNumber(signal), signal !== null && group.sent?.has(signal) ? signal : null);
          else if (signal !== null && group.sent?.has(signal)) commandExited(128 + signalNumber(signal), signal);
          // Stopped before its start was marked: a stop, not the engine's failure (the exec, signalled
          // while it set the command up, ends 0 or with words of its own about the signal).
          else if (group.killedBy !== undefined) commandExited(128 + signalNumber(group.killedBy), group.killedBy);
          else setupFailed(code); // its own failure: the command never started
        };
        if (!stderr || !streamsOpen.has(stderr)) decide();
        else {
          const timer = setTimeout(decide, OUTPUT_GRACE_MS);
          stderr.once("close", () => {
            clearTimeout(timer);
            queueMicrotask(decide);
          });
        }
        return;
      }
      if (!plan.statusFd) {
        // A signal is named only when we sent it, as in the namespace tier (a command that
        // killed itself, or was killed from outside, exits 128 + n with no signal); the exec
        // reports the command's death by a signal we sent it as 128 + n.
        const exitCode = code ?? 128 + signalNumber(signal);
        commandExited(exitCode, signal !== null && group.sent?.has(signal) ? signal : statusSignal(group, exitCode));
        return;
      }
      // bubblewrap ended; the status line, when written, may still be in its pipe.
      const status = child.stdio[3] as (NodeJS.ReadableStream & { readableEnded?: boolean }) | null;
      const decide = () => {
        if (reported) return;
        const line = /^S\n(\d+)\n/.exec(statusText);
        const killedBy = group.killedBy ?? signal;
        if (line) commandExited(Number(line[1]), statusSignal(group, Number(line[1])));
        else if (killedBy) commandExited(128 + signalNumber(killedBy), killedBy);
        else if (commandStarted && code !== null && code >= 128) commandExited(code, null);
        else if (!commandStarted) setupFailed(code); // bubblewrap could not set the box up: nothing started
        else commandExited(127, null);
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

    if (run.stdin !== undefined && child.stdin) {
      child.stdin.on("error", () => {}); // the command may not read it all
      child.stdin.end(run.stdin);
    }
  });
}

export function signalNumber(signal: NodeJS.Signals | null | undefined): number {
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

/** What a run keeps of its output for its result. */
export interface Captured {
  stdout: string[];
  stderr: string[];
  bytes: { stdout: number; stderr: number };
  truncated: boolean;
}

export interface OutputRecorder {
  captured: Captured;
  output(stream: "stdout" | "stderr", text: string): void;
}

/**
 * A run's output: handed to `record` (its events) up to `recordCap` bytes (a chunk that crosses
 * it is cut there), then one note saying
 * so and nothing more (a command stuck printing must not fill the disk; it goes on running), and
 * kept for its result up to `captureBytes` a stream. An event's `bytes` is the size of its own
 * text (UTF-8): a chunk that ends mid-character gives its bytes to the next one.
 */
export function outputRecorder(recordCap: number, captureBytes: number, record: (stream: "stdout" | "stderr", text: string, bytes: number) => void): OutputRecorder {
  const captured: Captured = { stdout: [], stderr: [], bytes: { stdout: 0, stderr: 0 }, truncated: false };
  let recorded = 0;
  const output = (stream: "stdout" | "stderr", text: string) => {
    if (text.length === 0) return;
    const bytes = Buffer.byteLength(text);
    if (recorded <= recordCap) {
      const room = recordCap - recorded;
      recorded += bytes;
      if (recorded <= recordCap) record(stream, text, bytes);
      else {
        // What fits under the cap is recorded (cut between characters), however the pipe batched it.
        const head = Buffer.from(text).subarray(0, room).toString("utf8").replace(/\uFFFD$/, "");
        if (head.length > 0) record(stream, head, Buffer.byteLength(head));
        const note = `\n[sanoma: this run printed more than ${formatBytes(recordCap)}; the rest of its output is neither recorded nor shown. It goes on running: stop it from the Boxes view or with sanoma/boxes/stop.]\n`;
        record("stderr", note, Buffer.byteLength(note));
      }
    }
    if (captured.bytes[stream] < captureBytes) {
      captured[stream].push(text);
      captured.bytes[stream] += bytes;
    } else captured.truncated = true;
  };
  return { captured, output };
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round(n / (1024 * 1024))} MiB` : n >= 1024 ? `${Math.round(n / 1024)} KiB` : `${n} bytes`;
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
