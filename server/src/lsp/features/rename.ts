/**
 * Rename a collection, from its `name` literal, its export's name or any op id naming it: every op
 * id string that names it, and its `name` literal, in one workspace edit. The export's name (a
 * TypeScript identifier, imported and used elsewhere) is never renamed: a collection named by it
 * gets a `name: "<new>"` property, first in its options, instead. The new name must be an op-id
 * name (A8: letters, digits, `_` and `$`, not starting with a digit) that no other collection of
 * the company has; otherwise the rename is refused with a message saying why.
 */
import type { PrepareRenameParams, Range, RenameParams, TextEdit, WorkspaceEdit } from "vscode-languageserver/node";
import { ResponseError, ErrorCodes } from "vscode-languageserver/node";
import type { Collection } from "../../core/analysis.ts";
import { containsPosition, insideQuotes } from "../../core/text.ts";
import type { Session } from "../session.ts";
import { locate, referencesTo, targetAt } from "./target.ts";

/** An op id's collection name: an identifier of letters (any script's), digits, `_` and `$` (A8). */
const COLLECTION_NAME = /^[\p{L}_$][\p{L}\p{Nd}_$]*$/u;

/**
 * The collection under the cursor, and the range there that names it (which a client shows for the
 * rename). An op id that names a collection its file's scope does not see is refused (a ResponseError).
 */
function collectionAt(session: Session, uri: string, position: { line: number; character: number }) {
  const loc = locate(session, uri);
  if (!loc) return undefined;
  const t = targetAt(loc, position);
  if (t?.kind === "collection") {
    const c = t.collection;
    const literal = c.fact.nameLiteral && containsPosition(c.fact.nameLiteral.range, position);
    return { loc, collection: c, range: literal ? insideQuotes(c.fact.nameLiteral!.range) : c.fact.nameRange! };
  }
  if (t?.kind === "opRef" && t.collections.length === 1) {
    const c = t.collections[0];
    // A collection of another scope (A8): the op id is a `collection-scope` problem, and none of the
    // rename's edits (the op ids of the scopes that see it) would be this one: refused, saying why.
    const scope = loc.file?.role.scope ?? null;
    if (c.scope !== null && c.scope !== scope) {
      throw new ResponseError(ErrorCodes.InvalidRequest, `${t.ref.collection} is a collection of app ${c.scope} (${c.file.rel}), which ${scope === null ? "the root scope" : `app ${scope}`} does not see: this op id is not renamed with it; rename it from its declaration or an op id of its app`);
    }
    const r = t.ref.range;
    // Written with escapes: the whole text names it.
    if (!plainText(lineReader(session), loc.path, r)) return { loc, collection: t.collections[0], range: insideQuotes(r) };
    const start = r.start.character + 1 + "data.".length;
    return { loc, collection: t.collections[0], range: { start: { line: r.start.line, character: start }, end: { line: r.start.line, character: start + t.ref.collection.length } } };
  }
  return undefined;
}

export function prepareRename(session: Session, params: PrepareRenameParams): { range: Range; placeholder: string } | null {
  const at = collectionAt(session, params.textDocument.uri, params.position);
  return at ? { range: at.range, placeholder: at.collection.name } : null;
}

export function rename(session: Session, params: RenameParams): WorkspaceEdit | null {
  const at = collectionAt(session, params.textDocument.uri, params.position);
  if (!at) return null;
  const name = params.newName;
  const c: Collection = at.collection;
  if (!COLLECTION_NAME.test(name)) {
    throw new ResponseError(ErrorCodes.InvalidParams, `${name} is not a collection name: use letters, digits, _ and $, not starting with a digit`);
  }
  const taken = at.loc.analysis.collections.find((o) => o !== c && o.name === name);
  if (taken) throw new ResponseError(ErrorCodes.InvalidParams, `a collection named ${name} exists already (${taken.file.rel}): two collections of one name are a problem`);
  const lineOf = lineReader(session);
  const changes: Record<string, TextEdit[]> = {};
  const add = (file: string, range: Range, newText: string) => (changes[session.uriOf(file)] ??= []).push({ range, newText });
  if (c.fact.nameLiteral) add(c.file.path, insideQuotes(c.fact.nameLiteral.range), name);
  else if (c.fact.nameNotLiteral) {
    // `name: NAME`: a second `name` would be a duplicate key, and what NAME holds is not ours to edit.
    throw new ResponseError(ErrorCodes.InvalidParams, `${c.name} cannot be renamed here: its name property is not a string literal; write the new name where its value is set, or make it a literal`);
  } else if (name !== c.name) {
    // Named by its export: the identifier stays (its imports and uses would break); a `name` is added.
    const options = c.fact.options;
    if (!options) throw new ResponseError(ErrorCodes.InvalidParams, `${c.name} cannot be renamed: its options are not an object literal, so no name property can be added`);
    const property = `name: ${JSON.stringify(name)}`;
    const first = options.first;
    if (!first) add(c.file.path, { start: options.range.start, end: options.range.end }, `{ ${property} }`);
    else if (first.start.line === options.range.start.line) add(c.file.path, { start: first.start, end: first.start }, `${property}, `);
    else {
      // One property a line: the new one on a line of its own, indented as the first.
      const indent = /^\s*/.exec(lineOf(c.file.path, first.start.line).slice(0, first.start.character))![0];
      add(c.file.path, { start: first.start, end: first.start }, `${property},${lineOf.eol(c.file.path)}${indent}`); // (the file's own line break: CRLF stays CRLF)
    }
  }
  for (const { file, ref } of referencesTo(at.loc.analysis, c)) {
    const r = insideQuotes(ref.range);
    // An op id written with escapes (`"data.\u0065sc.get"`): its text is written anew, whole.
    if (!plainText(lineOf, file.path, ref.range)) { add(file.path, r, `data.${name}.${ref.op}`); continue; }
    const start = r.start.character + "data.".length;
    add(file.path, { start: { line: r.start.line, character: start }, end: { line: r.start.line, character: start + ref.collection.length } }, name);
  }
  return { changes };
}

/** Whether a string literal's text is written as its value reads (on one line, no escape). */
function plainText(lineOf: (file: string, line: number) => string, file: string, range: Range): boolean {
  return range.start.line === range.end.line && !lineOf(file, range.start.line).slice(range.start.character, range.end.character).includes("\\");
}

/** A line of a file, and (`eol`) the line break the file is written with. */
type LineReader = ((file: string, line: number) => string) & { eol(file: string): string };

/**
 * The lines of files as the server holds them (the editor's text when open, else the disk's),
 * each file read and split once: a rename asks for a line of each op id it edits.
 */
function lineReader(session: Session): LineReader {
  const byFile = new Map<string, string[]>();
  const eols = new Map<string, string>();
  const linesOf = (file: string): string[] => {
    let lines = byFile.get(file);
    if (!lines) {
      const text = session.openText(file) ?? session.ws.fs.readFile(file) ?? "";
      // Lines as LSP counts them: a lone \r ends one too.
      byFile.set(file, (lines = text.split(/\r\n|\r|\n/)));
      eols.set(file, /\r\n|\r|\n/.exec(text)?.[0] ?? "\n");
    }
    return lines;
  };
  const line = ((file: string, n: number) => linesOf(file)[n] ?? "") as LineReader;
  line.eol = (file) => { linesOf(file); return eols.get(file)!; };
  return line;
}
