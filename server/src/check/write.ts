/** How `sanoma-check --fix` writes a file: only over the text it made its fixes on, never through a link, never a file that is not UTF-8. */
import * as fs from "node:fs";
import type { WriteResult } from "./cli.ts";

const { O_RDONLY, O_RDWR, O_NOFOLLOW, O_NONBLOCK } = fs.constants;

/** Why `--fix` leaves a file alone, whatever its fixes. */
const LINK = "is a symlink: not fixed (a fix would be written where it leads, maybe outside the company; fix that file itself)";
const NOT_UTF8 = "is not UTF-8: not fixed (writing its text back would change bytes no fix touches)";
const NOT_A_FILE = "is no regular file any more: not fixed";

/** Whether bytes are UTF-8 as they are: decoded and encoded again, the same bytes (no U+FFFD made in place of a stray byte). */
function isUtf8(bytes: Buffer): boolean {
  return Buffer.from(bytes.toString("utf8"), "utf8").equals(bytes);
}

/**
 * Opens a file to fix without following a link at its end and without blocking (a FIFO put in its
 * place); the descriptor, or why it is not to be fixed ("changed": it is gone now; "failed": it
 * may not be opened so, no permission or a read-only file system).
 */
function openToFix(file: string, flags: number): { fd: number } | { refusal: string } {
  let fd: number;
  try {
    fd = fs.openSync(file, flags | O_NOFOLLOW | O_NONBLOCK);
  } catch (e) {
    // ELOOP: the last segment is a link (O_NOFOLLOW); on some systems EMLINK or EFTYPE.
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ELOOP" || code === "EMLINK" || code === "EFTYPE") return { refusal: LINK };
    return { refusal: code === "EACCES" || code === "EPERM" || code === "EROFS" || code === "ETXTBSY" ? "failed" : "changed" };
  }
  try {
    if (fs.fstatSync(fd).isFile()) return { fd };
  } catch { /* gone meanwhile */ }
  fs.closeSync(fd);
  return { refusal: NOT_A_FILE };
}

/**
 * Why `--fix` (and `--fix-dry-run`) leaves a file alone whatever its fixes, or undefined: a link
 * (its fixes would land where it leads), a file whose bytes are not UTF-8 (its text, as read, has
 * U+FFFD for them), no regular file. A file gone is left to the write to say.
 */
export function fixRefusal(file: string): string | undefined {
  const opened = openToFix(file, O_RDONLY);
  if ("refusal" in opened) return opened.refusal === "changed" || opened.refusal === "failed" ? undefined : opened.refusal;
  try {
    return isUtf8(fs.readFileSync(opened.fd)) ? undefined : NOT_UTF8;
  } catch {
    return undefined;
  } finally {
    fs.closeSync(opened.fd);
  }
}

/**
 * Writes `after` over a file whose text (a byte order mark aside, as the check reads it) is still
 * `before`, read again at this moment through the descriptor it is then written through; keeps the
 * file's mark, mode and inode (an editor holding it open sees the change). A file changed since it
 * was read is left alone: "changed"; so is one that became a link, a FIFO or bytes that are not UTF-8.
 */
export function writeIfUnchanged(file: string, before: string, after: string): WriteResult {
  const opened = openToFix(file, O_RDWR);
  if ("refusal" in opened) return opened.refusal === "failed" ? "failed" : "changed";
  const { fd } = opened;
  try {
    let bytes: Buffer;
    try { bytes = fs.readFileSync(fd); } catch { return "changed"; }
    if (!isUtf8(bytes)) return "changed";
    const raw = bytes.toString("utf8");
    const bom = raw.charCodeAt(0) === 0xfeff;
    if ((bom ? raw.slice(1) : raw) !== before) return "changed";
    try {
      const out = Buffer.from((bom ? "\ufeff" : "") + after, "utf8");
      fs.ftruncateSync(fd, 0);
      for (let at = 0; at < out.length; ) at += fs.writeSync(fd, out, at, out.length - at, at);
      return "written";
    } catch {
      return "failed";
    }
  } finally {
    fs.closeSync(fd);
  }
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
