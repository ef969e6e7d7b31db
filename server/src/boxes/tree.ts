/**
 * The entries of a company or a box as walks see them (SPEC B5): what a walk records of each
 * (`FileStat`), the walk itself (`.gitignore` rules of the workspace, dot folders, and `.git`
 * and `node_modules` of any kind, skipped), and comparing entries; shared by the sync and the diff.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { fingerprintOf, kindOf, openRegular, realOr, sameAsFile } from "./files.ts";
import { IgnoreRules, isNeverCopied, isSkippedFolder } from "./ignore.ts";

/**
 * What a walk records of one entry that is no folder: enough to notice a change without reading
 * it. Only files and links are ever copied or recorded in a manifest; a box's FIFO, socket or
 * device is listed by the diff, never copied.
 */
export interface FileStat {
  kind: "file" | "link" | "fifo" | "socket" | "device";
  size: number;
  mtimeMs: number;
  mode: number;
  /** A symlink's text. */
  link?: string;
  /**
   * A regular file's fingerprint (`fingerprintOf`: device, inode, size, times in ns), where its
   * walk was asked for them (`walkBox`): what a diff lists an added file by. Never in a manifest.
   */
  fingerprint?: string;
  /** Set (with `fingerprint`) when the server surely may read the file: it owns it, with the owner's `r`. */
  readable?: true;
}

/**
 * The box's home must be a folder of its own: a box (process tier) can replace it with a link to
 * any folder, and a sync, diff or apply must then not follow it there.
 */
export function checkHome(home: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(home);
  } catch {
    return; // none yet: made by the sync, or reported gone by the diff
  }
  if (!stat.isDirectory()) throw new Error(`the box's folder ${home} is not a folder any more (the box replaced it with a link?): discard the box to make it anew`);
}

/** The `code` of an entry whose name is not UTF-8 (Node reads names as UTF-8: it cannot be named). */
export const NAME_NOT_UTF8 = "ENAMEUTF8";

/** An entry a walk met but could not read: a folder it cannot list, or an entry it cannot `lstat`. */
export interface Unreadable {
  folder: boolean;
  /** The error's code (`EACCES`). */
  code: string;
}

/**
 * Files under `root` (relative, `/`-separated) that a preview copies. `rules` are the `.gitignore`
 * rules from above `root`; each folder's own `.gitignore` joins on the way down, read from the same
 * folder under `rulesRoot`: a box is walked with the workspace's `.gitignore` files, so a preview
 * cannot hide its own changes, nor make a file it changed look deleted, by writing one.
 *
 * An entry that cannot be read (not one that vanished) is left out of the result and, when
 * `unreadable` is given, recorded there: the diff lists it rather than take its files for deleted.
 * A `root` that cannot be listed is an error: an empty walk would look like every file deleted.
 */
export async function walkTree(root: string, rules: IgnoreRules, rulesRoot = root, unreadable?: Map<string, Unreadable>): Promise<Map<string, FileStat>> {
  return (await walk(root, rules, rulesRoot, unreadable, {})).files;
}

/** What `walkBox` found, and whether it stopped at one of its bounds before it had seen everything. */
export interface BoxWalk {
  files: Map<string, FileStat>;
  /** The bound it stopped at (`entries`: `maxEntries`; `pathBytes`: `maxPathBytes`), or false when it saw everything. */
  truncated: false | "entries" | "pathBytes";
  /** How many entries it looked at. */
  looked: number;
}

/** How far a box's walk goes (`walkBox`). */
export interface WalkBounds {
  /** The most entries (files, folders, what is ignored) it looks at. */
  maxEntries: number;
  /** The most bytes (UTF-8) their paths from the home may take in all. */
  maxPathBytes: number;
}

/**
 * A box's home walked as `walkTree` walks (`rules` read from the same folders under `rulesRoot`,
 * the workspace), with each regular file's `fingerprint`, and looking at no more than
 * `maxEntries` entries (files, folders, what is ignored), whose paths take no more than
 * `maxPathBytes` in all: past either it stops, `truncated`. A box can make millions of files;
 * each costs the walk an `lstat` and its record, and the diff a string of its whole path (200,000
 * paths of 4 KB each took the server past its heap, within the bound on entries).
 */
export async function walkBox(home: string, rules: IgnoreRules, rulesRoot: string, unreadable: Map<string, Unreadable>, bounds: WalkBounds): Promise<BoxWalk> {
  return walk(home, rules, rulesRoot, unreadable, { fingerprints: true, ...bounds });
}

async function walk(root: string, rules: IgnoreRules, rulesRoot: string, unreadable: Map<string, Unreadable> | undefined, options: { fingerprints?: boolean } & Partial<WalkBounds>): Promise<BoxWalk> {
  const ownRules = path.resolve(rulesRoot) === path.resolve(root);
  const files = new Map<string, FileStat>();
  const { fingerprints = false, maxEntries = Infinity, maxPathBytes = Infinity } = options;
  const countBytes = maxPathBytes !== Infinity;
  // Folder by folder, yielding to the event loop every `CHUNK_MS`: a box of 100,000 files is
  // walked while the server goes on answering. (Each folder with its path's length in bytes, so
  // that an entry's is its folder's and its name's: never measured on the whole path, which V8
  // would then flatten into a string of its own.)
  const stack: Array<[dir: string, rel: string, inherited: IgnoreRules, relBytes: number]> = [[path.resolve(root), "", rules, 0]];
  let started = performance.now();
  let seen = 0;
  let pathBytes = 0;
  while (stack.length > 0) {
    const [dir, rel, inherited, relBytes] = stack.pop()!;
    // A walk whose rules are its own reads a folder whole (whether it holds a `.gitignore` decides
    // how its entries are judged); one by another tree's rules reads it as it goes, so that a bound
    // on entries bounds a folder of millions too.
    let listing: fs.Dirent[] | fs.Dir;
    try {
      listing = ownRules ? fs.readdirSync(dir, { withFileTypes: true }) : fs.opendirSync(dir, { bufferSize: 256 });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "unknown error";
      if (code === "ENOENT" || code === "ENOTDIR") continue; // vanished: skipped, the rest goes on
      if (rel === "") throw new Error(`${dir} cannot be read (${code})`);
      unreadable?.set(rel, { folder: true, code });
      continue;
    }
    const here = Array.isArray(listing)
      ? (listing.some((e) => e.name === ".gitignore") ? inherited.withFile(dir, rel) : inherited)
      : inherited.withFile(rel ? path.join(rulesRoot, rel) : rulesRoot, rel);
    for (const entry of entriesOf(listing, rel, unreadable)) {
      if (++seen > maxEntries) return { files, truncated: "entries", looked: seen - 1 }; // (entriesOf closes the folder)
      const childBytes = countBytes ? (rel ? relBytes + 1 : 0) + Buffer.byteLength(entry.name) : 0;
      if (countBytes && (pathBytes += childBytes) > maxPathBytes) return { files, truncated: "pathBytes", looked: seen - 1 };
      // (The clock is read every 256 entries: a folder may hold 100,000 files.)
      if ((seen & 255) === 0 && performance.now() - started > CHUNK_MS) {
        await new Promise((resolve) => setImmediate(resolve));
        started = performance.now();
      }
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      const full = `${dir}/${entry.name}`; // dir is absolute and normalised: cheaper than path.join per file
      // A name that is not UTF-8 reads with U+FFFD in it, and names nothing: recorded, so that the
      // diff lists it (refused) rather than leave it unseen.
      if (unreadable && entry.name.includes("\uFFFD") && !lstatOrNothing(full)) {
        unreadable.set(childRel, { folder: entry.isDirectory(), code: NAME_NOT_UTF8 });
        continue;
      }
      // `.git` and `node_modules` of any kind (the box's root `node_modules` is the sync's own link).
      if (isNeverCopied(entry.name)) continue;
      if (entry.isDirectory()) {
        if (isSkippedFolder(entry.name) || here.ignores(childRel, true, entry.name)) continue;
        stack.push([full, childRel, here, childBytes]);
      } else {
        // Files and links, and what a box may make to trip a reader (a FIFO, a socket, a device).
        if (here.ignores(childRel, false, entry.name)) continue;
        const stat = fingerprints ? fingerprintedStatOf(full) : statOf(full);
        if (stat) files.set(childRel, stat);
        else if (unreadable) {
          const code = lstatError(full);
          if (code) unreadable.set(childRel, { folder: false, code });
        }
      }
    }
  }
  return { files, truncated: false, looked: seen };
}

/**
 * A folder's entries, from a list read whole or from the open folder (closed once read, or when
 * the loop over them stops early). A folder that fails midway is recorded as unreadable from there.
 */
function* entriesOf(listing: fs.Dirent[] | fs.Dir, rel: string, unreadable: Map<string, Unreadable> | undefined): Generator<fs.Dirent> {
  if (Array.isArray(listing)) {
    yield* listing;
    return;
  }
  try {
    for (;;) {
      let entry: fs.Dirent | null;
      try {
        entry = listing.readSync();
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? "unknown error";
        if (code !== "ENOENT" && code !== "ENOTDIR") unreadable?.set(rel, { folder: true, code });
        return;
      }
      if (entry === null) return;
      yield entry;
    }
  } finally {
    listing.closeSync();
  }
}

/**
 * `lstat`, or undefined where nothing can be found at the path: gone, or a name that is not UTF-8
 * read with U+FFFD in it (three bytes for each byte it replaces: a long one is too long to look up).
 */
function lstatOrNothing(full: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(full, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENAMETOOLONG") return undefined;
    throw error;
  }
}

/** An entry's stat as walks record it, or undefined when it vanished or became a folder. */
export function statOf(full: string): FileStat | undefined {
  try {
    const stat = fs.lstatSync(full);
    if (stat.isFile()) return { kind: "file", size: stat.size, mtimeMs: stat.mtimeMs, mode: stat.mode & 0o7777 };
    if (stat.isSymbolicLink()) return { kind: "link", size: stat.size, mtimeMs: stat.mtimeMs, mode: stat.mode & 0o777, link: fs.readlinkSync(full) };
    if (stat.isDirectory()) return undefined;
    const kind = kindOf(stat);
    return { kind: kind === "fifo" || kind === "socket" ? kind : "device", size: stat.size, mtimeMs: stat.mtimeMs, mode: stat.mode & 0o7777 };
  } catch {
    // vanished
  }
  return undefined;
}

/**
 * `statOf`, with a regular file's `fingerprint` (`fingerprintOf` of a `bigint` `lstat`: what
 * `fstat` of a descriptor of the same file tells), its times in ms as `statOf` gives them.
 */
function fingerprintedStatOf(full: string): FileStat | undefined {
  let stat: fs.BigIntStats;
  try {
    stat = fs.lstatSync(full, { bigint: true });
  } catch {
    return undefined; // vanished
  }
  if (!stat.isFile()) return statOf(full); // (a link's text, a FIFO's kind: as `statOf` records them)
  // (Not root's every file: a root whose capabilities were dropped reads by the mode bits too.)
  const readable = EUID !== undefined && stat.uid === BigInt(EUID) && (stat.mode & 0o400n) !== 0n;
  return { kind: "file", size: Number(stat.size), mtimeMs: msOf(stat.mtimeNs), mode: Number(stat.mode & 0o7777n), fingerprint: fingerprintOf(stat), ...(readable ? { readable: true as const } : {}) };
}

const EUID = process.geteuid?.();

/** A time in ns as Node's non-`bigint` stats give it in ms (seconds × 1000 + nanoseconds / 10⁶, as doubles), so `sameStat` can compare the two. */
function msOf(ns: bigint): number {
  let seconds = ns / 1_000_000_000n;
  let rest = ns % 1_000_000_000n;
  if (rest < 0n) {
    seconds -= 1n;
    rest += 1_000_000_000n;
  }
  return Number(seconds) * 1000 + Number(rest) / 1e6;
}

/** Why `lstat` fails on `full`, unless it is gone (or, it turns out, can be read after all). */
function lstatError(full: string): string | undefined {
  try {
    fs.lstatSync(full);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "unknown error";
    return code === "ENOENT" || code === "ENOTDIR" ? undefined : code;
  }
}

/** True when two stats describe the same content as far as size, mtime and kind can tell. */
export function sameStat(a: FileStat | undefined, b: FileStat | undefined): boolean {
  if (!a || !b || a.kind !== b.kind) return false;
  if (a.kind === "link") return a.link === b.link;
  return a.size === b.size && a.mtimeMs === b.mtimeMs;
}

/**
 * Byte for byte (or link text for link) comparison of two entries. Files are read from
 * descriptors opened without following a link or blocking (`files.ts`): a FIFO the box renamed
 * into a file's place since the walk is no file, never a read that waits for ever.
 */
export function sameContent(aPath: string, a: FileStat, bPath: string, b: FileStat): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === "link") return a.link === b.link;
  if (a.kind !== "file" || a.size !== b.size) return false;
  const opened = openRegular(aPath, realOr(aPath));
  if (!("fd" in opened)) return false;
  try {
    return sameAsFile(opened.fd, bPath);
  } finally {
    opened.close();
  }
}

/**
 * Runs `task` over `items` synchronously, yielding to the event loop every `CHUNK_MS`: the server
 * keeps answering while a big company is copied, and the copies skip the thread pool's round
 * trips (synchronous copies measured twice as fast as promise-based ones on small files).
 */
export async function inChunks<T>(items: T[], task: (item: T) => void): Promise<void> {
  let started = performance.now();
  for (const item of items) {
    task(item);
    if (performance.now() - started > CHUNK_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      started = performance.now();
    }
  }
}

const CHUNK_MS = 20;

