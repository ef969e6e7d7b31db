/**
 * What the plugin adds to each language service answer, from the core alone (the same rules,
 * positions and texts as the language server's and `sanoma-check`'s): a file's problems among its
 * semantic diagnostics, op ids in TypeScript's own completion list, the rules' quick fixes,
 * definitions (op id → collection, declaration → lock binding, `secret("NAME")` → its binding),
 * a secret's binding in quick info, and a declaration's lock binding key among a rename's
 * locations. Every function takes TypeScript's own answer (`prior`) and returns it with ours
 * added; none changes `prior`. `index.ts` guards each of them.
 */
import path from "node:path";
import type * as TS from "typescript";
import type { CheckOptions } from "../../server/src/core/check.ts";
import { LOCK_FILE } from "../../server/src/core/company.ts";
import { opIdsAt, isOpIdStart } from "../../server/src/core/complete.ts";
import { cursorContext } from "../../server/src/core/cursor.ts";
import { secretMarkdown } from "../../server/src/core/describe.ts";
import { declarationsOf } from "../../server/src/core/analysis.ts";
import { secretBindingLocation, targetAt, type Located } from "../../server/src/core/target.ts";
import { LineMap } from "../../server/src/core/text.ts";
import type { Problem, Range, Severity } from "../../server/src/core/types.ts";
import { OUR_CODES, RULE_CODES } from "./codes.ts";
import { Companies, toNative, toTs, type Mode } from "./companies.ts";


export interface Context {
  ts: typeof TS;
  info: TS.server.PluginCreateInfo;
  companies: Companies;
  /** Severities by rule (the plugin's `rules` option). */
  check: CheckOptions;
  /** Whether this server reports diagnostics and fixes: a semantic server, with no Sanoma language server beside it. */
  reports: boolean;
  /** Whether this server adds completion, definitions and quick info: none when a Sanoma language server gives them. */
  navigates: boolean;
}

/** How much of a company a request reads: all of it where this server reports problems, else what navigation needs. */
function modeOf(cx: Context): Mode {
  return cx.reports ? "full" : "slim";
}

function sourceFile(cx: Context, fileName: string): TS.SourceFile | undefined {
  return cx.info.languageService.getProgram()?.getSourceFile(fileName);
}

const CATEGORY: Record<Severity, keyof typeof TS.DiagnosticCategory> = { error: "Error", warning: "Warning", info: "Message", hint: "Suggestion" };

/** Offsets of a core range in a text (clamped to it: a range never reaches past the text it is in). */
function span(lines: LineMap, text: string, r: Range): { start: number; length: number } {
  const start = Math.min(text.length, Math.max(0, lines.offset(r.start)));
  const end = Math.min(text.length, Math.max(start, lines.offset(r.end)));
  return { start, length: end - start };
}

// ---- Diagnostics --------------------------------------------------------------------------------

/** A file's company read whole and checked, ahead of the file's first diagnostics. */
export function preload(cx: Context, fileName: string): void {
  if (!cx.reports) return;
  const started = performance.now();
  const problems = problemsOf(cx, fileName);
  cx.companies.log(`read ahead for ${fileName}: ${problems?.length ?? 0} problems there, in ${Math.round(performance.now() - started)} ms`);
}

/** The file's Sanoma problems, after TypeScript's own, for a file of the program only. */
export function semanticDiagnostics(cx: Context, fileName: string, prior: TS.Diagnostic[]): TS.Diagnostic[] {
  if (!cx.reports) return prior;
  const sf = sourceFile(cx, fileName);
  if (!sf) return prior;
  const problems = problemsOf(cx, fileName);
  if (!problems?.length) return prior;
  const lines = new LineMap(sf.text);
  const out = prior.slice();
  for (const p of problems) out.push(toDiagnostic(cx, p, sf, lines));
  return out;
}

function problemsOf(cx: Context, fileName: string): readonly Problem[] | undefined {
  const file = toNative(fileName);
  const company = cx.companies.companyFor(file, "full");
  if (!company) return undefined;
  return cx.companies.check(company.root, cx.check).problemsByFile.get(file);
}

function toDiagnostic(cx: Context, p: Problem, sf: TS.SourceFile, lines: LineMap): TS.Diagnostic {
  const { ts } = cx;
  const code = RULE_CODES[p.rule];
  const d: TS.Diagnostic = { file: sf, ...span(lines, sf.text, p.range), messageText: p.message, category: ts.DiagnosticCategory[CATEGORY[p.severity]], code, source: "sanoma" };
  if (p.tags?.includes("unnecessary")) d.reportsUnnecessary = true;
  if (p.tags?.includes("deprecated")) d.reportsDeprecated = true;
  const related: TS.DiagnosticRelatedInformation[] = [];
  for (const r of p.related ?? []) {
    const other = textOf(cx, r.file);
    if (other === undefined) continue;
    const file = toNative(sf.fileName) === r.file ? sf : ({ fileName: toTs(r.file), text: other } as unknown as TS.SourceFile);
    related.push({ file, ...span(file === sf ? lines : new LineMap(other), other, r.range), messageText: r.message, category: ts.DiagnosticCategory.Message, code });
  }
  if (related.length) d.relatedInformation = related;
  return d;
}

/** A file's text as tsserver holds it (a file of the program, or any it has a script info of), else the disk's. */
function textOf(cx: Context, file: string): string | undefined {
  const sf = sourceFile(cx, toTs(file));
  if (sf) return sf.text;
  const info = cx.info.project.projectService.getScriptInfo(toTs(file));
  if (info) { const s = info.getSnapshot(); return s.getText(0, s.getLength()); }
  return cx.companies.ws.fs.readFile(file);
}

// ---- Quick fixes --------------------------------------------------------------------------------

export function supportedCodeFixes(cx: Context, prior: readonly string[]): readonly string[] {
  if (!cx.reports) return prior;
  return [...prior, ...[...OUR_CODES].map(String)];
}

/** The fixes the rules attached to the problems asked about (by code, overlapping the range). */
export function codeFixes(cx: Context, fileName: string, start: number, end: number, errorCodes: readonly number[], prior: readonly TS.CodeFixAction[]): readonly TS.CodeFixAction[] {
  if (!cx.reports || !errorCodes.some((c) => OUR_CODES.has(c))) return prior;
  const sf = sourceFile(cx, fileName);
  if (!sf) return prior;
  const problems = problemsOf(cx, fileName) ?? [];
  const lines = new LineMap(sf.text);
  const out: TS.CodeFixAction[] = [];
  for (const p of problems) {
    if (!p.fixes?.length || !errorCodes.includes(RULE_CODES[p.rule])) continue;
    const at = span(lines, sf.text, p.range);
    if (at.start > end || at.start + at.length < start) continue;
    for (const fix of p.fixes) {
      const byFile = new Map<string, TS.TextChange[]>();
      for (const e of fix.edits) {
        const text = e.file === toNative(fileName) ? sf.text : ensureScriptInfo(cx, e.file);
        if (text === undefined) continue;
        const list = byFile.get(e.file) ?? [];
        list.push({ span: span(e.file === toNative(fileName) ? lines : new LineMap(text), text, e.range), newText: e.newText });
        byFile.set(e.file, list);
      }
      if (byFile.size === 0) continue;
      out.push({ fixName: `sanoma/${p.rule}`, description: fix.title, changes: [...byFile].map(([file, textChanges]) => ({ fileName: toTs(file), textChanges })) });
    }
  }
  return out.length ? [...prior, ...out] : prior;
}

/**
 * Makes sure tsserver holds a script info of a file outside the program (the lockfile) that an
 * answer points into: its session converts offsets through it, and fails without one. Returns its
 * text, the one those offsets are read in.
 */
function ensureScriptInfo(cx: Context, file: string): string | undefined {
  const { ts } = cx;
  const ps = cx.info.project.projectService;
  const info = ps.getScriptInfo(toTs(file)) ?? ps.getOrCreateScriptInfoForNormalizedPath(ts.server.toNormalizedPath(toTs(file)), false);
  if (!info) return undefined;
  const s = info.getSnapshot();
  return s.getText(0, s.getLength());
}

// ---- Completion ---------------------------------------------------------------------------------

/** Quick test before any reading: whether the cursor ends a quoted word that may start an op id. */
function mayTypeOpId(text: string, position: number): boolean {
  let i = position;
  while (i > 0 && /[\w$.]/.test(text[i - 1]) && position - i < 200) i--;
  const quote = text[i - 1];
  return (quote === '"' || quote === "'" || quote === "`") && isOpIdStart(text.slice(i, position));
}

export function completions(cx: Context, fileName: string, position: number, prior: TS.WithMetadata<TS.CompletionInfo> | undefined): TS.WithMetadata<TS.CompletionInfo> | undefined {
  const ids = opIdsFor(cx, fileName, position);
  if (!ids?.items.length) return prior;
  const { ts } = cx;
  const have = new Set(prior?.entries.map((e) => e.name));
  const entries: TS.CompletionEntry[] = ids.items.filter((i) => !have.has(i.id)).map((i) => ({
    name: i.id, kind: ts.ScriptElementKind.string, kindModifiers: "", sortText: "11",
    replacementSpan: { start: ids.start, length: ids.end - ids.start },
    labelDetails: { description: i.detail },
  }));
  if (!prior) return { isGlobalCompletion: false, isMemberCompletion: false, isNewIdentifierLocation: true, entries };
  return { ...prior, entries: [...prior.entries, ...entries] };
}

function opIdsFor(cx: Context, fileName: string, position: number) {
  if (!cx.navigates) return undefined;
  const sf = sourceFile(cx, fileName);
  if (!sf || !mayTypeOpId(sf.text, position)) return undefined;
  const at = cursorContext(fileName, sf.text, position);
  if (at.kind !== "string") return undefined;
  const loc = cx.companies.locate(toNative(fileName), modeOf(cx), cx.check);
  if (!loc?.file) return undefined;
  return opIdsAt(loc.analysis, loc.file.role.scope, at.string, sf.text, position);
}

export function completionDetails(cx: Context, fileName: string, position: number, name: string): TS.CompletionEntryDetails | undefined {
  if (!/^data\.[^.]+\.[^.]+$/.test(name)) return undefined;
  const item = opIdsFor(cx, fileName, position)?.items.find((i) => i.id === name);
  if (!item) return undefined;
  const { ts } = cx;
  return { name, kind: ts.ScriptElementKind.string, kindModifiers: "", displayParts: [{ kind: "text", text: name }], documentation: [{ kind: "text", text: `Operation id · ${item.detail}` }] };
}

// ---- Navigation ---------------------------------------------------------------------------------

/** What is under the cursor, in a file of a company; nothing is read for a position in no string and no name of ours. */
function located(cx: Context, fileName: string): Located | undefined {
  return cx.companies.locate(toNative(fileName), modeOf(cx), cx.check);
}

function positionIn(cx: Context, fileName: string, offset: number) {
  const sf = cx.navigates ? sourceFile(cx, fileName) : undefined;
  if (!sf) return undefined;
  const lines = new LineMap(sf.text);
  return { sf, lines, pos: lines.position(offset) };
}

/** A definition in another file of the company (or the lockfile), its offsets in that file's text as tsserver will read it. */
function definitionIn(cx: Context, file: string, range: Range, name: string, kind: TS.ScriptElementKind, container: string): TS.DefinitionInfo | undefined {
  const text = ensureScriptInfo(cx, file);
  if (text === undefined) return undefined;
  return { fileName: toTs(file), textSpan: span(new LineMap(text), text, range), kind, name, containerKind: cx.ts.ScriptElementKind.moduleElement, containerName: container };
}

/** Ours, at a position: op id → its collections, declaration → its lock binding, `secret("NAME")` → its binding; and the span of what was asked about. */
function ourDefinitions(cx: Context, fileName: string, offset: number): { definitions: TS.DefinitionInfo[]; textSpan: TS.TextSpan } | undefined {
  const at = positionIn(cx, fileName, offset);
  if (!at) return undefined;
  const loc = located(cx, fileName);
  if (!loc) return undefined;
  const t = targetAt(loc, at.pos);
  if (!t) return undefined;
  const { ts } = cx;
  const a = loc.analysis;
  const defs: (TS.DefinitionInfo | undefined)[] = [];
  let asked: Range;
  switch (t.kind) {
    case "opRef":
      asked = t.ref.range;
      for (const c of t.collections) defs.push(definitionIn(cx, c.file.path, c.nameRange, c.name, ts.ScriptElementKind.constElement, c.file.rel));
      break;
    case "declaration": {
      if (t.on !== "name" || a.company.lockText === undefined) return undefined; // (the callee: TypeScript goes to the connector itself)
      asked = t.decl.fact.nameRange;
      const b = a.company.lock()?.bindings.find((x) => x.key === t.decl.id);
      if (b) defs.push(definitionIn(cx, a.company.lockPath, b.keyRange, b.key, ts.ScriptElementKind.string, LOCK_FILE));
      break;
    }
    case "secret": {
      asked = t.call.range;
      const where = t.binding && secretBindingLocation(a, t.binding);
      if (where) defs.push(definitionIn(cx, where.file, where.range, t.call.name, ts.ScriptElementKind.memberVariableElement, path.basename(where.file)));
      break;
    }
    default:
      return undefined;
  }
  const definitions = defs.filter((d): d is TS.DefinitionInfo => d !== undefined);
  return definitions.length ? { definitions, textSpan: span(at.lines, at.sf.text, asked) } : undefined;
}

export function definitionAndBoundSpan(cx: Context, fileName: string, position: number, prior: TS.DefinitionInfoAndBoundSpan | undefined): TS.DefinitionInfoAndBoundSpan | undefined {
  const ours = ourDefinitions(cx, fileName, position);
  if (!ours) return prior;
  // TypeScript's first: what it finds (the declaration itself, for a declaration's name) stays where it was.
  return { definitions: [...(prior?.definitions ?? []), ...ours.definitions], textSpan: prior?.textSpan ?? ours.textSpan };
}

export function definitionAtPosition(cx: Context, fileName: string, position: number, prior: readonly TS.DefinitionInfo[] | undefined): readonly TS.DefinitionInfo[] | undefined {
  const ours = ourDefinitions(cx, fileName, position);
  return ours ? [...(prior ?? []), ...ours.definitions] : prior;
}

/** Quick info on `secret("NAME")`: its binding in the config, after what TypeScript says. */
export function quickInfo(cx: Context, fileName: string, position: number, prior: TS.QuickInfo | undefined): TS.QuickInfo | undefined {
  const at = positionIn(cx, fileName, position);
  if (!at || !at.sf.text.includes("secret")) return prior;
  const loc = located(cx, fileName);
  if (!loc) return prior;
  const t = targetAt(loc, at.pos);
  if (t?.kind !== "secret") return prior;
  const doc = { kind: "markdown", text: secretMarkdown(t.call.name, t.binding, t.bindings) };
  if (prior) return { ...prior, documentation: [...(prior.documentation ?? []), ...(prior.documentation?.length ? [{ kind: "lineBreak", text: "\n\n" }] : []), doc] };
  return { kind: cx.ts.ScriptElementKind.string, kindModifiers: "", textSpan: span(at.lines, at.sf.text, t.call.range), displayParts: [{ kind: "stringLiteral", text: JSON.stringify(t.call.name) }], documentation: [doc] };
}

// ---- Rename -------------------------------------------------------------------------------------

/**
 * A rename that renames a declaration's export (TypeScript's locations include its name, written
 * as is) also renames the key of its lock binding: `resources/infra.ts#web` → `#<new name>`.
 */
export function renameLocations(cx: Context, prior: readonly TS.RenameLocation[] | undefined): readonly TS.RenameLocation[] | undefined {
  if (!prior?.length) return prior;
  const added: TS.RenameLocation[] = [];
  const seen = new Set<string>();
  for (const l of prior) {
    if (l.prefixText || l.suffixText || seen.has(l.fileName)) continue;
    // (Only a data file declares; its path says so before anything is read.)
    if (!/[\\/]resources[\\/]/.test(l.fileName) || !l.fileName.endsWith(".ts")) continue;
    const loc = located(cx, l.fileName);
    if (!loc?.file?.role.isDataFile) continue;
    const sf = sourceFile(cx, l.fileName);
    const text = sf?.text ?? textOf(cx, loc.path);
    if (text === undefined) continue;
    const lines = new LineMap(text);
    const decl = declarationsOf(loc.analysis, loc.file).find((d) => {
      const s = span(lines, text, d.fact.nameRange);
      return s.start === l.textSpan.start && s.length === l.textSpan.length && text.slice(s.start, s.start + s.length) === d.fact.exportName;
    });
    if (!decl) continue;
    seen.add(l.fileName);
    const company = loc.analysis.company;
    const binding = company.lockText !== undefined ? company.lock()?.bindings.find((b) => b.key === decl.id) : undefined;
    if (!binding) continue;
    const lockText = ensureScriptInfo(cx, company.lockPath);
    if (lockText === undefined) continue;
    const key = span(new LineMap(lockText), lockText, binding.keyRange);
    // Only a key written as it reads (no escapes): its last characters are the export's name.
    if (lockText.slice(key.start, key.start + key.length) !== JSON.stringify(binding.key)) continue;
    added.push({ fileName: toTs(company.lockPath), textSpan: { start: key.start + key.length - 1 - decl.fact.exportName.length, length: decl.fact.exportName.length } });
  }
  return added.length ? [...prior, ...added] : prior;
}
