/**
 * The file a host lints → the core's `ImportContext` (root, company-relative path, role), or null
 * when the core would not look at the file at all: no company (or inside `node_modules`), under a
 * folder that company walks skip (a name starting with `.`), or not a code file. Shared by the five
 * rules of a file: the answer is kept for the last file and the current observation.
 */
import * as path from "node:path";
import { isCodeFile, relativeTo, roleOf } from "../../server/src/core/company.ts";
import type { ImportContext } from "../../server/src/core/rules/rule.ts";
import { RootCache, type ObservationEnd } from "./roots.ts";

export class FileContexts {
  private last: { file: string; observation: number; ctx: ImportContext | null } | undefined;

  constructor(readonly roots: RootCache = new RootCache()) {}

  of(file: string, end: ObservationEnd): ImportContext | null {
    // `<input>`, `<text>`: text linted without a file has no place in a company.
    if (!path.isAbsolute(file) || !isCodeFile(file)) return null;
    const root = this.roots.rootOf(file, end);
    const observation = this.roots.currentObservation;
    if (this.last && this.last.file === file && this.last.observation === observation) return this.last.ctx;
    const ctx = root === undefined ? null : contextIn(root, file);
    this.last = { file, observation, ctx };
    return ctx;
  }
}

function contextIn(root: string, file: string): ImportContext | null {
  const rel = relativeTo(root, file);
  if (rel === undefined) return null;
  // A company's files are listed skipping dot folders (A3): the check never reads these.
  const dirs = rel.split("/");
  dirs.pop();
  if (dirs.some((d) => d.startsWith("."))) return null;
  return { root, file, rel, role: roleOf(rel) };
}
