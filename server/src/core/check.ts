/**
 * Runs every rule over a company: facts → analysis → problems, with severities from settings.
 * The one entry point that the server, `sanoma-check` and the tests share.
 */
import { analyse, type Analysis } from "./analysis.ts";
import type { ConnectorResolver } from "./connectors.ts";
import type { Company } from "./model.ts";
import { RULES } from "./rules/index.ts";
import type { FileRule, ProblemInit } from "./rules/rule.ts";
import type { CompanyFile } from "./model.ts";
import type { Problem, RuleId, Severity } from "./types.ts";

export type SeveritySetting = Severity | "off";
export interface CheckOptions {
  /** Per rule: a severity that replaces every default (warnings included), or `off`. */
  rules?: Partial<Record<RuleId, SeveritySetting>>;
}

export interface CheckResult { problems: Problem[]; analysis: Analysis; ms: number }

export function checkCompany(company: Company, resolver: ConnectorResolver, options: CheckOptions = {}, now: () => number = () => 0): CheckResult {
  const start = now();
  const analysis = analyse(company, resolver);
  const problems: Problem[] = [];
  for (const rule of RULES) {
    const setting = options.rules?.[rule.id];
    if (setting === "off") continue;
    const toProblem = (p: ProblemInit): Problem => ({ rule: rule.id, severity: setting ?? p.severity ?? rule.severity, ...withoutSeverity(p) });
    try {
      if (rule.check) rule.check(analysis, (p) => problems.push(toProblem(p)));
      else for (const file of analysis.files) for (const p of fileProblems(rule, file, company.root)) problems.push(toProblem(p));
    } catch (e) {
      // A rule never throws on bad input; if one does anyway, the others still run.
      problems.push({ rule: rule.id, severity: "error", file: company.configFile?.path ?? company.root, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, message: `Internal error in rule ${rule.id}: ${(e as Error).message}` });
    }
  }
  problems.sort(compareProblems);
  return { problems, analysis, ms: now() - start };
}

/**
 * Runs the file rules over one file ahead of the company check, filling their cache: the server
 * calls it while indexing, in its time-boxed batches, so the first company-wide check has only
 * the company rules left to run and never holds the event loop for long.
 */
export function warmFileRules(file: CompanyFile, root: string): void {
  for (const rule of RULES) if (!rule.check) fileProblems(rule, file, root);
}

/** A file rule's findings for a file, cached on the file's facts (a new text makes new facts). */
const fileCache = new WeakMap<object, Map<string, ProblemInit[]>>();
function fileProblems(rule: FileRule, file: CompanyFile, root: string): ProblemInit[] {
  const key = file.facts ?? file;
  let byRule = fileCache.get(key);
  if (!byRule) fileCache.set(key, (byRule = new Map()));
  let found = byRule.get(rule.id);
  if (!found) {
    const list: ProblemInit[] = [];
    rule.checkFile(file, root, (p) => list.push(p));
    byRule.set(rule.id, (found = list));
  }
  return found;
}

function withoutSeverity<T extends { severity?: Severity }>(p: T): Omit<T, "severity"> {
  const { severity: _, ...rest } = p;
  return rest;
}

export function compareProblems(a: Problem, b: Problem): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  if (a.range.start.line !== b.range.start.line) return a.range.start.line - b.range.start.line;
  if (a.range.start.character !== b.range.start.character) return a.range.start.character - b.range.start.character;
  if (a.rule !== b.rule) return a.rule < b.rule ? -1 : 1;
  return a.message < b.message ? -1 : a.message > b.message ? 1 : 0;
}
