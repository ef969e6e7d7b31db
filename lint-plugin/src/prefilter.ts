/**
 * Which rules could fire on a file, decided from its text before oxlint hands JavaScript its
 * syntax tree. oxlint builds a file's tree in JavaScript only when some rule wants to visit it, and
 * building it costs more than everything else the plugin does; most files of a company import
 * nothing wrong, so most files should never be built. The answer must never be "no" for a file
 * where a rule fires: the prefilter only finds the candidates, the core's own `judgeImport` still
 * decides, and the real judgement is made again on the syntax tree.
 *
 * Candidates. Every import site's specifier is a string literal (or a template without
 * substitutions) in the text. The scan looks at every quote followed by `.`, `/`, `@` or `\`: the
 * first character of a path specifier, of the framework's modules, or an escape. The literal's value
 * is read up to the closing quote (escapes decoded; an escape that cannot be decoded, or a literal
 * cut short by an escaped quote, makes the whole file a candidate). Bare specifiers (`zod`,
 * `node:path`) are not candidates: the A9 rules judge paths, and names only when taken from the
 * framework by a data file, but for `collection`, judged from any module: in a file whose text
 * holds the word (or a `\u`, which may spell it) every literal is a candidate. The framework's
 * modules are candidates in a data file; elsewhere they are bare specifiers like any other (most
 * files import the framework, and judging those imports was a third of the prefilter's work). A
 * collections file is always looked at.
 * `test/lint/prefilter.test.ts` holds the core's rules to exactly this.
 *
 * Names. Outside a collections file the names an import takes matter only when it takes them from
 * the framework, or when one is `collection`, so a path candidate is judged without names in a
 * text that cannot hold that word. A framework candidate (or any, in a text that can) is judged with
 * names that include every name its import can take: `*`, `default` and the words of its import
 * clause (back to the `import`/`export` keyword before the `from` that precedes it), or every word
 * of the file when the clause cannot be read that simply (a comment or a quote in it or before the
 * specifier, a character past ASCII beside `from`, a call's argument: `const { secret } =
 * require("m")`), and every rule is a candidate when a name could
 * be written with an escape (the file has a `\u`). The rules only ever find more with more names
 * (also tested).
 */
import { isFrameworkModule } from "../../server/src/core/company.ts";
import { isPathSpecifier } from "../../server/src/core/reach.ts";
import { isLineBreak, unescape } from "../../server/src/core/scan.ts";
import type { ImportContext, ImportRule, ImportSite } from "../../server/src/core/rules/rule.ts";

/**
 * `settings.sanoma.prefilter: false` turns the prefilter off, and with it every reading of the
 * text: each file's syntax tree is visited (the bench and the tests compare). `scan: false` keeps
 * the prefilter but reads the sites of the files it lets through from their trees, not their text.
 */
export function prefilterEnabled(settings: Record<string, unknown> | undefined): boolean {
  const s = settings?.sanoma as { prefilter?: unknown } | undefined;
  return s?.prefilter !== false;
}

export function scanEnabled(settings: Record<string, unknown> | undefined): boolean {
  const s = settings?.sanoma as { scan?: unknown } | undefined;
  return s?.scan !== false;
}

/** A candidate: the specifier's value and the names it is judged with. */
export interface Candidate { specifier: string; names: string[] }

/**
 * Every candidate of a text, or "all" when the text holds a literal that cannot be read.
 * `frameworkNames`: whether names taken from the framework can matter (a data file's can).
 */
export function candidates(text: string, frameworkNames = true): Candidate[] | "all" {
  const out: Candidate[] = [];
  // (No closure over `text` here, and an index loop: both keep this function quick before V8
  // optimizes it, which on a company of 10,000 files is much of the run.)
  let fileWords: string[] | undefined;
  // `collection` taken from any module is judged (A8), so where the word can be (written out, or
  // with an escape), every literal is a candidate; elsewhere bare specifiers are passed over.
  const anySpecifier = text.includes("collection") || text.includes("\\u");
  for (let k = 0; k < QUOTES.length; k++) {
    const q = QUOTES[k];
    for (let open = text.indexOf(q); open >= 0; open = text.indexOf(q, open + 1)) {
      const first = text.charCodeAt(open + 1);
      if (first !== 46 /* . */ && first !== 47 /* / */ && first !== 92 /* \ */ && first !== 64 /* @ */ && !anySpecifier) continue;
      const close = text.indexOf(q, open + 1);
      if (q !== "`") {
        const nl = lineEnd(text, open + 1, close < 0 ? text.length : close);
        if (nl < (close < 0 ? text.length : close)) {
          // A string cannot hold a raw line break: either this quote opened no literal, or a
          // backslash continues the line and the value takes more than this scan reads.
          if (text.charCodeAt(nl - 1) === 92) return "all";
          continue;
        }
      }
      if (close < 0) continue; // no closing quote: no literal starts here
      const raw = text.slice(open + 1, close);
      if (q === "`" && hasSubstitution(raw)) continue;
      // A template's raw line breaks are \n in its value.
      const normalized = q === "`" && raw.includes("\r") ? raw.replace(/\r\n?/g, "\n") : raw;
      const value = normalized.includes("\\") ? unescape(normalized) : normalized;
      if (value === undefined) return "all";
      // (A path's names matter only for `collection`: judged without them where it cannot be.)
      if (!anySpecifier && isPathSpecifier(value)) out.push({ specifier: value, names: NO_NAMES });
      else if (anySpecifier || (frameworkNames && isFrameworkModule(value))) {
        let names = clauseNames(text, open);
        if (names === undefined) {
          // A name written with an escape (`c\u006fllection`) is no word of the text.
          if (text.includes("\\u")) return "all";
          names = fileWords ??= words(text);
        }
        out.push({ specifier: value, names });
      }
    }
  }
  return out;
}

const QUOTES = ["'", '"', "`"];

const NO_NAMES: string[] = [];

const WORD = /[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*/gu;

function words(text: string): string[] {
  return [...new Set(text.match(WORD) ?? [])];
}

function lineEnd(text: string, from: number, limit: number): number {
  for (let i = from; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return i; // (U+2028 and U+2029 may stand in a string)
  }
  return limit;
}

function hasSubstitution(raw: string): boolean {
  for (let i = raw.indexOf("${"); i >= 0; i = raw.indexOf("${", i + 1)) {
    let slashes = 0;
    for (let j = i - 1; j >= 0 && raw[j] === "\\"; j--) slashes++;
    if (slashes % 2 === 0) return true;
  }
  return false;
}

const isIdentChar = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 36 || c === 95 || c === 92 || c >= 128;

const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12 || c === 0xa0 || c === 0xfeff || c === 0x2028 || c === 0x2029;

/**
 * The names an import whose specifier opens at `open` can take: `*` and `default` always, plus the
 * words of its clause when the specifier follows `from`. Undefined when that cannot be read simply
 * (the caller then takes every word of the file).
 */
function clauseNames(text: string, open: number): string[] | undefined {
  let i = open - 1;
  let lineBreak = false;
  for (; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) lineBreak = true;
    else if (c !== 32 && c !== 9 && c !== 11 && c !== 12) break;
  }
  // What precedes must be read for sure: a comment between it and the specifier hides what it
  // is (`*/` ends in `/`; a line comment may end the line before), and a character past ASCII may
  // be a space or part of a word.
  if (i >= 0 && (text.charCodeAt(i) === 47 /* / */ || text.charCodeAt(i) >= 128)) return undefined;
  // A call's argument (`require("m")`, `import("m")`): `const { secret } = require("m")` takes the
  // names of its pattern, which this does not read.
  if (i >= 0 && text.charCodeAt(i) === 40 /* ( */) return undefined;
  if (lineBreak && lineHasComment(text, i)) return undefined;
  const base = ["*", "default"];
  const fromAt = i - 3;
  if (!(fromAt >= 0 && text.startsWith("from", fromAt))) return base;
  const before = fromAt === 0 ? 32 : text.charCodeAt(fromAt - 1);
  if (before >= 128) return undefined; // a space or a letter: \u00a0from, afrom
  if (isIdentChar(before)) return base;
  // Walk back over what a clause is made of (words, spaces, `,`, `{`, `}`, `*`): a comment, a
  // quote or an escape stops the walk, and then the keyword is not found unless it is inside braces.
  let start = fromAt;
  while (start > 0 && isClauseChar(text.charCodeAt(start - 1))) start--;
  // Stopped by a comment (`// import {` on a line of the clause): the keyword found may be in it.
  if (start > 0 && text.charCodeAt(start - 1) === 47 /* / */) return undefined;
  const keyword = lastKeyword(text, start, fromAt);
  // None found, or one that may stand in a line comment (`// see. export {`).
  if (keyword < 0 || lineHasComment(text, keyword)) return undefined;
  const clause = text.slice(keyword + 6, fromAt);
  // `{ secret, import as x }`: reserved words may be named in braces; then the keyword found is
  // inside them, and the clause read from it has a `}` without its `{`. (`export * as import from`
  // is the one place a keyword can follow the real one outside braces: it takes `*`, in `base`.)
  if (count(clause, "{") !== count(clause, "}")) return undefined;
  return base.concat(clause.match(/[^\0-\x7f]/.test(clause) ? WORD : ASCII_WORD) ?? []);
}

const ASCII_WORD = /[A-Za-z_$][\w$]*/g;

/** Whether the line holding `at` has a `//` before it (a line comment, or one in a string: unsure either way). */
function lineHasComment(text: string, at: number): boolean {
  let start = at;
  while (start > 0 && !isLineBreak(text.charCodeAt(start - 1))) start--;
  const slashes = text.indexOf("//", start);
  return slashes >= 0 && slashes < at;
}

const isClauseChar = (c: number): boolean => isIdentChar(c) && c !== 92 || isSpace(c) || c === 44 /* , */ || c === 123 /* { */ || c === 125 /* } */ || c === 42 /* * */;

function count(text: string, c: string): number {
  let n = 0;
  for (let i = text.indexOf(c); i >= 0; i = text.indexOf(c, i + 1)) n++;
  return n;
}

/** The last `import` or `export` standing as a word in `text[from, to)`, or -1. */
function lastKeyword(text: string, from: number, to: number): number {
  for (let k = to - 6; k >= from; k--) {
    const c = text.charCodeAt(k);
    if (c !== 105 /* i */ && c !== 101 /* e */) continue;
    if ((text.startsWith("import", k) || text.startsWith("export", k)) && (k === 0 || !isIdentChar(text.charCodeAt(k - 1))) && !isIdentChar(text.charCodeAt(k + 6))) return k;
  }
  return -1;
}


/**
 * Per file: which rules could fire. One file's answer is kept for the five rules that ask.
 * Judgements are not kept from one file to the next: a cache of them by folder, role and specifier
 * was tried, and on the bench company (most imports distinct) keeping every entry alive to the end
 * of the run cost as much CPU as judging again, or a little more (docs/bench.md).
 */
export class Prefilter {
  private last: { ctx: ImportContext; text: string; fire: ReadonlySet<string> } | undefined;
  private readonly all: ReadonlySet<string>;
  private static readonly NONE: ReadonlySet<string> = new Set();

  constructor(private readonly rules: readonly ImportRule[]) {
    this.all = new Set(rules.map((r) => r.id));
  }

  /** Whether one rule could fire (the last file's answer is kept for the next rule that asks). */
  mayFire(ruleId: string, ctx: ImportContext, text: string): boolean {
    const last = this.last;
    if (last && last.ctx === ctx && last.text === text) return last.fire.has(ruleId);
    const fire = this.firing(ctx, text);
    this.last = { ctx, text, fire };
    return fire.has(ruleId);
  }

  /** The rules that could fire on a file of this context and text. */
  firing(ctx: ImportContext, text: string): ReadonlySet<string> {
    // (Read for every file: V8 then knows it before it optimizes this, though the first
    // collections file may come long after.)
    const all = this.all;
    if (ctx.role.isCollectionsFile) return all;
    const found = candidates(text, ctx.role.isDataFile);
    if (found === "all") return all;
    let fire: Set<string> | undefined;
    for (const c of found) {
      const site: ImportSite<null> = { specifier: c.specifier, specifierRange: null, names: c.names.length === 0 ? NO_NAMES_IN_SITE : c.names.map((imported) => ({ imported, range: null })) };
      for (const rule of this.rules) if (rule.judgeImport(site, ctx).length > 0) (fire ??= new Set()).add(rule.id);
    }
    return fire ?? Prefilter.NONE;
  }
}

/** A site without names (most candidates): one shared array, never written. */
const NO_NAMES_IN_SITE: ImportSite<null>["names"] = [];
