/**
 * Local boxes and previews in the editor (SPEC B4, B5): the `sanoma.preview` command (the server's
 * code lens above each exported workflow calls it with `{ uri, export }`), a pseudoterminal per run
 * that streams its output (colours kept, Ctrl+C stops it), and the Boxes view: the tier in force,
 * each box with its state and runs, and actions to open, stop, discard, show changes, apply them
 * and open an exposed port. Everything goes through the `sanoma/boxes/*` requests of
 * server/src/protocol.ts; the server owns the processes.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import {
  BoxesApplyRequest,
  BoxesChangedNotification,
  BoxesDiffRequest,
  BoxesDiscardRequest,
  BoxesEventNotification,
  BoxesEventsRequest,
  BoxesExposeRequest,
  BoxesListRequest,
  BoxesPreviewRequest,
  BoxesRunsRequest,
  BoxesStopRequest,
  CompanyOfRequest,
  type BoxEvent,
  type BoxesApplyParams,
  type BoxesApplyResult,
  type BoxesDiffResult,
  type BoxesEventsParams,
  type BoxesEventsResult,
  type BoxesExposeResult,
  type BoxesListResult,
  type BoxesPreviewParams,
  type BoxesPreviewResult,
  type BoxesRunsResult,
  type BoxFileChange,
  type BoxInfo,
  type BoxRunInfo,
  type CompanyOfResult,
} from "../../server/src/protocol.ts";
import { errorText, type ServerHost } from "./server.ts";
import { RunTerminal, seconds } from "./run-terminal.ts";
import { RecentEvents } from "./recent.ts";
import { isInside } from "./companies.ts";
import { BOX_FILE_SCHEME, boxFileText, boxSideOf, relOf } from "./boxFile.ts";

type Register = (id: string, run: (...args: unknown[]) => unknown) => void;


/** The argument of `sanoma.preview`, as the server's code lens passes it. */
export interface PreviewArgs { uri: string; export: string }

type Node =
  | { kind: "tier"; list: BoxesListResult }
  | { kind: "none" }
  | { kind: "box"; box: BoxInfo }
  | { kind: "run"; run: BoxRunInfo }
  | { kind: "port"; box: string; port: number };

export class Boxes implements vscode.Disposable, vscode.TreeDataProvider<Node> {
  private readonly disposables: vscode.Disposable[] = [];
  private readonly treeChanged = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.treeChanged.event;
  private readonly view: vscode.TreeView<Node>;
  /** Recent events per box, in seq order, for terminals that attach after the run began. */
  private readonly recent = new Map<string, RecentEvents>();
  private readonly liveEvents = new vscode.EventEmitter<BoxEvent>();
  private readonly serverGone = new vscode.EventEmitter<void>();
  private list: BoxesListResult | undefined;
  private refreshTimer: NodeJS.Timeout | undefined;

  constructor(_context: vscode.ExtensionContext, private readonly server: ServerHost, private readonly output: vscode.LogOutputChannel) {
    this.view = vscode.window.createTreeView("sanoma.boxes", { treeDataProvider: this, showCollapseAll: true });
    this.disposables.push(this.view, this.treeChanged, this.liveEvents, this.serverGone);
    server.onNotification(BoxesEventNotification, (params) => this.onEvent(params as BoxEvent));
    server.onNotification(BoxesChangedNotification, () => this.scheduleRefresh());
    // A server that leaves "running" for "restarting" or "failed" stopped without a word (a
    // restart the user asks for stops it with one: its runs' exits come first, and it goes to
    // "starting"): the runs it held ended with it, and their terminals are told (`onServerGone`).
    // The view follows the server either way: its boxes once it runs, the welcome's word while it does not.
    this.disposables.push(server.onDidChangeState((s) => {
      this.scheduleRefresh();
      if (s.kind === "restarting" || s.kind === "failed") this.serverGone.fire();
    }));
    // The tier row follows the setting (the server reads it anew, and says nothing of it).
    this.disposables.push(vscode.workspace.onDidChangeConfiguration((e) => e.affectsConfiguration("sanoma.boxes") && this.scheduleRefresh()));
    // The box's side of a diff: read-only documents, read without following a link (`boxFile.ts`).
    this.disposables.push(vscode.workspace.registerTextDocumentContentProvider(BOX_FILE_SCHEME, {
      onDidChange: boxSideChanged.event,
      provideTextDocumentContent: (uri) => boxFileText(uri.fsPath, relOf(uri.query)),
    }));
  }

  dispose(): void {
    clearTimeout(this.refreshTimer);
    for (const d of this.disposables) d.dispose();
  }

  registerCommands(command: Register): void {
    command("sanoma.preview", (args) => this.preview(args));
    command("sanoma.boxes.refresh", () => this.refresh());
    command("sanoma.boxes.openFolder", (node) => this.withBox(node, "Open which box's folder?", (box) =>
      vscode.commands.executeCommand("vscode.openFolder", vscode.Uri.file(box.home), { forceNewWindow: true })));
    command("sanoma.boxes.showOutput", (node) => this.showRunOutput(node));
    command("sanoma.boxes.stop", (node) => this.withBox(node, "Stop which box?", async (box) => {
      const r = await this.request<{ stopped: number }>(BoxesStopRequest, { name: box.name });
      void vscode.window.showInformationMessage(`Sanoma: stopped ${r.stopped} ${r.stopped === 1 ? "process group" : "process groups"} of ${box.name}`);
      this.scheduleRefresh();
    }));
    command("sanoma.boxes.discard", (node) => this.withBox(node, "Discard which box?", async (box) => {
      const ok = await vscode.window.showWarningMessage(`Discard the box ${box.name}? Its folder and run history are deleted.`, { modal: true }, "Discard");
      if (ok !== "Discard") return;
      await this.request(BoxesDiscardRequest, { name: box.name });
      this.recent.delete(box.name);
      this.scheduleRefresh();
    }));
    command("sanoma.boxes.showChanges", (node) => this.withBox(node, "Show which box's changes?", (box) => this.showChanges(box.name)));
    command("sanoma.boxes.apply", (node) => this.withBox(node, "Apply which box's changes?", (box) => this.apply(box.name)));
    command("sanoma.boxes.openPort", (node) => this.openPort(node));
  }

  // ---- The view ----

  getTreeItem(node: Node): vscode.TreeItem {
    switch (node.kind) {
      case "tier": {
        const item = new vscode.TreeItem(`Isolation: ${node.list.tier}`, vscode.TreeItemCollapsibleState.None);
        item.description = node.list.tierReason;
        item.tooltip = new vscode.MarkdownString(`**${node.list.tier}** — ${node.list.tierReason}\n\nBoxes live in \`${node.list.boxesDir}\`. Change the tier with the \`sanoma.boxes.isolation\` setting.`);
        item.iconPath = new vscode.ThemeIcon(node.list.tier === "namespace" ? "shield" : node.list.tier === "container" ? "vm" : "server-process");
        item.contextValue = "tier";
        item.command = { command: "workbench.action.openSettings", title: "Open setting", arguments: ["sanoma.boxes.isolation"] };
        return item;
      }
      case "box": {
        const { box } = node;
        const item = new vscode.TreeItem(box.name, vscode.TreeItemCollapsibleState.Collapsed);
        const what = box.preview ? `${box.preview.file}#${box.preview.export}` : "";
        item.description = [box.state === "idle" ? "" : box.state, what].filter(Boolean).join(" · ");
        item.tooltip = new vscode.MarkdownString(`**${box.name}** (${box.state})\n\n\`${box.home}\`${box.preview ? `\n\nPreview of \`${what}\` in \`${box.preview.root}\`` : ""}`);
        item.iconPath = new vscode.ThemeIcon(box.state === "running" ? "sync~spin" : box.state === "missing" ? "warning" : "package");
        item.contextValue = `box.${box.state}`;
        item.id = `box:${box.name}`;
        return item;
      }
      case "run": {
        const { run } = node;
        const item = new vscode.TreeItem(run.command, run.ports.length ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.None);
        const when = new Date(run.startedAt).toLocaleTimeString();
        // A box that could not be made ready is said in words: the command never ran.
        item.description = run.error ? `could not start: ${run.error} · ${when}` : run.state === "running" ? `running since ${when}` : run.state === "lost" ? `lost · ${when}` : `exit ${run.exitCode}${run.signal ? ` (${run.signal})` : ""} · ${seconds(run.durationMs ?? 0)} · ${when}`;
        if (run.error) item.tooltip = new vscode.MarkdownString().appendText(`The box could not be made ready, so the command never ran:\n\n${run.error}`);
        item.iconPath = new vscode.ThemeIcon(run.error ? "warning" : run.state === "running" ? "play-circle" : run.exitCode === 0 ? "pass" : "error");
        item.contextValue = "run";
        item.id = `run:${run.box}:${run.runId}`;
        item.command = { command: "sanoma.boxes.showOutput", title: "Show Run Output", arguments: [node] };
        return item;
      }
      case "none": {
        const item = new vscode.TreeItem("No boxes yet", vscode.TreeItemCollapsibleState.None);
        item.description = "a preview runs an exported workflow in a box of its own";
        item.iconPath = new vscode.ThemeIcon("info");
        item.command = { command: "sanoma.preview", title: "Preview a Workflow" };
        return item;
      }
      case "port": {
        const item = new vscode.TreeItem(`port ${node.port}`, vscode.TreeItemCollapsibleState.None);
        item.iconPath = new vscode.ThemeIcon("globe");
        item.contextValue = "port";
        item.command = { command: "sanoma.boxes.openPort", title: "Open Exposed Port", arguments: [node] };
        return item;
      }
    }
  }

  async getChildren(node?: Node): Promise<Node[]> {
    if (!this.server.client) return [];
    try {
      if (!node) {
        this.list = await this.request<BoxesListResult>(BoxesListRequest, {});
        this.view.description = this.list.tier;
        // (A row, not the view's welcome: the tier's row is always there, and a welcome shows only in an empty view.)
        if (this.list.boxes.length === 0) return [{ kind: "tier", list: this.list }, { kind: "none" }];
        return [{ kind: "tier", list: this.list }, ...this.list.boxes.map((box): Node => ({ kind: "box", box }))];
      }
      if (node.kind === "box") {
        const runs = await this.request<BoxesRunsResult>(BoxesRunsRequest, { name: node.box.name, limit: 20 });
        return runs.runs.map((run): Node => ({ kind: "run", run }));
      }
      if (node.kind === "run") return node.run.ports.map((port): Node => ({ kind: "port", box: node.run.box, port }));
    } catch (error) {
      this.output.warn(`boxes view: ${errorText(error)}`);
    }
    return [];
  }

  refresh(): void {
    this.treeChanged.fire(undefined);
  }

  private scheduleRefresh(): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => this.refresh(), 150);
  }

  // ---- Previews ----

  /** `sanoma.preview [{ uri, export }]`: without arguments, picks a workflow of the active file. */
  async preview(args?: unknown): Promise<void> {
    const target = isPreviewArgs(args) ? args : await this.pickWorkflow();
    if (!target) return;
    const uri = vscode.Uri.parse(target.uri);
    const company = await this.request<CompanyOfResult | null>(CompanyOfRequest, { uri: uri.toString() });
    if (!company) throw new Error(`${vscode.workspace.asRelativePath(uri)} belongs to no company`);
    // Unsaved edits are part of what the user wants to preview, in the workflow's file and in what
    // it imports: the box copies files from disk, so every unsaved file of the company is saved.
    for (const doc of vscode.workspace.textDocuments) if (doc.isDirty && doc.uri.scheme === "file" && isInside(doc.uri.fsPath, company.root)) await doc.save();
    const params: BoxesPreviewParams = { root: company.root, file: uri.fsPath, export: target.export, scope: company.scope };
    const title = `Preview ${target.export}`;
    // The terminal opens before the run starts, so no output is missed and the user sees the sync.
    const terminal = new RunTerminal(this, title, true);
    terminal.show();
    terminal.line(`\x1b[2m$ sync ${company.name}${company.scope ? ` › ${company.scope}` : ""} into a box…\x1b[0m`);
    let result: BoxesPreviewResult;
    try {
      result = await this.request<BoxesPreviewResult>(BoxesPreviewRequest, params);
    } catch (error) {
      terminal.line(`\x1b[31m${errorText(error)}\x1b[0m`);
      throw error;
    }
    const s = result.sync;
    terminal.line(`\x1b[2mbox ${result.name} (${result.tier}): ${s.copied} copied, ${s.updated} updated, ${s.deleted} deleted, ${s.unchanged} unchanged in ${s.ms} ms${s.kept.length ? `; kept the box's own changes to ${s.kept.length} files` : ""}\x1b[0m`);
    terminal.line(`\x1b[2m$ ${result.command}\x1b[0m`);
    terminal.attach(result.name, result.runId);
    this.scheduleRefresh();
  }

  /** The exported workflows of the active file, as the server's code lenses name them. */
  private async pickWorkflow(): Promise<PreviewArgs | undefined> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) {
      void vscode.window.showInformationMessage("Sanoma: open a workflow file to preview one of its workflows");
      return undefined;
    }
    const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>("vscode.executeCodeLensProvider", editor.document.uri, 50)) ?? [];
    const targets = lenses.map((l) => l.command?.arguments?.[0]).filter(isPreviewArgs);
    if (targets.length === 0) {
      void vscode.window.showInformationMessage("Sanoma: no exported workflow to preview in this file (while the company is still being read there may be none yet: try again in a moment)");
      return undefined;
    }
    if (targets.length === 1) return targets[0];
    return (await vscode.window.showQuickPick(targets.map((t) => ({ label: t.export, t })), { title: "Preview which workflow?" }))?.t;
  }

  /** Every event of one run, from the box's log (a past run), then live. */
  private async showRunOutput(node: unknown): Promise<void> {
    const run = (node as Node | undefined)?.kind === "run" ? (node as Extract<Node, { kind: "run" }>).run : undefined;
    if (!run) return;
    const terminal = new RunTerminal(this, `${run.box}: ${run.command}`.slice(0, 60));
    terminal.show();
    const past = await this.eventsOf(run.box, run.runId, run.startSeq);
    // The box keeps its newest events only: a run whose start was let go shows what is left.
    if (past.skipped > 0 && !past.events.some((e) => e.kind === "start")) terminal.line("\x1b[2m[the start of this run's output is no longer kept: a box keeps its newest 256 MiB of events]\x1b[0m");
    terminal.attach(run.box, run.runId, past.events);
  }

  /**
   * A run's recorded events, paged from its start event (`startSeq`; a server that does not say it:
   * from the start of the box's log) to its exit, and how many events the log no longer keeps. (It
   * paged from the log's start, at most a million events: a late run of a busy box showed nothing.)
   */
  async eventsOf(box: string, runId: string, startSeq?: number): Promise<{ events: BoxEvent[]; skipped: number }> {
    const out: BoxEvent[] = [];
    let cursor = typeof startSeq === "number" && startSeq > 0 ? startSeq - 1 : 0, skipped = 0;
    for (let page = 0; page < 1000; page++) {
      const params: BoxesEventsParams = { name: box, cursor, limit: 1000 };
      const r = await this.request<BoxesEventsResult>(BoxesEventsRequest, params);
      const mine = r.events.filter((e) => e.runId === runId);
      out.push(...mine);
      skipped += r.skipped ?? 0;
      cursor = r.cursor;
      if (!r.more || mine.some((e) => e.kind === "exit")) break;
    }
    return { events: out, skipped };
  }

  /** Live events, and the recent ones of a run for a terminal attaching late. */
  onLiveEvent(listener: (e: BoxEvent) => void): vscode.Disposable {
    return this.liveEvents.event(listener);
  }

  onServerGone(listener: () => void): vscode.Disposable {
    return this.serverGone.event(listener);
  }

  recentEvents(box: string, runId: string): BoxEvent[] {
    return this.recent.get(box)?.of(runId) ?? [];
  }

  async stopRun(box: string, runId: string, why: string): Promise<void> {
    this.output.info(`stopping ${box}'s run ${runId}: ${why}`);
    try {
      await this.request(BoxesStopRequest, { name: box, runId });
    } catch (error) {
      this.output.warn(`stopping ${box}'s run ${runId} failed: ${errorText(error)}`);
      throw error;
    }
  }

  private onEvent(event: BoxEvent): void {
    let recent = this.recent.get(event.box);
    if (!recent) this.recent.set(event.box, (recent = new RecentEvents()));
    recent.add(event);
    this.liveEvents.fire(event);
    if (event.kind === "port") {
      void vscode.window.showInformationMessage(`Sanoma: ${event.box} listens on port ${event.port}`, "Open in Simple Browser").then((c) => c && this.openUrl(event.url));
    }
    if (event.kind === "exit" && event.error) {
      void vscode.window.showErrorMessage(`Sanoma: ${event.box} could not be made ready: ${event.error}`, "Open Setting").then((c) => c && vscode.commands.executeCommand("workbench.action.openSettings", "sanoma.boxes"));
    } else if (event.kind === "exit" && event.message) {
      void vscode.window.showErrorMessage(`Sanoma: ${event.message}`, "Open Setting").then((c) => c && vscode.commands.executeCommand("workbench.action.openSettings", "sanoma.preview.command"));
    }
    if (event.kind === "start" || event.kind === "exit" || event.kind === "port") this.scheduleRefresh();
  }

  // ---- Changes ----

  private async showChanges(name: string): Promise<void> {
    const diff = await this.request<BoxesDiffResult>(BoxesDiffRequest, { name });
    // (A box of more files than a diff looks at: what it lists is partial, and no deletion is listed.)
    if (diff.tooMany) void vscode.window.showWarningMessage(`Sanoma: ${name}: ${diff.tooMany}`);
    if (diff.files.length === 0) {
      void vscode.window.showInformationMessage(`Sanoma: ${name} changed nothing`);
      return;
    }
    type Item = vscode.QuickPickItem & { file?: BoxFileChange; apply?: boolean };
    const items: Item[] = [
      { label: "$(check-all) Apply changes to the workspace…", apply: true },
      { label: "", kind: vscode.QuickPickItemKind.Separator },
      ...diff.files.map((file): Item => ({ label: `${changeIcon(file.change)} ${file.path}`, description: describeChange(file), detail: file.refused, file })),
    ];
    // (Past the answer's bounds the rest is counted, not listed: said, so that none is taken for unchanged.)
    const omitted = diff.omitted ? ` (${diff.omitted} more not listed: too many to show)` : "";
    const picked = await vscode.window.showQuickPick(items, { title: `Changes made in ${name}${omitted}`, placeHolder: "Choose a file to see its diff" });
    if (!picked) return;
    if (picked.apply) return this.apply(name, diff);
    if (picked.file) await openDiff(name, picked.file);
  }

  private async apply(name: string, known?: BoxesDiffResult): Promise<void> {
    const diff = known ?? (await this.request<BoxesDiffResult>(BoxesDiffRequest, { name }));
    if (!known && diff.tooMany) void vscode.window.showWarningMessage(`Sanoma: ${name}: ${diff.tooMany}`);
    // What the box made that is no file (a link, a FIFO), that the server cannot read, or a file
    // too big to apply, is never applied: it is not offered (Show Box Changes says why of each).
    const applicable = diff.files.filter((f) => !f.refused);
    // A file with unsaved changes in the editor is the user's change too (B1: unsaved text wins):
    // asked about like a conflict, never overwritten unseen.
    const unsaved = new Set(vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === "file").map((d) => d.uri.fsPath));
    const mine = (file: BoxFileChange) => file.workspaceChanged || unsaved.has(file.workspaceFile);
    const refused = diff.files.length - applicable.length;
    if (applicable.length === 0) {
      void vscode.window.showInformationMessage(`Sanoma: ${name} changed nothing that can be applied${refused ? ` (${refused} ${refused === 1 ? "change is" : "changes are"} no regular file, cannot be read or is too big: see Show Box Changes)` : ""}`);
      return;
    }
    const picked = await vscode.window.showQuickPick(
      applicable.map((file) => ({
        label: `${changeIcon(file.change)} ${file.path}`,
        description: file.change + (file.workspaceChanged ? " · your version changed too: you will be asked" : unsaved.has(file.workspaceFile) ? " · unsaved changes in the editor: you will be asked" : ""),
        // A file the user also changed is left unchecked: applying it would lose their edit.
        picked: !mine(file),
        file,
      })),
      { title: `Apply ${name}'s changes to ${diff.root}${refused ? ` (${refused} not applicable: no regular file, unreadable, or too big)` : ""}${diff.omitted ? ` (${diff.omitted} more not listed)` : ""}`, canPickMany: true, placeHolder: "Choose the files to copy back" },
    );
    if (!picked || picked.length === 0) return;
    // A file both sides changed: asked one by one, with both versions a click away.
    const overwrite: string[] = [];
    const files: string[] = [];
    for (const { file } of picked) {
      if (!mine(file)) files.push(file.path);
      else if (await askOverwrite(name, file, !file.workspaceChanged)) {
        files.push(file.path);
        if (file.workspaceChanged) overwrite.push(file.path);
      }
    }
    if (files.length === 0) return;
    const params: BoxesApplyParams = { name, files, ...(overwrite.length ? { overwrite } : {}) };
    const r = await this.request<BoxesApplyResult>(BoxesApplyRequest, params);
    const skipped = r.skipped.length ? `; skipped ${r.skipped.map((s) => `${s.path} (${s.reason})`).join(", ")}` : "";
    const say = r.skipped.length ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    // (Into the company the diff shown was made against: the server says which.)
    void say(`Sanoma: applied ${r.applied.length} ${r.applied.length === 1 ? "file" : "files"} from ${name} into ${r.root}${skipped}`);
  }

  // ---- Ports ----

  private async openPort(node: unknown): Promise<void> {
    const port = (node as Node | undefined)?.kind === "port" ? (node as Extract<Node, { kind: "port" }>) : undefined;
    if (!port) return;
    const r = await this.request<BoxesExposeResult>(BoxesExposeRequest, { name: port.box, port: port.port });
    await this.openUrl(r.url);
  }

  /**
   * Opens a box's loopback URL where the user's browser can reach it: in a remote window or
   * code-server, `asExternalUri` gives the forwarded address; locally it is the URL itself.
   */
  private async openUrl(url: string): Promise<void> {
    const external = (await vscode.env.asExternalUri(vscode.Uri.parse(url))).toString(true);
    try {
      await vscode.commands.executeCommand("simpleBrowser.show", external);
    } catch {
      await vscode.env.openExternal(vscode.Uri.parse(external));
    }
  }

  // ---- Helpers ----

  private async withBox(node: unknown, question: string, action: (box: BoxInfo) => unknown): Promise<void> {
    let box = (node as Node | undefined)?.kind === "box" ? (node as Extract<Node, { kind: "box" }>).box : undefined;
    if (!box) {
      const list = await this.request<BoxesListResult>(BoxesListRequest, {});
      if (list.boxes.length === 0) {
        void vscode.window.showInformationMessage("Sanoma: there is no box yet");
        return;
      }
      box = (await vscode.window.showQuickPick(list.boxes.map((b) => ({ label: b.name, description: b.state, b })), { title: question }))?.b;
    }
    if (box) await action(box);
  }

  request<R>(method: string, params: unknown): Promise<R> {
    return this.server.requireClient().sendRequest<R>(method, params);
  }
}

/**
 * Asks whether to overwrite the user's own change to `file` with the box's, until they choose:
 * "Compare" opens both versions side by side and asks again. Dismissed, nothing is overwritten.
 */
async function askOverwrite(box: string, file: BoxFileChange, unsavedOnly = false): Promise<boolean> {
  for (;;) {
    const what = unsavedOnly
      ? `${file.path} has unsaved changes in the editor (they stay there, unsaved)`
      : file.change === "deleted" ? `${box} deleted ${file.path}, which you also changed` : `${file.path} changed in your workspace too since ${box} was synced`;
    const answer = await vscode.window.showWarningMessage(`Sanoma: ${what}. Overwrite your version with the box's?`, "Compare", "Overwrite", "Keep Mine");
    if (answer !== "Compare") return answer === "Overwrite";
    await openDiff(box, file);
  }
}

/** The quick pick's words for a change: what it is, whether it can be applied, whether it is a conflict. */
function describeChange(file: BoxFileChange): string {
  const parts: string[] = [file.change];
  if (file.size !== undefined) parts.push(sizeText(file.size));
  if (file.kind && file.kind !== "file") parts.push(`${file.kind} · never applied`);
  if (file.executable !== undefined) parts.push(file.executable ? "becomes executable" : "no longer executable");
  if (file.workspaceChanged) parts.push("the workspace's file changed too");
  return parts.join(" · ");
}

/** Told when a box's side is shown again: an open one is read anew (the box may have changed it). The extension's, for its life. */
const boxSideChanged = new vscode.EventEmitter<vscode.Uri>();

/**
 * The box's side of a change, read-only (never a `file:` editor, whose saves a box that swapped
 * the file for a link would have written through it), read anew; undefined when there is none.
 */
function boxSide(file: BoxFileChange): vscode.Uri | undefined {
  const side = boxSideOf(file);
  if (!side) return undefined;
  const uri = vscode.Uri.file(side.fsPath).with({ scheme: side.scheme, query: side.query });
  boxSideChanged.fire(uri);
  return uri;
}

async function openDiff(box: string, file: BoxFileChange): Promise<void> {
  if (file.refused) {
    void vscode.window.showInformationMessage(`Sanoma: ${file.path}: ${file.refused}`);
    return;
  }
  const workspace = vscode.Uri.file(file.workspaceFile);
  const title = `${path.basename(file.path)} (workspace ↔ ${box})`;
  const side = boxSide(file);
  if (file.change === "modified" && side) {
    await vscode.commands.executeCommand("vscode.diff", workspace, side, title);
  } else if (file.change === "added" && side) {
    await vscode.commands.executeCommand("vscode.open", side);
  } else {
    void vscode.window.showInformationMessage(`Sanoma: ${box} deleted ${file.path}`);
    await vscode.commands.executeCommand("vscode.open", workspace);
  }
}

/** A box file's size as the quick pick shows it: `812 bytes`, `4.2 KiB`, `1 TiB`. */
function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} ${bytes === 1 ? "byte" : "bytes"}`;
  const units = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
  let value = bytes / 1024;
  let unit = 0;
  for (; value >= 1024 && unit < units.length - 1; unit++) value /= 1024;
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}

function changeIcon(change: BoxFileChange["change"]): string {
  return change === "added" ? "$(diff-added)" : change === "deleted" ? "$(diff-removed)" : "$(diff-modified)";
}

function isPreviewArgs(value: unknown): value is PreviewArgs {
  return typeof value === "object" && value !== null && typeof (value as PreviewArgs).uri === "string" && typeof (value as PreviewArgs).export === "string";
}
