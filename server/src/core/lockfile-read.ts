/**
 * `sanoma.lock.json` (SPEC A6) → its bindings with the ranges of their keys and values, or the one
 * problem that keeps it from being read (not JSON, not of the lockfile's shape, an unknown version).
 * A binding of another shape does not keep the others from being read: it is a problem of its own.
 */
import ts from "./typescript.ts";
import { z } from "zod";
import { LineMap } from "./text.ts";
import { ShardedMap } from "./sharded-map.ts";
import { runSteps, type Steps } from "./steps.ts";
import { MAX_READ_BYTES, type LockText, type Range, type TextInPieces } from "./types.ts";

export const LOCK_VERSION = 1;

// (An empty object id names no object: the lockfile schema the editor validates with says so too.)
const BindingSchema = z.object({ type: z.string(), object: z.string().min(1, "the object id is empty") }).passthrough();
const LockSchema = z.object({
  version: z.number(),
  bindings: z.record(z.string(), BindingSchema),
}).passthrough();
/** The file's own shape: a binding of another shape is a problem of its own, and the others are still read. */
const FileSchema = z.object({ version: z.number(), bindings: z.record(z.string(), z.unknown()) }).passthrough();

export interface LockBinding {
  key: string;
  keyRange: Range;
  type: string;
  typeRange: Range;
  object: string;
  objectRange: Range;
}

export interface LockFacts {
  error?: { message: string; range: Range };
  bindings: LockBinding[];
  /** The bindings by the company-relative path their key names (`resources/a.ts#web`: `resources/a.ts`). */
  byRel: Map<string, LockBinding[]>;
  /** Keys written twice (a merge gone wrong): each later copy. The bindings are what JSON.parse keeps, the last. */
  duplicates?: { key: string; message: string; range: Range; first: Range }[];
  /** Bindings not of a binding's shape, at the offending place each; they are not among `bindings`. */
  malformed?: { key: string; message: string; range: Range }[];
}

/**
 * A lockfile that is there but cannot be read (`why`: "is a folder, not a file", say): a problem
 * of its own, never taken for a company without one (apply would fail on it).
 */
export function unreadableLock(why: string): LockFacts {
  const start = { line: 0, character: 0 };
  return { error: { message: `sanoma.lock.json ${why}: its bindings are not read, and apply cannot read them either`, range: { start, end: start } }, bindings: [], byRel: new Map() };
}

/**
 * A lockfile's bindings, or the problem that keeps it from being read. A lockfile apply wrote (or
 * one like it) is read by a strict scan of its text, in steps (`readLockSteps`); any other, by
 * `JSON.parse` and TypeScript's JSON syntax tree, which place each problem.
 */
export function readLock(text: LockText): LockFacts {
  return runSteps(readLockSteps(text));
}

/**
 * `readLock`, yielding every `LOCK_STEP` bindings (see `steps.ts`): a lockfile of 500,000 bindings
 * is read in slices, from the pieces it was read in (never joined, unless it is not of the usual
 * shape).
 */
export function* readLockSteps(text: LockText): Steps<LockFacts> {
  const pieces = typeof text === "string" ? [text] : text;
  // A file past what is read of one (its text cut there): too large, said so, not "not JSON".
  let length = 0;
  for (const piece of pieces) length += piece.length;
  if (length > MAX_READ_BYTES) {
    const start = { line: 0, character: 0 };
    return { error: { message: `sanoma.lock.json is larger than ${MAX_READ_BYTES / 1024 / 1024} MB, more than this tool reads of a file: not read (500,000 bindings take some 60 MB)`, range: { start, end: start } }, bindings: [], byRel: new Map() };
  }
  let read: ReadLock | undefined = yield* scanLock(pieces);
  if (!read) {
    const flat = pieces.length === 1 ? pieces[0] : pieces.join("");
    read = readLockByTree(flat, new LineMap(flat));
  }
  // Grouped here, in steps too: the rule asks for each file's bindings.
  const byRel = new Map<string, LockBinding[]>();
  let n = 0;
  for (const b of read.bindings) {
    const rel = relOfKey(b.key);
    const list = byRel.get(rel);
    if (list) list.push(b); else byRel.set(rel, [b]);
    if (++n % (LOCK_STEP * 8) === 0) yield;
  }
  return { ...read, byRel };
}

/**
 * Whether two lockfile texts are surely the same text, so that it need not be read again: two
 * strings alike, or pieces alike piece by piece (the same file read twice is cut alike). A string
 * and pieces are not joined to be compared (that is the copy pieces avoid): read again, in steps.
 */
export function sameLockText(a: LockText, b: LockText): boolean {
  if (typeof a === "string" || typeof b === "string") return a === b;
  return a.length === b.length && a.every((piece, k) => piece === b[k]);
}

/** The company-relative path a binding's key names: what comes before its last `#`. */
export function relOfKey(key: string): string {
  const hash = key.lastIndexOf("#");
  return hash > 0 ? key.slice(0, hash) : key;
}

/** What the readers give, before the bindings are grouped. */
type ReadLock = Omit<LockFacts, "byRel">;

/** Bindings between two yields of `readLockSteps`: a few milliseconds of scanning. */
export const LOCK_STEP = 512;

function readLockByTree(text: string, lines: LineMap): ReadLock {
  const firstLine = lines.range(0, Math.max(0, text.indexOf("\n") < 0 ? text.length : text.indexOf("\n")));
  let value: unknown;
  try {
    // A byte order mark is no JSON, but editors write one: read past it, as JSON readers may.
    value = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (e) {
    const m = /position (\d+)/.exec(String((e as Error).message));
    // Node 20's "Unexpected token" says no position: then a strict reading of our own places it.
    const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
    const at = m ? Math.min(+m[1] + bom, text.length) : jsonErrorAt(text, bom);
    const detail = String((e as Error).message).replace(/^JSON\.parse: /, "").split("\n")[0];
    return { error: { message: `sanoma.lock.json is not JSON (${detail}); restore it from version control or let apply write it again`, range: at >= 0 ? lines.range(at, Math.min(at + 1, text.length)) : firstLine }, bindings: [] };
  }
  // The syntax tree only places problems. A file nested a thousand deep overflows the parser's
  // stack (JSON.parse reads it): then there is no tree, and places fall back to the first line.
  let parsedJson: ts.JsonSourceFile | null | undefined;
  const jsonTree = (): ts.JsonSourceFile | null => {
    if (parsedJson === undefined) {
      try {
        parsedJson = ts.parseJsonText("sanoma.lock.json", text);
      } catch (e) {
        if (!(e instanceof RangeError)) throw e;
        parsedJson = null;
      }
    }
    return parsedJson;
  };
  const nodeAt = (p: (string | number)[]): ts.Node | undefined => {
    let node: ts.Node | undefined = jsonTree()?.statements[0]?.expression;
    for (const seg of p) {
      if (!node) return undefined;
      if (ts.isObjectLiteralExpression(node)) {
        // The last of two same keys: the one JSON.parse keeps.
        const prop: ts.ObjectLiteralElementLike | undefined = node.properties.findLast((q) => q.name && (q.name as ts.StringLiteral).text === String(seg));
        node = prop && ts.isPropertyAssignment(prop) ? prop.initializer : undefined;
      } else if (ts.isArrayLiteralExpression(node) && typeof seg === "number") node = node.elements[seg];
      else return undefined;
    }
    return node;
  };
  const rangeOf = (node: ts.Node | undefined): Range => node ? lines.range(node.getStart(jsonTree()!), node.end) : firstLine;
  // A well-formed lockfile is recognised by hand (zod takes tens of ms over thousands of
  // bindings, cold); zod reads only one that is not, for its precise message.
  /** The node of the deepest part of `path` the syntax tree has. */
  const placeOf = (path: (string | number)[]): Range => {
    let node: ts.Node | undefined;
    for (let n = path.length; n >= 0 && !node; n--) node = nodeAt(path.slice(0, n));
    return rangeOf(node);
  };
  let data: z.infer<typeof LockSchema>;
  let malformed: NonNullable<LockFacts["malformed"]> | undefined;
  if (isLockShaped(value)) data = value;
  else {
    const file = FileSchema.safeParse(value);
    if (!file.success) {
      const issue = file.error.issues[0];
      const where = issue.path.length ? ` at \`${issue.path.join(".")}\`` : "";
      return { error: { message: `sanoma.lock.json is not a lockfile${where}: ${issue.message.toLowerCase()}; expected { "version": 1, "bindings": { "<file>#<export>": { "type", "object" } } }`, range: placeOf(issue.path as (string | number)[]) }, bindings: [] };
    }
    // Each binding of another shape is said where it goes wrong; the others are judged as usual.
    // (No prototype: a key such as `__proto__` or `toString` is a binding's like any other.)
    const bindings: Record<string, z.infer<typeof BindingSchema>> = Object.create(null);
    malformed = [];
    // (Over JSON.parse's own object: the schema's copy loses a `__proto__` key, which JSON.parse keeps as a key.)
    for (const [key, b] of Object.entries((value as { bindings: Record<string, unknown> }).bindings)) {
      const binding = BindingSchema.safeParse(b);
      if (binding.success) { bindings[key] = binding.data; continue; }
      const issue = binding.error.issues[0];
      const where = issue.path.length ? ` at \`${issue.path.join(".")}\`` : "";
      malformed.push({ key, message: `sanoma.lock.json binds ${key} in another shape${where}: ${issue.message.toLowerCase()}; a binding is { "type": "<vendor>.<type>", "object": "<object id>" }`, range: placeOf(["bindings", key, ...issue.path as (string | number)[]]) });
    }
    data = { ...file.data, bindings };
  }
  if (data.version !== LOCK_VERSION) {
    return { error: { message: `sanoma.lock.json has version ${data.version}, which this tool does not know (it reads version ${LOCK_VERSION}); update the Sanoma tooling`, range: rangeOf(nodeAt(["version"])) }, bindings: [] };
  }
  const bindingsNode = nodeAt(["bindings"]);
  const bindings: LockBinding[] = [];
  if (bindingsNode && ts.isObjectLiteralExpression(bindingsNode)) {
    // A key written twice (a merge gone wrong) binds one declaration twice: JSON.parse keeps the
    // last, as apply will. Each later copy is a problem; the bindings are read as JSON.parse reads them.
    const last = new Map<string, ts.PropertyAssignment>();
    const first = new Map<string, ts.PropertyName>();
    const duplicates: NonNullable<LockFacts["duplicates"]> = [];
    for (const p of bindingsNode.properties) {
      if (!ts.isPropertyAssignment(p) || !p.name) continue;
      const key = (p.name as ts.StringLiteral).text;
      const earlier = first.get(key);
      if (earlier) {
        const line = lines.range(earlier.getStart(jsonTree()!), earlier.end).start.line + 1;
        duplicates.push({ key, message: `sanoma.lock.json binds ${key} twice (first on line ${line}); the last binding is the one read: keep the binding apply wrote last and delete the other`, range: rangeOf(p.name), first: rangeOf(earlier) });
      } else first.set(key, p.name);
      last.set(key, p);
    }
    for (const p of bindingsNode.properties) {
      if (!ts.isPropertyAssignment(p) || !p.name) continue;
      const key = (p.name as ts.StringLiteral).text;
      // (Its own keys only: `toString` is no binding of an object's prototype.)
      const b = Object.hasOwn(data.bindings, key) ? data.bindings[key] : undefined;
      if (!b || last.get(key) !== p) continue;
      const v = p.initializer;
      const field = (name: string) => ts.isObjectLiteralExpression(v) ? v.properties.findLast((q) => q.name && (q.name as ts.StringLiteral).text === name) : undefined;
      const t = field("type"), o = field("object");
      bindings.push({
        key, keyRange: rangeOf(p.name), type: b.type, object: b.object,
        typeRange: rangeOf(t && ts.isPropertyAssignment(t) ? t.initializer : p.name),
        objectRange: rangeOf(o && ts.isPropertyAssignment(o) ? o.initializer : p.name),
      });
    }
    return { bindings, ...(duplicates.length > 0 ? { duplicates } : {}), ...(malformed?.length ? { malformed } : {}) };
  }
  return { bindings, ...(malformed?.length ? { malformed } : {}) };
}

/**
 * Where a strict JSON reading (RFC 8259) of `text` from `start` first fails: the offending
 * character, or the text's length when it ends too soon; -1 if it reads (or is nested too deep to
 * read here).
 */
export function jsonErrorAt(text: string, start = 0): number {
  let i = start;
  const space = () => { while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++; };
  const word = (w: string) => { if (!text.startsWith(w, i)) throw i; i += w.length; };
  const digits = () => { const from = i; while (i < text.length && text[i] >= "0" && text[i] <= "9") i++; if (i === from) throw i; };
  const string = () => {
    if (text[i] !== '"') throw i;
    for (i++; ; i++) {
      if (i >= text.length) throw i;
      const c = text.charCodeAt(i);
      if (c === 34) { i++; return; }
      if (c < 32) throw i;
      if (c === 92) {
        const e = text[++i];
        if (e === "u") { if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) throw i; i += 4; }
        else if (e === undefined || !'"\\/bfnrt'.includes(e)) throw i;
      }
    }
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === "{") {
      i++; space();
      if (text[i] === "}") { i++; return; }
      for (;;) {
        space(); string(); space();
        if (text[i] !== ":") throw i;
        i++; value(); space();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === "}") { i++; return; }
        throw i;
      }
    }
    if (c === "[") {
      i++; space();
      if (text[i] === "]") { i++; return; }
      for (;;) {
        value(); space();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === "]") { i++; return; }
        throw i;
      }
    }
    if (c === '"') return string();
    if (c === "t") return word("true");
    if (c === "f") return word("false");
    if (c === "n") return word("null");
    if (c === "-" || (c !== undefined && c >= "0" && c <= "9")) {
      if (c === "-") i++;
      if (text[i] === "0") i++; else digits();
      if (text[i] === ".") { i++; digits(); }
      if (text[i] === "e" || text[i] === "E") { i++; if (text[i] === "+" || text[i] === "-") i++; digits(); }
      return;
    }
    throw i;
  };
  try {
    value(); space();
    return i < text.length ? i : -1;
  } catch (at) {
    return typeof at === "number" ? Math.min(at, text.length) : -1; // a RangeError: nested too deep
  }
}

/** What `LockSchema` accepts, in its common form (a plain object of string fields per binding). */
function isLockShaped(value: unknown): value is z.infer<typeof LockSchema> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const { version, bindings } = value as { version?: unknown; bindings?: unknown };
  if (typeof version !== "number" || typeof bindings !== "object" || bindings === null || Array.isArray(bindings)) return false;
  for (const key in bindings) {
    const b = (bindings as Record<string, unknown>)[key];
    if (typeof b !== "object" || b === null || Array.isArray(b)) return false;
    const object = (b as { object?: unknown }).object;
    if (typeof (b as { type?: unknown }).type !== "string" || typeof object !== "string" || object === "") return false;
  }
  return true;
}

/**
 * A binding read by the scan: its places kept as offsets, made into ranges when asked (a
 * lockfile of 500,000 bindings would hold four and a half million position objects otherwise).
 */
class ScannedBinding implements LockBinding {
  constructor(
    private readonly lines: LineMap,
    readonly key: string, readonly type: string, readonly object: string,
    private readonly keyStart: number, private readonly keyEnd: number,
    private readonly typeStart: number, private readonly typeEnd: number,
    private readonly objectStart: number, private readonly objectEnd: number,
  ) {}
  get keyRange(): Range { return this.lines.range(this.keyStart, this.keyEnd); }
  get typeRange(): Range { return this.lines.range(this.typeStart, this.typeEnd); }
  get objectRange(): Range { return this.lines.range(this.objectStart, this.objectEnd); }
}

/** A key `JSON.parse` puts before the others (an array index: an integer below 2^32 - 1, written plainly). */
function isIndexLike(key: string): boolean {
  const c = key.charCodeAt(0);
  return c >= 48 && c <= 57 && /^(0|[1-9]\d*)$/.test(key);
}

/** Nesting a skipped value may have before the scan leaves the file to `JSON.parse` (and the tree). */
const MAX_SKIP_DEPTH = 64;

/**
 * The bindings of a lockfile of the usual shape, read by a strict scan (RFC 8259) of the text in
 * one pass: `{ "version": 1, "bindings": { "<key>": { "type": "…", "object": "…", … }, … }, … }`,
 * in any order, with any other fields. Undefined as soon as anything is not plainly so — not JSON,
 * another version, a key written twice, a key `JSON.parse` would reorder (an integer) or treat
 * apart (`__proto__`), a binding of another shape, a value nested deeper than `MAX_SKIP_DEPTH` —
 * and the caller reads the file by its syntax tree, which says what is wrong and where. What it
 * returns is what that reading would: the bindings in `JSON.parse`'s order, with their places.
 */
function* scanLock(pieces: TextInPieces): Steps<ReadLock | undefined> {
  // The scan reads a piece at a time: `text` is the piece at hand, `base` its offset in the whole,
  // `i` the place in it. Pieces are cut only at line ends, and in JSON a line end is whitespace,
  // so only `space` crosses from one piece to the next; it also notes where each line starts.
  let k = 0, text = pieces[0], base = 0, n = text.length;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const starts = [0];
  const lines = new LineMap({ lineStarts: starts }); // (asked only once the scan is done, when `starts` is whole)
  const space = () => {
    for (;;) {
      for (let c = text.charCodeAt(i); c === 32 || c === 10 || c === 13 || c === 9; c = text.charCodeAt(++i)) {
        if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) starts.push(base + i + 1);
      }
      if (i < n || k + 1 >= pieces.length) return;
      base += n; text = pieces[++k]; n = text.length; i = 0;
    }
  };
  /** The string literal at `i` (after its closing quote when done): its value, or undefined (not a string, or a bad one). */
  const string = (): string | undefined => {
    if (text.charCodeAt(i) !== 34) return undefined;
    const start = i;
    let escaped = false;
    for (i++; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === 34) break;
      if (c < 32) return undefined;
      if (c === 92) { escaped = true; i++; }
    }
    if (i >= n) return undefined;
    i++;
    if (!escaped) return text.slice(start + 1, i - 1);
    try { return JSON.parse(text.slice(start, i)) as string; } catch { return undefined; }
  };
  const number = (): number | undefined => {
    const start = i;
    if (text.charCodeAt(i) === 45) i++;
    const digits = () => { const from = i; for (let c = text.charCodeAt(i); c >= 48 && c <= 57; c = text.charCodeAt(++i)); return i > from; };
    if (text.charCodeAt(i) === 48) i++; else if (!digits()) return undefined;
    if (text.charCodeAt(i) === 46) { i++; if (!digits()) return undefined; }
    if (text.charCodeAt(i) === 101 || text.charCodeAt(i) === 69) { i++; if (text.charCodeAt(i) === 43 || text.charCodeAt(i) === 45) i++; if (!digits()) return undefined; }
    return Number(text.slice(start, i));
  };
  /** Passes over any JSON value at `i`; false if it is none (or nests too deep for this scan). */
  const skip = (depth: number): boolean => {
    space();
    const c = text.charCodeAt(i);
    if (c === 34) return string() !== undefined;
    if (c === 45 || (c >= 48 && c <= 57)) return number() !== undefined;
    for (const word of ["true", "false", "null"]) if (text.startsWith(word, i)) { i += word.length; return true; }
    if (c !== 123 && c !== 91) return false;
    if (depth >= MAX_SKIP_DEPTH) return false;
    const close = c === 123 ? 125 : 93;
    i++; space();
    if (text.charCodeAt(i) === close) { i++; return true; }
    for (;;) {
      if (c === 123) {
        space();
        if (string() === undefined) return false;
        space();
        if (text.charCodeAt(i) !== 58) return false;
        i++;
      }
      if (!skip(depth + 1)) return false;
      space();
      const d = text.charCodeAt(i++);
      if (d === close) return true;
      if (d !== 44) return false;
    }
  };
  /**
   * Reads an object's members at `i`: `member` is called with `i` at each value, and leaves `i`
   * after it (false: the scan gives up). True when the object closed well.
   */
  const readObject = (member: (key: string) => boolean): boolean => {
    space();
    if (text.charCodeAt(i) !== 123) return false;
    i++; space();
    if (text.charCodeAt(i) === 125) { i++; return true; }
    for (;;) {
      space();
      const key = string();
      if (key === undefined) return false;
      space();
      if (text.charCodeAt(i) !== 58) return false;
      i++; space();
      if (!member(key)) return false;
      space();
      const d = text.charCodeAt(i++);
      if (d === 125) return true;
      if (d !== 44) return false;
    }
  };

  let version: number | undefined;
  let bindings: LockBinding[] | undefined;
  const top = new Set<string>();
  // The top object, by hand: its `bindings` are read in steps.
  space();
  if (text.charCodeAt(i) !== 123) return undefined;
  i++; space();
  if (text.charCodeAt(i) !== 125) {
    for (;;) {
      space();
      const key = string();
      if (key === undefined || top.has(key)) return undefined; // (a key twice: JSON.parse keeps the last; the tree says which)
      top.add(key);
      space();
      if (text.charCodeAt(i) !== 58) return undefined;
      i++; space();
      if (key === "version") { if ((version = number()) === undefined) return undefined; }
      else if (key !== "bindings") { if (!skip(0)) return undefined; }
      else {
        if (text.charCodeAt(i) !== 123) return undefined;
        const list: LockBinding[] = (bindings = []);
        const keys = new ShardedMap<true>(); // (a Set of 500,000 keys would grow in long pauses)
        i++; space();
        if (text.charCodeAt(i) !== 125) {
          for (;;) {
            space();
            const keyStart = base + i;
            const bkey = string();
            // A key twice, an integer-like key (JSON.parse's order puts it first) or `__proto__`: the tree reads it.
            if (bkey === undefined || keys.has(bkey) || isIndexLike(bkey) || bkey === "__proto__") return undefined;
            keys.set(bkey, true);
            const keyEnd = base + i;
            space();
            if (text.charCodeAt(i) !== 58) return undefined;
            i++;
            let type: string | undefined, object: string | undefined;
            let typeStart = 0, typeEnd = 0, objectStart = 0, objectEnd = 0;
            const fields = new Set<string>();
            const read = readObject((field) => {
              if (fields.has(field)) return false;
              fields.add(field);
              if (field !== "type" && field !== "object") return skip(0);
              const start = base + i;
              const value = string();
              if (value === undefined) return false; // no string: a binding of another shape, said by the tree
              if (field === "type") { type = value; typeStart = start; typeEnd = base + i; } else { object = value; objectStart = start; objectEnd = base + i; }
              return true;
            });
            if (!read || type === undefined || object === undefined || object === "") return undefined;
            list.push(new ScannedBinding(lines, bkey, type, object, keyStart, keyEnd, typeStart, typeEnd, objectStart, objectEnd));
            if (list.length % LOCK_STEP === 0) yield;
            space();
            const d = text.charCodeAt(i++);
            if (d === 125) break;
            if (d !== 44) return undefined;
          }
        } else i++;
      }
      space();
      const d = text.charCodeAt(i++);
      if (d === 125) break;
      if (d !== 44) return undefined;
    }
  } else i++;
  space();
  if (i < n || k + 1 < pieces.length || version !== LOCK_VERSION || bindings === undefined) return undefined;
  return { bindings };
}
