/**
 * Which rules could fire on a file, decided from its text before oxlint hands JavaScript its
 * syntax tree. oxlint builds a file's tree in JavaScript only when some rule wants to visit it, and
 * building it costs more than everything else the plugin does; most files of a company import
 * nothing wrong, so most files should never be built. The answer must never be "no" for a file
 * where a rule fires: the prefilter only finds the candidates, the core's own `judgeImport` still
 * decides, and the real judgement is made again on the syntax tree.
 *
 * Candidates. Every import site's specifier is a string literal (or a template without
 * substitutions) in the text. The scan looks at every quote followed by `.`, `/`, `@` or `\` (found
 * by one regular expression, natively): the first character of a path specifier, of the
 * framework's modules, or an escape. Each candidate keeps where its literal opens, so the plugin can
 * read just the sites at the literals that fire (`header.ts`). The literal's value
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
 * specifier, a character past ASCII beside `from`, the argument of `require(…)` or `import(…)`:
 * `const { secret } = require("m")`), and every rule is a candidate when a name could be written
 * with an escape (the file has a `\u`). The argument of a call of any other plain name
 * (`ctx.call("data.x.get")`) is no specifier: it is judged with `*` and `default` only. The rules
 * only ever find more with more names (also tested).
 *
 * Verdicts. A candidate's verdict is shared where the core says it may be (`reach.ts`'s
 * `verdictFolder` and `bareVerdictKey`, held to every import rule by the same tests): a path judged
 * without names, from one folder and data-file role, by its folder part when its last segment is
 * a plain name; a specifier that is no path, by itself, its names and the file's role.
 */
import { isFrameworkModule } from "../../server/src/core/company.ts";
import { bareVerdictKey, importTarget, isPathSpecifier, sharesVerdict, verdictFolder } from "../../server/src/core/reach.ts";
import { unescape } from "../../server/src/core/scan.ts";
import { isLineBreak } from "../../server/src/core/scan-tokens.ts";
import type { ImportContext, ImportSite } from "../../server/src/core/sites.ts";
import type { ImportRule } from "../../server/src/core/rules/rule.ts";
import type { TextSite } from "../../server/src/core/scan.ts";
import { namesOf, readHeader } from "./header.ts";

/**
 * `settings.sanoma.prefilter: false` turns the prefilter off, and with it every reading of the
 * text: each file's syntax tree is visited (the bench and the tests compare). `scan: false` keeps
 * the prefilter but reads the sites of the files it lets through from their trees, not their text.
 * `header: false` reads them with the tokenizer even where the header would do (`header.ts`).
 */
export function prefilterEnabled(settings: Record<string, unknown> | undefined): boolean {
  const s = settings?.sanoma as { prefilter?: unknown } | undefined;
  return s?.prefilter !== false;
}

export function scanEnabled(settings: Record<string, unknown> | undefined): boolean {
  const s = settings?.sanoma as { scan?: unknown } | undefined;
  return s?.scan !== false;
}

export function headerEnabled(settings: Record<string, unknown> | undefined): boolean {
  const s = settings?.sanoma as { header?: unknown } | undefined;
  return s?.header !== false;
}

/** A candidate: the specifier's value, the names it is judged with, and where its literal opens (the quote). */
export interface Candidate { specifier: string; names: string[]; at: number }

/**
 * Every candidate of a text, in order, or "all" when the text holds a literal that cannot be read.
 * `frameworkNames`: whether names taken from the framework can matter (a data file's can).
 * `from`: where to start, at the start of a statement (past the lines a header read).
 */
export function candidates(text: string, frameworkNames = true, from = 0): Candidate[] | "all" {
  const out: Candidate[] = [];
  let fileWords: string[] | undefined;
  // `collection` taken from any module is judged (A8), so where the word can be (written out, or
  // with an escape), every literal is a candidate; elsewhere bare specifiers are passed over, and
  // the quotes that can open a candidate are found by one native search rather than a loop over
  // every quote (most of the plugin's time on a large company is its code running cold).
  const escapes = text.indexOf("\\u", from) >= 0;
  const anySpecifier = escapes || text.indexOf("collection", from) >= 0;
  const openers = anySpecifier ? ANY_QUOTE : CANDIDATE_QUOTE;
  // Without a carriage return, a literal's line ends at the next \n, found natively (and kept:
  // the openers come in order, so the text is searched for line feeds once in all).
  const cr = text.includes("\r");
  let lf = -1;
  openers.lastIndex = from;
  for (let m = openers.exec(text); m !== null; m = openers.exec(text)) {
    const open = m.index;
    openers.lastIndex = open + 1; // (every quote may open a literal, the one closing this too)
    const q = text[open];
    const close = text.indexOf(q, open + 1);
    const limit = close < 0 ? text.length : close;
    if (q !== "`") {
      if (!cr && lf <= open) { lf = text.indexOf("\n", open + 1); if (lf < 0) lf = text.length; }
      const nl = cr ? lineEnd(text, open + 1, limit) : Math.min(lf, limit);
      if (nl < limit) {
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
    if (!anySpecifier && isPathSpecifier(value)) out.push({ specifier: value, names: NO_NAMES, at: open });
    else if (anySpecifier || (frameworkNames && isFrameworkModule(value))) {
      let names = clauseNames(text, open);
      if (names === undefined) {
        // A name written with an escape (`c\u006fllection`) is no word of the text.
        if (escapes) return "all";
        // (From `from` on: a statement there begins there, and so does its clause.)
        names = fileWords ??= words(from === 0 ? text : text.slice(from));
      }
      out.push({ specifier: value, names, at: open });
    }
  }
  return out;
}

/** Every quote, and (where bare specifiers are passed over) the quotes that may open a path, a framework module or an escape. */
const ANY_QUOTE = /['"`]/g;
const CANDIDATE_QUOTE = /['"`][./\\@]/g;

const NO_NAMES: string[] = [];

const WORD = /[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*/gu;

function words(text: string): string[] {
  return [...new Set(text.match(WORD) ?? [])];
}

/** Where the first \n or \r in `text[from, limit)` is, else `limit`. */
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
  // A call's argument. Of `require("m")` or `import("m")`: `const { secret } = require("m")`
  // takes the names of its pattern, which this does not read. Of a call of any other name
  // (`ctx.call("data.x.get")`), it is no specifier at all.
  if (i >= 0 && text.charCodeAt(i) === 40 /* ( */) return calledName(text, i) === "other" ? BASE_NAMES : undefined;
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

/** The names a literal that is no import's specifier is judged with (any would do: it cannot fire). */
const BASE_NAMES = ["*", "default"];

/**
 * What is called with the `(` at `paren`: `require` or `import` (a site's own call), another
 * plain word (`call`, `log`, `if`: no site), or unsure (`)(`, `?.(`, a comment, a word with an
 * escape or a character past ASCII).
 */
function calledName(text: string, paren: number): "site" | "other" | "unsure" {
  let end = paren - 1;
  while (end >= 0 && isSpace(text.charCodeAt(end))) end--;
  let start = end + 1;
  while (start > 0 && isIdentChar(text.charCodeAt(start - 1))) start--;
  if (start > end) return "unsure";
  const word = text.slice(start, end + 1);
  if (!/^[A-Za-z_$][\w$]*$/.test(word)) return "unsure";
  return word === "require" || word === "import" ? "site" : "other";
}

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

/** A candidate the rules may fire on: where its literal opens, and which of the prefilter's rules (bit `i` for `rules[i]`). */
export interface Firing {
  at: number;
  rules: number;
  /** The site at this literal, where the file's header read it (with its names where any can matter). */
  site?: TextSite;
}

/**
 * What the prefilter says of one file: the rules that could fire, and where (`firing`, in the
 * text's order), or `firing` undefined when every rule could, anywhere (a collections file, a
 * literal that cannot be read).
 */
export interface Verdict { fire: ReadonlySet<string>; firing: readonly Firing[] | undefined }

/**
 * Per file: which rules could fire. One file's answer is kept for the five rules that ask.
 *
 * Verdicts are shared within a folder (a host's record of it, `folder`) through the core's
 * `verdictFolder`: `./lib/a` and `./lib/b`, judged from files of one folder and role that take
 * no names that matter, get the same verdict from every import rule, so most of a company's
 * imports are judged once per folder and specifier folder (on the bench's 10,000 files, 1,352
 * judgements where there were 18,494, and the judging code then never runs long enough for V8 to
 * spend time optimizing it). The folder's record is new in each observation of the roots, and so
 * are its verdicts.
 */
export class Prefilter {
  private last: { ctx: ImportContext; text: string; fire: ReadonlySet<string> } | undefined;
  private readonly every: Verdict;
  private readonly sets = new Map<number, ReadonlySet<string>>();
  /** By folder record: for its data files and its other files, the specifier's folder → the rules' bits, or -1 (judged each time). */
  private readonly byFolder = new WeakMap<object, [Map<string, number>, Map<string, number>]>();
  private lastFolder: object | undefined;
  private lastMaps: [Map<string, number>, Map<string, number>] | undefined;
  /** Specifiers that are no path, with their names, by role (`bareVerdictKey`): the rules' bits. */
  private readonly bare = new Map<string, number>();
  private static readonly NONE: Verdict = { fire: new Set(), firing: [] };

  constructor(private readonly rules: readonly ImportRule[]) {
    this.every = { fire: new Set(rules.map((r) => r.id)), firing: undefined };
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
    return this.verdict(ctx, text).fire;
  }

  /**
   * The rules that could fire, and where; `folder`: the host's record of the file's folder, where
   * verdicts are shared. The lines of imports a file opens with are read as sites (`header.ts`)
   * and judged as such, the rest of the text by its candidates.
   */
  verdict(ctx: ImportContext, text: string, folder?: object): Verdict {
    // (Read for every file: V8 then knows it before it optimizes this, though the first
    // collections file may come long after.)
    const every = this.every;
    if (ctx.role.isCollectionsFile) return every;
    let shared: Map<string, number> | undefined;
    if (folder !== undefined) {
      let maps = this.lastFolder === folder ? this.lastMaps : this.byFolder.get(folder);
      if (maps === undefined) this.byFolder.set(folder, (maps = [new Map(), new Map()]));
      this.lastFolder = folder;
      this.lastMaps = maps;
      shared = maps[ctx.role.isDataFile ? 0 : 1];
    }
    let mask = 0;
    let firing: Firing[] | undefined;
    const header = readHeader(text, "shape");
    const collection = text.indexOf("collection");
    for (const site of header.sites) {
      const specifier = site.specifier;
      const at = site.specifierRange.range[0];
      // Names matter where they may take `collection` (the word stands before the literal on its
      // line), and in a data file taking from the framework; else a path is judged without them,
      // and any other specifier cannot fire (the core assumptions of test/lint/prefilter.test.ts).
      const named = (collection >= 0 && collection < at && text.lastIndexOf("collection", at) >= site.line) || (ctx.role.isDataFile && isFrameworkModule(specifier));
      if (!named && !isPathSpecifier(specifier)) continue;
      if (named) {
        const names = namesOf(text, site);
        if (names === undefined) return this.byCandidates(ctx, text, shared); // names the header cannot read: the whole text's candidates
        site.names = names;
      }
      const rules = this.judge({ specifier, names: named ? site.names.map((n) => n.imported) : NO_NAMES, at }, ctx, shared);
      if (rules === 0) continue;
      mask |= rules;
      (firing ??= []).push({ at, rules, site });
    }
    return this.withCandidates(header.end === text.length ? NO_CANDIDATES : candidates(text, ctx.role.isDataFile, header.end), ctx, shared, mask, firing);
  }

  /** The verdict from every candidate of the text, its header read as any other text (where a header's names cannot be read). */
  private byCandidates(ctx: ImportContext, text: string, shared: Map<string, number> | undefined): Verdict {
    return this.withCandidates(candidates(text, ctx.role.isDataFile), ctx, shared, 0, undefined);
  }

  /** The verdict of a file: the rules that `mask` says fire, where `firing` says, and those that fire on `found`. */
  private withCandidates(found: Candidate[] | "all", ctx: ImportContext, shared: Map<string, number> | undefined, mask: number, firing: Firing[] | undefined): Verdict {
    if (found === "all") return this.every;
    for (const c of found) {
      const rules = this.judge(c, ctx, shared);
      if (rules === 0) continue;
      mask |= rules;
      (firing ??= []).push({ at: c.at, rules });
    }
    return mask === 0 ? Prefilter.NONE : { fire: this.setOf(mask), firing };
  }

  /** The bits of the rules that fire on one candidate, shared where the core allows (`shared`: the folder's, for the file's role). */
  private judge(c: Candidate, ctx: ImportContext, shared: Map<string, number> | undefined): number {
    let key: string | undefined;
    let memo: Map<string, number> | undefined;
    if (shared !== undefined) {
      if (c.names.length === 0) {
        key = verdictFolder(c.specifier);
        memo = shared;
      } else if (!isPathSpecifier(c.specifier)) {
        key = bareVerdictKey(c.specifier, c.names, ctx.role);
        memo = this.bare;
      }
      if (key !== undefined) {
        const known = memo!.get(key);
        if (known !== undefined) {
          if (known >= 0) return known;
          key = undefined;
        }
      }
    }
    const site: ImportSite<null> = { specifier: c.specifier, specifierRange: null, names: c.names.length === 0 ? NO_NAMES_IN_SITE : c.names.map((imported) => ({ imported, range: null })) };
    let rules = 0;
    for (let i = 0; i < this.rules.length; i++) if (this.rules[i].judgeImport(site, ctx).length > 0) rules |= 1 << i;
    if (key !== undefined) {
      // (The company-wide table is a pure function of its keys, never stale; bounded for a host that lints for days.)
      if (memo === this.bare && this.bare.size >= 10_000) this.bare.clear();
      memo!.set(key, memo === this.bare || sharesVerdict(importTarget(ctx, c.specifier)) ? rules : -1);
    }
    return rules;
  }

  private setOf(mask: number): ReadonlySet<string> {
    let set = this.sets.get(mask);
    if (set === undefined) this.sets.set(mask, (set = new Set(this.rules.filter((_, i) => mask & (1 << i)).map((r) => r.id))));
    return set;
  }
}

const NO_CANDIDATES: Candidate[] = [];

/** A site without names (most candidates): one shared array, never written. */
const NO_NAMES_IN_SITE: ImportSite<null>["names"] = [];
