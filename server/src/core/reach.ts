/**
 * Where an import reaches (SPEC A9), from paths alone: the target of a relative or absolute
 * specifier, relative to the importing file's company root. Shared by the company check and the
 * lint plugin, and free of the TypeScript parser so the plugin bundle stays small.
 */
import path from "node:path"; // (the default import: a bundle reads its functions as plain properties, not through getters)
import type { ImportContext } from "./sites.ts";
import { CODE_EXTENSIONS, isDirectlyInApps, type FileRole } from "./company.ts";

/** On POSIX an absolute path is one that starts with `/` (all `path.isAbsolute` asks there). */
const POSIX = path.sep === "/";

export function isPathSpecifier(specifier: string): boolean {
  const c = specifier.charCodeAt(0);
  // Read for every specifier, so V8 has seen it before it optimizes the callers (a comparison it
  // has never seen run sends their optimized code back to the interpreter).
  const slash = c === 47;
  // A specifier that starts with `.` is absolute on no platform.
  if (c === 46) return isDotPath(specifier);
  return POSIX ? slash : path.isAbsolute(specifier);
}

/** `.`, `..`, `./…` or `../…`. */
function isDotPath(specifier: string): boolean {
  const c1 = specifier.charCodeAt(1);
  if (c1 !== c1 || c1 === 47) return true; // "." or "./…" (NaN past the end)
  if (c1 !== 46) return false;
  const c2 = specifier.charCodeAt(2);
  return c2 !== c2 || c2 === 47; // ".." or "../…"
}

export interface Target {
  /** The target's path relative to the company root (`/` separators), or undefined outside it. */
  rel: string | undefined;
  abs: string;
  /** The specifier can name a folder only (`../x/`, `..`, `./x/.`): never a file `x.ts`. */
  folder: boolean;
}

/** Whether a path specifier names a folder only: it ends with `/`, or its last segment is `.` or `..`. */
function namesFolder(specifier: string): boolean {
  return specifier.endsWith("/") || specifier === "." || specifier === ".." || specifier.endsWith("/.") || specifier.endsWith("/..");
}

/**
 * Targets by specifier, for the file asked about last: each import rule asks for the target of
 * each import of a file (rule by rule or import by import), so they are kept until another file
 * is asked about. Not longer: kept across a company, they stayed alive to the end of a lint run,
 * and on the bench company (most imports distinct) keeping them cost as much CPU as the string
 * math they saved, or a little more (docs/bench.md).
 */
/** The last file asked about (its root and path), its folder and whether that is plain. */
let fileRoot = "", fileRel: string | undefined, folderRel = "", folderPlain = true;
/** Its targets so far, by specifier (a file has few imports: a list, searched in order). */
const fileSpecifiers: string[] = [];
const fileTargets: (Target | undefined)[] = [];
/** The last specifier asked about from that file, and its target. */
let lastSpecifier: string | undefined, lastTarget: Target | undefined;

export function importTarget(ctx: ImportContext, specifier: string): Target | undefined {
  if (ctx.rel !== fileRel || ctx.root !== fileRoot) enterFile(ctx);
  else if (specifier === lastSpecifier) return lastTarget;
  let target: Target | undefined;
  const known = fileSpecifiers.indexOf(specifier);
  if (known >= 0) target = fileTargets[known];
  else {
    target = isPathSpecifier(specifier) ? computeTarget(fileRoot, folderRel, folderPlain, specifier) : undefined;
    // Past a few dozen imports, a file's list is searched no longer than that: the rest is computed again.
    if (fileSpecifiers.length < 64) { fileSpecifiers.push(specifier); fileTargets.push(target); }
  }
  lastSpecifier = specifier;
  lastTarget = target;
  return target;
}

function enterFile(ctx: ImportContext): void {
  const slash = ctx.rel.lastIndexOf("/");
  folderRel = slash < 0 ? "" : ctx.rel.slice(0, slash);
  folderPlain = isPlain(folderRel);
  fileRoot = ctx.root;
  fileRel = ctx.rel;
  fileSpecifiers.length = 0;
  fileTargets.length = 0;
  lastSpecifier = undefined;
  lastTarget = undefined;
}

function computeTarget(root: string, dirRel: string, dirPlain: boolean, specifier: string): Target {
  if (specifier.charCodeAt(0) !== 46 && path.isAbsolute(specifier)) {
    const abs = path.resolve(specifier);
    const rel = path.relative(root, abs);
    const folder = namesFolder(specifier);
    return rel.startsWith("..") || path.isAbsolute(rel) ? { abs, rel: undefined, folder } : { abs, rel: rel.split(path.sep).join("/"), folder };
  }
  // Company-relative string math: the importing file's folder joined with the specifier.
  const joined = joinRelative(dirRel, specifier, dirPlain);
  const rel = joined === ".." || joined.startsWith("../") ? undefined : joined === "." ? "" : joined;
  return new LazyTarget(root, joined, rel, namesFolder(specifier));
}

/** A target whose absolute path is worked out only when asked for (no import rule needs it). */
class LazyTarget implements Target {
  private absPath: string | undefined;
  constructor(private readonly root: string, private readonly joined: string, readonly rel: string | undefined, readonly folder: boolean) {}
  get abs(): string {
    return (this.absPath ??= path.join(this.root, this.joined));
  }
}

/**
 * `path.posix.normalize(dir === "" ? specifier : dir + "/" + specifier)` without its trailing
 * slash, for a relative `dir` and specifier: `.` and `..` segments applied, empty ones dropped,
 * `..` kept where it climbs above the start, `.` for nothing. (String math, without `path`'s
 * generality: every import of every file asks.)
 */
export function joinRelative(dir: string, specifier: string, dirPlain = isPlain(dir)): string {
  // The usual case: `./` or `../`s, then plain names, from a plain folder, not climbing above it.
  if (dirPlain) {
    let d = dir, i = 0;
    for (;;) {
      if (specifier.startsWith("./", i)) i += 2;
      else if (specifier.startsWith("../", i) && d !== "") {
        const cut = d.lastIndexOf("/");
        d = cut < 0 ? "" : d.slice(0, cut);
        i += 3;
      } else break;
    }
    const rest = i === 0 ? specifier : specifier.slice(i);
    if (rest !== "" && isPlain(rest)) return d === "" ? rest : `${d}/${rest}`;
  }
  return joinSegments(dir, specifier);
}

/** A path of names only: no empty, `.`, `..` (or other dot-started) segment. */
function isPlain(p: string): boolean {
  return p === "" || !(p.startsWith(".") || p.startsWith("/") || p.endsWith("/") || p.includes("/.") || p.includes("//"));
}

function joinSegments(dir: string, specifier: string): string {
  const out: string[] = [];
  let up = 0; // `..` segments that climb above the start
  for (const p of dir === "" ? [specifier] : [dir, specifier]) {
    let from = 0;
    for (;;) {
      let to = p.indexOf("/", from);
      if (to < 0) to = p.length;
      const seg = p.slice(from, to);
      if (seg === "..") {
        if (out.length > 0) out.pop();
        else up++;
      } else if (seg !== "." && seg !== "") out.push(seg);
      if (to === p.length) break;
      from = to + 1;
    }
  }
  const tail = out.join("/");
  if (up === 0) return tail === "" ? "." : tail;
  const ups = "../".repeat(up - 1) + "..";
  return tail === "" ? ups : `${ups}/${tail}`;
}

/**
 * What an import rule's verdict on a relative path specifier rests on, so that a host judging
 * many of them (the lint plugin's prefilter, 18,000 on a 10,000-file company) can judge once per
 * folder: the specifier's folder part, when its last segment is a plain name (not empty, no `.`,
 * no `\`, not `apps`, `workflows` or `scenarios`). Then, for one importing file's folder and role
 * and with no names that matter (no `collection`), every import rule says the same of
 * `./lib/a`, `./lib/b` and `./lib/c` (it reads the target through `targetApp`, the `apps/`
 * prefix, whether it leaves the company and `isWorkflowOrScenarioPath`, none of which reads a
 * plain last name), except where the target lies directly in `apps/`: there the name is an app's
 * (see `sharesVerdict`). Undefined for any other specifier: it is judged on its own.
 * `test/lint/prefilter.test.ts` holds every import rule to this.
 */
export function verdictFolder(specifier: string): string | undefined {
  if (specifier.charCodeAt(0) !== 46 /* . */ || !isDotPath(specifier)) return undefined; // absolute, or no path
  const cut = specifier.lastIndexOf("/");
  if (cut < 1) return undefined;
  const name = specifier.slice(cut + 1);
  if (name === "" || name.includes(".") || name.includes("\\") || name === "apps" || name === "workflows" || name === "scenarios") return undefined;
  return specifier.slice(0, cut);
}

/**
 * What an import rule's verdict on a specifier that is no path rests on: the specifier, the names
 * its import takes and the importing file's role (a data file, a collections file), never where
 * the file is. So the verdict on `import { secret } from "@sanoma-ai/workflows"` in one data file
 * holds for every data file that imports the same names from there. The key of that verdict.
 */
export function bareVerdictKey(specifier: string, names: readonly string[], role: FileRole): string {
  return `${role.isDataFile ? "d" : "-"}${role.isCollectionsFile ? "c" : "-"}${specifier}\0${names.join("\0")}`;
}

/** Whether a target's verdict may be shared with the other names of its folder (`verdictFolder`): not where the folder is `apps/` itself. */
export function sharesVerdict(target: Target | undefined): boolean {
  const rel = target?.rel;
  return rel === undefined || !isDirectlyInApps(rel);
}

/**
 * The app a company-relative path is in, for a path that is or lies under `apps/<app>`. A file
 * directly in `apps/` (`apps/shared.ts`: a name with a code file's extension and nothing after it)
 * is in the root scope, not an app (A2: an app is a directory). `apps/shared`, an import without
 * extension, reaches the file `apps/shared.ts` when there is one (module resolution tries the file
 * before the folder): then it is no app either, where `hasFile` can tell; else it is taken for the
 * app's folder.
 */
export function targetApp(rel: string, hasFile?: (rel: string) => boolean, folder = false): string | null {
  if (!rel.startsWith("apps/")) return null;
  const end = rel.indexOf("/", 5);
  const app = end < 0 ? rel.slice(5) : rel.slice(5, end);
  // (`apps/x/` names the folder: the app, whatever file lies beside it.)
  if (end < 0 && !folder && (CODE_FILE.test(app) || (hasFile !== undefined && RESOLVED_EXTENSIONS.some((ext) => hasFile(rel + ext))))) return null;
  return app !== "" && !app.startsWith(".") ? app : null;
}

/** What module resolution appends to an import without extension, files before folders. */
const RESOLVED_EXTENSIONS = [...CODE_EXTENSIONS, ".d.ts"];

const CODE_FILE = /\.([cm]?[jt]sx?|json)$/;
