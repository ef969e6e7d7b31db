/** Offsets ↔ positions over a file's text, with the line starts computed once. */
import type { Position, Range } from "./types.ts";

/**
 * Positions held once each (issue 23). Facts keep a range for every import, name and operation
 * reference of every file: two thirds of the objects a big company's facts are made of were
 * `{ line, character }` positions, and the same few thousand of them, file after file. A position
 * is given from a table of the ones made already (frozen: a change to a shared one would fail
 * loudly, not move another file's), for lines below `SHARED_LINES` and characters below
 * `SHARED_CHARACTERS` (where nearly all of a source file's places are; a lockfile's thousands of
 * lines, whose places are all different, are made afresh past them); the table is dropped past
 * `SHARED_LIMIT` positions, so that it stays small.
 */
const SHARED_LINES = 1 << 11;
const SHARED_CHARACTERS = 1 << 10;
const SHARED_LIMIT = 200_000;
let sharedPositions: (Position[] | undefined)[] = [];
let sharedCount = 0;

/** Whether a place is one the tables hold (a negative one, which no offset should give, is not). */
const shared = (line: number, character: number): boolean => line >= 0 && line < SHARED_LINES && character >= 0 && character < SHARED_CHARACTERS;

export function positionAt(line: number, character: number): Position {
  if (!shared(line, character)) return { line, character };
  const held = sharedPositions[line]?.[character];
  if (held !== undefined) return held;
  if (sharedCount >= SHARED_LIMIT) { sharedPositions = []; sharedCount = 0; }
  const row = sharedPositions[line] ?? (sharedPositions[line] = []);
  const made = Object.freeze({ line, character });
  row[character] = made;
  sharedCount++;
  return made;
}

/**
 * Ranges within one line held once each too, as positions are (an import's specifier, an
 * operation reference's string: most ranges facts keep), frozen alike; keyed by their line and
 * characters in one number (below 2³¹: V8 keeps it unboxed).
 */
let sharedRanges = new Map<number, Range>();

export function rangeOf(start: Position, end: Position): Range {
  const line = start.line;
  if (end.line !== line || !shared(line, start.character) || !shared(line, end.character)) return { start, end };
  const key = (line * SHARED_CHARACTERS + start.character) * SHARED_CHARACTERS + end.character;
  const held = sharedRanges.get(key);
  if (held !== undefined) return held;
  if (sharedRanges.size >= SHARED_LIMIT) sharedRanges = new Map();
  const made = Object.freeze({ start, end });
  sharedRanges.set(key, made);
  return made;
}

/** The text of a string literal at `r` (on one line), without its quotes: what an edit of its value replaces, so the quotes stay as written. */
export function insideQuotes(r: Range): Range {
  return { start: { line: r.start.line, character: r.start.character + 1 }, end: { line: r.end.line, character: r.end.character - 1 } };
}

export class LineMap {
  private readonly starts: number[];
  /** The lines of a text, or the offsets where they start as a scan found them (the first at 0, in order). */
  constructor(text: string | { lineStarts: number[] }) {
    if (typeof text !== "string") { this.starts = text.lineStarts; return; }
    const starts = [0];
    if (!text.includes("\r")) {
      // The common case, searched natively: only \n breaks lines.
      for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
    } else {
      for (let i = 0; i < text.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 10) starts.push(i + 1);
        else if (c === 13 && text.charCodeAt(i + 1) !== 10) starts.push(i + 1);
      }
    }
    this.starts = starts;
  }
  position(offset: number): Position {
    let lo = 0, hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid; else hi = mid - 1;
    }
    return positionAt(lo, offset - this.starts[lo]);
  }
  range(start: number, end: number): Range {
    return rangeOf(this.position(start), this.position(end));
  }
  offset(p: Position): number {
    const start = this.starts[Math.min(p.line, this.starts.length - 1)] ?? 0;
    return start + p.character;
  }
}

export function containsPosition(r: Range, p: Position): boolean {
  const after = p.line > r.start.line || (p.line === r.start.line && p.character >= r.start.character);
  const before = p.line < r.end.line || (p.line === r.end.line && p.character <= r.end.character);
  return after && before;
}

/**
 * The edit distance for did-you-mean suggestions: Levenshtein's, with two neighbours swapped
 * counted as one edit (optimal string alignment), the commonest typo (`nmae` for `name`, which
 * plain Levenshtein puts two edits away, too far for a four-letter name).
 */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  // Three rows: the one before the last (for a swap), the last, and the one being filled.
  let before: number[] = Array.from({ length: b.length + 1 }, () => 0);
  let prev: number[] = Array.from({ length: b.length + 1 }, (_, j) => j);
  let row: number[] = Array.from({ length: b.length + 1 }, () => 0);
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2] + 1);
      row[j] = d;
    }
    [before, prev, row] = [prev, row, before];
  }
  return prev[b.length];
}

/** The closest candidate to `name`, when it is close enough to be a likely typo. */
export function didYouMean(name: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.max(1, Math.floor(name.length / 3));
  const lower = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    // (No fewer edits than the lengths differ by: a candidate that far cannot be close enough, nor
    // closer than the best so far. A check asks this of every unknown name against every one known.)
    if (Math.abs(c.length - name.length) > Math.min(limit, bestDistance)) continue;
    const d = c.toLowerCase() === lower ? 0.5 : editDistance(name, c);
    if (d < bestDistance || (d === bestDistance && best !== undefined && c < best)) { best = c; bestDistance = d; }
  }
  return best !== undefined && bestDistance <= limit ? best : undefined;
}

/** Whether a name can be written bare as a property name or an import's name (an identifier name; reserved words are names there). */
export function isIdentifierName(name: string): boolean {
  return IDENTIFIER_NAME.test(name);
}
const IDENTIFIER_NAME = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u;

/** A property name as code writes it: bare when it is an identifier name, else a string literal (`"max-size"`). */
export function propertyName(name: string): string {
  return isIdentifierName(name) ? name : JSON.stringify(name);
}

export function suggestion(name: string, candidates: Iterable<string>): string {
  const s = didYouMean(name, candidates);
  return s ? `; did you mean \`${s}\`?` : "";
}

/**
 * A count with thousands separated by commas (`12,345`), as `toLocaleString("en")` writes it for a
 * whole number, without loading the locale data (22 ms the first time, while a server indexes).
 */
export function thousands(n: number): string {
  const digits = String(Math.trunc(Math.abs(n)));
  let out = "";
  for (let i = digits.length; i > 0; i -= 3) out = (i > 3 ? "," : "") + digits.slice(Math.max(0, i - 3), i) + out;
  return (n < 0 && digits !== "0" ? "-" : "") + out;
}

/**
 * Whether a UTF-16 code is a control character to escape: C0 controls but tab, line feed and
 * carriage return; DEL; C1 controls. A terminal or a CI log acts on them (ESC starts a sequence
 * that recolours, moves the cursor or retitles the window), so a file's name or a corrupt file's
 * bytes quoted in a message must not reach it as they are. (A test of codes, not a regular
 * expression of control characters: such a literal in a shipped bundle is what oxlint's
 * `no-control-regex` reports in a company's `node_modules`.)
 */
function isControl(c: number): boolean {
  return (c < 0x20 && c !== 9 && c !== 10 && c !== 13) || (c >= 0x7f && c <= 0x9f);
}

/** `s` with its control characters (`isControl`) written as `\u00XX` escapes. */
export function escapeControls(s: string): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!isControl(c)) continue;
    out += s.slice(from, i) + `\\u${c.toString(16).padStart(4, "0")}`;
    from = i + 1;
  }
  return from === 0 ? s : out + s.slice(from);
}

/** A message or a path on one line of text output: its line breaks and other control characters written as escapes. */
export function oneLine(s: string): string {
  return escapeControls(s).replace(/[\r\n\u2028\u2029]/g, (c) => (c === "\n" ? "\\n" : c === "\r" ? "\\r" : c === "\u2028" ? "\\u2028" : "\\u2029"));
}
