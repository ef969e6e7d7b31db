/**
 * The box's side of a change, as the editor shows it (Show Box Changes, and Compare before an
 * overwrite): a read-only document of the scheme `sanoma-box`, whose text is the box's file read
 * as the server reads one (`server/src/boxes/files.ts`'s `openRegular`: one descriptor, no link
 * followed, never blocking, a regular file where it was asked for). Opened as an ordinary file, it
 * was an editor like any other: a box that then swapped the file for a link (to your `~/.bashrc`)
 * had your saves there written through it. Without `vscode`, so that tests run it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { openRegular } from "../../server/src/boxes/files.ts";
import type { BoxFileChange } from "../../server/src/protocol.ts";

/** The scheme of the box's side's documents: VS Code offers no saving of what a content provider gives. */
export const BOX_FILE_SCHEME = "sanoma-box";

/** The most of a box's file shown: a box can make one of terabytes (a sparse file), which the extension would read whole. */
export const SHOWN_BYTES = 16 * 1024 * 1024;

/**
 * Where the box's side of a change is shown: its path (whose name gives the editor its language)
 * in the `sanoma-box` scheme, never `file`, with its path in the box (`rel`) in the query.
 * Undefined when the change has no box file to show (a deletion, or what apply refuses).
 */
export function boxSideOf(file: Pick<BoxFileChange, "path" | "boxFile" | "refused">): { scheme: string; fsPath: string; query: string } | undefined {
  if (file.boxFile === undefined || file.refused !== undefined) return undefined;
  return { scheme: BOX_FILE_SCHEME, fsPath: file.boxFile, query: new URLSearchParams({ rel: file.path }).toString() };
}

/** The path in the box a `sanoma-box` document's query names. */
export function relOf(query: string): string {
  return new URLSearchParams(query).get("rel") ?? "";
}

/**
 * The text of the box's file at `boxFile` (`rel` below the box's home, as the diff lists it), read
 * from one descriptor opened without following a link or blocking, and only where it is a regular
 * file at that very place in the box (the boxes folder resolved; the home, and each folder in it,
 * never followed); otherwise a sentence saying why it is not shown. At most `SHOWN_BYTES`.
 */
export function boxFileText(boxFile: string, rel: string): string {
  const suffix = `${path.sep}${rel.split("/").join(path.sep)}`;
  if (rel === "" || !boxFile.endsWith(suffix)) return notShown(rel || boxFile, "it is not in the box the diff named");
  const home = boxFile.slice(0, -suffix.length);
  let expected: string;
  try {
    expected = path.join(fs.realpathSync(path.dirname(home)), path.basename(home)) + suffix;
  } catch {
    return notShown(rel, "the box is gone");
  }
  const opened = openRegular(boxFile, expected);
  if (!("fd" in opened)) return notShown(rel, `${opened.problem} in the box now`);
  try {
    const size = Number(opened.stat.size);
    if (size > SHOWN_BYTES) return notShown(rel, `it holds ${size.toLocaleString("en")} bytes in the box, more than the ${SHOWN_BYTES / 1024 / 1024} MiB shown here`);
    const buffer = Buffer.alloc(size);
    let read = 0;
    for (let n; read < size && (n = fs.readSync(opened.fd, buffer, read, size - read, read)) > 0;) read += n;
    return new TextDecoder().decode(buffer.subarray(0, read));
  } finally {
    opened.close();
  }
}

function notShown(rel: string, why: string): string {
  return `Sanoma: the box's ${rel} is not shown: ${why}. Show the box's changes again.\n`;
}
