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
