/**
 * Where an import reaches (SPEC A9), from paths alone: the target of a relative or absolute
 * specifier, relative to the importing file's company root. Shared by the company check and the
 * lint plugin, and free of the TypeScript parser so the plugin bundle stays small.
 */
import * as path from "node:path";
import type { ImportContext, ImportRule, ImportSite, Report } from "./rules/rule.ts";
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

/** Targets by root, importing folder and specifier: a pure function of the three, asked by every import rule of every import. */
const targetCache = new Map<string, Target | undefined>();

export function importTarget(ctx: ImportContext, specifier: string): Target | undefined {
  if (!isPathSpecifier(specifier)) return undefined;
  const slash = ctx.rel.lastIndexOf("/");
  const dirRel = slash < 0 ? "" : ctx.rel.slice(0, slash);
  const key = `${ctx.root}\0${dirRel}\0${specifier}`;
  let target = targetCache.get(key);
  if (target === undefined && !targetCache.has(key)) {
    if (targetCache.size > 50_000) targetCache.clear();
    targetCache.set(key, (target = computeTarget(ctx.root, dirRel, specifier)));
  }
  return target;
}

function computeTarget(root: string, dirRel: string, specifier: string): Target {
  if (path.isAbsolute(specifier)) {
    const abs = path.resolve(specifier);
    const rel = path.relative(root, abs);
    return rel.startsWith("..") || path.isAbsolute(rel) ? { abs, rel: undefined } : { abs, rel: rel.split(path.sep).join("/") };
  }
  // Company-relative string math: the importing file's folder joined with the specifier.
  const joined = path.posix.normalize(dirRel === "" ? specifier : `${dirRel}/${specifier}`).replace(/\/$/, "");
  const abs = path.join(root, joined);
  if (joined === ".." || joined.startsWith("../")) return { abs, rel: undefined };
  return { abs, rel: joined === "." ? "" : joined };
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

