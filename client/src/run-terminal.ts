/**
 * The terminal of one box run (client/src/boxes.ts opens it): the run's output as it comes, its
 * exit or the root cause of a box that could not be made ready, Ctrl+C to stop it.
 */
import * as vscode from "vscode";
import type { BoxEvent } from "../../server/src/protocol.ts";
import { errorText } from "./server.ts";

/** What a terminal asks of the Boxes view: a run's recent and live events, and stopping it. */
export interface RunEvents {
  onLiveEvent(listener: (e: BoxEvent) => void): vscode.Disposable;
  /** Fires when the language server that ran the boxes stops without a word (it crashed, or was killed): its runs ended with it. */
  onServerGone(listener: () => void): vscode.Disposable;
  recentEvents(box: string, runId: string): BoxEvent[];
  /** `why`: what asked (for the output's log). */
  stopRun(box: string, runId: string, why: string): Promise<void>;
}

/**
 * A terminal showing one run: output as it comes (the box's bytes, colours kept), the exit code at
 * the end; Ctrl+C stops the run. Events are shown once each, in seq order.
 *
 * The terminal a preview opened owns its run (`ownsRun`): closing it stops the run, as closing a
 * task's terminal ends the task (a run left going with no terminal showing it was an orphan only
 * the Boxes view's Stop could end). A terminal that only shows a run (Show Run Output) leaves it.
 * A server that stops without a word (a crash) ends its runs with it (its watchdog ends their
 * processes, server/src/boxes/reaper.ts): the terminal says so, and Ctrl+C then says there is no
 * run left to stop.
 */
export class RunTerminal {
  private readonly write = new vscode.EventEmitter<string>();
  private readonly terminal: vscode.Terminal;
  private subscription: vscode.Disposable | undefined;
  private readonly serverWatch: vscode.Disposable;
  private run: { box: string; runId: string } | undefined;
  /** The run has ended (its exit shown, or its server gone): nothing left to stop. */
  private ended = false;
  /** The user closed the terminal. */
  private closed = false;
  private lastSeq = -1;
  private opened = false;
  private pending: string[] = [];

  constructor(private readonly boxes: RunEvents, name: string, private readonly ownsRun = false) {
    const pty: vscode.Pseudoterminal = {
      onDidWrite: this.write.event,
      open: () => {
        this.opened = true;
        for (const text of this.pending) this.write.fire(text);
        this.pending = [];
      },
      close: () => {
        this.closed = true;
        this.stopFollowing();
        if (this.ownsRun && this.run && !this.ended) this.stop("its terminal was closed");
      },
      handleInput: (data) => {
        if (data !== "\x03" || !this.run) return;
        this.line("^C");
        if (this.ended) this.line("\x1b[2m[no run to stop: it has ended]\x1b[0m");
        else this.stop("Ctrl+C in its terminal", (e) => this.line(`\x1b[31m${errorText(e)}\x1b[0m`));
      },
    };
    this.terminal = vscode.window.createTerminal({ name, pty, iconPath: new vscode.ThemeIcon("package") });
    this.serverWatch = boxes.onServerGone(() => {
      if (!this.run || this.ended) return;
      this.line("\r\n\x1b[31m[the language server stopped unexpectedly, and this run ended with it]\x1b[0m");
      this.end();
    });
  }

  /** Asks the server to stop the run; `failed` hears why it could not. */
  private stop(why: string, failed: (e: unknown) => void = () => undefined): void {
    const run = this.run;
    if (run) void this.boxes.stopRun(run.box, run.runId, why).catch(failed);
  }

  private end(): void {
    this.ended = true;
    this.subscription?.dispose();
  }

  private stopFollowing(): void {
    this.subscription?.dispose();
    this.serverWatch.dispose();
  }

  show(): void {
    this.terminal.show(true);
  }

  line(text: string): void {
    this.out(`${text}\r\n`);
  }

  /** Follows the run: the events given, the recent ones, then live ones. */
  attach(box: string, runId: string, past: BoxEvent[] = []): void {
    this.run = { box, runId };
    // Closed while the run was being started (its box synced): a run of its own terminal's is stopped at once.
    if (this.closed) {
      if (this.ownsRun) this.stop("its terminal was closed while it started");
      return;
    }
    this.subscription = this.boxes.onLiveEvent((e) => e.box === box && e.runId === runId && this.show1(e));
    for (const e of [...past, ...this.boxes.recentEvents(box, runId)].sort((a, b) => a.seq - b.seq)) this.show1(e);
  }

  private show1(e: BoxEvent): void {
    if (e.seq <= this.lastSeq) return;
    this.lastSeq = e.seq;
    switch (e.kind) {
      case "output":
        // A terminal needs \r\n; the box's programs write \n.
        this.out(e.text.replace(/\r?\n/g, "\r\n"));
        break;
      case "port":
        this.line(`\x1b[36m[listening on ${e.url}]\x1b[0m`);
        break;
      case "exit": {
        if (e.error) {
          // The box could not be made ready: the root cause, not an exit code of a command that never ran.
          this.line(`\r\n\x1b[31m[the box could not be made ready, so the command never ran: ${e.error}]\x1b[0m`);
          this.end();
          break;
        }
        const how = e.signal ? `stopped by ${e.signal}` : `exited with code ${e.exitCode}`;
        this.line(`\r\n\x1b[${e.exitCode === 0 ? "32" : "33"}m[${how} after ${seconds(e.durationMs)}]\x1b[0m`);
        if (e.message) this.line(`\x1b[31m${e.message}\x1b[0m`);
        this.end();
        break;
      }
      case "start":
        break;
    }
  }

  private out(text: string): void {
    if (this.opened) this.write.fire(text);
    else this.pending.push(text);
  }
}

/** A duration in words: milliseconds under a second, else seconds. */
export function seconds(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
