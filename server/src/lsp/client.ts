/**
 * What the server tells its client, behind one interface: the session's logic calls it and knows
 * no connection, so tests run that logic in-process with a client that records (and the built
 * server is driven over stdio by the black-box tests). `connectionClient` is the real one.
 */
import { MessageType, ShowMessageNotification, type Connection, type Diagnostic } from "vscode-languageserver/node";
import { StatusChangedNotification, type StatusResult } from "../protocol.ts";

/** What `answeredWithin` gives for a request the client did not answer in time. */
export const NOT_ANSWERED = Symbol("not answered");

/**
 * A client's answer to a request of the server's, waited for `ms` at most (`NOT_ANSWERED` then): a
 * client that never answers must hold nothing up for ever. The answer itself still comes, if it
 * does, through `answer`.
 */
export function answeredWithin<T>(answer: Promise<T>, ms: number): Promise<T | typeof NOT_ANSWERED> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof NOT_ANSWERED>((resolve) => { timer = setTimeout(() => resolve(NOT_ANSWERED), ms); timer.unref?.(); });
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
}

/** A progress report the client shows (`window/workDoneProgress`). */
export interface Progress {
  report(percentage: number, message: string): void;
  done(): void;
}

export interface Client {
  /** `textDocument/publishDiagnostics`. */
  publishDiagnostics(uri: string, diagnostics: Diagnostic[]): void;
  /** `sanoma/statusChanged`. */
  status(status: StatusResult): void;
  /** `window/showMessage`, a warning. */
  warn(message: string): void;
  /** The `sanoma` section of `workspace/configuration` for a scope, for a client that answers it. */
  configuration(scopeUri: string | undefined): Promise<unknown>;
  /** A progress report begun with `title` and `message`, or undefined where the client shows none. */
  progress(title: string, message: string): Promise<Progress | undefined>;
}

/** How long a `window/workDoneProgress/create` is waited for before indexing goes on without progress. */
export const PROGRESS_WAIT_MS = 2_000;

/** The client at the other end of an LSP connection. Nothing sent fails the sender: a client gone is a client gone. */
export function connectionClient(connection: Connection, workDoneProgress: boolean): Client {
  return {
    publishDiagnostics: (uri, diagnostics) => void connection.sendDiagnostics({ uri, diagnostics }).catch(() => undefined),
    status: (status) => void connection.sendNotification(StatusChangedNotification, status).catch(() => undefined),
    warn: (message) => void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message }).catch(() => undefined),
    configuration: (scopeUri) => connection.workspace.getConfiguration({ scopeUri, section: "sanoma" }),
    async progress(title, message) {
      if (!workDoneProgress) return undefined;
      try {
        // (Waited for `PROGRESS_WAIT_MS` at most: a client that never answers the create left
        // indexing waiting for ever. Answered later, its token is ended at once.)
        const created = connection.window.createWorkDoneProgress();
        const p = await answeredWithin(created, PROGRESS_WAIT_MS);
        if (p === NOT_ANSWERED) { void created.then((late) => late.done(), () => undefined); return undefined; }
        p.begin(title, 0, message, false);
        return { report: (percentage, m) => p.report(percentage, m), done: () => p.done() };
      } catch {
        return undefined;
      }
    },
  };
}
