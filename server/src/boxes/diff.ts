/**
 * What a preview changed in its box, against the workspace (SPEC B5), and applying chosen files
 * back. "Changed by the box" is judged against the sync manifest: a file whose box copy is still
 * the one the last sync made is not the box's change, even when the workspace moved on since (the
 * next sync brings that in). So the diff never offers to undo the user's own edits, and
 * `workspaceChanged` flags the files both sides changed.
 *
 * `diff` and `apply` are a security boundary: what runs in a box controls every entry of its home,
 * and may change any of them at any moment. So:
 * - the diff lists what is no regular file (a symlink, FIFO, socket or device) with its `kind`, and
 *   `refused`: apply never copies it (a link could lead anywhere, a FIFO would block a reader);
 * - a box's file is read from one descriptor (`files.ts`: no link followed, never blocking, a
 *   regular file, where it was asked for), and those bytes are what is compared and copied; a file
 *   whose descriptor tells another fingerprint than the diff saw is skipped, said, and so is one
 *   whose bytes copied are not those the diff shown read (`readShown`: a write through a shared
 *   mapping moves no time of the file);
 * - apply writes only under real folders of the company (never through a link), beside the target
 *   and renamed into place, and skips a workspace path that is itself a link;
 * - a conflict (`workspaceChanged`) is skipped unless the request names it in `overwrite`;
 * - `.git` and `node_modules` are never listed, and never applied even when named;
 * - what the server cannot read in the box is listed, refused: its files are never taken for deleted;
 * - an applied file's mode is set as git sets it (`appliedMode`), never the box's bits as they are;
 * - a file over `MAX_FILE_BYTES` is listed with its size, refused, and an apply copies no more than
 *   `MAX_APPLY_BYTES` in all, a chunk at a time (the server answers meanwhile): a box's sparse file
 *   takes no disk in the box, and all of its size in the workspace.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { BoxEntryKind, BoxFileChange } from "../protocol.ts";
import { hashBytes, kindName, kindOf, openRegular, realParentIn, sameAsFile, writeBeside, WorkspaceWriteRefused, type EntryKind, type OpenedFile } from "./files.ts";
import { IgnoreRules, isNeverCopied } from "./ignore.ts";
import { manifestRoot, readManifest, writeManifest, type ManifestEntry } from "./manifest.ts";
import { checkHome, NAME_NOT_UTF8, sameStat, statOf, walkBox, walkTree, type FileStat, type Unreadable } from "./tree.ts";

export interface DiffSides {
  /** The company root (the workspace side). */
  root: string;
  /** The box's home. */
  home: string;
  /** The box's bookkeeping folder (holds the sync manifest). */
  runsDir: string;
}

/**
 * A diff as apply reads it: the changes, and for each path what the box had there when the diff
 * looked (a regular file's fingerprint, the kind of anything else, or its deletion), so that a
 * later apply can tell a file the box changed since. A diff shown to the user also has the
 * SHA-256 of the files it lists in `seen` (`readShown`).
 */
export interface BoxDiff {
  changes: DiffChange[];
  seen: Map<string, string>;
  /** Why the diff did not see the whole box (more than `DIFF_MAX_ENTRIES` entries, or `DIFF_MAX_PATH_BYTES` of paths): it lists what it found before it stopped. */
  tooMany?: string;
}

/**
 * A change as the diff keeps it: `BoxFileChange` without its two absolute paths, which only the
 * changes an answer lists are given (`withPaths`). A box of 200,000 files whose paths took 4 KB
 * each had the diff keep three such strings of each (the path, and both absolute ones): the
 * server ran out of heap.
 */
export type DiffChange = Omit<BoxFileChange, "boxFile" | "workspaceFile">;

/** `change` with the absolute paths of its two sides, as an answer lists it (`boxFile` for a regular file of the box that apply may copy). */
export function withPaths(sides: DiffSides, change: DiffChange): BoxFileChange {
  const boxFile = change.kind === "file" && change.refused === undefined ? { boxFile: path.join(sides.home, change.path) } : {};
  return { ...change, ...boxFile, workspaceFile: path.join(sides.root, change.path) };
}

/**
 * The most entries (files, folders, what is ignored) a diff looks at in a box. Each costs an
 * `lstat` and its record (a regular file added by the box is not opened here: apply opens it, and
 * `readShown` those an answer lists); past this many the diff answers with what it found
 * (`tooMany`). A company's copy is in the box too, so this is well above a big company's size.
 * Measured in docs/boxes.md ("The diff always answers").
 */
export const DIFF_MAX_ENTRIES = 200_000;

/**
 * The most bytes (UTF-8) the paths of those entries may take in all, from the home: what the
 * diff keeps of each entry grows with its path (a change's path, sorted, is one string of it), so
 * entries alone bound nothing (200,000 paths of 4 KB: 800 MB). 32 MiB is 200,000 paths of 167
 * bytes, more than a big company's average; past it the diff answers as past `DIFF_MAX_ENTRIES`.
 */
export const DIFF_MAX_PATH_BYTES = 32 * 1024 * 1024;

/**
 * The largest file apply copies; a bigger one is listed with its size and refused. A box's sparse
 * file (`truncate -s 1T`) takes no disk in the box, and all of its size written into the
 * workspace: one of 4 GiB took 28 s and 4 GiB of the user's disk. 256 MiB is more than a file a
 * company's repository holds (GitHub refuses files past 100 MB) ever needs.
 */
export const MAX_FILE_BYTES = 256 * 1024 * 1024;

/** The most bytes one apply copies in all: a box's thousands of files just under `MAX_FILE_BYTES` fill a disk too. */
export const MAX_APPLY_BYTES = 1024 * 1024 * 1024;

/**
 * The most bytes of the box's files one diff reads to hash those it lists (`readShown`), as much
 * as one apply copies: 5,000 sparse files just under `MAX_FILE_BYTES` would take it hours.
 */
export const DIFF_MAX_READ_BYTES = MAX_APPLY_BYTES;

export interface DiffOptions {
  /** The most entries the box's walk looks at (default `DIFF_MAX_ENTRIES`). */
  maxEntries?: number;
  /** The most bytes their paths take in all (default `DIFF_MAX_PATH_BYTES`). */
  maxPathBytes?: number;
  /** The largest file apply copies (default `MAX_FILE_BYTES`). */
  maxFileBytes?: number;
}

/** Why a diff lists no more than it does, when the box holds more than `limit` entries. */
export function tooManyFiles(limit: number): string {
  return `the box holds more than ${limit.toLocaleString("en")} files and folders, too many to list: the diff shows what changed among the first ${limit.toLocaleString("en")} it looked at, and no deletions; add what the preview fills (build output, caches) to .gitignore, or delete it in the box, then show the changes again`;
}

/** Why a diff lists no more than it does, when the paths of the box's entries take more than `limit` bytes (`looked`: the entries it looked at before). */
export function tooLongPaths(limit: number, looked: number): string {
  return `the paths of the box's files and folders take more than ${sizeText(limit)} in all, too many to list: the diff shows what changed among the first ${looked.toLocaleString("en")} it looked at, and no deletions; add what the preview fills (build output, caches) to .gitignore, or delete it in the box, then show the changes again`;
}

/** A number of bytes as a user reads it: `1,000 bytes`, `256 MiB`, `4.5 GiB`. */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes.toLocaleString("en")} ${bytes === 1 ? "byte" : "bytes"}`;
  const units = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
  let value = bytes / 1024;
  let unit = 0;
  for (; value >= 1024 && unit < units.length - 1; unit++) value /= 1024;
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}

/** The files the box added, modified or deleted, sorted by path, each with the absolute paths of its two sides. */
export async function diffBox(sides: DiffSides, options: DiffOptions = {}): Promise<BoxFileChange[]> {
  return (await readDiff(sides, options)).changes.map((change) => withPaths(sides, change));
}

/** `diffBox`, with what it saw of each file. */
export async function readDiff(sides: DiffSides, options: DiffOptions = {}): Promise<BoxDiff> {
  const { root, home, runsDir } = sides;
  checkHome(home);
  if (!fs.existsSync(home)) throw new Error(`the box's folder ${home} is gone: run the preview again to remake it`);
  const synced = manifestRoot(runsDir);
  if (synced !== undefined && synced !== root) throw new Error(`the box holds a copy of the company at ${synced}, not of ${root}: run a preview of ${root} to make it that company's copy`);
  const realHome = fs.realpathSync(home);
  const above = IgnoreRules.above(root);
  const unreadable = new Map<string, Unreadable>();
  const maxEntries = options.maxEntries ?? DIFF_MAX_ENTRIES;
  const maxPathBytes = options.maxPathBytes ?? DIFF_MAX_PATH_BYTES;
  const { files: box, truncated, looked } = await walkBox(home, above, root, unreadable, { maxEntries, maxPathBytes });
  const workspace = await walkTree(root, above);
  const manifest = readManifest(runsDir, root);
  const changes: DiffChange[] = [];
  const seen = new Map<string, string>();
  const maxFileBytes = options.maxFileBytes ?? MAX_FILE_BYTES;
  let started = performance.now();
  for (const [rel, boxStat] of box) {
    // (Yielding as the walk does: the changes of 100,000 files are not judged in one go.)
    if (performance.now() - started > CHUNK_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      started = performance.now();
    }
    const entry = manifest.files[rel];
    if (entry && sameStat(boxStat, entry.box)) continue; // the copy the sync made
    const found = classify(sides, realHome, rel, boxStat, workspace.get(rel), entry?.src, maxFileBytes);
    if (!found) continue;
    changes.push(found.change);
    seen.set(rel, found.seen);
  }
  // What the box has but the server cannot read is listed, refused: never hidden, and its files
  // are never taken for deleted (an apply would delete the user's).
  for (const [rel, { folder, code }] of unreadable) {
    const inWorkspace = workspace.has(rel) || fs.existsSync(path.join(root, rel));
    const kind = folder ? {} : { kind: "file" as const };
    changes.push({ path: rel, change: inWorkspace ? "modified" : "added", ...kind, refused: cannotRead(folder, code), workspaceChanged: false });
    seen.set(rel, UNREADABLE);
  }
  // A walk stopped at its bound did not see the rest of the box: what it did not see is not known to be gone.
  for (const [rel, entry] of truncated ? [] : Object.entries(manifest.files)) {
    if (box.has(rel) || seen.get(rel) === UNREADABLE) continue;
    if (unreadable.size > 0 && unreadableFolderOf(rel, seen) !== undefined) continue; // not known to be gone
    const workspaceStat = workspace.get(rel);
    if (!workspaceStat) continue; // gone on both sides
    changes.push({ path: rel, change: "deleted", workspaceChanged: !sameStat(workspaceStat, entry.src) });
    seen.set(rel, "deleted");
  }
  changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const tooMany = truncated === "entries" ? tooManyFiles(maxEntries) : truncated === "pathBytes" ? tooLongPaths(maxPathBytes, looked) : undefined;
  return { changes, seen, ...(tooMany !== undefined ? { tooMany } : {}) };
}

/**
 * Reads the box's files among the first `count` changes (those an answer lists, within its bounds)
 * and records in `seen` the SHA-256 of each one's bytes: apply keeps a copy only when it read
 * those bytes. The fingerprint alone (size, times) let a box change a file the diff had shown and
 * have the new bytes applied: a write into a page of a shared mapping (`mmap`) that is already
 * dirty moves no time of the file. Each file is read from one checked descriptor that must tell
 * the fingerprint the diff judged (else it is marked changed, and apply skips it), a big one a
 * chunk at a time on libuv's threads (`hashBytes`), no more than `maxReadBytes` in all: a file
 * past that is listed refused, saying why. (Past `count`, what an answer does not list keeps its
 * fingerprint only.)
 */
export async function readShown(sides: DiffSides, diff: BoxDiff, count: number, { maxReadBytes = DIFF_MAX_READ_BYTES }: { maxReadBytes?: number } = {}): Promise<void> {
  const realHome = fs.realpathSync(sides.home);
  let read = 0;
  let started = performance.now();
  for (const change of diff.changes.slice(0, count)) {
    if (change.kind !== "file" || change.refused !== undefined) continue;
    // (Yielding as the diff does: thousands of small files are read on this thread.)
    if (performance.now() - started > CHUNK_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      started = performance.now();
    }
    const rel = change.path;
    const fingerprint = diff.seen.get(rel)!;
    const size = change.size ?? 0;
    if (read + size > maxReadBytes) {
      change.refused = notRead(maxReadBytes, read);
      diff.seen.set(rel, `${fingerprint}${SHOWN}${UNREAD}`);
      continue;
    }
    read += size;
    diff.seen.set(rel, `${fingerprint}${SHOWN}${(await contentOf(`${realHome}/${rel}`, fingerprint)) ?? CHANGED}`);
  }
}

/** The SHA-256 of the box's file at `boxReal` (its folders resolved), read from a checked descriptor, when it has `fingerprint`; else undefined. */
async function contentOf(boxReal: string, fingerprint: string): Promise<string | undefined> {
  const opened = openRegular(boxReal, boxReal);
  if (!("fd" in opened)) return undefined;
  try {
    if (opened.fingerprint !== fingerprint) return undefined;
    const sha256 = await hashBytes(opened.fd, Number(opened.stat.size));
    return sha256 === undefined ? undefined : `sha256:${sha256}`;
  } finally {
    opened.close();
  }
}

/**
 * What `readShown` adds to a file's entry in `seen`, after this separator (no fingerprint, and no
 * link's text, holds a NUL): `sha256:<hex>` of its bytes; `UNREAD`, past what a diff reads;
 * `CHANGED`, when it was no longer as the diff judged it by the time it was read.
 */
const SHOWN = "\0";
const UNREAD = "unread";
const CHANGED = "changed";

/** What the diff shown saw of a path (`seen`'s entry), split into what apply's own diff sees too and what `readShown` added. */
function shownParts(entry: string | undefined): { seen: string | undefined; content: string | undefined } {
  const at = entry?.indexOf(SHOWN) ?? -1;
  return at < 0 ? { seen: entry, content: undefined } : { seen: entry!.slice(0, at), content: entry!.slice(at + SHOWN.length) };
}

/** Why a file the diff lists was not read, past `limit` bytes (`read`: those of the files before it). */
function notRead(limit: number, read: number): string {
  return `the diff reads no more than ${sizeText(limit)} of the box's files (what it shows is hashed, so that apply copies those bytes and no others), and the files before it took ${sizeText(read)}: apply those, then show the changes again`;
}

/** How long the diff judges changes before it lets the server answer (as the walks do). */
const CHUNK_MS = 20;

/** What `seen` records of an entry the server cannot read. */
const UNREADABLE = "unreadable";

/** Why apply never copies (or deletes) what the box has at a path the server cannot read. */
function cannotRead(folder: boolean, code: string): string {
  if (code === NAME_NOT_UTF8) return `the box made a ${folder ? "folder" : "file"} whose name is not UTF-8 (shown here with �): apply cannot name it; rename it in the box, then show the changes again`;
  if (folder) return `the box's folder cannot be read (${code}): what changed in it cannot be seen, and apply copies or deletes nothing under it; make it readable in the box, then show the changes again`;
  return `the box's file cannot be read (${code}): apply cannot copy it; make it readable in the box, then show the changes again`;
}

/** The folder above `rel` that the diff found unreadable in the box, if any. */
function unreadableFolderOf(rel: string, seen: Map<string, string>): string | undefined {
  for (let slash = rel.lastIndexOf("/"); slash > 0; slash = rel.lastIndexOf("/", slash - 1)) {
    const folder = rel.slice(0, slash);
    if (seen.get(folder) === UNREADABLE) return folder;
  }
  return undefined;
}

const PROTOCOL_KIND: Record<Exclude<EntryKind, "folder">, BoxEntryKind> = { file: "file", link: "symlink", fifo: "fifo", socket: "socket", device: "device" };

/** Why apply never copies a file of `size` bytes. */
function tooBig(size: number, limit: number): string {
  return `the box's file takes ${sizeText(size)}, more than apply copies (${sizeText(limit)} a file, so that a box's sparse file, which takes no disk in the box, cannot fill yours): copy it by hand if you want it`;
}

/** Why apply never copies what the box has at a path, when it is no regular file. */
function refusal(kind: EntryKind, linkText?: string): string {
  if (kind === "link") return `the box made a symlink here${linkText !== undefined ? ` (to ${linkText})` : ""}: apply never copies a link, which could lead anywhere`;
  return `the box made ${kindName(kind)} here: apply copies regular files only`;
}

/**
 * Whether the workspace's entry changed since the sync (what the sync copied: `synced`): gone since,
 * made since (the box never had it: both sides made one), or no longer as copied.
 */
function changedSinceSync(now: FileStat | undefined, synced: FileStat | undefined): boolean {
  return now === undefined ? synced !== undefined : synced === undefined || !sameStat(now, synced);
}

/**
 * The box's change at `rel`, or undefined when the box holds what the workspace holds. A regular
 * file with a workspace counterpart is opened (one descriptor) to be compared, so a file swapped
 * since the walk is seen as it is. One the box added has nothing to be compared with: it is listed
 * as the walk saw it (its `lstat`, its fingerprint), and opened only by apply, which reads it from
 * one descriptor, checked, and copies it only while it has that fingerprint (`copyToWorkspace`),
 * and by `readShown` where an answer lists it.
 * A diff of 100,000 added files opened each of them, and read where it was from `/proc`. A file
 * bigger than `maxFileBytes` is listed with its size, refused.
 */
function classify(sides: DiffSides, realHome: string, rel: string, boxStat: FileStat, workspaceStat: FileStat | undefined, synced: FileStat | undefined, maxFileBytes: number): { change: DiffChange; seen: string } | undefined {
  const change = workspaceStat === undefined ? "added" : "modified";
  // Added where the workspace deleted its file since the sync; modified where its file changed
  // since the sync, or was never the box's (both sides made one).
  const workspaceChanged = changedSinceSync(workspaceStat, synced);
  const listed = (kind: EntryKind, seen: string, linkText?: string): { change: DiffChange; seen: string } => ({
    change: { path: rel, change, kind: PROTOCOL_KIND[kind as Exclude<EntryKind, "folder">], refused: refusal(kind, linkText), workspaceChanged },
    seen,
  });
  if (boxStat.kind === "link") {
    if (workspaceStat?.kind === "link" && workspaceStat.link === boxStat.link) return undefined;
    return listed("link", `link:${boxStat.link}`, boxStat.link);
  }
  if (boxStat.kind !== "file") return listed(boxStat.kind, boxStat.kind);
  if (workspaceStat === undefined && boxStat.fingerprint !== undefined) {
    // (What the server may not read is refused here as when it was opened: `access`, one call,
    // where its owner and mode do not already tell.)
    const cannot = boxStat.readable ? undefined : readProblem(path.join(sides.home, rel));
    if (cannot === GONE) return undefined; // gone since the walk: not the box's file now
    const size = boxStat.size;
    if (cannot !== undefined) return { change: { path: rel, change, kind: "file", size, refused: cannotRead(false, cannot), workspaceChanged }, seen: UNREADABLE };
    if (size > maxFileBytes) return { change: { path: rel, change, kind: "file", size, refused: tooBig(size, maxFileBytes), workspaceChanged }, seen: boxStat.fingerprint };
    const executable = (boxStat.mode & 0o100) !== 0;
    return { change: { path: rel, change, kind: "file", size, workspaceChanged, ...(executable ? { executable } : {}) }, seen: boxStat.fingerprint };
  }
  const opened = openRegular(path.join(sides.home, rel), `${realHome}/${rel}`);
  if (!("fd" in opened)) {
    if (opened.unreadable !== undefined) return { change: { path: rel, change, kind: "file", size: boxStat.size, refused: cannotRead(false, opened.unreadable), workspaceChanged }, seen: UNREADABLE };
    if (opened.kind === undefined || opened.kind === "folder") return undefined; // gone since the walk: not the box's file now
    return listed(opened.kind, opened.kind);
  }
  try {
    if (workspaceStat?.kind === "file" && BigInt(workspaceStat.size) === opened.stat.size && sameAsFile(opened.fd, path.join(sides.root, rel))) return undefined;
    // Whether apply makes it executable, or stops it being so (`appliedMode`): shown, as git shows a mode change.
    const executable = (Number(opened.stat.mode) & 0o100) !== 0;
    const wasExecutable = workspaceStat?.kind === "file" && (workspaceStat.mode & 0o100) !== 0;
    const size = Number(opened.stat.size);
    if (size > maxFileBytes) return { change: { path: rel, change, kind: "file", size, refused: tooBig(size, maxFileBytes), workspaceChanged }, seen: opened.fingerprint };
    return { change: { path: rel, change, kind: "file", size, workspaceChanged, ...(executable !== wasExecutable ? { executable } : {}) }, seen: opened.fingerprint };
  } finally {
    opened.close();
  }
}

const GONE = "ENOENT";

/** Why the server may not read the file at `full` (`EACCES`; `GONE`), or undefined when it may (a link put there meanwhile is apply's to refuse). */
function readProblem(full: string): string | undefined {
  try {
    fs.accessSync(full, fs.constants.R_OK);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    if (code === "ENOENT" || code === "ENOTDIR") return GONE;
    return code === "ELOOP" ? undefined : code;
  }
}

export interface ApplyOptions extends DiffOptions {
  /** Conflicting files (`workspaceChanged`) to overwrite all the same. */
  overwrite?: readonly unknown[];
  /** What the diff last shown to the user saw of each path: a file changed since is skipped. */
  shown?: Map<string, string>;
  /** The most bytes the apply copies in all (default `MAX_APPLY_BYTES`). */
  maxApplyBytes?: number;
}

export interface ApplyResult {
  applied: string[];
  skipped: { path: string; reason: string }[];
}

/** `a/./b`, `a//b` → `a/b`: `\` separates on Windows only (elsewhere it may be part of a name). */
function normalise(requested: string): string {
  return requested.split(path.sep === "/" ? /\/+/ : /[/\\]+/).filter((s) => s && s !== ".").join("/");
}

/** Why a path with a `.git` or `node_modules` segment is never applied (`ignore.ts`'s `isNeverCopied`). */
const NEVER_APPLIED = "apply never writes into .git or node_modules: a box's version could make your git or your tools run its commands";

/** A file the box changed, since the diff or while it was copied. */
const CHANGED_IN_BOX = "the box changed it since the diff: show the changes again";
const CHANGED_IN_BOX_WHILE_COPIED = "the box changed it while it was copied: show the changes again";
const CHANGED_IN_WORKSPACE_MEANWHILE = "it changed in the workspace while the apply ran (your version is kept): show the changes again, and name it in overwrite to replace it";
const NOT_READ_BY_THE_DIFF = "the diff that showed it did not read it (it had read as much of the box's files as it reads at once): apply the others, then show the changes again";

/** Why a file is left out once an apply has copied `copied` of its `limit` bytes. */
function pastApplyBytes(limit: number, copied: number): string {
  return `one apply copies at most ${sizeText(limit)}, and the files before it took ${sizeText(copied)}: apply it again, with fewer files`;
}

/** Whether a workspace entry is as it was (both absent, or the same kind, size and time). */
const sameWorkspaceEntry = (before: FileStat | undefined, after: FileStat | undefined): boolean => (before === undefined ? after === undefined : sameStat(before, after));

/**
 * Copies the chosen files from the box into the workspace (a deletion deletes the workspace's
 * file) and records them as in step, so they leave the diff. Every file not applied is listed in
 * `skipped` with the reason (see the file's header).
 */
export async function applyToWorkspace(sides: DiffSides, files: readonly unknown[], options: ApplyOptions = {}): Promise<ApplyResult> {
  const applied: string[] = [];
  const skipped: { path: string; reason: string }[] = [];
  const diff = await readDiff(sides, options);
  const changes = new Map(diff.changes.map((c) => [c.path, c]));
  const overwrite = new Set((options.overwrite ?? []).filter((f): f is string => typeof f === "string" && !path.isAbsolute(f)).map(normalise));
  const manifest = readManifest(sides.runsDir, sides.root);
  const maxApplyBytes = options.maxApplyBytes ?? MAX_APPLY_BYTES;
  const realRoot = fs.realpathSync(sides.root);
  const realHome = fs.realpathSync(sides.home);
  const asked = new Set<string>();
  // Each skip names the path as the request wrote it.
  const requestedAs = new Map<string, string>();
  const chosen: DiffChange[] = [];
  // The SHA-256 of the bytes the diff shown read, for each chosen file it read.
  const shownContent = new Map<string, string>();
  for (const requested of files) {
    if (typeof requested !== "string") {
      skipped.push({ path: JSON.stringify(requested) ?? String(requested), reason: "is no path: files lists paths (strings)" });
      continue;
    }
    const skip = (reason: string) => skipped.push({ path: requested, reason });
    // `/a` is no company path; normalised, it would name `a`.
    if (path.isAbsolute(requested)) {
      skip("is an absolute path: files lists paths relative to the company root");
      continue;
    }
    const rel = normalise(requested);
    if (asked.has(rel)) continue; // the same file named twice (`a`, `./a`)
    asked.add(rel);
    requestedAs.set(rel, requested);
    const change = changes.get(rel);
    const unreadableFolder = change ? undefined : unreadableFolderOf(rel, diff.seen);
    // The diff never lists them; a request naming one is refused all the same, said.
    if (rel.split("/").some(isNeverCopied)) skip(NEVER_APPLIED);
    else if (unreadableFolder !== undefined) skip(changes.get(unreadableFolder)!.refused!);
    else if (!change) skip(diff.tooMany ?? "the box did not change it");
    else if (change.refused) skip(change.refused);
    else if (change.workspaceChanged && !overwrite.has(rel)) skip("it changed in the workspace too since the box was synced: name it in overwrite to replace your version");
    else {
      const shown = shownParts(options.shown?.get(rel));
      if (options.shown && shown.seen !== diff.seen.get(rel)) skip(CHANGED_IN_BOX);
      else if (shown.content === UNREAD) skip(NOT_READ_BY_THE_DIFF);
      else if (shown.content === CHANGED) skip(CHANGED_IN_BOX);
      else {
        if (shown.content !== undefined) shownContent.set(rel, shown.content);
        chosen.push(change);
      }
    }
  }
  /** Whether the workspace's file changed since the sync, asked again just before it is replaced: the apply may have taken a while. */
  const conflictsNow = (rel: string): boolean => {
    if (overwrite.has(rel)) return false;
    return changedSinceSync(statOf(path.join(sides.root, rel)), manifest.files[rel]?.src);
  };
  // Deletions first: a file the box put where a folder was (`rm -rf lib && echo … > lib`) can
  // then take the place of a folder the chosen deletions emptied.
  const order = new Map(chosen.map((c, i) => [c.path, i]));
  chosen.sort((a, b) => Number(b.change === "deleted") - Number(a.change === "deleted"));
  const umask = process.umask();
  // What the manifest is to say of each path applied (undefined: deleted).
  const inStep = new Map<string, ManifestEntry | undefined>();
  let copied = 0;
  for (const change of chosen) {
    const rel = change.path;
    try {
      if (conflictsNow(rel)) throw new WorkspaceWriteRefused(CHANGED_IN_WORKSPACE_MEANWHILE);
      if (change.change === "deleted") {
        deleteFromWorkspace(realRoot, rel);
        inStep.set(rel, undefined);
      } else {
        // (Counted before the copy: one refused half-way took its time too.)
        if (copied + (change.size ?? 0) > maxApplyBytes) throw new WorkspaceWriteRefused(pastApplyBytes(maxApplyBytes, copied));
        copied += change.size ?? 0;
        const boxStat = await copyToWorkspace(realRoot, `${realHome}/${rel}`, rel, diff.seen.get(rel)!, shownContent.get(rel), umask);
        const written = statOf(path.join(sides.root, rel));
        if (written) inStep.set(rel, { src: written, box: boxStat });
      }
      applied.push(rel);
    } catch (error) {
      skipped.push({ path: requestedAs.get(rel)!, reason: (error as Error).message });
    }
  }
  recordInStep(sides, inStep);
  // Said in the order asked for.
  applied.sort((a, b) => order.get(a)! - order.get(b)!);
  return { applied, skipped };
}

/**
 * Records the files an apply brought in step in the box's manifest as it is now: the copies are
 * awaited, and a preview's sync may have written it meanwhile, whose entries are kept. Nothing is
 * written when the box was discarded meanwhile, or synced from another company.
 */
function recordInStep(sides: DiffSides, inStep: Map<string, ManifestEntry | undefined>): void {
  if (inStep.size === 0 || !fs.existsSync(sides.runsDir)) return;
  const synced = manifestRoot(sides.runsDir);
  if (synced !== undefined && synced !== sides.root) return;
  const manifest = readManifest(sides.runsDir, sides.root);
  for (const [rel, entry] of inStep) {
    if (entry) manifest.files[rel] = entry;
    else delete manifest.files[rel];
  }
  writeManifest(sides.runsDir, manifest);
}

/** A workspace folder that holds files where the box has a file: not replaced by an apply. */
export class WorkspaceFolderInTheWay extends Error {}

/**
 * Copies the box's regular file (at `boxReal`, its folders resolved) to the workspace at `rel`,
 * when its descriptor tells the fingerprint the diff saw, and (`content`, where the diff shown
 * read it) the bytes copied hash as the diff's did: a write since, or while they were copied,
 * that moved no time of the file is caught so. Returns the box file's stat for the manifest.
 */
async function copyToWorkspace(realRoot: string, boxReal: string, rel: string, fingerprint: string, content: string | undefined, umask: number): Promise<FileStat> {
  const opened = openRegular(boxReal, boxReal);
  if (!("fd" in opened)) throw new WorkspaceWriteRefused(opened.kind ? `${opened.problem} in the box now: show the changes again` : "it vanished from the box");
  try {
    if (opened.fingerprint !== fingerprint) throw new WorkspaceWriteRefused(CHANGED_IN_BOX);
    const parent = realParentIn(realRoot, rel);
    const name = rel.slice(rel.lastIndexOf("/") + 1);
    const { owner, mode } = makeRoomFor(`${parent}/${name}`, rel, parent);
    // The workspace's file as it is now: a save of the user's while the bytes are copied is theirs to keep.
    const before = statOf(`${parent}/${name}`);
    await writeBeside(parent, name, opened.fd, Number(opened.stat.size), appliedMode(Number(opened.stat.mode), mode, umask), owner, (sha256) =>
      content !== undefined && content !== `sha256:${sha256}` ? CHANGED_IN_BOX
        : !unchanged(opened) ? CHANGED_IN_BOX_WHILE_COPIED
          : !sameWorkspaceEntry(before, statOf(`${parent}/${name}`)) ? CHANGED_IN_WORKSPACE_MEANWHILE
            : undefined);
    const stat = fs.fstatSync(opened.fd);
    return { kind: "file", size: stat.size, mtimeMs: stat.mtimeMs, mode: stat.mode & 0o7777 };
  } finally {
    opened.close();
  }
}

/**
 * The mode an applied file gets, as git checks a file out: the box says only whether it is
 * executable (its owner's `x`). A workspace file keeps its own permissions, with `x` wherever it
 * has `r` when the box's is executable, none otherwise; a new file gets 0o666 (0o777 when
 * executable) minus the umask. No setuid, setgid or sticky bit, nor a box's world-writable file,
 * ever reaches the workspace.
 */
export function appliedMode(boxMode: number, workspaceMode: number | undefined, umask: number): number {
  const executable = (boxMode & 0o100) !== 0;
  if (workspaceMode === undefined) return (executable ? 0o777 : 0o666) & ~umask;
  return (workspaceMode & 0o666) | (executable ? (workspaceMode & 0o444) >> 2 : 0);
}

/** The box's file still has the fingerprint it was opened with (nothing wrote into it while it was copied). */
function unchanged(opened: OpenedFile): boolean {
  const now = fs.fstatSync(opened.fd, { bigint: true });
  return now.size === opened.stat.size && now.mtimeNs === opened.stat.mtimeNs && now.ctimeNs === opened.stat.ctimeNs;
}

/**
 * What is at the workspace's `target` before a file replaces it: a file is replaced (its owner
 * kept where the server may give it), an empty folder removed; a link, a folder with files, a
 * FIFO, socket or device is refused. Returns the owner for the new file when the server is root,
 * and the mode of the file it replaces.
 */
function makeRoomFor(target: string, rel: string, parent: string): { owner?: { uid: number; gid: number }; mode?: number } {
  let stat: fs.Stats | undefined;
  try {
    stat = fs.lstatSync(target);
  } catch {
    stat = undefined;
  }
  const root = process.getuid?.() === 0;
  if (!stat) {
    if (!root) return {};
    const folder = fs.statSync(parent);
    return { owner: { uid: folder.uid, gid: folder.gid } };
  }
  const kind = kindOf(stat);
  if (kind === "link") throw new WorkspaceWriteRefused(`${rel} is a symlink in the workspace: apply never writes through a link (replace it by hand if you want the box's file there)`);
  if (kind === "folder") {
    try {
      fs.rmdirSync(target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOTEMPTY" && code !== "EEXIST") throw error;
      throw new WorkspaceFolderInTheWay("the workspace has a folder there that holds files the diff does not list (ignored, or made since): move them, then apply again");
    }
    return root ? { owner: { uid: stat.uid, gid: stat.gid } } : {}; // a new file, in the folder's place
  }
  if (kind !== "file") throw new WorkspaceWriteRefused(`${rel} is ${kindName(kind)} in the workspace: apply replaces files only`);
  return { ...(root ? { owner: { uid: stat.uid, gid: stat.gid } } : {}), mode: stat.mode & 0o7777 };
}

/** Deletes the workspace's file (or link: never what it leads to) at `rel`, under real folders only. */
function deleteFromWorkspace(realRoot: string, rel: string): void {
  const segments = rel.split("/");
  let current = realRoot;
  for (let i = 0; i < segments.length - 1; i++) {
    current = `${current}/${segments[i]}`;
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(current);
    } catch {
      return; // its folder is gone: so is the file
    }
    if (!stat.isDirectory()) throw new WorkspaceWriteRefused(`${segments.slice(0, i + 1).join("/")} is ${kindName(kindOf(stat))} in the workspace, not a folder: apply never deletes through a link`);
  }
  const target = `${current}/${segments[segments.length - 1]}`;
  try {
    if (fs.lstatSync(target).isDirectory()) throw new WorkspaceWriteRefused(`${rel} is a folder in the workspace: apply deletes files only`);
  } catch (error) {
    if (error instanceof WorkspaceWriteRefused) throw error;
    return; // gone already
  }
  fs.unlinkSync(target);
}
