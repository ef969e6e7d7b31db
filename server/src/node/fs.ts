/** The core's FileSystem over Node's `fs`: every failure (missing, unreadable, vanished, a loop) is an undefined answer, never a throw. */
import * as fs from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { MAX_READ_BYTES, type DirEntry, type FileSystem, type TextInPieces } from "../core/types.ts";
import type { Steps } from "../core/steps.ts";

/** The most read of one file (core/types.ts says why). */
const READ_CAP = MAX_READ_BYTES;

/** What `readFileSteps` reads and decodes in one step: a few milliseconds. */
const PIECE = 1024 * 1024;

/**
 * One buffer that every `readFile` reads into first (the text is decoded out of it, so it is free
 * again at once): a source file fits whole, and no buffer is made for it.
 */
export const FIRST_READ_BYTES = 512 * 1024;
const FIRST_READ = Buffer.allocUnsafeSlow(FIRST_READ_BYTES);

/**
 * The rest of `readFile`, for what the first read could not tell: an empty file, a large one, or
 * no file (`undefined`); `head` is what has been read already. Never more than READ_CAP.
 */
function readRegularFile(fd: number, head: Buffer): string | undefined {
  const stat = fs.fstatSync(fd);
  if (!stat.isFile()) return undefined;
  const buf = Buffer.allocUnsafe(Math.max(Math.min(stat.size, READ_CAP) + 1, head.length + 1));
  head.copy(buf);
  const length = head.length + readUpTo(fd, buf, head.length, buf.length - head.length);
  return decodeText(buf, 0, length);
}

/**
 * A byte order mark is no part of the text: editors and linters drop it, and every column of the
 * first line would be one off (and an edit made there one character wrong) if it stayed.
 */
function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Opens a file to read it, without blocking: a FIFO named like a source file would wait for a
 * writer for ever (a watcher can name one, a box can rename one into a file's place). Throws as
 * `openSync` does.
 */
export function openToRead(path: string): number {
  return fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
}

/** Reads from `fd` into `buf` at `at`, up to `cap` bytes or the file's end: how many it read. */
export function readUpTo(fd: number, buf: Buffer, at: number, cap: number): number {
  let length = 0;
  for (let n; length < cap && (n = fs.readSync(fd, buf, at + length, cap - length, null)) > 0;) length += n;
  return length;
}

/** A file's text from its bytes `start` to `end` in `buf`: UTF-8, without a byte order mark (what `readFile` gives). */
export function decodeText(buf: Buffer, start: number, end: number): string {
  return withoutByteOrderMark(buf.toString("utf8", start, end));
}

export const nodeFileSystem: FileSystem = {
  readFile(path) {
    let fd: number | undefined;
    try {
      fd = openToRead(path);
      // Read to its end (a read of nothing) without asking what it is first: `fstat` and the
      // object Node makes of its answer were a fifth of the time a check spent reading 10,000
      // files. A folder fails its read; a FIFO without a writer, or a device, reads nothing or
      // fills the buffer, and is asked then (a FIFO whose writer wrote and left reads as the text
      // it was given: no wait either way).
      const length = readUpTo(fd, FIRST_READ, 0, FIRST_READ.length);
      if (length === 0 || length === FIRST_READ.length) return readRegularFile(fd, FIRST_READ.subarray(0, length));
      return decodeText(FIRST_READ, 0, length);
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined) try { fs.closeSync(fd); } catch { /* already gone */ }
    }
  },
  *readFileSteps(path): Steps<TextInPieces | undefined> {
    let fd: number | undefined;
    try {
      fd = openToRead(path);
      if (!fs.fstatSync(fd).isFile()) return undefined;
      // A piece read and decoded a step (a streaming decoder keeps a character cut between two
      // pieces whole), cut after its last line end: what follows it starts the next piece, so no
      // line is ever cut. Never more than READ_CAP, as `readFile`.
      const decoder = new StringDecoder("utf8");
      const piece = Buffer.allocUnsafe(PIECE);
      const pieces: string[] = [];
      let line: string[] = []; // the parts read of a line not ended yet
      let length = 0;
      for (let n; length <= READ_CAP && (n = fs.readSync(fd, piece, 0, Math.min(PIECE, READ_CAP + 1 - length), null)) > 0;) {
        length += n;
        const text = decoder.write(piece.subarray(0, n));
        const end = text.lastIndexOf("\n") + 1;
        if (end === 0) line.push(text);
        else {
          line.push(text.slice(0, end));
          pieces.push(line.length === 1 ? line[0] : line.join(""));
          line = [text.slice(end)];
        }
        yield;
      }
      line.push(decoder.end());
      const last = line.join("");
      if (last !== "" || pieces.length === 0) pieces.push(last);
      pieces[0] = withoutByteOrderMark(pieces[0]);
      return pieces;
    } catch {
      return undefined;
    } finally {
      if (fd !== undefined) try { fs.closeSync(fd); } catch { /* already gone */ }
    }
  },
  readDir(path) {
    try {
      return fs.readdirSync(path, { withFileTypes: true }).map((d): DirEntry => ({
        name: d.name,
        kind: d.isFile() ? "file" : d.isDirectory() ? "dir" : d.isSymbolicLink() ? "symlink" : "other",
      }));
    } catch {
      return undefined;
    }
  },
  isFile(path) {
    try { return fs.statSync(path).isFile(); } catch { return false; }
  },
  isDir(path) {
    try { return fs.statSync(path).isDirectory(); } catch { return false; }
  },
  realPath(path) {
    try { return fs.realpathSync.native(path); } catch { return undefined; }
  },
  mayExist(path) {
    // (`lstat`: a link that leads nowhere is there. Only "no such entry" is a no: a folder that
    // cannot be searched may still list the name.)
    try { return fs.lstatSync(path, { throwIfNoEntry: false }) !== undefined; } catch (e) { return (e as NodeJS.ErrnoException).code !== "ENOTDIR"; }
  },
};
