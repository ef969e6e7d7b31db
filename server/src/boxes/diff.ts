/**
 * What a preview changed in its box, against the workspace (SPEC B5), and applying chosen files
 * back. "Changed by the box" is judged against the sync manifest: a file whose box copy is still
 * the one the last sync made is not the box's change, even when the workspace moved on since (the
 * next sync brings that in). So the diff never offers to undo the user's own edits, and
 * `workspaceChanged` flags the files both sides changed.
 *
 * Nothing in the workspace changes except through `applyToWorkspace`, and it writes only files the
 * diff lists, inside the company root, never through a symlink that leads out of it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { BoxFileChange } from "../protocol.ts";
import { IgnoreRules } from "./ignore.ts";
import { BoxPathError, resolveInHome } from "./paths.ts";
import { checkHome, copyEntry, manifestRoot, readManifest, sameContent, sameStat, statOf, walkTree, writeManifest, type FileStat } from "./sync.ts";

export interface DiffSides {
  /** The company root (the workspace side). */
  root: string;
  /** The box's home. */
  home: string;
  /** The box's bookkeeping folder (holds the sync manifest). */
  runsDir: string;
}

/** The files the box added, modified or deleted, sorted by path. */
export async function diffBox(sides: DiffSides): Promise<BoxFileChange[]> {
  const { root, home, runsDir } = sides;
  checkHome(home);
  if (!fs.existsSync(home)) throw new Error(`the box's folder ${home} is gone: run the preview again to remake it`);
  const synced = manifestRoot(runsDir);
  if (synced !== undefined && synced !== root) throw new Error(`the box holds a copy of another company (${synced}): run this company's preview to make it this company's`);
  const above = IgnoreRules.above(root);
  const box = await walkTree(home, above, root);
  const workspace = await walkTree(root, above);
  const manifest = readManifest(runsDir, root);
  const changes: BoxFileChange[] = [];
  for (const [rel, boxStat] of box) {
    const entry = manifest.files[rel];
    if (entry && sameStat(boxStat, entry.box)) continue; // the copy the sync made
    const change = classify(sides, rel, boxStat, workspace.get(rel), entry);
    if (change) changes.push(change);
  }
  for (const [rel, entry] of Object.entries(manifest.files)) {
    if (box.has(rel)) continue;
    const workspaceStat = workspace.get(rel);
    if (!workspaceStat) continue; // gone on both sides
    changes.push({ path: rel, change: "deleted", workspaceChanged: !sameStat(workspaceStat, entry.src), workspaceFile: path.join(root, rel) });
  }
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function classify(sides: DiffSides, rel: string, boxStat: FileStat, workspaceStat: FileStat | undefined, entry: { src: FileStat } | undefined): BoxFileChange | undefined {
  const boxFile = path.join(sides.home, rel);
  const workspaceFile = path.join(sides.root, rel);
  if (!workspaceStat) return { path: rel, change: "added", workspaceChanged: entry !== undefined, boxFile, workspaceFile };
  if (sameContent(boxFile, boxStat, workspaceFile, workspaceStat)) return undefined;
  return { path: rel, change: "modified", workspaceChanged: entry !== undefined && !sameStat(workspaceStat, entry.src), boxFile, workspaceFile };
}

/**
 * Copies the chosen files from the box into the workspace (a deletion deletes the workspace's
 * file) and records them as in step, so they leave the diff. Paths not in the diff are skipped.
 */
export async function applyToWorkspace(sides: DiffSides, files: string[]): Promise<{ applied: string[]; skipped: { path: string; reason: string }[] }> {
  const applied: string[] = [];
  const skipped: { path: string; reason: string }[] = [];
  const changes = new Map((await diffBox(sides)).map((c) => [c.path, c]));
  const manifest = readManifest(sides.runsDir, sides.root);
  const seen = new Set<string>();
  const chosen: { rel: string; change: BoxFileChange }[] = [];
  for (const requested of new Set(files)) {
    // `\` is a separator on Windows only: elsewhere it may be part of a file's name.
    const rel = typeof requested === "string" ? requested.split(path.sep === "/" ? /\/+/ : /[/\\]+/).filter((s) => s && s !== ".").join("/") : "";
    if (seen.has(rel)) continue; // the same file named twice (`a`, `./a`)
    seen.add(rel);
    const change = changes.get(rel);
    if (!change) {
      skipped.push({ path: String(requested), reason: "the box did not change it" });
      continue;
    }
    chosen.push({ rel, change });
  }
  // Deletions first: a file the box put where a folder was (`rm -rf lib && echo … > lib`) can
  // then take the place of a folder the chosen deletions emptied.
  const order = new Map(chosen.map((c, i) => [c.rel, i]));
  chosen.sort((a, b) => Number(b.change.change === "deleted") - Number(a.change.change === "deleted"));
  for (const { rel, change } of chosen) {
    let workspaceFile: string;
    let boxFile: string;
    try {
      workspaceFile = resolveInHome(sides.root, rel);
      boxFile = resolveInHome(sides.home, rel);
    } catch (error) {
      skipped.push({ path: rel, reason: error instanceof BoxPathError ? error.message : String(error) });
      continue;
    }
    try {
      if (change.change === "deleted") {
        fs.rmSync(workspaceFile, { force: true });
        delete manifest.files[rel];
      } else {
        const boxStat = statOf(boxFile);
        if (!boxStat) {
          skipped.push({ path: rel, reason: "it vanished from the box" });
          continue;
        }
        fs.mkdirSync(path.dirname(workspaceFile), { recursive: true });
        const written = copyEntry(boxFile, workspaceFile, boxStat);
        // The permission bits only: a box's setuid or setgid bit never reaches the workspace.
        if (boxStat.kind === "file") fs.chmodSync(workspaceFile, boxStat.mode & 0o777);
        if (written) manifest.files[rel] = { src: statOf(workspaceFile) ?? written, box: boxStat };
      }
      applied.push(rel);
    } catch (error) {
      skipped.push({ path: rel, reason: (error as Error).message });
    }
  }
  writeManifest(sides.runsDir, manifest);
  // Said in the order asked for.
  applied.sort((a, b) => order.get(a)! - order.get(b)!);
  return { applied, skipped };
}
