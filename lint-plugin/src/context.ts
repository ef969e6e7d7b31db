/**
 * The file a host lints → the core's `ImportContext` (root, company-relative path, role), or null
 * when the core would not look at the file at all: no company (or inside `node_modules`), under a
 * folder that company walks skip (a name starting with `.`), or not a code file. A company whose
 * root lies under a dot folder below the host's working folder (`.attic/oldco/`) is one
 * `sanoma-check` run there never finds (its search skips dot folders, A3): none either.
 *
 * What depends on the folder alone (its root, its path in the company, whether it is skipped) is
 * kept per folder for the current observation of the roots, so a file costs a map lookup and its
 * role (what a role takes from the folder is kept with it too); the last file's context is kept
 * for the five rules that ask for it in turn.
 */
import * as fs from "node:fs";
import path from "node:path"; // (the default import: a bundle reads its functions as plain properties, not through getters)
import { folderRoleOf, isCodeFile, relativeTo, roleIn, type FolderRole } from "../../server/src/core/company.ts";
import type { ImportContext } from "../../server/src/core/sites.ts";
import { RootCache, type ObservationEnd } from "./roots.ts";
import { excludes, NO_SHARED, readShared, type Shared } from "./shared.ts";

interface Folder {
  /** The folder's absolute path. */
  dir: string;
  observation: number;
  /** The host's working folder the record was made for. */
  cwd: string | undefined;
  root: string | undefined;
  /** The folder's path in its company (`""` for the root itself), or null when nothing in it is read. */
  rel: string | null;
  /** What its files' roles take from it (when `rel` is not null). */
  role: FolderRole | null;
  /** Whether its company holds a file at a company-relative path (asked of the disk, rarely: see `ImportContext.hasFile`). */
  hasFile: ((rel: string) => boolean) | undefined;
  /** The rules its company's `.sanomarc.json` turns off. */
  off: ReadonlySet<string>;
}

export class FileContexts {
  private readonly folders = new Map<string, Folder>();
  private readonly fileProbes = new Map<string, (rel: string) => boolean>();
  private last: { file: string; observation: number; ctx: ImportContext | null } | undefined;
  /** The last two folders asked about, the last first. */
  private readonly recent: [Folder | undefined, Folder | undefined] = [undefined, undefined];

  /** Each company's `.sanomarc.json`, read once per observation. */
  private readonly shared = new Map<string, { observation: number; shared: Shared }>();

  constructor(readonly roots: RootCache = new RootCache(), private readonly readSharedOf: (root: string) => Shared = readShared) {}

  private sharedOf(root: string): Shared {
    const known = this.shared.get(root);
    if (known?.observation === this.roots.currentObservation) return known.shared;
    const shared = this.readSharedOf(root);
    this.shared.set(root, { observation: this.roots.currentObservation, shared });
    return shared;
  }

  /** Each company root's real path, asked once per observation. */
  private readonly realRoots = new Map<string, { observation: number; real: string | undefined }>();

  /** Whether the folder `dir`, at `rel` in the company at `root`, lies under a link to a folder inside the company: its real path is not the root's real path and `rel`. */
  private throughFolderLink(root: string, dir: string, rel: string): boolean {
    let known = this.realRoots.get(root);
    if (known?.observation !== this.roots.currentObservation) {
      let real: string | undefined;
      try { real = fs.realpathSync.native(root); } catch { real = undefined; }
      this.realRoots.set(root, (known = { observation: this.roots.currentObservation, real }));
    }
    if (known.real === undefined) return false;
    try {
      return fs.realpathSync.native(dir) !== path.join(known.real, rel);
    } catch {
      return false; // (a folder gone: judged by its path, as before)
    }
  }

  of(file: string, end: ObservationEnd, cwd?: string): ImportContext | null {
    return this.locate(file, end, cwd)?.ctx ?? null;
  }

  /** The file's context and its folder's record (one object per folder and observation: a key for what depends on the folder alone). */
  locate(file: string, end: ObservationEnd, cwd?: string): { ctx: ImportContext; folder: Folder } | null {
    // `<input>`, `<text>`: text linted without a file has no place in a company.
    if (!path.isAbsolute(file) || !isCodeFile(file)) return null;
    // A host gives absolute, normalised paths: on POSIX the folder is what precedes the last `/`.
    const cut = path.sep === "/" ? file.lastIndexOf("/") : -1;
    // Most files are in one of the last two folders asked about (oxlint's two lint threads walk
    // two folders at a time): those are found without cutting the path and hashing it.
    const recent = this.recent;
    let folder: Folder;
    if (cut > 0 && recent[0] !== undefined && recent[0].dir.length === cut && file.startsWith(recent[0].dir)) folder = this.current(recent[0], file, end, cwd);
    else if (cut > 0 && recent[1] !== undefined && recent[1].dir.length === cut && file.startsWith(recent[1].dir)) folder = this.current(recent[1], file, end, cwd);
    else {
      folder = this.folder(cut > 0 ? file.slice(0, cut) : path.dirname(file), file, end, cwd);
      recent[1] = recent[0];
      recent[0] = folder;
    }
    const last = this.last;
    if (last && last.file === file && last.observation === folder.observation) return last.ctx && { ctx: last.ctx, folder };
    let ctx: ImportContext | null = null;
    if (folder.root !== undefined && folder.rel !== null) {
      const base = cut > 0 ? file.slice(cut + 1) : path.basename(file);
      const rel = folder.rel === "" ? base : `${folder.rel}/${base}`;
      ctx = { root: folder.root, file, rel, role: roleIn(folder.role!, base), hasFile: folder.hasFile };
    }
    this.last = { file, observation: folder.observation, ctx };
    return ctx && { ctx, folder };
  }

  /** One `hasFile` per company root: asks the disk (`apps/x.ts` for an import of `apps/x`, the only question asked). */
  private filesOf(root: string): (rel: string) => boolean {
    let probe = this.fileProbes.get(root);
    if (probe === undefined) {
      probe = (rel) => {
        try {
          return fs.statSync(path.join(root, rel), { throwIfNoEntry: false })?.isFile() ?? false;
        } catch {
          return false;
        }
      };
      this.fileProbes.set(root, probe);
    }
    return probe;
  }

  /** A recent folder's record, when it is still current for this observation and working folder; else the folder's record anew. */
  private current(known: Folder, file: string, end: ObservationEnd, cwd: string | undefined): Folder {
    this.roots.touch(end);
    return known.observation === this.roots.currentObservation && known.cwd === cwd ? known : this.folder(known.dir, file, end, cwd);
  }

  private folder(dir: string, file: string, end: ObservationEnd, cwd: string | undefined): Folder {
    // Touching the roots first keeps the observation current (and ends it on time).
    this.roots.touch(end);
    const known = this.folders.get(dir);
    if (known?.observation === this.roots.currentObservation && known.cwd === cwd) return known;
    let root = this.roots.rootOf(file, end);
    if (root !== undefined && cwd !== undefined && underDotFolder(cwd, root)) root = undefined;
    const observation = this.roots.currentObservation;
    let rel: string | null = null;
    let shared = NO_SHARED;
    if (root !== undefined) {
      rel = dir === root ? "" : relativeTo(root, dir) ?? null;
      // A company's files are listed skipping dot folders (A3): the check never reads these.
      if (rel !== null && hasDotFolder(rel)) rel = null;
      shared = this.sharedOf(root);
      // Nor the folders its .sanomarc.json leaves out.
      if (rel !== null && excludes(shared, rel)) rel = null;
      // Nor a folder reached through a link to a folder inside the company: a company's walk
      // follows none (each file is read once, by its own path, where its role is its own), but a
      // host that follows links would judge the files under one by the link's path (an app's
      // folder linked into another app, a library linked under workflows/), problems the check
      // never reports.
      if (rel !== null && rel !== "" && this.throughFolderLink(root, dir, rel)) rel = null;
    }
    const folder = { dir, observation, cwd, root, rel, role: rel === null ? null : folderRoleOf(rel), hasFile: root === undefined ? undefined : this.filesOf(root), off: shared.off };
    this.folders.set(dir, folder);
    // (A record made anew replaces the stale one among the recent.)
    if (this.recent[0]?.dir === dir) this.recent[0] = folder;
    else if (this.recent[1]?.dir === dir) this.recent[1] = folder;
    return folder;
  }
}

/** Whether `root` lies under `cwd` through a folder whose name starts with `.` (which a search from `cwd` skips). */
function underDotFolder(cwd: string, root: string): boolean {
  const rel = relativeTo(cwd, root);
  return rel !== undefined && hasDotFolder(rel);
}

/** Whether a `/`-separated relative path passes through a folder whose name starts with `.` (A3: skipped). */
function hasDotFolder(rel: string): boolean {
  return rel.split("/").some((d) => d.startsWith("."));
}
