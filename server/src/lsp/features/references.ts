/** Find references: a collection (from its declaration or any op id) → every op id string that names it. */
import type { Location, ReferenceParams } from "vscode-languageserver/node";
import type { Collection } from "../../core/analysis.ts";
import type { Session } from "../session.ts";
import { insideQuotes } from "../../core/text.ts";
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
    for (const { file, ref } of referencesTo(loc.analysis, c)) out.push({ uri: session.uriOf(file.path), range: insideQuotes(ref.range) });
  }
  return out;
}
