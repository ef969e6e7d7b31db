/** Paths ↔ URIs and core problems → LSP diagnostics. */
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { DiagnosticSeverity, DiagnosticTag, type Diagnostic } from "vscode-languageserver/node";
import type { Problem, Severity } from "../core/types.ts";
import { thousands } from "../core/text.ts";

export function toUri(file: string): string {
  return pathToFileURL(file).href;
}

/**
 * A `file:` URI's path, normalised: clients spell one folder many ways (`file:///co/` with the
 * trailing slash of an Emacs `default-directory`, `//`, `..`), and each spelling would otherwise be
 * a company of its own.
 */
export function toPath(uri: string): string | undefined {
  if (!uri.startsWith("file:")) return undefined;
  try { return path.resolve(fileURLToPath(uri)); } catch { return undefined; }
}

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning, info: DiagnosticSeverity.Information, hint: DiagnosticSeverity.Hint,
};

/**
 * A problem as a diagnostic. `uriOf` spells a file as the client does (an open file's own URI,
 * else its path's): a related location in a file the editor has open points at that document.
 */
export function toDiagnostic(p: Problem, docsUrl: (rule: string) => string, uriOf: (file: string) => string = toUri): Diagnostic {
  const d: Diagnostic = {
    range: p.range,
    severity: SEVERITY[p.severity],
    source: "sanoma",
    code: p.rule,
    codeDescription: { href: docsUrl(p.rule) },
    message: p.message,
  };
  if (p.related?.length) d.relatedInformation = p.related.map((r) => ({ location: { uri: uriOf(r.file), range: r.range }, message: r.message }));
  if (p.tags?.length) d.tags = p.tags.map((t) => (t === "unnecessary" ? DiagnosticTag.Unnecessary : DiagnosticTag.Deprecated));
  return d;
}

/**
 * The most diagnostics published for one file. A lockfile of 500,000 orphan bindings has as many
 * problems: sent whole, the message is a hundred megabytes that the server builds and the client
 * parses while both answer nothing. Past this many, the first are sent, with one more that says
 * how many are left out and where to see them all.
 */
export const MAX_DIAGNOSTICS_PER_FILE = 1000;

/** A file's problems as the diagnostics published for it: all of them, or the first `MAX_DIAGNOSTICS_PER_FILE` and a note of the rest. */
export function toDiagnostics(problems: readonly Problem[], docsUrl: (rule: string) => string, uriOf: (file: string) => string = toUri): Diagnostic[] {
  if (problems.length <= MAX_DIAGNOSTICS_PER_FILE) return problems.map((p) => toDiagnostic(p, docsUrl, uriOf));
  const shown = problems.slice(0, MAX_DIAGNOSTICS_PER_FILE).map((p) => toDiagnostic(p, docsUrl, uriOf));
  const more = problems.length - MAX_DIAGNOSTICS_PER_FILE;
  shown.push({
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    severity: DiagnosticSeverity.Information,
    source: "sanoma",
    message: `${thousands(more)} more problem${more === 1 ? "" : "s"} in this file not shown (${thousands(problems.length)} in all; the editor shows the first ${thousands(MAX_DIAGNOSTICS_PER_FILE)}): run sanoma-check to list them all`,
  });
  return shown;
}
