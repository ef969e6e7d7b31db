/**
 * The language server's logic in-process, with no process, no connection and no disk: a `Session`
 * over a file system held in memory and a client that records what it is told. Most server
 * behaviour can be tested so, fast; a few black-box tests drive the built server over stdio.
 */
import * as path from "node:path";
import { TextDocument } from "vscode-languageserver-textdocument";
import type { Diagnostic } from "vscode-languageserver/node";
import type { DirEntry, FileSystem } from "../../server/src/core/types.ts";
import { Session, type SessionOptions } from "../../server/src/lsp/session.ts";
import type { Client, Progress } from "../../server/src/lsp/client.ts";
import type { StatusResult } from "../../server/src/protocol.ts";
import { toUri } from "../../server/src/lsp/convert.ts";
import { parseFixture } from "./fixture.ts";

/** A file system of texts by absolute path; folders are what the paths imply. Never throws, as the core's door asks. */
export class MemoryFileSystem implements FileSystem {
  readonly files = new Map<string, string>();
  constructor(files: Record<string, string> = {}) { for (const [p, t] of Object.entries(files)) this.files.set(p, t); }
  readFile(p: string) { return this.files.get(p); }
  isFile(p: string) { return this.files.has(p); }
  isDir(p: string) {
    const prefix = p.endsWith(path.sep) ? p : p + path.sep;
    for (const f of this.files.keys()) if (f.startsWith(prefix)) return true;
    return false;
  }
  readDir(p: string): DirEntry[] | undefined {
    if (!this.isDir(p)) return undefined;
    const prefix = p.endsWith(path.sep) ? p : p + path.sep;
    const out = new Map<string, DirEntry["kind"]>();
    for (const f of this.files.keys()) {
      if (!f.startsWith(prefix)) continue;
      const rest = f.slice(prefix.length);
      const cut = rest.indexOf(path.sep);
      out.set(cut < 0 ? rest : rest.slice(0, cut), cut < 0 ? "file" : "dir");
    }
    return [...out].map(([name, kind]) => ({ name, kind }));
  }
  realPath(p: string) { return this.isFile(p) || this.isDir(p) ? p : undefined; }
  mayExist(p: string) { return this.isFile(p) || this.isDir(p); }
}

/** A client that keeps what the server tells it. */
export class RecordingClient implements Client {
  readonly diagnostics = new Map<string, Diagnostic[]>();
  readonly statuses: StatusResult[] = [];
  readonly warnings: string[] = [];
  /** Every publication, in order (the URI and how many diagnostics). */
  readonly publishes: { uri: string; count: number }[] = [];
  constructor(private readonly settings: unknown = {}) {}
  publishDiagnostics(uri: string, diagnostics: Diagnostic[]) { this.publishes.push({ uri, count: diagnostics.length }); if (diagnostics.length) this.diagnostics.set(uri, diagnostics); else this.diagnostics.delete(uri); }
  status(s: StatusResult) { this.statuses.push(s); }
  warn(message: string) { this.warnings.push(message); }
  configuration() { return Promise.resolve(this.settings); }
  progress(): Promise<Progress | undefined> { return Promise.resolve(undefined); }
  /** The codes published for a file. */
  codes(file: string): string[] { return (this.diagnostics.get(toUri(file)) ?? []).map((d) => String(d.code)).sort(); }
}

/** The open documents of an in-process session. */
export class Documents {
  private readonly docs = new Map<string, TextDocument>();
  all() { return [...this.docs.values()]; }
  get(uri: string) { return this.docs.get(uri); }
  /** Opens or changes a file's document; `uri`: the client's own spelling of its path. */
  set(file: string, text: string, uri = toUri(file)) {
    const before = this.docs.get(uri);
    this.docs.set(uri, TextDocument.create(uri, "typescript", (before?.version ?? 0) + 1, text));
    return uri;
  }
  close(file: string) { this.docs.delete(toUri(file)); }
}

/** A session over a fixture company held in memory at `/co`, started, its first checks done (`options` laid over the session's: its failpoints). */
export async function sessionOf(fixture: string, settings: unknown = {}, options: Partial<SessionOptions> = {}): Promise<{ session: Session; client: RecordingClient; documents: Documents; fs: MemoryFileSystem; root: string; log: string[] }> {
  const root = "/co";
  const fx = parseFixture(fixture);
  const fs = new MemoryFileSystem(Object.fromEntries(Object.entries(fx.files).map(([rel, text]) => [path.join(root, rel), text])));
  const client = new RecordingClient(settings);
  const documents = new Documents();
  const log: string[] = [];
  const session = new Session(fs, client, documents, { folders: [root], configuration: true, log: (m) => log.push(m), ...options });
  await session.start();
  await settled(session);
  return { session, client, documents, fs, root, log };
}

/** Waits until the session says it is idle (as a client waits for `sanoma/status`). */
export async function settled(session: Session): Promise<void> {
  await session.idle;
  for (let i = 0; i < 500 && session.status().state !== "idle"; i++) await new Promise((r) => setTimeout(r, 10));
  if (session.status().state !== "idle") throw new Error("the session never became idle");
}
