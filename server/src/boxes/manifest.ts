/**
 * A box's sync manifest (`<boxes>/.runs/<name>/sync.json`): for each file a sync copied, the
 * workspace file's stat and the box copy's right after the copy. The sync reads it to tell what
 * the box changed since (kept) from what it may update, the diff to tell the box's changes from
 * the workspace's, apply to record the files it brought in step.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { FileStat } from "./tree.ts";

export interface ManifestEntry {
  /** The workspace file when it was copied. */
  src: FileStat;
  /** The box's copy right after the copy. */
  box: FileStat;
}

export interface SyncManifest {
  version: 1;
  root: string;
  files: Record<string, ManifestEntry>;
}

export function manifestFile(runsDir: string): string {
  return path.join(runsDir, "sync.json");
}

export function readManifest(runsDir: string, root: string): SyncManifest {
  try {
    const manifest = JSON.parse(fs.readFileSync(manifestFile(runsDir), "utf8")) as SyncManifest;
    if (manifest?.version === 1 && manifest.root === root && manifest.files && typeof manifest.files === "object" && !Array.isArray(manifest.files)) {
      // Without a prototype: files named `constructor`, `toString` or `__proto__` are entries like any other.
      return { ...manifest, files: Object.assign(Object.create(null) as Record<string, ManifestEntry>, manifest.files) };
    }
  } catch {
    // none yet, or unreadable: start from nothing
  }
  return { version: 1, root, files: Object.create(null) };
}

/** The company the box's files were last synced from, if any (a box name can be shared: see `syncIntoBox`). */
export function manifestRoot(runsDir: string): string | undefined {
  try {
    const root = (JSON.parse(fs.readFileSync(manifestFile(runsDir), "utf8")) as SyncManifest)?.root;
    return typeof root === "string" ? root : undefined;
  } catch {
    return undefined;
  }
}

export function writeManifest(runsDir: string, manifest: SyncManifest): void {
  fs.mkdirSync(runsDir, { recursive: true });
  const file = manifestFile(runsDir);
  fs.writeFileSync(file + ".tmp", JSON.stringify(manifest));
  fs.renameSync(file + ".tmp", file);
}

