/** The runs of several boxes, as `sanoma/boxes/runs` lists them: newest first, in a time window. */
import type { BoxRunInfo } from "../protocol.ts";

/** Runs of several boxes, newest first, started within [since, until], at most `limit`. */
export function selectRuns(runs: BoxRunInfo[], window: { since?: number; until?: number; limit?: number }): { runs: BoxRunInfo[]; truncated: boolean } {
  // (A client's `since: "x"` selected nothing, silently.)
  for (const key of ["since", "until", "limit"] as const) {
    if (window[key] !== undefined && typeof window[key] !== "number") throw new TypeError(`${key} must be a number${key === "limit" ? "" : " (milliseconds since the epoch)"}`);
  }
  const since = window.since ?? -Infinity;
  const until = window.until ?? Infinity;
  const limit = Math.max(0, window.limit ?? 50);
  const inWindow = runs
    .filter((r) => r.startedAt >= since && r.startedAt <= until)
    .sort((a, b) => b.startedAt - a.startedAt || compareRunIds(b.runId, a.runId));
  return { runs: inWindow.slice(0, limit), truncated: inWindow.length > limit };
}

/** Run ids are `run-<seq>`: later runs of one box have larger numbers. */
function compareRunIds(a: string, b: string): number {
  const na = Number(a.replace(/^\D+/, ""));
  const nb = Number(b.replace(/^\D+/, ""));
  return Number.isFinite(na) && Number.isFinite(nb) && na !== nb ? na - nb : a.localeCompare(b);
}
