/**
 * Copies a company into a preview box and keeps it in step (SPEC B5) without losing what the box
 * changed. A manifest beside the box (`<boxes>/.runs/<name>/sync.json`) remembers, for each copied
 * file, the workspace file's size and mtime and the box copy's size and mtime right after the copy.
 * On the next sync a file flows from the workspace into the box only where the box's copy is still
 * the one we made; a file the box changed, made or deleted is kept as the box left it, and listed
 * in `kept`, unless `reset` asks for an exact copy again. The manifest is `manifest.ts`'s, the walk
 * and the comparisons `tree.ts`'s: the diff (`diff.ts`) reads both too, nothing of this file.
 *
 * Copied: every file and symlink (as a symlink) of the company except any entry named `.git` or
 * `node_modules` (folder, file or link, at any depth), any folder starting with `.`, and what
 * `.gitignore` files ignore. `<home>/node_modules` is then a symlink to the company's
 * `node_modules` (or the nearest one above it): read-only in the `namespace` tier, where the
 * system is mounted read-only, but writable through the link in the `process` tier.
 */
import { isUtf8 } from "node:buffer";
import * as fs from "node:fs";
import * as path from "node:path";
import type { BoxSyncReport } from "../protocol.ts";
import { FolderHandles, removeTree } from "./files.ts";
import { IgnoreRules } from "./ignore.ts";
import { manifestRoot, readManifest, writeManifest } from "./manifest.ts";
import { checkHome, inChunks, NAME_NOT_UTF8, sameContent, sameStat, statOf, walkTree, type FileStat, type Unreadable } from "./tree.ts";

/**
 * How a file is copied into the box. `COPYFILE_EXCL`: the copy is created with `O_CREAT | O_EXCL`,
 * so it never opens an existing path and never follows a symlink there; libuv then also skips its
 * fstat and ftruncate of the target, which cost about 50 µs a file on ext4 (10,000 files, copy and
 * stat: 1.15 s with them, 0.63 s without; `cp -r` 0.76 s; docs/bench.md). `COPYFILE_FICLONE`: a
 * copy-on-write clone where the file system has them (btrfs, XFS, APFS), as `cp` does by default;
 * elsewhere one failed ioctl, then the plain copy.
 */
const BOX_COPY = fs.constants.COPYFILE_EXCL | fs.constants.COPYFILE_FICLONE;

/**
 * Copies one workspace file (or symlink) into the box at `to` and returns the copy's stat, which
 * the manifest records so the next sync and the diff can tell the box's later changes. The box's
 * own entry at `to`, if any, is removed first and the copy made anew, never written into: what the
 * box put there may be a symlink or a hard link to a file outside the box (the user's files, which
 * a `namespace` box cannot write itself). `occupied`: the box's walk saw something at `to`.
 *
 * The copy's stat is a second `lstat` per file (about a tenth of the sync), kept on purpose: the
 * copy's mtime is the kernel's clock at the write, which nothing else tells. Setting it instead
 * (`utimes` to the workspace file's mtime) measured no cheaper and would date the copies in the
 * past, so a build in the box could take a freshly synced source for older than its output.
 */
function copyIntoBox(from: string, to: string, stat: FileStat, occupied: boolean): FileStat | undefined {
  if (occupied) removeEntry(to);
  try {
    createEntry(from, to, stat);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    // Something is at `to` that the box's walk did not list (made since, or hidden from the walk by
    // the box's own `.gitignore`): replace it, as above.
    removeEntry(to);
    createEntry(from, to, stat);
  }
  return statOf(to);
}

function createEntry(from: string, to: string, stat: FileStat): void {
  if (stat.kind === "link") fs.symlinkSync(stat.link!, to);
  else fs.copyFileSync(from, to, BOX_COPY);
}

/**
 * Removes the entries of the box whose names are not UTF-8 (the walk noted them: `unnamed`), files
 * and folders with what they hold, and returns how many. Node names files in UTF-8, so such a name
 * names nothing as a string: a reset left it in the box, and the next diff listed it again. Each
 * is found again by its bytes in its folder (which the walk reached by names that are UTF-8, and
 * `dirs` opened without following a link) and removed through descriptors (`removeTree`): a tree
 * of any depth, never followed through a link.
 */
function removeNamesNotUtf8(dirs: FolderHandles, unnamed: Map<string, Unreadable>): number {
  const folders = new Set<string>();
  for (const [rel, { code }] of unnamed) if (code === NAME_NOT_UTF8) folders.add(rel.slice(0, Math.max(0, rel.lastIndexOf("/"))));
  let removed = 0;
  for (const rel of folders) {
    let names: Buffer[];
    try {
      names = fs.readdirSync(dirs.atBytes(rel, Buffer.alloc(0)), { encoding: "buffer" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue; // gone meanwhile
      throw error;
    }
    for (const name of names) {
      if (isUtf8(name)) continue;
      // (A tree of any depth, its own names perhaps no UTF-8 either, through descriptors.)
      removeTree(dirs.atBytes(rel, name), { byDescriptors: true });
      removed++;
    }
  }
  return removed;
}

/** Removes a file, symlink (not what it points to) or folder at `full`; nothing there is fine. */
function removeEntry(full: string): void {
  try {
    fs.unlinkSync(full);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return;
    if (code !== "EISDIR" && code !== "EPERM") throw error; // EPERM: unlink of a folder on macOS
    removeTree(full, { byDescriptors: true });
  }
}

export interface SyncOptions {
  /** The company root (copied from). */
  root: string;
  /** The box's home (copied into). */
  home: string;
  /** The box's bookkeeping folder (holds the manifest). */
  runsDir: string;
  /** Make the box an exact copy again, dropping its own changes. */
  reset?: boolean;
  /** Called once the box has been walked, before anything is written in it (for tests: what a box's process may do then). */
  afterWalk?: () => void;
}

/** Brings the workspace's files into the box; see the file's header for what is kept. */
export async function syncIntoBox(options: SyncOptions): Promise<BoxSyncReport> {
  const started = performance.now();
  const root = path.resolve(options.root);
  const home = path.resolve(options.home);
  const { runsDir } = options;
  checkHome(home);
  const homeExisted = fs.existsSync(home);
  fs.mkdirSync(home, { recursive: true });
  const above = IgnoreRules.above(root);
  const source = await walkTree(root, above);
  // Files and links are copied; a FIFO, socket or device of the workspace is no file to copy.
  for (const [rel, stat] of source) if (stat.kind !== "file" && stat.kind !== "link") source.delete(rel);
  // A box last synced from another company (two companies' workflows of one name share a box
  // name) holds none of this company's files: it is made an exact copy, never merged.
  const synced = manifestRoot(runsDir);
  const reset = options.reset || (synced !== undefined && synced !== root);
  const manifest = readManifest(runsDir, root);
  // A home deleted by hand is no deletion by the box: copy everything again.
  if (!homeExisted) manifest.files = Object.create(null);
  const known = Object.keys(manifest.files).length > 0 || reset;
  // A first sync into an empty box needs no look at the box.
  // (On a reset, what the walk cannot name is noted too: a name that is not UTF-8 is deleted below.)
  const unnamed = reset ? new Map<string, Unreadable>() : undefined;
  const box = known || fs.readdirSync(home).length > 0 ? await walkTree(home, above, root, unnamed) : new Map<string, FileStat>();
  options.afterWalk?.();
  // Everything written or removed in the box from here on goes through its folders' descriptors:
  // a folder the box swaps for a link meanwhile is refused, never followed (files.ts).
  const dirs = new FolderHandles(home);
  try {
    return await writeIntoBox({ root, runsDir, reset, started, source, manifest, box, unnamed, dirs });
  } finally {
    dirs.close();
  }
}

/** The second half of `syncIntoBox`: what to copy, keep and delete, and doing it, through `dirs`. */
async function writeIntoBox({ root, runsDir, reset, started, source, manifest, box, unnamed, dirs }: {
  root: string; runsDir: string; reset: boolean; started: number; source: Map<string, FileStat>;
  manifest: ReturnType<typeof readManifest>; box: Map<string, FileStat>; unnamed: Map<string, Unreadable> | undefined; dirs: FolderHandles;
}): Promise<BoxSyncReport> {
  const report: BoxSyncReport = { copied: 0, updated: 0, deleted: 0, kept: [], unchanged: 0, ms: 0 };
  const toCopy: Array<{ rel: string; stat: FileStat; isNew: boolean }> = [];
  const toDelete = new Set<string>();

  for (const [rel, src] of source) {
    const entry = manifest.files[rel];
    const current = box.get(rel);
    const boxUntouched = entry !== undefined && sameStat(current, entry.box);
    const sourceUnchanged = entry !== undefined && sameStat(src, entry.src);
    if (boxUntouched && sourceUnchanged) {
      report.unchanged++;
      continue;
    }
    if (reset || boxUntouched) {
      toCopy.push({ rel, stat: src, isNew: current === undefined });
      continue;
    }
    if (current === undefined) {
      if (entry === undefined) toCopy.push({ rel, stat: src, isNew: true });
      else report.kept.push(rel); // the box deleted it
      continue;
    }
    // The box has its own version: keep it, and remember it when it is the workspace's anyway.
    if (sameContent(dirs.at(rel), current, path.join(root, rel), src)) {
      manifest.files[rel] = { src, box: current };
      report.unchanged++;
    } else report.kept.push(rel);
  }
  for (const [rel, entry] of Object.entries(manifest.files)) {
    if (source.has(rel)) continue;
    const current = box.get(rel);
    if (current === undefined || reset || sameStat(current, entry.box)) {
      if (current !== undefined) toDelete.add(rel);
      delete manifest.files[rel];
    } else report.kept.push(rel); // the workspace deleted it, the box changed it
  }
  if (reset) {
    for (const rel of box.keys()) if (!source.has(rel) && manifest.files[rel] === undefined) toDelete.add(rel);
    report.deleted += removeNamesNotUtf8(dirs, unnamed!);
  }

  for (const rel of toDelete) {
    fs.rmSync(dirs.at(rel), { force: true });
    report.deleted++;
  }
  // Folders first, shallow before deep, each made once, then the files. A file's folders are added
  // from the deepest up, stopping at the first one already known (its own parents are known too).
  const folders = new Set<string>();
  for (const { rel } of toCopy) {
    for (let slash = rel.lastIndexOf("/"); slash > 0; slash = rel.lastIndexOf("/", slash - 1)) {
      const dir = rel.slice(0, slash);
      if (folders.has(dir)) break;
      folders.add(dir);
    }
  }
  for (const dir of [...folders].sort((a, b) => a.length - b.length)) {
    const full = dirs.at(dir);
    try {
      fs.mkdirSync(full);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (!fs.lstatSync(full).isDirectory()) {
        fs.rmSync(full, { force: true }); // a file or link where the workspace has a folder
        fs.mkdirSync(full);
      }
    }
  }
  await inChunks(toCopy, ({ rel, stat, isNew }) => {
    let copy: FileStat | undefined;
    try {
      copy = copyIntoBox(`${root}/${rel}`, dirs.at(rel), stat, !isNew);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return; // deleted from the workspace meanwhile
      throw error;
    }
    if (!copy) return;
    manifest.files[rel] = { src: stat, box: copy };
    if (isNew) report.copied++;
    else report.updated++;
  });
  writeManifest(runsDir, manifest);
  linkNodeModules(root, dirs.at("node_modules"));
  report.kept.sort();
  report.ms = Math.round(performance.now() - started);
  return report;
}

/**
 * The `node_modules` a company's box sees: the company's own, or the nearest one above it (a
 * monorepo's hoisted packages). Worked out from the company root, never from the box: the
 * container tier mounts it (`mounts` in container.ts), and a link the box made must not choose.
 */
export function companyNodeModules(root: string): string | undefined {
  for (let dir = path.resolve(root); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "node_modules");
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * `link` (the box's `node_modules`, through its home's descriptor) → the company's `node_modules`,
 * or the nearest one above the company (a monorepo's hoisted packages). A folder of that name that
 * the box made itself is left alone.
 */
export function linkNodeModules(root: string, link: string): string | undefined {
  const target = companyNodeModules(root);
  let existing: fs.Stats | undefined;
  try {
    existing = fs.lstatSync(link);
  } catch {
    existing = undefined;
  }
  if (existing && !existing.isSymbolicLink()) return undefined;
  if (existing && target && fs.readlinkSync(link) === target) return target;
  if (existing) fs.rmSync(link, { force: true });
  if (target) fs.symlinkSync(target, link, "dir");
  return target;
}
