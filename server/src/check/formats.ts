/**
 * What `sanoma-check` prints, in each format: `text` (a line per problem, for people), `json` (for
 * scripts), `sarif` (SARIF 2.1.0, what code-scanning services read) and `github` (GitHub Actions'
 * workflow commands, an annotation per problem). Every path is relative to the working folder
 * when it lies under it (else absolute), in every format; every problem carries its rule's page,
 * its related places and its fixes wherever the format has room for them.
 */
import * as path from "node:path";
import { isCertainFix } from "../core/fixes.ts";
import { unfoundText, type Unfound } from "../core/connectors.ts";
import { RULES, ruleDocsUrl } from "../core/rules/index.ts";
import { SANOMARC_DOCS_URL, type SettingsProblem } from "../core/sanomarc.ts";
import { escapeControls, oneLine } from "../core/text.ts";
import type { Problem, Range, Severity } from "../core/types.ts";

export type Format = "text" | "json" | "sarif" | "github";

/** Everything a format prints of one run. */
export interface Report {
  cwd: string;
  version: string;
  companies: string[];
  /** The problems shown (all of them, or the errors alone with `--quiet`), sorted. */
  problems: Problem[];
  /** Problems of `.sanomarc.json` files, shown alike. */
  settings: SettingsProblem[];
  /** Files of the companies that were not read, and why. */
  skipped: { file: string; reason: string }[];
  /** Packages that declarations call into but that are not installed, and how many declarations each (their types unknown: not checked), and what was found instead if anything. */
  notInstalled?: NotInstalled[];
  /** Companies found but left out whole, none of their files judged, and by what: a `.sanomarc.json`'s path or `--exclude` (`by`), and the entry (`exclude`); paths as printed. */
  leftOut?: LeftOut[];
  /** Whether text output is coloured. */
  color: boolean;
}

/**
 * A package declarations call into that was not found, how many declarations each, and what was
 * found instead (`Unfound`) if anything; or ("unreadable") one found whose exports this reading
 * cannot follow as far as those declarations' names (their types unknown too: `Resolution` "unknown").
 */
export interface NotInstalled { package: string; declarations: number; why?: Unfound | { kind: "unreadable" } }

/** What a run is told of a package whose declarations it could not check. */
export function notInstalledText(cwd: string, n: NotInstalled): string {
  return `${n.declarations} ${n.declarations === 1 ? "declaration" : "declarations"} not checked: ${notCheckedBecause(cwd, n)}`;
}

/** Why a package's declarations were not checked, in a clause. */
export function notCheckedBecause(cwd: string, n: NotInstalled): string {
  if (n.why?.kind === "unreadable") return `\`${n.package}\` cannot be read as far as their types (its CommonJS exports, a module it re-exports, or one with syntax errors)`;
  return unfoundText(n.package, n.why, (f) => shownPath(cwd, f));
}

/** A package not found as JSON gives it: `reason` "not-installed", "plug-n-play" (with the `.pnp.cjs`'s `file`), "not-built" (with the `entry` not there) or "unreadable". */
function notInstalledJson(cwd: string, n: NotInstalled): Record<string, unknown> {
  const { why } = n;
  return {
    package: n.package, declarations: n.declarations, reason: why?.kind ?? "not-installed",
    ...(why?.kind === "plug-n-play" ? { file: shownPath(cwd, why.file) } : why?.kind === "not-built" ? { entry: why.entry } : {}),
  };
}

/** A company left out whole: its path, what left it out (a `.sanomarc.json`'s path, or `--exclude`) and the entry, as printed. */
export interface LeftOut { company: string; by: string; exclude: string }

/** What a run is told of a company left out whole: `test/fixtures/broken-co: left out whole by ../../.sanomarc.json's exclude "fixtures"`. */
export function leftOutText(l: LeftOut): string {
  return `${l.company}: left out whole by ${l.by === "--exclude" ? "--exclude" : `${l.by}'s exclude`} ${JSON.stringify(l.exclude)}`;
}

/** Where the settings file's problems point for their documentation. */
const SETTINGS_DOCS_URL = SANOMARC_DOCS_URL;

/**
 * A path as printed: relative to the working folder in every format (B2), with `../` for what lies
 * outside it (a company above the folder a check runs in, a file of it beside that folder), as
 * `tsc` prints them; absolute only where there is no relative path (another drive on Windows).
 */
export function shownPath(cwd: string, file: string): string {
  const rel = path.relative(cwd, file);
  if (rel === "") return ".";
  return path.isAbsolute(rel) ? file : rel.split(path.sep).join("/");
}

/**
 * What a format prints of a report, in pieces: a line of text or an annotation a piece, a problem
 * a piece of JSON. A report of 500,000 problems is some 200 MB printed; made as one string it doubled the
 * check's peak memory (and each problem's printed form was made before the first was written).
 */
export function* renderPieces(format: Format, r: Report): Generator<string, void, void> {
  switch (format) {
    case "text": yield* text(r); return;
    case "json": yield* jsonPieces(json(r), ""); yield "\n"; return;
    case "sarif": yield* jsonPieces(sarif(r), ""); yield "\n"; return;
    case "github": yield* github(r); return;
  }
}

/** A list whose items are made as they are printed by `jsonPieces`, as `list.map(make)` would make them all at once. */
export class Mapped<T, U> {
  constructor(readonly list: readonly T[], readonly make: (item: T) => U) {}
}

/** Lists longer than this are printed an item a piece. */
const PIECE_ITEMS = 64;

/** Whether `jsonPieces` goes into the value, not printing it whole: it is, or holds, a `Mapped` list or a long array. */
function printedInPieces(value: unknown, depth = 0): boolean {
  if (value instanceof Mapped || (Array.isArray(value) && value.length > PIECE_ITEMS)) return true;
  if (depth >= 4 || typeof value !== "object" || value === null) return false;
  for (const v of Array.isArray(value) ? value : Object.values(value)) if (printedInPieces(v, depth + 1)) return true;
  return false;
}

/**
 * `JSON.stringify(value, null, 2)` in pieces, each line indented by `indent` more: a `Mapped` list
 * or a long array an item a piece, and the objects and arrays that hold one gone into; the rest
 * printed whole (JSON.stringify's text, re-indented: a JSON text holds no line break in a string).
 */
export function* jsonPieces(value: unknown, indent: string): Generator<string, void, void> {
  if (!printedInPieces(value)) { yield (JSON.stringify(value, null, 2) ?? "null").replace(/\n/g, "\n" + indent); return; }
  const inner = indent + "  ";
  if (value instanceof Mapped || Array.isArray(value)) {
    const list: readonly unknown[] = value instanceof Mapped ? value.list : value;
    if (list.length === 0) { yield "[]"; return; }
    yield "[\n";
    for (let i = 0; i < list.length; i++) {
      const item = value instanceof Mapped ? value.make(list[i]) : list[i];
      yield inner;
      // (What JSON.stringify prints as null in a list: undefined, a function, a symbol.)
      yield* jsonPieces(item === undefined || typeof item === "function" || typeof item === "symbol" ? null : item, inner);
      yield i < list.length - 1 ? ",\n" : "\n";
    }
    yield indent + "]";
    return;
  }
  // (What JSON.stringify leaves out of an object: undefined, functions, symbols.)
  const entries = Object.entries(value as object).filter(([, v]) => v !== undefined && typeof v !== "function" && typeof v !== "symbol");
  if (entries.length === 0) { yield "{}"; return; }
  yield "{\n";
  for (let i = 0; i < entries.length; i++) {
    yield `${inner}${JSON.stringify(entries[i][0])}: `;
    yield* jsonPieces(entries[i][1], inner);
    yield i < entries.length - 1 ? ",\n" : "\n";
  }
  yield indent + "}";
}

// ---- text ------------------------------------------------------------------------------------

export const paint = {
  red: (s: string) => `\x1b[31m${s}\x1b[39m`,
  yellow: (s: string) => `\x1b[33m${s}\x1b[39m`,
  blue: (s: string) => `\x1b[34m${s}\x1b[39m`,
  green: (s: string) => `\x1b[32m${s}\x1b[39m`,
  dim: (s: string) => `\x1b[2m${s}\x1b[22m`,
  bold: (s: string) => `\x1b[1m${s}\x1b[22m`,
};
const SEVERITY_PAINT: Record<Severity, (s: string) => string> = { error: paint.red, warning: paint.yellow, info: paint.blue, hint: paint.dim };

function* text(r: Report): Generator<string, void, void> {
  const line = (file: string, range: Range, severity: Severity, rule: string, message: string): string => {
    const where = `${oneLine(shownPath(r.cwd, file))}:${range.start.line + 1}:${range.start.character + 1}`;
    return r.color
      ? `${paint.bold(where)}  ${SEVERITY_PAINT[severity](severity)}  ${paint.dim(rule)}  ${oneLine(message)}\n`
      : `${where}  ${severity}  ${rule}  ${oneLine(message)}\n`;
  };
  for (const p of r.settings) yield line(p.file, p.range, p.severity, "settings", p.message);
  for (const p of r.problems) yield line(p.file, p.range, p.severity, p.rule, p.message);
}

// ---- json ------------------------------------------------------------------------------------

function place(r: Report, file: string, range: Range) {
  return { file: shownPath(r.cwd, file), line: range.start.line + 1, column: range.start.character + 1, endLine: range.end.line + 1, endColumn: range.end.character + 1 };
}

function json(r: Report) {
  // Each file's shown path once (a lockfile's 100,000 orphans are one file), and each problem's
  // record made with all its fields at once: a spread of `place` made every record twice.
  const shown = new Map<string, string>();
  const fileOf = (file: string) => { let s = shown.get(file); if (s === undefined) shown.set(file, (s = shownPath(r.cwd, file))); return s; };
  return {
    companies: r.companies.map((c) => shownPath(r.cwd, c)),
    problems: new Mapped(r.problems, (p) => {
      const { start, end } = p.range;
      return {
        file: fileOf(p.file), line: start.line + 1, column: start.character + 1, endLine: end.line + 1, endColumn: end.character + 1,
        severity: p.severity, rule: p.rule, message: p.message, docs: ruleDocsUrl(p.rule),
        related: p.related?.length ? p.related.map((x) => ({ ...place(r, x.file, x.range), message: x.message })) : [],
        fixes: p.fixes?.length ? p.fixes.map((f) => ({ title: f.title, preferred: isCertainFix(p, f), edits: f.edits.map((e) => ({ ...place(r, e.file, e.range), newText: e.newText })) })) : [],
      };
    }),
    settings: r.settings.map((p) => ({ ...place(r, p.file, p.range), severity: p.severity, message: p.message, docs: SETTINGS_DOCS_URL })),
    skipped: r.skipped.map((s) => ({ file: shownPath(r.cwd, s.file), reason: s.reason })),
    notInstalled: (r.notInstalled ?? []).map((n) => notInstalledJson(r.cwd, n)),
    leftOut: r.leftOut ?? [],
  };
}

// ---- sarif -----------------------------------------------------------------------------------

const SARIF_LEVEL: Record<Severity, "error" | "warning" | "note"> = { error: "error", warning: "warning", info: "note", hint: "note" };
const SRCROOT = "SRCROOT";

/** A path as a SARIF artifact location: relative to the working folder (`SRCROOT`; `../` segments resolve against it as any relative URI's do), else (no relative path: another drive) a `file:` URI. */
function artifact(r: Report, file: string) {
  const shown = shownPath(r.cwd, file);
  if (path.isAbsolute(shown)) return { uri: fileUri(file) };
  return { uri: shown.split("/").map(encodeURIComponent).join("/"), uriBaseId: SRCROOT };
}

function fileUri(abs: string): string {
  return "file://" + abs.split(path.sep).map(encodeURIComponent).join("/");
}

/** A SARIF region: 1-based lines and columns, the end column the one past the region (UTF-16 units: `columnKind`). */
function region(range: Range) {
  return { startLine: range.start.line + 1, startColumn: range.start.character + 1, endLine: range.end.line + 1, endColumn: range.end.character + 1 };
}

function location(r: Report, file: string, range: Range) {
  return { physicalLocation: { artifactLocation: artifact(r, file), region: region(range) } };
}

function sarif(r: Report) {
  const index = new Map(RULES.map((rule, i) => [rule.id as string, i]));
  const dirUri = fileUri(r.cwd.endsWith(path.sep) ? r.cwd : r.cwd + path.sep);
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [{
      tool: {
        driver: {
          name: "sanoma-check",
          fullName: "sanoma-check (Sanoma tooling)",
          version: r.version,
          semanticVersion: r.version,
          informationUri: "https://github.com/sanoma-ai/sanoma-tooling",
          rules: RULES.map((rule) => ({
            id: rule.id,
            name: rule.id.replace(/(^|-)([a-z])/g, (_, __, c: string) => c.toUpperCase()),
            shortDescription: { text: rule.doc.summary },
            fullDescription: { text: rule.doc.why },
            helpUri: ruleDocsUrl(rule.id),
            help: { text: `${rule.doc.summary} ${ruleDocsUrl(rule.id)}`, markdown: `${rule.doc.summary}\n\n${rule.doc.why}\n\n[The rule's page](${ruleDocsUrl(rule.id)})` },
            defaultConfiguration: { level: SARIF_LEVEL[rule.severity] },
          })),
        },
      },
      originalUriBaseIds: { [SRCROOT]: { uri: dirUri } },
      columnKind: "utf16CodeUnits",
      invocations: [{
        executionSuccessful: true,
        toolConfigurationNotifications: r.settings.map((p) => ({
          level: SARIF_LEVEL[p.severity], message: { text: p.message }, locations: [location(r, p.file, p.range)],
        })),
        toolExecutionNotifications: [
          ...r.skipped.map((s) => ({
            level: "note", message: { text: `Skipped: ${s.reason}` }, locations: [{ physicalLocation: { artifactLocation: artifact(r, s.file) } }],
          })),
          ...(r.notInstalled ?? []).map((n) => ({
            level: "warning", message: { text: notInstalledText(r.cwd, n) },
          })),
          ...(r.leftOut ?? []).map((l) => ({
            level: "note", message: { text: `${leftOutText(l)}: none of its files is judged` },
          })),
        ],
      }],
      results: new Mapped(r.problems, (p) => {
        const certain = (p.fixes ?? []).filter((f) => isCertainFix(p, f));
        return {
          ruleId: p.rule,
          ruleIndex: index.get(p.rule),
          level: SARIF_LEVEL[p.severity],
          message: { text: p.message },
          locations: [location(r, p.file, p.range)],
          ...(p.related?.length ? { relatedLocations: p.related.map((x, i) => ({ id: i + 1, ...location(r, x.file, x.range), message: { text: x.message } })) } : {}),
          ...(certain.length ? {
            fixes: certain.map((f) => ({
              description: { text: f.title },
              artifactChanges: [...new Set(f.edits.map((e) => e.file))].map((file) => ({
                artifactLocation: artifact(r, file),
                replacements: f.edits.filter((e) => e.file === file).map((e) => ({ deletedRegion: region(e.range), insertedContent: { text: e.newText } })),
              })),
            })),
          } : {}),
        };
      }),
    }],
  };
}

// ---- github ----------------------------------------------------------------------------------

/** A workflow command's message: `%`, CR and LF escaped (GitHub's `escapeData`), other control characters written as `\u00XX`. */
function escapeData(s: string): string {
  return escapeControls(s.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A"));
}

/** A workflow command's property value: also `:` and `,` (GitHub's `escapeProperty`). */
function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, "%3A").replace(/,/g, "%2C");
}

const GITHUB_LEVEL: Record<Severity, "error" | "warning" | "notice"> = { error: "error", warning: "warning", info: "notice", hint: "notice" };

function* github(r: Report): Generator<string, void, void> {
  const annotate = (file: string, range: Range, severity: Severity, title: string, message: string): string => {
    const props = [
      `file=${escapeProperty(shownPath(r.cwd, file))}`,
      `line=${range.start.line + 1}`, `endLine=${range.end.line + 1}`,
      `col=${range.start.character + 1}`, `endColumn=${range.end.character + 1}`,
      `title=${escapeProperty(title)}`,
    ];
    return `::${GITHUB_LEVEL[severity]} ${props.join(",")}::${escapeData(message)}\n`;
  };
  for (const l of r.leftOut ?? []) yield `::notice title=${escapeProperty("sanoma")}::${escapeData(`${leftOutText(l)}: none of its files is judged`)}\n`;
  for (const p of r.settings) yield annotate(p.file, p.range, p.severity, "sanoma settings", `${p.message}\n${SETTINGS_DOCS_URL}`);
  for (const p of r.problems) yield annotate(p.file, p.range, p.severity, `sanoma(${p.rule})`, `${p.message}\n${ruleDocsUrl(p.rule)}`);
  // (A declaration not checked passes in silence otherwise: an annotation of the run, on no file.)
  for (const n of r.notInstalled ?? []) yield `::warning title=${escapeProperty("sanoma: not checked")}::${escapeData(notInstalledText(r.cwd, n))}\n`;
}
