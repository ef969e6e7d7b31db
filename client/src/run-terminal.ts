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
  recentEvents(box: string, runId: string): BoxEvent[];
  stopRun(box: string, runId: string): Promise<void>;
}

/**
 * A terminal showing one run: output as it comes (the box's bytes, colours kept), the exit code at
 * the end; Ctrl+C stops the run. Events are shown once each, in seq order.
 */
export class RunTerminal {
  private readonly write = new vscode.EventEmitter<string>();
  private readonly terminal: vscode.Terminal;
  private subscription: vscode.Disposable | undefined;
  private run: { box: string; runId: string } | undefined;
  private lastSeq = -1;
  private opened = false;
  private pending: string[] = [];

  constructor(private readonly boxes: RunEvents, name: string) {
    const pty: vscode.Pseudoterminal = {
      onDidWrite: this.write.event,
      open: () => {
        this.opened = true;
        for (const text of this.pending) this.write.fire(text);
        this.pending = [];
      },
      close: () => this.subscription?.dispose(),
      handleInput: (data) => {
        if (data === "\x03" && this.run) {
          this.line("^C");
          void this.boxes.stopRun(this.run.box, this.run.runId).catch((e) => this.line(`\x1b[31m${errorText(e)}\x1b[0m`));
        }
      },
    };
    this.terminal = vscode.window.createTerminal({ name, pty, iconPath: new vscode.ThemeIcon("package") });
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
          this.subscription?.dispose();
          break;
        }
        const how = e.signal ? `stopped by ${e.signal}` : `exited with code ${e.exitCode}`;
        this.line(`\r\n\x1b[${e.exitCode === 0 ? "32" : "33"}m[${how} after ${seconds(e.durationMs)}]\x1b[0m`);
        if (e.message) this.line(`\x1b[31m${e.message}\x1b[0m`);
        this.subscription?.dispose();
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
