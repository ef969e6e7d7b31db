/**
 * What a rule is: its id, default severity, its documentation (what, why, a wrong and a right
 * example, each a fixture company that the tests run and the docs pages are generated from) and
 * its check over a company's analysis. Import-reach rules (A9) also judge one import at a time,
 * from paths alone, so the lint plugin runs the very same code over its hosts' syntax trees.
 */
import type { Analysis } from "../analysis.ts";
import type { CompanyFile } from "../model.ts";
import type { Fix, Problem, Range, RelatedInfo, RuleId, Severity } from "../types.ts";
import type { Steps } from "../steps.ts";
import type { ImportContext, ImportFinding, ImportSite } from "../sites.ts";

export interface RuleDoc {
  /** One line: what the rule reports. */
  summary: string;
  /** Why it is a problem, in a paragraph. */
  why: string;
  /** A fixture company (`//- /path` headers, `^^^` markers) where the rule fires. */
  wrong: string;
  /** The same company put right: the rule is silent. */
  right: string;
  /** How to fix it, if more needs saying than the examples show. */
  fix?: string;
}

/**
 * One of a rule's test cases (oxc's pass and fail lists, in one): a company written inline in the
 * fixture format (`//- /path` headers; every problem it must report drawn under its line,
 * `//   ^^^ rule-id words of the message`), whose check reports exactly those, of every rule. A
 * case that draws none of its rule's problems is one where the rule must stay silent. Each rule
 * file exports its cases as a function (`export const cases = (): RuleCase[] => [...]`), apart
 * from the rule object, so that no bundle carries their text; `test/rules/rule-cases.test.ts`
 * runs them through the core, `sanoma-check`, the language server and the lint plugin's hosts.
 */
export interface RuleCase {
  /** What the case shows, as a sentence: the test's name. */
  name: string;
  company: string;
  /** Files written with CRLF line ends. */
  crlf?: string[];
}

export interface ProblemInit {
  file: string;
  range: Range;
  message: string;
  severity?: Severity;
  related?: RelatedInfo[];
  fixes?: Fix[];
  tags?: Problem["tags"];
}

export type Report = (p: ProblemInit) => void;

/**
 * A rule looks at one file at a time (`checkFile`: its findings depend on that file's path and
 * facts alone, so they are cached per facts), or at the company (`CompanyRule`). A company rule
 * is cut so that an edit costs what it changes, not what the company holds:
 *   - `checkFileIn` judges one file against company-wide inputs, which `fileInputs` names; a file
 *     is re-judged when it changes or when one of those inputs changes (each compared with `===`);
 *   - `checkCompany` judges the company's indexes (collections, the holders of a contract, the
 *     config's bindings, the lockfile's own structure) and is re-run only when `companyInputs`
 *     changes (on every check if it names none). It loops over no file.
 */
export type Rule = CompanyRule | FileRule;

interface RuleBase {
  id: RuleId;
  severity: Severity;
  doc: RuleDoc;
}
export interface CompanyRule extends RuleBase {
  checkFileIn?(file: CompanyFile, a: Analysis, report: Report): void;
  fileInputs?(a: Analysis): readonly unknown[];
  /** May work in steps (a generator, yielding every so often: see `steps.ts`) where its input can be large (a lockfile's bindings). */
  checkCompany?(a: Analysis, report: Report): void | Steps<void>;
  companyInputs?(a: Analysis): readonly unknown[];
  checkFile?: undefined;
}
export interface FileRule extends RuleBase {
  checkFile(file: CompanyFile, root: string, report: Report): void;
  checkFileIn?: undefined;
  checkCompany?: undefined;
}

/**
 * A rule that judges one import at a time (the lint plugin's rules). Most are file rules; one whose
 * judgement also asks which files the company holds (`ctx.hasFile`) is a company rule that judges
 * each file, re-judged when those files come or go.
 */
export type ImportRule = (FileRule | CompanyRule) & {
  judgeImport<R>(site: ImportSite<R>, ctx: ImportContext): readonly ImportFinding<R>[];
};
