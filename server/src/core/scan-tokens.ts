/**
 * The text scanner's tokenizer (see `scan.ts`, which reads import sites from its tokens):
 * comments, strings, templates with their substitutions, regular expressions, numbers, words,
 * punctuators, bracket depth. The tokens of the last text read are kept in typed arrays reused
 * between files (the lint plugin reads thousands of files: no token objects).
 */

// ---- Tokens -------------------------------------------------------------------------------------

export const WORD = 1, STRING = 2, TEMPLATE = 3 /* without substitutions */, HEAD = 4 /* `…${ or }…${ */, TAIL = 5 /* }…` */,
  REGEX = 6, NUMBER = 7, PRIVATE = 8, PUNCT = 9;
/** Punctuators of more than one character that matter (others are read one character at a time). */
export const QDOT = 1001 /* ?. */, ELLIPSIS = 1002, ARROW = 1003, INC = 1004, DEC = 1005, CLOSE_HEADER = 1006 /* ) of if/for/while/with */;

/** Reused between files: the tokens of the last text read. */
export let kinds = new Uint8Array(4096);
let codes = new Int32Array(4096); // PUNCT: the character (or a code above); others 0
export let starts = new Int32Array(4096);
export let ends = new Int32Array(4096);
export let depths = new Int32Array(4096); // open brackets (and template substitutions) around the token
let breaks = new Uint8Array(4096); // 1 when a line break comes between the previous token and this one
export let count = 0;
export let text = "";
/** Whether the tokens stop short of the text's end (past its last possible site): looking past them is then unsure. */
let truncated = false;

/**
 * Lets go of the last text read (the tokens stay, to be overwritten): a big file is not kept alive
 * by the scanner, nor its tokens (18 bytes each) past what a usual file needs.
 */
export function releaseText(): void {
  text = "";
  if (kinds.length > KEPT_TOKENS) {
    count = 0;
    kinds = new Uint8Array(KEPT_TOKENS); codes = new Int32Array(KEPT_TOKENS); starts = new Int32Array(KEPT_TOKENS);
    ends = new Int32Array(KEPT_TOKENS); depths = new Int32Array(KEPT_TOKENS); breaks = new Uint8Array(KEPT_TOKENS);
  }
}

/** How many tokens' arrays stay between texts (a file of 300 KB or so). */
const KEPT_TOKENS = 1 << 16;

/** Thrown by a lookahead past the last token of a truncated text, and by forms not read here. */
class Unsure extends Error {}
export const UNSURE_SITES = new Unsure("unsure");

/** Whether token `k` exists: past the end of the text, no; past where tokens stop short, unsure. */
export function exists(k: number): boolean {
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

export const is = (k: number, word: string): boolean =>
  exists(k) && kinds[k] === WORD && ends[k] - starts[k] === word.length && text.startsWith(word, starts[k]);
export const punct = (k: number, code: number): boolean => exists(k) && kinds[k] === PUNCT && codes[k] === code;
/** Whether token `k` follows `.` or `?.`: a property name, whatever word it is. */
export const member = (k: number): boolean => k > 0 && kinds[k - 1] === PUNCT && (codes[k - 1] === 46 || codes[k - 1] === QDOT);

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
 * How deep a text's brackets (and template substitutions) nest; undefined where the tokenizer
 * refuses (a non-ASCII name, a string left open…): what it read up to there says nothing of the
 * rest. Iterative: a text too deep for a parser's recursion is measured all the same.
 */
export function nestingDepth(source: string): number | undefined {
  if (!tokenize(source, source.length)) { releaseText(); return undefined; }
  let deepest = 0;
  for (let k = 0; k < count; k++) {
    const opens = kinds[k] === HEAD || (kinds[k] === PUNCT && (codes[k] === 40 || codes[k] === 91 || codes[k] === 123));
    const d = depths[k] + (opens ? 1 : 0);
    if (d > deepest) deepest = d;
  }
  releaseText();
  return deepest;
}

/**
 * Tokenizes `source` into the arrays above, up to 16 tokens past `stop` (or to the end), setting
 * `truncated`; false when it cannot vouch for the result.
 */
export function tokenize(source: string, stop: number): boolean {
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
