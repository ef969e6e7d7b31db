/** The core's FileSystem over Node's `fs`: every failure (missing, unreadable, vanished, a loop) is an undefined answer, never a throw. */
import * as fs from "node:fs";
import type { DirEntry, FileSystem } from "../core/types.ts";

export const nodeFileSystem: FileSystem = {
  readFile(path) {
    try {
      const buf = fs.readFileSync(path);
      return buf.toString("utf8");
    } catch {
      return undefined;
    }
  },
  readDir(path) {
    try {
      return fs.readdirSync(path, { withFileTypes: true }).map((d): DirEntry => ({
        name: d.name,
        kind: d.isFile() ? "file" : d.isDirectory() ? "dir" : d.isSymbolicLink() ? "symlink" : "other",
      }));
    } catch {
      return undefined;
    }
  },
  isFile(path) {
    try { return fs.statSync(path).isFile(); } catch { return false; }
  },
  isDir(path) {
    try { return fs.statSync(path).isDirectory(); } catch { return false; }
  },
  realPath(path) {
    try { return fs.realpathSync.native(path); } catch { return undefined; }
  },
};
