/**
 * The language server's life in the editor: starts the bundled `dist/server.js` over node IPC
 * (through `dist/code-cache.js`), restarts it when it dies (at most `maxRestarts` times in
 * `restartWindowMs`, then says so and stops trying), and reports its state to whoever listens
 * (the status bar).
 */
import * as fs from "node:fs";
import * as vscode from "vscode";
import {
  CloseAction,
  ErrorAction,
  ExecuteCommandRequest,
  LanguageClient,
  RevealOutputChannelOn,
  State,
  type ExecuteCommandOptions,
  type LanguageClientOptions,
  type RegistrationData,
  type ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";
import { SERVER_NODE_ARGS } from "../../server/src/protocol.ts";


/** The state the user sees; `failed` holds why. */
export type ServerState =
  | { kind: "starting" }
  | { kind: "running" }
  | { kind: "restarting"; reason: string }
  | { kind: "failed"; reason: string };

const maxRestarts = 4;
const restartWindowMs = 3 * 60_000;

export interface ServerHostOptions {
  context: vscode.ExtensionContext;
  output: vscode.LogOutputChannel;
  /** VS Code command ids the extension implements itself: never registered again for the server. */
  ownCommands: ReadonlySet<string>;
}

export class ServerHost implements vscode.Disposable {
  private current: LanguageClient | undefined;
  private crashes: number[] = [];
  /** Clients being stopped, or stopped, by us: their close is no crash to restart from. */
  private readonly stopped = new WeakSet<LanguageClient>();
  /** Start, stop and restart run one at a time (`serially`). */
  private lifecycle: Promise<void> = Promise.resolve();
  private readonly stateEmitter = new vscode.EventEmitter<ServerState>();
  private readonly readyEmitter = new vscode.EventEmitter<LanguageClient>();
  /** Fires on every state change. */
  readonly onDidChangeState = this.stateEmitter.event;
  /** Fires each time a (re)started server has answered `initialize`. */
  readonly onDidStart = this.readyEmitter.event;
  private readonly notificationHandlers: [string, (params: unknown) => void][] = [];
  state: ServerState = { kind: "starting" };

  constructor(private readonly options: ServerHostOptions) {}

  /** The running client, or undefined while there is none. */
  get client(): LanguageClient | undefined {
    return this.current?.state === State.Running ? this.current : undefined;
  }

  /** Handles a server notification, on this server and on every one started after it. */
  onNotification(method: string, handler: (params: unknown) => void): void {
    this.notificationHandlers.push([method, handler]);
    this.current?.onNotification(method, handler);
  }

  /**
   * Runs start, stop and restart one after another: two restarts a second apart (or one while the
   * server was starting) overlapped, and left two servers running, every problem shown twice.
   */
  private serially(step: () => Promise<void>): Promise<void> {
    const next = this.lifecycle.then(step, step);
    this.lifecycle = next.catch(() => undefined);
    return next;
  }

  start(): Promise<void> {
    return this.serially(() => this.startNow());
  }

  private async startNow(): Promise<void> {
    const { context, output } = this.options;
    const bundle = context.asAbsolutePath("dist/server.js");
    // Started through the loader beside it, from V8's code cache (`initialize` answered a quarter
    // of a second sooner: docs/bench.md); the bundle itself when the loader is missing.
    const loader = context.asAbsolutePath("dist/code-cache.js");
    if (!fs.existsSync(bundle)) {
      this.setState({ kind: "failed", reason: `The language server is missing from the extension (${bundle}). Reinstall the extension.` });
      return;
    }
    const [module, args] = fs.existsSync(loader) ? [loader, [bundle]] : [bundle, []];
    const serverOptions: ServerOptions = {
      run: { module, args, transport: TransportKind.ipc, options: { execArgv: SERVER_NODE_ARGS } },
      debug: { module: bundle, transport: TransportKind.ipc, options: { execArgv: [...SERVER_NODE_ARGS, "--nolazy", "--inspect=6019"] } },
    };
    const storage = context.storageUri ?? context.globalStorageUri;
    const clientOptions: LanguageClientOptions = {
      documentSelector: [
        { scheme: "file", language: "typescript" },
        { scheme: "file", language: "typescriptreact" },
        { scheme: "file", language: "javascript" },
        { scheme: "file", language: "json", pattern: "**/sanoma.lock.json" },
        { scheme: "file", language: "json", pattern: "**/.sanomarc.json" },
      ],
      // Boxes live in the workspace's storage, outside the company: a preview never copies itself.
      initializationOptions: { boxesDir: vscode.Uri.joinPath(storage, "boxes").fsPath },
      // The server pulls settings per document; this only tells it they changed. It registers its
      // own file watchers (didChangeWatchedFiles), so the client adds none: each change once.
      synchronize: { configurationSection: "sanoma" },
      outputChannel: output,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      errorHandler: {
        error: (error, _message, count) => {
          // A write to a server that just died (EPIPE) comes before the connection's close, and the
          // close is what counts the crash and restarts the server (`onClosed`): shutting down here
          // would stop the client for good, uncounted and unsaid (seen when a server was killed
          // while the client wrote to it).
          if (isDeadConnection(error) || (count ?? 0) <= 3) return { action: ErrorAction.Continue, handled: true };
          this.giveUp(`The language server's connection kept failing (${errorText(error)})`);
          return { action: ErrorAction.Shutdown, handled: true };
        },
        closed: () => this.onClosed(client),
      },
      initializationFailedHandler: (error) => {
        // A server that died during initialize: its close is counted, and restarted or given up,
        // by `onClosed`, whose words stay (not "pending response rejected").
        if (!isDeadConnection(error) && this.state.kind !== "restarting" && this.state.kind !== "failed") {
          this.setState({ kind: "failed", reason: `The language server failed to start: ${String(error instanceof Error ? error.message : error)}` });
        }
        return false;
      },
    };
    const client: LanguageClient = new LanguageClient("sanoma", "Sanoma Language Server", serverOptions, clientOptions);
    this.keepOwnCommands(client);
    // Kept by the client across its own restarts after a crash.
    for (const [method, handler] of this.notificationHandlers) client.onNotification(method, handler);
    client.onDidChangeState((e) => {
      if (e.newState === State.Running) {
        this.setState({ kind: "running" });
        this.readyEmitter.fire(client);
      }
    });
    this.current = client;
    this.setState({ kind: "starting" });
    try {
      await client.start();
    } catch (error) {
      // (A server that died while starting is `onClosed`'s to count, restart or give up on.)
      if (this.state.kind !== "failed" && this.state.kind !== "restarting" && !isDeadConnection(error)) this.setState({ kind: "failed", reason: `The language server failed to start: ${errorText(error)}` });
      output.error(`start failed: ${errorText(error)}`);
    }
  }

  /** Stops the server and starts a fresh one; also clears the crash count. */
  restart(): Promise<void> {
    return this.serially(async () => {
      this.crashes = [];
      await this.stopNow();
      await this.startNow();
    });
  }

  stop(): Promise<void> {
    return this.serially(() => this.stopNow());
  }

  private async stopNow(): Promise<void> {
    const client = this.current;
    this.current = undefined;
    if (!client) return;
    this.stopped.add(client);
    try {
      // One still starting (after a crash, the library brings it back) cannot be stopped: the
      // library throws, and it went on to run beside the next. It finishes starting first.
      if (client.state === State.Starting) await client.start().catch(() => undefined);
      if (client.needsStop()) await client.stop(5_000);
    } catch (error) {
      this.options.output.warn(`stop: ${errorText(error)}`);
    }
  }

  /** Sends `workspace/executeCommand`: the server's own commands, run whatever VS Code commands exist. */
  async executeServerCommand(command: string, args: unknown[] = []): Promise<unknown> {
    const client = this.requireClient();
    return client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args });
  }

  /** The running client, or an error the user can act on. */
  requireClient(): LanguageClient {
    const client = this.client;
    if (!client) throw new Error(this.state.kind === "failed" ? this.state.reason : "The Sanoma language server is not running yet");
    return client;
  }

  dispose(): void {
    void this.stop();
    this.stateEmitter.dispose();
    this.readyEmitter.dispose();
  }

  private onClosed(client: LanguageClient) {
    // Ours to stop, or no longer the current one: not restarted.
    if (this.stopped.has(client) || client !== this.current) return { action: CloseAction.DoNotRestart, handled: true };
    const now = Date.now();
    this.crashes = [...this.crashes.filter((t) => now - t < restartWindowMs), now];
    const { output } = this.options;
    if (this.crashes.length <= maxRestarts) {
      const reason = `The language server stopped unexpectedly; restarting (${this.crashes.length} of ${maxRestarts} in 3 minutes)`;
      output.warn(reason);
      this.setState({ kind: "restarting", reason });
      return { action: CloseAction.Restart, handled: true };
    }
    this.giveUp(`The language server stopped ${this.crashes.length} times in 3 minutes and will not be restarted`);
    return { action: CloseAction.DoNotRestart, handled: true };
  }

  /** The server is not coming back by itself: says so, with a Restart button. */
  private giveUp(reason: string): void {
    const { output } = this.options;
    output.error(reason);
    this.setState({ kind: "failed", reason });
    void vscode.window.showErrorMessage(`Sanoma: ${reason}.`, "Show Output", "Restart").then((choice) => {
      if (choice === "Show Output") output.show();
      if (choice === "Restart") void this.restart();
    });
  }

  /**
   * The client registers a VS Code command for each command the server announces; a command the
   * extension already implements (`sanoma.checkWorkspace`, `sanoma.preview`) would collide and
   * fail the start, so those are left to the extension, which forwards them itself.
   */
  private keepOwnCommands(client: LanguageClient): void {
    const feature = client.getFeature(ExecuteCommandRequest.method);
    const register = feature.register.bind(feature);
    const own = this.options.ownCommands;
    feature.register = (data: RegistrationData<ExecuteCommandOptions>) =>
      register({ ...data, registerOptions: { ...data.registerOptions, commands: data.registerOptions.commands.filter((c) => !own.has(c)) } });
  }

  private setState(state: ServerState): void {
    this.state = state;
    this.stateEmitter.fire(state);
  }
}

/** An error from writing to, or reading from, a server process that is gone. */
function isDeadConnection(error: unknown): boolean {
  const e = error as (Error & { code?: string }) | undefined;
  return /\b(EPIPE|ECONNRESET|ERR_IPC_CHANNEL_CLOSED)\b|channel closed|connection got disposed/i.test(`${e?.code ?? ""} ${e?.message ?? String(error)}`);
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
