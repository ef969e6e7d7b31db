/**
 * The Sanoma language server's entry point: it only connects LSP methods to handlers in
 * `features/`. Runs over stdio (`--stdio`) or node IPC (`--node-ipc`), as vscode-languageserver
 * picks from the command line. Every handler goes through `guard`: one that throws logs, answers
 * an empty result, and the server keeps running.
 */
import * as path from "node:path";
import { existsSync } from "node:fs";
import { isMainThread, parentPort, resourceLimits, workerData } from "node:worker_threads";
import { pathToFileURL } from "node:url";
import {
  createConnection, DidChangeWatchedFilesNotification, StreamMessageReader, StreamMessageWriter, ErrorCodes, FileChangeType, MessageType, ProposedFeatures, ResponseError, ShowMessageNotification, TextDocuments,
  TextDocumentSyncKind, WatchKind, type InitializeParams, type InitializeResult,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { ruleDocsUrl } from "../core/rules/index.ts";
import { readFacts } from "../core/facts.ts";
import { CompaniesRequest, CompanyOfRequest, StatusRequest } from "../protocol.ts";
import { Session } from "./session.ts";
import { answeredWithin, connectionClient, NOT_ANSWERED } from "./client.ts";
import { nodeFileSystem } from "../node/fs.ts";
import { fdWritable } from "../node/fd-output.ts";
import { toPath } from "./convert.ts";
import { FolderWatcher } from "../node/folder-watcher.ts";
import { SettingsAboveWatcher } from "../node/settings-above-watcher.ts";
import { isWithin } from "../core/model.ts";
import { FrameGuard } from "./frames.ts";
import { FAILPOINT_NAMES, Failpoints, FAILPOINTS_ENV } from "../node/failpoints.ts";
import { hover } from "./features/hover.ts";
import { definition } from "./features/definition.ts";
import { references } from "./features/references.ts";
import { prepareRename, rename } from "./features/rename.ts";
import { completion } from "./features/completion.ts";
import { codeActions } from "./features/codeactions.ts";
import { documentSymbols, workspaceSymbols } from "./features/symbols.ts";
import { codeLenses, PREVIEW_COMMAND } from "./features/codelens.ts";
import { companies, companyOf } from "./features/companies.ts";
import { attachBoxes, type Boxes } from "./features/boxes.ts";

if (process.argv.includes("--version")) { console.log("sanoma-language-server 0.1.0"); process.exit(0); }
if (!process.argv.some((a) => a === "--stdio" || a === "--node-ipc" || a.startsWith("--socket") || a.startsWith("--pipe"))) process.argv.push("--stdio");

/**
 * In the worker thread the package's command runs the server in over stdio (`server/bin/thread.js`):
 * its stdin is the process's, passed on by the thread that started it; its messages are written
 * straight to the process's stdout (its own stdout is a pipe to that thread, which would hold them
 * behind one another: the answer to a request waited behind a burst of diagnostics); signals reach
 * it as messages from that thread.
 */
const inThread = !isMainThread && (workerData as { stdio?: unknown } | null)?.stdio === "fd";

// Over stdio, the frames are checked before vscode-jsonrpc reads them (`frames.ts`): a bad one is
// logged and passed over rather than leaving the server deaf.
const connection = process.argv.includes("--stdio")
  ? createConnection(ProposedFeatures.all, new StreamMessageReader(process.stdin.pipe(new FrameGuard((m) => logBadFrame(m)))), new StreamMessageWriter(inThread ? fdWritable(1) : process.stdout))
  : createConnection(ProposedFeatures.all);
/** On stderr (which every client shows), and to the client's log once the connection can say it. */
function logBadFrame(message: string): void {
  process.stderr.write(`sanoma-language-server: ${message}\n`);
  try { connection.console.log(message); } catch { /* not listening yet */ }
}
const documents = new TextDocuments(TextDocument);
/** The failpoints armed (tests only: node/failpoints.ts), read once; undefined in production. */
const failpoints = Failpoints.parse(process.env[FAILPOINTS_ENV]);
/** To the client's log; nothing once the client is gone (a log line then threw, and ended the server by a crash). */
const log = (m: string): void => {
  try { connection.console.log(m); } catch { /* the connection is closed */ }
};
/**
 * A fault of ours in work that no request waits for (settings taken, folders changed, the start):
 * logged with its stack, and said once for each kind of work in a warning every client shows.
 * Unhandled, such a rejection ended the server (the client restarted it, up to 4 times, and a fault
 * that came back at each start left the editor without one).
 */
const warnedOf = new Set<string>();
function internalFailure(what: string, e: unknown): void {
  log(`${what} failed: ${(e as Error | undefined)?.stack ?? String(e)}`);
  if (warnedOf.has(what)) return;
  warnedOf.add(what);
  const message = `Sanoma: ${what} failed (${(e as Error | undefined)?.message ?? String(e)}); the language server goes on. The full stack is in its log.`;
  connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message }).catch(() => undefined);
}
process.on("unhandledRejection", (e) => internalFailure("a task of the language server", e));
let session: Session | undefined;
let watcher: FolderWatcher | undefined;
/** The server's own watch of the companies outside the workspace folders, for a client that watches these (`watchOutsideFolders`). */
let outsideWatcher: FolderWatcher | undefined;
let settingsAbove: SettingsAboveWatcher | undefined;
/** The server's own watch of the package folders the companies' connectors were read from (`watchPackages`). */
let packageWatcher: FolderWatcher | undefined;
let boxes: Boxes | undefined;
let dynamicWatch = false;

export const CHECK_WORKSPACE_COMMAND = "sanoma.checkWorkspace";

/** Set by the `shutdown` request: from then on requests are refused, as LSP asks. */
let shutDown = false;

/**
 * What a request's params must hold for its handler to read them (LSP's shapes); a request that
 * lacks it is answered `InvalidParams` with what is missing, not read until it throws (its stack
 * then filled the client's log, and the answer was an empty one that reads as "nothing here").
 */
const isPosition = (p: unknown): boolean => {
  const q = p as { line?: unknown; character?: unknown } | null;
  return typeof q === "object" && q !== null && Number.isInteger(q.line) && Number.isInteger(q.character);
};
const hasUri = (p: unknown, key: "textDocument" | "uri"): boolean => {
  const o = p as Record<string, unknown> | null | undefined;
  if (typeof o !== "object" || o === null) return false;
  return key === "uri" ? typeof o.uri === "string" : typeof (o.textDocument as { uri?: unknown } | null)?.uri === "string";
};
const SHAPES = {
  document: (p: unknown) => (hasUri(p, "textDocument") ? undefined : "textDocument.uri (a string)"),
  position: (p: unknown) => (hasUri(p, "textDocument") && isPosition((p as { position?: unknown }).position) ? undefined : "textDocument.uri (a string) and position ({ line, character }, integers)"),
  range: (p: unknown) => {
    const r = (p as { range?: { start?: unknown; end?: unknown } } | null)?.range;
    return hasUri(p, "textDocument") && isPosition(r?.start) && isPosition(r?.end) ? undefined : "textDocument.uri (a string) and range ({ start, end }, positions)";
  },
  query: (p: unknown) => (typeof (p as { query?: unknown } | null)?.query === "string" ? undefined : "query (a string)"),
  uri: (p: unknown) => (hasUri(p, "uri") ? undefined : "uri (a string)"),
  none: () => undefined,
} as const;

function guard<P, R>(name: string, empty: R, handler: (s: Session, p: P) => R | Promise<R>, shape: keyof typeof SHAPES = "none") {
  return async (params: P): Promise<R> => {
    if (!session) throw new ResponseError(ErrorCodes.ServerNotInitialized, "the server is not initialized: send initialize first");
    if (shutDown) throw new ResponseError(ErrorCodes.InvalidRequest, "the server is shutting down");
    const missing = SHAPES[shape](params);
    if (missing !== undefined) throw new ResponseError(ErrorCodes.InvalidParams, `${name} needs ${missing}`);
    try {
      return await handler(session, params);
    } catch (e) {
      if (e instanceof ResponseError) throw e; // a deliberate refusal, for the client to show
      log(`${name} failed: ${(e as Error).stack ?? e}`);
      return empty;
    }
  };
}

/** Where the rules' pages are: the docs shipped beside the bundle when present, else the repository. */
function docsUrlFor(init: InitializeParams): (rule: string) => string {
  const opts = (init.initializationOptions ?? {}) as { docsBase?: string };
  if (typeof opts.docsBase === "string") return (rule) => `${opts.docsBase!.replace(/\/?$/, "/")}${rule}.md`;
  const local = path.join(__dirname, "..", "docs", "rules");
  if (existsSync(local)) return (rule) => pathToFileURL(path.join(local, `${rule}.md`)).href;
  return ruleDocsUrl;
}

/**
 * Reads the facts of a small file of every common shape once, before answering `initialize`: the
 * first parse compiles the parser (a few hundred ms), better paid while the client waits for the
 * answer than in the index's first batch, where it keeps requests waiting. The text is made the
 * way a file's text read from disk is (from a buffer): warmed up on a string literal, V8 ran
 * `LineMap` twenty times slower for the whole index.
 */
function warmUpParser(): void {
  const text = Buffer.from(`import { a, type B } from "./a";
import * as c from "c";
export const d = e({ f: "data.g.get", h: [1, 2], i: async (j: any) => j?.k ?? 1 }, ...n);
export async function o(p: Q<R>, { s = 1 }: { s?: number } = {}): Promise<void> { for (const t of p.u) if (t > 1) await c.v(t); else try { w(); } catch { x = y as Z; } }
export default class A extends B { private d = 1; get e() { return this.d; } }
export type D = { e: string } | F[]; interface G { h(): void } const j = require("k"); export * from "l";
`, "utf8").toString("utf8");
  readFacts("/warm-up.ts", text);
}

connection.onInitialize((params: InitializeParams): InitializeResult => {
  // (A second one would put a new session in the first's place, and nothing would publish again.)
  if (session) throw new ResponseError(ErrorCodes.InvalidRequest, "initialize may only be sent once");
  warmUpParser();
  const folders = (params.workspaceFolders ?? []).map((f) => toPath(f.uri)).filter((p): p is string => !!p);
  if (folders.length === 0 && params.rootUri) { const p = toPath(params.rootUri); if (p) folders.push(p); }
  if (folders.length === 0 && params.rootPath) folders.push(path.resolve(params.rootPath));
  const caps = params.capabilities;
  dynamicWatch = !!caps.workspace?.didChangeWatchedFiles?.dynamicRegistration;
  session = new Session(nodeFileSystem, connectionClient(connection, !!caps.window?.workDoneProgress), documents, {
    folders,
    configuration: !!caps.workspace?.configuration,
    markdownHover: caps.textDocument?.hover?.contentFormat?.includes("markdown") ?? true,
    docsUrl: docsUrlFor(params),
    log,
    failpoints: failpoints.failpoints,
  });
  boxes = attachBoxes(connection, session, params, () => shutDown);
  return {
    capabilities: {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: false },
      completionProvider: { triggerCharacters: [".", "\"", "'", "`"] },
      hoverProvider: true,
      definitionProvider: true,
      referencesProvider: true,
      renameProvider: { prepareProvider: true },
      codeActionProvider: { codeActionKinds: ["quickfix"] },
      documentSymbolProvider: true,
      workspaceSymbolProvider: true,
      codeLensProvider: { resolveProvider: false },
      executeCommandProvider: { commands: [CHECK_WORKSPACE_COMMAND, PREVIEW_COMMAND] },
      workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
    },
    serverInfo: { name: "sanoma-language-server", version: "0.1.0" },
  };
});

/** How long indexing waits for the client to accept or refuse the file watchers, at most. */
const REGISTRATION_WAIT_MS = 2000;

connection.onInitialized(() => {
  if (!session) return;
  if (inThread) log(`running in a worker thread of the package's command, its young generation at most ${resourceLimits.maxYoungGenerationSizeMb} MB`);
  if (failpoints.failpoints) log(`${FAILPOINTS_ENV}: failpoints armed (for tests only: these steps throw on purpose): ${failpoints.failpoints.toString()}`);
  if (failpoints.unknown.length > 0) log(`${FAILPOINTS_ENV}: no failpoint ${failpoints.unknown.map((u) => JSON.stringify(u)).join(", ")} (there are ${FAILPOINT_NAMES.join(", ")}: each as name, or name:N for its first N times)`);
  const s = session;
  let watching: Promise<unknown> = Promise.resolve();
  if (dynamicWatch) {
    // A folder deleted, or renamed in or away, is one event for the folder's path in VS Code, which
    // the globs of files filter out: `**/*` reports those (and only those kinds) of any path.
    const registered = connection.client.register(DidChangeWatchedFilesNotification.type, {
      watchers: [
        { globPattern: "**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}" }, { globPattern: "**/sanoma.lock.json" }, { globPattern: "**/package.json" }, { globPattern: "**/.sanomarc.json" },
        { globPattern: "**/*", kind: WatchKind.Create | WatchKind.Delete },
      ],
    }).then(() => undefined, (e) => {
      // It offered to watch, then refused (or failed to): the server watches itself.
      log(`could not register file watchers (${e}): the server watches the folders itself`);
      outsideWatcher?.close();
      outsideWatcher = undefined;
      watchOurselves(s);
    });
    watchOutsideFolders(s);
    watchPackages(s);
    // Indexing lists no company's files before the answer (so a fallback watcher misses nothing
    // written meanwhile), but does not wait for ever for a client that never answers. One that has
    // not answered by then may never watch: the server watches itself from then on (should the
    // client accept later, an event may come from both: each is a re-read, the same either way).
    watching = answeredWithin(registered, REGISTRATION_WAIT_MS).then((answer) => {
      if (answer === NOT_ANSWERED && !watcher) {
        log(`the client did not answer the file watchers' registration within ${REGISTRATION_WAIT_MS / 1000} s: the server watches the folders itself`);
        outsideWatcher?.close();
        outsideWatcher = undefined;
        watchOurselves(s);
      }
      return answer;
    });
  } else {
    watchOurselves(s);
    watchPackages(s);
  }
  watchSettingsAbove(s);
  void s.start(watching);
  void boxes?.readSettings(); // box requests wait for it: nothing runs in a tier the settings did not choose
  try { connection.workspace.onDidChangeWorkspaceFolders((e) => {
    const added = e.added.map((f) => toPath(f.uri)).filter((p): p is string => !!p);
    const removed = e.removed.map((f) => toPath(f.uri)).filter((p): p is string => !!p);
    for (const p of added) { s.options.folders.push(p); watcher?.watchTree(p, "folder"); }
    // The companies that stay keep their trees watched.
    for (const p of removed) watcher?.unwatchTree(p, "folder");
    // The removed folders' companies go first: a re-check keeps every company it knows.
    const dropped = removed.length > 0 ? s.foldersRemoved(removed) : Promise.resolve();
    // (What the client watches changed: a company kept may now lie outside every folder.)
    void dropped.then(() => { for (const l of s.companyListeners) l.foldersChanged?.(); });
    if (added.length > 0) void dropped.then(() => s.recheckAll());
  }); } catch { /* the client does not announce folder changes */ }
});

/**
 * The client watches, but its globs reach its workspace folders only (VS Code, Neovim): a company
 * whose root lies outside them (opened through a subfolder, found through a file opened from
 * elsewhere, named by the settings) is watched by the server itself, every folder of it but what
 * a workspace folder holds (the client reports those: an event is not taken twice).
 */
function watchOutsideFolders(s: Session): void {
  const inFolder = (p: string) => s.options.folders.some((f) => isWithin(f, p));
  const watched = new Set<string>();
  const watch = (root: string) => {
    // (`watcher`: the server watches everything itself after all, the client having refused.)
    if (inFolder(root) || watcher) return;
    outsideWatcher ??= new FolderWatcher((file, kind) => { if (!inFolder(file)) s.diskChanged(file, kind); }, log);
    outsideWatcher.watchTree(root, "company");
    watched.add(root);
  };
  const unwatch = (root: string) => { if (watched.delete(root)) outsideWatcher?.unwatchTree(root, "company"); };
  s.companyListeners.push({
    indexing: watch,
    gone: unwatch,
    // A folder removed: a company it held, kept (a file of it open), is watched here now; one that
    // a folder added holds is the client's to watch.
    foldersChanged: () => {
      for (const root of Array.from(watched)) if (inFolder(root)) unwatch(root);
      for (const root of s.ws.companies.keys()) watch(root);
    },
  });
  for (const root of s.ws.companies.keys()) watch(root);
}

/**
 * A `.sanomarc.json` above every workspace folder (a monorepo's top, the editor opened on one
 * company), or a `sanoma.config.ts` made there (a company the folder lies in, made after the server
 * started), is watched by neither the client nor the server's trees: the folders above each
 * company root and each workspace folder that nothing else watches are watched for it alone
 * (node/settings-above-watcher.ts).
 */
function watchSettingsAbove(s: Session): void {
  const w = settingsAbove ??= new SettingsAboveWatcher((file, kind) => s.diskChanged(file, kind), log);
  // (A company root's tree is watched by the client or by the server: so are the folders in it.)
  const covered = (dir: string) => s.options.folders.some((f) => isWithin(f, dir)) || [...s.ws.companies.keys()].some((r) => isWithin(r, dir));
  // (A workspace folder asks under its own name: a company at the same path is let go apart.)
  const folderKey = (f: string) => `folder\0${f}`;
  let folders: string[] = [];
  const watchFolders = () => {
    for (const f of folders) w.unwatchAbove(folderKey(f));
    folders = [...s.options.folders];
    for (const f of folders) w.watchAbove(f, covered, folderKey(f));
  };
  s.companyListeners.push({
    indexing: (root) => w.watchAbove(root, covered),
    gone: (root) => w.unwatchAbove(root),
    foldersChanged: () => { for (const root of s.ws.companies.keys()) { w.unwatchAbove(root); w.watchAbove(root, covered); } watchFolders(); },
  });
  for (const root of s.ws.companies.keys()) w.watchAbove(root, covered);
  watchFolders();
}

/**
 * The packages a company's connectors are read from (`node_modules/@acme/cloud`, and where a package
 * not installed would be put), watched by the server: its own trees leave `node_modules` out (tens of
 * thousands of folders), so without this a client that does not watch for it (Neovim) had
 * `npm install` seen by a restart only. Each such folder is watched whole, as a tree of its own
 * (one missing is looked for until it is made); the set is taken after each check, when the
 * connector reading has gone where it goes. With a client that watches, only packages outside its
 * workspace folders (whose changes it reports) are, and the real folders of the linked packages
 * (a monorepo's) that lie outside them.
 */
function watchPackages(s: Session): void {
  const w = packageWatcher ??= new FolderWatcher((file, kind) => s.diskChanged(file, kind), log);
  const inFolder = (p: string) => s.options.folders.some((f) => isWithin(f, p));
  const asked = new Map<string, Set<string>>();
  s.companyListeners.push({
    indexing: () => {},
    checked: (root) => {
      let mine = asked.get(root);
      if (!mine) asked.set(root, mine = new Set());
      const watch = (dir: string) => { if (!mine.has(dir)) { mine.add(dir); w.watchTree(dir, root); } };
      for (const dir of s.ws.packageFoldersOf(root)) {
        // (`watcher`: the server watches everything itself, the client having refused or being unable.)
        if (watcher || !inFolder(dir)) watch(dir);
      }
      // A monorepo's workspace package linked into a `node_modules` the client watches, its real
      // folder outside every workspace folder (the editor opened on one company): no client reports
      // a change there, nor through the link. Its real folder is watched; the session takes an
      // event there as the linked package's (`readsLinkedPackageAt`).
      if (!watcher) for (const [real, dir] of s.ws.linkedPackageFoldersOf(root)) if (inFolder(dir) && !inFolder(real)) watch(real);
    },
    gone: (root) => {
      for (const dir of asked.get(root) ?? []) w.unwatchTree(dir, root);
      asked.delete(root);
    },
  });
}

/**
 * The client cannot watch for us (Neovim 0.7), or refused to: the server watches the workspace folders, and the
 * root of every company as its indexing starts (so that nothing written meanwhile is missed): one
 * found above a folder (opened through a subfolder), through a file opened from elsewhere or with
 * no folder at all, or named by the settings. A company forgotten is no longer watched (its
 * config changed on disk would bring it back), but for what a folder or another company holds.
 */
function watchOurselves(s: Session): void {
  if (watcher) return;
  const w = watcher = new FolderWatcher((file, kind) => s.diskChanged(file, kind), log);
  s.companyListeners.push({ indexing: (root) => w.watchTree(root, "company"), gone: (root) => w.unwatchTree(root, "company") });
  for (const f of s.options.folders) w.watchTree(f, "folder");
  for (const root of s.ws.companies.keys()) w.watchTree(root, "company");
}

documents.onDidOpen((e) => session?.setText(e.document.uri, e.document.getText()));
documents.onDidChangeContent((e) => session?.setText(e.document.uri, e.document.getText()));
documents.onDidClose((e) => session?.closed(e.document.uri));

connection.onDidChangeWatchedFiles((params) => {
  if (!session) return;
  for (const c of params.changes) {
    const file = session.filePath(c.uri);
    // (One that cannot be taken is said on its company's config: Session.diskChanged.)
    if (file) session.diskChanged(file, c.type === FileChangeType.Created ? "created" : c.type === FileChangeType.Deleted ? "deleted" : "changed");
  }
});
connection.onDidChangeConfiguration((params) => {
  const s = session;
  s?.settingsChanged(params?.settings).catch((e) => {
    internalFailure("taking the changed settings", e);
    // What they changed may be half applied: every company read again with them, as Check Workspace Now does.
    s.recheckAll().catch((again) => internalFailure("reading every company again after a settings change", again));
  });
  boxes?.readSettings().catch((e) => internalFailure("taking the boxes' changed settings", e));
});

connection.onHover(guard("hover", null, hover, "position"));
connection.onDefinition(guard("definition", null, definition, "position"));
connection.onReferences(guard("references", null, references, "position"));
connection.onPrepareRename(guard("prepareRename", null, prepareRename, "position"));
connection.onRenameRequest(guard("rename", null, rename, "position"));
connection.onCompletion(guard("completion", [], completion, "position"));
connection.onCodeAction(guard("codeAction", [], codeActions, "range"));
connection.onDocumentSymbol(guard("documentSymbol", [], documentSymbols, "document"));
connection.onWorkspaceSymbol(guard("workspaceSymbol", [], workspaceSymbols, "query"));
connection.onCodeLens(guard("codeLens", [], codeLenses, "document"));
connection.onRequest(CompaniesRequest, guard("companies", { companies: [] }, companies));
connection.onRequest(CompanyOfRequest, guard("companyOf", null, companyOf, "uri"));
connection.onRequest(StatusRequest, guard("status", null, (s) => s.status()));
connection.onExecuteCommand(guard("executeCommand", null, async (s, params: { command: string; arguments?: unknown[] }) => {
  if (params.command === CHECK_WORKSPACE_COMMAND) { await s.recheckAll(); return s.status(); }
  if (params.command === PREVIEW_COMMAND) {
    if (!boxes) throw new ResponseError(ErrorCodes.InvalidRequest, "previews are not ready: the server is not initialized");
    return boxes.preview(params.arguments?.[0] as { uri: string; export: string });
  }
  // (An error, not a null that reads as done: a client that sends a command we never offered should hear so.)
  throw new ResponseError(ErrorCodes.InvalidParams, `sanoma-language-server has no command ${JSON.stringify(params.command)} (its commands: ${CHECK_WORKSPACE_COMMAND}, ${PREVIEW_COMMAND})`);
}));

connection.onShutdown(async () => {
  // (Before `initialize`, as every request then: a shutdown taken there left the session that
  // followed refusing every request as shutting down.)
  if (!session) throw new ResponseError(ErrorCodes.ServerNotInitialized, "the server is not initialized: send initialize first");
  shutDown = true;
  watcher?.close();
  outsideWatcher?.close();
  packageWatcher?.close();
  settingsAbove?.close();
  await boxes?.dispose();
});
// Whatever way the server ends (exit, its client gone, a signal), every box's processes end with it.
connection.onExit(() => { watcher?.close(); outsideWatcher?.close(); packageWatcher?.close(); settingsAbove?.close(); boxes?.service.disposeSync(); });
const endBySignal = (): void => { boxes?.service.disposeSync(); process.exit(0); };
for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, endBySignal);
if (inThread && parentPort) {
  parentPort.on("message", (m: { signal?: unknown } | null) => { if (typeof m?.signal === "string") endBySignal(); });
  parentPort.unref();
}
process.on("exit", () => boxes?.service.disposeSync());
// Its client gone (the pipe closed, or the IPC channel, after a shutdown or without one), the
// server ends, with the LSP's code (0 after a shutdown, else 1). vscode-languageserver does so only
// for a stream it reads itself, and our stdin reaches it through FrameGuard; over IPC it does not
// at all. Nothing ended such a server but the crash of a later log line, and while the client's
// process lived, vscode-languageserver's check of its pid kept it waiting for ever. The messages
// already received are handled first (a shutdown sent just before the close counts).
const CLIENT_GONE_GRACE_MS = 50;
let ending = false;
const clientGone = (): void => {
  if (ending) return;
  ending = true;
  setTimeout(() => { watcher?.close(); outsideWatcher?.close(); packageWatcher?.close(); boxes?.service.disposeSync(); process.exit(shutDown ? 0 : 1); }, CLIENT_GONE_GRACE_MS);
};
// Before `initialize` names the client's process (LSP's `processId`, which vscode-languageserver
// then watches), the server's parent is its only sign of the client: one whose parent died before
// initializing, its stdin held open by some other process, waited for ever.
const launcher = process.ppid;
const orphanWatch = setInterval(() => {
  if (session) clearInterval(orphanWatch);
  else if (process.ppid !== launcher) clientGone();
}, 1000);
orphanWatch.unref();
if (process.argv.includes("--stdio")) {
  process.stdin.on("end", clientGone);
  process.stdin.on("close", clientGone);
} else if (process.argv.includes("--node-ipc")) {
  process.on("disconnect", clientGone);
}

// A request no handler took: before `initialize`, one of ours whose handler comes with the session
// (`sanoma/boxes/*`) is ServerNotInitialized, as LSP has every request then; anything else is no
// method of ours.
connection.onRequest((method) => {
  if (!session && method !== "initialize") throw new ResponseError(ErrorCodes.ServerNotInitialized, "the server is not initialized: send initialize first");
  throw new ResponseError(ErrorCodes.MethodNotFound, `sanoma-language-server has no method ${method}`);
});

documents.listen(connection);
connection.listen();
