/**
 * Watches, for the language server, where a `.sanomarc.json` or a `sanoma.config.ts` that no one
 * else watches can be: the folders above a company root, or above a workspace folder, that lie
 * outside every workspace folder (a monorepo's top, with the editor opened on one company; a
 * folder opened before its company's config was made above it, by a checkout or `sanoma init`).
 * The client's watching, and the server's own trees, reach the workspace folders and the company
 * roots only: a team's file there, changed, was read again only by a reload or "Check Workspace
 * Now", and a company made there was never found.
 *
 * One `fs.watch` per such folder, not recursive (a folder's own entries: `/home/me` is not walked),
 * shared by the companies and folders below it; each reports only the entries of those two names
 * (made, written, deleted). A folder that cannot be watched (no permission, the system's watches
 * used up) is said once in the log and left: the limit stays as it was for it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { CONFIG_FILE } from "../core/company.ts";
import { SANOMARC } from "../core/sanomarc.ts";
import type { Change } from "./folder-watcher.ts";

export class SettingsAboveWatcher {
  /** Each folder watched, and the company roots that asked for it. */
  private readonly folders = new Map<string, { handle: fs.FSWatcher; roots: Set<string> }>();
  /** Folders that could not be watched: said once. */
  private readonly refused = new Set<string>();

  constructor(private readonly onChange: (file: string, kind: Change) => void, private readonly log: (m: string) => void) {}

  /** Watches the folders above `root` (a company root or a workspace folder: its own is watched already) for which `covered` says no one else does; `owner`: who asks (`unwatchAbove`'s key). */
  watchAbove(root: string, covered: (dir: string) => boolean, owner = root): void {
    for (let dir = path.dirname(root); ; dir = path.dirname(dir)) {
      if (!covered(dir)) this.watchFolder(dir, owner);
      if (path.dirname(dir) === dir) return;
    }
  }

  /** The company at `root` (or the owner given to `watchAbove`) is gone: the folders only it asked for are let go. */
  unwatchAbove(root: string): void {
    for (const [dir, w] of this.folders) {
      if (!w.roots.delete(root) || w.roots.size > 0) continue;
      w.handle.close();
      this.folders.delete(dir);
    }
  }

  /** The folders watched (for tests). */
  get watched(): string[] {
    return [...this.folders.keys()];
  }

  close(): void {
    for (const w of this.folders.values()) w.handle.close();
    this.folders.clear();
  }

  private watchFolder(dir: string, root: string): void {
    const known = this.folders.get(dir);
    if (known) { known.roots.add(root); return; }
    let handle: fs.FSWatcher;
    try {
      // (Not persistent: a watch never keeps the server alive.)
      handle = fs.watch(dir, { persistent: false }, (event, name) => {
        if (name !== SANOMARC && name !== CONFIG_FILE) return;
        const file = path.join(dir, name);
        const there = fs.lstatSync(file, { throwIfNoEntry: false }) !== undefined;
        this.onChange(file, !there ? "deleted" : event === "rename" ? "created" : "changed");
      });
      handle.on("error", () => { handle.close(); this.folders.delete(dir); });
    } catch (e) {
      if (this.refused.has(dir)) return;
      this.refused.add(dir);
      this.log(`cannot watch ${dir} for a ${SANOMARC} (${(e as NodeJS.ErrnoException).code ?? e}): a change to one there is read at the next "Check Workspace Now"`);
      return;
    }
    this.folders.set(dir, { handle, roots: new Set([root]) });
  }
}
