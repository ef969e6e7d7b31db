/**
 * The TypeScript plugin the extension contributes to VS Code's TypeScript server
 * (`contributes.typescriptServerPlugins`, shipped in the .vsix under `node_modules/`): told through
 * the TypeScript extension's `configurePlugin` whether the Sanoma language server is running. While
 * it runs, it reports every problem and answers completion, definitions and hovers, and the plugin
 * adds none of them (each would show twice) but renames a declaration's lock binding with it; once
 * the server is down for good (it stopped 5 times in 3 minutes), the plugin reports the open files'
 * problems inside TypeScript's own, until the server is back. See docs/vscode.md.
 */
import * as vscode from "vscode";
import type { ServerHost, ServerState } from "./server.ts";

export const TS_PLUGIN = "@sanoma-ai/typescript-plugin";
const TS_EXTENSION = "vscode.typescript-language-features";

interface TypeScriptApi { configurePlugin(pluginId: string, configuration: unknown): void }

/** Whether the language server answers for the files, as the plugin needs to know: all but a server given up on. */
export function languageServerAnswers(state: ServerState): boolean {
  return state.kind !== "failed";
}

export class TsPluginLink implements vscode.Disposable {
  private api: TypeScriptApi | undefined;
  private told: boolean | undefined;
  private readonly listening: vscode.Disposable;

  constructor(private readonly host: ServerHost, private readonly output: vscode.LogOutputChannel) {
    this.listening = host.onDidChangeState((state) => this.tell(languageServerAnswers(state)));
  }

  /** Finds the TypeScript extension's API (activating it) and tells the plugin where things stand. */
  async start(): Promise<void> {
    try {
      const ext = vscode.extensions.getExtension<{ getAPI?(version: 0): TypeScriptApi | undefined }>(TS_EXTENSION);
      if (!ext) { this.output.info("the TypeScript extension is not there: the TypeScript plugin is not told of the language server"); return; }
      const exports = ext.isActive ? ext.exports : await ext.activate();
      this.api = exports?.getAPI?.(0);
      if (!this.api) { this.output.warn("the TypeScript extension has no API: the TypeScript plugin is not told of the language server"); return; }
      this.told = undefined;
      this.tell(languageServerAnswers(this.host.state));
    } catch (error) {
      this.output.warn(`telling the TypeScript plugin of the language server failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private tell(languageServer: boolean): void {
    if (!this.api || this.told === languageServer) return;
    this.told = languageServer;
    this.api.configurePlugin(TS_PLUGIN, { languageServer });
    this.output.info(`told the TypeScript plugin: ${languageServer ? "the language server reports the problems" : "the language server is down: the plugin reports the open files' problems"}`);
  }

  dispose(): void {
    this.listening.dispose();
  }
}
