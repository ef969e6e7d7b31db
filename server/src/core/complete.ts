/**
 * Operation ids offered inside a string being written (A8), for every surface that completes
 * them (the language server, the TypeScript plugin): which string counts as an op id being
 * written, which ids a file's scope sees, and what an item replaces.
 */
import { BATCH_OPS, COLLECTION_OPS, visibleCollections, type Analysis } from "./analysis.ts";
import type { StringAtCursor } from "./cursor.ts";

export interface OpIdItem {
  /** `data.<collection>.<op>`. */
  id: string;
  /** The collection's scope and key, and whether the op is a batch. */
  detail: string;
}

/**
 * Whether a string whose content before the cursor is `typed` is an op id being written: `typed`
 * is a prefix of `data.` of at least one character (`"d`, `"dat`) or starts with `data.`. An empty
 * string is not: `"` is a trigger character, and a quote opens every string (`ctx.log("`, a
 * desired object's `label: "`), so the op ids come once the first letter of `data.` is typed.
 */
export function isOpIdStart(typed: string): boolean {
  return (typed.length > 0 && "data.".startsWith(typed)) || typed.startsWith("data.");
}

/**
 * The op ids to offer in the string `s` of `text` with the cursor at `offset`, for a file of
 * `scope`, and the offsets an item replaces: the string's whole content up to its closing quote
 * on the cursor's line (or, unterminated, the rest of the word at the cursor), so that accepting
 * `data.orders.list` in `"data.orders.|get"` gives `"data.orders.list"`. Undefined when the string
 * is no op id being written: a module specifier, a template with substitutions, a string
 * continued from an earlier line (no one types an op id that way, and an edit's range must stay
 * on the cursor's line).
 */
export function opIdsAt(a: Analysis, scope: string | null, s: StringAtCursor, text: string, offset: number): { items: OpIdItem[]; start: number; end: number } | undefined {
  if (s.module || s.template) return undefined;
  const typed = text.slice(s.start, offset);
  if (hasLineBreak(typed) || !isOpIdStart(typed)) return undefined;
  const end = s.terminated && !hasLineBreak(text.slice(offset, s.end)) ? s.end : offset + /^[\w$.@/-]*/.exec(text.slice(offset, s.end))![0].length;
  const items: OpIdItem[] = [];
  for (const [name, list] of visibleCollections(a, scope)) {
    const c = list[0];
    for (const op of COLLECTION_OPS) {
      items.push({ id: `data.${name}.${op}`, detail: `${c.scope === null ? "root scope" : `app ${c.scope}`}: key ${c.fact.key?.value ?? "?"}${BATCH_OPS.has(op) ? " · a batch" : ""}` });
    }
  }
  return { items, start: s.start, end };
}

/** A line break as editors count lines (LSP's: `\n`, `\r\n`, `\r`). */
function hasLineBreak(s: string): boolean {
  return s.includes("\n") || s.includes("\r");
}
