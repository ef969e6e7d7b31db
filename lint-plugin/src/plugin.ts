/**
 * The plugin object: the import-reach rules of SPEC A9 as an oxlint JS plugin that ESLint's
 * flat config loads unchanged (SPEC B3). An adapter and nothing more: each rule reads its hosts'
 * syntax tree into import sites (`sites.ts`), finds the file's company (`context.ts`,
 * `roots.ts`) and asks the core's own `judgeImport` what is wrong; the rules' logic, messages and
 * fixes are the ones the language server and `sanoma-check` use.
 *
 * Each rule has two entry points: `create` (ESLint, and any host of the classic API: called per
 * file) and `createOnce` (oxlint: called once, with a `before` hook per file that can skip the file
 * before its syntax tree is even handed to JavaScript). In oxlint a file's text is read first: the
 * prefilter (`prefilter.ts`) reads the lines of imports it opens with as sites (`header.ts`) and
 * the rest of it by its candidate literals, and skips the files where no rule can fire; in the
 * others the findings come from those sites when every literal that fires stands among them,
 * else the import sites are read from the text (`scan.ts`), and judged at once, in `before`; only
 * a file whose text the scanner cannot vouch for is visited in its syntax tree.
 *
 * Architecture invariant: nothing here judges an import. The bundle holds the core's path rules
 * and company model, never the TypeScript parser. What the prefilter shares between files is only
 * where a rule may fire; every finding reported is `judgeImport`'s, on a site read exactly.
 */
import { IMPORT_RULES } from "../../server/src/core/rules/imports.ts";
import { ruleDocsUrl } from "../../server/src/core/rules/docs-url.ts";
import type { ImportContext, ImportFinding, ImportSite } from "../../server/src/core/sites.ts";
import type { ImportRule } from "../../server/src/core/rules/rule.ts";
import type { Fixer, Ranged, RuleContext, Visitor } from "./estree.ts";
import { FileContexts } from "./context.ts";
import { Prefilter, headerEnabled, prefilterEnabled, scanEnabled, type Firing } from "./prefilter.ts";
import { scanSites, scannable } from "../../server/src/core/scan.ts";
import { siteVisitor } from "./sites.ts";

/** Kept equal to `lint-plugin/package.json`'s version by a test. */
export const VERSION = "0.1.0";

/**
 * The rules whose findings can carry a certain fix (a `replaceSpecifier`: the right module for
 * `secret`, `sanoma`, `collection`). A host refuses a fix from a rule not declared fixable.
 */
const FIXABLE = new Set<string>(["data-file-imports", "collection-import"]);

const contexts = new FileContexts();

/** oxlint's command line lints once and exits; `oxlint --lsp` lints on request for as long as the editor runs. */
const OXLINT_OBSERVATION = process.argv.includes("--lsp") ? "turn" : "run";
const prefilter = new Prefilter(IMPORT_RULES);

function fileOf(context: RuleContext): string {
  return context.physicalFilename ?? context.filename;
}

/** A finding of one rule, with the site it was found at (a fix replaces the site's specifier). */
interface Found { site: ImportSite<Ranged>; finding: ImportFinding<Ranged> }

/**
 * What oxlint does with one file, worked out by the first rule's `before` hook and found here by
 * the others: the file's context, and either each rule's findings read from the text (`found`), or
 * the rules that visit the syntax tree (`fire`).
 */
interface OxlintFile {
  file: string;
  text: string;
  observation: number;
  ctx: ImportContext | null;
  fire: ReadonlySet<string>;
  found: Map<string, Found[]> | undefined;
}
let oxlintFile: OxlintFile | undefined;
const EVERY_RULE: ReadonlySet<string> = new Set(IMPORT_RULES.map((r) => r.id));
const NO_RULE: ReadonlySet<string> = new Set();

/** How oxlint's files went (for the bench and the tests: `SANOMA_LINT_STATS=1` prints them at exit). */
export const oxlintStats = { files: 0, skipped: 0, fromText: 0, header: 0, tree: 0, unsure: 0, notTypeScript: 0 };
if (process.env.SANOMA_LINT_STATS) process.on("exit", () => process.stderr.write(`sanoma-lint-stats ${JSON.stringify(oxlintStats)}\n`));

function oxlintFileOf(context: RuleContext): OxlintFile {
  const file = fileOf(context);
  const text = context.sourceCode.text;
  const known = oxlintFile;
  // The same file and text within one synchronous run of hooks: nothing on disk was asked anew.
  if (known !== undefined && known.file === file && known.text === text && known.observation === contexts.roots.currentObservation) return known;
  const located = contexts.locate(file, OXLINT_OBSERVATION, context.cwd);
  const ctx = located?.ctx ?? null;
  let fire = NO_RULE, found: Map<string, Found[]> | undefined;
  oxlintStats.files++;
  if (located !== null) {
    const reading = readingOf(context, located.folder);
    const verdict = reading.prefilter ? prefilter.verdict(located.ctx, text, located.folder) : undefined;
    fire = verdict?.fire ?? EVERY_RULE;
    // The rules the company's .sanomarc.json turns off do not fire (nor report what the header's sites found).
    const off = located.folder.off;
    if (off.size > 0 && [...fire].some((id) => off.has(id))) fire = new Set([...fire].filter((id) => !off.has(id)));
    if (verdict !== undefined && fire.size > 0 && reading.scan) {
      if (scannable(file)) {
        // Where the literals that fire stand in the lines of imports the file opens with, those
        // lines are all that is read; else the tokenizer reads the file.
        if (verdict.firing !== undefined && reading.header) found = fromHeader(verdict.firing, located.ctx);
        if (found !== undefined) oxlintStats.header++;
        else {
          const sites = scanSites(text);
          if (sites !== undefined) found = judgeAll(sites, located.ctx, fire);
          else oxlintStats.unsure++;
        }
      } else {
        oxlintStats.notTypeScript++;
      }
    }
  }
  if (found !== undefined && located !== null) for (const id of located.folder.off) found.delete(id);
  if (fire.size === 0) oxlintStats.skipped++;
  else if (found !== undefined) oxlintStats.fromText++;
  else oxlintStats.tree++;
  oxlintFile = { file, text, observation: contexts.roots.currentObservation, ctx, fire, found };
  return oxlintFile;
}

/**
 * How the files of a folder are read (`settings.sanoma`): oxlint gives each file its settings as
 * JSON, parsed anew each time `context.settings` is asked, and a folder's files share them (its
 * config file's; overrides cannot set settings), so they are asked once per folder record.
 */
interface Reading { prefilter: boolean; scan: boolean; header: boolean }
const readings = new WeakMap<object, Reading>();
function readingOf(context: RuleContext, folder: object): Reading {
  let reading = readings.get(folder);
  if (reading === undefined) {
    const settings = context.settings;
    readings.set(folder, (reading = { prefilter: prefilterEnabled(settings), scan: scanEnabled(settings), header: headerEnabled(settings) }));
  }
  return reading;
}

/**
 * The findings of a file whose firing literals all stand in its header (`header.ts`: the
 * prefilter read them there as sites), or undefined when one lies past it. Each is judged by the
 * rules that fired on it, with its names where any can matter (a path in a line that cannot take
 * `collection` is judged without: no rule reads them).
 */
function fromHeader(firing: readonly Firing[], ctx: ImportContext): Map<string, Found[]> | undefined {
  for (const f of firing) if (f.site === undefined) return undefined;
  const found = new Map<string, Found[]>();
  for (const f of firing) {
    for (let i = 0; i < IMPORT_RULES.length; i++) {
      if ((f.rules & (1 << i)) === 0) continue;
      const rule = IMPORT_RULES[i];
      let out = found.get(rule.id);
      for (const finding of rule.judgeImport(f.site!, ctx)) {
        if (out === undefined) found.set(rule.id, (out = []));
        out.push({ site: f.site!, finding });
      }
    }
  }
  return found;
}

/** Every rule that could fire, over sites read from the text: what each finds. */
function judgeAll(sites: ImportSite<Ranged>[], ctx: ImportContext, fire: ReadonlySet<string>): Map<string, Found[]> {
  const found = new Map<string, Found[]>();
  for (const rule of IMPORT_RULES) {
    if (!fire.has(rule.id)) continue;
    const out: Found[] = [];
    for (const site of sites) for (const finding of rule.judgeImport(site, ctx)) out.push({ site, finding });
    found.set(rule.id, out);
  }
  return found;
}

/** Reports one finding of `rule`, with its fix when the rule's fixes are certain. */
function report(rule: ImportRule, context: RuleContext, site: ImportSite<Ranged>, finding: ImportFinding<Ranged>): void {
  const replacement = FIXABLE.has(rule.id) ? finding.replaceSpecifier : undefined;
  context.report({
    node: finding.range,
    message: finding.message,
    fix: replacement === undefined ? undefined : (fixer: Fixer) => fixer.replaceText(site.specifierRange, quoted(context, site.specifierRange, replacement)),
  });
}

/** The visitor of one rule over one file's import sites in its syntax tree: judge each, report what the core found. */
function judging(rule: ImportRule, context: RuleContext, ctx: () => ImportContext): Visitor {
  return siteVisitor((site) => {
    for (const finding of rule.judgeImport(site, ctx())) report(rule, context, site, finding);
  });
}

/** The new specifier in the quotes the old one used. */
function quoted(context: RuleContext, literal: Ranged, text: string): string {
  const q = context.sourceCode.text.charAt(literal.range[0]);
  return q === "'" || q === "`" ? q + text + q : JSON.stringify(text);
}

export interface HostRule {
  meta: {
    type: "problem";
    docs: { description: string; recommended: boolean; url: string };
    schema: [];
    fixable?: "code";
  };
  create(context: RuleContext): Visitor;
  createOnce(context: RuleContext): Visitor & { before(): boolean };
}

function hostRule(rule: ImportRule): HostRule {
  return {
    meta: {
      type: "problem",
      docs: { description: rule.doc.summary, recommended: true, url: ruleDocsUrl(rule.id) },
      // No options: where an import may reach is the framework's contract, not a preference.
      schema: [],
      ...(FIXABLE.has(rule.id) ? { fixable: "code" as const } : {}),
    },
    create(context) {
      const located = contexts.locate(fileOf(context), "task", context.cwd);
      return located === null || located.folder.off.has(rule.id) ? {} : judging(rule, context, () => located.ctx);
    },
    createOnce(context) {
      let ctx: ImportContext | null = null;
      return {
        before() {
          const file = oxlintFileOf(context);
          ctx = file.ctx;
          if (file.found === undefined) return file.fire.has(rule.id);
          // Read from the text: report here, and the syntax tree is never built for this rule.
          for (const f of file.found.get(rule.id) ?? []) report(rule, context, f.site, f.finding);
          return false;
        },
        ...judging(rule, context, () => ctx!),
      };
    },
  };
}

const rules: Record<string, HostRule> = {};
for (const rule of IMPORT_RULES) rules[rule.id] = hostRule(rule);

const severity = (rule: ImportRule): "error" | "warn" => (rule.severity === "error" ? "error" : "warn");

export interface Plugin {
  meta: { name: string; version: string };
  rules: Record<string, HostRule>;
  configs: { recommended: { name: string; plugins: Record<string, Plugin>; rules: Record<string, "error" | "warn"> } };
}

const plugin: Plugin = {
  meta: { name: "sanoma", version: VERSION },
  rules,
  configs: {
    // ESLint flat config: `export default [sanoma.configs.recommended]` (and a parser for .ts files).
    recommended: {
      name: "sanoma/recommended",
      plugins: {},
      rules: Object.fromEntries(IMPORT_RULES.map((r) => [`sanoma/${r.id}`, severity(r)])),
    },
  },
};
plugin.configs.recommended.plugins.sanoma = plugin;

export { plugin };
