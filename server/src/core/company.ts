/**
 * Company roots, scopes and file kinds (SPEC A1–A3), computed from paths alone.
 * A company root is the nearest folder holding `sanoma.config.ts`, walking up from a path, never
 * crossing a `node_modules` folder. Everything here is a pure function of paths and, for the walk
 * up, of a predicate that says where a config is.
 */
import path from "node:path"; // (the default import: a bundle reads its functions as plain properties, not through getters)

export const CONFIG_FILE = "sanoma.config.ts";
export const LOCK_FILE = "sanoma.lock.json";
export const KINDS = ["workflows", "resources", "scenarios"] as const;
export type Kind = (typeof KINDS)[number];

/** The framework's package: imports from it or its subpaths are never resource types. */
export const FRAMEWORK = "@sanoma-ai/workflows";
export function isFrameworkModule(specifier: string): boolean {
  // One test that always runs (V8 then knows it before it optimizes the callers).
  return (specifier + "/").startsWith(FRAMEWORK_PREFIX);
}
const FRAMEWORK_PREFIX = FRAMEWORK + "/";

/** TypeScript's source extensions, in the order module resolution tries them. */
export const TS_EXTENSIONS: readonly string[] = [".ts", ".tsx", ".mts", ".cts"];
/**
 * The extensions of files whose source the core reads (imports, references, declarations), in the
 * order module resolution tries them: TypeScript's, then JavaScript's. The one list of them.
 */
export const CODE_EXTENSIONS: readonly string[] = [...TS_EXTENSIONS, ".js", ".jsx", ".mjs", ".cjs"];

export function isCodeFile(file: string): boolean {
  for (let i = 0; i < CODE_EXTENSIONS.length; i++) if (file.endsWith(CODE_EXTENSIONS[i])) return true;
  return false;
}

/** A walk skips `node_modules` and every folder whose name starts with `.` (A3). */
export function isSkippedDirName(name: string): boolean {
  return name === "node_modules" || name.startsWith(".");
}

/**
 * The company root of a path: the nearest folder, from the path's own folder up, that holds
 * `sanoma.config.ts`. Undefined inside `node_modules` or when the file system's root is reached.
 * `hasConfig` lets callers cache the per-folder answer.
 */
/** Whether a path has a `node_modules` folder in it: nothing there belongs to a company (A1). */
export function isInNodeModules(p: string): boolean {
  return p.split(path.sep).includes("node_modules");
}

export function findCompanyRoot(file: string, hasConfig: (dir: string) => boolean, isDirectory = false): string | undefined {
  let dir = isDirectory ? file : path.dirname(file);
  // A file inside `node_modules` belongs to no company (A1), even one whose package holds a
  // `sanoma.config.ts` of its own (a template, a published company).
  if (isInNodeModules(dir)) return undefined;
  for (;;) {
    if (hasConfig(dir)) return dir;
    const up = path.dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}


/**
 * `path.join(dir, name)` for an entry `name` of a folder `dir` that a walk from `start` reached:
 * a walk's folders below its start are `path.join`'s own results (normalised, no separator at the
 * end), and an entry's name holds no separator and is never `.` or `..`, so below the start the
 * join is a concatenation, without `path.join`'s normalising (a walk makes one a file: 10,000 in
 * the bench company's check, and half the time of its search for companies).
 */
export function childPath(start: string, dir: string, name: string): string {
  return dir === start ? path.join(dir, name) : dir + path.sep + name;
}

/**
 * The real path of a folder `name` (an entry that is a folder, not a link) of a folder whose real
 * path is `real`: a real path holds no link, and neither does the entry, so it is the two joined,
 * without asking the disk again (`realpath` walks every folder of the path: a walk that asked it for
 * each of its folders spent a fiftieth of a check of 10,000 files there).
 */
export function realChild(real: string, name: string): string {
  return real.endsWith(path.sep) ? real + name : real + path.sep + name;
}

/** `rel` of a file under `root` with `/` separators, or undefined when it is not under it. */
export function relativeTo(root: string, file: string): string | undefined {
  // The usual case, a normalised path under the root, without path.relative's work.
  if (file.length > root.length + 1 && file.startsWith(root) && file[root.length] === path.sep && !file.includes(`${path.sep}.`)) {
    const rel = file.slice(root.length + 1);
    return path.sep === "/" ? rel : rel.split(path.sep).join("/");
  }
  const rel = path.relative(root, file);
  if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) return undefined;
  return rel.split(path.sep).join("/");
}

export interface FileRole {
  /** The app the file belongs to, or null for the root scope. */
  scope: string | null;
  /** The kind directory the file is under (`workflows`, `resources`, `scenarios`), if any. */
  kind: Kind | null;
  isConfig: boolean;
  isWorkflowSource: boolean;
  isDataFile: boolean;
  isCollectionsFile: boolean;
  isScenario: boolean;
  isTest: boolean;
}

const EXCLUDED_TS = [".test.ts", ".spec.ts", ".d.ts"];

/** A `.ts` name that is no workflow source or data file (A3). (A loop, not `some`: no closure per file for hosts that ask for every file.) */
function isExcludedTs(name: string): boolean {
  for (let i = 0; i < EXCLUDED_TS.length; i++) if (name.endsWith(EXCLUDED_TS[i])) return true;
  return false;
}

/**
 * What a file's role takes from its folder (a company-relative folder path, `""` for the root):
 * the same for every file in it, so a host that sees a folder's files one by one reads it once.
 */
export interface FolderRole {
  scope: string | null;
  kind: Kind | null;
  /** The folder is the company root. */
  isRoot: boolean;
  /** The folder is a kind folder itself (`resources/`, `apps/<app>/resources/`), not one under it. */
  isKindRoot: boolean;
  /** Its files' roles made so far, by what sets them apart (`roleIn`): one object each, shared by every file of that role here. */
  readonly roles: (FileRole | undefined)[];
}

/** Scope and kind of the files of a company-relative folder (A2, A3). */
export function folderRoleOf(dirRel: string): FolderRole {
  const parts = dirRel === "" ? [] : dirRel.split("/");
  let scope: string | null = null;
  let rest = parts;
  if (parts[0] === "apps" && parts.length >= 2 && !parts[1].startsWith(".")) {
    scope = parts[1];
    rest = parts.slice(2);
  }
  const kind = rest.length >= 1 && (KINDS as readonly string[]).includes(rest[0]) ? (rest[0] as Kind) : null;
  return { scope, kind, isRoot: dirRel === "", isKindRoot: rest.length === 1, roles: [] };
}

const TEST_NAME = /\.(test|spec)\.[cm]?[jt]sx?$/;

/** The role of the file `name` in a folder of role `folder`. */
export function roleIn(folder: FolderRole, name: string): FileRole {
  const { scope, kind, isRoot } = folder;
  // Both read for every file, so V8 has seen them before it optimizes this (a comparison it has
  // never seen run sends the optimized code of its caller back to the interpreter).
  const isConfigName = name === CONFIG_FILE;
  const isTs = name.endsWith(".ts") && !isExcludedTs(name);
  // (`.test.` or `.spec.` first: most names have neither, and the pattern needs one.)
  const isTest = (name.includes(".test.") || name.includes(".spec.")) && TEST_NAME.test(name);
  const isConfig = isRoot && isConfigName;
  const isWorkflowSource = kind === "workflows" && isTs;
  const isDataFile = kind === "resources" && isTs;
  const isCollectionsFile = kind === "resources" && folder.isKindRoot && name === "data.ts";
  // A role is shared by the files of the folder that have it (frozen, so that a change to one
  // would fail loudly): a company's files were each holding an object of their own, 10,000 of them
  // in the bench's company, when a folder's files have one or two roles (issue 23).
  const key = (isConfig ? 1 : 0) | (isWorkflowSource ? 2 : 0) | (isDataFile ? 4 : 0) | (isCollectionsFile ? 8 : 0) | (isTest ? 16 : 0);
  return folder.roles[key] ??= Object.freeze({ scope, kind, isConfig, isWorkflowSource, isDataFile, isCollectionsFile, isScenario: kind === "scenarios", isTest });
}

/**
 * Whether the framework loads a file of this role by importing it (A11): the config, every data
 * file and every workflow source. Such a file with a syntax error fails to load; other files'
 * syntax errors are the compiler's business.
 */
export function isLoadedByFramework(role: FileRole): boolean {
  return role.isConfig || role.isDataFile || role.isWorkflowSource;
}

/** Scope and kind of a company-relative path (A2, A3). */
export function roleOf(rel: string): FileRole {
  const cut = rel.lastIndexOf("/");
  const dir = cut < 0 ? "" : rel.slice(0, cut);
  // (The last folder's role kept: a walk gives a folder's files one after another, and its path
  // was read again for each. It changes no answer: a folder's role is its path's alone.)
  if (dir !== lastFolder || lastFolderRole === undefined) { lastFolderRole = folderRoleOf(dir); lastFolder = dir; }
  return roleIn(lastFolderRole, rel.slice(cut + 1));
}

let lastFolder: string | undefined;
let lastFolderRole: FolderRole | undefined;

/** Whether a path (file or folder, company-relative) would be a workflow source or a scenario file, judged by the path alone (A9). */
export function isWorkflowOrScenarioPath(rel: string): boolean {
  // `../workflows` (a kind folder itself) reaches its index file.
  const last = rel.slice(rel.lastIndexOf("/") + 1);
  if ((last === "workflows" || last === "scenarios") && isWorkflowOrScenarioPath(`${rel}/index.ts`)) return true;
  // Under a folder no walk enters (a dot folder, node_modules), a path is neither (A3).
  const folders = rel.split("/").slice(0, -1);
  if (folders.some((f) => f.startsWith(".") || f === "node_modules")) return false;
  const role = roleOf(rel);
  if (role.kind === "scenarios") return true;
  if (role.kind !== "workflows") return false;
  const name = rel.slice(rel.lastIndexOf("/") + 1);
  // (`x.test`, `x.d`, `x.d.js`: an import's spellings of `x.test.ts` and `x.d.ts`, no workflow sources.)
  if (isExcludedTs(name) || /\.(test|spec|d)(\.[cm]?js)?$/.test(name)) return false;
  // A workflow source's name ends in `.ts` (A3), which an import names as `.ts`, `.js` (TypeScript's
  // ESM spelling) or without an extension (`../workflows/nightly`); another extension is another file.
  return !OTHER_EXTENSION.test(name);
}

const OTHER_EXTENSION = /\.(mts|cts|tsx|jsx|mjs|cjs|json|md|css|html|txt|ya?ml)$/i;

/** Whether a company-relative path is a file directly in `apps/` (`apps/shared.ts`): an extensionless import of `apps/shared` may reach it. */
export function isDirectlyInApps(rel: string): boolean {
  return rel.startsWith("apps/") && rel.indexOf("/", 5) < 0;
}

