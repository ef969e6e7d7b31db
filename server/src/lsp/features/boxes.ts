/**
 * Boxes and previews for any LSP client (SPEC B5): each `sanoma/boxes/*` request goes to the
 * `BoxService`; its events and state changes go out as notifications. A refused box name answers
 * a JSON-RPC error whose message is the spec's sentence. The `sanoma.preview` command (the code
 * lens's) runs a preview for clients that execute commands through the server.
 */
import * as path from "node:path";
import { ErrorCodes, LSPErrorCodes, ResponseError, type CancellationToken, type Connection, type InitializeParams } from "vscode-languageserver/node";
import {
  BoxesApplyRequest, BoxesChangedNotification, BoxesEventNotification, BoxesPreviewRequest, BoxesRunRequest, type BoxesApplyParams, type BoxesPreviewParams, type BoxesRunParams,
} from "../../protocol.ts";
import { BoxService, boxRequestHandlers } from "../../boxes/service.ts";
import type { Session } from "../session.ts";

export interface Boxes {
  service: BoxService;
  /** Runs the preview of `{ uri, export }` (the code lens's arguments). */
  preview(args: { uri: string; export: string }): Promise<unknown>;
  dispose(): Promise<void>;
}

export function attachBoxes(connection: Connection, session: Session, params: InitializeParams): Boxes {
  const opts = (params.initializationOptions ?? {}) as { boxesDir?: unknown };
  const service = new BoxService({ boxesDir: typeof opts.boxesDir === "string" && path.isAbsolute(opts.boxesDir) ? opts.boxesDir : undefined });
  if (service.unavailable) session.options.log(service.unavailable);
  service.onEvent((e) => void connection.sendNotification(BoxesEventNotification, e).catch(() => undefined));
  service.onChanged((e) => void connection.sendNotification(BoxesChangedNotification, e).catch(() => undefined));

  /** Box errors the user can act on (a refused name, a missing box) reach the client as errors, with their words. */
  const handle = <P, R>(method: string, run: (p: P, token: CancellationToken) => Promise<R>) =>
    connection.onRequest(method, async (p: P, token: CancellationToken) => {
      try {
        return await run(p, token);
      } catch (e) {
        if (e instanceof ResponseError) throw e;
        session.options.log(`${method} failed: ${(e as Error).stack ?? e}`);
        throw new ResponseError(ErrorCodes.InvalidParams, (e as Error).message);
      }
    });

  /** Settings of the company a preview is in: its command and the isolation tier. */
  const configureFor = (root: string) => {
    const s = session.settingsOf(root);
    service.configure({ tier: s.boxes.isolation, previewCommand: s.preview.command });
  };

  // The tier and preview command follow the settings of the company pulled last (a preview applies its own company's).
  session.settingsListeners.push((_root, s) => service.configure({ tier: s.boxes.isolation, previewCommand: s.preview.command }));

  // Every request goes straight to the service, but for two that touch a company: a preview takes
  // its company's settings, and applying files back re-reads them at once rather than wait for a watcher.
  for (const [method, run] of boxRequestHandlers(service)) {
    if (method === BoxesPreviewRequest) handle(method, (p: BoxesPreviewParams) => { configureFor(p.root); return service.preview(p); });
    // A waited run the client cancels ($/cancelRequest) is stopped, and answers RequestCancelled.
    else if (method === BoxesRunRequest) handle(method, async (p: BoxesRunParams, token) => {
      const abort = new AbortController();
      const listening = token.onCancellationRequested(() => abort.abort());
      try {
        const result = await service.run(p, abort.signal);
        if (abort.signal.aborted && p.wait) throw new ResponseError(LSPErrorCodes.RequestCancelled, `the run ${result.runId} was stopped: its request was cancelled`);
        return result;
      } finally { listening.dispose(); }
    });
    else if (method === BoxesApplyRequest) handle(method, async (p: BoxesApplyParams) => {
      const result = await service.apply(p);
      const root = (await service.diff({ name: p.name }).catch(() => undefined))?.root;
      if (root) for (const rel of result.applied) session.diskChanged(path.join(root, rel), "changed");
      return result;
    });
    else handle(method, run as (p: unknown) => Promise<unknown>);
  }

  return {
    service,
    async preview(args) {
      const file = session.filePath(args.uri);
      const company = file ? session.ws.companyOf(file) : undefined;
      if (!file || !company) throw new ResponseError(ErrorCodes.InvalidParams, `${args.uri} is in no Sanoma company`);
      configureFor(company.root);
      return service.preview({ root: company.root, file, export: args.export });
    },
    dispose: () => service.dispose(),
  };
}
