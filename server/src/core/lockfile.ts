/**
 * `sanoma.lock.json` (SPEC A6) → its bindings with the ranges of their keys and values, or the one
 * problem that keeps it from being read (not JSON, not of the lockfile's shape, an unknown version).
 * A binding of another shape does not keep the others from being read: it is a problem of its own.
 */
import ts from "typescript";
import { z } from "zod";
import { LineMap } from "./text.ts";
import type { Range } from "./types.ts";

export const LOCK_VERSION = 1;

const BindingSchema = z.object({ type: z.string(), object: z.string() }).passthrough();
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
  /** Keys written twice (a merge gone wrong): each later copy. The bindings are what JSON.parse keeps, the last. */
  duplicates?: { key: string; message: string; range: Range; first: Range }[];
  /** Bindings not of a binding's shape, at the offending place each; they are not among `bindings`. */
  malformed?: { key: string; message: string; range: Range }[];
}

export function readLock(text: string): LockFacts {
  const lines = new LineMap(text);
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
    const bindings: Record<string, z.infer<typeof BindingSchema>> = {};
    malformed = [];
    for (const [key, b] of Object.entries(file.data.bindings)) {
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
  // A lockfile written by apply is found by a plain scan; anything unusual takes the syntax tree.
  const fast = malformed ? undefined : locateBindings(text, data.bindings, lines);
  if (fast) return { bindings: fast };
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
      const b = data.bindings[key];
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
    if (typeof (b as { type?: unknown }).type !== "string" || typeof (b as { object?: unknown }).object !== "string") return false;
  }
  return true;
}

/**
 * The bindings' positions by scanning the text in the order JSON.parse read them, each value
 * checked against what JSON.parse read, one right after the other; undefined as soon as anything
 * does not match (odd escapes, a key written twice, keys JSON.parse reorders, an entry passed
 * over), and the caller then asks the syntax tree.
 * A lockfile of thousands of bindings is read on every edit of it: this keeps that cheap.
 */
function locateBindings(text: string, bindings: Record<string, { type: string; object: string }>, lines: LineMap): LockBinding[] | undefined {
  const keys = Object.keys(bindings);
  if (keys.some((k) => /^(0|[1-9]\d*)$/.test(k))) return undefined; // integer-like keys come first in JSON.parse's order
  const name = text.indexOf('"bindings"');
  // A second "bindings" (an extra field holding a copy of them) could be the one found first.
  if (name < 0 || text.indexOf('"bindings"', name + 1) >= 0) return undefined;
  const out: LockBinding[] = [];
  const skipSpace = (i: number) => { while (i < text.length && /\s/.test(text[i])) i++; return i; };
  /** The string literal starting at `i` (a quote): its end (after the closing quote), or -1. */
  const stringEnd = (i: number) => {
    if (text[i] !== '"') return -1;
    for (let j = i + 1; j < text.length; j++) { if (text[j] === "\\") j++; else if (text[j] === '"') return j + 1; }
    return -1;
  };
  // Each key must stand right where the previous binding ends (after `{`, then after `,`), and the
  // object end after the last: so no entry is passed over (a key written twice, in particular).
  const nameColon = skipSpace(name + '"bindings"'.length);
  if (text[nameColon] !== ":") return undefined;
  const brace = skipSpace(nameColon + 1);
  if (text[brace] !== "{") return undefined;
  let expected = brace + 1;
  for (const key of keys) {
    const quoted = JSON.stringify(key);
    const at = skipSpace(expected);
    if (!text.startsWith(quoted, at)) return undefined;
    const colon = skipSpace(at + quoted.length);
    if (text[colon] !== ":") return undefined;
    const open = skipSpace(colon + 1);
    if (text[open] !== "{") return undefined;
    const close = text.indexOf("}", open);
    if (close < 0) return undefined;
    const field = (name: string, want: string): { start: number; end: number } | undefined => {
      const f = text.indexOf(JSON.stringify(name), open);
      if (f < 0 || f > close) return undefined;
      const c = skipSpace(f + name.length + 2);
      if (text[c] !== ":") return undefined;
      const start = skipSpace(c + 1);
      const end = stringEnd(start);
      if (end < 0 || end > close) return undefined;
      try { return JSON.parse(text.slice(start, end)) === want ? { start, end } : undefined; } catch { return undefined; }
    };
    const b = bindings[key];
    const t = field("type", b.type), o = field("object", b.object);
    if (!t || !o) return undefined;
    out.push({ key, keyRange: lines.range(at, at + quoted.length), type: b.type, typeRange: lines.range(t.start, t.end), object: b.object, objectRange: lines.range(o.start, o.end) });
    const comma = skipSpace(close + 1);
    expected = text[comma] === "," ? comma + 1 : comma;
  }
  return text[skipSpace(expected)] === "}" ? out : undefined;
}
