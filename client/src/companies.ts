/**
 * The companies overview behind the status bar item: a quick pick of every company the server
 * knows (`sanoma/companies`), and for the chosen one a markdown preview of its apps, files and
 * counts, with links to reveal its root and open its config. Also "reveal company root". An open
 * overview follows its company: it is read again whenever the server reports a status (after each
 * check, and while indexing), as the Problems panel would.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { CompaniesRequest, CompanyOfRequest, type CompaniesResult, type CompanyInfo, type CompanyOfResult } from "../../server/src/protocol.ts";
import type { ServerHost } from "./server.ts";
import type { StatusBar } from "./statusBar.ts";
import { companySummary, overviewMarkdown } from "./companiesView.ts";
import { formatMs } from "./statusView.ts";

/** Virtual documents `sanoma-overview:/<name>.md?<root>` rendered by the markdown preview. */
export const overviewScheme = "sanoma-overview";

export class Companies implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly server: ServerHost, private readonly statusBar: StatusBar) {
    this.disposables = [
      vscode.workspace.registerTextDocumentContentProvider(overviewScheme, this),
      statusBar.onDidChangeStatus(() => this.refreshOpenOverviews()),
      this.changed,
    ];
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  /** Reads every open overview again (the markdown preview follows its document). */
  private refreshOpenOverviews(): void {
    for (const doc of vscode.workspace.textDocuments) {
      if (doc.uri.scheme === overviewScheme && !doc.isClosed) this.changed.fire(doc.uri);
    }
  }

  async list(): Promise<CompanyInfo[]> {
    const result = await this.server.requireClient().sendRequest<CompaniesResult>(CompaniesRequest);
    return [...(result?.companies ?? [])].sort((a, b) => a.name.localeCompare(b.name) || a.root.localeCompare(b.root));
  }

  async companyOf(uri: vscode.Uri): Promise<CompanyOfResult | null> {
    return (await this.server.requireClient().sendRequest<CompanyOfResult | null>(CompanyOfRequest, { uri: uri.toString() })) ?? null;
  }

  /** The status bar's click: companies first, then what to do when something is wrong. */
  async show(): Promise<void> {
    type Item = vscode.QuickPickItem & { company?: CompanyInfo; command?: string };
    const items: Item[] = [];
    const state = this.server.state;
    if (state.kind === "failed" || state.kind === "restarting") {
      items.push({ label: `$(warning) ${state.reason}`, detail: "Show the output to see why", command: "sanoma.showOutput" });
    }
    let companies: CompanyInfo[] = [];
    if (this.server.client) companies = await this.list();
    const active = vscode.window.activeTextEditor?.document.uri;
    for (const company of companies) {
      const mine = active?.scheme === "file" && isInside(active.fsPath, company.root);
      items.push({
        label: `${mine ? "$(arrow-right) " : ""}${company.leftOut !== undefined ? "$(circle-slash) " : ""}${company.name}`,
        description: vscode.workspace.asRelativePath(company.root),
        detail: companySummary(company),
        company,
      });
    }
    if (companies.length === 0 && this.server.client) items.push({ label: "No company found", detail: "A company root is a folder holding sanoma.config.ts" });
    const status = this.statusBar.lastStatus;
    items.push(
      { label: "", kind: vscode.QuickPickItemKind.Separator },
      { label: "$(refresh) Check Workspace Now", description: status?.lastCheckMs !== undefined ? `last check ${formatMs(status.lastCheckMs)}` : undefined, command: "sanoma.checkWorkspace" },
      { label: "$(output) Show Output", command: "sanoma.showOutput" },
      { label: "$(debug-restart) Restart Language Server", command: "sanoma.restartServer" },
    );
    const picked = await vscode.window.showQuickPick(items, { title: "Sanoma companies", placeHolder: "Choose a company to see its overview", matchOnDescription: true });
    if (!picked) return;
    if (picked.command) await vscode.commands.executeCommand(picked.command);
    else if (picked.company) await this.openOverview(picked.company);
  }

  async openOverview(company: CompanyInfo): Promise<void> {
    const uri = vscode.Uri.from({ scheme: overviewScheme, path: `/${company.name}.md`, query: company.root });
    this.changed.fire(uri);
    await vscode.commands.executeCommand("markdown.showPreview", uri);
  }

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const companies = this.server.client ? await this.list() : [];
    const company = companies.find((c) => c.root === uri.query);
    if (!company) return `# Sanoma\n\nNo company at \`${uri.query}\` (the language server may still be starting).\n`;
    return overviewMarkdown(company);
  }

  /** Reveals the active file's company root in the Explorer, or lets the user pick a company. */
  async revealRoot(): Promise<void> {
    const active = vscode.window.activeTextEditor?.document.uri;
    let root: string | undefined;
    if (active?.scheme === "file") root = (await this.companyOf(active))?.root;
    if (!root) {
      const companies = await this.list();
      if (companies.length === 0) {
        void vscode.window.showInformationMessage("Sanoma: no company found in this workspace");
        return;
      }
      root = companies.length === 1
        ? companies[0]!.root
        : (await vscode.window.showQuickPick(companies.map((c) => ({ label: c.name, description: vscode.workspace.asRelativePath(c.root), root: c.root })), { title: "Reveal which company's root?" }))?.root;
    }
    if (!root) return;
    const config = vscode.Uri.file(path.join(root, "sanoma.config.ts"));
    await vscode.commands.executeCommand("revealInExplorer", config);
  }
}

/** Whether `file` lies in the folder `root` (both absolute). */
export function isInside(file: string, root: string): boolean {
  const rel = path.relative(root, file);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}
