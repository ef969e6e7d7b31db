/** Box and preview requests (SPEC B5): wired to the box service once it exists. */
import type { Connection, InitializeParams } from "vscode-languageserver/node";
import type { Session } from "../session.ts";

export function attachBoxes(_connection: Connection, _session: Session, _params: InitializeParams): () => Promise<void> {
  return async () => undefined;
}
