/**
 * The plugin object: the import-reach rules of SPEC A9 as an oxlint JS plugin that ESLint's
 * flat config loads unchanged (SPEC B3). An adapter and nothing more: each rule reads its hosts'
 * syntax tree into import sites (`sites.ts`), finds the file's company (`context.ts`,
 * `roots.ts`) and asks the core's own `judgeImport` what is wrong; the rules' logic, messages and
 * fixes are the ones the language server and `sanoma-check` use.
 *
 * Each rule has two entry points: `create` (ESLint, and any host of the classic API: called per
 * file) and `createOnce` (oxlint: called once, with a `before` hook per file that can skip the file
 * before its syntax tree is even handed to JavaScript; see `prefilter.ts`).
 *
 * Architecture invariant: nothing here judges an import. The bundle holds the core's path rules
 * and company model, never the TypeScript parser.
 */
import { IMPORT_RULES } from "../../server/src/core/rules/imports.ts";
import { ruleDocsUrl } from "../../server/src/core/rules/docs-url.ts";
import type { ImportContext, ImportRule } from "../../server/src/core/rules/rule.ts";
import type { Fixer, Node, RuleContext, Visitor } from "./estree.ts";
import { FileContexts } from "./context.ts";
import { Prefilter, prefilterEnabled } from "./prefilter.ts";
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

/**
 * oxlint asks the five rules' `before` hooks in turn for each file: the first one works out the
 * file's context and which rules could fire, the other four find it here.
 */
let oxlintFile: { file: string; text: string; observation: number; ctx: ImportContext | null; fire: ReadonlySet<string> } | undefined;
const EVERY_RULE: ReadonlySet<string> = new Set(IMPORT_RULES.map((r) => r.id));
const NO_RULE: ReadonlySet<string> = new Set();

function oxlintFileOf(context: RuleContext): { ctx: ImportContext | null; fire: ReadonlySet<string> } {
  const file = fileOf(context);
  const text = context.sourceCode.text;
  const known = oxlintFile;
  // The same file and text within one synchronous run of hooks: nothing on disk was asked anew.
  if (known !== undefined && known.file === file && known.text === text && known.observation === contexts.roots.currentObservation) return known;
  const located = contexts.locate(file, OXLINT_OBSERVATION);
  const ctx = located?.ctx ?? null;
  const fire = located === null ? NO_RULE : prefilterEnabled(context.settings) ? prefilter.firing(located.ctx, text, located.folder) : EVERY_RULE;
  oxlintFile = { file, text, observation: contexts.roots.currentObservation, ctx, fire };
  return oxlintFile;
}

/** The visitor of one rule over one file's import sites: judge each, report what the core found. */
function judging(rule: ImportRule, context: RuleContext, ctx: () => ImportContext): Visitor {
  const fixable = FIXABLE.has(rule.id);
  return siteVisitor((site) => {
    for (const finding of rule.judgeImport(site, ctx())) {
      const replacement = fixable ? finding.replaceSpecifier : undefined;
      context.report({
        node: finding.range,
        message: finding.message,
        fix: replacement === undefined ? undefined : (fixer: Fixer) => fixer.replaceText(site.specifierRange, quoted(context, site.specifierRange, replacement)),
      });
    }
  });
}

/** The new specifier in the quotes the old one used. */
function quoted(context: RuleContext, literal: Node, text: string): string {
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
      const ctx = contexts.of(fileOf(context), "task");
      return ctx === null ? {} : judging(rule, context, () => ctx);
    },
    createOnce(context) {
      let ctx: ImportContext | null = null;
      return {
        before() {
          const file = oxlintFileOf(context);
          ctx = file.ctx;
          return file.fire.has(rule.id);
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
