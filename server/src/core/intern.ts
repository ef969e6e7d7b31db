/**
 * Strings that facts keep, held once each and on their own (issue 23). A name read from a file's
 * text (an import's specifier, an op id's collection, an export's name) is, in V8, a *slice* of
 * that text: a small object that keeps the whole text alive. Facts kept for every file of a big
 * company then keep every file's text, though nothing reads it again. `intern` gives back a copy
 * that stands alone, the same copy for the same text (a specifier or a collection name repeats
 * across thousands of files).
 *
 * The table is the one piece of module-level state in the core: it changes no answer, only which
 * copy of an equal string is kept. It forgets everything past `LIMIT` entries, so a repository of
 * ever-new names cannot grow it without end.
 */
const LIMIT = 200_000;
let table = new Map<string, string>();

/** The held copy of `s`: equal to it, and no slice of a bigger string. */
export function intern(s: string): string {
  const held = table.get(s);
  if (held !== undefined) return held;
  if (table.size >= LIMIT) table = new Map();
  // V8 makes a slice only of 13 characters or more; a longer one is copied out of its text.
  const own = s.length < 13 ? s : (JSON.parse(JSON.stringify(s)) as string);
  table.set(own, own);
  return own;
}

/**
 * Every string in a fact's value interned, in place: the values of objects and arrays, the keys
 * and values of maps (a map's entries set again in their order). Facts are trees of plain objects,
 * arrays and maps, a few levels deep.
 */
export function internAll<T>(value: T): T {
  internIn(value as unknown, 0);
  return value;
}

function internIn(value: unknown, depth: number): void {
  if (value === null || typeof value !== "object" || depth > 64 || Object.isFrozen(value)) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const v = value[i];
      if (typeof v === "string") value[i] = intern(v); else internIn(v, depth + 1);
    }
  } else if (value instanceof Map) {
    const entries = [...value];
    value.clear();
    for (const [k, v] of entries) {
      if (typeof v !== "string") internIn(v, depth + 1);
      value.set(typeof k === "string" ? intern(k) : k, typeof v === "string" ? intern(v) : v);
    }
  } else if (Object.getPrototypeOf(value) === Object.prototype) {
    const o = value as Record<string, unknown>;
    for (const k in o) {
      const v = o[k];
      if (typeof v === "string") o[k] = intern(v); else internIn(v, depth + 1);
    }
  }
}
