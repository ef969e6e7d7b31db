/** Code lenses: above each exported workflow of a workflow source, "Preview in a box". */
import type { CodeLens, CodeLensParams } from "vscode-languageserver/node";
import type { Session } from "../session.ts";
import { locate } from "./target.ts";

export const PREVIEW_COMMAND = "sanoma.preview";

export function codeLenses(session: Session, params: CodeLensParams): CodeLens[] {
  const loc = locate(session, params.textDocument.uri);
  const file = loc?.file;
  if (!file?.role.isWorkflowSource || !file.facts) return [];
  return file.facts.workflows.map((w) => ({
    range: w.range,
    command: { title: "▶ Preview in a box", command: PREVIEW_COMMAND, arguments: [{ uri: params.textDocument.uri, export: w.name }] },
  }));
}
