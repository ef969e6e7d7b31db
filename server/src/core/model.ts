/**
 * A company's index: the facts of each of its files, updated one file at a time. Nothing here
 * keeps a syntax tree. The walk that lists a company's files goes through the `FileSystem`, skips
 * `node_modules`, dot folders, configured folders and nested companies, and survives symlink
 * loops (each real folder is visited once).
 */
import * as path from "node:path";
import { childPath, CONFIG_FILE, realChild, LOCK_FILE, isCodeFile, isDirectlyInApps, isLoadedByFramework, isSkippedDirName, relativeTo, roleOf, type FileRole } from "./company.ts";
import { readFacts, readFactsLightly, readTextOnly, readWorkflowSourceJudged, type FileFacts, type LightReading } from "./facts.ts";
import { readDataFacts } from "./light-data.ts";
import { readLockSteps, sameLockText as sameText, unreadableLock, type LockFacts } from "./lockfile-read.ts";
import { WHOLE_COMPANY } from "./sanomarc.ts";
import { runSteps, WALK_STEP, type Steps } from "./steps.ts";
import type { FileSystem, LockText, Problem, Range } from "./types.ts";

/** Files larger than this are not parsed (said in --verbose and the server's log). */
export const MAX_FILE_BYTES = 2_000_000;

export interface CompanyFile {
  path: string;
  rel: string;
  role: FileRole;
  facts?: FileFacts;
  /** Why the file's facts could not be read (binary, too large, vanished). */
  skipped?: string;
  /** What the file rules found in it, filled by the check on first need. */
  fileRuleProblems?: Problem[];
  /** The op-reference findings, with the collections they were judged against. */
  refProblems?: { against: number; problems: unknown[] };
}

export interface Skipped { path: string; reason: string }

/** The paths set or removed since the last `take`, for the one reader that holds it (`Company.trackChanges`). */
export interface ChangeTracker {
  take(): Set<string>;
  /** No more recording. */
  stop(): void;
}

/**
 * Why a file fails to load (A11), if it does: the framework imports it (the config, a data file, a
 * workflow source) and it does not parse. Its first syntax error, with the parser's message.
 * Nothing such a file declares is read: no declaration, collection, secret call or binding of it
 * counts. (A file read without a syntax tree is parsed by this question.)
 */
export function loadFailure(file: CompanyFile): { message: string; range: Range } | undefined {
  const facts = file.facts;
  if (!facts || !isLoadedByFramework(file.role) || facts.syntaxErrors === 0) return undefined;
  return facts.firstSyntaxError;
}

export class Company {
  readonly files = new Map<string, CompanyFile>();
  /** The lockfile's text, or undefined when there is none. */
  lockText: LockText | undefined;
  /** Why the lockfile, there, cannot be read (no permission, a folder), when it cannot. */
  lockUnreadable: string | undefined;
  /** Bumped when a file is added or removed (not when one changes). */
  membershipVersion = 0;
  /** Bumped when a file directly in `apps/` comes or goes: an import of `apps/x` may then reach it rather than app x. */
  appsFilesVersion = 0;
  /** The records of changed paths that readers keep (`trackChanges`). */
  private readonly trackers = new Set<Set<string>>();
  private parsedLock: { text: LockText; facts: LockFacts } | undefined;
  // (One object for as long as the reason holds: the rules' inputs compare it by identity.)
  private unreadableLock: { why: string; facts: LockFacts } | undefined;

  /** The lockfile's bindings, parsed once per text (a big lockfile must not be re-read on every keystroke). */
  lock(): LockFacts | undefined {
    return runSteps(this.lockSteps());
  }

  /** `lock`, yielding as it reads a lockfile not read yet (see `readLockSteps`). */
  *lockSteps(): Steps<LockFacts | undefined> {
    const text = this.lockText;
    if (text === undefined) {
      if (this.lockUnreadable === undefined) return undefined;
      if (this.unreadableLock?.why !== this.lockUnreadable) this.unreadableLock = { why: this.lockUnreadable, facts: unreadableLock(this.lockUnreadable) };
      return this.unreadableLock.facts;
    }
    if (!this.parsedLock || !sameText(this.parsedLock.text, text)) {
      const facts = yield* readLockSteps(text);
      this.parsedLock = { text, facts };
    }
    return this.parsedLock.facts;
  }

  /**
   * @param lightFacts whether files whose text allows it have their facts read without a syntax
   * tree (`readFactsLightly`); off, every file is parsed (tests compare the two).
   * @param textOf a file's text as it is now: given, facts read without a tree let their text go
   * (see `LightReading`) and read it again if a parse is asked for later.
   * @param listsWorkflows whether the host lists workflows: with `textOf`, a workflow source's are
   * read with its syntax (`LightReading.workflowsAsked`).
   */
  constructor(readonly root: string, readonly lightFacts = true, textOf?: (file: string) => string | undefined, listsWorkflows = false) {
    this.lockPath = path.join(root, LOCK_FILE);
    if (textOf) this.readings = { parsed: { text: textOf, syntaxAsked: true, workflowsAsked: listsWorkflows }, unparsed: { text: textOf, syntaxAsked: false } };
  }

  /** How facts read without a tree let their text go: a workflow source's once its syntax is known, any other's at once (`LightReading`). */
  private readings: { parsed: LightReading; unparsed: LightReading } | undefined;

  /**
   * Tells the company that nothing will ask whether its workflow sources parse (a check with the
   * `syntax-error` rule off): those read from now on let their text go at once, as any other
   * file's, and read it again should anything ask after all. (Without `textOf` nothing can be read
   * again, and every text is kept.)
   */
  syntaxUnasked(): void {
    if (this.readings) this.readings = { ...this.readings, parsed: { ...this.readings.parsed, syntaxAsked: false } };
  }

  /**
   * Tells the company that whether each workflow source parses will be asked as it is read (a
   * check with the `syntax-error` rule on, `Workspace.loadCompany`'s `syntaxNow`): those read from
   * now on are judged as they are read (`readWorkflowSourceJudged`), their verdict with their facts.
   */
  judgeSyntaxAsRead(): void {
    this.syntaxAsRead = true;
  }

  private syntaxAsRead = false;

  get configFile(): CompanyFile | undefined {
    return this.files.get(path.join(this.root, CONFIG_FILE));
  }

  get name(): string {
    return this.configFile?.facts?.config?.name ?? path.basename(this.root);
  }

  /** The company's `sanoma.lock.json` (asked once a binding by the lockfile rule: made once). */
  readonly lockPath: string;

  /**
   * The folders its walk leaves out beyond A3's (its `WalkOptions.exclude`: names, and paths from
   * the root), as its host last set them (`Workspace.setExclude`).
   */
  private walkExclude: ReadonlySet<string> = new Set();
  /** Those folders as one string, changed when they change: an input of the rules that ask `inExcludedFolder`. */
  walkExcludeKey = "";

  setWalkExclude(exclude: readonly string[]): void {
    this.walkExclude = new Set(exclude);
    this.walkExcludeKey = [...this.walkExclude].sort().join("\n");
  }

  /**
   * Whether the company-relative path `rel` (`/` separators) lies in a folder its walk leaves out
   * by `exclude` (`.sanomarc.json`'s, `--exclude`, the editor's `sanoma.exclude`, the TypeScript
   * plugin's). Our tooling does not read a file there; the framework still loads it, so its absence
   * from `files` says nothing of it (a lockfile binding of it is no orphan).
   */
  inExcludedFolder(rel: string): boolean {
    if (this.walkExclude.size === 0) return false;
    const parts = rel.split("/");
    parts.pop();
    let dirRel = "";
    for (const part of parts) {
      dirRel = dirRel === "" ? part : `${dirRel}/${part}`;
      if (this.walkExclude.has(part) || this.walkExclude.has(dirRel)) return true;
    }
    return false;
  }

  /** Whether the company holds a file at this company-relative path. */
  hasFile(rel: string): boolean {
    return this.files.has(path.join(this.root, rel));
  }

  /** Apps: directories directly under `apps/` (A2), as seen from the files and the folder list. */
  apps(fs?: FileSystem): string[] {
    const apps = new Set<string>();
    if (fs) for (const e of fs.readDir(path.join(this.root, "apps")) ?? []) if (e.kind === "dir" && !e.name.startsWith(".") && e.name !== "node_modules") apps.add(e.name);
    for (const f of this.files.values()) if (f.role.scope) apps.add(f.role.scope);
    return [...apps].sort();
  }

  /**
   * Sets the lockfile's text (undefined: there is none, or, with `unreadable`, it is there but
   * cannot be read, and why); it is read when a check or a feature asks.
   */
  setLockText(text: LockText | undefined, unreadable?: string): void {
    this.lockText = text;
    this.lockUnreadable = text === undefined ? unreadable : undefined;
  }

  /**
   * Sets a file's text (undefined: it is gone). `unreadable`: it exists but cannot be read (no
   * permission): it stays, skipped with that reason, as a binary file does, so what it declares
   * is unknown rather than absent (its lockfile bindings are no orphans).
   */
  setFile(file: string, text: string | undefined, unreadable?: string): { existedBefore: boolean; existsNow: boolean } {
    if (file === this.lockPath) { this.setLockText(text, unreadable); return { existedBefore: true, existsNow: true }; }
    const rel = relativeTo(this.root, file);
    if (!rel) return { existedBefore: false, existsNow: false };
    const old = this.files.get(file);
    for (const t of this.trackers) t.add(file);
    const gone = text === undefined && unreadable === undefined;
    if (!old !== gone) {
      this.membershipVersion++;
      if (isDirectlyInApps(rel)) this.appsFilesVersion++;
    }
    if (gone) {
      this.files.delete(file);
      return { existedBefore: !!old, existsNow: false };
    }
    // (Every field set here, even those set later, so that all entries have one shape: the rules
    // read them for every file, and V8 reads a field of one shape quickest.)
    const entry: CompanyFile = { path: file, rel, role: roleOf(rel), facts: undefined, skipped: undefined, fileRuleProblems: undefined, refProblems: undefined };
    if (text === undefined) {
      entry.skipped = unreadable;
      this.files.set(file, entry);
      return { existedBefore: !!old, existsNow: true };
    }
    const reason = unreadableReason(text, entry.role);
    if (reason) entry.skipped = reason;
    // The config is always read from its syntax tree, and so are the data files whose shape their
    // tokens cannot be read in (light-data.ts): every check reads all they hold.
    else if (entry.role.isConfig || !this.lightFacts) entry.facts = readFacts(file, text, { isConfig: entry.role.isConfig });
    else if (entry.role.isDataFile) entry.facts = readDataFacts(file, text);
    else if (entry.role.isWorkflowSource && this.syntaxAsRead) entry.facts = readWorkflowSourceJudged(file, text, this.readings?.parsed);
    else entry.facts = readFactsLightly(file, text, entry.role.isWorkflowSource ? this.readings?.parsed : this.readings?.unparsed);
    // Its syntax tree could not be read: the file is skipped, as a binary one is, and says why, so
    // that what it declares is unknown; what the text alone tells (its import sites, its operation
    // references) is still judged, as A11 judges them in a file that does not parse. A file the
    // framework loads nested too deep to load (`LOAD_DEPTH`) is not skipped: it is judged, one
    // syntax error, nothing it declares read (A11).
    const unread = entry.facts?.unread;
    if (unread !== undefined) {
      const tooDeep = entry.facts!;
      if (isLoadedByFramework(entry.role) && tooDeep.syntaxErrors > 0) entry.facts = readTextOnly(file, text, { errors: tooDeep.syntaxErrors, first: tooDeep.firstSyntaxError }) ?? tooDeep;
      else { entry.skipped = unread; entry.facts = readTextOnly(file, text); }
    }
    this.files.set(file, entry);
    return { existedBefore: !!old, existsNow: true };
  }

  /**
   * A record of the paths set or removed from now on, for one reader (an incremental analysis):
   * each reader keeps its own, so none takes another's changes.
   */
  trackChanges(): ChangeTracker {
    let paths = new Set<string>();
    this.trackers.add(paths);
    return {
      take: () => { const out = paths; this.trackers.delete(out); paths = new Set(); this.trackers.add(paths); return out; },
      stop: () => { this.trackers.delete(paths); },
    };
  }
}

/** Whether the real path `inner` is `outer` or lies under it. */
export function isWithin(outer: string, inner: string | undefined): boolean {
  return inner !== undefined && (inner === outer || inner.startsWith(outer.endsWith(path.sep) ? outer : outer + path.sep));
}

/**
 * The most of a binary file the framework loads that is parsed all the same: enough for a source
 * saved as UTF-16 (what a Windows shell's `>` writes), little enough that a blob's garbage, an
 * error at every other character, costs nothing much.
 */
export const MAX_PARSED_BINARY_BYTES = 64 * 1024;

/**
 * Why a text is not read (undefined: it is). A binary file (a NUL in its head, as git tells) is
 * skipped, unless the framework loads it (`role`) and it is small: then it is read as any file,
 * and it does not parse, which is what it is to the framework (a UTF-16 source fails to load), or
 * it does, NULs in its strings and all.
 */
export function unreadableReason(text: string, role?: FileRole): string | undefined {
  if (text.length > MAX_FILE_BYTES) return `larger than ${MAX_FILE_BYTES / 1_000_000} MB, not read`;
  // Only the head is looked at (as git does), so an ordinary file is not scanned to its end.
  const head = text.length > 8192 ? text.slice(0, 8192) : text;
  if (head.includes("\u0000") && !(role && isLoadedByFramework(role) && text.length <= MAX_PARSED_BINARY_BYTES)) return "a binary file, not read";
  return undefined;
}

export interface WalkOptions {
  /** Extra folder names or company-relative paths to skip. */
  exclude?: string[];
  /** Reports what was skipped and why. */
  onSkip?: (s: Skipped) => void;
}

/**
 * Whether the walk of the company at `root` reads `file` (A3): a code file, or the root's
 * lockfile, under no folder the walk skips (`node_modules`, a name starting with `.`, an
 * excluded one). That `root` is the file's nearest root is the caller's to know. A file an editor
 * opens or a watcher reports joins its company only if the walk would have read it.
 */
export function walkReads(root: string, file: string, options: WalkOptions = {}): boolean {
  const rel = relativeTo(root, file);
  if (rel === undefined) return false;
  const exclude = new Set(options.exclude ?? []);
  if (exclude.has(WHOLE_COMPANY)) return false;
  const parts = rel.split("/");
  const name = parts.pop()!;
  let dirRel = "";
  for (const part of parts) {
    dirRel = dirRel === "" ? part : `${dirRel}/${part}`;
    if (skipsFolder(part, dirRel, exclude)) return false;
  }
  return readsFile(name, parts.length === 0);
}

/** Whether a company's walk skips the folder `name`, at `rel` in the company (A3, and `exclude`). */
function skipsFolder(name: string, rel: string, exclude: ReadonlySet<string>): boolean {
  return isSkippedDirName(name) || exclude.has(name) || exclude.has(rel);
}

/** Whether a company's walk reads the file `name`: a code file, or the lockfile in the root folder. */
function readsFile(name: string, inRoot: boolean): boolean {
  return isCodeFile(name) || (inRoot && name === LOCK_FILE);
}

/**
 * The files of a company: code files, the config and the lockfile, leaving out `node_modules`,
 * dot folders, excluded folders and nested companies' trees. Visits each real folder once, and
 * follows no link to a folder.
 * Yields every `WALK_STEP` folders (see `steps.ts`). With `under`, a folder of the company, lists
 * only the files under it (what the walk from the root would list there), without walking the rest.
 */
export function* listCompanyFilesSteps(fs: FileSystem, root: string, options: WalkOptions = {}, under = root): Steps<string[]> {
  const out: string[] = [];
  const seen = new Set<string>();
  const exclude = new Set(options.exclude ?? []);
  // (A company left out whole: none of its files, its config and lockfile neither.)
  if (exclude.has(WHOLE_COMPANY)) return out;
  if (under !== root) {
    const rel = relativeTo(root, under) ?? path.relative(root, under).split(path.sep).join("/");
    if (rel === "" || rel.startsWith("..") || path.isAbsolute(rel)) return out;
    // Every folder from the root down to `under` must be one the walk from the root enters.
    let dir = root;
    for (const name of rel.split("/")) {
      dir = path.join(dir, name);
      if (skipsFolder(name, relativeTo(root, dir) ?? "", exclude)) return out;
      if (fs.isFile(path.join(dir, CONFIG_FILE))) return out; // a nested company's
    }
  }
  // Each folder with its real path: the start's asked of the disk, a folder below it its parent's
  // and its name (no link to a folder is followed: see below).
  const stack = [under];
  const reals = [fs.realPath(under)];
  const rootReal = fs.realPath(root) ?? root;
  let n = 0;
  while (stack.length) {
    if (++n % WALK_STEP === 0) yield;
    const dir = stack.pop()!;
    const real = reals.pop();
    if (real === undefined) { options.onSkip?.({ path: dir, reason: "a folder that cannot be read" }); continue; }
    if (seen.has(real)) { if (dir !== under) options.onSkip?.({ path: dir, reason: "a folder already visited (mounted twice?)" }); continue; }
    seen.add(real);
    const entries = fs.readDir(dir);
    if (entries === undefined) { options.onSkip?.({ path: dir, reason: "a folder that cannot be read" }); continue; }
    for (const e of entries.sort((a, b) => (a.name < b.name ? 1 : -1))) {
      const p = childPath(under, dir, e.name);
      let kind = e.kind;
      if (kind === "symlink") kind = fs.isDir(p) ? "dir" : fs.isFile(p) ? "file" : "other";
      // A link to a folder is not followed. Outside the company (its parent, `/tmp`, a sibling) it
      // leads to files that are not the company's (followed, it took in a whole parent folder);
      // inside, to a folder the walk reads by its own path, and each file has one path, one role
      // (followed, `res-alias -> resources` was walked first and `resources/data.ts` was no
      // collections file).
      if (kind === "dir" && e.kind === "symlink") {
        options.onSkip?.({ path: p, reason: isWithin(rootReal, fs.realPath(p)) ? "a link to a folder of the company, read by its own path" : "a link to a folder outside the company, not followed" });
        continue;
      }
      // A lockfile that is no file (a folder, a FIFO) is listed all the same: said so, never taken
      // for a company without one, nor walked into, nor opened (a FIFO would hold the read).
      if (e.name === LOCK_FILE && dir === root && kind !== "file") { out.push(p); continue; }
      if (kind === "dir") {
        if (skipsFolder(e.name, relativeTo(root, p) ?? "", exclude)) continue;
        if (fs.isFile(path.join(p, CONFIG_FILE))) continue; // a nested company: its own root
        stack.push(p);
        reals.push(realChild(real, e.name));
      } else if (kind === "file") {
        if (!readsFile(e.name, dir === root)) continue;
        // A name that is not UTF-8 comes back with U+FFFD in it, a path that names no file.
        if (e.name.includes("\uFFFD") && !fs.isFile(p)) { options.onSkip?.({ path: p, reason: "a file name that is not UTF-8, not read" }); continue; }
        out.push(p);
      } else if (kind === "other" && readsFile(e.name, dir === root)) {
        options.onSkip?.({ path: p, reason: e.kind === "symlink" ? "a link that leads to no file, not read" : "no regular file (a FIFO, a socket or a device), not read" });
      }
    }
  }
  return out;
}
