/**
 * Which fixes are certain, and applying them to text: the one decision behind the editor's
 * preferred quick fix (`isPreferred`, which "Fix all" and fix-on-save apply without asking) and
 * `sanoma-check --fix`, so the command applies exactly what the editor would.
 *
 * A fix is certain when its rule marked it `preferred` and it is the only such fix of its
 * problem: two preferred fixes of one problem would leave the choice to the user, so neither is.
 * Applying is pure: edits of one file are applied from the end back, and a fix whose edits overlap
 * a fix already taken is left for a later run (the problem stays, and is reported as left).
 */
import { LineMap } from "./text.ts";
import type { Fix, Problem, Range, TextEdit } from "./types.ts";

/** Whether `fix` is its problem's certain fix: the editor marks it preferred, `--fix` applies it. */
export function isCertainFix(problem: Problem, fix: Fix): boolean {
  if (fix.preferred !== true || fix.edits.length === 0) return false;
  let preferred = 0;
  for (const f of problem.fixes ?? []) if (f.preferred === true) preferred++;
  return preferred === 1 && (problem.fixes ?? []).includes(fix);
}

/** A problem's certain fix, if it has one. */
export function certainFix(problem: Problem): Fix | undefined {
  return problem.fixes?.find((f) => isCertainFix(problem, f));
}

export interface FixPlan {
  /** The fixes taken, each with its problem. */
  taken: { problem: Problem; fix: Fix }[];
  /** Certain fixes left out because their edits overlap one taken before (applied by a next run). */
  overlapping: { problem: Problem; fix: Fix }[];
  /** The edits to make, per file, sorted by position and never overlapping. */
  edits: Map<string, TextEdit[]>;
}

/**
 * The certain fixes of a list of problems, without overlaps: taken in the problems' order, a fix
 * whose edits touch a range an earlier fix edits (in any of its files) is left out whole.
 */
export function planFixes(problems: readonly Problem[]): FixPlan {
  const plan: FixPlan = { taken: [], overlapping: [], edits: new Map() };
  for (const problem of problems) {
    const fix = certainFix(problem);
    if (!fix) continue;
    // The same edit twice (two problems fixed by one change) is made once.
    const fresh = fix.edits.filter((e) => !(plan.edits.get(e.file) ?? []).some((t) => sameEdit(t, e)));
    const clash = fresh.some((e) => (plan.edits.get(e.file) ?? []).some((t) => overlaps(t.range, e.range)))
      || fresh.some((e, i) => fresh.some((o, j) => j < i && o.file === e.file && overlaps(o.range, e.range)));
    if (clash) { plan.overlapping.push({ problem, fix }); continue; }
    for (const e of fresh) {
      let list = plan.edits.get(e.file);
      if (!list) plan.edits.set(e.file, (list = []));
      list.push(e);
    }
    plan.taken.push({ problem, fix });
  }
  for (const list of plan.edits.values()) list.sort((a, b) => compare(a.range.start, b.range.start) || compare(a.range.end, b.range.end));
  return plan;
}

/** A text with edits made (positions as LSP counts them: zero-based lines, UTF-16 characters). */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const lines = new LineMap(text);
  const spans = edits.map((e) => ({ start: lines.offset(e.range.start), end: lines.offset(e.range.end), newText: e.newText }));
  spans.sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  for (const s of spans) out = out.slice(0, s.start) + s.newText + out.slice(s.end);
  return out;
}

function compare(a: Range["start"], b: Range["start"]): number {
  return a.line - b.line || a.character - b.character;
}

/** Whether two ranges share more than a point (an insertion at the other's edge shares a point only). */
function overlaps(a: Range, b: Range): boolean {
  if (compare(a.start, a.end) === 0 || compare(b.start, b.end) === 0) return compare(a.start, b.end) < 0 && compare(b.start, a.end) < 0 || (compare(a.start, b.start) === 0 && compare(a.end, b.end) === 0);
  return compare(a.start, b.end) < 0 && compare(b.start, a.end) < 0;
}

function sameEdit(a: TextEdit, b: TextEdit): boolean {
  return a.file === b.file && a.newText === b.newText && compare(a.range.start, b.range.start) === 0 && compare(a.range.end, b.range.end) === 0;
}
