/**
 * The Sanoma VS Code extension's entry: starts the language server (server.ts), shows what it
 * knows (statusBar.ts, companies.ts), opens rule docs from problems (ruleDocs.ts), runs previews in
 * local boxes (boxes.ts), and tells the TypeScript plugin it contributes what the server reports
 * (tsPlugin.ts). Everything the user can do is a command with the `Sanoma`
 * category, declared in the root package.json.
 *
 * Architecture invariant: the extension holds no analysis of its own. What it shows comes from the
 * server, through LSP and the custom requests of server/src/protocol.ts.
 */
import * as vscode from "vscode";
import { Boxes } from "./boxes.ts";
import { Companies } from "./companies.ts";
import { openRuleDocs, RuleDocsActions } from "./ruleDocs.ts";
import { errorText, ServerHost } from "./server.ts";
import { StatusBar } from "./statusBar.ts";
import { formatMs } from "./statusView.ts";
import { TsPluginLink } from "./tsPlugin.ts";

/** Commands the extension implements itself even when the server also announces them. */
const ownCommands = new Set(["sanoma.checkWorkspace", "sanoma.preview"]);

let host: ServerHost | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const output = vscode.window.createOutputChannel("Sanoma", { log: true });
  host = new ServerHost({ context, output, ownCommands });
  const statusBar = new StatusBar(host, output);
  const companies = new Companies(host, statusBar);
  const boxes = new Boxes(context, host, output);
  const tsPlugin = new TsPluginLink(host, output);
  context.subscriptions.push(output, host, statusBar, companies, boxes, tsPlugin);

  const server = host;
  const command = (id: string, run: (...args: unknown[]) => unknown) =>
    context.subscriptions.push(vscode.commands.registerCommand(id, async (...args: unknown[]) => {
      try {
        return await run(...args);
      } catch (error) {
        output.error(`${id}: ${errorText(error)}`);
        void vscode.window.showErrorMessage(`Sanoma: ${errorText(error)}`, "Show Output").then((c) => c && output.show());
        return undefined;
      }
    }));

  command("sanoma.restartServer", async () => {
    output.info("restarting the language server (asked by the user)");
    await server.restart();
  });
  command("sanoma.showOutput", () => output.show());
  command("sanoma.showCompanies", () => companies.show());
  command("sanoma.revealCompanyRoot", () => companies.revealRoot());
  command("sanoma.openRuleDocs", (href) => openRuleDocs(href));
  command("sanoma.checkWorkspace", () => checkWorkspace(server, statusBar));
  boxes.registerCommands(command);

  context.subscriptions.push(
    vscode.languages.registerCodeActionsProvider(
      [{ scheme: "file", language: "typescript" }, { scheme: "file", language: "typescriptreact" }, { scheme: "file", language: "javascript" }, { scheme: "file", pattern: "**/sanoma.lock.json" }],
      new RuleDocsActions(),
      { providedCodeActionKinds: RuleDocsActions.kinds },
    ),
  );

  // The TypeScript plugin hears of the language server before tsserver's first diagnostics when it
  // can (the TypeScript extension sends the configuration to a server it starts later too).
  void tsPlugin.start();
  await server.start();
}

export async function deactivate(): Promise<void> {
  // Stopping the server also ends every box's processes (the server owns them).
  await host?.stop();
}

/** `sanoma.checkWorkspace`: the server re-checks every company now; the answer is a message. */
async function checkWorkspace(server: ServerHost, statusBar: StatusBar): Promise<void> {
  const started = Date.now();
  await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: "Sanoma: checking the workspace" }, () =>
    server.executeServerCommand("sanoma.checkWorkspace"));
  await statusBar.refreshAll();
  const status = statusBar.lastStatus;
  const took = status?.lastCheckMs ?? Date.now() - started;
  const files = status ? ` ${status.files} files in ${status.companies} ${status.companies === 1 ? "company" : "companies"}` : " the workspace";
  void vscode.window.showInformationMessage(`Sanoma: checked${files} in ${formatMs(took)}`);
}
