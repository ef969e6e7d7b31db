/**
 * Reading a box's files, and writing into the workspace, without trusting what the box made
 * (SPEC B5: `diff` and `apply` are a security boundary).
 *
 * A box's file is read from **one descriptor**: opened without following a link (`O_NOFOLLOW`) and
 * without blocking (`O_NONBLOCK`: a FIFO opens at once instead of waiting for a writer that never
 * comes), checked with `fstat` to be a regular file, and checked to be where it was asked for
 * (`/proc/self/fd`: a folder on the way that the box swapped for a link leads elsewhere). What is
 * compared and what is copied are then that descriptor's bytes, and its `fstat` is the file's
 * fingerprint: a file changed since the diff has another one. Not always: a write into a page of
 * a shared mapping (`mmap`) that is already dirty moves no time of the file, so what the diff
 * shows is also hashed (`hashBytes`), and a copy is kept only when what it read hashes the same.
 *
 * A file is written into the workspace only under real folders of the company (each parent
 * `lstat`-ed at write time: never a link), beside its target under a name of its own (created with
 * `O_EXCL | O_NOFOLLOW`), then renamed into place: a link at the target is never written through.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { createHash, randomBytes } from "node:crypto";

/** What is at a path, as a walk or `fstat` sees it. */
export type EntryKind = "file" | "link" | "fifo" | "socket" | "device" | "folder";

/** The kind of an `lstat`/`fstat` result. */
export function kindOf(stat: fs.Stats | fs.BigIntStats): EntryKind {
  if (stat.isFile()) return "file";
  if (stat.isSymbolicLink()) return "link";
  if (stat.isDirectory()) return "folder";
  if (stat.isFIFO()) return "fifo";
  if (stat.isSocket()) return "socket";
  return "device";
}

/** How a kind is named to the user. */
export function kindName(kind: EntryKind): string {
  switch (kind) {
    case "file": return "a file";
    case "link": return "a symlink";
    case "fifo": return "a FIFO (named pipe)";
    case "socket": return "a socket";
    case "device": return "a device";
    case "folder": return "a folder";
  }
}

/**
 * A file's identity and content as far as `fstat` tells: another file renamed into its place, or
 * a write, changes it (`ctime` moves with every write and cannot be set back by the box).
 */
export function fingerprintOf(stat: fs.BigIntStats): string {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
}

/** A regular file opened for reading; `close()` it. */
export interface OpenedFile {
  fd: number;
  stat: fs.BigIntStats;
  fingerprint: string;
  close(): void;
}

/** Why a path could not be opened as a regular file: it is not one (`kind`), or is gone or unreachable. */
export interface NotRegular {
  kind?: EntryKind;
  problem: string;
  /** It is there but cannot be read: the error's code (`EACCES`). */
  unreadable?: string;
}

/** Whether Linux's `/proc` tells where an open descriptor's file is (`whereIs`). */
export const HAS_PROC_FD = process.platform === "linux" && fs.existsSync("/proc/self/fd");

/**
 * Where an open descriptor's file really is (its path with every link resolved, from `/proc`), or
 * undefined where that cannot be told, or when it was reached through a mount of another mount
 * namespace: `/proc` then tells its path as that namespace sees it. A box that made a namespace of
 * its own (a nested `unshare -Urm`, a file of the machine bind-mounted at `<home>/d/x`) and left a
 * link to `/proc/<pid>/root<home>/d` in its home would otherwise have us read that file as its own.
 */
export function whereIs(fd: number): string | undefined {
  if (!HAS_PROC_FD) return undefined;
  try {
    const where = fs.readlinkSync(`/proc/self/fd/${fd}`);
    return inOwnMounts(fd) ? where : undefined;
  } catch {
    return undefined;
  }
}

/** The ids of this process's own mounts (`/proc/self/mountinfo`), read again when asked `fresh`. */
let ownMounts: Set<string> | undefined;
function ownMountIds(fresh: boolean): Set<string> | undefined {
  if (ownMounts && !fresh) return ownMounts;
  try {
    ownMounts = new Set(fs.readFileSync("/proc/self/mountinfo", "latin1").split("\n").filter(Boolean).map((line) => line.slice(0, line.indexOf(" "))));
  } catch {
    ownMounts = undefined;
  }
  return ownMounts;
}

/** A buffer for `/proc/self/fdinfo/<fd>` (a few short lines for a file or a folder). */
const fdinfoBuffer = Buffer.allocUnsafe(4096);

/**
 * Whether the descriptor's file lies on a mount of this process's own namespace (true where the
 * kernel does not say). Asked of each descriptor: no cache by device will do, since a box's own
 * namespace can bind a file of the machine's device (`st_dev` as ours) into its home. Read
 * into one buffer, not `readFileSync` (which `fstat`s and allocates): half the time.
 */
function inOwnMounts(fd: number): boolean {
  let id: string | undefined;
  try {
    id = /^mnt_id:\s*(\d+)$/m.exec(readSmall(`/proc/self/fdinfo/${fd}`))?.[1];
  } catch {
    return true;
  }
  if (id === undefined) return true; // (a kernel before 3.15: the path is all there is to check)
  // (Read again before refusing: a mount made since the list was read is one of ours too.)
  return (ownMountIds(false)?.has(id) ?? true) || (ownMountIds(true)?.has(id) ?? true);
}

/** A small file's text (latin1), read into `fdinfoBuffer`, or as much of it as fits. */
function readSmall(file: string): string {
  const fd = fs.openSync(file, fs.constants.O_RDONLY);
  try {
    let length = 0;
    for (let n; length < fdinfoBuffer.length && (n = fs.readSync(fd, fdinfoBuffer, length, fdinfoBuffer.length - length, null)) > 0;) length += n;
    return fdinfoBuffer.toString("latin1", 0, length);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Opens `full` as a regular file: one descriptor, no link followed at its end, never blocking, and
 * (where `/proc` tells) really at `expected`, the path with every folder resolved, so a folder on
 * the way that was swapped for a link is caught.
 */
export function openRegular(full: string, expected: string): OpenedFile | NotRegular {
  let fd: number;
  try {
    fd = fs.openSync(full, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ELOOP: the last segment is a link (O_NOFOLLOW); on some systems EMLINK or EFTYPE.
    if (code === "ELOOP" || code === "EMLINK" || code === "EFTYPE") return { kind: "link", problem: "it is a symlink" };
    if (code === "ENOENT" || code === "ENOTDIR") return { problem: "it is gone" };
    if (code === "ENXIO") return { kind: "socket", problem: "it is a socket" };
    return { problem: `it cannot be read (${code ?? (error as Error).message})`, unreadable: code ?? (error as Error).message };
  }
  let stat: fs.BigIntStats;
  try {
    stat = fs.fstatSync(fd, { bigint: true });
  } catch (error) {
    fs.closeSync(fd);
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return { problem: `it cannot be read (${code})`, unreadable: code };
  }
  const kind = kindOf(stat);
  if (kind !== "file") {
    fs.closeSync(fd);
    return { kind, problem: `it is ${kindName(kind)}` };
  }
  if (!isAt(fd, expected)) {
    fs.closeSync(fd);
    return { problem: "a folder on its way is a link (or it moved meanwhile)" };
  }
  return { fd, stat, fingerprint: fingerprintOf(stat), close: () => fs.closeSync(fd) };
}

/** Whether the descriptor's file is at `expected` (true where the system cannot tell): `whereIs`, its mount asked only of a path that matches. */
function isAt(fd: number, expected: string): boolean {
  if (!HAS_PROC_FD) return true;
  try {
    if (fs.readlinkSync(`/proc/self/fd/${fd}`) !== expected) return false;
  } catch {
    return false;
  }
  return inOwnMounts(fd);
}

const CHUNK = 1024 * 1024;

/** Whether two descriptors hold the same bytes, read from their starts. */
export function sameBytes(a: number, b: number): boolean {
  const bufA = Buffer.allocUnsafe(CHUNK);
  const bufB = Buffer.allocUnsafe(CHUNK);
  for (let position = 0; ; ) {
    const n = readFully(a, bufA, position);
    const m = readFully(b, bufB, position);
    if (n !== m) return false;
    if (n === 0) return true;
    if (bufA.compare(bufB, 0, m, 0, n) !== 0) return false;
    position += n;
  }
}

/** Reads up to a buffer's length at `position`, short only at the end of the file. */
function readFully(fd: number, buffer: Buffer, position: number): number {
  let total = 0;
  while (total < buffer.length) {
    const n = fs.readSync(fd, buffer, total, buffer.length - total, position + total);
    if (n === 0) break;
    total += n;
  }
  return total;
}

/**
 * Copies the first `size` bytes of `from` to `to` (at its current position), a chunk at a time,
 * each read and write on libuv's threads: the server answers other requests meanwhile (a box's
 * sparse file of 4 GiB, copied in one synchronous loop, kept every request waiting 28 s). Returns
 * the SHA-256 (hex) of the bytes copied, which are the bytes read: the caller keeps the copy only
 * when they are those it was shown. Undefined, and stops, when `from` holds another number of
 * bytes (it grew or shrank since it was judged): a box that extends a file once the copy has begun
 * (one sparse `ftruncate` to terabytes) had us write until the disk was full.
 */
export function copyBytes(from: number, to: number, size: number): Promise<string | undefined> {
  return readBytes(from, size, to);
}

/**
 * The SHA-256 (hex) of the first `size` bytes of `from`, read as `copyBytes` reads them; undefined
 * when it holds another number of bytes. A file of up to `SMALL` bytes is read at once, on this
 * thread (two reads: its bytes, and the end): a diff reads thousands, and a round trip to libuv's
 * threads for each read made reading 5,000 small files take 1.1–2 s instead of a fraction of that.
 */
export async function hashBytes(from: number, size: number): Promise<string | undefined> {
  if (size > SMALL) return readBytes(from, size, undefined);
  // (One byte more than the size asked for: read, it says the file grew.)
  const n = readFully(from, smallBuffer.subarray(0, size + 1), 0);
  return n === size ? createHash("sha256").update(smallBuffer.subarray(0, n)).digest("hex") : undefined;
}

/** The largest file `hashBytes` reads on this thread. */
const SMALL = 64 * 1024;
const smallBuffer = Buffer.allocUnsafe(SMALL + 1);

async function readBytes(from: number, size: number, to: number | undefined): Promise<string | undefined> {
  const hash = createHash("sha256");
  const buffer = Buffer.allocUnsafe(CHUNK);
  for (let position = 0; ; ) {
    const n = await readFullyAt(from, buffer.subarray(0, Math.min(CHUNK, size - position)), position);
    if (n === 0) return position >= size && (await readAt(from, buffer, 1, position)) === 0 ? hash.digest("hex") : undefined;
    const chunk = buffer.subarray(0, n);
    hash.update(chunk);
    if (to !== undefined) await writeAll(to, chunk);
    position += n;
  }
}

/** `fs.read` into `buffer` (at most `length` bytes) at `position`, on libuv's threads. */
function readAt(fd: number, buffer: Buffer, length: number, position: number): Promise<number> {
  // (`fs.read` looked up at each call, not kept: tests put a hook of their own on Node's `fs`.)
  return new Promise((resolve, reject) => fs.read(fd, buffer, 0, length, position, (error, n) => (error ? reject(error) : resolve(n))));
}

/** `readFully`, on libuv's threads. */
async function readFullyAt(fd: number, buffer: Buffer, position: number): Promise<number> {
  let total = 0;
  while (total < buffer.length) {
    const n = await readAt(fd, buffer.subarray(total), buffer.length - total, position + total);
    if (n === 0) break;
    total += n;
  }
  return total;
}

/** Writes all of `bytes` at `fd`'s current position, on libuv's threads. */
async function writeAll(fd: number, bytes: Buffer): Promise<void> {
  for (let written = 0; written < bytes.length;) {
    written += await new Promise<number>((resolve, reject) => fs.write(fd, bytes, written, bytes.length - written, null, (error, n) => (error ? reject(error) : resolve(n))));
  }
}

/** Whether the regular file at `full` (a workspace file) holds the bytes of `fd`, read without blocking or following a link. */
export function sameAsFile(fd: number, full: string): boolean {
  const other = openRegular(full, realOr(full));
  if (!("fd" in other)) return false;
  try {
    return sameBytes(fd, other.fd);
  } finally {
    other.close();
  }
}

/** `full` with its folders resolved (the path `/proc` names for it), or as given when they cannot be. */
export function realOr(full: string): string {
  try {
    return path.join(fs.realpathSync(path.dirname(full)), path.basename(full));
  } catch {
    return full;
  }
}

/** Folders below this depth are moved up to the top before they are emptied (`removeTree`). */
const REMOVE_DEPTH = 32;

/**
 * Removes `full` and whatever is below it, never following a link. A box can make a tree deeper
 * than PATH_MAX, which `fs.rmSync` (full paths, recursion) cannot remove: its discard failed for good. There,
 * on Linux, the tree is removed through descriptors (`/proc/self/fd/<folder>/<name>`: short paths
 * at any depth), and a folder deeper than `REMOVE_DEPTH` is first moved up to the top's level, so
 * no more than that many folders are ever open at once. Names are read as bytes: one that is not
 * UTF-8 names nothing as a string (the removal failed at it, and the box could not be discarded).
 *
 * `byDescriptors`: always so (Linux), never by `fs.rmSync`'s recursion, which looks a folder up by
 * its path again after it has looked at it: a box's process that swaps a folder of the tree for a
 * link meanwhile would have its target emptied (a sync or a discard: each runs while a process of
 * the box may still run). An entry swapped so is refused (the removal throws), never followed; one
 * gone meanwhile is passed over.
 */
export function removeTree(full: string | Buffer, { byDescriptors = false } = {}): void {
  if (!byDescriptors || !HAS_PROC_FD) {
    try {
      fs.rmSync(full, { recursive: true, force: true });
      return;
    } catch (error) {
      // (ENAMETOOLONG, or past a few thousand levels a RangeError: its recursion runs out of stack.)
      if (!HAS_PROC_FD || !fs.lstatSync(full, { throwIfNoEntry: false })?.isDirectory()) throw error;
    }
  }
  let top: number;
  try {
    top = fs.openSync(full, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return;
    // Not a folder (a file, a link): removed as itself, never followed.
    if (code === "ENOTDIR" || code === "ELOOP") { fs.unlinkSync(full); return; }
    throw error;
  }
  let moved = 0;
  const aside = `.sanoma-removing-${randomBytes(6).toString("hex")}-`;
  const at = (dir: number, name: Buffer | string) => Buffer.concat([Buffer.from(`/proc/self/fd/${dir}/`), Buffer.from(name)]);
  const empty = (dir: number, depth: number): void => {
    for (const name of fs.readdirSync(`/proc/self/fd/${dir}`, { encoding: "buffer" })) {
      const entry = at(dir, name);
      try {
        if (!fs.lstatSync(entry).isDirectory()) { fs.unlinkSync(entry); continue; }
        if (depth >= REMOVE_DEPTH) { fs.renameSync(entry, at(top, `${aside}${moved++}`)); continue; } // emptied from the top, below
        const sub = fs.openSync(entry, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW);
        try { empty(sub, depth + 1); } finally { fs.closeSync(sub); }
        fs.rmdirSync(entry);
      } catch (error) {
        // Gone meanwhile (a process of the box removed it): what the removal wanted.
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
    }
  };
  try {
    // (Each pass empties what the last one moved up; a pass that moves nothing leaves the top empty.)
    for (let before = -1; before !== moved;) { before = moved; empty(top, 0); }
  } finally {
    fs.closeSync(top);
  }
  try {
    fs.rmdirSync(full);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
}

/** How many folders a `FolderHandles` keeps open at most. */
const HANDLES_KEPT = 128;

/**
 * The folders of a tree (a box's home), each opened from its parent's descriptor without following
 * a link, and the paths of their entries through those descriptors (`/proc/self/fd/<folder>/<name>`,
 * Linux): an operation on such a path acts in that very folder, whatever now stands at its path. A
 * box's process left running (one a stop cannot find, in the process tier) that swaps a folder for
 * a link to another user's files after the sync looked at it has the sync refused there (`ELOOP`),
 * not turned against that user's files by a server run as root. Where `/proc/self/fd` is missing,
 * plain paths.
 */
export class FolderHandles {
  private readonly top: number | undefined;
  /** Open folders by their path from the top, oldest first (let go past `HANDLES_KEPT`). */
  private readonly open = new Map<string, number>();

  constructor(private readonly root: string) {
    this.top = HAS_PROC_FD ? fs.openSync(root, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW) : undefined;
  }

  /** The path of `rel` (`/`-separated, from the top) through its folder's descriptor. */
  at(rel: string): string {
    const slash = rel.lastIndexOf("/");
    if (this.top === undefined) return `${this.root}/${rel}`;
    return `/proc/self/fd/${this.folder(slash < 0 ? "" : rel.slice(0, slash))}/${rel.slice(slash + 1)}`;
  }

  /** The path, as bytes, of the entry `name` (bytes: perhaps no UTF-8) of the folder `rel`. */
  atBytes(rel: string, name: Buffer): Buffer {
    const dir = this.top === undefined ? `${this.root}/${rel ? `${rel}/` : ""}` : `/proc/self/fd/${this.folder(rel)}/`;
    return Buffer.concat([Buffer.from(dir), name]);
  }

  /** A folder under `rel` was removed or replaced: its descriptors (and those below it) are let go. */
  forget(rel: string): void {
    for (const [known, fd] of this.open) {
      if (known !== rel && !known.startsWith(`${rel}/`)) continue;
      fs.closeSync(fd);
      this.open.delete(known);
    }
  }

  close(): void {
    for (const fd of this.open.values()) fs.closeSync(fd);
    this.open.clear();
    if (this.top !== undefined) fs.closeSync(this.top);
  }

  private folder(rel: string): number {
    if (rel === "") return this.top!;
    const known = this.open.get(rel);
    if (known !== undefined) return known;
    const slash = rel.lastIndexOf("/");
    const parent = this.folder(slash < 0 ? "" : rel.slice(0, slash));
    let fd: number;
    try {
      fd = fs.openSync(`/proc/self/fd/${parent}/${rel.slice(slash + 1)}`, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ELOOP" && code !== "ENOTDIR") throw error;
      throw new Error(`${rel} in the box is no folder any more (a link or a file was put in its place while the box was synced): nothing was written through it`);
    }
    this.open.set(rel, fd);
    if (this.open.size > HANDLES_KEPT) {
      // (The oldest let go; a parent let go while its child stays open is opened again if asked.)
      const [oldest, oldFd] = this.open.entries().next().value as [string, number];
      if (oldest !== rel) { fs.closeSync(oldFd); this.open.delete(oldest); }
    }
    return fd;
  }
}

/** A write into the workspace refused: its message says why, for the apply's `skipped`. */
export class WorkspaceWriteRefused extends Error {}

/**
 * Makes sure every folder of `rel` (company-relative, `/`-separated) under `realRoot` is a real
 * folder, making the missing ones; refuses a link or a file on the way. Returns the parent's path.
 *
 * A server run by root gives each folder it makes the owner (uid and gid) of the folder above it,
 * so of the nearest folder that was there: root-owned folders in a user's workspace were folders
 * the user could not add to, and the files apply made in them root's too (`makeRoomFor` gives a
 * new file its folder's owner).
 */
export function realParentIn(realRoot: string, rel: string): string {
  const segments = rel.split("/");
  let current = realRoot;
  // The folder above the one being looked at (only needed by root, who gives its owner away).
  let above: fs.Stats | undefined = process.getuid?.() === 0 ? fs.lstatSync(realRoot) : undefined;
  for (let i = 0; i < segments.length - 1; i++) {
    current = `${current}/${segments[i]}`;
    let stat: fs.Stats | undefined;
    try {
      stat = fs.lstatSync(current);
    } catch {
      stat = undefined;
    }
    if (!stat) {
      let made = false;
      try {
        fs.mkdirSync(current);
        made = true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
      if (made && above) ownFolder(current, segments.slice(0, i + 1).join("/"), above);
      stat = fs.lstatSync(current); // what is there now: a link made meanwhile is refused below
    }
    if (stat.isSymbolicLink()) throw new WorkspaceWriteRefused(`${segments.slice(0, i + 1).join("/")} is a symlink in the workspace: apply never writes through a link`);
    if (!stat.isDirectory()) throw new WorkspaceWriteRefused(`${segments.slice(0, i + 1).join("/")} is ${kindName(kindOf(stat))} in the workspace, not a folder`);
    if (above) above = stat;
  }
  return current;
}

/**
 * Gives the folder just made at `full` the owner of `above`, through a descriptor of it opened
 * without following a link and checked (where `/proc` tells) to be at `full`: a link or another
 * folder put in its place meanwhile is never chowned.
 */
function ownFolder(full: string, rel: string, above: fs.Stats): void {
  let fd: number;
  try {
    fd = fs.openSync(full, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY | fs.constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP" || code === "ENOTDIR" || code === "ENOENT") throw new WorkspaceWriteRefused(`${rel} was replaced in the workspace while apply made it: nothing was written there`);
    throw error;
  }
  try {
    if (!isAt(fd, full)) throw new WorkspaceWriteRefused(`${rel} was replaced in the workspace while apply made it: nothing was written there`);
    fs.fchownSync(fd, above.uid, above.gid);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Writes the first `size` bytes of `from` to `<parent>/<name>`: into a new file beside it
 * (`O_EXCL`, so never an existing file or link), renamed into place; the bytes copied
 * asynchronously (`copyBytes`). `owner`: the uid and gid to give it (a server run by root keeps a
 * user's file theirs). `whyNot` is asked once the bytes are copied, just before the rename, with
 * the SHA-256 of the bytes copied: a reason (they are not those shown; the source or the target
 * changed meanwhile) leaves the target as it was. The temporary file is removed whatever happens.
 */
export async function writeBeside(parent: string, name: string, from: number, size: number, mode: number, owner: { uid: number; gid: number } | undefined, whyNot: (sha256: string) => string | undefined): Promise<void> {
  const target = `${parent}/${name}`;
  // (The file's name in it where it fits: with a name of 230 bytes or more, the temporary name
  // passed the file system's 255 and such a file could never be applied.)
  const temp = `${parent}/.sanoma-apply-${randomBytes(6).toString("hex")}${Buffer.byteLength(name) <= 200 ? `-${name}` : ""}`;
  const fd = fs.openSync(temp, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o600);
  let renamed = false;
  try {
    try {
      if (!isAt(fd, temp)) throw new WorkspaceWriteRefused(`a folder on the way to ${name} moved while it was written`);
      const sha256 = await copyBytes(from, fd, size);
      if (sha256 === undefined) throw new WorkspaceWriteRefused("the box changed it while it was copied: show the changes again");
      const reason = whyNot(sha256);
      if (reason) throw new WorkspaceWriteRefused(reason);
      if (owner) fs.fchownSync(fd, owner.uid, owner.gid);
      fs.fchmodSync(fd, mode);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, target);
    renamed = true;
  } finally {
    if (!renamed) fs.rmSync(temp, { force: true });
  }
}
