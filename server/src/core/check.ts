/**
 * Runs every rule over a company: facts → analysis → problems, with severities from settings.
 * The one entry point that the server, `sanoma-check` and the tests share.
 */
import type { Analysis, CompanyAnalyzer } from "./analysis.ts";
import type { ChangeTracker } from "./model.ts";
import { RULES } from "./rules/index.ts";
import type { CompanyRule, FileRule, ProblemInit, Rule } from "./rules/rule.ts";
import type { CompanyFile } from "./model.ts";
import { runSteps, sortSteps, STEP, type Steps } from "./steps.ts";
import type { Problem, RuleId, Severity } from "./types.ts";

export type SeveritySetting = Severity | "off";
export interface CheckOptions {
  /** Per rule: a severity that replaces every default (warnings included), or `off`. */
  rules?: Partial<Record<RuleId, SeveritySetting>>;
  /**
   * A host's failpoint (tests only: ARCHITECTURE.md, "Failpoints"), called once the analysis is up
   * to date and before any rule runs: it throws there as a fault of the check's own would.
   */
  failpoint?: () => void;
}

export interface CheckResult {
  analysis: Analysis;
  /** Each file's problems, sorted; a file without problems is absent. A live view of the company's check state: the next check of the company updates it. */
  problemsByFile: ReadonlyMap<string, readonly Problem[]>;
  /** The files whose problems this check recomputed: every file whose problems changed is among them. */
  changedFiles: ReadonlySet<string>;
  /** Every problem, sorted by file, position, rule and message (built on first read). */
  readonly problems: Problem[];
  /** What the check did: files re-judged, company-wide rule parts re-run. */
  stats: { filesJudged: number; companyRulesRun: number };
}

const FILE_RULES = RULES.filter((r): r is FileRule => !!r.checkFile);
const FILE_IN_COMPANY_RULES = RULES.filter((r): r is CompanyRule & Required<Pick<CompanyRule, "checkFileIn">> => !!r.checkFileIn);
const COMPANY_RULES = RULES.filter((r): r is CompanyRule & Required<Pick<CompanyRule, "checkCompany">> => !!r.checkCompany);
const ALL_FILE_IN_COMPANY_RULES: readonly number[] = FILE_IN_COMPANY_RULES.map((_, i) => i);
const NO_INPUTS: readonly unknown[] = [];
/**
 * What a rule found in a file where it found nothing (most rules, in most files), one list for all:
 * kept per file and rule, a fresh empty list each was 90,000 lists at 10,000 files. Frozen, so a
 * push into it would fail loudly.
 */
const NO_PROBLEMS = Object.freeze([]) as unknown as Problem[];
/**
 * A file's judgement by the company rules when none of them found anything (most files): one list
 * for all, frozen, replaced by a list of the file's own at its first finding.
 */
const NO_FINDINGS = Object.freeze(FILE_IN_COMPANY_RULES.map(() => NO_PROBLEMS)) as Problem[][];
/** The targets of a source that speaks of no file, one set for all (a source's targets are replaced, never added to). */
const NO_TARGETS: ReadonlySet<string> = new Set();

/** One file's findings: the file rules' (kept on the entry) and each company rule's judgement of it. */
interface FileSource { entry: CompanyFile; byRule: Problem[][]; targets: ReadonlySet<string> }
interface CompanySource { inputs: readonly unknown[] | undefined; targets: ReadonlySet<string> }

/**
 * What a company's checks keep between them. Each source of findings (a file, or the company-wide
 * part of a rule) contributes problems to target files; a check re-runs the sources whose inputs
 * changed and re-sorts the targets they touched, so an edit costs what it changes.
 */
class CheckState {
  readonly files = new Map<string, FileSource>();
  readonly fileRuleInputs: (readonly unknown[] | undefined)[] = FILE_IN_COMPANY_RULES.map(() => undefined);
  readonly companySources: CompanySource[] = COMPANY_RULES.map(() => ({ inputs: undefined, targets: NO_TARGETS }));
  /** target file → source key → what the source says of it. */
  readonly contributions = new Map<string, Map<string, Problem[]>>();
  /** target file → its problems, sorted, with the settings applied. */
  readonly final = new Map<string, Problem[]>();
  settingsKey: string | undefined;
  touched = new Set<string>();
  stats = { filesJudged: 0, companyRulesRun: 0 };

  /** What a file rule reports of the file being judged, taken from here after each rule. */
  private readonly found: Problem[] = [];
  private readonly reporters = FILE_IN_COMPANY_RULES.map((rule) => (p: ProblemInit) => { this.found.push(toProblem(rule, p)); });

  constructor(readonly root: string) {}

  /** Judges one file with the given company rules (all of them when its entry is new). */
  judgeFile(path: string, entry: CompanyFile | undefined, a: Analysis, rules: readonly number[] | "all"): void {
    let src = this.files.get(path);
    if (!entry) {
      if (src) { this.contribute(path, [], src.targets); this.files.delete(path); }
      return;
    }
    if (!src || src.entry !== entry) {
      src = { entry, byRule: NO_FINDINGS, targets: src?.targets ?? NO_TARGETS };
      this.files.set(path, src);
      rules = "all";
    }
    this.stats.filesJudged++;
    const indexes = rules === "all" ? ALL_FILE_IN_COMPANY_RULES : rules;
    // (Indexed loops, as in check-imports.ts: this runs once for each file, mostly unoptimized.)
    for (let n = 0; n < indexes.length; n++) {
      const i = indexes[n];
      const rule = FILE_IN_COMPANY_RULES[i];
      // (One sink a rule, made once: most files give most rules nothing to say, and a list and a
      // closure a rule and a file were most of what a first check of 10,000 files made here.)
      const out = this.found;
      try {
        rule.checkFileIn(entry, a, this.reporters[i]);
      } catch (e) {
        out.push({ ...internalError(this.root, rule.id, e), file: entry.path });
      }
      const found = out.length > 0 ? out.splice(0) : NO_PROBLEMS;
      if (src.byRule[i] !== found) {
        if (src.byRule === NO_FINDINGS) src.byRule = NO_FINDINGS.slice();
        src.byRule[i] = found;
      }
    }
    const own = fileRuleProblems(entry, this.root);
    let all: Problem[] = own;
    for (let i = 0; i < src.byRule.length; i++) {
      const list = src.byRule[i];
      if (list.length) all = all === own ? [...own, ...list] : all.concat(list);
    }
    src.targets = this.contribute(path, all, src.targets);
  }

  /** Runs a company rule's company-wide part if its inputs changed; a rule that works in steps yields between them. */
  *runCompanyRule(i: number, a: Analysis): Steps<void> {
    const rule = COMPANY_RULES[i];
    const source = this.companySources[i];
    const inputs = rule.companyInputs?.(a);
    if (inputs && source.inputs && sameInputs(inputs, source.inputs)) return;
    source.inputs = inputs;
    this.stats.companyRulesRun++;
    const out: Problem[] = [];
    try {
      const steps = rule.checkCompany(a, (p) => out.push(toProblem(rule, p)));
      if (steps) yield* steps;
    } catch (e) {
      out.push(internalError(a.company.configFile?.path ?? this.root, rule.id, e));
    }
    source.targets = this.contribute(`#${rule.id}`, out, source.targets);
  }

  /** Replaces what a source says, and notes the files whose problems that touches. */
  private contribute(source: string, problems: Problem[], before: ReadonlySet<string>): ReadonlySet<string> {
    if (problems.length === 0 && before.size === 0) return NO_TARGETS; // (most files, at a first check)
    const byTarget = new Map<string, Problem[]>();
    // Most sources speak of one file (a lockfile's 500,000 orphans, say): its list is taken as it is.
    const one = problems.length > 0 ? problems[0].file : undefined;
    let i = 0;
    while (i < problems.length && problems[i].file === one) i++;
    if (i === problems.length) { if (one !== undefined) byTarget.set(one, problems); }
    else {
      for (const p of problems) {
        const list = byTarget.get(p.file);
        if (list) list.push(p); else byTarget.set(p.file, [p]);
      }
    }
    for (const target of before) {
      if (byTarget.has(target)) continue;
      this.contributions.get(target)?.delete(source);
      this.touched.add(target);
    }
    for (const [target, list] of byTarget) {
      let sources = this.contributions.get(target);
      if (!sources) this.contributions.set(target, (sources = new Map()));
      sources.set(source, list);
      this.touched.add(target);
    }
    return byTarget.size === 0 ? NO_TARGETS : new Set(byTarget.keys());
  }

  /** Re-sorts the touched files' problems, applying the settings; yields as it goes through a long list (a lockfile's 500,000 orphans). */
  *assemble(settings: CheckOptions["rules"] = {}): Steps<Set<string>> {
    const touched = this.touched;
    this.touched = new Set();
    const anySetting = Object.keys(settings).length > 0;
    for (const target of touched) {
      const sources = this.contributions.get(target);
      let list: Problem[] = [];
      // One source and no settings: its list, as it is (sorted in place if it is not: only its order changes).
      if (sources?.size === 1 && !anySetting) list = sources.values().next().value!;
      else if (sources) {
        for (const problems of sources.values()) {
          let n = 0;
          for (const p of problems) {
            if (++n % SORT_STEP === 0) yield;
            if (!anySetting) { list.push(p); continue; }
            const s = settings[p.rule];
            if (s === "off") continue;
            list.push(s ? { ...p, severity: s } : p);
          }
        }
        if (sources.size === 0) this.contributions.delete(target);
      }
      if (list.length) this.final.set(target, yield* sorted(list)); else this.final.delete(target);
    }
    return touched;
  }
}

/**
 * A company's checks, kept between them: the analysis (`CompanyAnalyzer`) and what each source of
 * findings said. The first check judges every file; later ones re-judge the files changed since,
 * the files whose company-wide inputs changed, and re-run the company-wide rule parts whose inputs
 * changed. The result is the same as a first check's: the tests hold them equal over random edits.
 * One per company, owned by the `Workspace`.
 */
export class CompanyChecker {
  private state: CheckState | undefined;
  /** The index build the state was judged against. */
  private build = -1;
  /** The files changed since the last check: the checker's own record, whoever else analyses the company meanwhile. */
  private readonly changes: ChangeTracker;

  constructor(readonly analyzer: CompanyAnalyzer) {
    this.changes = analyzer.company.trackChanges();
  }

  /** Stops recording the company's changes (the company is let go). */
  dispose(): void {
    this.changes.stop();
    this.analyzer.dispose();
  }

  check(options: CheckOptions = {}): CheckResult {
    return runSteps(this.steps(options));
  }

  /**
   * `check`, yielding every `STEP` files (see `steps.ts`): the server runs a big company's first
   * check in time slices. Edits made while it is suspended are the next check's changes.
   */
  *steps(options: CheckOptions = {}): Steps<CheckResult> {
    try {
      return yield* this.judge(options);
    } catch (e) {
      // A check that throws (a fault of ours, outside any rule) took the changes it was to judge,
      // and may have judged some: what it kept is let go, and the next check judges every file.
      this.state = undefined;
      throw e;
    }
  }

  private *judge(options: CheckOptions): Steps<CheckResult> {
    const changed = this.changes.take();
    const analysis = yield* this.analyzer.steps();
    const company = analysis.company;
    const fresh = !this.state || analysis.build !== this.build;
    this.build = analysis.build;
    const st = (this.state ??= new CheckState(company.root));
    st.stats = { filesJudged: 0, companyRulesRun: 0 };

    // Which per-file judgements depend on a company-wide input that changed.
    const stale: number[] = [];
    FILE_IN_COMPANY_RULES.forEach((rule, i) => {
      const inputs = rule.fileInputs?.(analysis) ?? NO_INPUTS;
      const before = st.fileRuleInputs[i];
      if (!before || !sameInputs(before, inputs)) stale.push(i);
      st.fileRuleInputs[i] = inputs;
    });
    options.failpoint?.();
    let n = 0;
    if (fresh) {
      for (const path of st.files.keys()) if (!company.files.has(path)) st.judgeFile(path, undefined, analysis, "all");
      for (const [path, entry] of company.files) {
        st.judgeFile(path, entry, analysis, "all");
        if (++n % STEP === 0) yield;
      }
    } else {
      for (const path of changed) {
        st.judgeFile(path, company.files.get(path), analysis, "all");
        if (++n % STEP === 0) yield;
      }
      if (stale.length) {
        for (const [path, entry] of company.files) {
          if (changed.has(path)) continue;
          st.judgeFile(path, entry, analysis, stale);
          if (++n % STEP === 0) yield;
        }
      }
    }
    yield;
    for (let i = 0; i < COMPANY_RULES.length; i++) yield* st.runCompanyRule(i, analysis);
    yield;

    const settingsKey = JSON.stringify(options.rules ?? {});
    if (settingsKey !== st.settingsKey) {
      st.settingsKey = settingsKey;
      for (const target of st.contributions.keys()) st.touched.add(target);
      for (const target of st.final.keys()) st.touched.add(target);
    }
    const changedFiles = yield* st.assemble(options.rules);
    const final = st.final;
    let all: Problem[] | undefined;
    return {
      analysis,
      problemsByFile: final,
      changedFiles,
      get problems() {
        if (!all) all = [...final.keys()].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)).flatMap((f) => final.get(f)!);
        return all;
      },
      stats: st.stats,
    };
  }
}

/** Problems compared between two yields of `sorted` (and of `assemble`'s gathering): a few milliseconds. */
const SORT_STEP = 16_384;

/** The list in order: as it is when it is (the usual case, checked in steps), else sorted in steps. */
function* sorted(list: Problem[]): Steps<Problem[]> {
  for (let i = 1; i < list.length; i++) {
    if (compareProblems(list[i - 1], list[i]) > 0) return yield* sortSteps(list, compareProblems);
    if (i % SORT_STEP === 0) yield;
  }
  return list;
}

function sameInputs(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function toProblem(rule: Rule, p: ProblemInit): Problem {
  // (Field by field, no spreads: a lockfile of 500,000 orphans makes as many problems.)
  const out: Problem = { rule: rule.id, file: p.file, range: p.range, message: p.message, severity: p.severity ?? rule.severity };
  if (p.related) out.related = p.related;
  if (p.tags) out.tags = p.tags;
  if (p.fixes) out.fixes = p.fixes;
  return out;
}

function internalError(file: string, rule: RuleId, e: unknown): Problem {
  // A rule never throws on bad input; if one does anyway, the others still run and it is said.
  return { rule, severity: "error", file, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, message: `Internal error in rule ${rule}: ${(e as Error).message}` };
}

/** The file rules' findings for one file, computed once per entry. */
export function fileRuleProblems(file: CompanyFile, root: string): Problem[] {
  if (file.fileRuleProblems) return file.fileRuleProblems;
  const out: Problem[] = [];
  for (let i = 0; i < FILE_RULES.length; i++) {
    const rule = FILE_RULES[i];
    try {
      rule.checkFile(file, root, (p) => out.push(toProblem(rule, p)));
    } catch (e) {
      out.push({ ...internalError(root, rule.id, e), file: file.path });
    }
  }
  return (file.fileRuleProblems = out.length > 0 ? out : NO_PROBLEMS);
}


export function compareProblems(a: Problem, b: Problem): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  if (a.range.start.line !== b.range.start.line) return a.range.start.line - b.range.start.line;
  if (a.range.start.character !== b.range.start.character) return a.range.start.character - b.range.start.character;
  if (a.rule !== b.rule) return a.rule < b.rule ? -1 : 1;
  return a.message < b.message ? -1 : a.message > b.message ? 1 : 0;
}
