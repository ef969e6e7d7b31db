/**
 * What is under the cursor, in terms of facts: an operation reference, a declaration (its name or
 * its callee), a desired-object key, a collection's name, a lockfile binding. Every navigation
 * feature starts here, so they agree on what a position means.
 */
import * as path from "node:path";
import type { Analysis, Collection, Declaration } from "../../core/analysis.ts";
import { visibleCollections } from "../../core/analysis.ts";
import type { OpRefFact } from "../../core/facts.ts";
import type { LockBinding } from "../../core/lockfile-read.ts";
import type { CompanyFile } from "../../core/model.ts";
import { containsPosition } from "../../core/text.ts";
import type { Position } from "../../core/types.ts";
import type { Session } from "../session.ts";

export type Target =
  | { kind: "opRef"; ref: OpRefFact; collections: Collection[] }
  | { kind: "declaration"; decl: Declaration; on: "name" | "callee" }
  | { kind: "desiredKey"; decl: Declaration; key: string }
  | { kind: "collection"; collection: Collection }
  | { kind: "lockBinding"; binding: LockBinding; decl?: Declaration };

export interface Located {
  analysis: Analysis;
  file?: CompanyFile;
  path: string;
  root: string;
}

export function locate(session: Session, uri: string): Located | undefined {
  const where = session.locate(uri);
  if (!where) return undefined;
  const result = session.resultOf(where.company.root);
  if (!result) return undefined;
  const file = where.company.files.get(where.file);
  // A file not read (over 2 MB, binary) is no file of the company to any feature: parsing a 5 MB
  // line to complete in it took seconds and a gigabyte and a half.
  if (file?.skipped) return undefined;
  return { analysis: result.analysis, file, path: where.file, root: where.company.root };
}

export function targetAt(loc: Located, pos: Position): Target | undefined {
  const a = loc.analysis;
  if (path.basename(loc.path) === "sanoma.lock.json" && a.company.lockText !== undefined) {
    const lock = a.company.lock()!; // (parsed once per text, shared with the check)
    const b = lock.bindings.find((x) => containsPosition(x.keyRange, pos) || containsPosition(x.typeRange, pos) || containsPosition(x.objectRange, pos));
    return b ? { kind: "lockBinding", binding: b, decl: a.declarationsById.get(b.key) } : undefined;
  }
  const file = loc.file;
  const facts = file?.facts;
  if (!file || !facts) return undefined;
  for (const ref of facts.opRefs) {
    if (containsPosition(ref.range, pos)) {
      const visible = visibleCollections(a, file.role.scope).get(ref.collection) ?? a.collections.filter((c) => c.name === ref.collection);
      return { kind: "opRef", ref, collections: visible };
    }
  }
  for (const d of a.declarations) {
    if (d.file !== file) continue;
    if (containsPosition(d.fact.nameRange, pos)) return { kind: "declaration", decl: d, on: "name" };
    if (containsPosition(d.fact.callee.range, pos)) return { kind: "declaration", decl: d, on: "callee" };
    const key = d.fact.desired?.keys.find((k) => containsPosition(k.range, pos));
    if (key) return { kind: "desiredKey", decl: d, key: key.name };
  }
  for (const c of a.collections) {
    if (c.file !== file) continue;
    if (containsPosition(c.nameRange, pos) || (c.fact.nameRange && containsPosition(c.fact.nameRange, pos))) return { kind: "collection", collection: c };
  }
  return undefined;
}

/** Every op reference to a collection, across the files whose scope sees it. */
export function referencesTo(a: Analysis, c: Collection): { file: CompanyFile; ref: OpRefFact }[] {
  const out: { file: CompanyFile; ref: OpRefFact }[] = [];
  for (const file of a.files) {
    const refs = file.facts?.opRefs;
    if (!refs?.length) continue;
    if (c.scope !== null && file.role.scope !== c.scope) continue;
    for (const ref of refs) if (ref.collection === c.name) out.push({ file, ref });
  }
  return out;
}
