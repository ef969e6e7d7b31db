/** Find references: a collection (from its declaration or any op id) → every op id string that names it. */
import type { Location, ReferenceParams } from "vscode-languageserver/node";
import type { Collection } from "../../core/analysis.ts";
import type { Session } from "../session.ts";
import { locate, referencesTo, targetAt } from "./target.ts";

export function references(session: Session, params: ReferenceParams): Location[] | null {
  const loc = locate(session, params.textDocument.uri);
  if (!loc) return null;
  const t = targetAt(loc, params.position);
  let collections: Collection[] = [];
  if (t?.kind === "collection") collections = [t.collection];
  else if (t?.kind === "opRef") collections = t.collections;
  if (!collections.length) return null;
  const out: Location[] = [];
  for (const c of collections) {
    if (params.context.includeDeclaration) out.push({ uri: session.uriOf(c.file.path), range: c.nameRange });
    for (const { file, ref } of referencesTo(loc.analysis, c)) out.push({ uri: session.uriOf(file.path), range: inner(ref.range) });
  }
  return out;
}

/** The text of a string literal, without its quotes. */
export function inner(r: { start: { line: number; character: number }; end: { line: number; character: number } }) {
  return { start: { line: r.start.line, character: r.start.character + 1 }, end: { line: r.end.line, character: r.end.character - 1 } };
}
