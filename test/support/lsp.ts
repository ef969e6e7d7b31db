/**
 * Drives the built language server (`dist/server.js`) over stdio, as an editor does: framing,
 * requests with timeouts, answers to the server's own requests (configuration, progress, watcher
 * registration), and the diagnostics it publishes, kept per URI with a history.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export const SERVER = join(import.meta.dirname, "..", "..", "dist", "server.js");

export interface Diag {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity?: number;
  code?: string;
  source?: string;
  message: string;
  codeDescription?: { href: string };
  relatedInformation?: { location: { uri: string; range: Diag["range"] }; message: string }[];
  tags?: number[];
}

export interface ClientOptions {
  /** Whether the client offers dynamic registration of watched files (Neovim 0.7 does not). */
  dynamicWatch?: boolean;
  /** The hover formats the client shows (default markdown, then plain text). */
  hoverFormats?: string[];
  /** Whether the client refuses `client/registerCapability` (answers it with an error) though it offers dynamic registration. */
  refuseRegistration?: boolean;
  /** Whether the client answers `workspace/configuration` (default true); without it, settings are pushed. */
  pullConfiguration?: boolean;
  /** Server requests this client does not answer (a client that hangs on them) until `answerLate` is called. */
  neverAnswer?: string[];
  settings?: unknown;
  folders?: string[];
  initializationOptions?: unknown;
  /** Another server to drive instead of ours (`oxlint --lsp`), and where to start it. */
  command?: string[];
  cwd?: string;
  /** Variables laid over this process's environment for the server's (`SANOMA_FAILPOINTS`). */
  env?: Record<string, string>;
}

export class LspClient {
  readonly proc: ChildProcessWithoutNullStreams;
  private buf = Buffer.alloc(0);
  private id = 0;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  readonly diagnostics = new Map<string, Diag[]>();
  readonly publishes: { uri: string; diagnostics: Diag[]; at: number }[] = [];
  readonly notifications: { method: string; params: unknown }[] = [];
  readonly serverRequests: { method: string; params: unknown }[] = [];
  /** The server's requests held back (`neverAnswer`), with the answers they would have had. */
  private readonly unanswered: { id: unknown; result: unknown }[] = [];

  /** Answers, at last, the requests held back, and answers those from then on. */
  answerLate(): void {
    this.options.neverAnswer = [];
    for (const { id, result } of this.unanswered.splice(0)) this.send({ jsonrpc: "2.0", id, result });
  }
  stderr = "";
  settings: unknown;
  private waiters: (() => void)[] = [];
  private versions = new Map<string, number>();

  constructor(readonly options: ClientOptions = {}) {
    const [cmd, ...args] = options.command ?? [process.execPath, SERVER, "--stdio"];
    this.proc = spawn(cmd, args, { cwd: options.cwd, stdio: ["pipe", "pipe", "pipe"], env: options.env && { ...process.env, ...options.env } });
    this.settings = options.settings;
    this.proc.stdout.on("data", (d: Buffer) => this.onData(d));
    this.proc.stderr.on("data", (d: Buffer) => (this.stderr += d.toString()));
  }

  private onData(d: Buffer) {
    this.buf = Buffer.concat([this.buf, d]);
    for (;;) {
      const head = this.buf.indexOf("\r\n\r\n");
      if (head < 0) return;
      const len = Number(/Content-Length: *(\d+)/i.exec(this.buf.subarray(0, head).toString())![1]);
      if (this.buf.length < head + 4 + len) return;
      const msg = JSON.parse(this.buf.subarray(head + 4, head + 4 + len).toString());
      this.buf = this.buf.subarray(head + 4 + len);
      this.onMessage(msg);
    }
  }

  private onMessage(msg: { id?: number; method?: string; params?: any; result?: unknown; error?: { message: string; code: number } }) {
    if (msg.id !== undefined && msg.method === undefined) {
      const p = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      if (p && msg.error) p.reject(Object.assign(new Error(msg.error.message), { code: msg.error.code }));
      else if (p) p.resolve(msg.result);
      return;
    }
    if (msg.id !== undefined && msg.method) {
      this.serverRequests.push({ method: msg.method, params: msg.params });
      let result: unknown = null;
      // (`settings` may be a function of the scope asked about: per-folder settings.)
      if (msg.method === "workspace/configuration") result = (msg.params.items ?? []).map((item: { scopeUri?: string }) => (typeof this.settings === "function" ? this.settings(item.scopeUri) : this.settings) ?? null);
      if (msg.method === "workspace/workspaceFolders") result = this.folderList();
      if (this.options.neverAnswer?.includes(msg.method)) this.unanswered.push({ id: msg.id, result });
      else if (msg.method === "client/registerCapability" && this.options.refuseRegistration) this.send({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "registration refused" } });
      else this.send({ jsonrpc: "2.0", id: msg.id, result });
      return;
    }
    if (msg.method === "textDocument/publishDiagnostics") {
      this.diagnostics.set(msg.params.uri, msg.params.diagnostics);
      this.publishes.push({ uri: msg.params.uri, diagnostics: msg.params.diagnostics, at: performance.now() });
    }
    this.notifications.push({ method: msg.method!, params: msg.params });
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  private folderList() {
    return (this.options.folders ?? []).map((f, i) => ({ uri: pathToFileURL(f).href, name: `folder${i}` }));
  }

  send(msg: unknown) {
    const body = Buffer.from(JSON.stringify(msg));
    this.proc.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.proc.stdin.write(body);
  }

  /** The id of the last request sent (to cancel it with `$/cancelRequest`). */
  get lastRequestId(): number {
    return this.id;
  }

  request<T = any>(method: string, params: unknown, timeoutMs = 30000): Promise<T> {
    const id = ++this.id;
    this.send({ jsonrpc: "2.0", id, method, params });
    return new Promise<T>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`${method} timed out\n${this.stderr.slice(-2000)}`)), timeoutMs);
      this.pending.set(id, { resolve: (v) => { clearTimeout(t); resolve(v as T); }, reject: (e) => { clearTimeout(t); reject(e); } });
    });
  }

  notify(method: string, params: unknown) {
    this.send({ jsonrpc: "2.0", method, params });
  }

  async initialize(folders: string[] = this.options.folders ?? []): Promise<any> {
    this.options.folders = folders;
    const result = await this.request("initialize", {
      processId: process.pid,
      rootUri: folders[0] ? pathToFileURL(folders[0]).href : null,
      workspaceFolders: this.folderList(),
      initializationOptions: this.options.initializationOptions,
      capabilities: {
        workspace: { configuration: this.options.pullConfiguration ?? true, workspaceFolders: true, didChangeWatchedFiles: { dynamicRegistration: this.options.dynamicWatch ?? true } },
        window: { workDoneProgress: true },
        textDocument: {
          publishDiagnostics: { relatedInformation: true, codeDescriptionSupport: true },
          completion: { completionItem: { snippetSupport: false } },
          hover: { contentFormat: this.options.hoverFormats ?? ["markdown", "plaintext"] },
          rename: { prepareSupport: true },
          codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ["quickfix"] } } },
        },
      },
    }, 60000);
    this.notify("initialized", {});
    return result;
  }

  /** Resolves when `predicate` holds, checked after every message; rejects after `timeoutMs`. */
  waitFor(predicate: () => boolean, what: string, timeoutMs = 20000): Promise<void> {
    if (predicate()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`timed out waiting for ${what}\nstderr: ${this.stderr.slice(-3000)}\ndiagnostics: ${JSON.stringify([...this.diagnostics].map(([u, d]) => [u, d.map((x) => x.code)]))}`)), timeoutMs);
      const check = () => {
        if (this.proc.exitCode !== null) { clearTimeout(t); reject(new Error(`server exited ${this.proc.exitCode}\n${this.stderr.slice(-3000)}`)); return; }
        if (predicate()) { clearTimeout(t); resolve(); } else this.waiters.push(check);
      };
      this.waiters.push(check);
    });
  }

  /** Waits until the server says it is idle (indexing done) and its checks have run (or failed: `failed`). */
  async waitIdle(timeoutMs = 60000): Promise<void> {
    const start = Date.now();
    for (;;) {
      const s = await this.request<{ state: string; lastCheckAt?: number; companies?: number; failed?: unknown[] }>("sanoma/status", null);
      if (s.state === "idle" && (s.lastCheckAt !== undefined || s.companies === 0 || (s.failed?.length ?? 0) > 0)) { await new Promise((r) => setTimeout(r, 50)); return; }
      if (Date.now() - start > timeoutMs) throw new Error("server never became idle");
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** The next diagnostics published for a file after `from` (a count of publishes already seen). */
  async nextDiagnostics(file: string, from: number, timeoutMs = 20000): Promise<Diag[]> {
    const u = pathToFileURL(file).href;
    await this.waitFor(() => this.publishes.slice(from).some((p) => p.uri === u), `diagnostics for ${file}`, timeoutMs);
    return this.publishes.slice(from).find((p) => p.uri === u)!.diagnostics;
  }

  diagnosticsFor(file: string): Diag[] {
    return this.diagnostics.get(pathToFileURL(file).href) ?? [];
  }

  open(file: string, text: string, languageId = "typescript") {
    const uri = pathToFileURL(file).href;
    this.versions.set(uri, 1);
    this.notify("textDocument/didOpen", { textDocument: { uri, languageId, version: 1, text } });
  }

  /** Replaces the whole text of an open document (unsaved). */
  change(file: string, text: string) {
    const uri = pathToFileURL(file).href;
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    this.notify("textDocument/didChange", { textDocument: { uri, version }, contentChanges: [{ text }] });
  }

  close(file: string) {
    this.notify("textDocument/didClose", { textDocument: { uri: pathToFileURL(file).href } });
  }

  watched(changes: { file: string; type: 1 | 2 | 3 }[]) {
    this.notify("workspace/didChangeWatchedFiles", { changes: changes.map((c) => ({ uri: pathToFileURL(c.file).href, type: c.type })) });
  }

  async shutdown(): Promise<void> {
    try {
      await this.request("shutdown", null, 5000);
      this.notify("exit", null);
    } catch { /* already gone */ }
    await new Promise<void>((resolve) => {
      if (this.proc.exitCode !== null) return resolve();
      const t = setTimeout(() => { this.proc.kill("SIGKILL"); resolve(); }, 3000);
      this.proc.on("exit", () => { clearTimeout(t); resolve(); });
    });
  }
}

export function uri(file: string): string {
  return pathToFileURL(file).href;
}
