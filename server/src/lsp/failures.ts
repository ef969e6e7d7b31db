/**
 * A company whose check, or whose reading (indexing, a change on disk, an edit), failed: a fault of
 * ours, logged with its stack, and said where every LSP client shows it. Its config gets a note
 * (one Error diagnostic, code `check-failed`), and the status names it (`failed`), until the
 * company's next check publishes: its problems shown until then may be out of date. They are kept,
 * not cleared (docs/settings.md, "A check that fails", says why).
 */
import * as path from "node:path";
import { DiagnosticSeverity, type Diagnostic } from "vscode-languageserver/node";
import { CONFIG_FILE } from "../core/company.ts";
import { SANOMARC_DOCS_URL } from "../core/sanomarc.ts";
import type { StatusFailure } from "../protocol.ts";
import type { Publisher } from "./publisher.ts";

/** The URL of the docs' section on a check that fails. */
export const CHECK_FAILED_DOCS_URL = `${SANOMARC_DOCS_URL}#a-check-that-fails`;

/** What failed: the check itself, or what reads a company's files in (after which the company is read again whole). */
export type FailedStep = "check" | "indexing" | "change";

interface Failure extends StatusFailure {
  step: FailedStep;
  /** Its indexing failed and it has not been read again since (`takeReadAgain`). */
  readAgain: boolean;
}

export class Failures {
  private readonly byRoot = new Map<string, Failure>();

  constructor(
    private readonly publisher: Publisher,
    /** Told when the companies failed change (the status). */
    private readonly changed: () => void,
  ) {}

  /** The company at `root` (named `name`) failed at `step` (`what` says it in a few words): noted on its config, and in the status. */
  failed(company: { root: string; name: string }, step: FailedStep, what: string, error: unknown): void {
    const message = errorMessage(error);
    const failure: Failure = { root: company.root, name: company.name, step, message: `${what} failed: ${message}`, readAgain: step === "indexing" };
    this.byRoot.set(company.root, failure);
    this.publisher.note(path.join(company.root, CONFIG_FILE), "failed", checkFailedDiagnostic(company.name, failure));
    this.changed();
  }

  /** Whether the company's indexing failed and it is to be read again (at the next change to it): true once, then false until it fails again. */
  takeReadAgain(root: string): boolean {
    const failure = this.byRoot.get(root);
    if (!failure?.readAgain) return false;
    failure.readAgain = false;
    return true;
  }

  /** The company's check published (or the company is gone): its note goes. */
  clear(root: string): void {
    if (!this.byRoot.delete(root)) return;
    this.publisher.note(path.join(root, CONFIG_FILE), "failed", undefined);
    this.changed();
  }

  /** The companies failed, for the status. */
  list(): StatusFailure[] {
    return [...this.byRoot.values()].map(({ root, name, message }) => ({ root, name, message }));
  }
}

/** An error's first line (the stack goes to the log). */
function errorMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split("\n", 1)[0] || "(no message)";
}

/**
 * The note on a company's config when its check or its reading failed: one Error diagnostic at
 * the file's start, as the `left-out` note is built (settings.ts), so that every LSP client shows
 * it (Neovim's `vim.diagnostic` too, which hears no custom notification), and the Problems list
 * has it beside the company's problems.
 */
export function checkFailedDiagnostic(company: string, failure: Failure): Diagnostic {
  const at = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const shown = failure.step === "check" ? "may be out of date" : "may be out of date, or missing";
  const again = failure.step === "change" ? "It is being read again whole"
    : `It is ${failure.step === "indexing" ? "read" : "checked"} again at the next change to one of its files, or by "Sanoma: Check Workspace Now"`;
  const message = `Sanoma's ${failure.message}. The problems shown for ${company} ${shown}: they are from its last check that finished. ` +
    `The full stack is in the language server's log (VS Code: Output › Sanoma). ${again}; this is a fault of Sanoma's, please report it`;
  return { range: at, severity: DiagnosticSeverity.Error, source: "sanoma", code: "check-failed", codeDescription: { href: CHECK_FAILED_DOCS_URL }, message };
}
