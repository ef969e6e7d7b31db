/**
 * Where an import reaches (SPEC A9), from paths alone: the target of a relative or absolute
 * specifier, relative to the importing file's company root. Shared by the company check and the
 * lint plugin, and free of the TypeScript parser so the plugin bundle stays small.
 */
import * as path from "node:path";
import type { ImportContext, ImportFinding, ImportRule, ImportSite, Report } from "./rules/rule.ts";
import type { CompanyFile } from "./model.ts";
import type { Range } from "./types.ts";

export function isPathSpecifier(specifier: string): boolean {
  return specifier === "." || specifier === ".." || specifier.startsWith("./") || specifier.startsWith("../") || path.isAbsolute(specifier);
}

export interface Target {
  /** The target's path relative to the company root (`/` separators), or undefined outside it. */
  rel: string | undefined;
  abs: string;
}

export function importTarget(ctx: ImportContext, specifier: string): Target | undefined {
  if (!isPathSpecifier(specifier)) return undefined;
  const abs = path.resolve(path.dirname(ctx.file), specifier);
  const rel = path.relative(ctx.root, abs);
  if (rel.startsWith("..") || path.isAbsolute(rel)) return { abs, rel: undefined };
  return { abs, rel: rel.split(path.sep).join("/") };
}

/** The app a company-relative path is in, for a path that is or lies under `apps/<app>`. */
export function targetApp(rel: string): string | null {
  const parts = rel.split("/");
  return parts[0] === "apps" && parts.length >= 2 && parts[1] !== "" && !parts[1].startsWith(".") ? parts[1] : null;
}

/** Runs an import rule over every import of one file. */
export function checkImports(rule: ImportRule, file: CompanyFile, root: string, report: Report): void {
  const facts = file.facts;
  if (!facts || facts.imports.length === 0) return;
  {
    const ctx: ImportContext = { root, file: file.path, rel: file.rel, role: file.role };
    for (const imp of facts.imports) {
      const site: ImportSite<Range> = { specifier: imp.specifier, specifierRange: imp.range, names: imp.names };
      for (const f of rule.judgeImport(site, ctx)) {
        report({
          file: file.path, range: f.range, message: f.message,
          fixes: f.replaceSpecifier !== undefined ? [{ title: `Import from "${f.replaceSpecifier}"`, preferred: true, edits: [{ file: file.path, range: imp.range, newText: JSON.stringify(f.replaceSpecifier) }] }] : undefined,
        });
      }
    }
  }
}

export type { ImportFinding };
