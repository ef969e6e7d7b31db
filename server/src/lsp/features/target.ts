/**
 * What is under the cursor (`core/target.ts`, shared with the TypeScript plugin), for a document
 * of the language server: its company, the company's last analysis and the file's entry.
 */
import type { Session } from "../session.ts";
import type { Located } from "../../core/target.ts";

export { targetAt, referencesTo, type Located, type Target } from "../../core/target.ts";

export function locate(session: Session, uri: string): Located | undefined {
  const where = session.locate(uri);
  if (!where) return undefined;
  const result = session.resultOf(where.company.root);
  if (!result) return undefined;
  return { analysis: result.analysis, file: where.company.files.get(where.file), path: where.file, root: where.company.root };
}
