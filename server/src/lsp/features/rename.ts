/**
 * Rename a collection: its `name` literal when it has one, else its export's name, and every op
 * id string that names it, in one workspace edit.
 */
import type { PrepareRenameParams, Range, RenameParams, TextEdit, WorkspaceEdit } from "vscode-languageserver/node";
import { ResponseError, ErrorCodes } from "vscode-languageserver/node";
import type { Collection } from "../../core/analysis.ts";
import type { Session } from "../session.ts";
import { toUri } from "../convert.ts";
import { locate, referencesTo, targetAt } from "./target.ts";
import { inner } from "./references.ts";

function collectionAt(session: Session, uri: string, position: { line: number; character: number }) {
  const loc = locate(session, uri);
  if (!loc) return undefined;
  const t = targetAt(loc, position);
  if (t?.kind === "collection") return { loc, collection: t.collection, range: t.collection.nameRange };
  if (t?.kind === "opRef" && t.collections.length === 1) {
    const r = t.ref.range;
    const start = r.start.character + 1 + "data.".length;
    return { loc, collection: t.collections[0], range: { start: { line: r.start.line, character: start }, end: { line: r.start.line, character: start + t.ref.collection.length } } };
  }
  return undefined;
}

export function prepareRename(session: Session, params: PrepareRenameParams): { range: Range; placeholder: string } | null {
  const at = collectionAt(session, params.textDocument.uri, params.position);
  return at ? { range: at.collection.fact.nameLiteral && at.range === at.collection.nameRange ? inner(at.range) : at.range, placeholder: at.collection.name } : null;
}

export function rename(session: Session, params: RenameParams): WorkspaceEdit | null {
  const at = collectionAt(session, params.textDocument.uri, params.position);
  if (!at) return null;
  const name = params.newName;
  if (!/^[\p{L}\p{Nd}_$]+$/u.test(name)) throw new ResponseError(ErrorCodes.InvalidParams, `${name} is not a collection name: use letters, digits, _ and $`);
  const c: Collection = at.collection;
  const changes: Record<string, TextEdit[]> = {};
  const add = (file: string, range: Range, newText: string) => (changes[toUri(file)] ??= []).push({ range, newText });
  if (c.fact.nameLiteral) add(c.file.path, inner(c.fact.nameLiteral.range), name);
  else if (c.fact.nameRange) add(c.file.path, c.fact.nameRange, name);
  for (const { file, ref } of referencesTo(at.loc.analysis, c)) {
    const r = inner(ref.range);
    const start = r.start.character + "data.".length;
    add(file.path, { start: { line: r.start.line, character: start }, end: { line: r.start.line, character: start + ref.collection.length } }, name);
  }
  return { changes };
}
