/**
 * Boxes and previews for any LSP client (SPEC B5): each `sanoma/boxes/*` request goes to the
 * `BoxService`; its events and state changes go out as notifications. A refused box name answers
 * a JSON-RPC error whose message is the spec's sentence. The `sanoma.preview` command (the code
 * lens's) runs a preview for clients that execute commands through the server.
 *
 * Nothing runs before the settings are read: every request waits for the first reading of the
 * workspace's `sanoma` settings (asked once the client said `initialized`), so a run sent at once
 * runs in the tier the settings name, never the default's. A preview reads its own company's.
 */
import * as path from "node:path";
import { ErrorCodes, LSPErrorCodes, ResponseError, type CancellationToken, type Connection, type InitializeParams } from "vscode-languageserver/node";
import { PREVIEW_COMMAND } from "./codelens.ts";
import {
  BoxesApplyRequest, BoxesChangedNotification, BoxesEventNotification, BoxesPreviewRequest, BoxesRunRequest, type BoxesApplyParams, type BoxesPreviewParams, type BoxesRunParams,
} from "../../protocol.ts";
import { BoxService, boxRequestHandlers } from "../../boxes/service.ts";
import { roleOf } from "../../core/company.ts";
import { readFacts } from "../../core/facts.ts";
import { nodeFileSystem } from "../../node/fs.ts";
import type { Session } from "../session.ts";
import type { Settings } from "../settings.ts";

export interface Boxes {
  service: BoxService;
  /** Runs the preview of `{ uri, export }` (the code lens's arguments). */
  preview(args: { uri: string; export: string }): Promise<unknown>;
  /** Reads the workspace's settings (at `initialized`, and when they change); boxes requests wait for the first reading. */
  readSettings(): Promise<void>;
  dispose(): Promise<void>;
}

/**
 * The exported workflows of a company's file as the code lenses offer them (read from disk, which
 * is what a preview copies), and its first syntax error, where and what, when it does not parse
 * (A11: Sanoma cannot load it); undefined when the file is no workflow source (SPEC A3).
 */
export function workflowExports(root: string, rel: string): { workflows: string[]; doesNotLoad?: string } | undefined {
  if (!roleOf(rel).isWorkflowSource) return undefined;
  const file = path.join(root, rel);
  const text = nodeFileSystem.readFile(file);
  if (text === undefined) return { workflows: [] };
  const facts = readFacts(file, text);
  const first = facts.firstSyntaxError;
  const doesNotLoad = facts.syntaxErrors > 0 ? (first ? `${first.message}, at line ${first.range.start.line + 1}` : "a syntax error") : undefined;
  return { workflows: facts.workflows.map((w) => w.name), ...(doesNotLoad !== undefined ? { doesNotLoad } : {}) };
}

/** What the box service takes of the settings. */
function boxSettings(s: Settings) {
  return {
    tier: s.boxes.isolation,
    previewCommand: s.preview.command,
    container: { image: s.boxes.image || undefined, memoryMiB: s.boxes.memory, processes: s.boxes.processes },
  };
}

export function attachBoxes(connection: Connection, session: Session, params: InitializeParams, shutDown: () => boolean): Boxes {
  const opts = (params.initializationOptions ?? {}) as { boxesDir?: unknown };
  const service = new BoxService({ boxesDir: typeof opts.boxesDir === "string" && path.isAbsolute(opts.boxesDir) ? opts.boxesDir : undefined, workflowsOf: workflowExports });
  let settingsRead!: () => void;
  const firstSettings = new Promise<void>((resolve) => (settingsRead = resolve));
  if (service.unavailable) session.options.log(service.unavailable);
  service.onEvent((e) => void connection.sendNotification(BoxesEventNotification, e).catch(() => undefined));
  service.onChanged((e) => void connection.sendNotification(BoxesChangedNotification, e).catch(() => undefined));

  /** Box errors the user can act on (a refused name, a missing box) reach the client as errors, with their words. */
  const handle = <P, R>(method: string, run: (p: P, token: CancellationToken) => Promise<R>) =>
    connection.onRequest(method, async (p: P, token: CancellationToken) => {
      if (shutDown()) throw new ResponseError(ErrorCodes.InvalidRequest, "the server is shutting down"); // (as LSP asks of every request after `shutdown`)
      try {
        await firstSettings;
        return await run(p, token);
      } catch (e) {
        if (e instanceof ResponseError) throw e;
        session.options.log(`${method} failed: ${(e as Error).stack ?? e}`);
        throw new ResponseError(ErrorCodes.InvalidParams, (e as Error).message);
      }
    });

  /** Settings of the company a preview is in, read now (its company may not be indexed yet): its command and the isolation tier. */
  const configureFor = async (root: string) => {
    const s = await session.fetchSettings(root);
    service.configure(boxSettings(s));
  };

  // Every request goes straight to the service, but for two that touch a company: a preview takes
  // its company's settings, and applying files back re-reads them at once rather than wait for a watcher.
  for (const [method, run] of boxRequestHandlers(service)) {
    if (method === BoxesPreviewRequest) handle(method, async (p: BoxesPreviewParams) => { if (typeof p?.root === "string") await configureFor(p.root); return service.preview(p); });
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
      for (const rel of result.applied) session.diskChanged(path.join(result.root, rel), "changed");
      return result;
    });
    else handle(method, run as (p: unknown) => Promise<unknown>);
  }

  return {
    service,
    // (Errors as the requests' are: a plain one would reach the client as a `null` that reads as done.)
    async preview(args) {
      if (typeof args?.uri !== "string" || typeof args.export !== "string") throw new ResponseError(ErrorCodes.InvalidParams, `${PREVIEW_COMMAND} takes one argument, { uri, export }: the code lens's`);
      await firstSettings;
      // (Once the companies being found are known: a lens clicked right after a start asked before.)
      const where = await session.locateIndexed(args.uri);
      if (!where) throw new ResponseError(ErrorCodes.InvalidParams, `${args.uri} is in no Sanoma company`);
      const { company, file } = where;
      try {
        await configureFor(company.root);
        return await service.preview({ root: company.root, file, export: args.export });
      } catch (e) {
        if (e instanceof ResponseError) throw e;
        // The lenses follow the editor's text; a preview copies the files as saved.
        const open = session.openText(file);
        const unsaved = open !== undefined && open !== session.ws.fs.readFile(file);
        throw new ResponseError(ErrorCodes.InvalidParams, `${(e as Error).message}${unsaved ? ` (a preview runs the files as saved, and ${path.basename(file)} has unsaved changes)` : ""}`);
      }
    },
    async readSettings() {
      // The tier is a machine setting (the same for every folder); the first folder's answer is it.
      try {
        service.configure(boxSettings(await session.fetchSettings(session.options.folders[0])));
      } finally {
        settingsRead();
      }
    },
    dispose: () => service.dispose(),
  };
}
