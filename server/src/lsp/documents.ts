/**
 * The documents the editor has open, and how paths are spelled. A company is known by one path; a
 * file reached through a link to its folder (or by its real path, where the company was found
 * through a link) is spelled under that path (`canonical`): one company, one set of problems. What
 * goes back to the client goes to its own spelling of an open file's URI (`uriOf`).
 */
import * as path from "node:path";
import type { TextDocument } from "vscode-languageserver-textdocument";
import type { Workspace } from "../core/workspace.ts";
import { toPath, toUri } from "./convert.ts";

/** What holds the open documents (vscode-languageserver's `TextDocuments`, or a test's list). */
export interface DocumentSource {
  all(): readonly TextDocument[];
  get(uri: string): TextDocument | undefined;
}

export class OpenDocuments {
  private byPathMemo: { docs: readonly TextDocument[]; companies: string; byPath: Map<string, TextDocument> } | undefined;
  private readonly realRoots = new Map<string, string>();

  constructor(readonly source: DocumentSource, private readonly ws: Workspace) {}

  get(uri: string): TextDocument | undefined {
    return this.source.get(uri);
  }

  all(): readonly TextDocument[] {
    return this.source.all();
  }

  /** The open documents by file path (as the companies spell it), rebuilt only when the open documents or the companies changed. */
  byPath(): Map<string, TextDocument> {
    const docs = this.source.all();
    const companies = [...this.ws.companies.keys()].join("\0");
    const known = this.byPathMemo;
    if (known && known.companies === companies && known.docs.length === docs.length && known.docs.every((d, i) => d === docs[i])) return known.byPath;
    const byPath = new Map<string, TextDocument>();
    for (const d of docs) { const p = this.filePath(d.uri); if (p) byPath.set(p, d); }
    this.byPathMemo = { docs, companies, byPath };
    return byPath;
  }

  /** Whether a file is open in the editor (its text wins over the disk's). */
  isOpen(file: string): boolean {
    return this.byPath().has(file);
  }

  /**
   * The URI to tell the client for a file (diagnostics, edits, locations): its own spelling when the
   * file is open (`%5b` for `[`, an encoded `@`, the path through a link), else ours.
   */
  uriOf(file: string): string {
    return this.byPath().get(file)?.uri ?? toUri(file);
  }

  /** The editor's text of a file when it is open. */
  openText(file: string): string | undefined {
    return this.byPath().get(file)?.getText();
  }

  private byRealMemo: { byPath: Map<string, TextDocument>; byReal: Map<string, TextDocument> } | undefined;

  /**
   * The editor's text of a file read through a link (a monorepo's workspace package, read by a
   * company's connector resolver by its path in `node_modules`) that the editor has open by another
   * path: its real one (as an editor opens it), or through another company's link. Matched by real
   * path; the open documents' real paths are asked of the disk when they or the companies change.
   */
  openTextByRealPath(file: string): string | undefined {
    const byPath = this.byPath();
    if (byPath.size === 0) return undefined;
    let memo = this.byRealMemo;
    if (memo?.byPath !== byPath) {
      const byReal = new Map<string, TextDocument>();
      for (const [p, d] of byPath) byReal.set(this.ws.fs.realPath(p) ?? p, d);
      memo = this.byRealMemo = { byPath, byReal };
    }
    const real = this.ws.fs.realPath(file);
    return real === undefined ? undefined : memo.byReal.get(real)?.getText();
  }

  /** A company root's real path (links resolved), asked of the disk once per root. */
  realOf(root: string): string {
    let real = this.realRoots.get(root);
    if (real === undefined) this.realRoots.set(root, (real = this.ws.fs.realPath(root) ?? root));
    return real;
  }

  /** A file as the companies spell it (see the header). */
  canonical(file: string): string {
    if (this.ws.companies.size === 0) return file;
    const root = this.ws.rootOf(file);
    if (root === undefined || this.ws.companies.has(root)) return file;
    const real = this.realOf(root);
    for (const known of this.ws.companies.keys()) if (this.realOf(known) === real) return path.join(known, path.relative(root, file));
    return file;
  }

  /** A `file:` URI's path, as the companies spell it (`canonical`). */
  filePath(uri: string): string | undefined {
    const file = toPath(uri);
    return file === undefined ? undefined : this.canonical(file);
  }

  /** The roots of the companies of the open documents. */
  roots(): Set<string> {
    const open = new Set<string>();
    for (const doc of this.source.all()) {
      const file = this.filePath(doc.uri);
      const root = file && this.ws.rootOf(file);
      if (root) open.add(root);
    }
    return open;
  }
}
