/**
 * What the status bar item says, from the server's state, its last status and the active file's
 * company: the item's text, its warning (a failed server, a company whose check failed, a slow
 * check), the label screen readers and the end-to-end test read, and whether it shows at all. No
 * `vscode` here, so it is tested on its own (`test/client/status.test.ts`); `statusBar.ts` draws it.
 */
import type { CompanyOfResult, StatusResult } from "../../server/src/protocol.ts";
import type { ServerState } from "./server.ts";

/** A company-wide check slower than this turns the item into its warning state. */
export const slowCheckMs = 2_000;

export interface StatusView {
  text: string;
  /** Why the item is in its warning state, if it is. */
  warning?: string;
  label: string;
  /** Outside Sanoma projects (the extension activates on any TypeScript file) the item hides. */
  visible: boolean;
}

export function statusView(state: ServerState, status: StatusResult | undefined, company: CompanyOfResult | null): StatusView {
  const where = company ? scopeLabel(company) : "Sanoma";
  let text: string;
  let warning: string | undefined;
  if (state.kind === "failed" || state.kind === "restarting") {
    warning = state.reason;
    text = `$(warning) ${where}`;
  } else if (state.kind === "starting") {
    text = `$(sync~spin) ${where}`;
  } else if (status?.state === "indexing") {
    text = `$(sync~spin) ${where} · indexing ${status.indexedFiles}/${status.files}`;
  } else if (status?.failed?.length) {
    // (The active file's company first, if it is one of them: its problems are the ones looked at.)
    const failed = status.failed.find((f) => f.root === company?.root) ?? status.failed[0];
    const more = status.failed.length > 1 ? ` (and ${status.failed.length - 1} more ${status.failed.length === 2 ? "company" : "companies"})` : "";
    warning = `The ${failed.message}${more}: the problems shown for it may be out of date (the output has the stack)`;
    text = `$(warning) ${where}`;
  } else if (status?.lastCheckMs !== undefined && status.lastCheckMs > slowCheckMs) {
    warning = `The last check took ${formatMs(status.lastCheckMs)}, more than ${formatMs(slowCheckMs)}`;
    text = `$(warning) ${where}`;
  } else {
    text = `$(organization) ${where}`;
  }
  const phase = warning ? `warning: ${warning}` : state.kind === "starting" ? "starting" : status?.state === "indexing" ? "indexing" : "ready";
  const visible = company !== null || (status?.companies ?? 0) > 0 || warning !== undefined || state.kind === "starting";
  return { text, warning, label: `Sanoma: ${where}, ${phase}`, visible };
}

/** `acme › billing` for an app's file, `acme › root` for the root scope. */
export function scopeLabel(company: Pick<CompanyOfResult, "name" | "scope">): string {
  return `${company.name} › ${company.scope ?? "root"}`;
}

export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
