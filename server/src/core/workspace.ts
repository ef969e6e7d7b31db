/**
 * Every company under a set of folders: finding their roots (walking down the folders and up
 * from each, so a company opened through a subfolder is found whole), loading their files'
 * facts, and keeping one connector resolver per company. Shared by `sanoma-check` and the server.
 */
import * as path from "node:path";
import { childPath, realChild, CONFIG_FILE, findCompanyRoot, isInNodeModules, isSkippedDirName } from "./company.ts";
import { ConnectorResolver } from "./connectors.ts";
import { CompanyChecker, type CheckOptions, type CheckResult } from "./check.ts";
import { CompanyAnalyzer, type Analysis } from "./analysis.ts";
import { runSteps, WALK_STEP, type Steps } from "./steps.ts";
import { isAbsoluteExclude, personalBases } from "./sanomarc.ts";
import { Company, listCompanyFilesSteps, walkReads, type Skipped } from "./model.ts";
import { knowSyntax, syntaxVerdict, textAwaitingSyntax, workflowsRead, type FileFacts, type SyntaxVerdict } from "./facts.ts";
import { fileRuleProblems } from "./check.ts";
import type { LockFacts } from "./lockfile-read.ts";
import type { DirEntry, FileSystem, LockText, ReadAhead } from "./types.ts";

export interface WorkspaceOptions {
  exclude?: string[];
  /** Read facts without a syntax tree where a file's text allows (default); false parses every file. */
  lightFacts?: boolean;
  onSkip?: (s: Skipped) => void;
  /**
   * A file's text as it is now (an editor's unsaved text, else the disk's). Given, facts read
   * without a syntax tree keep no text they may never parse, and read it again through this if a
   * parse is asked for (issue 23). A host whose texts are not all on disk or in this must not give it.
   */
  textOf?: (file: string) => string | undefined;
  /**
   * The host lists workflows (a server's symbol search): with `textOf`, a workflow source's
   * workflows are read by the same parse that learns whether it parses, and kept (see
   * `LightReading.workflowsAsked`). A host that never lists them (the check) keeps none.
   */
  listsWorkflows?: boolean;
}

/** What the workspace keeps for one company besides its index: its resolver, its checks (and analysis), its walk's excluded folders. */
interface CompanyState {
  resolver: ConnectorResolver;
  checker: CompanyChecker;
}

export class Workspace {
  readonly companies = new Map<string, Company>();
  private readonly states = new Map<string, CompanyState>();

  constructor(readonly fs: FileSystem, readonly options: WorkspaceOptions = {}) {}

  /** Company roots in and above the given folders (a folder inside a company finds that company). */
  discoverRoots(dirs: string[], exclude = this.options.exclude): string[] {
    return runSteps(this.discoverRootsSteps(dirs, exclude));
  }

  /**
   * `discoverRoots`, yielding every `WALK_STEP` folders (see `steps.ts`). `exclude`: the folders
   * the search leaves out (a person's, the settings of the folders searched), by default the
   * options': a name, every folder of that name; a path, the folder at that path from each company
   * root on the way (one at or above the start included), or from the start where it lies in no
   * company (`personalBases`), as each company's walk leaves it out. Only folders below a start
   * are left out: a company at or below a start that lies in one is found, and its settings leave
   * it out whole.
   */
  *discoverRootsSteps(dirs: string[], exclude: readonly string[] = this.options.exclude ?? []): Steps<string[]> {
    let n = 0;
    // By real path: one company reached by two paths (a symlink, two folders given) is found once.
    const roots = new Map<string, string>();
    const addRoot = (root: string) => { const real = this.fs.realPath(root) ?? root; if (!roots.has(real)) roots.set(real, root); };
    // (A person's absolute path is the folder it names, or, lying in no company and holding none,
    // a path from each company root, as `/apps/legacy` always was: `readFrom`.)
    const absolute = new Set(exclude.filter((e) => isAbsoluteExclude(e)));
    const excluded = new Set(exclude.filter((e) => !e.includes("/") && !absolute.has(e)));
    const paths = new Set(exclude.filter((e) => e.includes("/")).map((e) => e.replace(/^\/+/, "")));
    const isRoot = (d: string) => this.fs.isFile(path.join(d, CONFIG_FILE));
    const seen = new Set<string>();
    for (const dir of dirs) {
      const up = findCompanyRoot(dir, isRoot, true);
      if (up) addRoot(up);
      // Nothing inside `node_modules` belongs to a company (A1), even when the walk starts there.
      if (isInNodeModules(dir)) continue;
      // Each folder with its real path: the start's asked of the disk, a folder below it its
      // parent's and its name (no link is followed: see below). With paths to leave out, each
      // with the folders they are read from (the company roots around it).
      const stack = [dir];
      const reals = [this.fs.realPath(dir)];
      const basesOf = paths.size > 0 || absolute.size > 0 ? [personalBases(dir, [dir], isRoot)] : undefined;
      while (stack.length) {
        if (++n % WALK_STEP === 0) yield;
        const d = stack.pop()!;
        const real = reals.pop();
        let bases = basesOf?.pop();
        if (real === undefined || seen.has(real)) continue;
        seen.add(real);
        const below: string[] | undefined = bases ? [] : undefined;
        for (const e of this.fs.readDir(d) ?? []) {
          // (A path made only for what needs one: most entries are files, passed over.)
          // A config that is a symlink to a file counts, as it does for a file's walk up (A1).
          if (e.name === CONFIG_FILE && (e.kind === "file" || (e.kind === "symlink" && this.fs.isFile(childPath(dir, d, e.name))))) {
            addRoot(d);
            if (bases && !bases.includes(d)) bases = [...bases, d];
          }
          // No link to a folder is followed, as in a company's walk: one outside the folder searched
          // leads to what is not under it (its parent would hold this very folder), one inside to
          // a folder the search reaches by its own path, where its companies are found (and
          // reported) by their real paths.
          else if (e.kind === "dir" && !isSkippedDirName(e.name) && !excluded.has(e.name)) {
            if (below) below.push(e.name);
            else { stack.push(childPath(dir, d, e.name)); reals.push(realChild(real, e.name)); }
          }
        }
        if (!below || !bases) continue;
        for (const name of below) {
          const child = childPath(dir, d, name);
          if (absolute.has(child) || bases.some((b) => paths.has(path.relative(b, child).split(path.sep).join("/")))) continue;
          stack.push(child); reals.push(realChild(real, name)); basesOf!.push(bases);
        }
      }
    }
    return [...roots.values()].sort();
  }

  /** The company root of a file (A1): the nearest known root or folder holding a config on disk. */
  rootOf(file: string): string | undefined {
    return findCompanyRoot(file, (d) => this.companies.has(d) || this.fs.isFile(path.join(d, CONFIG_FILE)));
  }

  /** The company a file belongs to, when that company is known. */
  companyOf(file: string): Company | undefined {
    const root = this.rootOf(file);
    return root ? this.companies.get(root) : undefined;
  }

  /** Creates (or returns) the company at a root, without reading its files. */
  ensureCompany(root: string): Company {
    let c = this.companies.get(root);
    if (!c) {
      c = new Company(root, this.options.lightFacts !== false, this.options.textOf, this.options.listsWorkflows);
      c.setWalkExclude(this.excludeOf(root) ?? []);
      this.companies.set(root, c);
      // Packages' files read as they are now too (an editor's unsaved text of a connector or its
      // package.json wins over the disk, as a company file's does: B1).
      // (Delegated one by one: a file system may be a class's instance, its methods on its prototype.)
      const textOf = this.options.textOf;
      const base = this.fs;
      const fs: FileSystem = textOf ? { readFile: (file) => textOf(file), readDir: (dir) => base.readDir(dir), isFile: (file) => base.isFile(file), isDir: (dir) => base.isDir(dir), realPath: (p) => base.realPath(p) } : base;
      // (What a resolver forgets is counted while it is the company's: a check under way may still hold one removed.)
      const resolver: ConnectorResolver = new ConnectorResolver(fs, (file) => this.companyOf(file)?.files.get(file)?.facts, (file, forgotten) => {
        if (this.states.get(root)?.resolver === resolver) this.countToReadAgain(file, forgotten);
      });
      this.states.set(root, { resolver, checker: new CompanyChecker(new CompanyAnalyzer(c, resolver)) });
    }
    return c;
  }

  /** Forgets a company: its index, its resolver, its checks, its excluded folders. */
  removeCompany(root: string): void {
    this.excludes.delete(root);
    this.companies.delete(root);
    const st = this.states.get(root);
    st?.checker.dispose();
    for (const file of st?.resolver.forgottenFiles().keys() ?? []) this.countToReadAgain(file, false);
    this.states.delete(root);
  }

  /** Folders a company's walk skips besides A3's, per company root (its settings); else `options.exclude`. */
  private readonly excludes = new Map<string, readonly string[]>();

  /** The folders the walk of the company at `root` leaves out (its settings), from its next walk on. */
  setExclude(root: string, exclude: readonly string[]): void {
    this.excludes.set(root, exclude);
    // (The company knows them too: what lies in those folders is not read, not absent.)
    this.companies.get(root)?.setWalkExclude(exclude);
  }

  private excludeOf(root: string): string[] | undefined {
    const own = this.excludes.get(root);
    return own ? [...own] : this.options.exclude;
  }

  /** The files a company's index holds, listed from disk; with `under`, only those under that folder. */
  listFiles(root: string, under?: string): string[] {
    return runSteps(this.listFilesSteps(root, under));
  }

  /** `listFiles`, yielding every `WALK_STEP` folders (see `steps.ts`); with `under`, only the files under that folder. */
  listFilesSteps(root: string, under?: string): Steps<string[]> {
    return listCompanyFilesSteps(this.fs, root, { exclude: this.excludeOf(root), onSkip: this.options.onSkip }, under);
  }

  /**
   * Reads every file of a company from disk (the check command's way; the server batches it).
   * `syntaxNow`: a text whose syntax will be asked (a workflow source read without a tree) is
   * parsed as it is read, and let go then, for a caller that will ask for every one anyway (a
   * check with `syntax-error` on): the same parses, but no text held until the check (at 100,000
   * files, tens of megabytes of them at once). `syntaxUnasked`: nothing will ask (a check with
   * `syntax-error` off): no text is held for it (`Company.syntaxUnasked`). Neither: each is held
   * until asked.
   */
  loadCompany(root: string, options: { syntaxNow?: boolean; syntaxUnasked?: boolean; readAhead?: ReadAhead } = {}): Company {
    const company = this.ensureCompany(root);
    if (options.syntaxUnasked) company.syntaxUnasked();
    if (options.syntaxNow) company.judgeSyntaxAsRead();
    const files = this.listFiles(root);
    const ahead = options.readAhead;
    ahead?.start(files);
    try {
      for (const file of files) {
        const text = ahead?.take(file);
        if (text !== undefined) this.setFile(company, file, text);
        else this.readFromDisk(company, file);
        const facts = options.syntaxNow ? company.files.get(file)?.facts : undefined;
        const pending = facts && textAwaitingSyntax(facts);
        if (pending !== undefined) knowSyntax(facts!, syntaxVerdict(file, pending));
      }
    } finally {
      ahead?.end();
    }
    return company;
  }

  /** A file's entry in its folder's list, or undefined (it vanished, or the folder cannot be listed). */
  private listing(file: string): DirEntry | undefined {
    const name = path.basename(file);
    return this.fs.readDir(path.dirname(file))?.find((e) => e.name === name);
  }

  /** Whether a file's folder lists its name (a file that vanished is no longer listed). */
  private listedIn(file: string): boolean {
    return this.listing(file) !== undefined;
  }

  /**
   * Why the lockfile at `file` cannot be read, when it is there (undefined: there is none). Read
   * without opening it: a FIFO would hold the read until something wrote to it.
   */
  lockfileUnreadable(file: string): string | undefined {
    if (this.fs.isDir(file)) return "is a folder, not a file";
    if (this.fs.isFile(file)) return "cannot be read (no permission?)";
    const entry = this.listing(file);
    if (entry === undefined) return undefined;
    if (entry.kind === "other") return "is no regular file (a FIFO, a socket or a device)";
    return entry.kind === "symlink" ? "is a link that leads to no regular file" : "cannot be read (no permission?)";
  }

  readFromDisk(company: Company, file: string): void {
    if (file === company.lockPath) { this.setLockText(company, this.fs.isFile(file) ? this.fs.readFile(file) : undefined); return; }
    const text = this.fs.readFile(file);
    // There but unreadable (no permission): kept, skipped, so what it declares is unknown, not absent.
    // (A folder that may be listed but not searched shows the file's name, and no more of it.)
    if (text === undefined && (this.fs.isFile(file) || this.listedIn(file))) { this.setFile(company, file, undefined, "a file that cannot be read"); return; }
    if (text === undefined) this.options.onSkip?.({ path: file, reason: "vanished while being read" });
    this.setFile(company, file, text);
  }

  /**
   * Whether the company at `root` reads `file` at all (see `walkReads`), and by this path: the walk
   * follows no link to a folder, so a file reached through one (`res-alias/data.ts` where
   * `res-alias` links to `resources`) is read by its own path only. A folder not on disk yet (a
   * new, unsaved file) is judged by its path.
   */
  reads(root: string, file: string): boolean {
    if (!walkReads(root, file, { exclude: this.excludeOf(root) })) return false;
    const dir = path.dirname(file);
    const dirReal = this.fs.realPath(dir);
    return dirReal === undefined || dirReal === path.join(this.fs.realPath(root) ?? root, path.relative(root, dir));
  }

  /** Sets a file's text and keeps the company's resolver right. */
  setFile(company: Company, file: string, text: string | undefined, unreadable?: string): void {
    const { existedBefore, existsNow } = company.setFile(file, text, unreadable);
    const entry = company.files.get(file);
    if (entry?.skipped) this.options.onSkip?.({ path: file, reason: entry.skipped });
    // Every company's resolver: a connector in one company's tree may be imported by another.
    for (const st of this.states.values()) st.resolver.fileChanged(file, existedBefore, existsNow);
  }

  /**
   * A verdict on a file's syntax, parsed elsewhere from `text` (a host that holds its syntax tree
   * already, as tsserver does): taken if the file's facts still await it for that very text, else
   * dropped (the file changed since). The check is exact either way: it parses what it is not told.
   */
  knowSyntax(root: string, file: string, text: string, verdict: SyntaxVerdict): void {
    const facts = this.companies.get(root)?.files.get(file)?.facts;
    if (facts && textAwaitingSyntax(facts) === text) knowSyntax(facts, verdict);
  }

  /**
   * Runs the file rules over one file ahead of the company's check: a server calls it while
   * indexing, in its time-boxed batches, so the first check has only the company rules left to run.
   */
  warmFileRules(root: string, file: string): void {
    const entry = this.companies.get(root)?.files.get(file);
    if (entry) fileRuleProblems(entry, root);
  }

  /**
   * The company's lockfile text (undefined: there is none, or it cannot be read, which is asked of
   * the disk then), read when a check or a feature asks for its bindings.
   */
  setLockText(company: Company, text: LockText | undefined): void {
    company.setLockText(text, text === undefined ? this.lockfileUnreadable(company.lockPath) : undefined);
  }

  /** A company's lockfile read, in steps (a lockfile of 500,000 bindings takes a second): a server reads it in slices of its own. */
  lockSteps(root: string): Steps<LockFacts | undefined> {
    return this.ensureCompany(root).lockSteps();
  }

  /**
   * Reads the workflows of the company's workflow sources read without a syntax tree whose
   * workflows nothing has read yet (what a symbol search lists), one file a step, saying which: a
   * server reads them before a search (with `listsWorkflows`, only those edited since their check).
   */
  *readUnreadWorkflows(root: string): Generator<string, void, void> {
    const company = this.companies.get(root);
    if (!company) return;
    for (const f of company.files.values()) {
      if (!f.role.isWorkflowSource || f.facts === undefined || workflowsRead(f.facts)) continue;
      void f.facts.workflows;
      yield f.path;
    }
  }

  /**
   * A file under a `node_modules` folder changed: forget what was read of it. A file of a linked
   * package (a monorepo's workspace package) is forgotten by its real path too: every company that
   * links it read it through a link of its own (`packages/c/node_modules/@acme/shared` and
   * `packages/b/…`), each forgotten from there (`ConnectorResolver.forgetDiskFile`).
   */
  packageFileChanged(file: string, change = 0): void {
    for (const st of this.states.values()) st.resolver.forgetDiskFile(file, change);
    if (![...this.states.values()].some((st) => st.resolver.linkedPackageFolders().size > 0)) return;
    const real = this.fs.realPath(file);
    if (real === undefined || real === file || isInNodeModules(real)) return;
    for (const st of this.states.values()) st.resolver.forgetDiskFile(real, change);
  }

  /**
   * Package files some company's connectors had read, forgotten since (`packageFileChanged`) and
   * not read again: how many (of the company at `root`'s, or of all, each once), and the one
   * forgotten first, with the number of the change that made it forgotten (`packageFileChanged`'s
   * `change`). A server reads them ahead of its next checks, one at a time between requests
   * (`readPackageFileAgain`): a check reads those it needs in one of its steps. Costs one look per
   * company (the files of all are counted as they come and go: `toReadAgain`), not one per file.
   */
  packageFilesToReadAgain(root?: string): { count: number; first: string | undefined; change: number | undefined } {
    if (root !== undefined) {
      const forgotten = this.states.get(root)?.resolver.forgottenFiles();
      const [first, change] = forgotten?.entries().next().value ?? [];
      return { count: forgotten?.size ?? 0, first, change };
    }
    let first: string | undefined;
    let change: number | undefined;
    for (const st of this.states.values()) {
      const [f, n] = st.resolver.forgottenFiles().entries().next().value ?? [];
      if (f !== undefined && (change === undefined || n! < change)) { first = f; change = n; }
    }
    return { count: this.toReadAgain.size, first, change };
  }

  /** The package files of `packageFilesToReadAgain`, each with how many companies' resolvers forgot it. */
  private readonly toReadAgain = new Map<string, number>();

  private countToReadAgain(file: string, forgotten: boolean): void {
    const n = (this.toReadAgain.get(file) ?? 0) + (forgotten ? 1 : -1);
    if (n > 0) this.toReadAgain.set(file, n);
    else this.toReadAgain.delete(file);
  }

  /** Reads a package file forgotten since it changed (`packageFilesToReadAgain`) once, for every company whose connectors had read it. */
  readPackageFileAgain(file: string): void {
    let facts: FileFacts | null | undefined;
    for (const st of this.states.values()) st.resolver.readAgain(file, () => (facts === undefined ? (facts = st.resolver.readDiskFacts(file)) : facts));
  }

  /** The package folders a company's connector reading went into or looked for (`ConnectorResolver.watchedPackageFolders`): none for a company not known. */
  packageFoldersOf(root: string): ReadonlySet<string> {
    return this.states.get(root)?.resolver.watchedPackageFolders() ?? new Set();
  }

  /**
   * The linked packages a company's connector reading went into (a monorepo's workspace packages):
   * each one's real folder, and its path in `node_modules` (`ConnectorResolver.linkedPackageFolders`).
   */
  linkedPackageFoldersOf(root: string): ReadonlyMap<string, string> {
    return this.states.get(root)?.resolver.linkedPackageFolders() ?? new Map();
  }

  /** Whether `file` is, or holds, a linked package some company's connectors were read from (a monorepo's workspace package): see `ConnectorResolver`. */
  readsLinkedPackageAt(file: string): boolean {
    for (const st of this.states.values()) if (st.resolver.readsLinkedPackageAt(file)) return true;
    return false;
  }

  resolver(root: string): ConnectorResolver {
    this.ensureCompany(root);
    return this.states.get(root)!.resolver;
  }

  /**
   * Checks a company: every rule over its files, the first time; then what changed since (see
   * `CompanyChecker`).
   */
  check(root: string, options: CheckOptions = {}): CheckResult {
    return runSteps(this.checkSteps(root, options));
  }

  /**
   * A company's analysis, brought up to date, without a check (a host that only navigates). Its
   * checks keep their own record of what changed: analysing in between takes nothing from them.
   */
  analyse(root: string): Analysis {
    this.ensureCompany(root);
    return runSteps(this.states.get(root)!.checker.analyzer.steps());
  }

  /** `check` in steps, for a caller that runs it in time slices (see `steps.ts`). */
  checkSteps(root: string, options: CheckOptions = {}): Steps<CheckResult> {
    this.ensureCompany(root);
    return this.states.get(root)!.checker.steps(options);
  }
}
