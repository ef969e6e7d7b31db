/**
 * Boxes and previews for any LSP client (SPEC B5): each `sanoma/boxes/*` request goes to the
 * `BoxService`; its events and state changes go out as notifications. A refused box name answers
 * a JSON-RPC error whose message is the spec's sentence. The `sanoma.preview` command (the code
 * lens's) runs a preview for clients that execute commands through the server.
 */
import * as path from "node:path";
import { ErrorCodes, ResponseError, type Connection, type InitializeParams } from "vscode-languageserver/node";
import {
  BoxesApplyRequest, BoxesChangedNotification, BoxesDiffRequest, BoxesDiscardRequest, BoxesEventNotification, BoxesEventsRequest,
  BoxesExposeRequest, BoxesListRequest, BoxesOpenRequest, BoxesPreviewRequest, BoxesRunRequest, BoxesRunsRequest, BoxesStopRequest,
  type BoxesPreviewParams,
} from "../../protocol.ts";
import { BoxService } from "../../boxes/service.ts";
import type { Session } from "../session.ts";
import { toPath } from "../convert.ts";

export interface Boxes {
  service: BoxService;
  /** Runs the preview of `{ uri, export }` (the code lens's arguments). */
  preview(args: { uri: string; export: string }): Promise<unknown>;
  dispose(): Promise<void>;
}

export function attachBoxes(connection: Connection, session: Session, params: InitializeParams): Boxes {
  const opts = (params.initializationOptions ?? {}) as { boxesDir?: unknown };
  const service = new BoxService({ boxesDir: typeof opts.boxesDir === "string" && path.isAbsolute(opts.boxesDir) ? opts.boxesDir : undefined });
  service.onEvent((e) => void connection.sendNotification(BoxesEventNotification, e).catch(() => undefined));
  service.onChanged((e) => void connection.sendNotification(BoxesChangedNotification, e).catch(() => undefined));

  /** Box errors the user can act on (a refused name, a missing box) reach the client as errors, with their words. */
  const handle = <P, R>(method: string, run: (p: P) => Promise<R>) =>
    connection.onRequest(method, async (p: P) => {
      try {
        return await run(p);
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

  handle(BoxesListRequest, () => service.list());
  handle(BoxesOpenRequest, (p: Parameters<BoxService["open"]>[0]) => service.open(p));
  handle(BoxesRunRequest, (p: Parameters<BoxService["run"]>[0]) => service.run(p));
  handle(BoxesStopRequest, (p: Parameters<BoxService["stop"]>[0]) => service.stop(p));
  handle(BoxesDiscardRequest, (p: Parameters<BoxService["discard"]>[0]) => service.discard(p));
  handle(BoxesEventsRequest, (p: Parameters<BoxService["events"]>[0]) => service.events(p));
  handle(BoxesRunsRequest, (p: Parameters<BoxService["runs"]>[0]) => service.runs(p ?? {}));
  handle(BoxesDiffRequest, (p: Parameters<BoxService["diff"]>[0]) => service.diff(p));
  handle(BoxesApplyRequest, async (p: Parameters<BoxService["apply"]>[0]) => {
    const result = await service.apply(p);
    // Applied files changed on disk: re-read them now rather than wait for a watcher.
    const diff = await service.diff({ name: p.name }).catch(() => undefined);
    const root = diff?.root;
    if (root) for (const rel of result.applied) session.diskChanged(path.join(root, rel), "changed");
    return result;
  });
  handle(BoxesExposeRequest, (p: Parameters<BoxService["expose"]>[0]) => service.expose(p));
  handle(BoxesPreviewRequest, (p: BoxesPreviewParams) => { configureFor(p.root); return service.preview(p); });

  return {
    service,
    async preview(args) {
      const file = toPath(args.uri);
      const company = file ? session.ws.companyOf(file) : undefined;
      if (!file || !company) throw new ResponseError(ErrorCodes.InvalidParams, `${args.uri} is in no Sanoma company`);
      configureFor(company.root);
      return service.preview({ root: company.root, file, export: args.export });
    },
    dispose: () => service.dispose(),
  };
}
