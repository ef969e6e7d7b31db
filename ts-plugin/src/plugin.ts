/**
 * The plugin for one tsserver project: its options (the `compilerOptions.plugins` entry, and what
 * an editor sends through `configurePlugin`), and the features of `features.ts` over the companies
 * that every project of the process shares. Loaded by `index.ts` on the first request about a
 * file of a company, never before.
 */
import type * as TS from "typescript";
import type { CheckOptions, SeveritySetting } from "../../server/src/core/check.ts";
import { RULE_IDS } from "../../server/src/core/rules/index.ts";
import { personalExclude } from "../../server/src/core/sanomarc.ts";
import { didYouMean } from "../../server/src/core/text.ts";
import type { RuleId } from "../../server/src/core/types.ts";
import { isWithin } from "../../server/src/core/model.ts";
import { Companies, toNative } from "./companies.ts";
import * as features from "./features.ts";

/**
 * The companies of a tsserver process, one set for each value of the `exclude` option its projects
 * have, with the folder its paths are read from besides the company roots (`projectFolder`; most
 * projects have one set: every project reads the companies through it). Two projects that leave
 * different folders out read a company each their way, as two `sanoma-check --exclude` runs do;
 * with one set, the last project configured chose for all.
 */
const companiesByExclude = new Map<string, { companies: Companies; projects: number }>();

/** The key of a set: the folders, and the project's folder only where there are any (without them, no folder changes a thing). */
const keyOf = (exclude: readonly string[], folder: string | undefined): string => JSON.stringify(exclude.length > 0 ? [exclude, folder ?? null] : [exclude]);

function companiesFor(exclude: string[], folder: string | undefined, host: ConstructorParameters<typeof Companies>[0]): Companies {
  const key = keyOf(exclude, folder);
  let entry = companiesByExclude.get(key);
  if (!entry) {
    const companies = new Companies(host);
    companies.setExclude(exclude, folder === undefined ? [] : [folder]);
    companiesByExclude.set(key, (entry = { companies, projects: 0 }));
  }
  entry.projects++;
  return entry.companies;
}

/** A project no longer reads through the set for `key`: a set no project reads through is closed. */
function releaseCompanies(key: string): void {
  const entry = companiesByExclude.get(key);
  if (!entry || --entry.projects > 0) return;
  companiesByExclude.delete(key);
  entry.companies.close();
}

/**
 * The folder a project stands for, from which the `exclude` option's paths are read too where it
 * lies in no company (`personalBases`), as `sanoma-check` reads `--exclude` from a folder it is
 * given and the language server reads `sanoma.exclude` from a workspace folder: a tsconfig.json's
 * folder (an external project's, its file's); for the files of no tsconfig, the root folder the
 * editor gave when it opened them (`projectRootPath`: its workspace folder). None for an inferred
 * project without one: its folder is then a file's own or tsserver's working folder, neither of
 * them a folder the user chose.
 */
function projectFolder(ts: typeof TS, project: TS.server.Project): string | undefined {
  if (project.projectKind === ts.server.ProjectKind.Inferred && (project as TS.server.InferredProject).projectRootPath === undefined) return undefined;
  const dir = project.getCurrentDirectory();
  return dir ? toNative(dir) : undefined;
}

export interface Options {
  /**
   * A Sanoma language server runs beside this tsserver (the VS Code extension says so): it reports
   * the problems and answers completion, definitions and hovers, so the plugin adds none of
   * them (each would show twice), and renames only. Default false.
   */
  languageServer: boolean;
  /** Severities by rule id, as the `sanoma.rules` setting: `off`, `error`, `warning` (`warn`), `info`, `hint`. */
  rules: Partial<Record<RuleId, SeveritySetting>>;
  /** Folders a company's walk leaves out, as the `sanoma.exclude` setting. */
  exclude: string[];
}

const LEVELS = new Set(["off", "error", "warning", "info", "hint"]);

/** The options in a plugin entry or a `configurePlugin` message; what is not understood is said in the log and left out. */
export function readOptions(raw: unknown, log: (m: string) => void): Partial<Options> {
  const out: Partial<Options> = {};
  if (typeof raw !== "object" || raw === null) return out;
  const o = raw as Record<string, unknown>;
  if ("languageServer" in o) {
    if (typeof o.languageServer === "boolean") out.languageServer = o.languageServer;
    else log(`the option languageServer takes true or false, not ${JSON.stringify(o.languageServer)}`);
  }
  if ("rules" in o) {
    const rules: Options["rules"] = {};
    if (typeof o.rules === "object" && o.rules !== null) {
      for (const [id, level] of Object.entries(o.rules)) {
        const l = level === "warn" ? "warning" : level;
        if (!(RULE_IDS as readonly string[]).includes(id)) log(`the option rules names no rule ${JSON.stringify(id)}`);
        else if (typeof l !== "string" || !LEVELS.has(l)) log(`the option rules.${id} takes off, error, warning, info or hint, not ${JSON.stringify(level)}`);
        else rules[id as RuleId] = l as SeveritySetting;
      }
    } else log("the option rules takes an object of rule ids and levels");
    out.rules = rules;
  }
  if ("exclude" in o) {
    if (Array.isArray(o.exclude) && o.exclude.every((x) => typeof x === "string")) {
      // Read as sanoma.exclude and --exclude read theirs (`generated/` is `generated`); one that names no folder is said.
      out.exclude = [];
      for (const value of o.exclude as string[]) {
        const read = personalExclude(value);
        if ("error" in read) log(`the option exclude: ${read.error}`);
        else out.exclude.push(read.folder);
      }
    } else log("the option exclude takes an array of folder names or paths");
  }
  // (`name` is the entry's own: the plugin's package; `global` is tsserver's, which adds it to a
  // plugin loaded globally: VS Code's extension, `--globalPlugins`, typescript-language-server.)
  for (const key of Object.keys(o)) {
    if (key === "name" || key === "global" || (OPTION_NAMES as readonly string[]).includes(key)) continue;
    const near = didYouMean(key, OPTION_NAMES);
    log(`the option ${JSON.stringify(key)} is none of this plugin's (${OPTION_NAMES.join(", ")})${near ? `; did you mean ${JSON.stringify(near)}?` : ""}: left out`);
  }
  return out;
}

const OPTION_NAMES = ["languageServer", "rules", "exclude"] as const;

export interface Plugin {
  configure(raw: unknown): void;
  /** The project closed: its share of the companies is let go (the last project's going closes them, their watches with them). */
  dispose(): void;
  /** Reads a file's company whole and checks it, ahead of its first diagnostics (where this server reports them). */
  preload(fileName: string): void;
  semanticDiagnostics(fileName: string, prior: TS.Diagnostic[]): TS.Diagnostic[];
  supportedCodeFixes(prior: readonly string[]): readonly string[];
  codeFixes(fileName: string, start: number, end: number, errorCodes: readonly number[], prior: readonly TS.CodeFixAction[]): readonly TS.CodeFixAction[];
  completions(fileName: string, position: number, prior: TS.WithMetadata<TS.CompletionInfo> | undefined): TS.WithMetadata<TS.CompletionInfo> | undefined;
  completionDetails(fileName: string, position: number, name: string): TS.CompletionEntryDetails | undefined;
  definitionAndBoundSpan(fileName: string, position: number, prior: TS.DefinitionInfoAndBoundSpan | undefined): TS.DefinitionInfoAndBoundSpan | undefined;
  definitionAtPosition(fileName: string, position: number, prior: readonly TS.DefinitionInfo[] | undefined): readonly TS.DefinitionInfo[] | undefined;
  quickInfo(fileName: string, position: number, prior: TS.QuickInfo | undefined): TS.QuickInfo | undefined;
  renameLocations(prior: readonly TS.RenameLocation[] | undefined): readonly TS.RenameLocation[] | undefined;
}

/** `config`: the plugin's entry with what the editor has sent since, laid over it. */
export function createPlugin(ts: typeof TS, info: TS.server.PluginCreateInfo, config: unknown, log: (m: string) => void): Plugin {
  const ps = info.project.projectService;
  const host = { serverHost: info.serverHost, projectService: ps, log };
  const semantic = ps.serverMode === undefined || ps.serverMode === ts.LanguageServiceMode.Semantic;
  let options: Options = { languageServer: false, rules: {}, exclude: [] };
  /** The key of the set of companies this project reads through (`keyOf`), once it has one. */
  let readsThrough: string | undefined;
  const folder = projectFolder(ts, info.project);
  const cx = { ts, info, check: {}, reports: false, navigates: false } as features.Context;
  /**
   * What the watchers saw change feeds a company with a file open in this project, whose problems
   * it reports: tsserver is told the projects changed (`refreshDiagnostics`: the event
   * `projectsUpdatedInBackground`, about every open file), so that an editor asks for their
   * problems again without waiting for an edit.
   */
  const changed = (roots: ReadonlySet<string>): boolean => {
    if (!cx.reports) return false;
    for (const p of ps.openFiles.keys()) {
      const script = ps.getScriptInfoForPath(p);
      if (!script || !info.project.containsScriptInfo(script)) continue;
      const file = toNative(script.fileName);
      for (const root of roots) {
        if (!isWithin(root, file)) continue;
        log(`a change on disk feeds the company ${root}: tsserver is told the projects changed`);
        info.project.refreshDiagnostics();
        return true;
      }
    }
    return false;
  };
  let unlisten: (() => void) | undefined;
  const configure = (raw: unknown) => {
    options = { ...options, ...readOptions(raw, log) };
    cx.check = { rules: options.rules } satisfies CheckOptions;
    cx.reports = semantic && !options.languageServer;
    cx.navigates = !options.languageServer;
    const key = keyOf(options.exclude, folder);
    if (readsThrough !== key) {
      // (Taken before the old set is let go: one this project alone read through is not closed and made again.)
      const next = companiesFor(options.exclude, folder, host);
      if (readsThrough !== undefined) releaseCompanies(readsThrough);
      readsThrough = key;
      cx.companies = next;
      unlisten?.();
      unlisten = next.onChange(changed);
    }
  };
  configure(config);
  log(`${semantic ? "semantic" : "partial-semantic"} server, project ${info.project.getProjectName()}: ${cx.reports ? "reports problems" : "reports no problems"}${options.languageServer ? " (a Sanoma language server reports them)" : ""}`);
  return {
    configure(raw) {
      configure(raw);
      log(`configured: languageServer ${options.languageServer}; ${cx.reports ? "reports problems" : "reports no problems"}`);
    },
    dispose() {
      if (readsThrough === undefined) return;
      unlisten?.();
      unlisten = undefined;
      releaseCompanies(readsThrough);
      readsThrough = undefined;
      log(`project ${info.project.getProjectName()}: a service let go of its companies (the project closed, or tsserver made the plugin again)`);
    },
    preload: (f) => features.preload(cx, f),
    semanticDiagnostics: (f, prior) => features.semanticDiagnostics(cx, f, prior),
    supportedCodeFixes: (prior) => features.supportedCodeFixes(cx, prior),
    codeFixes: (f, start, end, codes, prior) => features.codeFixes(cx, f, start, end, codes, prior),
    completions: (f, pos, prior) => features.completions(cx, f, pos, prior),
    completionDetails: (f, pos, name) => features.completionDetails(cx, f, pos, name),
    definitionAndBoundSpan: (f, pos, prior) => features.definitionAndBoundSpan(cx, f, pos, prior),
    definitionAtPosition: (f, pos, prior) => features.definitionAtPosition(cx, f, pos, prior),
    quickInfo: (f, pos, prior) => features.quickInfo(cx, f, pos, prior),
    renameLocations: (prior) => features.renameLocations(cx, prior),
  };
}
