/**
 * Drives a real tsserver (`typescript/lib/tsserver.js`) over its own protocol, as an editor does:
 * one JSON request a line on stdin, `Content-Length`-framed messages on stdout (responses by
 * `request_seq`, events kept in order). `geterr` waits for its `requestCompleted` event and gives
 * each file's `syntaxDiag`/`semanticDiag`/`suggestionDiag` bodies. And a company project that
 * installs the TypeScript plugin as a user does: from the tarball `npm pack` makes, with the
 * repository's own `typescript` packed and installed beside it (tsserver then finds the plugin in
 * the `node_modules` holding TypeScript, as it does in a user's repository).
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export const REPO = join(import.meta.dirname, "..", "..");
export const PLUGIN_DIR = join(REPO, "ts-plugin");
export const PLUGIN = "@sanoma-ai/typescript-plugin";

export interface Location { line: number; offset: number }
export interface ProtocolDiagnostic {
  start: Location; end: Location; text: string; code: number; category: string; source?: string;
  relatedInformation?: { span?: { file: string; start: Location; end: Location }; message: string }[];
  reportsUnnecessary?: boolean;
}
export interface DiagnosticWithLinePosition { start: number; length: number; startLocation: Location; endLocation: Location; message: string; code: number; category: string; source?: string }
export interface FileDiagnostics { syntax: ProtocolDiagnostic[]; semantic: ProtocolDiagnostic[]; suggestion: ProtocolDiagnostic[] }

export interface TsServerOptions {
  /** The project folder: tsserver runs there, from its `node_modules/typescript`. */
  cwd: string;
  /** `--serverMode partialSemantic` and the like. */
  args?: string[];
  env?: NodeJS.ProcessEnv;
  /** A verbose log of tsserver's (where the plugin logs too). */
  logFile?: string;
  tsserver?: string;
}

export class TsServer {
  readonly proc: ChildProcessWithoutNullStreams;
  private buf = Buffer.alloc(0);
  private seq = 0;
  private readonly pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  readonly events: { event: string; body: any; at: number }[] = [];
  private waiters: (() => void)[] = [];
  stderr = "";
  readonly logFile: string | undefined;

  constructor(readonly options: TsServerOptions) {
    const tsserver = options.tsserver ?? join(options.cwd, "node_modules", "typescript", "lib", "tsserver.js");
    this.logFile = options.logFile;
    const args = [tsserver, "--disableAutomaticTypingAcquisition", ...(options.logFile ? ["--logVerbosity", "verbose", "--logFile", options.logFile] : []), ...(options.args ?? [])];
    this.proc = spawn(process.execPath, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ["pipe", "pipe", "pipe"] });
    this.proc.stdout.on("data", (d: Buffer) => this.onData(d));
    this.proc.stderr.on("data", (d: Buffer) => (this.stderr += d.toString()));
    this.proc.on("exit", () => { for (const p of this.pending.values()) p.reject(new Error(`tsserver exited: ${this.stderr.slice(-2000)}`)); this.pending.clear(); });
  }

  private onData(d: Buffer): void {
    this.buf = Buffer.concat([this.buf, d]);
    for (;;) {
      const head = this.buf.indexOf("\r\n\r\n");
      if (head < 0) return;
      const len = Number(/Content-Length: *(\d+)/i.exec(this.buf.subarray(0, head).toString())![1]);
      if (this.buf.length < head + 4 + len) return;
      const msg = JSON.parse(this.buf.subarray(head + 4, head + 4 + len).toString());
      this.buf = this.buf.subarray(head + 4 + len);
      if (msg.type === "response") {
        const p = this.pending.get(msg.request_seq);
        this.pending.delete(msg.request_seq);
        if (p && msg.success) p.resolve(msg.body);
        else if (p) p.reject(new Error(`${msg.command}: ${String(msg.message).split("\n").slice(0, 2).join(" ")}`));
      } else if (msg.type === "event") {
        this.events.push({ event: msg.event, body: msg.body, at: performance.now() });
        const w = this.waiters;
        this.waiters = [];
        for (const f of w) f();
      }
    }
  }

  /** Sends a command that tsserver answers with no response (`open`, `change`, `close`, `geterr`, `configurePlugin`...): its seq. */
  send(command: string, args?: unknown): number {
    const seq = ++this.seq;
    this.proc.stdin.write(JSON.stringify({ seq, type: "request", command, arguments: args }) + "\n");
    return seq;
  }

  request<T = any>(command: string, args?: unknown, timeoutMs = 120_000): Promise<T> {
    const seq = ++this.seq;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => { this.pending.delete(seq); reject(new Error(`${command} timed out after ${timeoutMs} ms`)); }, timeoutMs);
      this.pending.set(seq, { resolve: (v) => { clearTimeout(timer); resolve(v); }, reject: (e) => { clearTimeout(timer); reject(e); } });
      this.proc.stdin.write(JSON.stringify({ seq, type: "request", command, arguments: args }) + "\n");
    });
  }

  /** Resolves once an event satisfies `test` (looking at events from `from` on). */
  async waitEvent(test: (e: { event: string; body: any }) => boolean, from = 0, timeoutMs = 120_000): Promise<{ event: string; body: any; at: number }> {
    const deadline = Date.now() + timeoutMs;
    let i = from;
    for (;;) {
      for (; i < this.events.length; i++) if (test(this.events[i])) return this.events[i];
      if (Date.now() > deadline) throw new Error(`no such event in ${timeoutMs} ms; events: ${this.events.slice(from).map((e) => e.event).join(", ")}\n${this.stderr.slice(-2000)}`);
      await new Promise<void>((r) => { const t = setTimeout(r, 200); this.waiters.push(() => { clearTimeout(t); r(); }); });
    }
  }

  open(file: string, fileContent?: string): void {
    this.send("open", { file, ...(fileContent !== undefined ? { fileContent } : {}) });
  }

  /** An edit as an editor sends it: the text between two 1-based locations replaced. */
  change(file: string, start: Location, end: Location, insertString: string): void {
    this.send("change", { file, line: start.line, offset: start.offset, endLine: end.line, endOffset: end.offset, insertString });
  }

  /**
   * `geterr` for the files, and each file's diagnostics once tsserver says it is done; `ms` is the
   * time to `requestCompleted`. tsserver drops a `geterr` under way when the projects are updated
   * in the background (a change on disk it saw, or the plugin's `refreshDiagnostics`): its
   * `requestCompleted` comes without the diagnostics, and an editor asks again, as this does.
   */
  async geterr(files: string[]): Promise<{ byFile: Map<string, FileDiagnostics>; ms: number }> {
    const t0 = performance.now();
    for (let attempt = 1; ; attempt++) {
      const from = this.events.length;
      const seq = this.send("geterr", { files, delay: 0 });
      const done = await this.waitEvent((e) => e.event === "requestCompleted" && e.body.request_seq === seq, from);
      const byFile = new Map<string, FileDiagnostics>();
      const semantic = new Set<string>();
      for (const e of this.events.slice(from)) {
        if (e.event !== "syntaxDiag" && e.event !== "semanticDiag" && e.event !== "suggestionDiag") continue;
        const entry = byFile.get(e.body.file) ?? { syntax: [], semantic: [], suggestion: [] };
        entry[e.event === "syntaxDiag" ? "syntax" : e.event === "semanticDiag" ? "semantic" : "suggestion"] = e.body.diagnostics;
        byFile.set(e.body.file, entry);
        if (e.event === "semanticDiag") semantic.add(e.body.file);
      }
      if (attempt === 5 || files.every((f) => semantic.has(f))) return { byFile, ms: done.at - t0 };
    }
  }

  /** The semantic diagnostics of one file, with offsets (`includeLinePosition`). */
  semantic(file: string): Promise<DiagnosticWithLinePosition[]> {
    return this.request("semanticDiagnosticsSync", { file, includeLinePosition: true });
  }

  /** tsserver's log so far (the plugin's lines start with `[sanoma]`). */
  log(): string {
    return this.logFile && existsSync(this.logFile) ? readFileSync(this.logFile, "utf8") : "";
  }

  async close(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    const exited = new Promise((r) => this.proc.once("exit", r));
    this.send("exit");
    const timer = setTimeout(() => this.proc.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  }
}

/** 1-based line and offset of `needle` (plus `delta` characters) in a text. */
export function locationOf(text: string, needle: string, delta = 0): Location {
  const i = text.indexOf(needle);
  if (i < 0) throw new Error(`${needle} not found`);
  const before = text.slice(0, i + delta).split("\n");
  return { line: before.length, offset: before[before.length - 1].length + 1 };
}

/**
 * A folder where the plugin is installed as a user installs it: `npm install` of the tarball `npm
 * pack` makes of `ts-plugin/` (built first), beside the repository's `typescript`, packed and
 * installed the same way (no network: `--offline`). Companies go in sub-folders of it. Built once
 * per process; removed when the process ends.
 */
let installed: string | undefined;
export function installProject(): string {
  if (installed) return installed;
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-tsplugin-")));
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  const packs = join(dir, ".packs");
  mkdirSync(packs);
  const pack = (folder: string): string => {
    const out = JSON.parse(execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", packs, folder], { cwd: REPO, encoding: "utf8" }));
    return join(packs, out[0].filename);
  };
  const ts = pack(join(REPO, "node_modules", "typescript"));
  const plugin = pack(PLUGIN_DIR);
  const npm = (args: string[]) => execFileSync("npm", [...args, "--offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, encoding: "utf8", env: { ...process.env, npm_config_update_notifier: "false" } });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "company-repo", private: true }));
  npm(["install", "--save-dev", ts]);
  // The README's install line, with the tarball standing in for the registry.
  npm(["install", "--save-dev", plugin]);
  installed = dir;
  return dir;
}

/** Copies a folder of companies into the installed project, under `name`. */
export function copyInto(project: string, from: string, name: string): string {
  const to = join(project, name);
  rmSync(to, { recursive: true, force: true });
  mkdirSync(dirname(to), { recursive: true });
  cpSync(from, to, { recursive: true });
  return to;
}

/** A tsconfig that takes in every code file of a folder, with the plugin. */
export function writeTsconfig(dir: string, plugin: Record<string, unknown> | false = {}, extra: Record<string, unknown> = {}): void {
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({
    compilerOptions: {
      target: "ES2022", module: "nodenext", moduleResolution: "nodenext", allowJs: true, jsx: "preserve", noEmit: true,
      allowImportingTsExtensions: true, strict: true, skipLibCheck: true, types: [],
      ...(plugin === false ? {} : { plugins: [{ name: PLUGIN, ...plugin }] }),
      ...extra,
    },
    // (Files whose name starts with a dot are taken in by a pattern that says so.)
    include: ["**/*", "**/.*"],
  }, null, 2));
}
