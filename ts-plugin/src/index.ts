/**
 * `@sanoma-ai/typescript-plugin`: a tsserver plugin (SPEC B7). tsserver calls this factory with its
 * own `typescript` and calls `create` once per project; the language service it returns answers
 * as TypeScript's does, with the company's problems, op ids, fixes and navigation added.
 *
 * Never harmful:
 * - every hook asks TypeScript first and adds to its answer; anything of ours that throws is
 *   logged in tsserver's log and leaves TypeScript's answer as it was (a throw of TypeScript's own
 *   is its answer, passed on untouched);
 * - `create` reads nothing; a request about a file under no `sanoma.config.ts` (walking up, as
 *   tsserver's host sees the disk) is answered by TypeScript alone, and the rest of the plugin
 *   (the core, `plugin.ts`) is loaded on the first request about a file of a company;
 * - the `typescript` passed in is the one used (`host-typescript.ts`), never a copy of our own;
 * - an older TypeScript than the core reads (5.3) gets the language service untouched.
 * `SANOMA_TS_PLUGIN_FAIL=<hook>[,<hook>]` (or `*`) makes the named hooks throw once their answer is
 * made: the tests hold TypeScript's answers to be intact then.
 */
import type * as TS from "typescript";
import { useHostTypescript } from "./host-typescript.ts";
import type { Plugin } from "./plugin.ts";

const CONFIG_FILE = "sanoma.config.ts";

/**
 * The language service a service of ours wraps. tsserver enables a project's plugins again when
 * its tsconfig.json changes, and hands `create` the service it has, ours: wrapped again, every
 * hook added its answer to one that had it already (every problem twice, a lock key renamed
 * twice). The service ours wraps is wrapped instead.
 */
const WRAPS = Symbol.for("sanoma.typescript-plugin.wraps");

/**
 * Lets go of what a service of ours holds (its project's share of the companies). tsserver calls
 * a project's `dispose` when it closes the project, but never that of a service it replaces when
 * it enables the plugins again: the service wrapping ours instead lets go of it.
 */
const RELEASE = Symbol.for("sanoma.typescript-plugin.release");

/**
 * The factory. `defaults`: options laid under the plugin's entry and what an editor sends (the copy
 * of the plugin in the VS Code extension passes `languageServer: true`: see
 * scripts/vsix-ts-plugin.mjs).
 */
function init(modules: { typescript: typeof TS }, defaults: Record<string, unknown> = {}): TS.server.PluginModule {
  const ts = modules.typescript;
  let configure: ((raw: unknown) => void) | undefined;
  let preload: (() => void) | undefined;
  return {
    create(info) {
      const log = (m: string) => { try { info.project.projectService.logger.info(`[sanoma] ${m}`); } catch { /* no log */ } };
      try {
        const [major, minor] = ts.versionMajorMinor.split(".").map(Number);
        if (major < 5 || (major === 5 && minor < 3)) {
          log(`needs TypeScript 5.3 or later; this is ${ts.version}: TypeScript answers alone`);
          return info.languageService;
        }
        useHostTypescript(ts);
        const wrapped = wrap(ts, info, defaults, log);
        configure = wrapped.configure;
        preload = wrapped.preload;
        return wrapped.service;
      } catch (e) {
        log(`could not start, TypeScript answers alone: ${(e as Error)?.stack ?? e}`);
        return info.languageService;
      }
    },
    onConfigurationChanged(config) {
      configure?.(config);
    },
    // Called by tsserver each time it has built the project's program: the moment to read the
    // company of a file just opened, while the editor waits for the project anyway.
    getExternalFiles() {
      preload?.();
      return [];
    },
  };
}

function wrap(ts: typeof TS, info: TS.server.PluginCreateInfo, defaults: Record<string, unknown>, log: (m: string) => void): { service: TS.LanguageService; configure(raw: unknown): void; preload(): void } {
  const given = info.languageService as TS.LanguageService & { [WRAPS]?: TS.LanguageService; [RELEASE]?: () => void };
  const ls = given[WRAPS] ?? given;
  // (Let go once this service has taken the companies in its turn: a company read by this project
  // alone is not forgotten and read again whole.)
  let previous = given[RELEASE];
  const releasePrevious = () => { const p = previous; previous = undefined; p?.(); };
  const host = info.serverHost;
  const failing = new Set((process.env.SANOMA_TS_PLUGIN_FAIL ?? "").split(",").map((s) => s.trim()).filter(Boolean));
  let config: Record<string, unknown> = { ...defaults, ...info.config };
  let plugin: Plugin | undefined;
  // With a verbose log, each hook's own time is logged too (the bench reads it).
  let verbose = false;
  try { verbose = info.project.projectService.logger.hasLevel(ts.server.LogLevel.verbose); } catch { /* no log */ }
  const load = (): Plugin => {
    if (!plugin) {
      const started = performance.now();
      // (A require inside a function: esbuild bundles the module to be run here, on first use.)
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { createPlugin } = require("./plugin.ts") as typeof import("./plugin.ts");
      plugin = createPlugin(ts, info, config, log);
      log(`loaded in ${Math.round(performance.now() - started)} ms`);
      releasePrevious();
    }
    return plugin;
  };

  /** Whether a file lies in a company: a `sanoma.config.ts` in its folder or one above, never across a `node_modules`. */
  const inCompany = (fileName: string): boolean => {
    if (!fileName) return false;
    let dir = fileName.replace(/\\/g, "/");
    for (;;) {
      const cut = dir.lastIndexOf("/");
      if (cut <= 0) return cut === 0 && host.fileExists(`/${CONFIG_FILE}`);
      dir = dir.slice(0, cut);
      if (dir.endsWith("/node_modules") || dir.includes("/node_modules/")) return false;
      if (host.fileExists(`${dir}/${CONFIG_FILE}`)) return true;
    }
  };

  /**
   * A hook: TypeScript's answer first, then ours laid over it when the file is a company's. A throw
   * of ours (or one injected once ours is made) is logged and TypeScript's answer returned.
   */
  function hook<A extends unknown[], R>(name: string, original: (...args: A) => R, applies: (...args: A) => boolean, ours: (p: Plugin, prior: R, ...args: A) => R): (...args: A) => R {
    return (...args: A): R => {
      const prior = original.apply(ls, args);
      try {
        if (!applies(...args)) return prior;
        const started = verbose ? performance.now() : 0;
        const answer = ours(load(), prior, ...args);
        if (verbose) log(`${name} took ${(performance.now() - started).toFixed(2)} ms`);
        if (failing.has(name) || failing.has("*")) throw new Error(`a failure injected by SANOMA_TS_PLUGIN_FAIL in ${name}`);
        return answer;
      } catch (e) {
        log(`${name} failed; TypeScript's answer is left as it was: ${(e as Error)?.stack ?? e}`);
        return prior;
      }
    };
  }

  const service = Object.create(null) as TS.LanguageService & { [WRAPS]?: TS.LanguageService };
  Object.defineProperty(service, WRAPS, { value: ls });
  /** The project closed (or this service was replaced): its share of the companies is let go; the last project's going closes them and their watches. */
  const release = () => {
    try {
      releasePrevious();
      plugin?.dispose();
      plugin = undefined;
    } catch (e) {
      log(`letting go failed: ${(e as Error)?.stack ?? e}`);
    }
  };
  Object.defineProperty(service, RELEASE, { value: release });
  for (const k of Object.keys(ls) as (keyof TS.LanguageService)[]) {
    const f = ls[k];
    if (typeof f === "function") (service as unknown as Record<string, unknown>)[k] = (...args: unknown[]) => (f as (...a: unknown[]) => unknown).apply(ls, args);
  }
  service.dispose = () => { release(); ls.dispose(); };
  service.getSemanticDiagnostics = hook("getSemanticDiagnostics", ls.getSemanticDiagnostics, inCompany, (p, prior, f) => p.semanticDiagnostics(f, prior));
  service.getSupportedCodeFixes = hook("getSupportedCodeFixes", ls.getSupportedCodeFixes, (f) => f === undefined || inCompany(f), (p, prior) => p.supportedCodeFixes(prior));
  service.getCodeFixesAtPosition = hook("getCodeFixesAtPosition", ls.getCodeFixesAtPosition, inCompany, (p, prior, f, start, end, codes) => p.codeFixes(f, start, end, codes, prior));
  service.getCompletionsAtPosition = hook("getCompletionsAtPosition", ls.getCompletionsAtPosition, inCompany, (p, prior, f, pos) => p.completions(f, pos, prior));
  service.getDefinitionAndBoundSpan = hook("getDefinitionAndBoundSpan", ls.getDefinitionAndBoundSpan, inCompany, (p, prior, f, pos) => p.definitionAndBoundSpan(f, pos, prior));
  // (With `stopAtAlias`, tsserver asks where a rename starts from: TypeScript's answer alone.)
  // (tsserver passes two more arguments than the declared ones: searchOtherFilesOnly, stopAtAlias.)
  const definitionAt = ls.getDefinitionAtPosition as (f: string, pos: number, searchOtherFilesOnly?: boolean, stopAtAlias?: boolean) => readonly TS.DefinitionInfo[] | undefined;
  service.getDefinitionAtPosition = hook("getDefinitionAtPosition", definitionAt, (f, _pos, _other, stopAtAlias) => !stopAtAlias && inCompany(f), (p, prior, f, pos) => p.definitionAtPosition(f, pos, prior)) as TS.LanguageService["getDefinitionAtPosition"];
  service.getQuickInfoAtPosition = hook("getQuickInfoAtPosition", ls.getQuickInfoAtPosition, inCompany, (p, prior, f, pos) => p.quickInfo(f, pos, prior));
  service.findRenameLocations = hook("findRenameLocations", ls.findRenameLocations as (...a: unknown[]) => readonly TS.RenameLocation[] | undefined,
    (f) => typeof f === "string" && inCompany(f), (p, prior) => p.renameLocations(prior)) as TS.LanguageService["findRenameLocations"];
  // Details of an op id offered by us: ours (TypeScript knows nothing of it); any other entry's: TypeScript's.
  service.getCompletionEntryDetails = (fileName, position, entryName, formatOptions, source, preferences, data) => {
    if (!source && entryName.startsWith("data.") && inCompany(fileName)) {
      try {
        const ours = load().completionDetails(fileName, position, entryName);
        if (ours && !(failing.has("getCompletionEntryDetails") || failing.has("*"))) return ours;
      } catch (e) {
        log(`getCompletionEntryDetails failed; TypeScript answers: ${(e as Error)?.stack ?? e}`);
      }
    }
    return ls.getCompletionEntryDetails(fileName, position, entryName, formatOptions, source, preferences, data);
  };

  /** Open files of the project already looked at for a company to read ahead. */
  const considered = new Set<string>();

  return {
    service,
    /**
     * Once the project's program is built, the company of each file newly opened in it is read
     * whole and checked, in a semantic server that reports problems: the first diagnostics of the
     * file then cost what an edit's do (see docs/decisions.md). A file of no company costs the
     * walk up for a `sanoma.config.ts`, once.
     */
    preload() {
      try {
        const ps = info.project.projectService;
        if (config.languageServer === true || (ps.serverMode !== undefined && ps.serverMode !== ts.LanguageServiceMode.Semantic)) return;
        for (const p of ps.openFiles.keys()) {
          const script = ps.getScriptInfoForPath(p);
          if (!script || considered.has(script.fileName) || !info.project.containsScriptInfo(script)) continue;
          considered.add(script.fileName);
          if (inCompany(script.fileName)) load().preload(script.fileName);
        }
        for (const f of considered) if (!ps.openFiles.has(info.project.projectService.toPath(f))) considered.delete(f);
      } catch (e) {
        log(`reading ahead failed: ${(e as Error)?.stack ?? e}`);
      }
    },
    configure(raw) {
      try {
        const before = config.languageServer === true;
        config = { ...config, ...(typeof raw === "object" && raw !== null ? raw : {}) };
        plugin?.configure(raw);
        // The editor asks for every open file's diagnostics again (tsserver tells it the projects changed).
        if (before !== (config.languageServer === true)) info.project.refreshDiagnostics();
      } catch (e) {
        log(`configuring failed: ${(e as Error)?.stack ?? e}`);
      }
    },
  };
}

export = init;
