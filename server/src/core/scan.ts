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
import { releaseText, QDOT, STRING, TEMPLATE, UNSURE_SITES, WORD, count, depths, ends, exists, is, kinds, member, punct, starts, text, tokenize } from "./scan-tokens.ts";

/** A `[start, end)` range of the text (UTF-16 code units), the shape hosts report at. */
export interface Span { range: [number, number] }
export type TextSite = ImportSite<Span>;

/** Files whose text the scanner reads: TypeScript without JSX. */
export function scannable(file: string): boolean {
  return file.endsWith(".ts") || file.endsWith(".mts") || file.endsWith(".cts");
}

// ---- Sites --------------------------------------------------------------------------------------

/** Token `k`'s kind, 0 past the last token (the arrays hold an older text's tokens there). */
const kind = (k: number): number => (exists(k) ? kinds[k] : 0);
const span = (k: number): Span => ({ range: [starts[k], ends[k]] });

/** A string or template token's value (undefined when its escapes cannot be read surely). */
function valueOf(k: number): string | undefined {
  return literalValue(text, starts[k], ends[k], kind(k) === TEMPLATE);
}

/** The value of the literal `source[start, end)` (quotes or backticks included; `template`: a template without substitutions), as JavaScript reads it; undefined when its escapes cannot be read surely. */
export function literalValue(source: string, start: number, end: number, template: boolean): string | undefined {
  let raw = source.slice(start + 1, end - 1);
  if (template && raw.includes("\r")) raw = raw.replace(/\r\n?/g, "\n");
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

/**
 * Whether the call whose callee is token `k` (`require`, `import`), parenthesized or not, and
 * `await`ed when `awaited` allows it, is the value of a destructuring `{ … } =`: the names it takes
 * are the pattern's, which a tree reads.
 */
function destructures(k: number, awaited: boolean): boolean {
  let before = k - 1;
  while (before > 0 && punct(before, 40)) before--;
  if (awaited && before > 0 && is(before, "await")) { before--; while (before > 0 && punct(before, 40)) before--; }
  return before > 0 && punct(before, 61) && punct(before - 1, 125);
}

/** `import …` at token `k` (not a property): its site, if any, and the last token it takes. */
function importAt(k: number, out: TextSite[]): number {
  if (punct(k + 1, 40)) { // import("m"), import type import("m")
    const arg = k + 2;
    if (punct(arg, 40)) throw UNSURE_SITES; // import(("m")): a tree drops the parentheses
    // `const { a, b: c } = await import("m")` takes names a tree reads from the pattern: left to it.
    if (destructures(k, true)) throw UNSURE_SITES;
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
    // (One by one: spread into a call, an import of 130,000 names ran out of stack.)
    for (const name of list.names) names.push(name);
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
  if (destructures(k, false)) throw UNSURE_SITES;
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
  return scanSitesUpTo(source, lastSiteWord(source));
}

/**
 * `scanSites`, told where the last word an import form needs stands (-1: none), known from
 * elsewhere: another tokenizing of the text that found its last `import`, `require` or `from`
 * word (no word of a text without escapes holds them otherwise, as `importAmount` does).
 */
export function scanSitesUpTo(source: string, stop: number): TextSite[] | undefined {
  if (stop < 0) return [];
  if (!tokenize(source, stop + 7)) { releaseText(); return undefined; }
  try {
    return readSites(stop);
  } catch (e) {
    if (e === UNSURE_SITES) return undefined;
    throw e;
  } finally {
    releaseText();
  }
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
  if (!tokenize(source, source.length)) { releaseText(); return undefined; }
  try {
    const stop = lastSiteWord(source);
    const sites = stop < 0 ? [] : readSites(stop);
    const strings: TextString[] = [];
    // The text's next backslash at or after the string being read (-1: none left): found natively,
    // once for each backslash, as the strings come in order (a loop over each string's characters
    // took ~13 ms of a 10,000-file check, and `indexOf` from each string to the end is quadratic).
    let backslash = source.indexOf("\\");
    for (let k = 0; k < count; k++) {
      if (kinds[k] !== STRING && kinds[k] !== TEMPLATE) continue;
      // Its value counts (an escape may write the prefix): a string with a backslash is read.
      const escaped = !source.startsWith(prefix, starts[k] + 1);
      if (backslash >= 0 && backslash < starts[k]) backslash = source.indexOf("\\", starts[k]);
      if (escaped && !(backslash >= 0 && backslash < ends[k])) continue;
      // A module's name where it stands (after `from`, `import`, `module`), nested ones too: no such string.
      // (light-facts.ts's `vouchedStrings` reads `vouch.ts`'s tokens by this same rule: change both.)
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
    releaseText();
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
