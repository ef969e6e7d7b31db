/**
 * `.sanomarc.json` (SPEC B2): the settings a team commits, read alike by the language server,
 * `sanoma-check` and the lint plugin. The nearest file wins, from a company root up through the
 * folders above it:
 *
 *   { "rules": { "<rule id>": "off" | "error" | "warning" | "info" | "hint" }, "exclude": ["<folder>"] }
 *
 * (`warn` is read as `warning`). A person's own choices (editor settings, command-line flags) are
 * laid over it by the caller (`layer`). A bad file or value is a problem at its place (a missing
 * comma, an unknown rule id with a did-you-mean, a level that is none), and the rest of the file
 * still holds: never a throw.
 *
 * Pure, and without the TypeScript parser (the lint plugin bundles it): the file is read by a small
 * JSON reader of its own that keeps each value's place. The rule ids to judge against are the
 * caller's (the registry's `RULE_IDS`); without them, ids are not judged.
 */
import path from "node:path"; // (the default import: a bundle reads its functions as plain properties, not through getters)
import { didYouMean, LineMap } from "./text.ts";
import type { FileSystem, Range } from "./types.ts";

export const SANOMARC = ".sanomarc.json";
/** The page that documents the file, where its problems point. */
export const SANOMARC_DOCS_URL = "https://github.com/sanoma-ai/sanoma-tooling/blob/main/docs/settings.md";

export type Level = "off" | "error" | "warning" | "info" | "hint";
export const LEVELS: readonly Level[] = ["off", "error", "warning", "info", "hint"];

/** What the file says: a level per rule id, and folders to leave out. */
export interface SharedSettings {
  rules: Record<string, Level>;
  /** Folder names, or paths relative to the folder holding the file (see `excludeFor`). */
  exclude: string[];
}

/** A problem of the file itself, at its place. */
export interface SettingsProblem {
  file: string;
  range: Range;
  severity: "error" | "warning";
  message: string;
}

export interface SanomaRc {
  /** The file read, or undefined when none lies at or above the folder. */
  file: string | undefined;
  settings: SharedSettings;
  problems: SettingsProblem[];
}

const EMPTY: SharedSettings = Object.freeze({ rules: Object.freeze({}) as Record<string, Level>, exclude: Object.freeze([]) as unknown as string[] });

/** The nearest `.sanomarc.json` at or above a folder (a company root), or undefined. */
export function findSanomaRc(fs: FileSystem, dir: string, textOf?: (file: string) => string | undefined): string | undefined {
  for (let d = dir; ; d = path.dirname(d)) {
    const file = path.join(d, SANOMARC);
    // (Whatever bears the name is found, to be said so, never passed over for a farther file: a
    // folder, and, listed in its folder, a link that leads nowhere or a FIFO. And an editor's
    // buffer of one not saved yet: its text wins, as a code file's does.)
    if (textOf?.(file) !== undefined || bearsName(fs, d, file)) return file;
    if (path.dirname(d) === d) return undefined;
  }
}

/**
 * Whether anything bears `.sanomarc.json` in the folder `d`: a file or a folder, else an entry of
 * that very name in its listing. The folder is listed only when something may be there
 * (`FileSystem.mayExist`), so a search costs a look per folder, not what each folder holds: the
 * companies of a monorepo's `companies/` each listed it whole, N² over them all.
 */
function bearsName(fs: FileSystem, d: string, file: string): boolean {
  if (fs.mayExist?.(file) === false) return false;
  return fs.isFile(file) || fs.isDir(file) || fs.readDir(d)?.some((e) => e.name === SANOMARC) === true;
}

/**
 * The shared settings that hold for a company root: the nearest file's, read through `fs` (or
 * `textOf`, an editor's unsaved text of that file, when it has one).
 */
export function readSanomaRc(fs: FileSystem, root: string, ruleIds?: readonly string[], textOf?: (file: string) => string | undefined): SanomaRc {
  const file = findSanomaRc(fs, root, textOf);
  if (file === undefined) return { file: undefined, settings: EMPTY, problems: [] };
  const open = textOf?.(file);
  const notAFile = (what: string): SanomaRc => ({ file, settings: EMPTY, problems: [{ file, range: ZERO, severity: "error", message: `${SANOMARC} ${what}: no settings are applied (a farther ${SANOMARC} neither: the nearest is the one that counts)` }] });
  if (open === undefined && fs.isDir(file)) return notAFile("is a folder, not a file");
  // (Never read: a FIFO would hold the read until something wrote to it.)
  if (open === undefined && !fs.isFile(file)) {
    const kind = fs.readDir(path.dirname(file))?.find((e) => e.name === SANOMARC)?.kind;
    // (A link that leads somewhere, yet to no file nor folder, leads to a device, a FIFO or a socket: `/dev/zero`.)
    const leads = kind === "symlink" && fs.realPath(file) !== undefined;
    return notAFile(kind === "symlink" && !leads ? "is a link that leads to no file" : `is ${leads ? "a link to " : ""}no regular file (a FIFO, a socket or a device)`);
  }
  const text = open ?? fs.readFile(file);
  if (text === undefined) {
    return { file, settings: EMPTY, problems: [{ file, range: ZERO, severity: "error", message: `${SANOMARC} cannot be read: its settings are not applied` }] };
  }
  return { file, ...parseSanomaRc(file, text, ruleIds) };
}

const ZERO: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
const TOP_KEYS = ["rules", "exclude"];

/** Reads a `.sanomarc.json` text: its settings (every good part of it) and its problems. */
export function parseSanomaRc(file: string, text: string, ruleIds?: readonly string[]): { settings: SharedSettings; problems: SettingsProblem[] } {
  const lines = new LineMap(text);
  const problems: SettingsProblem[] = [];
  const at = (start: number, end: number, message: string, severity: "error" | "warning" = "error") =>
    problems.push({ file, range: lines.range(start, end), severity, message });
  const parsed = readJson(text);
  if ("error" in parsed) {
    at(parsed.at, Math.min(parsed.at + 1, text.length), `${SANOMARC} is not JSON (${parsed.error}): its settings are not applied`);
    return { settings: EMPTY, problems };
  }
  const top = parsed.value;
  if (top.kind !== "object") {
    at(top.start, top.end, `${SANOMARC} holds an object: { "rules": { "<rule id>": "<level>" }, "exclude": ["<folder>"] }`);
    return { settings: EMPTY, problems };
  }
  const settings: SharedSettings = { rules: {}, exclude: [] };
  const lastTop = lastOfEach(top.members);
  for (const [i, p] of top.members.entries()) {
    if (lastTop.get(p.key) !== i) { at(p.keyStart, p.keyEnd, `"${p.key}" is given again below: the last one holds`, "warning"); continue; }
    if (p.key === "$schema") continue;
    if (p.key === "rules") readRules(p.value, settings, ruleIds, at);
    else if (p.key === "exclude") readExclude(p.value, settings, at, path.dirname(file));
    else {
      const s = didYouMean(p.key, TOP_KEYS);
      at(p.keyStart, p.keyEnd, `Unknown setting "${p.key}"${s ? `; did you mean "${s}"?` : ""} (${SANOMARC} holds "rules" and "exclude")`, "warning");
    }
  }
  return { settings, problems };
}

/**
 * Where each key of an object is given last: a member given again below is passed over (the last
 * holds). One pass: asked of each member against those below it, a file of many keys took minutes.
 */
function lastOfEach(members: readonly { key: string }[]): Map<string, number> {
  const last = new Map<string, number>();
  for (const [i, p] of members.entries()) last.set(p.key, i);
  return last;
}

type At = (start: number, end: number, message: string, severity?: "error" | "warning") => void;

function readRules(v: Json, settings: SharedSettings, ruleIds: readonly string[] | undefined, at: At): void {
  if (v.kind !== "object") { at(v.start, v.end, `"rules" holds an object: { "<rule id>": "off" | "error" | "warning" | "info" | "hint" }`); return; }
  const last = lastOfEach(v.members);
  for (const [i, p] of v.members.entries()) {
    if (last.get(p.key) !== i) { at(p.keyStart, p.keyEnd, `Rule "${p.key}" is given again below: the last one holds`, "warning"); continue; }
    if (ruleIds !== undefined && !ruleIds.includes(p.key)) {
      const s = didYouMean(p.key, ruleIds);
      at(p.keyStart, p.keyEnd, `No rule named "${p.key}"${s ? `; did you mean "${s}"?` : ""}`);
      continue;
    }
    const level = p.value.kind === "string" ? (p.value.value === "warn" ? "warning" : p.value.value) : undefined;
    if (level === undefined || !(LEVELS as readonly string[]).includes(level)) {
      const given = p.value.kind === "string" ? `"${p.value.value}"` : p.value.kind === "number" || p.value.kind === "boolean" || p.value.kind === "null" ? String(p.value.value) : `an ${p.value.kind}`;
      const s = p.value.kind === "string" ? didYouMean(p.value.value, [...LEVELS, "warn"]) : undefined;
      at(p.value.start, p.value.end, `${given} is no level${s ? `; did you mean "${s}"?` : ""} (a rule's level is "off", "error", "warning" or "warn", "info" or "hint")`);
      continue;
    }
    settings.rules[p.key] = level as Level;
  }
}

/** A folder as written (in the file, a flag or a setting) read one way everywhere: `\\` as `/`, no leading `./` (however many), no trailing `/`. */
function spelledFolder(value: string): string {
  return value.replace(/\\/g, "/").replace(/^(\.\/)+/, "").replace(/\/+$/, "");
}

/**
 * Whether a folder of a `.sanomarc.json` in `dir` is written as one machine's path: a Windows
 * absolute path (`C:\x`, `C:/x`, `\\server\share`; read on every system, as the file is), or an
 * absolute path of `dir` or a folder in it (`/home/me/acme/generated`). Any other `/x` is a path
 * from the file's folder (`"/apps/legacy"`, as `.gitignore` anchors one).
 */
function machinePath(value: string, dir: string): boolean {
  if (!path.isAbsolute(value)) return path.win32.isAbsolute(value) && !value.startsWith("/");
  if (path.win32.isAbsolute(value) && !path.posix.isAbsolute(value)) return true;
  return atOrUnder(dir, absoluteFolder(value));
}

/** An absolute folder as a person gave it, normalised, with no trailing separator. */
function absoluteFolder(value: string): string {
  const n = path.normalize(value);
  return n.length > 1 && n.endsWith(path.sep) && path.dirname(n) !== n ? n.slice(0, -1) : n;
}

/** Whether a folder as a person gave it (`--exclude`, the editor's `sanoma.exclude`, the TypeScript plugin's) is an absolute path on this system: read as the folder it names (`personalExcludeFor`). */
export function isAbsoluteExclude(folder: string): boolean {
  return path.isAbsolute(folder);
}

function readExclude(v: Json, settings: SharedSettings, at: At, dir: string): void {
  if (v.kind !== "array") { at(v.start, v.end, `"exclude" holds an array of folders: names ("generated") or paths from this file's folder ("apps/legacy")`); return; }
  for (const item of v.items) {
    if (item.kind !== "string") { at(item.start, item.end, `An excluded folder is a string: a name ("generated") or a path from this file's folder ("apps/legacy")`); continue; }
    // Judged as it is read (`./gen/` is `gen`): an entry that names nothing once read (`./`, `/`)
    // was dropped in silence, and `.` left out every company the file holds for, also in silence.
    const folder = spelledFolder(item.value);
    if (folder.trim() === "" || folder.split("/").some((part) => part === "..")) at(item.start, item.end, `"${item.value}" is no folder under this file's folder`);
    // An absolute path names a folder of one machine (it was read from the file's folder, and named
    // nothing there, in silence): the file is shared, so the path is written from its folder. Such
    // a path is one of the file's own folder or a folder in it, or a Windows one; `/apps/legacy`
    // that is neither is a path from the file's folder, as `.gitignore` reads it (and as it was read).
    else if (machinePath(item.value, dir)) {
      const rel = path.isAbsolute(item.value) && atOrUnder(dir, absoluteFolder(item.value)) ? path.relative(dir, absoluteFolder(item.value)) : "";
      const from = rel !== "" ? `, as "${rel.split(path.sep).join("/")}"` : ` ("apps/legacy")`;
      at(item.start, item.end, `"${item.value}" is an absolute path: an excluded folder is written from this file's folder${from}, which holds on every machine (not applied)`);
    }
    else if (folder.split("/").every((part) => part === "." || part === "")) {
      at(item.start, item.end, `"${item.value}" leaves out the whole company: nothing of a company this file holds for would be judged, and a check that judges nothing passes (not applied)`);
    } else {
      // A pattern matches no folder here (names and paths are read as they are): said, kept as written.
      if (/[*?[\]{}]/.test(item.value)) at(item.start, item.end, `"${item.value}" is read as a folder's name or path, not as a pattern: no folder is named so ("generated", "apps/legacy")`, "warning");
      settings.exclude.push(folder);
    }
  }
}

/**
 * A folder to leave out as a person gives it (`--exclude`, the editor's `sanoma.exclude`), written
 * as `.sanomarc.json`'s entries are read: `\` as `/`, no leading `./`, no trailing `/` (what a
 * shell's completion types: `workflows/`, `./apps/legacy`); or why it is none. `.` is refused: in a
 * flag or a setting it would leave out every company, and a check that judges nothing passes.
 */
export function personalExclude(value: string): { folder: string } | { error: string } {
  const folder = spelledFolder(value);
  if (folder.trim() === "") return { error: `"${value}" names no folder` };
  // An absolute path (what a shell makes of `$PWD/apps/x`) is the folder it names: kept whole, and
  // read as a path of each company it lies in (`personalExcludeFor`). One of another system (`C:\x`
  // on Linux) names none here.
  if (path.isAbsolute(value)) return { folder: absoluteFolder(value) };
  if (path.win32.isAbsolute(value)) return { error: `"${value}" is an absolute path of another system: it names no folder here` };
  if (folder === ".") return { error: `"${value}" would leave out every company: nothing would be judged` };
  if (folder.split("/").some((part) => part === "..")) return { error: `"${value}" climbs out of the company: it names no folder in it` };
  return { folder };
}

/**
 * The walk's `exclude` entry that leaves out a whole company: its root lies in a folder the
 * settings leave out (a company of templates under `templates/`, excluded by name from above).
 * Written in the file, `.` is the file's own folder, which holds the company: the same meaning.
 */
export const WHOLE_COMPANY = ".";

/**
 * The `exclude` entries of a file at `rcFile` as a company at `root` reads them (its walk's
 * `exclude`: names, or company-relative paths): a name holds everywhere; a path is from the file's
 * folder, so it reaches a company below that folder as the path under its root, and none outside.
 * A company whose root lies in a folder left out, as seen from the file's folder (a folder of that
 * name between the two, the root's own included; a path that holds the root), is left out whole
 * (`WHOLE_COMPANY`): the check's search for companies never enters such a folder, and every
 * surface leaves its files out alike (B2).
 */
export function excludeFor(rcFile: string | undefined, exclude: readonly string[], root: string): string[] {
  if (rcFile === undefined) return [];
  const { out, whole } = readFrom(path.dirname(rcFile), exclude, root);
  if (whole !== undefined) out.push(WHOLE_COMPANY);
  return out;
}

/** The entry of a file's `exclude` that leaves out whole the company at `root` (see `excludeFor`), as written there; undefined when none does. */
export function leftOutWholeBy(rcFile: string | undefined, exclude: readonly string[], root: string): string | undefined {
  return rcFile === undefined ? undefined : readFrom(path.dirname(rcFile), exclude, root).whole;
}

/**
 * `exclude` entries read from the folder `dir` (a `.sanomarc.json`'s, or a company root's for a
 * person's), as the company at `root` reads them: its walk's entries, and the first entry that
 * leaves it out whole (its root lies in the folder it names), if one does. `personal`: a person's
 * entries, whose absolute paths are the folders they name.
 */
function readFrom(dir: string, exclude: readonly string[], root: string, personal = false): { out: string[]; whole: string | undefined } {
  const out: string[] = [];
  const above = path.relative(dir, root);
  const between = above === "" || above.startsWith("..") || path.isAbsolute(above) ? [] : above.split(path.sep);
  let whole: string | undefined;
  for (const entry of exclude) {
    // A person's absolute path (`personalExclude`) that lies in the company or holds it: the folder
    // it names, wherever it is read from. Any other (`/apps/legacy`) is read below, as a file's
    // `/x` is (whose absolute paths of its own folder `readExclude` refuses): from the folder.
    if (personal && path.isAbsolute(entry)) {
      if (atOrUnder(entry, root)) { whole ??= entry; continue; }
      if (atOrUnder(root, entry)) { const r = path.relative(root, entry).split(path.sep).join("/"); if (!out.includes(r)) out.push(r); continue; }
    }
    const e = entry.replace(/^\/+/, "");
    if (!entry.includes("/")) {
      out.push(e);
      if (between.includes(e)) whole ??= entry;
      continue;
    }
    const abs = path.join(dir, e);
    const rel = path.relative(root, abs);
    if (rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel)) out.push(rel.split(path.sep).join("/"));
    // (The root itself, or a folder above it: the path leads from the root up out of the company.)
    else if (rel === "" || rel.split(path.sep).every((part) => part === "..")) whole ??= entry;
  }
  return { out, whole };
}

/**
 * The folders a person's excluded folders (`--exclude`, the editor's `sanoma.exclude`, the
 * TypeScript plugin's `exclude`) are read from for what lies at `dir` (a company root, or a folder
 * a search for companies starts from): every company root at or above it, each of which leaves
 * those folders out of its own walk (a fixture company at `test/fixtures/broken-co` lies in the
 * `test/fixtures` of the company around it); and each folder of `searched` (the folders a search
 * for companies was given, the editor's workspace folders) that holds `dir` and lies in no company
 * itself (a monorepo's top), read as a company root would be. `isCompanyRoot`: whether a folder
 * holds a `sanoma.config.ts` (A1).
 */
export function personalBases(dir: string, searched: readonly string[], isCompanyRoot: (dir: string) => boolean): string[] {
  const out: string[] = [];
  for (let d = dir; ; d = path.dirname(d)) {
    if (isCompanyRoot(d)) out.push(d);
    if (path.dirname(d) === d) break;
  }
  for (const s of searched) {
    if (!atOrUnder(s, dir) || out.includes(s) || out.some((r) => atOrUnder(r, s))) continue;
    out.push(s);
  }
  return out;
}

/**
 * Whether a person's absolute folder (`isAbsoluteExclude`) is one of the companies at `roots`: it
 * lies in one (at its root included) or holds one. One that does neither names no folder a check of
 * them could leave out: `sanoma-check` refuses it (exit 2), the server says so and leaves it out.
 */
export function absoluteInCompanies(folder: string, roots: Iterable<string>): boolean {
  for (const root of roots) if (atOrUnder(root, folder) || atOrUnder(folder, root)) return true;
  return false;
}

/** Whether `inner` is `outer` or lies under it. */
function atOrUnder(outer: string, inner: string): boolean {
  const rel = path.relative(outer, inner);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/**
 * A person's excluded folders as the walk of the company at `root` reads them: each read from each
 * of `bases` (`personalBases`) as a `.sanomarc.json` there would hold it (`excludeFor`). A name
 * leaves out every folder of that name, a path the folder it names under a base; a company whose
 * root lies in such a folder is left out whole (`WHOLE_COMPANY` in `exclude`, and `whole` the
 * entry that does it), as a `.sanomarc.json`'s folders leave one out.
 */
export function personalExcludeFor(exclude: readonly string[], root: string, bases: readonly string[]): { exclude: string[]; whole: string | undefined } {
  const out: string[] = [];
  let whole: string | undefined;
  for (const base of bases.includes(root) ? bases : [root, ...bases]) {
    const read = readFrom(base, exclude, root, true);
    for (const e of read.out) if (!out.includes(e)) out.push(e);
    whole ??= read.whole;
  }
  if (whole !== undefined) out.push(WHOLE_COMPANY);
  return { exclude: out, whole };
}

/**
 * Whether a company at `root`, found by a search for companies from the folder `from` (below it),
 * lies in a folder below `from` that its own settings (the file at `rcFile`, the nearest at or
 * above the root, with its `exclude`) leave out: a folder of a name they exclude, or one a path of
 * theirs names, between `from` and the root (the root's own folder included). The search passes
 * over it, as it would never enter that folder. Only the company's own file decides (B2: the
 * nearest wins, whole): a file nearer the folder searched, or above the company's own, says
 * nothing of it. A company left out by a folder at `from` or above it (the folder asked for) is
 * still found, and none of its files judged (`excludeFor` leaves it out whole).
 */
export function leftOutBelow(rcFile: string | undefined, exclude: readonly string[], root: string, from: string): boolean {
  if (rcFile === undefined) return false;
  const dir = path.dirname(rcFile);
  const below = (a: string, b: string) => { const rel = path.relative(a, b); return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel); };
  if (!below(from, root)) return false;
  // (Both hold the root: the nearer of the two is where the folders that count start.)
  const start = below(from, dir) ? dir : from;
  const between = path.relative(start, root).split(path.sep);
  for (const entry of exclude) {
    if (!entry.includes("/")) { if (between.includes(entry)) return true; continue; }
    const folder = path.join(dir, entry.replace(/^\/+/, ""));
    if (below(start, folder) && (folder === root || below(folder, root))) return true;
  }
  return false;
}

/** A person's choices laid over the shared settings: their rule levels win, their folders are added. */
export function layer(shared: { rules: Record<string, Level>; exclude: readonly string[] }, own: { rules?: Record<string, Level>; exclude?: readonly string[] }): { rules: Record<string, Level>; exclude: string[] } {
  const exclude = [...shared.exclude];
  for (const e of own.exclude ?? []) if (!exclude.includes(e)) exclude.push(e);
  return { rules: { ...shared.rules, ...own.rules }, exclude };
}

// ---- A JSON reader that keeps places ---------------------------------------------------------

type Json =
  | { kind: "object"; start: number; end: number; members: { key: string; keyStart: number; keyEnd: number; value: Json }[] }
  | { kind: "array"; start: number; end: number; items: Json[] }
  | { kind: "string"; start: number; end: number; value: string }
  | { kind: "number"; start: number; end: number; value: number }
  | { kind: "boolean"; start: number; end: number; value: boolean }
  | { kind: "null"; start: number; end: number; value: null };

class JsonError { constructor(readonly error: string, readonly at: number) {} }

/** Strict JSON (as `JSON.parse` reads it), each value with its offsets; or the first error and where. */
export function readJson(text: string): { value: Json } | { error: string; at: number } {
  let i = 0;
  const fail = (what: string): never => { throw new JsonError(i >= text.length ? `${what}, found the end of the file` : `${what}, found ${JSON.stringify(text[i])}`, i); };
  const space = () => { while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++; };
  const depthLimit = 512;
  let depth = 0;
  const value = (): Json => {
    space();
    const start = i;
    const c = text[i];
    if (c === "{") {
      if (++depth > depthLimit) fail("nested too deeply");
      i++;
      const members: Extract<Json, { kind: "object" }>["members"] = [];
      space();
      if (text[i] === "}") { i++; depth--; return { kind: "object", start, end: i, members }; }
      for (;;) {
        space();
        if (text[i] !== "\"") fail("expected a key in double quotes");
        const keyStart = i;
        const key = string();
        const keyEnd = i;
        space();
        if (text[i] !== ":") fail("expected a colon");
        i++;
        members.push({ key, keyStart, keyEnd, value: value() });
        space();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === "}") { i++; depth--; return { kind: "object", start, end: i, members }; }
        fail("expected a comma or a closing brace");
      }
    }
    if (c === "[") {
      if (++depth > depthLimit) fail("nested too deeply");
      i++;
      const items: Json[] = [];
      space();
      if (text[i] === "]") { i++; depth--; return { kind: "array", start, end: i, items }; }
      for (;;) {
        items.push(value());
        space();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === "]") { i++; depth--; return { kind: "array", start, end: i, items }; }
        fail("expected a comma or a closing bracket");
      }
    }
    if (c === "\"") { const v = string(); return { kind: "string", start, end: i, value: v }; }
    for (const [word, v] of [["true", true], ["false", false], ["null", null]] as const) {
      if (text.startsWith(word, i)) { i += word.length; return v === null ? { kind: "null", start, end: i, value: null } : { kind: "boolean", start, end: i, value: v }; }
    }
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (m) { i += m[0].length; return { kind: "number", start, end: i, value: Number(m[0]) }; }
    return fail("expected a value");
  };
  const string = (): string => {
    const start = i;
    i++;
    for (;;) {
      if (i >= text.length) { i = start; fail("a string is not closed"); }
      const c = text.charCodeAt(i);
      if (c === 34) { i++; break; }
      if (c < 0x20) fail("a line break or control character inside a string");
      if (c === 92) {
        const e = text[i + 1];
        if (e === "u") { if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) { i++; fail("a bad \\u escape"); } i += 6; continue; }
        if (e === undefined || !"\"\\/bfnrt".includes(e)) { i++; fail("a bad escape"); }
        i += 2;
        continue;
      }
      i++;
    }
    return JSON.parse(text.slice(start, i)) as string;
  };
  try {
    const v = value();
    space();
    if (i < text.length) fail("expected the end of the file");
    return { value: v };
  } catch (e) {
    if (e instanceof JsonError) return { error: e.error, at: e.at };
    throw e;
  }
}
