/**
 * `sanoma.lock.json` (SPEC A6) → its bindings with the ranges of their keys and values, or the one
 * problem that keeps it from being read (not JSON, not of the lockfile's shape, an unknown version).
 */
import ts from "typescript";
import { z } from "zod";
import { LineMap } from "./text.ts";
import type { Range } from "./types.ts";

export const LOCK_VERSION = 1;

const LockSchema = z.object({
  version: z.number(),
  bindings: z.record(z.string(), z.object({ type: z.string(), object: z.string() }).passthrough()),
}).passthrough();

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
    const at = m ? Math.min(+m[1] + (text.charCodeAt(0) === 0xfeff ? 1 : 0), text.length) : -1;
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
  const parsed = isLockShaped(value) ? { success: true as const, data: value } : LockSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    let node: ts.Node | undefined;
    for (let n = issue.path.length; n >= 0 && !node; n--) node = nodeAt(issue.path.slice(0, n) as (string | number)[]);
    const where = issue.path.length ? ` at \`${issue.path.join(".")}\`` : "";
    return { error: { message: `sanoma.lock.json is not a lockfile${where}: ${issue.message.toLowerCase()}; expected { "version": 1, "bindings": { "<file>#<export>": { "type", "object" } } }`, range: rangeOf(node) }, bindings: [] };
  }
  if (parsed.data.version !== LOCK_VERSION) {
    return { error: { message: `sanoma.lock.json has version ${parsed.data.version}, which this tool does not know (it reads version ${LOCK_VERSION}); update the Sanoma tooling`, range: rangeOf(nodeAt(["version"])) }, bindings: [] };
  }
  // A lockfile written by apply is found by a plain scan; anything unusual takes the syntax tree.
  const fast = locateBindings(text, parsed.data.bindings, lines);
  if (fast) return { bindings: fast };
  const bindingsNode = nodeAt(["bindings"]);
  const bindings: LockBinding[] = [];
  if (bindingsNode && ts.isObjectLiteralExpression(bindingsNode)) {
    // A key written twice (a merge gone wrong) binds one declaration twice: JSON.parse keeps the
    // last, and which one apply meant cannot be told, so the file is not read until one goes.
    const seen = new Map<string, ts.PropertyName>();
    for (const p of bindingsNode.properties) {
      if (!ts.isPropertyAssignment(p) || !p.name) continue;
      const key = (p.name as ts.StringLiteral).text;
      const first = seen.get(key);
      if (first) {
        const line = lines.range(first.getStart(jsonTree()!), first.end).start.line + 1;
        return { error: { message: `sanoma.lock.json binds ${key} twice (first on line ${line}); keep the binding apply wrote last and delete the other`, range: rangeOf(p.name) }, bindings: [] };
      }
      seen.set(key, p.name);
    }
    for (const p of bindingsNode.properties) {
      if (!ts.isPropertyAssignment(p) || !p.name) continue;
      const key = (p.name as ts.StringLiteral).text;
      const b = parsed.data.bindings[key];
      if (!b) continue;
      const v = p.initializer;
      const field = (name: string) => ts.isObjectLiteralExpression(v) ? v.properties.find((q) => q.name && (q.name as ts.StringLiteral).text === name) : undefined;
      const t = field("type"), o = field("object");
      bindings.push({
        key, keyRange: rangeOf(p.name), type: b.type, object: b.object,
        typeRange: rangeOf(t && ts.isPropertyAssignment(t) ? t.initializer : p.name),
        objectRange: rangeOf(o && ts.isPropertyAssignment(o) ? o.initializer : p.name),
      });
    }
  }
  return { bindings };
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
 * checked against what JSON.parse read; undefined as soon as anything does not match (odd
 * escapes, duplicate keys, keys JSON.parse reorders), and the caller then asks the syntax tree.
 * A lockfile of thousands of bindings is read on every edit of it: this keeps that cheap.
 */
function locateBindings(text: string, bindings: Record<string, { type: string; object: string }>, lines: LineMap): LockBinding[] | undefined {
  const keys = Object.keys(bindings);
  if (keys.some((k) => /^(0|[1-9]\d*)$/.test(k))) return undefined; // integer-like keys come first in JSON.parse's order
  let cursor = text.indexOf('"bindings"');
  // A second "bindings" (an extra field holding a copy of them) could be the one found first.
  if (cursor < 0 || text.indexOf('"bindings"', cursor + 1) >= 0) return undefined;
  const out: LockBinding[] = [];
  const skipSpace = (i: number) => { while (i < text.length && /\s/.test(text[i])) i++; return i; };
  /** The string literal starting at `i` (a quote): its end (after the closing quote), or -1. */
  const stringEnd = (i: number) => {
    if (text[i] !== '"') return -1;
    for (let j = i + 1; j < text.length; j++) { if (text[j] === "\\") j++; else if (text[j] === '"') return j + 1; }
    return -1;
  };
  for (const key of keys) {
    const quoted = JSON.stringify(key);
    const at = text.indexOf(quoted, cursor);
    if (at < 0) return undefined;
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
    cursor = close + 1;
  }
  return out;
}
