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
  const file = where.company.files.get(where.file);
  // A file not read (over 2 MB, binary) is no file of the company to any feature: parsing a 5 MB
  // line to complete in it took seconds and a gigabyte and a half.
  if (file?.skipped) return undefined;
  return { analysis: result.analysis, file, path: where.file, root: where.company.root };
}
