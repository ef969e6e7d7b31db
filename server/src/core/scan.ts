/**
 * A TypeScript file's import sites read from its text, exactly as `sites.ts` reads them from a
 * syntax tree (same forms, same specifiers, same names, same ranges), or `undefined` when the
 * text holds anything this reading cannot vouch for; the caller then asks for the tree.
 *
 * Why: in oxlint, the syntax tree a JS rule visits is built in JavaScript for that file, and that
 * costs more than everything else the plugin does to a file. The prefilter (`prefilter.ts`) spares
 * the files where no rule can fire; this spares the tree of the others.
 *
 * How: a tokenizer (comments, strings, templates with their substitutions, regular expressions,
 * numbers, words, punctuators, bracket depth), then the import forms read from the tokens. Every
 * form holds `import`, `require` or `from`, and a word written with an escape a `\u`, so nothing
 * past the last of these in the text can belong to a site: the tokens stop 16 past it (imports
 * come first in most files), and a form that would look further gives up. It never guesses:
 *   - it reads `.ts`, `.mts` and `.cts` files only (`.tsx`, `.jsx` and JavaScript, which oxc reads
 *     with JSX, where text and tags can hold quotes, are left to the tree);
 *   - a `/` that could start a regular expression or divide, depending on what a parser knows and a
 *     tokenizer does not (after `}`, `>`, `++`, `--`, `of`, `await`, `yield`, after a `!` that
 *     follows an expression across a line break), gives up;
 *   - so does a non-ASCII character outside a literal or comment, a backslash outside one, a
 *     regular expression with the `v` flag (nested classes), `<!--` or `-->` in code (comments in a
 *     script), an unbalanced bracket, an unterminated literal, and any import form read in a way
 *     it does not know exactly (`import type from`, `import defer`, `require<T>(…)`,
 *     `require?.(…)`, `require("m", …)`, `require(("m"))`, `import.source`, `assert { … }`,
 *     specifiers naming `as` oddly).
 * oxlint runs JS rules only on files that parse, so the text is a valid program; the tokens are
 * read as such a program's are. `test/lint/scan.test.ts` holds this reading to oxc's own tree, in
 * the real oxlint, on the repository's sources and on thousands of generated tricky files.
 *
 * What counts, as in `sites.ts`: `import`/`export … from` declarations at the top level only (not
 * inside `declare module "x" { }` or a namespace), `import x = require("m")` at the top level (its
 * `require` is no call), and anywhere: `import("m")` (expression or type) and `require("m")` with
 * one string argument, called directly.
 */
import type { ImportSite } from "./sites.ts";

/** A `[start, end)` range of the text (UTF-16 code units), the shape hosts report at. */
export interface Span { range: [number, number] }
export type TextSite = ImportSite<Span>;

/** Files whose text the scanner reads: TypeScript without JSX. */
export function scannable(file: string): boolean {
  return file.endsWith(".ts") || file.endsWith(".mts") || file.endsWith(".cts");
}

// ---- Tokens -------------------------------------------------------------------------------------

const WORD = 1, STRING = 2, TEMPLATE = 3 /* without substitutions */, HEAD = 4 /* `…${ or }…${ */, TAIL = 5 /* }…` */,
  REGEX = 6, NUMBER = 7, PRIVATE = 8, PUNCT = 9;
/** Punctuators of more than one character that matter (others are read one character at a time). */
const QDOT = 1001 /* ?. */, ELLIPSIS = 1002, ARROW = 1003, INC = 1004, DEC = 1005, CLOSE_HEADER = 1006 /* ) of if/for/while/with */;

/** Reused between files: the tokens of the last text read. */
let kinds = new Uint8Array(4096);
let codes = new Int32Array(4096); // PUNCT: the character (or a code above); others 0
let starts = new Int32Array(4096);
let ends = new Int32Array(4096);
let depths = new Int32Array(4096); // open brackets (and template substitutions) around the token
let breaks = new Uint8Array(4096); // 1 when a line break comes between the previous token and this one
let count = 0;
let text = "";
/** Whether the tokens stop short of the text's end (past its last possible site): looking past them is then unsure. */
let truncated = false;

/** Thrown by a lookahead past the last token of a truncated text, and by forms not read here. */
class Unsure extends Error {}
const UNSURE_SITES = new Unsure("unsure");

/** Whether token `k` exists: past the end of the text, no; past where tokens stop short, unsure. */
function exists(k: number): boolean {
  if (k < count) return true;
  if (truncated) throw UNSURE_SITES;
  return false;
}

function push(kind: number, code: number, start: number, end: number, depth: number, lineBreak: number): void {
  if (count === kinds.length) {
    const grow = <T extends Uint8Array | Int32Array>(a: T): T => { const b = new (a.constructor as new (n: number) => T)(a.length * 2); b.set(a); return b; };
    kinds = grow(kinds); codes = grow(codes); starts = grow(starts); ends = grow(ends); depths = grow(depths); breaks = grow(breaks);
  }
  kinds[count] = kind; codes[count] = code; starts[count] = start; ends[count] = end; depths[count] = depth; breaks[count] = lineBreak;
  count++;
}

export const isLineBreak = (c: number): boolean => c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
/** Non-ASCII white space (JavaScript's WhiteSpace besides tab, VT, FF, space). */
const isWideSpace = (c: number): boolean => c === 0xa0 || c === 0xfeff || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x202f || c === 0x205f || c === 0x3000;

const is = (k: number, word: string): boolean =>
  exists(k) && kinds[k] === WORD && ends[k] - starts[k] === word.length && text.startsWith(word, starts[k]);
const punct = (k: number, code: number): boolean => exists(k) && kinds[k] === PUNCT && codes[k] === code;
/** Whether token `k` follows `.` or `?.`: a property name, whatever word it is. */
const member = (k: number): boolean => k > 0 && kinds[k - 1] === PUNCT && (codes[k - 1] === 46 || codes[k - 1] === QDOT);

/** Words after which a `/` starts a regular expression. */
const REGEX_AFTER = new Set(["return", "typeof", "instanceof", "in", "new", "delete", "void", "throw", "case", "do", "else", "extends", "default", "break", "continue", "debugger"]);
/** Words after which a `/` could do either (or is no valid program): give up. */
const UNSURE_AFTER = new Set(["of", "await", "yield", "if", "for", "while", "switch", "try", "catch", "finally", "with", "function", "class", "const", "var", "import", "export", "enum"]);

const SURE = 0, DIVIDE = 1, UNSURE = 2;
/** Whether a `/` after the last token starts a regular expression (SURE), divides (DIVIDE), or cannot be told (UNSURE). */
function slashAfterLast(): number {
  const k = count - 1;
  if (k < 0) return SURE;
  switch (kinds[k]) {
    case STRING: case TEMPLATE: case TAIL: case REGEX: case NUMBER: case PRIVATE: return DIVIDE;
    case HEAD: return SURE;
    case WORD: {
      if (member(k)) return DIVIDE;
      const w = text.slice(starts[k], ends[k]);
      return REGEX_AFTER.has(w) ? SURE : UNSURE_AFTER.has(w) ? UNSURE : DIVIDE;
    }
  }
  switch (codes[k]) {
    case 41: case 93: return DIVIDE; // ) ]
    case CLOSE_HEADER: return SURE; // if (…) /re/
    case 125: case 62: case INC: case DEC: return UNSURE; // } > ++ --
    case 33: { // !: TypeScript's non-null `x!` ends an expression, a prefix `!` starts one
      const before = k - 1;
      if (before < 0) return SURE;
      const ended = endsExpression(before);
      if (ended === UNSURE) return UNSURE;
      if (ended === SURE) return breaks[k] ? UNSURE : DIVIDE;
      return SURE;
    }
  }
  return SURE;
}

/** Whether token `k` can end an expression (SURE: a following `!` is postfix), cannot (DIVIDE, as "no"), or that is unclear. */
function endsExpression(k: number): number {
  switch (kinds[k]) {
    case STRING: case TEMPLATE: case TAIL: case REGEX: case NUMBER: case PRIVATE: return SURE;
    case HEAD: return DIVIDE;
    case WORD: {
      if (member(k)) return SURE;
      const w = text.slice(starts[k], ends[k]);
      return REGEX_AFTER.has(w) ? DIVIDE : UNSURE_AFTER.has(w) ? UNSURE : SURE;
    }
  }
  switch (codes[k]) {
    case 41: case 93: return SURE;
    case 125: case 62: case 33: case INC: case DEC: return UNSURE;
  }
  return DIVIDE;
}

/** Open brackets: `{` `(` `[`, a `(` after if/for/while/with, a template substitution. */
const OPEN_HEADER = 1, OPEN_SUBSTITUTION = 2;

/** What an ASCII character starts (0: nothing this reads: a backslash, a control character). */
const C_SPACE = 1, C_BREAK = 2, C_WORD = 3, C_DIGIT = 4, C_QUOTE = 5, C_TICK = 6, C_SLASH = 7, C_OPEN = 8, C_RBRACE = 9,
  C_CLOSE = 10, C_DOT = 11, C_PUNCT = 12, C_HASH = 13;
const CLASS = new Uint8Array(128);
/** 1 for the ASCII characters of a word (and of a number, with `.` apart). */
const PART = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z_$]/.test(ch)) { CLASS[c] = C_WORD; PART[c] = 1; }
  else if (/[0-9]/.test(ch)) { CLASS[c] = C_DIGIT; PART[c] = 1; }
  else if (" \t\v\f".includes(ch)) CLASS[c] = C_SPACE;
  else if ("\n\r".includes(ch)) CLASS[c] = C_BREAK;
  else if ("'\"".includes(ch)) CLASS[c] = C_QUOTE;
  else if (ch === "`") CLASS[c] = C_TICK;
  else if (ch === "/") CLASS[c] = C_SLASH;
  else if ("{([".includes(ch)) CLASS[c] = C_OPEN;
  else if (ch === "}") CLASS[c] = C_RBRACE;
  else if (")]".includes(ch)) CLASS[c] = C_CLOSE;
  else if (ch === ".") CLASS[c] = C_DOT;
  else if (ch === "#") CLASS[c] = C_HASH;
  else if ("!%&*+,-:;<=>?@^|~".includes(ch)) CLASS[c] = C_PUNCT;
}
/** Whether the character at `i` continues a word (an escape or a non-ASCII letter would: refused by the caller). */
const wordPart = (source: string, i: number): boolean => { const c = source.charCodeAt(i); return c < 128 && PART[c] === 1; };
/** After a word or number: a backslash or a non-ASCII character would continue it in ways this does not read. */
const oddAfterWord = (source: string, i: number): boolean => { const c = source.charCodeAt(i); return c === 92 || c >= 128; };

/**
 * Tokenizes `source` into the arrays above, up to 16 tokens past `stop` (or to the end), setting
 * `truncated`; false when it cannot vouch for the result.
 */
function tokenize(source: string, stop: number): boolean {
  text = source;
  count = 0;
  truncated = false;
  const n = source.length;
  let last = -1; // the token count to stop at, once `stop` is passed
  const stack: number[] = [];
  let i = 0;
  let lineBreak = 0;
  if (source.charCodeAt(0) === 35 && source.charCodeAt(1) === 33) { // #! line
    while (i < n && !isLineBreak(source.charCodeAt(i))) i++;
  }
  while (i < n) {
    if (i > stop) {
      if (last < 0) last = count + 16;
      else if (count >= last) { truncated = true; return true; }
    }
    const c = source.charCodeAt(i);
    const start = i;
    switch (c < 128 ? CLASS[c] : 0) {
      case C_SPACE:
        i++;
        continue;
      case C_BREAK:
        lineBreak = 1;
        i++;
        continue;
      case C_WORD:
        i++;
        while (i < n && wordPart(source, i)) i++;
        if (oddAfterWord(source, i)) return false; // an escape or a non-ASCII letter in a word
        push(WORD, 0, start, i, stack.length, lineBreak);
        break;
      case C_QUOTE: {
        let j = i + 1;
        for (;;) {
          if (j >= n) return false;
          const d = source.charCodeAt(j);
          if (d === c) break;
          if (d === 92) { j += source.charCodeAt(j + 1) === 13 && source.charCodeAt(j + 2) === 10 ? 3 : 2; continue; }
          if (d === 10 || d === 13) return false;
          j++;
        }
        i = j + 1;
        push(STRING, 0, start, i, stack.length, lineBreak);
        break;
      }
      case C_TICK:
        i = template(source, start, i + 1, false, stack, lineBreak);
        if (i < 0) return false;
        break;
      case C_SLASH: {
        const next = source.charCodeAt(i + 1);
        if (next === 47) { // a line comment
          i += 2;
          while (i < n && !isLineBreak(source.charCodeAt(i))) i++;
          continue;
        }
        if (next === 42) { // a block comment
          const close = source.indexOf("*/", i + 2);
          if (close < 0) return false;
          for (let j = i + 2; j < close; j++) if (isLineBreak(source.charCodeAt(j))) { lineBreak = 1; break; }
          i = close + 2;
          continue;
        }
        const kind = slashAfterLast();
        if (kind === UNSURE) return false;
        if (kind === DIVIDE) {
          i++;
          push(PUNCT, 47, start, i, stack.length, lineBreak);
          break;
        }
        let j = i + 1, inClass = false;
        for (;;) {
          if (j >= n) return false;
          const d = source.charCodeAt(j);
          if (isLineBreak(d)) return false;
          if (d === 92) { if (j + 1 >= n || isLineBreak(source.charCodeAt(j + 1))) return false; j += 2; continue; }
          if (d === 91) inClass = true;
          else if (d === 93) inClass = false;
          else if (d === 47 && !inClass) break;
          j++;
        }
        j++;
        while (j < n && wordPart(source, j)) {
          if (source.charCodeAt(j) === 118) return false; // the v flag: classes nest
          j++;
        }
        if (oddAfterWord(source, j)) return false;
        i = j;
        push(REGEX, 0, start, i, stack.length, lineBreak);
        break;
      }
      case C_DIGIT: // a number: digits, letters, `_` and `.` (1_000, 0x1F, 1e9, 1.5, 10n)
        i++;
        while (i < n) {
          const d = source.charCodeAt(i);
          if ((d < 128 && PART[d] === 1) || d === 46) i++;
          else if ((d === 43 || d === 45) && (source.charCodeAt(i - 1) | 32) === 101 && !isHex(source, start)) i++; // 1e+9
          else break;
        }
        if (oddAfterWord(source, i)) return false;
        push(NUMBER, 0, start, i, stack.length, lineBreak);
        break;
      case C_OPEN: {
        let open: number = c;
        if (c === 40 && count > 0 && kinds[count - 1] === WORD && !member(count - 1)) {
          const k = count - 1;
          if (is(k, "if") || is(k, "for") || is(k, "while") || is(k, "with") || (is(k, "await") && is(k - 1, "for"))) open = OPEN_HEADER;
        }
        push(PUNCT, c, start, ++i, stack.length, lineBreak);
        stack.push(open);
        break;
      }
      case C_RBRACE: {
        const top = stack.pop();
        if (top === OPEN_SUBSTITUTION) {
          i = template(source, start, i + 1, true, stack, lineBreak);
          if (i < 0) return false;
        } else {
          if (top !== 123) return false;
          push(PUNCT, 125, start, ++i, stack.length, lineBreak);
        }
        break;
      }
      case C_CLOSE: { // ) ]
        const top = stack.pop();
        if (c === 93 ? top !== 91 : top !== 40 && top !== OPEN_HEADER) return false;
        push(PUNCT, top === OPEN_HEADER ? CLOSE_HEADER : c, start, ++i, stack.length, lineBreak);
        break;
      }
      case C_DOT: {
        const next = source.charCodeAt(i + 1);
        if (next >= 48 && next <= 57) { // .5
          i++;
          while (i < n && (wordPart(source, i) || source.charCodeAt(i) === 46)) i++;
          push(NUMBER, 0, start, i, stack.length, lineBreak);
        } else {
          const spread = next === 46 && source.charCodeAt(i + 2) === 46;
          i += spread ? 3 : 1;
          push(PUNCT, spread ? ELLIPSIS : 46, start, i, stack.length, lineBreak);
        }
        break;
      }
      case C_PUNCT: {
        // One push for every punctuator (rare ones would otherwise send optimized code back to the interpreter).
        const next = source.charCodeAt(i + 1);
        let code = c, length = 1;
        if (c === 63 && next === 46 && !(source.charCodeAt(i + 2) >= 48 && source.charCodeAt(i + 2) <= 57)) {
          code = QDOT; length = 2;
        } else if (c === 61 && next === 62) {
          code = ARROW; length = 2;
        } else if (next === c && (c === 43 || c === 45)) { // (in this order V8 sees them run, on `&&` `||` `==`, before it optimizes)
          if (c === 45 && source.charCodeAt(i + 2) === 62) return false; // `-->`: a comment in a script
          code = c === 43 ? INC : DEC; length = 2;
        } else if (c === 60 && next === 33 && source.startsWith("--", i + 2)) {
          return false; // `<!--`: a comment in a script
        }
        i += length;
        push(PUNCT, code, start, i, stack.length, lineBreak);
        break;
      }
      case C_HASH: // #private
        i++;
        if (!(i < n && CLASS[source.charCodeAt(i)] === C_WORD)) return false;
        while (i < n && wordPart(source, i)) i++;
        if (oddAfterWord(source, i)) return false;
        push(PRIVATE, 0, start, i, stack.length, lineBreak);
        break;
      default:
        if (c === 0x2028 || c === 0x2029) { lineBreak = 1; i++; continue; }
        if (isWideSpace(c)) { i++; continue; }
        return false; // a backslash, a non-ASCII letter, a control character
    }
    lineBreak = 0;
  }
  return stack.length === 0;
}

/** Template text from `from` (just past a backtick, or a substitution's `}`) to its end or its next substitution; -1 unterminated. */
function template(source: string, start: number, from: number, continued: boolean, stack: number[], lineBreak: number): number {
  for (let j = from, n = source.length; j < n; j++) {
    const c = source.charCodeAt(j);
    if (c === 92) { j++; continue; } // an escape: skip what it escapes
    if (c === 96) { push(continued ? TAIL : TEMPLATE, 0, start, j + 1, stack.length, lineBreak); return j + 1; }
    if (c === 36 && source.charCodeAt(j + 1) === 123) {
      push(HEAD, 0, start, j + 2, stack.length, lineBreak);
      stack.push(OPEN_SUBSTITUTION);
      return j + 2;
    }
  }
  return -1;
}

function isHex(source: string, start: number): boolean {
  return source.charCodeAt(start) === 48 && (source.charCodeAt(start + 1) | 32) === 120;
}

// ---- Sites --------------------------------------------------------------------------------------

/** Token `k`'s kind, 0 past the last token (the arrays hold an older text's tokens there). */
const kind = (k: number): number => (exists(k) ? kinds[k] : 0);
const span = (k: number): Span => ({ range: [starts[k], ends[k]] });

/** A string or template token's value (undefined when its escapes cannot be read surely). */
function valueOf(k: number): string | undefined {
  let raw = text.slice(starts[k] + 1, ends[k] - 1);
  if (kind(k) === TEMPLATE && raw.includes("\r")) raw = raw.replace(/\r\n?/g, "\n");
  return raw.includes("\\") ? unescape(raw) : raw;
}

/**
 * The names of `{ … }` from token `open` (a `{`): the first name of each specifier (the imported
 * one of an import, the local one of an export), with its range; and the index of the `}`.
 */
function specifiers(open: number): { names: TextSite["names"]; close: number } {
  const names: TextSite["names"] = [];
  let k = open + 1;
  for (;;) {
    if (punct(k, 125)) return { names, close: k };
    // One specifier: words and strings up to `,` or `}`.
    const first = k;
    while (k < count && (kind(k) === WORD || kind(k) === STRING)) k++;
    let g = first, len = k - first;
    if ((len === 2 || len === 4) && is(g, "type")) { g++; len--; } // `type X`, `type X as Y`
    if (len === 0) throw UNSURE_SITES;
    if (len === 3 && !is(g + 1, "as")) throw UNSURE_SITES;
    if (len !== 1 && len !== 3) throw UNSURE_SITES;
    // `as` named where TypeScript reads it by lookahead (`{ type as }`, `{ type as as x }`): not read here.
    if (is(g, "as") || (len === 3 && is(g + 2, "as"))) throw UNSURE_SITES;
    if (len === 3 && !(kind(g + 2) === WORD || kind(g + 2) === STRING)) throw UNSURE_SITES;
    const imported = kind(g) === WORD ? text.slice(starts[g], ends[g]) : valueOf(g);
    if (imported === undefined) throw UNSURE_SITES;
    names.push({ imported, range: span(g) });
    if (punct(k, 44)) k++;
    else if (!punct(k, 125)) throw UNSURE_SITES;
  }
}

function literal(k: number, names: TextSite["names"]): TextSite {
  const specifier = valueOf(k);
  if (specifier === undefined) throw UNSURE_SITES;
  return { specifier, specifierRange: span(k), names };
}

/** The range of an `export * from "m"` statement whose string is token `str`: through `with { … }` and `;`. */
function statementEnd(str: number): number {
  let end = ends[str], k = str + 1;
  if (is(k, "assert")) throw UNSURE_SITES;
  if (is(k, "with") && punct(k + 1, 123)) {
    const depth = depths[k + 1];
    let close = k + 2;
    while (close < count && !(punct(close, 125) && depths[close] === depth)) close++;
    if (close >= count) throw UNSURE_SITES;
    end = ends[close];
    k = close + 1;
  }
  if (punct(k, 59)) end = ends[k];
  return end;
}

/** `import …` at token `k` (not a property): its site, if any, and the last token it takes. */
function importAt(k: number, out: TextSite[]): number {
  if (punct(k + 1, 40)) { // import("m"), import type import("m")
    const arg = k + 2;
    if (punct(arg, 40)) throw UNSURE_SITES; // import(("m")): a tree drops the parentheses
    // A template is an expression's argument (an import type takes a string only: oxc rejects the file).
    if ((kind(arg) === STRING || kind(arg) === TEMPLATE) && (punct(arg + 1, 41) || punct(arg + 1, 44))) out.push(literal(arg, [{ imported: "*", range: span(arg) }]));
    return k;
  }
  if (punct(k + 1, 46)) { // import.meta
    if (!is(k + 2, "meta")) throw UNSURE_SITES; // import.source(…), import.defer(…)
    return k;
  }
  let j = k + 1;
  if (is(j, "type")) {
    // `import type from "m"`, `import type = require(…)`, `import type, {…}`: `type` is a name there.
    if (is(j + 1, "from") || punct(j + 1, 61) || punct(j + 1, 44)) throw UNSURE_SITES;
    j++;
  }
  if (kind(j) === WORD && punct(j + 1, 61)) { // import x = require("m") | import x = A.B
    if (!is(j + 2, "require")) return j + 1;
    if (!punct(j + 3, 40) || kind(j + 4) !== STRING || !punct(j + 5, 41)) throw UNSURE_SITES;
    if (depths[k] === 0) out.push(literal(j + 4, [{ imported: "*", range: span(j) }]));
    return j + 5;
  }
  if (depths[k] !== 0) return k; // inside `declare module "x" { }` or a namespace: declares, imports nothing
  if (kind(j) === STRING) {
    if (j !== k + 1) throw UNSURE_SITES;
    out.push(literal(j, []));
    return j;
  }
  const names: TextSite["names"] = [];
  if (kind(j) === WORD && !is(j, "from")) {
    names.push({ imported: "default", range: span(j) });
    j++;
    if (punct(j, 44)) {
      j++;
      if (!punct(j, 42) && !punct(j, 123)) throw UNSURE_SITES;
    } else if (!is(j, "from")) {
      throw UNSURE_SITES; // import defer * as ns, import source x: phases this does not read
    }
  }
  if (punct(j, 42)) { // * as ns
    if (!is(j + 1, "as") || kind(j + 2) !== WORD) throw UNSURE_SITES;
    names.push({ imported: "*", range: span(j + 2) });
    j += 3;
  } else if (punct(j, 123)) {
    const list = specifiers(j);
    names.push(...list.names);
    j = list.close + 1;
  }
  if (!is(j, "from") || kind(j + 1) !== STRING) throw UNSURE_SITES;
  out.push(literal(j + 1, names));
  return j + 1;
}

/** `export …` at token `k`, at the top level: a re-export's site, if any, and the last token it takes. */
function exportAt(k: number, out: TextSite[]): number {
  let j = k + 1;
  if (is(j, "type") && (punct(j + 1, 42) || punct(j + 1, 123))) j++;
  if (punct(j, 42)) { // export * from "m" | export * as ns from "m"
    if (is(j + 1, "as")) {
      const name = j + 2;
      if (!(kind(name) === WORD || kind(name) === STRING) || !is(name + 1, "from") || kind(name + 2) !== STRING) throw UNSURE_SITES;
      out.push(literal(name + 2, [{ imported: "*", range: span(name) }]));
      return name + 2;
    }
    if (!is(j + 1, "from") || kind(j + 2) !== STRING) throw UNSURE_SITES;
    out.push(literal(j + 2, [{ imported: "*", range: { range: [starts[k], statementEnd(j + 2)] } }]));
    return j + 2;
  }
  if (punct(j, 123)) { // export { … } from "m" (or a local export list: no site)
    let close = j + 1;
    while (close < count && (kind(close) === WORD || kind(close) === STRING || punct(close, 44))) close++;
    if (!punct(close, 125) || !is(close + 1, "from")) return k;
    if (kind(close + 2) !== STRING) throw UNSURE_SITES;
    out.push(literal(close + 2, specifiers(j).names));
    return close + 2;
  }
  return k;
}

/** `require` at token `k` (not a property): a call's site, if any. */
function requireAt(k: number, out: TextSite[]): void {
  if (k > 0 && is(k - 1, "new") && !member(k - 1)) return; // new require("m"): no call
  // `const { a, b: c } = require("m")` takes names a tree reads from the pattern: left to it.
  let before = k - 1;
  while (before > 0 && punct(before, 40)) before--;
  if (before > 0 && punct(before, 61) && punct(before - 1, 125)) throw UNSURE_SITES;
  if (punct(k + 1, 60) || punct(k + 1, QDOT)) throw UNSURE_SITES; // require<T>("m"), require?.("m")
  if (!punct(k + 1, 40)) return;
  const arg = k + 2;
  if (punct(arg, 40)) throw UNSURE_SITES; // require(("m")): a tree drops the parentheses
  if (kind(arg) !== STRING && kind(arg) !== TEMPLATE) return;
  if (punct(arg + 1, 44)) throw UNSURE_SITES; // require("m",) has one argument, require("m", x) two
  if (punct(arg + 1, 41)) out.push(literal(arg, [{ imported: "*", range: span(arg) }]));
}

/** Where `word` last occurs in `source`, or -1 (searched forwards: V8's indexOf is several times faster than its lastIndexOf). */
function lastOf(source: string, word: string): number {
  let at = -1;
  for (let i = source.indexOf(word); i >= 0; i = source.indexOf(word, i + word.length)) at = i;
  return at;
}

/** The import sites of a TypeScript text, in order, or undefined when the text cannot be vouched for. */
export function scanSites(source: string): TextSite[] | undefined {
  // Every form has one of these words, and a word with an escape (\u0072equire) a `\u`: nothing
  // past the last of them can be part of a site, so the tokens stop a little after it.
  const stop = lastSiteWord(source);
  if (stop < 0) return [];
  if (!tokenize(source, stop + 7)) return undefined;
  try {
    return readSites(stop);
  } catch (e) {
    if (e === UNSURE_SITES) return undefined;
    throw e;
  } finally {
    text = "";
  }
}

/** Whether `text[from, to)` holds a backslash. */
export function hasBackslash(text: string, from: number, to: number): boolean {
  // Within the range only: `indexOf` from `from` ran to the end of the text when it held none, once
  // per string (a 1.9 MB line of 380,000 strings took 33 s to complete in).
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === 92) return true;
  return false;
}

/** A string literal (or template without substitutions): its range, quotes included, and its value. */
export interface TextString { range: [number, number]; value: string }

/**
 * The import sites of a text, as `scanSites` reads them, and its string literals whose value
 * starts with `prefix` (written out, or with escapes), with their values; undefined when it cannot vouch for them (a literal
 * whose escapes cannot be read surely, or anything `scanSites` refuses). Every token of the text
 * is read, so more texts are refused than by `scanSites`, which stops after the last import.
 */
export function scanText(source: string, prefix: string): { sites: TextSite[]; strings: TextString[] } | undefined {
  if (!tokenize(source, source.length)) return undefined;
  try {
    const stop = lastSiteWord(source);
    const sites = stop < 0 ? [] : readSites(stop);
    const strings: TextString[] = [];
    for (let k = 0; k < count; k++) {
      if (kinds[k] !== STRING && kinds[k] !== TEMPLATE) continue;
      // Its value counts (an escape may write the prefix): a string with a backslash is read.
      const escaped = !source.startsWith(prefix, starts[k] + 1);
      if (escaped && !hasBackslash(source, starts[k], ends[k])) continue;
      // A module's name where it stands (after `from`, `import`, `module`), nested ones too: no such string.
      if (k > 0 && kinds[k - 1] === WORD && !member(k - 1) && (is(k - 1, "from") || is(k - 1, "import") || is(k - 1, "module"))) continue;
      if (k > 1 && punct(k - 1, 40 /* ( */) && kinds[k - 2] === WORD && !member(k - 2) && (is(k - 2, "require") || is(k - 2, "import"))) continue;
      const value = valueOf(k);
      if (value === undefined) return undefined;
      if (escaped && !value.startsWith(prefix)) continue;
      strings.push({ range: [starts[k], ends[k]], value });
    }
    return { sites, strings };
  } catch (e) {
    if (e === UNSURE_SITES) return undefined;
    throw e;
  } finally {
    text = "";
  }
}

/** Where the last word an import form needs stands (-1: none). */
function lastSiteWord(source: string): number {
  return Math.max(lastOf(source, "import"), lastOf(source, "require"), lastOf(source, "from"), lastOf(source, "\\u"));
}

/** The sites among the tokens, up to `stop`; throws `UNSURE_SITES` where unsure. */
function readSites(stop: number): TextSite[] {
  const out: TextSite[] = [];
  for (let k = 0; k < count; k++) {
    if (starts[k] > stop) break; // `export` there re-exports nothing: no `from` follows
    if (kind(k) !== WORD) continue;
    const len = ends[k] - starts[k];
    if (len !== 6 && len !== 7) continue;
    if (member(k)) continue;
    if (is(k, "import")) k = importAt(k, out); // past `import x = require(…)`, whose `require` is no call
    else if (is(k, "export")) { if (depths[k] === 0) k = exportAt(k, out); }
    else if (is(k, "require")) requireAt(k, out);
  }
  return out;
}

/** A literal's value from its raw text, as JavaScript decodes it; undefined where unsure. */
export function unescape(raw: string): string | undefined {
  let out = "";
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (c !== "\\") { out += c; continue; }
    const n = raw[++i];
    if (n === undefined) return undefined; // a quote was escaped: the literal goes on past it
    switch (n) {
      case "n": out += "\n"; break;
      case "r": out += "\r"; break;
      case "t": out += "\t"; break;
      case "b": out += "\b"; break;
      case "f": out += "\f"; break;
      case "v": out += "\v"; break;
      case "0":
        if (/[0-9]/.test(raw[i + 1] ?? "")) return undefined; // legacy octal
        out += "\0";
        break;
      case "x": {
        const hex = raw.slice(i + 1, i + 3);
        if (!/^[0-9a-fA-F]{2}$/.test(hex)) return undefined;
        out += String.fromCharCode(parseInt(hex, 16));
        i += 2;
        break;
      }
      case "u": {
        let hex: string;
        if (raw[i + 1] === "{") {
          const close = raw.indexOf("}", i + 2);
          if (close < 0) return undefined;
          hex = raw.slice(i + 2, close);
          i = close;
        } else {
          hex = raw.slice(i + 1, i + 5);
          i += 4;
        }
        if (!/^[0-9a-fA-F]{1,6}$/.test(hex) || parseInt(hex, 16) > 0x10ffff) return undefined;
        out += String.fromCodePoint(parseInt(hex, 16));
        break;
      }
      case "\r":
        if (raw[i + 1] === "\n") i++;
        break; // a line continuation
      case "\n": case "\u2028": case "\u2029":
        break;
      default:
        if (/[1-9]/.test(n)) return undefined; // legacy octal, or \8 \9
        out += n;
    }
  }
  return out;
}
