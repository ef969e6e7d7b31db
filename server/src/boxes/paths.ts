/**
 * Paths inside a box's home (SPEC B4): a relative path or `cwd` is under the home, and a path that
 * escapes it (a `..` above the home, an absolute path, a symlink pointing out) is refused; a `..`
 * is read from the path's text (`sub/..` is the home).
 * The check walks the path one segment at a time with `lstat`, so a symlink anywhere on the way is
 * judged by where it really leads. A box process could still swap a checked folder for a symlink
 * between the check and the use; `read` and `write` narrow that window by opening the last segment
 * with `O_NOFOLLOW`.
 */
import * as fs from "node:fs";
import * as path from "node:path";

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
      if (!isInside(realHome, target)) throw new BoxPathError(requested, "leads out of the box's home through a symlink");
    }
  }
  return path.join(home, ...segments);
}

/** Where a symlink finally leads, following chains; a dangling link is judged by its text. */
function symlinkTarget(link: string): string {
  try {
    return fs.realpathSync(link);
  } catch {
    // Dangling (or a loop): judge the link's own text, resolved from its folder.
    const text = fs.readlinkSync(link);
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

/** The file's bytes in the home, or undefined when there is none; a path leading out is refused. */
export function readInHome(home: string, requested: string): Buffer | undefined {
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
    fd = fs.openSync(real, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
  try {
    if (fs.fstatSync(fd).isDirectory()) throw new BoxPathError(requested, "is a folder");
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes a file in the home, making its parent folders; `mode` sets its permissions (default 0o644). */
export function writeInHome(home: string, requested: string, bytes: string | Uint8Array, options: { mode?: number } = {}): void {
  const target = resolveInHome(home, requested);
  if (target === home) throw new BoxPathError(requested, "is the box's home, not a file");
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
  const fd = fs.openSync(destination, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC | fs.constants.O_NOFOLLOW, options.mode ?? 0o644);
  try {
    fs.writeFileSync(fd, bytes);
    if (options.mode !== undefined) fs.fchmodSync(fd, options.mode);
  } finally {
    fs.closeSync(fd);
  }
}

function assertInside(home: string, real: string, requested: string): void {
  const realHome = fs.realpathSync(home);
  if (!isInside(realHome, real)) throw new BoxPathError(requested, "leads out of the box's home through a symlink");
}
