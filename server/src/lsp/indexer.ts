/**
 * Reading a company's files into its index, as the server indexes: each file's open document's
 * text, else the disk's, in batches of `READ_BATCH_MS` with the requests answered between them, the
 * file rules run ahead of the first check, the lockfile read in slices of its own.
 */
import * as path from "node:path";
import type { Company } from "../core/model.ts";
import type { LockText } from "../core/types.ts";
import type { Workspace } from "../core/workspace.ts";
import type { OpenDocuments } from "./documents.ts";
import { BATCH_MS, inSlices, yieldToRequests } from "./slices.ts";

/** How often indexing reports its progress. */
const REPORT_MS = 100;

export interface ReadingFiles {
  /** How far it got (files read), every `REPORT_MS` or so. */
  progress(read: number): void;
  /** One more file read. */
  read(): void;
  /** The company was dropped meanwhile: stop. */
  dropped(): boolean;
}

/**
 * How long a batch of reading files holds the event loop: half of `BATCH_MS`. A file's reading is
 * uneven (a big one takes milliseconds past the mark), and the young generation's collections fall
 * in the batches: at 100,000 files, 10 ms batches kept a request waiting up to 109–113 ms, 5 ms
 * ones 74–84 ms, the index no slower that we could measure (docs/bench.md).
 */
export const READ_BATCH_MS = BATCH_MS / 2;

/** Reads `files` of `company`; resolves with how many were read (fewer when the company was dropped meanwhile). */
export async function readFiles(ws: Workspace, documents: OpenDocuments, company: Company, files: readonly string[], on: ReadingFiles): Promise<number> {
  const root = company.root;
  let done = 0;
  let t = performance.now();
  let reportedAt = t;
  // Open documents are few: looked up by path, not by a URI made for every file. They change only while the loop yields.
  let open = documents.byPath();
  for (const file of files) {
    const doc = open.get(file);
    if (file === company.lockPath) {
      // Read here, in slices of its own (500,000 bindings are 40 MB, and take a second to judge),
      // the text itself a piece a slice where the file system can, not in the first check.
      await yieldToRequests();
      ws.setLockText(company, await readLockText(ws, documents, company));
      await yieldToRequests();
      await inSlices(ws.lockSteps(root));
      await yieldToRequests();
      open = documents.byPath();
      t = performance.now();
    } else {
      if (doc) ws.setFile(company, file, doc.getText()); else ws.readFromDisk(company, file);
      ws.warmFileRules(root, file);
    }
    done++;
    on.read();
    const now = performance.now();
    if (now - t > READ_BATCH_MS) {
      if (now - reportedAt > REPORT_MS) { on.progress(done); reportedAt = now; }
      await yieldToRequests();
      if (on.dropped()) break;
      open = documents.byPath();
      t = performance.now();
    }
  }
  return done;
}

/**
 * The company's lockfile as it is now: the editor's text if it is open (then or by the end),
 * else read from disk a piece a slice where the file system can (500,000 bindings are 40 MB).
 */
export async function readLockText(ws: Workspace, documents: OpenDocuments, company: Company): Promise<LockText | undefined> {
  const file = company.lockPath;
  const open = documents.byPath().get(file);
  if (open) return open.getText();
  const text = ws.fs.readFileSteps ? await inSlices(ws.fs.readFileSteps(file)) : ws.fs.readFile(file);
  return documents.byPath().get(file)?.getText() ?? text;
}

/** A path that changed while its company was being indexed: the file, or everything under the folder, read again (an open file's editor text wins). */
export function rereadAfterIndex(ws: Workspace, documents: OpenDocuments, company: Company, file: string): void {
  if (documents.isOpen(file) || file === company.lockPath) return; // (the lockfile: read again by the session, in slices)
  const prefix = file + path.sep;
  const open = documents.byPath();
  for (const f of company.files.keys()) if (f.startsWith(prefix) && !open.has(f)) ws.readFromDisk(company, f);
  if (ws.fs.isDir(file)) { readNewFilesUnder(ws, company, file); return; }
  if (company.files.has(file) || (ws.reads(company.root, file) && ws.fs.isFile(file))) ws.readFromDisk(company, file);
}

/** Reads the company's files under a folder that its index does not hold yet (walking that folder only: a checkout makes many). */
export function readNewFilesUnder(ws: Workspace, company: Company, dir: string): void {
  for (const f of ws.listFiles(company.root, dir)) if (!company.files.has(f)) ws.readFromDisk(company, f);
}
