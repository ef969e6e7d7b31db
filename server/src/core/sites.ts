/**
 * One import as the import-reach rules judge it (SPEC A9), whatever read it: the core's facts,
 * the text scanner, or a lint host's syntax tree. The vocabulary shared by the readers below the
 * rules and the rules themselves, so that neither imports the other for it.
 */
import type { FileRole } from "./company.ts";

/** One import as the reach rules see it, with ranges of whatever kind the host uses. */
export interface ImportSite<R> {
  specifier: string;
  specifierRange: R;
  /** Names the import takes (`*` for a namespace or a whole module). */
  names: { imported: string; range: R }[];
}

export interface ImportContext {
  root: string;
  /** The importing file's absolute path and its company-relative path. */
  file: string;
  rel: string;
  role: FileRole;
  /**
   * Whether the company holds a file at a company-relative path, where the host can tell; the
   * one question a judgement asks beyond paths: whether `apps/x` (an import without extension)
   * reaches the file `apps/x.ts` rather than app x's folder.
   */
  hasFile?: (rel: string) => boolean;
}

export interface ImportFinding<R> {
  range: R;
  message: string;
  /** A certain fix: replace the specifier with this one. */
  replaceSpecifier?: string;
}

/** What most judgements find: nothing (one shared, frozen array; every import of every file is judged). */
export const NO_FINDINGS: readonly never[] = Object.freeze([]);
