/**
 * Paths inside a box's home (SPEC B4): a relative path or `cwd` is under the home, and a path that
 * escapes it (a `..` above the home, an absolute path, a symlink pointing out) is refused; a `..`
 * is read from the path's text (`sub/..` is the home).
 * The check walks the path one segment at a time with `lstat`, so a symlink anywhere on the way is
 * judged by where it really leads. A box process could still swap a checked folder for a symlink
 * between the check and the use: on Linux, `read` and `write` then walk the path again by
 * descriptors, checking where each folder they open really is (`openFolderIn`), so such a swap
 * leads them nowhere; elsewhere they open the last segment with `O_NOFOLLOW`, which narrows it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { HAS_PROC_FD, kindName, kindOf, whereIs } from "./files.ts";

/** A refused path: its message names the path and why. */
export class BoxPathError extends Error {
  constructor(readonly requested: string, reason: string) {
    super(`${requested} ${reason}`);
    this.name = "BoxPathError";
  }
}

/** True when `child` is `parent` or lies beneath it (both absolute and normalised). */
export function isInside(parent: string, child: string): boolean {
  if (child === parent) return true;
  const rel = path.relative(parent, child);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

const WINDOWS = path.sep === "\\";

/** The segments of a box-relative path, refusing absolute paths and a `..` above the home. `""` and `.` are the home. */
export function boxSegments(requested: string): string[] {
  if (typeof requested !== "string") throw new BoxPathError(String(requested), "is not a path");
  if (requested.includes("\0")) throw new BoxPathError(requested, "holds a NUL character");
  if (path.isAbsolute(requested) || (WINDOWS && /^[A-Za-z]:/.test(requested))) throw new BoxPathError(requested, "is absolute: give a path relative to the box's home");
  // `\` separates only on Windows; elsewhere `back\slash.txt` and `c:x` are file names like any other.
  // `..` is read from the text (`sub/..` is the home, whatever `sub` is: it is never looked at);
  // one that climbs above the home is refused.
  const segments: string[] = [];
  for (const segment of requested.split(WINDOWS ? /[/\\]+/ : /\/+/)) {
    if (segment === "" || segment === ".") continue;
    if (segment !== "..") segments.push(segment);
    else if (segments.pop() === undefined) throw new BoxPathError(requested, "leads out of the box's home");
  }
  return segments;
}

/**
 * The absolute path of `requested` inside `home`, refusing every way out. Segments that exist are
 * followed (symlinks included) and must stay inside the home's real path; missing segments are
 * fine (a write makes them). Returns the path under `home` as given, not the resolved one.
 */
export function resolveInHome(home: string, requested: string): string {
  const segments = boxSegments(requested);
  const realHome = realpathOr(home, home);
  let current = home;
  for (const segment of segments) {
    current = path.join(current, segment);
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(current);
    } catch {
      break; // the rest does not exist yet: nothing below can be a symlink
    }
    if (stat.isSymbolicLink()) {
      const target = symlinkTarget(current);
      if (target === undefined) throw new BoxPathError(requested, "changed while it was checked (a link on its way is gone): try again");
      if (!isInside(realHome, target)) throw new BoxPathError(requested, "leads out of the box's home through a symlink");
    }
  }
  return path.join(home, ...segments);
}

/**
 * Where a symlink finally leads, following chains; a dangling link is judged by its text; undefined
 * when it is no link any more (a box swapping it meanwhile). The kernel's realpath, not Node's own:
 * Node's reads `/proc/<pid>/root` as `/`, and a link through it back to itself sent it round for
 * ever (the kernel says ELOOP); where such a link leads is judged again once opened (`whereIs`).
 */
function symlinkTarget(link: string): string | undefined {
  try {
    return fs.realpathSync.native(link);
  } catch {
    // Dangling (or a loop): judge the link's own text, resolved from its folder.
    let text: string;
    try {
      text = fs.readlinkSync(link);
    } catch {
      return undefined;
    }
    return path.resolve(realpathOr(path.dirname(link), path.dirname(link)), text);
  }
}

function realpathOr(p: string, fallback: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return fallback;
  }
}

// Where Linux's `/proc` tells what an open descriptor is (`HAS_PROC_FD`), `read` and `write` walk a
// path one folder at a time by descriptors (`openFolderIn`), and no folder swapped for a link
// meanwhile can lead them out. Elsewhere they judge the path first and then open it, which leaves
// that window.
const { O_RDONLY, O_WRONLY, O_CREAT, O_NOFOLLOW, O_NONBLOCK, O_DIRECTORY } = fs.constants;

/** A path into the folder open as `dir`: the kernel takes `/proc/self/fd/<dir>` as that folder itself, wherever it is now. */
const within = (dir: number, name: string): string => `/proc/self/fd/${dir}/${name}`;

const codeOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException).code;

/**
 * The folder of `segments` below the home (its real path `realHome`) open as a descriptor, each
 * segment opened from the descriptor of the one before, and each folder so opened checked to
 * really lie in the home (a link leading inside is followed; one leading out, even one made a
 * moment ago, is refused). `make`: missing folders are made, each in the folder just checked.
 * Undefined when a folder is missing (or is a file) and none is to be made.
 */
function openFolderIn(realHome: string, segments: readonly string[], requested: string, make: boolean): number | undefined {
  let dir = fs.openSync(realHome, O_RDONLY | O_DIRECTORY);
  try {
    for (const segment of segments) {
      let next: number;
      try {
        next = fs.openSync(within(dir, segment), O_RDONLY | O_DIRECTORY);
      } catch (error) {
        const code = codeOf(error);
        if (code === "ENOTDIR" && !make) return undefined;
        if (code === "ENOTDIR") throw new BoxPathError(requested, `cannot be written: ${segment} on its way is not a folder`);
        if (code !== "ENOENT") throw error;
        if (!make) return undefined;
        try {
          fs.mkdirSync(within(dir, segment));
          next = fs.openSync(within(dir, segment), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
        } catch {
          // (A link to nothing is in its place, or something was made there meanwhile.)
          throw new BoxPathError(requested, `cannot be written: ${segment} on its way cannot be made a folder`);
        }
      }
      const where = whereIs(next);
      if (where === undefined || !isInside(realHome, where)) {
        fs.closeSync(next);
        throw new BoxPathError(requested, "leads out of the box's home through a symlink");
      }
      fs.closeSync(dir);
      dir = next;
    }
    const opened = dir;
    dir = -1;
    return opened;
  } finally {
    if (dir >= 0) fs.closeSync(dir);
  }
}

/** Refuses what an open descriptor holds unless it is a regular file. */
function assertRegularFile(fd: number, requested: string): void {
  const stat = fs.fstatSync(fd);
  if (stat.isDirectory()) throw new BoxPathError(requested, "is a folder");
  if (!stat.isFile()) throw new BoxPathError(requested, `is ${kindName(kindOf(stat))}, not a file`);
}

/** Refuses what an open descriptor holds unless it is a regular file that really lies in the home. */
function assertFileInHome(fd: number, realHome: string, requested: string): void {
  const where = whereIs(fd);
  if (where === undefined || !isInside(realHome, where)) throw new BoxPathError(requested, "leads out of the box's home through a symlink");
  assertRegularFile(fd, requested);
}

/** Writes `bytes` as the whole of the regular file open as `fd` (emptied first), and its mode when given. */
function writeWhole(fd: number, bytes: string | Uint8Array, mode: number | undefined): void {
  fs.ftruncateSync(fd, 0);
  fs.writeFileSync(fd, bytes);
  if (mode !== undefined) fs.fchmodSync(fd, mode);
}

/**
 * The file's bytes in the home, or undefined when there is none; a path leading out is refused,
 * and so is anything but a regular file (a FIFO is opened without blocking, and never read).
 */
export function readInHome(home: string, requested: string): Buffer | undefined {
  resolveInHome(home, requested);
  if (!HAS_PROC_FD) return readByPath(home, requested);
  const segments = boxSegments(requested);
  let realHome: string;
  try {
    realHome = fs.realpathSync(home);
  } catch {
    return undefined; // (no home yet: no file in it)
  }
  if (segments.length === 0) throw new BoxPathError(requested, "is a folder");
  const dir = openFolderIn(realHome, segments.slice(0, -1), requested, false);
  if (dir === undefined) return undefined;
  let fd: number;
  try {
    // (A link at the end is followed, and where it led is checked once open.)
    fd = fs.openSync(within(dir, segments[segments.length - 1]), O_RDONLY | O_NONBLOCK);
  } catch (error) {
    const code = codeOf(error);
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    if (code === "ENXIO") throw new BoxPathError(requested, "is a socket, not a file");
    throw error;
  } finally {
    fs.closeSync(dir);
  }
  try {
    assertFileInHome(fd, realHome, requested);
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Writes a file in the home, making its parent folders; `mode` sets its permissions (default
 * 0o644). A link at the end that leads to a file in the home is written through; nothing is made
 * through a link, and a file is emptied only once it is known to be a regular file in the home.
 */
export function writeInHome(home: string, requested: string, bytes: string | Uint8Array, options: { mode?: number } = {}): void {
  const target = resolveInHome(home, requested);
  if (target === home) throw new BoxPathError(requested, "is the box's home, not a file");
  if (!HAS_PROC_FD) return writeByPath(home, requested, target, bytes, options);
  const segments = boxSegments(requested);
  const realHome = fs.realpathSync(home);
  const dir = openFolderIn(realHome, segments.slice(0, -1), requested, true)!;
  const name = segments[segments.length - 1];
  let fd: number;
  let throughLink = false;
  try {
    try {
      fd = fs.openSync(within(dir, name), O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK, options.mode ?? 0o644);
    } catch (error) {
      if (codeOf(error) !== "ELOOP") throw error;
      // A link: written through where it leads (checked below), never made there.
      throughLink = true;
      fd = fs.openSync(within(dir, name), O_WRONLY | O_NONBLOCK);
    }
  } catch (error) {
    const code = codeOf(error);
    if (code === "EISDIR") throw new BoxPathError(requested, "is a folder");
    if (code === "ENXIO") throw new BoxPathError(requested, "is a FIFO or a socket, not a file");
    if (code === "ENOENT") throw new BoxPathError(requested, throughLink ? "is a symlink to nothing" : "changed while it was checked (its folder is gone): try again");
    throw error;
  } finally {
    fs.closeSync(dir);
  }
  try {
    assertFileInHome(fd, realHome, requested);
    writeWhole(fd, bytes, options.mode);
  } finally {
    fs.closeSync(fd);
  }
}

/** `readInHome` where `/proc` cannot tell where a descriptor is: the path judged, then opened (its last segment without following a link). */
function readByPath(home: string, requested: string): Buffer | undefined {
  const target = resolveInHome(home, requested);
  let real: string;
  try {
    real = fs.realpathSync(target);
  } catch {
    return undefined;
  }
  assertInside(home, real, requested);
  let fd: number;
  try {
    fd = fs.openSync(real, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const code = codeOf(error);
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
  try {
    assertRegularFile(fd, requested);
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** `writeInHome` where `/proc` cannot tell where a descriptor is. */
function writeByPath(home: string, requested: string, target: string, bytes: string | Uint8Array, options: { mode?: number }): void {
  const parent = path.dirname(target);
  fs.mkdirSync(parent, { recursive: true });
  const realParent = fs.realpathSync(parent);
  assertInside(home, realParent, requested);
  let destination = path.join(realParent, path.basename(target));
  try {
    if (fs.lstatSync(destination).isSymbolicLink()) {
      destination = fs.realpathSync(destination); // checked inside by resolveInHome
      assertInside(home, destination, requested);
    }
  } catch (error) {
    if (error instanceof BoxPathError) throw error;
  }
  const fd = fs.openSync(destination, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK, options.mode ?? 0o644);
  try {
    assertRegularFile(fd, requested);
    writeWhole(fd, bytes, options.mode);
  } finally {
    fs.closeSync(fd);
  }
}

function assertInside(home: string, real: string, requested: string): void {
  const realHome = fs.realpathSync(home);
  if (!isInside(realHome, real)) throw new BoxPathError(requested, "leads out of the box's home through a symlink");
}
