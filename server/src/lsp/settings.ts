/**
 * The `sanoma` settings, pulled with `workspace/configuration` for each company (scope: its root),
 * or pushed with `workspace/didChangeConfiguration` by a client that cannot be asked, and validated with zod: what a client sends is unknown input, and a bad value falls back to the
 * default with a message, never a crash. The schema matches `contributes.configuration` in the
 * extension's package.json (a test keeps them in step). A company's settings are the editor's laid
 * over the team's `.sanomarc.json` (`withShared`), read by the core as `sanoma-check` reads it.
 */
import { DiagnosticSeverity, type Diagnostic } from "vscode-languageserver/node";
import { z } from "zod";
import { RULE_IDS } from "../core/rules/index.ts";
import type { CheckOptions } from "../core/check.ts";
import { didYouMean } from "../core/text.ts";
import * as path from "node:path";
import { excludeFor, layer, leftOutWholeBy, personalBases, personalExclude, personalExcludeFor, SANOMARC_DOCS_URL, WHOLE_COMPANY, type Level, type SanomaRc, type SettingsProblem } from "../core/sanomarc.ts";

// (`warn` is `warning`, as `.sanomarc.json`, `--rule` and the TypeScript plugin read it.)
const Level = z.preprocess((v) => (v === "warn" ? "warning" : v), z.enum(["off", "error", "warning", "info", "hint"]));

export const SettingsSchema = z.object({
  rules: z.record(z.string(), Level).default({}),
  exclude: z.array(z.string()).default([]),
  companyRoots: z.array(z.string()).default([]),
  preview: z.object({ command: z.string().default("${sanoma} preview ${file}#${export}") }).default({}),
  boxes: z.object({
    isolation: z.enum(["auto", "process", "namespace", "container"]).default("auto"),
    image: z.string().default(""),
    memory: z.number().int().min(64).default(2048),
    processes: z.number().int().min(16).default(1024),
  }).default({}),
});
export type Settings = z.infer<typeof SettingsSchema>;

export const DEFAULT_SETTINGS: Settings = SettingsSchema.parse({});

/**
 * Parses settings from a client: each setting on its own, so one bad value falls back to its own
 * default (and is said) without taking the others with it; a rule given a bad level is left out
 * of `rules`, the other rules kept.
 */
export function parseSettings(raw: unknown): { settings: Settings; problems: string[] } {
  if (raw === null || raw === undefined) return { settings: DEFAULT_SETTINGS, problems: [] };
  if (typeof raw !== "object" || Array.isArray(raw)) return { settings: DEFAULT_SETTINGS, problems: ["sanoma: expected an object of settings"] };
  const problems: string[] = [];
  const given = raw as Record<string, unknown>;
  const settings = { ...DEFAULT_SETTINGS } as Record<string, unknown>;
  for (const [key, schema] of Object.entries(SettingsSchema.shape)) {
    if (given[key] === undefined) continue;
    if (key === "rules" && typeof given.rules === "object" && given.rules !== null && !Array.isArray(given.rules)) {
      const rules: Record<string, z.infer<typeof Level>> = {};
      for (const [id, level] of Object.entries(given.rules as Record<string, unknown>)) {
        const parsed = Level.safeParse(level);
        if (!(RULE_IDS as readonly string[]).includes(id)) {
          const guess = didYouMean(id, RULE_IDS);
          problems.push(`sanoma.rules: no rule named "${id}"${guess ? `; did you mean "${guess}"?` : ""}`);
        }
        else if (!parsed.success) problems.push(`sanoma.rules.${id}: ${parsed.error.issues[0].message}`);
        else rules[id] = parsed.data;
      }
      settings.rules = rules;
      continue;
    }
    const parsed = (schema as z.ZodTypeAny).safeParse(given[key]);
    if (!parsed.success) problems.push(...parsed.error.issues.map((i) => `sanoma.${[key, ...i.path].join(".")}: ${i.message}`));
    else if (key === "exclude") {
      // Read as `--exclude` reads its folders (`workflows/` is `workflows`); one that names none is said and left out.
      const folders: string[] = [];
      for (const value of parsed.data as string[]) {
        const read = personalExclude(value);
        if ("error" in read) problems.push(`sanoma.exclude: ${read.error}`);
        else folders.push(read.folder);
      }
      settings.exclude = folders;
    } else settings[key] = parsed.data;
  }
  return { settings: settings as Settings, problems };
}

export function checkOptions(s: Settings): CheckOptions {
  return { rules: s.rules as CheckOptions["rules"] };
}

/**
 * A company's settings: the editor's laid over the team's `.sanomarc.json` (the editor's levels
 * win, its folders add). The editor's folders are read from each company root around this one and
 * from a workspace folder (`folders`) that holds it and lies in no company (`personalBases`): a
 * company whose root lies in a folder they leave out (a fixture company under
 * `sanoma.exclude: ["test/fixtures"]`, or `["fixtures"]`) is left out whole, as the search for
 * companies leaves it out at a start (and `sanoma-check --exclude`): a setting changed later left
 * it judged. `isCompanyRoot`: whether a folder holds a `sanoma.config.ts`.
 */
export function withShared(own: Settings, rc: SanomaRc, root: string, folders: readonly string[] = [], isCompanyRoot: (dir: string) => boolean = () => false): CompanySettings {
  const mine = own.exclude.length > 0 ? personalExcludeFor(own.exclude, root, personalBases(root, folders, isCompanyRoot)) : { exclude: [], whole: undefined };
  const merged = layer({ rules: rc.settings.rules, exclude: excludeFor(rc.file, rc.settings.exclude, root) }, { rules: own.rules as Record<string, Level>, exclude: mine.exclude });
  const byFile = leftOutWholeBy(rc.file, rc.settings.exclude, root);
  const leftOut = byFile !== undefined ? { file: rc.file, exclude: byFile } : mine.whole !== undefined ? { file: undefined, exclude: mine.whole } : undefined;
  const fromFile = excludeFor(rc.file, rc.settings.exclude, root).filter((e) => e !== WHOLE_COMPANY);
  const excludedBy = [...(fromFile.length > 0 ? [{ file: rc.file, folders: fromFile }] : []), ...(mine.exclude.length > 0 ? [{ file: undefined, folders: mine.exclude }] : [])];
  return { ...own, rules: merged.rules, exclude: merged.exclude, ...(leftOut ? { leftOut } : {}), ...(excludedBy.length > 0 ? { excludedBy } : {}) };
}

/** What leaves a company out whole: a `.sanomarc.json`'s entry (`file`, its path) or one of the editor's `sanoma.exclude` (`file` undefined), as written. */
export interface LeftOutWhole { file: string | undefined; exclude: string }

/** A company's settings (`withShared`), and what leaves it out whole, if something does: then none of its files is judged. */
export type CompanySettings = Settings & { leftOut?: LeftOutWhole; excludedBy?: ExcludedBy[] };

/** Folders a company's walk leaves out (from its root), and what says so: a `.sanomarc.json` (`file`, its path) or the editor's `sanoma.exclude` (`file` undefined). */
export interface ExcludedBy { file: string | undefined; folders: string[] }

/** The URL of the docs' section on companies left out whole. */
export const LEFT_OUT_DOCS_URL = `${SANOMARC_DOCS_URL}#a-company-left-out-whole`;

/**
 * The note on an open file of a company left out whole (`sanoma.exclude`, `.sanomarc.json`): one
 * Information diagnostic at its start, so that a file that shows nothing is not taken for a clean
 * one, in any LSP client (Neovim's too). Said as `sanoma-check` says it (`left out whole by …`),
 * the `.sanomarc.json`'s path from the company root, and that file as related information.
 */
export function leftOutDiagnostic(company: { root: string; name: string }, leftOut: LeftOutWhole, uriOf: (file: string) => string): Diagnostic {
  return leftOutNote(LEFT_OUT_DOCS_URL, `This file's company (${company.name}) is left out whole by ${leftOutBy(company.root, leftOut)}: Sanoma judges none of its files, this one included`,
    leftOut.file, `the exclude ${JSON.stringify(leftOut.exclude)} that leaves it out`, uriOf);
}

/** What leaves a company out whole, as the note and the companies' list say it: `../.sanomarc.json's exclude "x"`, `sanoma.exclude "x"`. */
export function leftOutBy(root: string, leftOut: LeftOutWhole): string {
  return `${excludeOwner(root, leftOut.file)} ${JSON.stringify(leftOut.exclude)}`;
}

/**
 * The note on an open file that lies in a folder its company's walk leaves out (`folder`, from the
 * company root, by a `.sanomarc.json` or `sanoma.exclude`): as a company left out whole, such a
 * file showed nothing, as a clean file does.
 */
export function excludedFolderDiagnostic(company: { root: string; name: string }, by: ExcludedBy, folder: string, uriOf: (file: string) => string): Diagnostic {
  return leftOutNote(EXCLUDED_FOLDER_DOCS_URL, `This file lies in ${JSON.stringify(folder)}, a folder of ${company.name} that ${excludeOwner(company.root, by.file)} leaves out: Sanoma judges none of the files there, this one included`,
    by.file, `the exclude that leaves ${JSON.stringify(folder)} out`, uriOf);
}

/** Who says what to leave out: the editor's `sanoma.exclude` (`file` undefined), or a `.sanomarc.json`'s `exclude`, its path from the company root. */
function excludeOwner(root: string, file: string | undefined): string {
  return file === undefined ? "sanoma.exclude" : `${path.relative(root, file).split(path.sep).join("/")}'s exclude`;
}

/** A `left-out` note: an Information diagnostic at the file's start, the `.sanomarc.json` that says so (if one does) as related information. */
function leftOutNote(href: string, message: string, rcFile: string | undefined, relatedMessage: string, uriOf: (file: string) => string): Diagnostic {
  const at = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const d: Diagnostic = { range: at, severity: DiagnosticSeverity.Information, source: "sanoma", code: "left-out", codeDescription: { href }, message };
  if (rcFile !== undefined) d.relatedInformation = [{ location: { uri: uriOf(rcFile), range: at }, message: relatedMessage }];
  return d;
}

/** The URL of the docs' section on folders left out. */
export const EXCLUDED_FOLDER_DOCS_URL = `${SANOMARC_DOCS_URL}#a-file-in-a-folder-left-out`;

/** A problem of a `.sanomarc.json`, as a diagnostic in that file. */
export function settingsDiagnostic(p: SettingsProblem): Diagnostic {
  return {
    range: p.range,
    severity: p.severity === "error" ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    source: "sanoma",
    code: "settings",
    codeDescription: { href: SANOMARC_DOCS_URL },
    message: p.message,
  };
}
