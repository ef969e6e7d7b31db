/**
 * Diagnostics as the client has them: published only when a file's list changed, to the URI the
 * client has for the file now (and taken away from a URI it had before), each file's current
 * problems kept for code actions, and a file's notes (a company's check failed, on its config;
 * why nothing of a file is judged) shown first whatever a check publishes for it.
 */
import * as path from "node:path";
import type { Diagnostic } from "vscode-languageserver/node";
import type { Problem } from "../core/types.ts";
import type { Client } from "./client.ts";
import { toDiagnostics } from "./convert.ts";
import type { OpenDocuments } from "./documents.ts";

/**
 * What a note says, in the order a file's notes are shown: a company's check (or indexing) that
 * failed, on its config (`failures.ts`); a file of a company, or a folder, left out (`session.ts`).
 */
export const NOTE_KINDS = ["failed", "left-out"] as const;
export type NoteKind = (typeof NOTE_KINDS)[number];

export class Publisher {
  /** file → its current problems, for code actions. */
  readonly problemsByFile = new Map<string, Problem[]>();
  /** uri → the diagnostics last published there, serialized (to publish only what changed), and the file they are of. */
  private readonly published = new Map<string, { key: string; file: string }>();
  /** file → the URI its diagnostics were last published to, while they are not empty. */
  private readonly publishedTo = new Map<string, string>();

  /** file → its notes by kind, published before its problems, in `NOTE_KINDS`' order. */
  private readonly notes = new Map<string, Map<NoteKind, Diagnostic>>();

  constructor(private readonly client: Client, private readonly docs: OpenDocuments, private readonly docsUrl: (rule: string) => string) {}

  /** A file as the client spells it (related locations included). */
  private readonly uriOf = (file: string): string => this.docs.uriOf(file);

  /** A file's problems as a check found them (none: undefined): kept, and published. */
  problems(file: string, problems: readonly Problem[] | undefined): void {
    if (problems) this.problemsByFile.set(file, problems as Problem[]); else this.problemsByFile.delete(file);
    this.file(file, toDiagnostics(problems ?? [], this.docsUrl, this.uriOf));
  }

  /** A file's diagnostics (after its notes, if it has any), to the URI the client has for it now (and none left where it had another). */
  file(file: string, diagnostics: Diagnostic[]): void {
    const uri = this.docs.uriOf(file);
    const before = this.publishedTo.get(file);
    if (before !== undefined && before !== uri) this.publish(before, file, []);
    const notes = this.notes.get(file);
    this.publish(uri, file, notes ? [...NOTE_KINDS.flatMap((k) => notes.get(k) ?? []), ...diagnostics] : diagnostics);
  }

  /** Sets (or, undefined, takes away) a file's note of a kind, and publishes the file again if it changed. */
  note(file: string, kind: NoteKind, note: Diagnostic | undefined): void {
    const notes = this.notes.get(file);
    const before = notes?.get(kind);
    if (note === undefined ? before === undefined : before !== undefined && JSON.stringify(before) === JSON.stringify(note)) return;
    if (note) { if (notes) notes.set(kind, note); else this.notes.set(file, new Map([[kind, note]])); }
    else { notes!.delete(kind); if (notes!.size === 0) this.notes.delete(file); }
    this.file(file, toDiagnostics(this.problemsByFile.get(file) ?? [], this.docsUrl, this.uriOf));
  }

  /** The files that have a note of a kind. */
  noted(kind: NoteKind): string[] {
    return [...this.notes].filter(([, notes]) => notes.has(kind)).map(([file]) => file);
  }

  /** A file was opened or closed under another spelling than its problems were published to: they move. */
  respell(file: string): void {
    const before = this.publishedTo.get(file);
    if (before !== undefined && before !== this.docs.uriOf(file)) this.file(file, toDiagnostics(this.problemsByFile.get(file) ?? [], this.docsUrl, this.uriOf));
  }

  /** Takes away the diagnostics of every file `gone` says, and forgets their problems and notes. */
  clear(gone: (file: string) => boolean): void {
    for (const file of this.notes.keys()) if (gone(file)) this.notes.delete(file);
    for (const [uri, { file }] of this.published) if (gone(file)) this.publish(uri, file, []);
    for (const file of this.problemsByFile.keys()) if (gone(file)) this.problemsByFile.delete(file);
  }

  /** The files under a folder that have diagnostics published. */
  filesUnder(dir: string): string[] {
    const prefix = dir + path.sep;
    return [...this.published.values()].map((p) => p.file).filter((f) => f.startsWith(prefix));
  }

  private publish(uri: string, file: string, diagnostics: Diagnostic[]): void {
    const key = JSON.stringify(diagnostics);
    const before = this.published.get(uri)?.key;
    if (before === key || (before === undefined && diagnostics.length === 0)) return;
    if (diagnostics.length === 0) {
      this.published.delete(uri);
      if (this.publishedTo.get(file) === uri) this.publishedTo.delete(file);
    } else {
      this.published.set(uri, { key, file });
      this.publishedTo.set(file, uri);
    }
    this.client.publishDiagnostics(uri, diagnostics);
  }
}
