/**
 * Time slices: how the server runs long work (indexing, a check, reading workflows) without keeping a
 * request waiting. The core's long computations are generators (`core/steps.ts`); they run here
 * in batches of `BATCH_MS`, the event loop free between two.
 */
import type { Steps } from "../core/steps.ts";

/**
 * How long one batch of work (indexing, a check's slice) may hold the event loop before yielding.
 * A request that arrives meanwhile waits up to about three batches: the rest of the running one,
 * the next (queued before the request's handler), and one more before vscode-jsonrpc writes the
 * answer (its writer queues the write with `setImmediate`). 10 ms keeps that well under 100 ms.
 */
export const BATCH_MS = 10;

/** Lets the requests and notifications already received run. */
export function yieldToRequests(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * How many times `yieldToWaitingRequests` yields: vscode-jsonrpc handles one received message a
 * tick (and writes an answer in another), so one yield let one waiting request through, and the
 * next waited for the next piece of work, however long.
 */
const TICKS_FOR_WAITING_REQUESTS = 16;

/**
 * Lets every request already received run (up to about eight), not the first alone: before and
 * after a piece of work that cannot be cut and may hold the event loop long (a big file's parse, a
 * second). Idle, the ticks cost microseconds.
 */
export async function yieldToWaitingRequests(): Promise<void> {
  for (let i = 0; i < TICKS_FOR_WAITING_REQUESTS; i++) await yieldToRequests();
}

/** Runs the core's steps in batches of `BATCH_MS`, yielding to requests between them. */
export async function inSlices<T>(steps: Steps<T>): Promise<T> {
  let t = performance.now();
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (performance.now() - t > BATCH_MS) { await yieldToRequests(); t = performance.now(); }
  }
}
