/**
 * Long computations of the core (a company's first analysis and check, the walks of a tree) are generators that yield
 * every so often, so a caller with an event loop to keep (the server) can run them in time slices.
 * Callers without one run them through at once.
 */

/** Work units (files) between two yields: small enough that a slice never runs long (a step of 64 files is a few ms). */
export const STEP = 64;

/** Folders a walk reads between two yields. */
export const WALK_STEP = 16;

export type Steps<T> = Generator<void, T, void>;

/** Runs the steps through and returns the result. */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Elements `sortSteps` sorts or merges between two yields: a few milliseconds. */
const SORT_RUN = 4096;

/**
 * `list` sorted (stably, as `Array.prototype.sort` sorts), in steps: runs of `SORT_RUN` sorted
 * natively, then merged pairwise a run's length a step. Half a million problems take some
 * 150 ms to sort in one go; so, no step is long. The list itself is left as it was.
 */
export function* sortSteps<T>(list: readonly T[], compare: (a: T, b: T) => number): Steps<T[]> {
  let from: T[] = [];
  for (let i = 0; i < list.length; i += SORT_RUN) {
    const run = list.slice(i, i + SORT_RUN).sort(compare);
    for (const x of run) from.push(x);
    yield;
  }
  let to: T[] = from.slice(); // (overwritten by each merge pass)
  let done = 0;
  for (let width = SORT_RUN; width < list.length; width *= 2) {
    for (let lo = 0; lo < list.length; lo += 2 * width) {
      const mid = Math.min(lo + width, list.length), hi = Math.min(lo + 2 * width, list.length);
      let a = lo, b = mid, k = lo;
      // (Ties take the left run's first: stable.)
      while (a < mid && b < hi) {
        to[k++] = compare(from[b], from[a]) < 0 ? from[b++] : from[a++];
        if (++done % SORT_RUN === 0) yield;
      }
      while (a < mid) to[k++] = from[a++];
      while (b < hi) to[k++] = from[b++];
    }
    [from, to] = [to, from];
    yield;
  }
  return from;
}
