/**
 * Our own file watcher: the server's, for clients that cannot register `workspace/didChangeWatchedFiles`
 * (Neovim 0.7), and the TypeScript plugin's, for files changed in place (tsserver's recursive
 * watching on Linux reports files created and deleted only): one `fs.watch` per folder of a tree, `node_modules` and dot folders left out
 * (a `node_modules` made or deleted is reported, not walked), new folders watched as they appear. Events are coalesced per path for a few milliseconds.
 * The trees are the workspace folders and the roots of every company indexed (one found through
 * an open file, above a folder, or named by the settings); a tree is let go when nothing leads to
 * it any more, but for the folders another tree holds.
 *
 * A folder deleted and made again before its events are coalesced (`rm -rf gen && mkdir gen`, a
 * checkout) is still a folder when looked at, but its watch watched the folder that went (an
 * inode the kernel dropped; ext4 even gives the new folder the same inode number). Each watch keeps
 * what it watched (device, inode and birth time) and notes the event its folder reports of itself
 * when it goes: a folder found replaced is watched anew, whole, and reported deleted then created.
 *
 * A tree's root that goes (a workspace folder deleted whole) leaves no watch to see it come back:
 * such a root is looked for every `MISSING_POLL_MS` until it is there again, then watched and
 * reported created.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { isSkippedDirName } from "../core/company.ts";
import { isWithin } from "../core/model.ts";

export type Change = "created" | "changed" | "deleted";

/** How often a tree's root that is gone is looked for. */
const MISSING_POLL_MS = 250;

interface Watch {
  handle: fs.FSWatcher;
  /** The folder watched: device, inode and birth time. */
  id: string;
  /** The folder reported itself gone (deleted or moved away): the watch sees nothing more. */
  gone: boolean;
}

function identity(st: fs.BigIntStats): string {
  return `${st.dev}:${st.ino}:${st.birthtimeNs}`;
}

export class FolderWatcher {
  private readonly watchers = new Map<string, Watch>();
  private readonly pending = new Map<string, NodeJS.Timeout>();
  /** The trees asked for (`watchTree`), each watched whole, with what asked for each (a folder and a company may share a root). */
  private readonly roots = new Map<string, Set<string>>();
  /** Roots of trees asked for that are not there (deleted, or not made yet): looked for until they are. */
  private readonly missing = new Set<string>();
  private poll: NodeJS.Timeout | undefined;

  constructor(private readonly onChange: (file: string, kind: Change) => void, private readonly log: (m: string) => void) {}

  /**
   * Watches a tree for `owner` (idempotent: a folder already watched is not watched again, nor is
   * its tree walked).
   */
  watchTree(root: string, owner: string): void {
    let owners = this.roots.get(root);
    if (!owners) this.roots.set(root, owners = new Set());
    owners.add(owner);
    if (!isDirectory(root)) { this.miss(root); return; }
    this.walk(root);
  }

  /** A tree's root is not there: looked for until it is, then watched, whole, and reported created. */
  private miss(root: string): void {
    this.missing.add(root);
    this.poll ??= setInterval(() => {
      for (const r of this.missing) {
        if (!this.roots.has(r)) { this.missing.delete(r); continue; }
        if (!isDirectory(r)) continue;
        this.missing.delete(r);
        this.walk(r);
        if (this.missing.has(r)) continue; // gone again before its watch: still looked for
        this.onChange(r, "created");
      }
      if (this.missing.size === 0) { clearInterval(this.poll); this.poll = undefined; }
    }, MISSING_POLL_MS);
    this.poll.unref();
  }

  /** `owner` no longer needs a tree: when nothing else does, it is let go, but for the folders of the trees still watched. */
  unwatchTree(root: string, owner: string): void {
    const owners = this.roots.get(root);
    if (!owners?.delete(owner) || owners.size > 0) return;
    this.roots.delete(root);
    for (const [dir, w] of this.watchers) {
      if (!isWithin(root, dir) || [...this.roots.keys()].some((r) => isWithin(r, dir))) continue;
      w.handle.close();
      this.watchers.delete(dir);
    }
  }

  /** Closes the watches of a folder and of every folder under it (gone, or replaced). */
  private unwatchUnder(dir: string): void {
    for (const [d, w] of this.watchers) if (isWithin(dir, d)) { w.handle.close(); this.watchers.delete(d); }
  }

  private walk(root: string): void {
    const stack = [root];
    const seen = new Set<string>();
    while (stack.length) {
      const dir = stack.pop()!;
      let real: string;
      let id: string;
      try { real = fs.realpathSync(dir); id = identity(fs.statSync(dir, { bigint: true })); } catch {
        // Gone since it was asked for: a tree's root is then looked for until it is back.
        if (this.roots.has(dir)) this.miss(dir);
        continue;
      }
      if (seen.has(real)) continue;
      const w = this.watchers.get(dir);
      if (w && !w.gone && w.id === id) continue; // watched, and its tree with it
      if (w) this.unwatchUnder(dir); // a folder replaced: those watches see nothing more
      seen.add(real);
      this.watchDir(dir, id);
      let entries: fs.Dirent[] = [];
      try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { continue; }
      for (const e of entries) if (e.isDirectory() && !isSkippedDirName(e.name)) stack.push(path.join(dir, e.name));
    }
  }

  private watchDir(dir: string, id: string): void {
    try {
      const self = path.basename(dir);
      const handle = fs.watch(dir, { persistent: false }, (event, name) => {
        if (!name) return;
        // Its own name: the folder itself went (Linux names it so), or a child named like it came
        // or went; either way the folder is looked at again, and reported whole if replaced.
        if (event === "rename" && name.toString() === self) { watch.gone = true; this.touched(dir); return; }
        this.touched(path.join(dir, name.toString()));
      });
      const watch: Watch = { handle, id, gone: false };
      handle.on("error", () => { handle.close(); if (this.watchers.get(dir) === watch) this.watchers.delete(dir); });
      this.watchers.set(dir, watch);
    } catch (e) {
      // A tree's root deleted between its stat and its watch (a workspace folder removed while
      // the server starts) leaves no watch to see it come back: looked for instead. (Only if gone:
      // a folder there that cannot be watched, the kernel's watches used up, would be found at
      // every poll and reported created each time.)
      if (this.roots.has(dir) && !isDirectory(dir)) this.miss(dir);
      else this.log(`cannot watch ${dir}: ${(e as Error).message}`);
    }
  }

  private touched(p: string): void {
    const t = this.pending.get(p);
    if (t) clearTimeout(t);
    this.pending.set(p, setTimeout(() => {
      this.pending.delete(p);
      let st: fs.BigIntStats;
      try { st = fs.statSync(p, { bigint: true }); } catch {
        this.unwatchUnder(p);
        this.onChange(p, "deleted");
        if (this.roots.has(p)) this.miss(p);
        return;
      }
      if (st.isDirectory()) {
        if (isSkippedDirName(path.basename(p))) {
          // Never walked, but a `node_modules` made (`npm install` in a fresh clone) may hold the
          // packages a company's connectors were looked for in, in vain: said, not walked.
          if (path.basename(p) === "node_modules") this.onChange(p, "created");
          return;
        }
        const w = this.watchers.get(p);
        if (!w) {
          if (![...this.roots.keys()].some((r) => isWithin(r, p))) return; // its tree let go meanwhile
          this.walk(p);
          this.onChange(p, "created");
          return;
        }
        if (w.gone || w.id !== identity(st)) {
          // Deleted and made again: watched anew, and reported as what happened, so that the
          // files indexed under the folder that went (gone, or changed) are let go or read again.
          this.unwatchUnder(p);
          this.walk(p);
          this.onChange(p, "deleted");
          this.onChange(p, "created");
          return;
        }
      }
      this.onChange(p, "changed");
    }, 30));
  }

  close(): void {
    if (this.poll) clearInterval(this.poll);
    this.poll = undefined;
    this.missing.clear();
    for (const w of this.watchers.values()) w.handle.close();
    this.watchers.clear();
    this.roots.clear();
    for (const t of this.pending.values()) clearTimeout(t);
    this.pending.clear();
  }
}

function isDirectory(p: string): boolean {
  try { return fs.statSync(p).isDirectory(); } catch { return false; }
}
