/**
 * The status bar item: the active file's company and scope (`acme › billing`), indexing progress,
 * the last check's time in its tooltip, and a warning state when the server failed or a check was
 * slow (the tooltip says why and links to the output). A click shows the companies.
 */
import * as vscode from "vscode";
import {
  CompanyOfRequest,
  StatusChangedNotification,
  StatusRequest,
  type CompanyOfParams,
  type CompanyOfResult,
  type StatusResult,
} from "../../server/src/protocol.ts";
import { errorText, type ServerHost, type ServerState } from "./server.ts";
import { formatMs, slowCheckMs, statusView } from "./statusView.ts";

const pollWhileIndexingMs = 500;

export class StatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly disposables: vscode.Disposable[] = [];
  private company: CompanyOfResult | null = null;
  private status: StatusResult | undefined;
  private poll: NodeJS.Timeout | undefined;
  private companyRequest = 0;
  private reportedSlowAt: number | undefined;
  private readonly statusChanged = new vscode.EventEmitter<StatusResult>();
  /** Each status the server reports: after each check, and while indexing. */
  readonly onDidChangeStatus = this.statusChanged.event;

  constructor(private readonly server: ServerHost, private readonly output: vscode.LogOutputChannel) {
    this.item = vscode.window.createStatusBarItem("sanoma.status", vscode.StatusBarAlignment.Left, 10);
    this.item.name = "Sanoma";
    this.item.command = "sanoma.showCompanies";
    this.disposables.push(
      this.item,
      this.statusChanged,
      server.onDidChangeState((state) => {
        if (state.kind === "running") void this.refreshAll();
        this.render();
      }),
      vscode.window.onDidChangeActiveTextEditor(() => void this.refreshCompany()),
    );
    server.onNotification(StatusChangedNotification, (params) => void this.onStatusChanged(params));
    this.render();
  }

  /** The latest status the server reported. */
  get lastStatus(): StatusResult | undefined {
    return this.status;
  }

  async refreshAll(): Promise<void> {
    await Promise.all([this.refreshStatus(), this.refreshCompany()]);
  }

  dispose(): void {
    clearTimeout(this.poll);
    for (const d of this.disposables) d.dispose();
  }

  private async onStatusChanged(params: unknown): Promise<void> {
    // The notification may carry the status; when it does not, ask for it.
    if (isStatus(params)) this.setStatus(params);
    else await this.refreshStatus();
    // A finished indexing may have found the active file's company.
    await this.refreshCompany();
  }

  private async refreshStatus(): Promise<void> {
    const client = this.server.client;
    if (!client) return;
    try {
      this.setStatus(await client.sendRequest<StatusResult>(StatusRequest));
    } catch (error) {
      this.output.warn(`${StatusRequest}: ${errorText(error)}`);
    }
  }

  private setStatus(status: StatusResult): void {
    this.status = status;
    clearTimeout(this.poll);
    // Indexing reports its end by notification; the counts in between are polled.
    if (status.state === "indexing") this.poll = setTimeout(() => void this.refreshStatus(), pollWhileIndexingMs);
    if (status.lastCheckMs !== undefined && status.lastCheckMs > slowCheckMs && status.lastCheckAt !== this.reportedSlowAt) {
      this.reportedSlowAt = status.lastCheckAt;
      this.output.warn(`a company-wide check took ${status.lastCheckMs} ms (more than ${slowCheckMs} ms) over ${status.files} files`);
    }
    this.render();
    this.statusChanged.fire(status);
  }

  private async refreshCompany(): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    const client = this.server.client;
    const ticket = ++this.companyRequest;
    if (!editor || editor.document.uri.scheme !== "file" || !client) {
      // Keep the last company while focus is in a panel or an output; a file switch replaces it.
      if (!client) this.company = null;
      this.render();
      return;
    }
    try {
      const params: CompanyOfParams = { uri: editor.document.uri.toString() };
      const result = await client.sendRequest<CompanyOfResult | null>(CompanyOfRequest, params);
      if (ticket === this.companyRequest) this.company = result ?? null;
    } catch (error) {
      this.output.warn(`${CompanyOfRequest}: ${errorText(error)}`);
      if (ticket === this.companyRequest) this.company = null;
    }
    this.render();
  }

  private render(): void {
    const state: ServerState = this.server.state;
    const status = this.status;
    const item = this.item;
    const view = statusView(state, status, this.company);
    const warning = view.warning;
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.isTrusted = { enabledCommands: ["sanoma.showOutput", "sanoma.restartServer", "sanoma.showCompanies", "sanoma.checkWorkspace"] };
    tooltip.supportThemeIcons = true;
    item.text = view.text;

    if (this.company) {
      tooltip.appendMarkdown(`**${escape(this.company.name)}**, ${this.company.scope ? `app \`${this.company.scope}\`` : "root scope"}`);
      if (this.company.kind) tooltip.appendMarkdown(` · ${escape(this.company.kind)}`);
      tooltip.appendMarkdown(`  \n\`${this.company.root}\`\n\n`);
    } else {
      tooltip.appendMarkdown("**Sanoma**: the active file belongs to no company\n\n");
    }
    if (state.kind === "starting") tooltip.appendMarkdown("Starting the language server…\n\n");
    if (status) {
      tooltip.appendMarkdown(`${status.companies} ${plural(status.companies, "company", "companies")}, ${status.files} files`);
      tooltip.appendMarkdown(status.state === "indexing" ? ` · indexing ${status.indexedFiles}/${status.files}\n\n` : "\n\n");
      if (status.lastCheckAt !== undefined) {
        tooltip.appendMarkdown(`Last check: ${new Date(status.lastCheckAt).toLocaleTimeString()}`);
        tooltip.appendMarkdown(status.lastCheckMs !== undefined ? ` (${formatMs(status.lastCheckMs)})\n\n` : "\n\n");
      }
    }
    if (warning) tooltip.appendMarkdown(`$(warning) ${escape(warning)}\n\n`);
    tooltip.appendMarkdown("[Companies](command:sanoma.showCompanies) · [Check now](command:sanoma.checkWorkspace) · [Output](command:sanoma.showOutput) · [Restart](command:sanoma.restartServer)");

    item.tooltip = tooltip;
    item.backgroundColor = warning ? new vscode.ThemeColor("statusBarItem.warningBackground") : undefined;
    // Screen readers, and the end-to-end test, read the state from this label.
    item.accessibilityInformation = { label: view.label };
    if (view.visible) item.show();
    else item.hide();
  }
}

function isStatus(value: unknown): value is StatusResult {
  return typeof value === "object" && value !== null && typeof (value as StatusResult).state === "string" && typeof (value as StatusResult).files === "number";
}

function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, "\\$&");
}
