/** Paths ↔ URIs and core problems → LSP diagnostics. */
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { DiagnosticSeverity, DiagnosticTag, type Diagnostic } from "vscode-languageserver/node";
import type { Problem, Severity } from "../core/types.ts";

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

export function toDiagnostic(p: Problem, docsUrl: (rule: string) => string): Diagnostic {
  const d: Diagnostic = {
    range: p.range,
    severity: SEVERITY[p.severity],
    source: "sanoma",
    code: p.rule,
    codeDescription: { href: docsUrl(p.rule) },
    message: p.message,
  };
  if (p.related?.length) d.relatedInformation = p.related.map((r) => ({ location: { uri: toUri(r.file), range: r.range }, message: r.message }));
  if (p.tags?.length) d.tags = p.tags.map((t) => (t === "unnecessary" ? DiagnosticTag.Unnecessary : DiagnosticTag.Deprecated));
  return d;
}
