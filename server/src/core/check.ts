/**
 * Runs every rule over a company: facts → analysis → problems, with severities from settings.
 * The one entry point that the server, `sanoma-check` and the tests share.
 */
import { analyse, type Analysis } from "./analysis.ts";
import type { ConnectorResolver } from "./connectors.ts";
import type { Company } from "./model.ts";
import { RULES } from "./rules/index.ts";
import type { FileRule } from "./rules/rule.ts";
import type { CompanyFile } from "./model.ts";
import type { Problem, RuleId, Severity } from "./types.ts";

export type SeveritySetting = Severity | "off";
export interface CheckOptions {
  /** Per rule: a severity that replaces every default (warnings included), or `off`. */
  rules?: Partial<Record<RuleId, SeveritySetting>>;
}

export interface CheckResult { problems: Problem[]; analysis: Analysis }

export function checkCompany(company: Company, resolver: ConnectorResolver, options: CheckOptions = {}): CheckResult {
  const analysis = analyse(company, resolver);
  const problems: Problem[] = [];
  const settings = options.rules ?? {};
  const severityOf = (rule: RuleId, own: Severity | undefined, fallback: Severity) => {
    const s = settings[rule];
    return s && s !== "off" ? s : own ?? fallback;
  };
  for (const rule of RULES) {
    if (!rule.check || settings[rule.id] === "off") continue;
    try {
      rule.check(analysis, (p) => problems.push({ rule: rule.id, ...withoutSeverity(p), severity: severityOf(rule.id, p.severity, rule.severity) }));
    } catch (e) {
      problems.push(internalError(company, rule.id, e));
    }
  }
  // File rules: their findings are kept on each file's entry (a new text makes a new entry), so a
  // check after an edit only gathers them.
  const anySetting = Object.keys(settings).length > 0;
  for (const file of analysis.files) {
    const own = fileRuleProblems(file, company.root);
    if (own.length === 0) continue;
    for (const p of own) {
      if (!anySetting) { problems.push(p); continue; }
      const s = settings[p.rule];
      if (s === "off") continue;
      problems.push(s ? { ...p, severity: s } : p);
    }
  }
  problems.sort(compareProblems);
  return { problems, analysis };
}

function internalError(company: Company, rule: RuleId, e: unknown): Problem {
  // A rule never throws on bad input; if one does anyway, the others still run and it is said.
  return { rule, severity: "error", file: company.configFile?.path ?? company.root, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, message: `Internal error in rule ${rule}: ${(e as Error).message}` };
}

const FILE_RULES = RULES.filter((r): r is FileRule => !r.check);

/** The file rules' findings for one file, computed once per entry. */
export function fileRuleProblems(file: CompanyFile, root: string): Problem[] {
  if (file.fileRuleProblems) return file.fileRuleProblems;
  const out: Problem[] = [];
  for (const rule of FILE_RULES) {
    try {
      rule.checkFile(file, root, (p) => out.push({ rule: rule.id, ...withoutSeverity(p), severity: p.severity ?? rule.severity }));
    } catch (e) {
      out.push({ ...internalError({ root } as Company, rule.id, e), file: file.path });
    }
  }
  file.fileRuleProblems = out;
  return out;
}

/**
 * Runs the file rules over one file ahead of the company check: the server calls it while
 * indexing, in its time-boxed batches, so the first company-wide check has only the company
 * rules left to run and never holds the event loop for long.
 */
export function warmFileRules(file: CompanyFile, root: string): void {
  fileRuleProblems(file, root);
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
