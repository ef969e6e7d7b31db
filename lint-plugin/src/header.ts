/**
 * A file's header: the import statements it opens with, read exactly from its text one line at a
 * time, in a grammar small enough for a regular expression per form. The header ends at the first
 * line it does not know. What it reads is what `sites.ts` reads from oxc's tree (the same
 * specifiers, names and ranges), and no other import site can stand before its end: every
 * character before it belongs to a line read here.
 *
 * Why: in oxlint, every file's imports are judged, and a file where some rule fires needs its
 * import sites read exactly. The tokenizer (`server/src/core/scan.ts`) can read them, but on a
 * company with thousands of such files it is a lot of code for V8 to warm up in every run. Most
 * import sites, and almost all that rules fire on, stand in the lines of imports at the top of a
 * file, and those lines are read here by native regular expressions. The prefilter reads each
 * file's header by its shape (specifiers and places; names with `namesOf`, only where they can
 * matter) and the rest of the text by its candidates; a file whose firing literals all stand in
 * its header has its findings from those sites, and where one lies past it, the tokenizer reads
 * the file.
 *
 * Lines known (spaces and tabs between words, ASCII names; a line comment may end any of them):
 *   - a blank line, a line comment, a block comment that ends its line, a hashbang first;
 *   - `import d, * as ns from "m"`, `import d, { a, type b as c } from "m"`, `import type …`, `import "m"`
 *     (a clause's braces may span lines);
 *   - `export * from "m"`, `export * as ns from "m"`, `export { a as b, type c } from "m"`, `export type …`;
 *   - `const x = require("m");`, `const { a, b: c } = require("m");`, `const x = await import("m");`
 *     (with its `;`: without one the next line may carry on the expression);
 *   - `import x = require("m")`.
 * A specifier is a string literal without escapes. A clause holding a comment, a quote, a
 * character past ASCII, or a name a parser reads two ways (`type`, `as`, `from` as a name) is not
 * known: the header ends before it.
 */
import type { TextSite } from "../../server/src/core/scan.ts";

/** A site of the header, with where its line starts (for `namesOf`). */
export interface HeaderSite extends TextSite { line: number }

export interface Header {
  /** The sites of the header's lines, in order. */
  sites: HeaderSite[];
  /** Where the header ends: the start of the first line it does not know, or the text's length. */
  end: number;
}

type Names = TextSite["names"];
type Range = { range: [number, number] };

// A line's end: spaces, a line comment, a line break (or the end of the text).
const EOL = String.raw`[ \t]*(?:\/\/[^\n\r\u2028\u2029]*)?(?:\r\n|\n|\r|$)`;
// A string literal without escapes, as two groups: its quote and its value.
const LITERAL = String.raw`(["'])([^"'\\\n\r\u2028\u2029]*)`;
// What may stand between the keyword and `from`: no quote, comment, escape or `;` (its names are read apart).
const CLAUSE = String.raw`([^'"\x60;\/\\]*?)`;
const ID = String.raw`[A-Za-z_$][\w$]*`;

// Sticky regular expressions, one per form; their groups give every offset (see `line`).
const BLANK = /[ \t]*(?:\/\/[^\n\r\u2028\u2029]*)?(?:\r\n|\n|\r)/y;
const BLOCK = new RegExp(String.raw`[ \t]*\/\*[^*]*\*+(?:[^/*][^*]*\*+)*\/` + EOL, "y");
const HASHBANG = /#![^\n\r\u2028\u2029]*(?:\r\n|\n|\r|$)/y;
// 1 spaces, 2 clause, 3 spaces, 4 quote, 5 value, 6 spaces, 7 `;`
const IMPORT = new RegExp(String.raw`([ \t]*)import(?=[ \t\r\n{*])${CLAUSE}from([ \t]*)${LITERAL}\4([ \t]*)(;)?` + EOL, "y");
const EXPORT = new RegExp(String.raw`([ \t]*)export(?=[ \t\r\n{*])${CLAUSE}from([ \t]*)${LITERAL}\4([ \t]*)(;)?` + EOL, "y");
// 1 up to the literal, 2 quote, 3 value
const SIDE_EFFECT = new RegExp(String.raw`([ \t]*import[ \t]*)${LITERAL}\2[ \t]*;?` + EOL, "y");
// 1 up to the name, 2 name, 3 up to the literal, 4 quote, 5 value
const IMPORT_EQUALS = new RegExp(String.raw`([ \t]*import[ \t]+)(${ID})([ \t]*=[ \t]*require[ \t]*\([ \t]*)${LITERAL}\4[ \t]*\)[ \t]*;?` + EOL, "y");
// 1 up to the binding, 2 binding, 3 up to the call, 4 call, 5 up to the literal, 6 quote, 7 value
const REQUIRE = new RegExp(String.raw`([ \t]*(?:const|let|var)[ \t]+)(${ID}|\{[\w$ \t:,]*\})([ \t]*=[ \t]*)(require|await[ \t]+import|import)([ \t]*\([ \t]*)${LITERAL}\6[ \t]*\)[ \t]*;` + EOL, "y");

/**
 * The header of a text (see above), every site with its names; `"shape"`: every site with none
 * (read them with `namesOf` where they matter). A line is known by its shape alone: `import …` up
 * to `from` and a literal, with nothing in between that could hide a string or a comment, is one
 * import declaration whatever its names; read by its shape, a header runs on past a line whose
 * names it could not read (`namesOf` then says so).
 */
export function readHeader(text: string, read?: "shape"): Header {
  const names = read !== "shape";
  const sites: HeaderSite[] = [];
  let pos = 0;
  if (text.charCodeAt(0) === 35 /* # */ && text.charCodeAt(1) === 33 /* ! */) {
    HASHBANG.lastIndex = 0;
    if (HASHBANG.test(text)) pos = HASHBANG.lastIndex;
  }
  for (;;) {
    if (pos >= text.length) return { sites, end: text.length };
    const next = line(text, pos, sites, names);
    if (next < 0) return { sites, end: pos };
    pos = next;
  }
}

/** The forms of a line with a site. */
const IMPORT_FORM = 1, SIDE_EFFECT_FORM = 2, IMPORT_EQUALS_FORM = 3, EXPORT_FORM = 4, REQUIRE_FORM = 5;

/** Where the line at `pos` ends, when it is one the header knows (its site pushed, with its names when `names`); else -1. */
function line(text: string, pos: number, sites: HeaderSite[], names: boolean): number {
  let first = pos;
  let c = text.charCodeAt(first);
  while (c === 32 || c === 9) c = text.charCodeAt(++first);
  if (c === 10 || c === 13 || c === 47 /* / */) return after(text.charCodeAt(first + 1) === 42 /* * */ ? BLOCK : BLANK, text, pos);
  let m: RegExpExecArray | null;
  if (c === 105 /* i */) {
    if ((m = match(IMPORT, text, pos)) !== null) return site(sites, pos, m, IMPORT_FORM, pos + m[1].length + 6 + m[2].length + 4 + m[3].length, m[5], names);
    if ((m = match(SIDE_EFFECT, text, pos)) !== null) return site(sites, pos, m, SIDE_EFFECT_FORM, pos + m[1].length, m[3], names);
    if ((m = match(IMPORT_EQUALS, text, pos)) !== null) return site(sites, pos, m, IMPORT_EQUALS_FORM, pos + m[1].length + m[2].length + m[3].length, m[5], names);
    return -1;
  }
  if (c === 101 /* e */) {
    if (!(m = match(EXPORT, text, pos))) return -1;
    return site(sites, pos, m, EXPORT_FORM, pos + m[1].length + 6 + m[2].length + 4 + m[3].length, m[5], names);
  }
  if (c === 99 /* c */ || c === 108 /* l */ || c === 118 /* v */) {
    if (!(m = match(REQUIRE, text, pos))) return -1;
    return site(sites, pos, m, REQUIRE_FORM, pos + m[1].length + m[2].length + m[3].length + m[4].length + m[5].length, m[7], names);
  }
  return -1;
}

function match(re: RegExp, text: string, pos: number): RegExpExecArray | null {
  re.lastIndex = pos;
  return re.exec(text);
}

function after(re: RegExp, text: string, pos: number): number {
  re.lastIndex = pos;
  return re.test(text) ? re.lastIndex : -1;
}

/** Pushes the line's site (with its names when `names`) and gives where the line ends, or -1 when its names cannot be read. */
function site(sites: HeaderSite[], line: number, m: RegExpExecArray, form: number, at: number, value: string, names: boolean): number {
  const read = names ? namesAt(line, m, form, at) : NO_NAMES;
  if (read === undefined) return -1;
  sites.push({ specifier: value, specifierRange: { range: [at, at + value.length + 2] }, names: read, line });
  return m.index + m[0].length;
}

/** The names of the line at `pos` matched as `form` (its literal at `at`), or undefined where they cannot be read here. */
function namesAt(pos: number, m: RegExpExecArray, form: number, at: number): Names | undefined {
  switch (form) {
    case IMPORT_FORM: return importNames(pos + m[1].length + 6, m[2]);
    case SIDE_EFFECT_FORM: return [];
    case IMPORT_EQUALS_FORM: {
      const id = pos + m[1].length;
      return AMBIGUOUS.has(m[2]) ? undefined : [{ imported: "*", range: { range: [id, id + m[2].length] } }];
    }
    case EXPORT_FORM: {
      const keyword = pos + m[1].length;
      const end = m[7] === undefined ? at + m[5].length + 2 : at + m[5].length + 2 + m[6].length + 1;
      return exportNames(keyword + 6, m[2], [keyword, end]);
    }
    default: return bindingNames(pos + m[1].length, m[2], m[4], at, m[7]);
  }
}

const NO_NAMES: Names = [];

/** The names of a site read by its shape (`"shape"`), read now; undefined where they cannot be read (the line is then one the header does not know). */
export function namesOf(text: string, site: HeaderSite): TextSite["names"] | undefined {
  const one: HeaderSite[] = [];
  return line(text, site.line, one, true) < 0 ? undefined : one[0]?.names;
}

// ---- Names --------------------------------------------------------------------------------------

interface Token { text: string; at: number }

/** Words and the punctuation a clause or a pattern is made of; undefined for anything else (a character past ASCII, `=`, …). */
function tokens(text: string, offset: number): Token[] | undefined {
  const out: Token[] = [];
  const re = /[A-Za-z_$][\w$]*|\S/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const t = m[0];
    if (t.length === 1 && !/[A-Za-z_${},*:]/.test(t)) return undefined;
    out.push({ text: t, at: offset + m.index });
  }
  return out;
}

/** Words a parser may read as a keyword, or that a clause reads two ways: such a clause is not read here. */
const AMBIGUOUS = new Set(["type", "as", "from", "import", "export", "await", "yield", "let", "static", "implements", "interface", "package", "private", "protected", "public"]);
const isWord = (t: Token): boolean => /^[A-Za-z_$]/.test(t.text);
const isName = (t: Token | undefined): t is Token => t !== undefined && isWord(t) && !AMBIGUOUS.has(t.text);
const rangeOf = (t: Token): Range => ({ range: [t.at, t.at + t.text.length] });

function clauseTokens(clause: string, at: number): Token[] | undefined {
  const ts = tokens(clause, at);
  if (ts === undefined || ts.length === 0) return undefined;
  // `import type X`, `export type {…}`: a type-only statement, with the same names.
  return ts[0].text === "type" && ts.length > 1 && ts[1].text !== "," ? ts.slice(1) : ts;
}

/** `import d, * as ns`, `import d, { a as b }`, `import { … }`: default at d, `*` at ns, each imported name at itself. */
function importNames(at: number, clause: string): Names | undefined {
  const ts = clauseTokens(clause, at);
  if (ts === undefined) return undefined;
  const names: Names = [];
  let i = 0;
  if (isName(ts[0])) {
    names.push({ imported: "default", range: rangeOf(ts[0]) });
    if (ts.length === 1) return names;
    if (ts[1].text !== ",") return undefined;
    i = 2;
  }
  if (ts[i]?.text === "*") {
    if (ts[i + 1]?.text !== "as" || !isName(ts[i + 2]) || i + 3 !== ts.length) return undefined;
    names.push({ imported: "*", range: rangeOf(ts[i + 2]) });
    return names;
  }
  return braces(ts, i, names);
}

/** `export * from` (`*` at the statement, `;` included: `statement`), `export * as ns` (at ns), `export { a as b }` (each local name at itself). */
function exportNames(at: number, clause: string, statement: [number, number]): Names | undefined {
  const ts = clauseTokens(clause, at);
  if (ts === undefined) return undefined;
  if (ts[0].text === "*") {
    if (ts.length === 1) return [{ imported: "*", range: { range: statement } }];
    if (ts[1].text !== "as" || !isName(ts[2]) || ts.length !== 3) return undefined;
    return [{ imported: "*", range: rangeOf(ts[2]) }];
  }
  return braces(ts, 0, []);
}

/** `{ a, b as c, type d, default as e }` from token `i` to the last: each specifier's first name (an import's imported side, an export's local side). */
function braces(ts: Token[], i: number, names: Names): Names | undefined {
  const last = ts.length - 1;
  if (ts[i]?.text !== "{" || last <= i || ts[last].text !== "}") return undefined;
  // (`default` may be named in braces: `{ default as x }`, `export { default } from`.)
  const named = (t: Token | undefined): t is Token => t !== undefined && isWord(t) && (t.text === "default" || !AMBIGUOUS.has(t.text));
  return commaList(ts, i + 1, last, (k) => {
    if (ts[k].text === "type" && named(ts[k + 1])) k++;
    const name = ts[k];
    if (!named(name)) return -1;
    k++;
    if (ts[k].text === "as") {
      if (!named(ts[k + 1])) return -1;
      k += 2;
    }
    names.push({ imported: name.text, range: rangeOf(name) });
    return k;
  }) ? names : undefined;
}

/** Items separated by commas from token `i` to `last` (a closing brace; a trailing comma allowed): whether `item` read each (it gives where its item ends, or -1). */
function commaList(ts: Token[], i: number, last: number, item: (i: number) => number): boolean {
  while (i < last) {
    const next = item(i);
    if (next < 0) return false;
    if (next === last) return true;
    if (ts[next].text !== ",") return false;
    i = next + 1; // (a trailing comma leaves `i` at the closing brace)
  }
  return true;
}

/**
 * `const x = require("m")` and `await import("m")`: `*` at the literal; `const { a, b: c } =
 * require("m")` and `… = await import("m")`: each key at itself (`… = import("m")` destructures a
 * promise: `*`).
 */
function bindingNames(at: number, binding: string, call: string, literal: number, value: string): Names | undefined {
  const whole: Names = [{ imported: "*", range: { range: [literal, literal + value.length + 2] } }];
  if (!binding.startsWith("{")) return AMBIGUOUS.has(binding) ? undefined : whole;
  if (call === "import") return whole;
  const ts = tokens(binding, at);
  if (ts === undefined) return undefined;
  const names: Names = [];
  const read = commaList(ts, 1, ts.length - 1, (k) => {
    const key = ts[k];
    if (!isName(key)) return -1;
    k++;
    if (ts[k].text === ":") {
      if (!isName(ts[k + 1])) return -1;
      k += 2;
    }
    names.push({ imported: key.text, range: rangeOf(key) });
    return k;
  });
  // `const {} = require("m")`: no names, as the tree gives; left to the tokenizer.
  return read && names.length > 0 ? names : undefined;
}
