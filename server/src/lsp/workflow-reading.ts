/**
 * The workflows a symbol search lists. Most workflow sources are indexed from their text alone,
 * and their workflows need a syntax tree; the parse that judges whether such a file parses (A11,
 * asked of every workflow source while indexing and by each check) reads them too, and keeps them
 * (`WorkspaceOptions.listsWorkflows`). What is left (a file edited since its last check) is read
 * here before a search answers, in slices, and logged with its count.
 */
import type { Workspace } from "../core/workspace.ts";
import { BATCH_MS, yieldToRequests } from "./slices.ts";

/** Reads the workflows of every company's workflow sources not read yet, in slices of `BATCH_MS`; logs how many it read. */
export async function readPendingWorkflows(ws: Workspace, why: string, log: (message: string) => void): Promise<void> {
  const started = performance.now();
  let read = 0;
  let t = performance.now();
  for (const root of ws.companies.keys()) {
    for (const _ of ws.readUnreadWorkflows(root)) {
      read++;
      if (performance.now() - t > BATCH_MS) { await yieldToRequests(); t = performance.now(); }
    }
  }
  if (read > 0) log(`read the workflows of ${read} file${read === 1 ? "" : "s"} ${why} in ${Math.round(performance.now() - started)} ms`);
}
