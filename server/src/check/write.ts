/** How `sanoma-check --fix` writes a file: only over the text it made its fixes on. */
import * as fs from "node:fs";
import type { WriteResult } from "./cli.ts";

/**
 * Writes `after` over a file whose text (a byte order mark aside, as the check reads it) is still
 * `before`, read again at this moment; keeps the file's mark, mode and inode (an editor holding
 * it open sees the change). A file changed since it was read is left alone: "changed".
 */
export function writeIfUnchanged(file: string, before: string, after: string): WriteResult {
  let raw: string;
  try { raw = fs.readFileSync(file, "utf8"); } catch { return "changed"; }
  const bom = raw.charCodeAt(0) === 0xfeff;
  if ((bom ? raw.slice(1) : raw) !== before) return "changed";
  try { fs.writeFileSync(file, (bom ? "\ufeff" : "") + after); return "written"; } catch { return "failed"; }
}

/** Whether a file starts with a UTF-8 byte order mark (which the check's reading drops): a diff of it shows the mark, as `git apply` and `patch` read the file. */
export function startsWithByteOrderMark(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
    const head = Buffer.alloc(3);
    return fs.readSync(fd, head, 0, 3, 0) === 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) try { fs.closeSync(fd); } catch { /* already gone */ }
  }
}
