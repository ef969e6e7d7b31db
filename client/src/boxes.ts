/**
 * Local boxes and previews in the editor (SPEC B5): the `sanoma.preview` command and the Boxes
 * view. Written against the `sanoma/boxes/*` requests of server/src/protocol.ts.
 */
import * as vscode from "vscode";
import type { ServerHost } from "./server.ts";

type Register = (id: string, run: (...args: unknown[]) => unknown) => void;

export class Boxes implements vscode.Disposable {
  constructor(_context: vscode.ExtensionContext, _server: ServerHost, _output: vscode.LogOutputChannel) {}

  registerCommands(command: Register): void {
    for (const id of ["sanoma.preview", "sanoma.boxes.refresh", "sanoma.boxes.openFolder", "sanoma.boxes.showOutput", "sanoma.boxes.stop", "sanoma.boxes.discard", "sanoma.boxes.showChanges", "sanoma.boxes.apply", "sanoma.boxes.openPort"]) {
      command(id, () => vscode.window.showInformationMessage("Sanoma: boxes are not available yet"));
    }
  }

  dispose(): void {}
}
