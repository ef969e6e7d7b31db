/**
 * Vouching that a text parses, without TypeScript's parser. A11 makes every check ask of every
 * workflow source whether it parses; TypeScript's parse, whose tree is dropped at once, was the
 * biggest part of a check and of the server's index (two fifths of it at 10,000 files). This is a
 * recognizer for the TypeScript that workflow code is written in (imports and exports, functions
 * and arrows, `const`/`let`, interfaces and type aliases, the usual statements and expressions),
 * over its own tokens, building nothing: where it says a text parses, TypeScript's parser reports
 * no syntax error on it. Anything it is not sure of (a class, an enum, a generic arrow, a label,
 * a string escape it does not know, any error at all) makes it give up, and the caller parses the
 * text with TypeScript, which says whether it parses and with which message. So it never has to
 * be right about an error, only never wrong about a text without one: `test/rules/vouch.test.ts`
 * holds it to TypeScript's parser on corpora and on thousands of mutated texts.
 *
 * While it reads the top-level statements it also notes what `readWorkflows` (facts-workflows.ts)
 * reads from the tree, so a vouched file's workflows come with its verdict. Its tokens of a vouched
 * text are lent to a reader of what the text holds (`readVouched`: a data file's facts,
 * `light-data.ts`), so that the text is tokenized once.
 */
import type { WorkflowFact } from "./fact-types.ts";
import { intern } from "./intern.ts";
import { LineMap } from "./text.ts";

/** Thrown wherever the recognizer is not sure; caught by `vouch`. */
class Unsure extends Error {}
const UNSURE = new Unsure("unsure");

// ---- Tokens -------------------------------------------------------------------------------------

const K_EOF = 0, K_WORD = 1, K_NUM = 2, K_STR = 3, K_TPL = 4 /* no substitution */, K_HEAD = 5, K_MIDDLE = 6, K_TAIL = 7, K_PUNCT = 8,
  K_REGEX = 9;

// Punctuators: one character by its code; longer ones above 999. `>` is always one token (as
// TypeScript's scanner gives it); `>=`, `>>`… are glued by the parser where an operator stands.
const LPAREN = 40, RPAREN = 41, LBRACKET = 91, RBRACKET = 93, LBRACE = 123, RBRACE = 125, SEMI = 59, COMMA = 44,
  COLON = 58, DOT = 46, QUESTION = 63, ASSIGN = 61, EXCL = 33, PLUS = 43, MINUS = 45, STAR = 42, SLASH = 47,
  LT = 60, GT = 62;
const ELLIPSIS = 1000, QDOT = 1001, NULLISH = 1002, EQ2 = 1003, EQ3 = 1004, ARROW = 1005, NE = 1006, NE2 = 1007,
  INC = 1008, DEC = 1009, EXP = 1010, AND = 1011, OR = 1012, LE = 1013, SHL = 1014, ASSIGN_OP = 1015 /* += -= … ??= */;

// Words: 0 an identifier; reserved words (never an identifier) 1–59; words reserved in a module's
// strict code 60–99 (taken as "not sure" wherever an identifier stands); contextual words 100 on.
const W_BREAK = 1, W_CASE = 2, W_CATCH = 3, W_CLASS = 4, W_CONST = 5, W_CONTINUE = 6, W_DEBUGGER = 7, W_DEFAULT = 8,
  W_DELETE = 9, W_DO = 10, W_ELSE = 11, W_ENUM = 12, W_EXPORT = 13, W_EXTENDS = 14, W_FALSE = 15, W_FINALLY = 16,
  W_FOR = 17, W_FUNCTION = 18, W_IF = 19, W_IMPORT = 20, W_IN = 21, W_INSTANCEOF = 22, W_NEW = 23, W_NULL = 24,
  W_RETURN = 25, W_SUPER = 26, W_SWITCH = 27, W_THIS = 28, W_THROW = 29, W_TRUE = 30, W_TRY = 31, W_TYPEOF = 32,
  W_VAR = 33, W_VOID = 34, W_WHILE = 35, W_WITH = 36;
const W_LET = 60, W_STATIC = 61, W_YIELD = 62, W_IMPLEMENTS = 63, W_INTERFACE = 64, W_PACKAGE = 65, W_PRIVATE = 66,
  W_PROTECTED = 67, W_PUBLIC = 68, W_AWAIT = 69;
const W_ASYNC = 100, W_AS = 101, W_SATISFIES = 102, W_OF = 103, W_FROM = 104, W_TYPE = 105, W_GET = 106, W_SET = 107,
  W_KEYOF = 108, W_READONLY = 109, W_UNIQUE = 110, W_INFER = 111, W_ABSTRACT = 112, W_ACCESSOR = 113;

const WORDS = new Map<string, number>(Object.entries({
  break: W_BREAK, case: W_CASE, catch: W_CATCH, class: W_CLASS, const: W_CONST, continue: W_CONTINUE, debugger: W_DEBUGGER,
  default: W_DEFAULT, delete: W_DELETE, do: W_DO, else: W_ELSE, enum: W_ENUM, export: W_EXPORT, extends: W_EXTENDS,
  false: W_FALSE, finally: W_FINALLY, for: W_FOR, function: W_FUNCTION, if: W_IF, import: W_IMPORT, in: W_IN,
  instanceof: W_INSTANCEOF, new: W_NEW, null: W_NULL, return: W_RETURN, super: W_SUPER, switch: W_SWITCH, this: W_THIS,
  throw: W_THROW, true: W_TRUE, try: W_TRY, typeof: W_TYPEOF, var: W_VAR, void: W_VOID, while: W_WHILE, with: W_WITH,
  let: W_LET, static: W_STATIC, yield: W_YIELD, implements: W_IMPLEMENTS, interface: W_INTERFACE, package: W_PACKAGE,
  private: W_PRIVATE, protected: W_PROTECTED, public: W_PUBLIC, await: W_AWAIT,
  async: W_ASYNC, as: W_AS, satisfies: W_SATISFIES, of: W_OF, from: W_FROM, type: W_TYPE, get: W_GET, set: W_SET,
  keyof: W_KEYOF, readonly: W_READONLY, unique: W_UNIQUE, infer: W_INFER, abstract: W_ABSTRACT, accessor: W_ACCESSOR,
}));

/** The words above by a hash of their characters (`h * 31 + c`, as the tokenizer computes it while it reads a word). */
const WORDS_BY_HASH = new Map<number, { word: string; code: number }>();
for (const [word, code] of WORDS) {
  let h = 0;
  for (let i = 0; i < word.length; i++) h = (Math.imul(h, 31) + word.charCodeAt(i)) | 0;
  if (WORDS_BY_HASH.has(h)) throw new Error(`two words with one hash: ${word}, ${WORDS_BY_HASH.get(h)!.word}`);
  WORDS_BY_HASH.set(h, { word, code });
}

/** Whether a word's code names something usable as an identifier (a binding, a reference, a type's name). */
const identifierCode = (c: number): boolean => c === 0 || c >= 100;

/** 1: an ASCII character that starts an identifier; 2: one that only continues it (a digit). */
const ID = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z_$]/.test(ch)) ID[c] = 1;
  else if (/[0-9]/.test(ch)) ID[c] = 2;
}
const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isHex = (c: number): boolean => isDigit(c) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);

/** Digits (hexadecimal ones with `hex`) from `i`, a `_` allowed between two of them: the index after them. */
function digitsEnd(i: number, hex: boolean): number {
  const digit = hex ? isHex : isDigit;
  while (digit(src.charCodeAt(i)) || (src.charCodeAt(i) === 95 && digit(src.charCodeAt(i - 1)) && digit(src.charCodeAt(i + 1)))) i++;
  return i;
}

// The tokens of the text being read, in typed arrays reused between texts.
let kinds = new Uint8Array(8192);
let codes = new Int32Array(8192);
let starts = new Int32Array(8192);
let ends = new Int32Array(8192);
/** 1 when a line break comes between the previous token and this one (ASI, and the rules that forbid one). */
let breaks = new Uint8Array(8192);
/** For an opening bracket (and a template's head or middle): the index of the token that closes it. */
let closers = new Int32Array(8192);
let count = 0;
let src = "";

function push(kind: number, code: number, start: number, end: number, lineBreak: number): void {
  if (count === kinds.length) {
    const grow = <T extends Uint8Array | Int32Array>(a: T): T => { const b = new (a.constructor as new (n: number) => T)(a.length * 2); b.set(a); return b; };
    kinds = grow(kinds); codes = grow(codes); starts = grow(starts); ends = grow(ends); breaks = grow(breaks); closers = grow(closers);
  }
  kinds[count] = kind; codes[count] = code; starts[count] = start; ends[count] = end; breaks[count] = lineBreak;
  count++;
}

/** A backslash's escape in a string or template: the index after it, or unsure (only the plain escapes are taken). */
function escapeEnd(i: number): number {
  const e = src.charCodeAt(i + 1);
  switch (e) {
    case 110: case 114: case 116: case 98: case 102: case 118: // n r t b f v
    case 92: case 39: case 34: case 96: case 36: // \ ' " ` $
      return i + 2;
    case 48: // \0, not followed by a digit (an octal escape)
      if (isDigit(src.charCodeAt(i + 2))) throw UNSURE;
      return i + 2;
    case 120: // \xHH
      if (!isHex(src.charCodeAt(i + 2)) || !isHex(src.charCodeAt(i + 3))) throw UNSURE;
      return i + 4;
    case 117: { // \uHHHH, \u{H…} up to 10FFFF
      if (src.charCodeAt(i + 2) === 123) {
        let j = i + 3;
        let value = 0;
        while (isHex(src.charCodeAt(j)) && value <= 0x10ffff) { value = value * 16 + parseInt(src[j], 16); j++; }
        if (j === i + 3 || value > 0x10ffff || src.charCodeAt(j) !== 125) throw UNSURE;
        return j + 1;
      }
      for (let j = i + 2; j < i + 6; j++) if (!isHex(src.charCodeAt(j))) throw UNSURE;
      return i + 6;
    }
  }
  throw UNSURE;
}

/** A template's text from `i` (after `` ` `` or a substitution's `}`): the index after its end, negative (−index − 1) when it ends with `${`. */
function templateEnd(i: number): number {
  const len = src.length;
  for (;;) {
    if (i >= len) throw UNSURE;
    const c = src.charCodeAt(i);
    if (c === 96) return i + 1;
    if (c === 36 && src.charCodeAt(i + 1) === 123) return -(i + 2) - 1;
    if (c === 92) { i = escapeEnd(i); continue; }
    if (c === 0x2028 || c === 0x2029) throw UNSURE;
    i++;
  }
}

/** Words after which a `/` starts a regular expression (an expression starts after them). */
const REGEX_AFTER = new Set([W_RETURN, W_TYPEOF, W_INSTANCEOF, W_IN, W_NEW, W_DELETE, W_VOID, W_THROW, W_CASE, W_DO, W_ELSE, W_EXTENDS, W_YIELD, W_AWAIT, W_OF]);

/**
 * Whether a `/` after the last token starts a regular expression rather than dividing: a guess
 * from that token alone (after `)`, `]`, `}`, a name or a literal, division). The parser checks
 * the guess: a regular expression where an operator stands, or a `/` where an operand does, is
 * not something it is sure of.
 */
function slashStartsRegex(): boolean {
  if (count === 0) return true;
  const k = count - 1;
  switch (kinds[k]) {
    case K_NUM: case K_STR: case K_TPL: case K_TAIL: case K_REGEX: return false;
    case K_HEAD: case K_MIDDLE: return true;
    case K_WORD: return REGEX_AFTER.has(codes[k]) && !(k > 0 && kinds[k - 1] === K_PUNCT && (codes[k - 1] === DOT || codes[k - 1] === QDOT));
  }
  const c = codes[k];
  return !(c === RPAREN || c === RBRACKET || c === RBRACE || c === INC || c === DEC);
}

/**
 * A regular expression literal from its `/` at `i`: the index after its flags, as TypeScript's
 * scanner reads one (a `/` in a class `[…]` or escaped does not end it; a line break makes it
 * unterminated). What is in it is the checker's to judge, not the parser's.
 */
function regexEnd(i: number): number {
  const len = src.length;
  let inClass = false;
  for (i++; ; i++) {
    if (i >= len) throw UNSURE;
    const c = src.charCodeAt(i);
    if (c === 10 || c === 13 || c === 0x2028 || c === 0x2029) throw UNSURE;
    if (c === 92) {
      const e = src.charCodeAt(i + 1);
      if (e === 10 || e === 13 || e === 0x2028 || e === 0x2029 || i + 1 >= len) throw UNSURE;
      i++;
    } else if (c === 47 && !inClass) break;
    else if (c === 91) inClass = true;
    else if (c === 93) inClass = false;
  }
  i++;
  while (i < len) { const e = src.charCodeAt(i); if (e < 128 && ID[e] !== 0) i++; else break; }
  if (i < len) { const e = src.charCodeAt(i); if (e === 92 || e >= 128) throw UNSURE; }
  return i;
}

/** Open brackets while tokenizing: their kind (`(` `[` `{`, 1 for a template substitution) and token. */
let openKinds = new Int32Array(256);
let openTokens = new Int32Array(256);

/** Tokenizes `src` into the arrays above, three end tokens after the last; unsure of anything it does not know. */
function tokenize(): void {
  count = 0;
  const len = src.length;
  let i = 0;
  let lineBreak = 0;
  let depth = 0;
  const open = (kind: number): void => {
    if (depth === openKinds.length) {
      const a = new Int32Array(depth * 2); a.set(openKinds); openKinds = a;
      const b = new Int32Array(depth * 2); b.set(openTokens); openTokens = b;
    }
    openKinds[depth] = kind; openTokens[depth] = count; depth++;
  };
  const close = (kind: number): void => {
    if (depth === 0 || openKinds[depth - 1] !== kind) throw UNSURE;
    depth--;
    closers[openTokens[depth]] = count;
  };
  for (;;) {
    // White space and comments.
    while (i < len) {
      const c = src.charCodeAt(i);
      if (c === 32 || c === 9 || c === 11 || c === 12 || c === 0xfeff) { i++; continue; }
      if (c === 10 || c === 13) { lineBreak = 1; i++; continue; }
      if (c === 47) {
        const d = src.charCodeAt(i + 1);
        if (d === 47) {
          i += 2;
          for (; i < len; i++) {
            const e = src.charCodeAt(i);
            if (e === 10 || e === 13) break;
            if (e === 0x2028 || e === 0x2029) throw UNSURE;
          }
          continue;
        }
        if (d === 42) {
          const end = src.indexOf("*/", i + 2);
          if (end < 0) throw UNSURE;
          for (let j = i + 2; j < end; j++) {
            const e = src.charCodeAt(j);
            if (e === 10 || e === 13) lineBreak = 1;
            else if (e === 0x2028 || e === 0x2029) throw UNSURE;
          }
          i = end + 2;
          continue;
        }
      }
      break;
    }
    if (i >= len) break;
    const start = i;
    const c = src.charCodeAt(i);
    if (c >= 128) throw UNSURE;
    const id = ID[c];
    if (id === 1) {
      let h = c;
      i++;
      while (i < len) { const e = src.charCodeAt(i); if (e < 128 && ID[e] !== 0) { h = (Math.imul(h, 31) + e) | 0; i++; } else break; }
      if (i < len) { const e = src.charCodeAt(i); if (e === 92 || e >= 128) throw UNSURE; }
      const known = WORDS_BY_HASH.get(h);
      push(K_WORD, known !== undefined && known.word.length === i - start && src.startsWith(known.word, start) ? known.code : 0, start, i, lineBreak);
      lineBreak = 0;
      continue;
    }
    if (id === 2) {
      // 0, 12, 1_000, 1.5, 1e3, 0x1F, 10n: nothing else (octal and binary, `.5`, `1.`: not sure)
      let integer = true;
      if (c === 48 && (src.charCodeAt(i + 1) | 32) === 120) {
        i = digitsEnd(i + 2, true);
        if (i === start + 2) throw UNSURE;
      } else {
        if (c === 48) {
          i++;
          if (isDigit(src.charCodeAt(i)) || src.charCodeAt(i) === 95) throw UNSURE;
        } else i = digitsEnd(i, false);
        if (src.charCodeAt(i) === 46) {
          if (!isDigit(src.charCodeAt(i + 1))) throw UNSURE;
          i = digitsEnd(i + 1, false);
          integer = false;
        }
        const e = src.charCodeAt(i);
        if (e === 101 || e === 69) {
          i++;
          const sign = src.charCodeAt(i);
          if (sign === 43 || sign === 45) i++;
          if (!isDigit(src.charCodeAt(i))) throw UNSURE;
          i = digitsEnd(i, false);
          integer = false;
        }
      }
      if (integer && src.charCodeAt(i) === 110) i++; // a bigint
      if (i < len) { const f = src.charCodeAt(i); if (f === 46 || f === 92 || f >= 128 || (f < 128 && ID[f] !== 0)) throw UNSURE; }
      push(K_NUM, 0, start, i, lineBreak);
      lineBreak = 0;
      continue;
    }
    if (c === 34 || c === 39) {
      i++;
      for (;;) {
        if (i >= len) throw UNSURE;
        const e = src.charCodeAt(i);
        if (e === c) { i++; break; }
        if (e === 92) { i = escapeEnd(i); continue; }
        if (e === 10 || e === 13 || e === 0x2028 || e === 0x2029) throw UNSURE;
        i++;
      }
      push(K_STR, 0, start, i, lineBreak);
      lineBreak = 0;
      continue;
    }
    if (c === 96 || (c === 125 && depth > 0 && openKinds[depth - 1] === 1)) {
      const end = templateEnd(i + 1);
      const opened = end < 0;
      i = opened ? -end - 1 : end;
      if (c === 125) close(1);
      push(c === 96 ? (opened ? K_HEAD : K_TPL) : opened ? K_MIDDLE : K_TAIL, 0, start, i, lineBreak);
      if (opened) { count--; open(1); count++; }
      lineBreak = 0;
      continue;
    }
    if (c === 47 && slashStartsRegex()) {
      i = regexEnd(i);
      push(K_REGEX, 0, start, i, lineBreak);
      lineBreak = 0;
      continue;
    }
    // Seven of `<`, `=`, `>` or `|` at a line's start are a merge conflict's marker to TypeScript.
    if ((c === 60 || c === 61 || c === 62 || c === 124) && (i === 0 || src.charCodeAt(i - 1) === 10 || src.charCodeAt(i - 1) === 13)
      && src.startsWith(String.fromCharCode(c).repeat(7), i)) throw UNSURE;
    // Punctuators.
    const d = src.charCodeAt(i + 1);
    let code = c;
    let width = 1;
    switch (c) {
      case 40: case 91: case 123: open(c); break;
      case 41: close(40); break;
      case 93: close(91); break;
      case 125: close(123); break;
      case 59: case 44: case 126: case 58: case 62: break;
      case 46:
        if (d === 46 && src.charCodeAt(i + 2) === 46) { code = ELLIPSIS; width = 3; } else if (isDigit(d)) throw UNSURE;
        break;
      case 63:
        if (d === 63) { if (src.charCodeAt(i + 2) === 61) { code = ASSIGN_OP; width = 3; } else { code = NULLISH; width = 2; } }
        else if (d === 46 && !isDigit(src.charCodeAt(i + 2))) { code = QDOT; width = 2; }
        break;
      case 61:
        if (d === 61) { if (src.charCodeAt(i + 2) === 61) { code = EQ3; width = 3; } else { code = EQ2; width = 2; } }
        else if (d === 62) { code = ARROW; width = 2; }
        break;
      case 33:
        if (d === 61) { if (src.charCodeAt(i + 2) === 61) { code = NE2; width = 3; } else { code = NE; width = 2; } }
        break;
      case 43: if (d === 61) { code = ASSIGN_OP; width = 2; } else if (d === 43) { code = INC; width = 2; } break;
      case 45: if (d === 61) { code = ASSIGN_OP; width = 2; } else if (d === 45) { code = DEC; width = 2; } break;
      case 42:
        if (d === 42) { if (src.charCodeAt(i + 2) === 61) { code = ASSIGN_OP; width = 3; } else { code = EXP; width = 2; } }
        else if (d === 61) { code = ASSIGN_OP; width = 2; }
        break;
      case 47: case 37: case 94: if (d === 61) { code = ASSIGN_OP; width = 2; } break;
      case 38: case 124:
        if (d === c) { if (src.charCodeAt(i + 2) === 61) { code = ASSIGN_OP; width = 3; } else { code = c === 38 ? AND : OR; width = 2; } }
        else if (d === 61) { code = ASSIGN_OP; width = 2; }
        break;
      case 60:
        if (d === 60) { if (src.charCodeAt(i + 2) === 61) { code = ASSIGN_OP; width = 3; } else { code = SHL; width = 2; } }
        else if (d === 61) { code = LE; width = 2; }
        break;
      default: throw UNSURE; // @ # \ and the rest
    }
    i += width;
    push(K_PUNCT, code, start, i, lineBreak);
    lineBreak = 0;
  }
  if (depth !== 0) throw UNSURE;
  for (let k = 0; k < 3; k++) push(K_EOF, 0, len, len, lineBreak);
}

// ---- The recognizer -----------------------------------------------------------------------------

/** The current token. */
let p = 0;
// Where the recognizer stands (saved and restored around function bodies).
let inFunction = false, inAsync = false, inParams = 0, loops = 0, breakables = 0, noIn = 0, inConsequent = 0;

// What an expression is, as far as the workflows and assignments need: `readWorkflows` takes an
// initialiser that is, once parentheses, `as`, `satisfies` and `!` are set aside, a function or a call.
const S_OTHER = 0, S_CALL = 1, S_FUNCTION = 2, S_TARGET = 3 /* a name or a property: assignable */;

const isP = (code: number): boolean => kinds[p] === K_PUNCT && codes[p] === code;
const isPAt = (k: number, code: number): boolean => kinds[k] === K_PUNCT && codes[k] === code;
const isW = (code: number): boolean => kinds[p] === K_WORD && codes[p] === code;
const isWAt = (k: number, code: number): boolean => kinds[k] === K_WORD && codes[k] === code;
const isIdentAt = (k: number): boolean => kinds[k] === K_WORD && identifierCode(codes[k]);
function expectP(code: number): void {
  if (!isP(code)) throw UNSURE;
  p++;
}
/**
 * The name after a `.` (any word). A name on a line of its own followed on its line by another word
 * (`a.\n b c`) is taken by TypeScript for the start of another construct: "Identifier expected".
 */
function nameAfterDot(): void {
  if (kinds[p] !== K_WORD || breaks[p] && kinds[p + 1] === K_WORD && !breaks[p + 1]) throw UNSURE;
  p++;
}
/** A statement's end: `;`, or before `}`, the end, or a line break (automatic semicolon insertion). */
function semicolon(): void {
  if (isP(SEMI)) p++;
  else if (!(isP(RBRACE) || kinds[p] === K_EOF || breaks[p])) throw UNSURE;
}

// Top-level statements, noted for the workflows (token indexes).
interface TopFunction { exported: boolean; isDefault: boolean; name: number; first: number; last: number }
interface TopDeclarator { name: number; shape: number }
interface TopVariables { exported: boolean; isConst: boolean; first: number; last: number; declarators: TopDeclarator[] }
interface ExportedName { local: string; exported: number }
let topFunctions: TopFunction[] = [];
let topVariables: TopVariables[] = [];
let exportedNames: ExportedName[] = [];
/** `export default run;`: the names exported as default, in order. */
let defaultNames: string[] = [];

function program(): void {
  while (kinds[p] !== K_EOF) statement(true);
}

function statement(top: boolean): void {
  deeper();
  statementHere(top);
  depth--;
}

function statementHere(top: boolean): void {
  const first = p;
  if (kinds[p] === K_PUNCT) {
    if (isP(LBRACE)) { block(); return; }
    if (isP(SEMI)) { p++; return; }
  } else if (kinds[p] === K_WORD) {
    switch (codes[p]) {
      case W_CONST:
        if (isWAt(p + 1, W_ENUM)) throw UNSURE;
        p++;
        variables(true, top ? noteVariables(false, true, first) : undefined);
        semicolon();
        if (top) topVariables[topVariables.length - 1].last = p - 1;
        return;
      case W_VAR:
        p++;
        variables(false, top ? noteVariables(false, false, first) : undefined);
        semicolon();
        if (top) topVariables[topVariables.length - 1].last = p - 1;
        return;
      case W_LET:
        if (!(isIdentAt(p + 1) || isPAt(p + 1, LBRACE) || isPAt(p + 1, LBRACKET))) throw UNSURE;
        p++;
        variables(false, top ? noteVariables(false, false, first) : undefined);
        semicolon();
        if (top) topVariables[topVariables.length - 1].last = p - 1;
        return;
      case W_FUNCTION: functionDeclaration(top, false, false, first); return;
      case W_ASYNC:
        if (isWAt(p + 1, W_FUNCTION) && !breaks[p + 1]) { functionDeclaration(top, false, false, first); return; }
        break;
      case W_IF:
        p++; expectP(LPAREN); expression(); expectP(RPAREN);
        substatement();
        if (isW(W_ELSE)) { p++; substatement(); }
        return;
      case W_FOR: forStatement(); return;
      case W_WHILE:
        p++; expectP(LPAREN); expression(); expectP(RPAREN);
        loops++; breakables++; substatement(); loops--; breakables--;
        return;
      case W_DO:
        p++;
        loops++; breakables++; substatement(); loops--; breakables--;
        if (!isW(W_WHILE)) throw UNSURE;
        p++; expectP(LPAREN); expression(); expectP(RPAREN);
        if (isP(SEMI)) p++;
        return;
      case W_RETURN:
        if (!inFunction) throw UNSURE;
        p++;
        if (!(isP(SEMI) || isP(RBRACE) || kinds[p] === K_EOF || breaks[p])) expression();
        semicolon();
        return;
      case W_THROW:
        p++;
        if (breaks[p]) throw UNSURE;
        expression();
        semicolon();
        return;
      case W_TRY: {
        p++; block();
        let handled = false;
        if (isW(W_CATCH)) {
          p++;
          if (isP(LPAREN)) { p++; binding(); if (isP(COLON)) { p++; type(); } expectP(RPAREN); }
          block();
          handled = true;
        }
        if (isW(W_FINALLY)) { p++; block(); handled = true; }
        if (!handled) throw UNSURE;
        return;
      }
      case W_SWITCH: {
        p++; expectP(LPAREN); expression(); expectP(RPAREN); expectP(LBRACE);
        breakables++;
        while (!isP(RBRACE)) {
          if (isW(W_CASE)) { p++; expression(); expectP(COLON); }
          else if (isW(W_DEFAULT)) { p++; expectP(COLON); }
          else throw UNSURE;
          while (!(isP(RBRACE) || isW(W_CASE) || isW(W_DEFAULT))) {
            if (kinds[p] === K_EOF) throw UNSURE;
            statement(false);
          }
        }
        p++;
        breakables--;
        return;
      }
      case W_BREAK: case W_CONTINUE: {
        const isBreak = codes[p] === W_BREAK;
        p++;
        if (kinds[p] === K_WORD && !breaks[p]) throw UNSURE; // a label
        if (isBreak ? breakables === 0 : loops === 0) throw UNSURE;
        semicolon();
        return;
      }
      case W_IMPORT:
        if (isPAt(p + 1, LPAREN) || isPAt(p + 1, DOT)) break; // `import("m")`, `import.meta`: an expression
        if (!top) throw UNSURE;
        importDeclaration();
        return;
      case W_EXPORT:
        if (!top) throw UNSURE;
        exportDeclaration();
        return;
      case W_INTERFACE:
        if (!isIdentAt(p + 1) || breaks[p + 1]) throw UNSURE;
        interfaceDeclaration();
        return;
      case W_TYPE:
        if (isIdentAt(p + 1) && !breaks[p + 1]) { typeAlias(); return; }
        break;
    }
  }
  if (mayStartDeclaration(first)) throw UNSURE;
  expression();
  semicolon();
}

/**
 * Words that TypeScript's parser may read as beginning a declaration where a statement starts
 * (`isStartOfDeclaration`, `isUsingDeclaration`, `isAwaitUsingDeclaration`), or that it refuses as
 * a statement's start when a word follows them on their line (`isStartOfStatement`: a modifier
 * before `in`, `as`…), though they are names in an expression: `module as x` is a namespace
 * missing its `{` there, `using as x` a `using` declaration missing its `=`, `readonly in x` no
 * statement. Not the words the statement's switch above reads itself (`let`, `type`, `async
 * function`, `interface`…) unless it lets them fall through to an expression.
 */
const DECLARATION_WORDS = new Set(["abstract", "accessor", "async", "declare", "defer", "global", "interface", "module", "namespace",
  "override", "private", "protected", "public", "readonly", "static", "type", "using"]);

/**
 * Whether the statement starting at token `k`, read as an expression, might be a declaration to
 * TypeScript (or refused by it), so that vouch must not read it as an expression: one of the words
 * above followed on its line by a word, a string or `{` (`global` on any line: TypeScript does not
 * look at the line there), or `await` followed by `using`.
 */
function mayStartDeclaration(k: number): boolean {
  if (kinds[k] !== K_WORD) return false;
  const word = src.slice(starts[k], ends[k]);
  const next = k + 1;
  if (word === "await") return kinds[next] === K_WORD && src.slice(starts[next], ends[next]) === "using";
  if (!DECLARATION_WORDS.has(word)) return false;
  if (breaks[next] && word !== "global") return false;
  return kinds[next] === K_WORD || kinds[next] === K_STR || isPAt(next, LBRACE);
}

/** The statement of an `if`, a loop: no declaration there. */
function substatement(): void {
  if (kinds[p] === K_WORD) {
    switch (codes[p]) {
      case W_CONST: case W_LET: case W_FUNCTION: case W_CLASS: case W_INTERFACE: case W_TYPE: case W_IMPORT: case W_EXPORT: case W_ASYNC: case W_ENUM:
        throw UNSURE;
    }
  }
  statement(false);
}

function block(): void {
  expectP(LBRACE);
  while (!isP(RBRACE)) {
    if (kinds[p] === K_EOF) throw UNSURE;
    statement(false);
  }
  p++;
}

function noteVariables(exported: boolean, isConst: boolean, first: number): TopDeclarator[] {
  const declarators: TopDeclarator[] = [];
  topVariables.push({ exported, isConst, first, last: first, declarators });
  return declarators;
}

/** `a = 1, { b } = c`: after `const`/`let`/`var`. */
function variables(isConst: boolean, noted: TopDeclarator[] | undefined): void {
  for (;;) {
    const name = binding();
    if (isP(EXCL)) throw UNSURE;
    if (isP(COLON)) { p++; type(); }
    let shape = -1;
    if (isP(ASSIGN)) { p++; shape = assignment(); }
    else if (isConst || name < 0) throw UNSURE;
    noted?.push({ name, shape });
    if (!isP(COMMA)) return;
    p++;
  }
}

function forStatement(): void {
  p++;
  const awaits = isW(W_AWAIT);
  if (awaits) {
    if (!inAsync || inParams > 0) throw UNSURE;
    p++;
  }
  expectP(LPAREN);
  const declares = isW(W_CONST) || isW(W_VAR) || (isW(W_LET) && (isIdentAt(p + 1) || isPAt(p + 1, LBRACE) || isPAt(p + 1, LBRACKET)));
  if (declares) {
    const isConst = isW(W_CONST);
    p++;
    const name = binding();
    if (isW(W_OF) || isW(W_IN) && !awaits) {
      const of = isW(W_OF);
      p++;
      if (of) assignment(); else expression();
      expectP(RPAREN);
    } else {
      if (awaits) throw UNSURE;
      noIn++;
      if (isP(COLON)) { p++; type(); }
      if (isP(ASSIGN)) { p++; assignment(); } else if (isConst || name < 0) throw UNSURE;
      if (isP(COMMA)) { p++; variables(isConst, undefined); }
      noIn--;
      forRest();
    }
  } else {
    if (awaits) throw UNSURE;
    // `for (using x of …`, `for (await using x of …`: declarations to TypeScript
    if (mayStartDeclaration(p)) throw UNSURE;
    if (!isP(SEMI)) {
      noIn++;
      expression();
      noIn--;
      if (isW(W_OF) || isW(W_IN)) throw UNSURE;
    }
    forRest();
  }
  loops++; breakables++; substatement(); loops--; breakables--;
}

/** `; test; update)` of a `for`. */
function forRest(): void {
  expectP(SEMI);
  if (!isP(SEMI)) expression();
  expectP(SEMI);
  if (!isP(RPAREN)) expression();
  expectP(RPAREN);
}

/** A binding name or pattern: the name's token, or −1 for a pattern. */
function binding(): number {
  deeper();
  const name = bindingHere();
  depth--;
  return name;
}

function bindingHere(): number {
  if (isP(LBRACE)) {
    p++;
    while (!isP(RBRACE)) {
      if (isP(ELLIPSIS)) {
        p++;
        if (!isIdentAt(p)) throw UNSURE;
        p++;
        if (!isP(RBRACE)) throw UNSURE;
        break;
      }
      if (isIdentAt(p) && (isPAt(p + 1, COMMA) || isPAt(p + 1, RBRACE) || isPAt(p + 1, ASSIGN))) {
        if (isW(W_ASYNC) || isW(W_AWAIT)) throw UNSURE;
        p++;
        if (isP(ASSIGN)) { p++; assignment(); }
      } else {
        propertyName();
        expectP(COLON);
        bindingElement();
      }
      if (isP(COMMA)) { p++; continue; }
      if (!isP(RBRACE)) throw UNSURE;
    }
    p++;
    return -1;
  }
  if (isP(LBRACKET)) {
    p++;
    while (!isP(RBRACKET)) {
      if (isP(COMMA)) { p++; continue; }
      if (isP(ELLIPSIS)) {
        p++;
        binding();
        if (!isP(RBRACKET)) throw UNSURE;
        break;
      }
      bindingElement();
      if (isP(COMMA)) { p++; continue; }
      if (!isP(RBRACKET)) throw UNSURE;
    }
    p++;
    return -1;
  }
  if (!isIdentAt(p)) throw UNSURE;
  return p++;
}

function bindingElement(): void {
  binding();
  if (isP(ASSIGN)) { p++; assignment(); }
}

/** `(a, b?: T, { c } = d, ...e: F[])`; `initialisers` false in a function type. */
function parameters(initialisers: boolean): void {
  expectP(LPAREN);
  inParams++;
  while (!isP(RPAREN)) {
    if (isP(ELLIPSIS)) {
      p++;
      binding();
      if (isP(COLON)) { p++; type(); }
      if (!isP(RPAREN)) throw UNSURE;
      break;
    }
    if (isW(W_THIS)) throw UNSURE;
    const name = binding();
    let optional = false;
    if (isP(QUESTION)) { if (name < 0) throw UNSURE; p++; optional = true; }
    if (isP(COLON)) { p++; type(); }
    if (isP(ASSIGN)) { if (optional || !initialisers) throw UNSURE; p++; assignment(); }
    if (isP(COMMA)) { p++; continue; }
    if (!isP(RPAREN)) throw UNSURE;
  }
  p++;
  inParams--;
}

/** A function's body, in its own context. */
function functionBody(isAsync: boolean): void {
  const saved = [inFunction, inAsync, inParams, loops, breakables, noIn, inConsequent] as const;
  inFunction = true; inAsync = isAsync; inParams = 0; loops = 0; breakables = 0; noIn = 0; inConsequent = 0;
  block();
  [inFunction, inAsync, inParams, loops, breakables, noIn, inConsequent] = saved;
}

/** `<T, U extends V = W>` of a declaration. */
/** Words TypeScript reads as a modifier before a name (`<abstract extends T>` is a modifier and no name). */
const MODIFIERS = new Set(["abstract", "accessor", "async", "const", "declare", "default", "export", "in", "out", "override", "private", "protected", "public", "readonly", "static"]);

function typeParameters(): void {
  expectP(LT);
  for (;;) {
    if (!isIdentAt(p) || MODIFIERS.has(src.slice(starts[p], ends[p]))) throw UNSURE;
    p++;
    if (isW(W_EXTENDS)) { p++; type(); }
    if (isP(ASSIGN)) { p++; type(); }
    if (isP(COMMA)) { p++; continue; }
    expectP(GT);
    return;
  }
}

/** `[async] function name<T>(…): R { … }`, at `async` or `function`. */
function functionDeclaration(top: boolean, exported: boolean, isDefault: boolean, first: number): void {
  const isAsync = isW(W_ASYNC);
  if (isAsync) p++;
  p++; // function
  if (isP(STAR)) throw UNSURE;
  let name = -1;
  if (isIdentAt(p)) name = p++;
  else if (!isDefault) throw UNSURE;
  if (isP(LT)) typeParameters();
  parameters(true);
  if (isP(COLON)) { p++; type(); }
  if (!isP(LBRACE)) throw UNSURE; // an overload's signature
  functionBody(isAsync);
  if (top) topFunctions.push({ exported, isDefault, name, first, last: p - 1 });
}

function importDeclaration(): void {
  p++;
  if (kinds[p] === K_STR) { p++; semicolon(); return; }
  let typeOnly = false;
  if (isW(W_TYPE)) {
    if (isPAt(p + 1, LBRACE) || isPAt(p + 1, STAR) || (isIdentAt(p + 1) && !isWAt(p + 1, W_FROM))) { p++; typeOnly = true; }
    else throw UNSURE;
  }
  let clause = false;
  let more = true; // a namespace or named imports may come
  if (isIdentAt(p)) {
    if (isW(W_FROM) || isW(W_ASYNC)) throw UNSURE;
    p++;
    clause = true;
    more = isP(COMMA);
    if (more) {
      if (typeOnly) throw UNSURE;
      p++;
      if (!(isP(LBRACE) || isP(STAR))) throw UNSURE;
    }
  }
  if (!more) { /* `import x from` */ }
  else if (isP(STAR)) {
    p++;
    if (!isW(W_AS)) throw UNSURE;
    p++;
    if (!isIdentAt(p) || isW(W_ASYNC)) throw UNSURE;
    p++;
    clause = true;
  } else if (isP(LBRACE)) {
    p++;
    while (!isP(RBRACE)) {
      if (isW(W_TYPE) && kinds[p + 1] === K_WORD && !isWAt(p + 1, W_AS)) { if (typeOnly) throw UNSURE; p++; }
      if (kinds[p] !== K_WORD) throw UNSURE;
      if (isWAt(p + 1, W_AS)) { p += 2; if (!isIdentAt(p) || isW(W_ASYNC)) throw UNSURE; p++; }
      else { if (!isIdentAt(p) || isW(W_ASYNC)) throw UNSURE; p++; }
      if (isP(COMMA)) { p++; continue; }
      if (!isP(RBRACE)) throw UNSURE;
    }
    p++;
    clause = true;
  }
  if (!clause || !isW(W_FROM)) throw UNSURE;
  p++;
  if (kinds[p] !== K_STR) throw UNSURE;
  p++;
  semicolon();
}

function exportDeclaration(): void {
  const first = p;
  p++;
  if (isW(W_DEFAULT)) {
    p++;
    if (isW(W_FUNCTION) || (isW(W_ASYNC) && isWAt(p + 1, W_FUNCTION) && !breaks[p + 1])) { functionDeclaration(true, true, true, first); return; }
    if (kinds[p] === K_WORD && !identifierCode(codes[p]) && codes[p] !== W_THIS && codes[p] !== W_NULL && codes[p] !== W_TRUE && codes[p] !== W_FALSE && codes[p] !== W_NEW && codes[p] !== W_TYPEOF && codes[p] !== W_VOID) throw UNSURE;
    if (isW(W_ABSTRACT)) throw UNSURE;
    const start = p;
    const shape = assignment();
    // `export default run;` (a name alone: `readWorkflows` looks it up), or a function or a call.
    const name = p === start + 1 && isIdentAt(start);
    semicolon();
    if (name) defaultNames.push(src.slice(starts[start], ends[start]));
    else if (isWorkflowShape(shape)) topFunctions.push({ exported: true, isDefault: true, name: -1, first, last: p - 1 });
    return;
  }
  if (isW(W_CONST) || isW(W_VAR) || isW(W_LET)) {
    const isConst = isW(W_CONST);
    if (isConst && isWAt(p + 1, W_ENUM)) throw UNSURE;
    p++;
    variables(isConst, noteVariables(true, isConst, first));
    semicolon();
    topVariables[topVariables.length - 1].last = p - 1;
    return;
  }
  if (isW(W_FUNCTION) || (isW(W_ASYNC) && isWAt(p + 1, W_FUNCTION) && !breaks[p + 1])) { functionDeclaration(true, true, false, first); return; }
  if (isW(W_INTERFACE)) {
    if (!isIdentAt(p + 1) || breaks[p + 1]) throw UNSURE;
    interfaceDeclaration();
    return;
  }
  let typeOnly = false;
  if (isW(W_TYPE)) {
    if (isPAt(p + 1, LBRACE)) { p++; typeOnly = true; }
    else {
      // (`export type as …` is something else to TypeScript)
      if (!isIdentAt(p + 1) || breaks[p + 1] || isWAt(p + 1, W_AS)) throw UNSURE;
      typeAlias();
      return;
    }
  }
  if (isP(STAR)) {
    p++;
    if (isW(W_AS)) { p++; if (kinds[p] !== K_WORD) throw UNSURE; p++; }
    if (!isW(W_FROM)) throw UNSURE;
    p++;
    if (kinds[p] !== K_STR) throw UNSURE;
    p++;
    semicolon();
    return;
  }
  if (!isP(LBRACE)) throw UNSURE;
  p++;
  const names: ExportedName[] = [];
  let reservedLocal = false;
  while (!isP(RBRACE)) {
    let typeOnlyName = typeOnly;
    if (isW(W_TYPE) && kinds[p + 1] === K_WORD) {
      if (isWAt(p + 1, W_AS) || typeOnly) throw UNSURE;
      p++;
      typeOnlyName = true;
    }
    if (kinds[p] !== K_WORD) throw UNSURE;
    const local = p++;
    if (!identifierCode(codes[local])) reservedLocal = true;
    let exported = local;
    if (isW(W_AS)) { p++; if (kinds[p] !== K_WORD) throw UNSURE; exported = p++; }
    if (!typeOnlyName) names.push({ local: src.slice(starts[local], ends[local]), exported });
    if (isP(COMMA)) { p++; continue; }
    if (!isP(RBRACE)) throw UNSURE;
  }
  p++;
  if (isW(W_FROM)) {
    p++;
    if (kinds[p] !== K_STR) throw UNSURE;
    p++;
  } else {
    if (reservedLocal) throw UNSURE;
    for (const n of names) exportedNames.push(n);
  }
  semicolon();
}

function interfaceDeclaration(): void {
  p += 2; // interface Name
  if (isP(LT)) typeParameters();
  if (isW(W_EXTENDS)) {
    p++;
    for (;;) {
      typeReference();
      if (!isP(COMMA)) break;
      p++;
    }
  }
  objectType();
}

function typeAlias(): void {
  p += 2; // type Name
  if (isP(LT)) typeParameters();
  expectP(ASSIGN);
  // `type A = intrinsic` is a keyword there (the compiler's own types), whatever follows it
  if (kinds[p] === K_WORD && src.startsWith("intrinsic", starts[p]) && ends[p] - starts[p] === 9) throw UNSURE;
  type();
  semicolon();
}

// ---- Expressions --------------------------------------------------------------------------------

function expression(): number {
  const at = depth;
  let shape = assignment();
  while (isP(COMMA)) { p++; deeper(); assignment(); shape = S_OTHER; }
  depth = at;
  return shape;
}

/** The tokens an assignment's operator spans at `p` (`>>=` and `>>>=` are glued `>` tokens), or 0. */
function assignmentOperator(): number {
  if (kinds[p] !== K_PUNCT) return 0;
  const c = codes[p];
  if (c === ASSIGN || c === ASSIGN_OP) return 1;
  if (c === GT && isPAt(p + 1, GT) && starts[p + 1] === ends[p]) {
    let k = p + 2;
    if (isPAt(k, GT) && starts[k] === ends[k - 1]) k++;
    if (isPAt(k, ASSIGN) && starts[k] === ends[k - 1]) return k + 1 - p;
  }
  return 0;
}

/**
 * How deep the tree of what the recognizer reads may be: its own recursion, and the links of the
 * chains it reads in loops that make a deep tree all the same (`a + b + …`, `a.b.c…`, `a ** b **
 * …`, `keyof keyof …`, `T[][]…`). Far less than where TypeScript's parser, or the walk of its tree
 * in `readFacts`, runs out of stack (a text that deep is read as holding nothing: `TOO_DEEP` in
 * facts-tree.ts), so that vouch never reads workflows where the tree's reading has none; and
 * below `PARSE_DEPTH` there (300: each bracket is at least one level here), so that it never
 * vouches for a text nested too deep to be given to the parser.
 */
const MAX_DEPTH = 250;
let depth = 0;

/** One more level (a call, a chain's link) of the tree being read. */
function deeper(): void {
  if (++depth > MAX_DEPTH) throw UNSURE;
}

function assignment(): number {
  deeper();
  const shape = assignmentHere();
  depth--;
  return shape;
}

function assignmentHere(): number {
  if (kinds[p] === K_WORD) {
    if (codes[p] === W_ASYNC) {
      const q = p + 1;
      if (breaks[q]) throw UNSURE;
      if (isIdentAt(q) && isPAt(q + 1, ARROW)) {
        if (breaks[q + 1] || isWAt(q, W_AWAIT)) throw UNSURE;
        p = q + 2;
        arrowBody(true);
        return S_FUNCTION;
      }
      if (isPAt(q, LPAREN)) { p = q; return parenthesizedArrow(true); }
      // `async function`: a primary expression
    } else if (isIdentAt(p) && isPAt(p + 1, ARROW)) {
      if (breaks[p + 1]) throw UNSURE;
      p += 2;
      arrowBody(false);
      return S_FUNCTION;
    }
  } else if (isP(LPAREN)) {
    const after = closers[p] + 1;
    if (isPAt(after, ARROW) || isPAt(after, COLON)) return parenthesizedArrow(false);
    // TypeScript takes `(a) {` for an arrow missing its `=>` (a line between or not), and
    // `(readonly x …` for an arrow's parameters
    if (isPAt(after, LBRACE)) throw UNSURE;
    if (kinds[p + 1] === K_WORD && kinds[p + 2] === K_WORD && MODIFIERS.has(src.slice(starts[p + 1], ends[p + 1]))) throw UNSURE;
  }
  const shape = conditional();
  const width = assignmentOperator();
  if (width === 0) return shape;
  if (shape !== S_TARGET) throw UNSURE;
  p += width;
  assignment();
  return S_OTHER;
}

/** `(params)[: R] => body` at `(`: sure to be an arrow, or not sure at all. */
function parenthesizedArrow(isAsync: boolean): number {
  const after = closers[p] + 1;
  if (isPAt(after, COLON) && inConsequent > 0) throw UNSURE; // `a ? (b) : c`: TypeScript tries an arrow here
  const saved = inAsync;
  inAsync = false;
  parameters(true);
  inAsync = saved;
  if (isP(COLON)) { p++; type(); }
  if (!isP(ARROW) || breaks[p]) throw UNSURE;
  p++;
  arrowBody(isAsync);
  return S_FUNCTION;
}

function arrowBody(isAsync: boolean): void {
  if (isP(LBRACE)) { functionBody(isAsync); return; }
  const saved = [inFunction, inAsync, inParams, loops, breakables] as const;
  inFunction = true; inAsync = isAsync; inParams = 0; loops = 0; breakables = 0;
  assignment();
  [inFunction, inAsync, inParams, loops, breakables] = saved;
}

function conditional(): number {
  const shape = binary();
  if (!isP(QUESTION)) return shape;
  p++;
  inConsequent++;
  assignment();
  inConsequent--;
  expectP(COLON);
  assignment();
  return S_OTHER;
}

/**
 * Whether a `<` (or `<<`) at `p` might open type arguments (`f<T>(x)`), which TypeScript tries
 * where an operator stands: only when a `>` follows in the same brackets, before the statement ends.
 */
function mayOpenTypeArguments(): boolean {
  if (!stopsKnown) knowStops();
  return isPAt(stops[p], GT);
}

/**
 * For each token, the first after it in the same brackets that is a `>` or ends the search (`;`, a
 * closing bracket, a template's next part, the end): computed once per text, from the last token
 * back, so that a text of a million `<` is not searched a million times over.
 */
let stops = new Int32Array(8192);
let stopsKnown = false;

function knowStops(): void {
  if (stops.length < count) stops = new Int32Array(kinds.length);
  stops[count - 1] = count - 1;
  for (let k = count - 2; k >= 0; k--) {
    let j = k + 1;
    const kind = kinds[j];
    if (kind === K_EOF || kind === K_MIDDLE || kind === K_TAIL) { stops[k] = j; continue; }
    if (kind === K_HEAD) {
      do j = closers[j]; while (kinds[j] === K_MIDDLE);
      stops[k] = stops[j];
      continue;
    }
    if (kind === K_PUNCT) {
      const c = codes[j];
      if (c === GT || c === SEMI || c === RPAREN || c === RBRACKET || c === RBRACE) { stops[k] = j; continue; }
      if (c === LPAREN || c === LBRACKET || c === LBRACE) { stops[k] = stops[closers[j]]; continue; }
    }
    stops[k] = stops[j];
  }
  stopsKnown = true;
}

/** Binary operators, read flat: whether the text is valid does not depend on their precedence. */
function binary(): number {
  const at = depth;
  const shape = binaryHere();
  depth = at;
  return shape;
}

function binaryHere(): number {
  let shape = unary();
  let nullish = false, logical = false;
  for (;;) {
    if (kinds[p] === K_PUNCT) {
      const c = codes[p];
      let width = 1;
      switch (c) {
        case EQ2: case EQ3: case NE: case NE2: case LE: case PLUS: case MINUS: case STAR: case SLASH: case 37 /* % */:
        case 124 /* | */: case 94 /* ^ */: case 38 /* & */:
          break;
        case AND: case OR: logical = true; break;
        case NULLISH: nullish = true; break;
        case LT: case SHL:
          if (mayOpenTypeArguments()) throw UNSURE;
          break;
        case GT: {
          // `>`, `>=`, `>>`, `>>>`; `>>=` and `>>>=` are assignments (not here)
          let k = p + 1;
          while (k - p < 3 && isPAt(k, GT) && starts[k] === ends[k - 1]) k++;
          if (isPAt(k, ASSIGN) && starts[k] === ends[k - 1]) {
            if (k - p > 1) return shape; // `>>=`, `>>>=`: an assignment, read by the caller
            k++;
          }
          width = k - p;
          break;
        }
        case EXP:
          if (prefixed) throw UNSURE; // `-a ** b` needs parentheses
          break;
        default:
          return shape;
      }
      if (nullish && logical) throw UNSURE; // `a ?? b || c` needs parentheses
      p += width;
      deeper();
      unary();
      shape = S_OTHER;
      continue;
    }
    if (kinds[p] === K_WORD) {
      const c = codes[p];
      if (c === W_IN || c === W_INSTANCEOF) {
        if (c === W_IN && noIn > 0) throw UNSURE;
        p++;
        deeper();
        unary();
        shape = S_OTHER;
        continue;
      }
      if ((c === W_AS || c === W_SATISFIES) && !breaks[p]) {
        p++;
        deeper();
        if (c === W_AS && isW(W_CONST)) {
          // `const` is a type reference to TypeScript: type arguments, a union or an intersection may follow
          p++;
          if (kinds[p] === K_PUNCT && !breaks[p] && (src.charCodeAt(starts[p]) === 60 || isP(124) || isP(38))) throw UNSURE;
        } else type();
        if (isP(QUESTION) || isP(EXCL)) throw UNSURE;
        // `x as T` is `x` to `unwrap`: its shape stays, but it is no longer assignable
        if (shape === S_TARGET) shape = S_OTHER;
        continue;
      }
    }
    // A regular expression where an operator stands was a division (`a\n/b/g` divides): the
    // tokens after it are not TypeScript's.
    if (kinds[p] === K_REGEX) throw UNSURE;
    return shape;
  }
}

/** Whether the operand `unary` read last was a prefix operator's (`-a`, `typeof a`): no `**` may follow it. */
let prefixed = false;

function unary(): number {
  deeper();
  const shape = unaryHere();
  depth--;
  return shape;
}

function unaryHere(): number {
  if (kinds[p] === K_PUNCT) {
    switch (codes[p]) {
      case EXCL: case 126 /* ~ */: case PLUS: case MINUS:
        p++; unary(); prefixed = true; return S_OTHER;
      case INC: case DEC:
        p++;
        if (unary() !== S_TARGET) throw UNSURE;
        prefixed = false;
        return S_OTHER;
      case LT: throw UNSURE; // a type assertion, a generic arrow
    }
  } else if (kinds[p] === K_WORD) {
    switch (codes[p]) {
      case W_TYPEOF: case W_VOID: case W_DELETE:
        p++; unary(); prefixed = true; return S_OTHER;
      case W_AWAIT:
        if (!inAsync || inParams > 0) throw UNSURE;
        p++; unary(); prefixed = true; return S_OTHER;
    }
  }
  const shape = leftHandSide();
  prefixed = false;
  if (isP(INC) || isP(DEC)) {
    if (breaks[p] || shape !== S_TARGET) throw UNSURE;
    p++;
    return S_OTHER;
  }
  return shape;
}

function leftHandSide(): number {
  const at = depth;
  const shape = leftHandSideHere();
  depth = at;
  return shape;
}

function leftHandSideHere(): number {
  let shape = isW(W_NEW) ? newExpression() : primary();
  let optional = false;
  for (;;) {
    deeper(); // each link below is one more level of the tree
    const kind = kinds[p];
    if (kind === K_PUNCT) {
      switch (codes[p]) {
        case DOT:
          p++;
          nameAfterDot();
          shape = optional ? S_OTHER : S_TARGET;
          continue;
        case QDOT:
          p++;
          optional = true;
          if (isP(LPAREN)) { callArguments(); shape = S_CALL; }
          else if (isP(LBRACKET)) { p++; expression(); expectP(RBRACKET); shape = S_OTHER; }
          else { nameAfterDot(); shape = S_OTHER; }
          continue;
        case LBRACKET:
          p++; expression(); expectP(RBRACKET);
          shape = optional ? S_OTHER : S_TARGET;
          continue;
        case LPAREN:
          callArguments();
          shape = S_CALL;
          continue;
        case EXCL:
          if (breaks[p]) return shape;
          p++;
          if (shape === S_TARGET) shape = S_OTHER;
          continue;
        case LT:
          // `f<T>(x)`: type arguments, sure only when they read as types and a call follows
          if (optional || !mayOpenTypeArguments()) return shape;
          typeArguments();
          if (!isP(LPAREN)) throw UNSURE;
          callArguments();
          shape = S_CALL;
          continue;
      }
      return shape;
    }
    if (kind === K_TPL || kind === K_HEAD) {
      if (optional) throw UNSURE;
      template();
      shape = S_OTHER;
      continue;
    }
    return shape;
  }
}

/** `<A, B>` of a call or `new` (in an expression, where TypeScript rescans the closing `>`). */
function typeArguments(): void {
  p++;
  for (;;) {
    type();
    if (isP(COMMA)) { p++; continue; }
    break;
  }
  // glued to a `>` or `=`, the `>` is another operator to TypeScript: no type arguments
  if (!isP(GT) || isPAt(p + 1, GT) && starts[p + 1] === ends[p] || isPAt(p + 1, ASSIGN) && starts[p + 1] === ends[p]) throw UNSURE;
  p++;
}

/** `new X.y<T>(args)`: a name, its properties, its arguments; nothing fancier. */
function newExpression(): number {
  p++;
  if (isP(LPAREN)) { p++; expression(); expectP(RPAREN); }
  else if (isIdentAt(p) && !isW(W_ASYNC)) p++;
  else throw UNSURE;
  for (;;) {
    if (isP(DOT)) { p++; nameAfterDot(); continue; }
    if (isP(LBRACKET)) { p++; expression(); expectP(RBRACKET); continue; }
    if (isP(EXCL) && !breaks[p]) { p++; continue; } // `new X!()` is `new (X!)()`
    break;
  }
  if (isP(QDOT) || kinds[p] === K_TPL || kinds[p] === K_HEAD) throw UNSURE;
  if (isP(LT)) {
    typeArguments();
    if (!isP(LPAREN)) throw UNSURE;
  }
  if (isP(LPAREN)) callArguments();
  if (isP(QDOT)) throw UNSURE;
  return S_OTHER;
}

/** `(a, ...b,)` at `(`. */
function callArguments(): void {
  elements(RPAREN, false);
}

/** A call's arguments or an array's elements (`[a, , ...b]`: holes in an array only), from the opening bracket to `closer`. */
function elements(closer: number, holes: boolean): void {
  p++;
  while (!isP(closer)) {
    if (holes && isP(COMMA)) { p++; continue; }
    if (isP(ELLIPSIS)) p++;
    assignment();
    if (isP(COMMA)) { p++; continue; }
    if (!isP(closer)) throw UNSURE;
  }
  p++;
}

/** At a template's head: its substitutions, to its tail. */
function template(): void {
  if (kinds[p] === K_TPL) { p++; return; }
  p++;
  for (;;) {
    expression();
    if (kinds[p] === K_MIDDLE) { p++; continue; }
    if (kinds[p] !== K_TAIL) throw UNSURE;
    p++;
    return;
  }
}

function primary(): number {
  const kind = kinds[p];
  if (kind === K_WORD) {
    const c = codes[p];
    if (c === W_FUNCTION) { functionExpression(false); return S_FUNCTION; }
    if (c === W_ASYNC) {
      if (isWAt(p + 1, W_FUNCTION) && !breaks[p + 1]) { p++; functionExpression(true); return S_FUNCTION; }
      throw UNSURE;
    }
    if (c === W_THIS || c === W_NULL || c === W_TRUE || c === W_FALSE) { p++; return S_OTHER; }
    if (identifierCode(c)) { p++; return S_TARGET; }
    if (c === W_IMPORT) {
      p++;
      if (isP(LPAREN)) { callArguments(); return S_CALL; }
      if (isP(DOT) && kinds[p + 1] === K_WORD && src.startsWith("meta", starts[p + 1]) && ends[p + 1] - starts[p + 1] === 4) { p++; nameAfterDot(); return S_OTHER; }
      throw UNSURE;
    }
    throw UNSURE;
  }
  if (kind === K_NUM || kind === K_STR || kind === K_REGEX) { p++; return S_OTHER; }
  if (kind === K_TPL || kind === K_HEAD) { template(); return S_OTHER; }
  if (kind === K_PUNCT) {
    switch (codes[p]) {
      case LPAREN: {
        p++;
        const shape = expression();
        expectP(RPAREN);
        return shape === S_TARGET ? S_OTHER : shape;
      }
      case LBRACKET: elements(RBRACKET, true); return S_OTHER;
      case LBRACE: objectLiteral(); return S_OTHER;
    }
  }
  throw UNSURE; // a regular expression, `<`, `@`, a keyword…
}

/** `function [name](…) { … }` at `function` (after `async`). */
function functionExpression(isAsync: boolean): void {
  p++;
  if (isP(STAR)) throw UNSURE;
  if (isIdentAt(p)) p++;
  if (isP(LT)) throw UNSURE;
  parameters(true);
  if (isP(COLON)) { p++; type(); }
  functionBody(isAsync);
}

/** A property's name: any word, a string, a number, `[expression]`. */
function propertyName(): void {
  const kind = kinds[p];
  if (kind === K_WORD || kind === K_STR || kind === K_NUM) { p++; return; }
  if (isP(LBRACKET)) { p++; assignment(); expectP(RBRACKET); return; }
  throw UNSURE;
}

/** Whether the token after a modifier-like word (`async`, `get`, `set`) makes it the property's own name. */
const endsName = (k: number): boolean => isPAt(k, COLON) || isPAt(k, COMMA) || isPAt(k, RBRACE) || isPAt(k, LPAREN);

function objectLiteral(): void {
  p++;
  while (!isP(RBRACE)) {
    if (isP(ELLIPSIS)) { p++; assignment(); }
    else {
      let isAsync = false;
      if (isW(W_ASYNC) && !endsName(p + 1)) {
        if (breaks[p + 1]) throw UNSURE;
        isAsync = true;
        p++;
      } else if ((isW(W_GET) || isW(W_SET)) && !endsName(p + 1)) throw UNSURE;
      if (isP(STAR)) throw UNSURE;
      const shorthand = !isAsync && isIdentAt(p) && !isW(W_ASYNC);
      propertyName();
      if (isP(COLON)) {
        if (isAsync) throw UNSURE;
        p++;
        assignment();
      } else if (isP(LPAREN)) {
        parameters(true);
        if (isP(COLON)) { p++; type(); }
        functionBody(isAsync);
      } else if (!shorthand || !(isP(COMMA) || isP(RBRACE))) throw UNSURE;
    }
    if (isP(COMMA)) { p++; continue; }
    if (!isP(RBRACE)) throw UNSURE;
  }
  p++;
}

// ---- Types --------------------------------------------------------------------------------------

function type(): void {
  deeper();
  typeHere();
  depth--;
}

function typeHere(): void {
  if (isP(LT) || isW(W_NEW) || isW(W_ABSTRACT)) throw UNSURE; // generic and constructor function types
  if (isP(LPAREN) && isPAt(closers[p] + 1, ARROW)) {
    parameters(false);
    expectP(ARROW);
    type();
    return;
  }
  if (isP(124 /* | */)) p++;
  for (;;) {
    if (isP(38 /* & */)) p++;
    for (;;) {
      typeOperator();
      if (!isP(38)) break;
      p++;
    }
    if (!isP(124)) break;
    p++;
  }
  if (isW(W_EXTENDS)) throw UNSURE; // a conditional type
}

function typeOperator(): void {
  const at = depth;
  typeOperatorHere();
  depth = at;
}

function typeOperatorHere(): void {
  while (isW(W_KEYOF) || isW(W_READONLY)) {
    if (!(kinds[p + 1] === K_WORD || isPAt(p + 1, LBRACKET) || isPAt(p + 1, LPAREN))) throw UNSURE;
    p++;
    deeper();
  }
  if (isW(W_UNIQUE) || isW(W_INFER)) throw UNSURE;
  primaryType();
  while (!breaks[p] && isP(LBRACKET)) {
    p++;
    deeper();
    if (isP(RBRACKET)) { p++; continue; }
    type();
    expectP(RBRACKET);
  }
  if (!breaks[p] && (isP(QUESTION) || isP(EXCL))) throw UNSURE;
}

function primaryType(): void {
  const kind = kinds[p];
  if (kind === K_WORD) {
    const c = codes[p];
    if (c === W_TYPEOF) {
      p++;
      if (!(isIdentAt(p) || isW(W_THIS))) throw UNSURE;
      p++;
      while (isP(DOT)) { p++; if (!isIdentAt(p)) throw UNSURE; nameAfterDot(); }
      if (isP(LT)) throw UNSURE;
      return;
    }
    if (c === W_VOID || c === W_NULL || c === W_THIS || c === W_TRUE || c === W_FALSE) {
      p++;
      if (c === W_THIS && isP(DOT)) throw UNSURE;
      return;
    }
    typeReference();
    return;
  }
  if (kind === K_STR || kind === K_NUM) { p++; return; }
  if (kind === K_PUNCT) {
    switch (codes[p]) {
      case MINUS:
        if (kinds[p + 1] !== K_NUM) throw UNSURE;
        p += 2;
        return;
      case LBRACE: objectType(); return;
      case LBRACKET: {
        p++;
        while (!isP(RBRACKET)) {
          if (isP(ELLIPSIS)) p++;
          if (kinds[p] === K_WORD && (isPAt(p + 1, COLON) || isPAt(p + 1, QUESTION))) throw UNSURE; // named members
          type();
          if (isP(COMMA)) { p++; if (isP(RBRACKET)) throw UNSURE; continue; }
          if (!isP(RBRACKET)) throw UNSURE;
        }
        p++;
        return;
      }
      case LPAREN:
        // a function type here (in a union, after `keyof`) must be in parentheses
        if (isPAt(closers[p] + 1, ARROW)) throw UNSURE;
        p++; type(); expectP(RPAREN);
        return;
    }
  }
  throw UNSURE; // template literal types, `import("…")`, `unique symbol`…
}

/** The names TypeScript reads as keyword types (`string`, not a reference: no type arguments follow). */
const KEYWORD_TYPES = new Set(["any", "unknown", "string", "number", "bigint", "symbol", "boolean", "undefined", "never", "object", "intrinsic"]);

/** `A.B<C, D>`. */
function typeReference(): void {
  if (!isIdentAt(p)) throw UNSURE;
  if (isW(W_UNIQUE) || isW(W_INFER) || isW(W_KEYOF) || isW(W_READONLY)) throw UNSURE;
  if (isPAt(p + 1, LT) && KEYWORD_TYPES.has(src.slice(starts[p], ends[p]))) throw UNSURE;
  // `asserts x` is an assertion to TypeScript wherever a type stands
  if (kinds[p + 1] === K_WORD && !breaks[p + 1] && src.startsWith("asserts", starts[p]) && ends[p] - starts[p] === 7) throw UNSURE;
  p++;
  while (isP(DOT)) { p++; if (!isIdentAt(p)) throw UNSURE; nameAfterDot(); }
  // TypeScript rescans a `<<` here into type arguments' `<` (and `<=`, `<<=` are too close to call)
  if (!breaks[p] && kinds[p] === K_PUNCT && !isP(LT) && src.charCodeAt(starts[p]) === 60) throw UNSURE;
  if (isP(LT)) {
    if (breaks[p]) throw UNSURE;
    p++;
    for (;;) {
      type();
      if (isP(COMMA)) { p++; continue; }
      expectP(GT);
      return;
    }
  }
}

/** `{ a: T; b?: U, c(x: V): W; [k: string]: X }` of a type literal or an interface. */
function objectType(): void {
  expectP(LBRACE);
  while (!isP(RBRACE)) {
    typeMember();
    if (isP(COMMA) || isP(SEMI)) { p++; continue; }
    if (isP(RBRACE) || breaks[p]) continue;
    throw UNSURE;
  }
  p++;
}

function typeMember(): void {
  if (isW(W_READONLY) && (kinds[p + 1] === K_WORD || kinds[p + 1] === K_STR || kinds[p + 1] === K_NUM) && !breaks[p + 1]) p++;
  if (isP(LBRACKET)) {
    // an index signature `[key: string]: T` (computed names and mapped types: not sure)
    if (!(isIdentAt(p + 1) && isPAt(p + 2, COLON))) throw UNSURE;
    p += 3;
    type();
    expectP(RBRACKET);
    expectP(COLON);
    type();
    return;
  }
  if ((isW(W_GET) || isW(W_SET)) && (kinds[p + 1] === K_WORD || kinds[p + 1] === K_STR || kinds[p + 1] === K_NUM || isPAt(p + 1, LBRACKET))) throw UNSURE;
  if (isW(W_NEW) || isW(W_READONLY) && isPAt(p + 1, LBRACKET)) throw UNSURE;
  const kind = kinds[p];
  if (!(kind === K_WORD || kind === K_STR || kind === K_NUM)) throw UNSURE; // call signatures and the rest
  p++;
  if (isP(QUESTION)) p++;
  if (isP(LT)) throw UNSURE;
  if (isP(LPAREN)) {
    parameters(false);
    if (isP(COLON)) { p++; type(); }
    return;
  }
  if (isP(COLON)) { p++; type(); }
}

// ---- The workflows ------------------------------------------------------------------------------

const isWorkflowShape = (shape: number): boolean => shape === S_CALL || shape === S_FUNCTION;

/** What `readWorkflows` reads from the tree, from the statements noted: the same order, the same ranges. */
function workflowsNoted(text: string): WorkflowFact[] {
  const workflows: WorkflowFact[] = [];
  let lines: LineMap | undefined;
  const range = (first: number, last: number) => (lines ??= new LineMap(text)).range(starts[first], ends[last]);
  const word = (k: number): string => text.slice(starts[k], ends[k]);
  for (const f of topFunctions) {
    if (!f.exported) continue;
    const name = f.isDefault ? "default" : word(f.name);
    const at = f.name >= 0 ? f.name : -1;
    workflows.push({ name: intern(name), range: at >= 0 ? range(at, at) : range(f.first, f.last), declaration: range(f.first, f.last) });
  }
  for (const v of topVariables) {
    if (!v.exported) continue;
    for (const d of v.declarators) {
      if (d.name >= 0 && isWorkflowShape(d.shape)) workflows.push({ name: intern(word(d.name)), range: range(d.name, d.name), declaration: range(v.first, v.last) });
    }
  }
  if (exportedNames.length === 0 && defaultNames.length === 0) return workflows;
  // `export { a as b }` of a top-level const that is not exported itself (the last of that name),
  // then `export default a`
  const consts = new Map<string, { statement: TopVariables; declarator: TopDeclarator }>();
  for (const v of topVariables) {
    if (!v.isConst) continue;
    for (const d of v.declarators) if (d.name >= 0 && d.shape >= 0) consts.set(word(d.name), { statement: v, declarator: d });
  }
  const byConst = (exported: string, localName: string) => {
    const local = consts.get(localName);
    if (local && !local.statement.exported && isWorkflowShape(local.declarator.shape)) {
      workflows.push({ name: intern(exported), range: range(local.declarator.name, local.declarator.name), declaration: range(local.statement.first, local.statement.last) });
    }
  };
  for (const e of exportedNames) byConst(word(e.exported), e.local);
  for (const name of defaultNames) byConst("default", name);
  // `export { run }` of a function declared without `export` (the first of that name), then `export default run`
  const functions = new Map<string, TopFunction>();
  for (const f of topFunctions) if (f.name >= 0 && !f.exported && !functions.has(word(f.name))) functions.set(word(f.name), f);
  const byFunction = (exported: string, local: string) => {
    const fn = functions.get(local);
    if (fn) workflows.push({ name: intern(exported), range: range(fn.name, fn.name), declaration: range(fn.first, fn.last) });
  };
  for (const e of exportedNames) byFunction(word(e.exported), e.local);
  for (const name of defaultNames) byFunction("default", name);
  return workflows;
}

// ---- The entry ----------------------------------------------------------------------------------

/** The files read here: TypeScript's own syntax, not JavaScript's, TSX's or a declaration file's. */
const VOUCHABLE = /(?<!\.d)\.[cm]?ts$/;

/**
 * Whether TypeScript's parser would report no syntax error on `text`, decided without a tree: the
 * file's workflows (what `readWorkflows` reads from its tree) when it vouches that the text parses,
 * undefined when it cannot vouch (it may parse or not: parse it with TypeScript). Never throws: a
 * fault of its own is "not sure" too, as vouch only saves time.
 */
export function vouch(fileName: string, text: string): WorkflowFact[] | undefined {
  try {
    return vouchOrFault(fileName, text);
  } catch {
    return undefined;
  }
}

/**
 * Whether `vouch` would vouch for the text, its workflows not read (a line map of the whole text,
 * their ranges, their names): what a host asks that only wants the verdict (`sanoma-check`).
 */
export function vouchesFor(fileName: string, text: string): boolean {
  try {
    return recognized(fileName, text, () => true) === true;
  } catch {
    return false;
  }
}

/** `vouch`, but a fault of its own (not "not sure", not a stack too deep) is thrown: what its tests call. */
export function vouchOrFault(fileName: string, text: string): WorkflowFact[] | undefined {
  return recognized(fileName, text, workflowsNoted);
}

/** Reads the text; where it is sure it parses, what `then` makes of what was read (before the tokens are let go). */
function recognized<T>(fileName: string, text: string, then: (text: string) => T): T | undefined {
  if (!VOUCHABLE.test(fileName)) return undefined;
  src = text;
  p = 0;
  inFunction = false; inAsync = false; inParams = 0; loops = 0; breakables = 0; noIn = 0; inConsequent = 0;
  topFunctions = []; topVariables = []; exportedNames = []; defaultNames = [];
  stopsKnown = false;
  depth = 0;
  try {
    tokenize();
    program();
    return then(text);
  } catch (e) {
    if (e === UNSURE || e instanceof RangeError) return undefined;
    throw e;
  } finally {
    src = "";
    topFunctions = []; topVariables = []; exportedNames = []; defaultNames = [];
    // A huge file's tokens (22 bytes each) are not kept for the small ones after it.
    if (kinds.length > KEPT_TOKENS) {
      kinds = new Uint8Array(KEPT_TOKENS); codes = new Int32Array(KEPT_TOKENS); starts = new Int32Array(KEPT_TOKENS);
      ends = new Int32Array(KEPT_TOKENS); breaks = new Uint8Array(KEPT_TOKENS); closers = new Int32Array(KEPT_TOKENS);
    }
    if (stops.length > KEPT_TOKENS) stops = new Int32Array(KEPT_TOKENS);
  }
}

/** How many tokens' arrays stay between texts (a workflow source of 300 KB or so). */
const KEPT_TOKENS = 1 << 16;

// ---- The tokens, for readers of a vouched text ----------------------------------------------------

/**
 * The tokens of a text that `vouch` is sure parses, as a reader of what it holds sees them
 * (`light-data.ts`): valid only while the reader runs (the arrays are reused by the next text).
 * `kinds[k]` is one of `TOKEN`, `codes[k]` a punctuator's or a word's code (`PUNCT`, `WORD`; 0: an
 * identifier); `starts`/`ends` are offsets in `text`; `breaks[k]` is 1 after a line break. The
 * last tokens are three `TOKEN.EOF`.
 */
export interface VouchedTokens {
  readonly text: string;
  readonly kinds: Uint8Array;
  readonly codes: Int32Array;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  readonly breaks: Uint8Array;
}

export const TOKEN = { EOF: K_EOF, WORD: K_WORD, NUM: K_NUM, STR: K_STR, TPL: K_TPL, HEAD: K_HEAD, MIDDLE: K_MIDDLE, TAIL: K_TAIL, PUNCT: K_PUNCT } as const;
export const PUNCT = { LPAREN, RPAREN, LBRACKET, RBRACKET, LBRACE, RBRACE, SEMI, COMMA, COLON, DOT, QDOT, ASSIGN, MINUS, STAR } as const;
export const WORD = { IMPORT: W_IMPORT, EXPORT: W_EXPORT, CONST: W_CONST, VOID: W_VOID, TRUE: W_TRUE, FALSE: W_FALSE, NULL: W_NULL, TYPE: W_TYPE, AS: W_AS, FROM: W_FROM } as const;
/** Whether a word's code is an identifier's (a plain one, or a contextual word such as `from`). */
export const isIdentifierCode = identifierCode;

/**
 * What `read` makes of a text's tokens where `vouch` is sure the text parses; undefined where it
 * is not sure, or where `read` refuses (undefined). A fault of either is thrown: the caller decides.
 */
export function readVouched<T>(fileName: string, text: string, read: (tokens: VouchedTokens) => T | undefined): T | undefined {
  return recognized(fileName, text, () => read({ text, kinds, codes, starts, ends, breaks }));
}
