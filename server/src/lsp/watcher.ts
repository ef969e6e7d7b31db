/**
 * The server's own file watcher, for clients that cannot register `workspace/didChangeWatchedFiles`
 * (Neovim 0.7): one `fs.watch` per folder of a tree, `node_modules` and dot folders left out,
 * new folders watched as they appear. Events are coalesced per path for a few milliseconds.
 * The trees are the workspace folders and the roots of every company indexed (one found through
 * an open file, above a folder, or named by the settings); a tree is let go when nothing leads to
 * it any more, but for the folders another tree holds.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { isSkippedDirName } from "../core/company.ts";
import { isWithin } from "../core/model.ts";

export type Change = "created" | "changed" | "deleted";

export class FolderWatcher {
  private readonly watchers = new Map<string, fs.FSWatcher>();
  private readonly pending = new Map<string, NodeJS.Timeout>();
  /** The trees asked for (`watchTree`), each watched whole. */
  private readonly roots = new Set<string>();

  constructor(private readonly onChange: (file: string, kind: Change) => void, private readonly log: (m: string) => void) {}

  /** Watches a tree (idempotent: a folder already watched is not watched again, nor is its tree walked). */
  watchTree(root: string): void {
    this.roots.add(root);
    this.walk(root);
  }

  /** Stops watching a tree, but for the folders of the trees still watched. */
  unwatchTree(root: string): void {
    if (!this.roots.delete(root)) return;
    for (const [dir, w] of this.watchers) {
      if (!isWithin(root, dir) || [...this.roots].some((r) => isWithin(r, dir))) continue;
      w.close();
      this.watchers.delete(dir);
    }
  }

  private walk(root: string): void {
    const stack = [root];
    const seen = new Set<string>();
    while (stack.length) {
      const dir = stack.pop()!;
      let real: string;
      try { real = fs.realpathSync(dir); } catch { continue; }
      if (seen.has(real) || this.watchers.has(dir)) continue;
      seen.add(real);
      this.watchDir(dir);
      let entries: fs.Dirent[] = [];
      try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { continue; }
      for (const e of entries) if (e.isDirectory() && !isSkippedDirName(e.name)) stack.push(path.join(dir, e.name));
    }
  }

  private watchDir(dir: string): void {
    try {
      const w = fs.watch(dir, { persistent: false }, (_event, name) => {
        if (name) this.touched(path.join(dir, name.toString()));
      });
      w.on("error", () => { w.close(); this.watchers.delete(dir); });
      this.watchers.set(dir, w);
    } catch (e) {
      this.log(`cannot watch ${dir}: ${(e as Error).message}`);
    }
  }

  private touched(p: string): void {
    const t = this.pending.get(p);
    if (t) clearTimeout(t);
    this.pending.set(p, setTimeout(() => {
      this.pending.delete(p);
      let kind: Change;
      let isDir = false;
      try { isDir = fs.statSync(p).isDirectory(); kind = "changed"; } catch { kind = "deleted"; }
      if (kind === "deleted") {
        const w = this.watchers.get(p);
        if (w) { w.close(); this.watchers.delete(p); }
      } else if (isDir) {
        if (isSkippedDirName(path.basename(p))) return;
        if (!this.watchers.has(p)) {
          if (![...this.roots].some((r) => isWithin(r, p))) return; // its tree let go meanwhile
          this.walk(p);
          kind = "created";
        }
      }
      this.onChange(p, kind);
    }, 30));
  }

  close(): void {
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
    this.roots.clear();
    for (const t of this.pending.values()) clearTimeout(t);
    this.pending.clear();
  }
}
