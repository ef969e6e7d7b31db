/**
 * The language server's state and its life: companies found from workspace folders and opened
 * files, indexed in the background in time-boxed batches, checked after each change from facts,
 * with diagnostics published only for files whose problems changed. Unsaved editor text always
 * wins over disk; changes on disk arrive through `workspace/didChangeWatchedFiles` or, when the
 * client cannot register for them, through the server's own watcher.
 */
import * as path from "node:path";
import { MessageType, ShowMessageNotification, type Connection, type TextDocuments, type WorkDoneProgressReporter } from "vscode-languageserver/node";
import type { TextDocument } from "vscode-languageserver-textdocument";
import { CONFIG_FILE, LOCK_FILE, isInNodeModules, isSkippedDirName } from "../core/company.ts";
import { warmFileRules, type CheckResult } from "../core/check.ts";
import { treeRead } from "../core/facts.ts";
import { isWithin, type Company, type CompanyFile } from "../core/model.ts";
import type { Steps } from "../core/steps.ts";
import { RULE_IDS, ruleDocsUrl } from "../core/rules/index.ts";
import { readSanomaRc, SANOMARC } from "../core/sanomarc.ts";
import type { Problem } from "../core/types.ts";
import { Workspace } from "../core/workspace.ts";
import { nodeFileSystem } from "../node/fs.ts";
import { StatusChangedNotification, type StatusResult } from "../protocol.ts";
import { toDiagnostic, toDiagnostics, toPath, toUri } from "./convert.ts";
import { checkOptions, DEFAULT_SETTINGS, parseSettings, settingsDiagnostic, withShared, type Settings } from "./settings.ts";

/**
 * How long one batch of work (indexing, a check's slice) may hold the event loop before yielding.
 * A request that arrives meanwhile waits up to about three batches: the rest of the running one,
 * the next (queued before the request's handler), and one more before vscode-jsonrpc writes the
 * answer (its writer queues the write with `setImmediate`). 10 ms keeps that well under 100 ms.
 */
const BATCH_MS = 10;
/** How often indexing reports its progress. */
const REPORT_MS = 100;
/**
 * How long the server waits, after the last check and with nothing else to do, before it reads
 * the workflows of the files read without a syntax tree (for symbol search; see `schedulePrime`).
 */
const PRIME_AFTER_MS = 500;

export interface SessionOptions {
  folders: string[];
  /** Whether the client answers `workspace/configuration`. */
  configuration: boolean;
  workDoneProgress: boolean;
  /** Whether hovers may be markdown (the client's `hover.contentFormat` names it, or says nothing). */
  markdownHover?: boolean;
  docsUrl?: (rule: string) => string;
  log: (message: string) => void;
}

interface CompanyState {
  indexed: boolean;
  /** Paths changed on disk while the company was being indexed. */
  changedWhileIndexing?: Set<string>;
  result?: CheckResult;
  settings: Settings;
}

export class Session {
  readonly ws: Workspace;
  readonly state = new Map<string, CompanyState>();
  /** uri → the diagnostics last published there, serialized (to publish only what changed), and the file they are of. */
  private readonly published = new Map<string, { key: string; file: string }>();
  /** file → the URI its diagnostics were last published to, while they are not empty. */
  private readonly publishedTo = new Map<string, string>();
  /** file → its current problems, for code actions. */
  readonly problemsByFile = new Map<string, Problem[]>();
  private readonly dirty = new Set<string>();
  private checkScheduled = false;
  /** Checks under way (suspended between time slices), by company root. */
  private readonly running = new Map<string, Promise<void>>();
  private indexing = 0;
  private indexQueue: Promise<void> = Promise.resolve();
  /** Files listed for indexing and not read yet (so a client can show "812/3,400"). */
  private waitingToBeRead = 0;
  lastCheckMs: number | undefined;
  lastCheckAt: number | undefined;
  settingsProblems: string[] = [];
  /** Settings changes being read (busy meanwhile: the diagnostics on screen may change). */
  private settingsPending = 0;
  /** Bumped on every settings change: settings asked for before it are asked again. */
  private settingsGeneration = 0;
  /** Told of each company's settings when they are pulled (the box service takes its tier from them). */
  readonly settingsListeners: ((root: string, settings: Settings) => void)[] = [];
  /**
   * Told when a company's indexing starts (before its files are listed, so nothing written
   * meanwhile is missed) and when the company is forgotten: the server's own watcher follows them.
   */
  readonly companyListeners: { indexing(root: string): void; gone(root: string): void }[] = [];
  private primeTimer: ReturnType<typeof setTimeout> | undefined;
  /** Resolves when the current indexing round and the checks after it are done (tests, bench). */
  idle: Promise<void> = Promise.resolve();
  private readonly docsUrl: (rule: string) => string;

  constructor(readonly connection: Connection, readonly documents: TextDocuments<TextDocument>, readonly options: SessionOptions) {
    this.ws = new Workspace(nodeFileSystem, { onSkip: (s) => options.log(`skipped ${s.path}: ${s.reason}`) });
    this.docsUrl = options.docsUrl ?? ruleDocsUrl;
  }

  // ---- Companies and indexing ----------------------------------------------------------------

  /**
   * Finds the companies under (and above) the folders and indexes each in the background; no
   * company's files are listed before `ready` (the client's answer to the file watchers' registration).
   */
  start(ready: Promise<unknown> = Promise.resolve()): Promise<void> {
    this.indexing++; // busy from the first moment, so no client sees "idle" before anything is indexed
    return this.enqueueIndex(async () => {
      // The client answers for the settings while the folders are walked.
      const manual = this.settingsRoots();
      const found = await this.findRoots(this.options.folders);
      for (const r of await manual) this.manualRoots.add(r);
      // One company per real folder: a file opened through a link to it (or by its real path, where
      // a folder is a link) joins the company the folders found, under the folders' spelling.
      const roots = new Map<string, string>();
      const add = (root: string) => { const real = this.realOf(root); if (!roots.has(real)) roots.set(real, root); };
      for (const root of [...found, ...this.manualRoots]) add(root);
      for (const doc of this.documents.all()) {
        const file = toPath(doc.uri);
        const root = file && this.ws.rootOf(file);
        if (root) add(root);
      }
      try { await ready; await this.indexRoots([...roots.values()]); } finally { this.indexing--; }
    });
  }

  /** The companies in and above workspace folders, each folder searched with its own settings' folders left out. */
  private async findRoots(folders: string[]): Promise<string[]> {
    const found: string[] = [];
    for (const folder of folders) {
      const settings = await this.fetchSettings(folder);
      for (const root of await inSlices(this.ws.discoverRootsSteps([folder], settings.exclude))) found.push(root);
    }
    return [...new Set(found)].sort();
  }

  /**
   * The company roots the `companyRoots` setting names (those that hold a config): asked of each
   * workspace folder, a relative path resolved against the folder whose setting it is (a
   * multi-root workspace's folders each have theirs).
   */
  private async settingsRoots(): Promise<string[]> {
    const folders = this.options.folders.length > 0 ? this.options.folders : [undefined];
    const named = new Set<string>();
    for (const [folder, s] of await Promise.all(folders.map(async (f) => [f, await this.fetchSettings(f)] as const))) {
      for (const r of s.companyRoots) named.add(path.resolve(folder ?? "/", r));
    }
    return [...named].filter((r) => this.ws.fs.isFile(path.join(r, CONFIG_FILE)));
  }

  private enqueueIndex(task: () => Promise<void>): Promise<void> {
    this.indexQueue = this.indexQueue.then(task, task).catch((e) => this.options.log(`indexing failed: ${(e as Error).stack}`));
    this.idle = this.indexQueue.then(() => this.flushChecks());
    return this.idle;
  }

  /** Makes sure a file's company is known; indexes it when it is new. */
  ensureCompanyFor(file: string): Company | undefined {
    const root = this.ws.rootOf(file);
    if (!root) return undefined;
    if (!this.ws.companies.has(root)) void this.enqueueIndex(() => this.indexRoots([root]));
    return this.ws.companies.get(root);
  }

  private async indexRoots(roots: string[]): Promise<void> {
    const fresh = roots.filter((r) => !this.state.get(r)?.indexed);
    if (fresh.length === 0) return;
    this.indexing++;
    this.notifyStatus();
    let progress: WorkDoneProgressReporter | undefined;
    try {
      // Both round trips to the client at once: every root's settings, and the progress token.
      const settingsOf = new Map(fresh.map((root) => [root, this.settingsFor(root)]));
      const settingsGeneration = this.settingsGeneration;
      if (this.options.workDoneProgress) {
        try { progress = await this.connection.window.createWorkDoneProgress(); } catch { progress = undefined; }
      }
      progress?.begin("Sanoma", 0, "Finding files", false);
      for (const root of fresh) {
        // Its config deleted since the round was queued: no company (the deletion found none to
        // dissolve), and an enclosing company listed meanwhile left its files out.
        if (!this.ws.fs.isFile(path.join(root, CONFIG_FILE))) { this.enclosingTakesBack(root); continue; }
        const company = this.ws.ensureCompany(root);
        for (const l of this.companyListeners) l.indexing(root);
        // Dissolved (its config deleted) or dropped to be indexed anew while this round waited:
        // what dropped it has the last word, nothing of this reading is kept.
        const dropped = () => this.ws.companies.get(root) !== company;
        // Settings that changed since they were asked for are asked again.
        let settings = await settingsOf.get(root)!;
        if (this.settingsGeneration !== settingsGeneration) settings = await this.settingsFor(root);
        if (dropped()) continue;
        this.state.set(root, { indexed: false, settings });
        for (const l of this.settingsListeners) l(root, settings);
        // Each company walks with its own settings' folders left out.
        this.ws.setExclude(root, settings.exclude);
        const files = await inSlices(this.ws.listFilesSteps(root));
        this.waitingToBeRead += files.length;
        let done = 0;
        let t = performance.now();
        let reportedAt = t;
        // Open documents are few: look them up by path, not by a URI made for every file. They
        // change only while the loop yields.
        let openDocuments = this.openDocuments();
        for (const file of files) {
          const open = openDocuments.get(file);
          if (open) this.ws.setFile(company, file, open.getText());
          else this.ws.readFromDisk(company, file);
          const entry = company.files.get(file);
          if (entry) warmFileRules(entry, root);
          else if (file === company.lockPath) {
            // Parsed here, in slices of its own (500,000 bindings take a second), not in the first check.
            await yieldToRequests();
            await inSlices(company.lockSteps());
            await yieldToRequests();
            openDocuments = this.openDocuments();
            t = performance.now();
          }
          done++;
          this.waitingToBeRead--;
          const now = performance.now();
          if (now - t > BATCH_MS) {
            if (now - reportedAt > REPORT_MS) {
              progress?.report(Math.floor((done / files.length) * 100), `Indexing ${company.name}: ${done.toLocaleString("en")}/${files.length.toLocaleString("en")} files`);
              this.notifyStatus();
              reportedAt = now;
            }
            await yieldToRequests();
            if (dropped()) break;
            openDocuments = this.openDocuments();
            t = performance.now();
          }
        }
        this.waitingToBeRead -= files.length - done;
        const st = this.state.get(root);
        if (!st || dropped()) continue;
        // Files changed on disk while the round read others: read them again, as they are now.
        for (const file of st.changedWhileIndexing ?? []) this.rereadAfterIndex(company, file);
        st.changedWhileIndexing = undefined;
        // Open documents of this company that are not on disk (new, unsaved files) count too.
        for (const doc of this.documents.all()) {
          const file = this.filePath(doc.uri);
          if (file && !company.files.has(file) && this.ws.rootOf(file) === root && this.ws.reads(root, file)) this.ws.setFile(company, file, doc.getText());
        }
        st.indexed = true;
        this.dirty.add(root);
        this.options.log(`indexed ${root}: ${company.files.size} files`);
      }
    } finally {
      progress?.done();
      this.indexing--;
      if (this.indexing === 0) this.waitingToBeRead = 0; // whatever an interrupted round listed is not coming
      this.scheduleCheck();
      this.notifyStatus();
    }
  }

  /**
   * The URI to tell the client for a file (diagnostics, edits, locations): its own spelling when the
   * file is open (`%5b` for `[`, an encoded `@`, the path through a link), else ours.
   */
  uriOf(file: string): string {
    return this.openDocuments().get(file)?.uri ?? toUri(file);
  }

  /** The editor's text of a file when it is open. */
  openText(file: string): string | undefined {
    return this.openDocuments().get(file)?.getText();
  }

  private openByPath: { docs: readonly TextDocument[]; companies: string; byPath: Map<string, TextDocument> } | undefined;
  /** The open documents by file path (as the companies spell it), rebuilt only when the open documents or the companies changed. */
  private openDocuments(): Map<string, TextDocument> {
    const docs = this.documents.all();
    const companies = [...this.ws.companies.keys()].join("\0");
    const known = this.openByPath;
    if (known && known.companies === companies && known.docs.length === docs.length && known.docs.every((d, i) => d === docs[i])) return known.byPath;
    const byPath = new Map<string, TextDocument>();
    for (const d of docs) { const p = this.filePath(d.uri); if (p) byPath.set(p, d); }
    this.openByPath = { docs, companies, byPath };
    return byPath;
  }

  private readonly realRoots = new Map<string, string>();
  /** A company root's real path (links resolved), asked of the disk once per root. */
  private realOf(root: string): string {
    let real = this.realRoots.get(root);
    if (real === undefined) this.realRoots.set(root, (real = this.ws.fs.realPath(root) ?? root));
    return real;
  }

  /**
   * A file as the companies spell it. A company is known by one path; a file reached through a
   * link to its folder (or by its real path, where the company was found through a link) is
   * spelled under that path: one company, one set of problems, published to the URI the editor
   * opened (`uriOf`).
   */
  canonical(file: string): string {
    if (this.ws.companies.size === 0) return file;
    const root = this.ws.rootOf(file);
    if (root === undefined || this.ws.companies.has(root)) return file;
    const real = this.realOf(root);
    for (const known of this.ws.companies.keys()) if (this.realOf(known) === real) return path.join(known, path.relative(root, file));
    return file;
  }

  /** A `file:` URI's path, as the companies spell it (`canonical`). */
  filePath(uri: string): string | undefined {
    const file = toPath(uri);
    return file === undefined ? undefined : this.canonical(file);
  }

  /** A `sanoma.config.ts` was deleted: the company dissolves, its diagnostics go. */
  dissolve(root: string): void {
    if (!this.drop(root)) return;
    this.enclosingTakesBack(root);
    this.notifyStatus();
  }

  /** Forgets a company: its index, its state, its diagnostics. False when it was not known. */
  private drop(root: string): boolean {
    const company = this.ws.companies.get(root);
    if (!company) return false;
    this.ws.removeCompany(root);
    this.state.delete(root);
    for (const [uri, { file }] of this.published) if (file === company.lockPath || company.files.has(file)) this.publish(uri, file, []);
    for (const file of company.files.keys()) this.problemsByFile.delete(file);
    for (const l of this.companyListeners) l.gone(root);
    return true;
  }

  /** A company at `root` is no more (or never was): its files may now belong to an enclosing company, which is indexed anew. */
  private enclosingTakesBack(root: string): void {
    const outer = this.ws.rootOf(root);
    if (outer) { this.state.delete(outer); this.ws.removeCompany(outer); void this.enqueueIndex(() => this.indexRoots([outer])); }
  }

  /**
   * Workspace folders were removed: the companies found only through them go, with their
   * diagnostics. A company stays when another workspace folder leads to it (it lies under one, or
   * one lies under it: a company opened through a subfolder) or a file of it is open. Run after
   * any indexing under way, so that no round indexes a company dropped meanwhile.
   */
  foldersRemoved(removed: string[]): Promise<void> {
    const gone = new Set(removed);
    this.options.folders = this.options.folders.filter((f) => !gone.has(f));
    return this.enqueueIndex(async () => {
      const open = this.openRoots();
      // (A copy: dropping a company deletes it from the map being walked.)
      for (const root of Array.from(this.ws.companies.keys())) {
        if (!removed.some((f) => isWithin(f, root) || isWithin(root, f))) continue; // not found through a removed folder
        if (open.has(root) || this.kept(root)) continue;
        this.drop(root);
        this.options.log(`dropped ${root}: its workspace folder was removed`);
      }
      this.notifyStatus();
    });
  }

  /** The roots of the companies of the open documents. */
  private openRoots(): Set<string> {
    const open = new Set<string>();
    for (const doc of this.documents.all()) {
      const file = this.filePath(doc.uri);
      const root = file && this.ws.rootOf(file);
      if (root) open.add(root);
    }
    return open;
  }

  /** Whether a company is kept whatever is open: a workspace folder leads to it (it lies under one, or one under it), or the `companyRoots` setting names it. */
  private kept(root: string): boolean {
    return this.manualRoots.has(root) || this.options.folders.some((f) => isWithin(f, root) || isWithin(root, f));
  }

  // ---- Changes --------------------------------------------------------------------------------

  /** An editor's text for a file (open or changed): it wins over disk. */
  setText(uri: string, text: string): void {
    const file = this.filePath(uri);
    if (!file) return;
    if (path.basename(file) === SANOMARC) { this.sharedSettingsChanged(file); return; }
    const company = this.ensureCompanyFor(file);
    // A file the company's walk skips (a dot folder, a non-code file) stays out of it, open or not.
    if (!company || !this.ws.reads(company.root, file)) return;
    this.ws.setFile(company, file, text);
    this.markDirty(company.root);
    this.respell(file);
  }

  /**
   * A document closed: its text on disk counts again. A company found only through open files
   * (no workspace folder leads to it) goes with the last of them, and its problems with it: the
   * editor's list of problems is of what the user works on.
   */
  closed(uri: string): void {
    const file = this.filePath(uri);
    if (!file) return;
    if (path.basename(file) === SANOMARC) { this.sharedSettingsChanged(file); return; }
    const company = this.ws.companyOf(file);
    if (!company) return;
    const root = company.root;
    if (this.ws.reads(root, file)) {
      this.ws.setFile(company, file, this.ws.fs.readFile(file));
      this.markDirty(root);
      this.respell(file);
    }
    if (this.kept(root)) return;
    // After any indexing under way, and only if no file of it was opened meanwhile.
    void this.enqueueIndex(async () => {
      if (this.kept(root) || this.openRoots().has(root) || !this.drop(root)) return;
      this.options.log(`dropped ${root}: its last open file was closed, and no workspace folder leads to it`);
      this.notifyStatus();
    });
  }

  /** A file changed, was created or deleted on disk (or a folder went away). */
  diskChanged(file: string, kind: "created" | "changed" | "deleted"): void {
    const base = path.basename(file);
    if (base === SANOMARC) {
      if (kind === "deleted") this.publish(this.uriOf(file), file, []);
      if (!this.openDocuments().has(file)) this.sharedSettingsChanged(file); // the editor's text wins
      return;
    }
    if (isInNodeModules(file)) {
      this.ws.packageFileChanged(file);
      for (const root of this.ws.companies.keys()) this.markDirty(root);
      return;
    }
    if (base === CONFIG_FILE) {
      const root = path.dirname(file);
      if (kind === "deleted") { this.dissolve(root); return; }
      if (!this.ws.companies.has(root)) {
        // A new company: it takes its files from any enclosing company.
        const outer = this.ws.rootOf(path.dirname(root));
        if (outer && outer !== root) { this.state.delete(outer); this.ws.removeCompany(outer); this.clearUnder(outer); void this.enqueueIndex(() => this.indexRoots([outer])); }
        void this.enqueueIndex(() => this.indexRoots([root]));
        return;
      }
    }
    if (kind === "deleted") {
      // A folder deleted whole is one event for the folder (VS Code's way): the companies whose
      // config went with it dissolve, as when their config alone is deleted.
      const gone = [...this.ws.companies.keys()].filter((root) => isWithin(file, root) && !this.ws.fs.isFile(path.join(root, CONFIG_FILE)));
      for (const root of gone) this.dissolve(root);
    } else if (kind === "created" && !isSkippedDirName(base) && this.ws.fs.isDir(file)) {
      // A folder created (or renamed in) in one event may bring companies of its own.
      for (const root of this.ws.discoverRoots([file])) if (!this.ws.companies.has(root)) this.diskChanged(path.join(root, CONFIG_FILE), "created");
    }
    if (this.openDocuments().has(file)) return; // the editor's text wins
    const company = this.ws.companyOf(file);
    if (!company) {
      if (kind === "created" && (this.ws.fs.isDir(file))) this.rescanFolder(file);
      return;
    }
    const st = this.state.get(company.root);
    if (st && !st.indexed) { (st.changedWhileIndexing ??= new Set()).add(file); return; } // read again once the round is done
    if (base === LOCK_FILE && path.dirname(file) === company.root) {
      company.setFile(file, kind === "deleted" ? undefined : this.ws.fs.readFile(file));
      this.markDirty(company.root);
      return;
    }
    if (kind === "deleted" && !company.files.has(file)) {
      // Perhaps a folder: everything under it goes, but for open documents (the editor's text wins).
      const prefix = file + path.sep;
      const open = this.openDocuments();
      for (const f of company.files.keys()) if (f.startsWith(prefix) && !open.has(f)) this.ws.setFile(company, f, undefined);
      this.markDirty(company.root);
      return;
    }
    if (kind !== "deleted" && this.ws.fs.isDir(file)) { this.rescanFolder(file); return; }
    if (!this.ws.reads(company.root, file)) return;
    if (kind === "deleted") this.ws.setFile(company, file, undefined);
    else this.ws.readFromDisk(company, file);
    this.markDirty(company.root);
  }

  /** A path that changed while its company was being indexed: the file, or everything under the folder, read again. */
  private rereadAfterIndex(company: Company, file: string): void {
    if (this.openDocuments().has(file)) return; // the editor's text wins
    if (path.basename(file) === LOCK_FILE && path.dirname(file) === company.root) { company.setFile(file, this.ws.fs.readFile(file)); return; }
    const prefix = file + path.sep;
    const open = this.openDocuments();
    for (const f of company.files.keys()) if (f.startsWith(prefix) && !open.has(f)) this.ws.readFromDisk(company, f);
    if (this.ws.fs.isDir(file)) { this.readNewFilesUnder(company, file); return; }
    if (company.files.has(file) || (this.ws.reads(company.root, file) && this.ws.fs.isFile(file))) this.ws.readFromDisk(company, file);
  }

  /** A folder appeared (a checkout, a generator): read the files under it that belong to a company. */
  private rescanFolder(dir: string): void {
    const company = this.ws.companyOf(path.join(dir, "x"));
    if (!company) return;
    this.readNewFilesUnder(company, dir);
    this.markDirty(company.root);
  }

  /** Reads the company's files under a folder that its index does not hold yet (walking that folder only: a checkout makes many). */
  private readNewFilesUnder(company: Company, dir: string): void {
    for (const f of this.ws.listFiles(company.root, dir)) if (!company.files.has(f)) this.ws.readFromDisk(company, f);
  }

  private clearUnder(root: string): void {
    for (const [uri, { file }] of this.published) if (file.startsWith(root + path.sep)) this.publish(uri, file, []);
  }

  markDirty(root: string): void {
    this.dirty.add(root);
    this.scheduleCheck();
  }

  /** Checks run once the messages already received are handled, so a burst of edits costs one check. */
  private scheduleCheck(): void {
    if (this.checkScheduled) return;
    this.checkScheduled = true;
    setImmediate(() => { this.checkScheduled = false; void this.flushChecks(); });
  }

  /** Starts a check of every dirty company; resolves when they are done. */
  flushChecks(): Promise<void> {
    const waits: Promise<void>[] = [];
    for (const root of this.dirty) {
      const st = this.state.get(root);
      if (!st?.indexed || !this.ws.companies.has(root)) { if (!this.ws.companies.has(root)) this.dirty.delete(root); continue; }
      const running = this.running.get(root);
      if (running) { waits.push(running); continue; } // it stays dirty: checked again when that one ends
      this.dirty.delete(root);
      waits.push(this.checkCompany(root, st));
    }
    return Promise.all(waits).then(() => undefined);
  }

  /**
   * Checks a company in time slices of `BATCH_MS`, so a big company's first check never keeps a
   * request waiting long; an edit's check is done in its first slice.
   */
  private checkCompany(root: string, st: CompanyState): Promise<void> {
    const start = performance.now();
    const steps = this.ws.checkSteps(root, checkOptions(st.settings));
    const done = inSlices(steps)
      .catch((e): undefined => { this.options.log(`check of ${root} failed: ${(e as Error).stack}`); return undefined; })
      .then((result) => {
        this.running.delete(root);
        // A company dissolved or re-indexed meanwhile: what was found of the old one is not published.
        if (result && this.state.get(root) === st && this.ws.companies.get(root) === result.analysis.company) this.publishResult(root, st, result, start);
        if (this.dirty.has(root)) this.scheduleCheck();
      });
    this.running.set(root, done);
    return done;
  }


  private publishResult(root: string, st: CompanyState, result: CheckResult, start: number): void {
    const previous = st.result;
    st.result = result;
    // Publish for the files whose problems the check recomputed. The first check of a company
    // object (a new company, or one re-indexed after a settings change or a re-check) recomputes
    // every file it has problems for; what was published before under its root is cleared too.
    const files = new Set(result.changedFiles);
    if (previous?.analysis.company !== result.analysis.company) {
      for (const { file } of this.published.values()) if (file.startsWith(root + path.sep) && path.basename(file) !== SANOMARC && this.ws.rootOf(file) === root) files.add(file);
    }
    for (const file of files) {
      const list = result.problemsByFile.get(file);
      if (list) this.problemsByFile.set(file, list as Problem[]); else this.problemsByFile.delete(file);
      this.publishFile(file, toDiagnostics(list ?? [], this.docsUrl));
    }
    this.lastCheckMs = Math.round((performance.now() - start) * 10) / 10;
    this.lastCheckAt = Date.now();
    this.notifyStatus();
    this.schedulePrime();
  }

  // ---- Reading ahead for symbol search ---------------------------------------------------------

  /**
   * Most files are indexed without a syntax tree, and their workflows (which workspace symbols
   * list) are parsed on first use: the first search of a 10,000-file company took 1.5 s. So once
   * the server has had nothing to do for `PRIME_AFTER_MS` after a check, it reads them in slices,
   * stopping as soon as anything else is waiting (the next check schedules it again), as
   * rust-analyzer primes its caches. A file edited later is read lightly again, and read ahead
   * again after its check.
   */
  private schedulePrime(): void {
    if (this.primeTimer !== undefined) clearTimeout(this.primeTimer);
    this.primeTimer = setTimeout(() => {
      this.primeTimer = undefined;
      if (this.status().state !== "idle") { this.schedulePrime(); return; }
      void this.readWorkflows("ahead of a symbol search", () => this.status().state !== "idle")
        .catch((e) => this.options.log(`reading workflows ahead failed: ${(e as Error).stack}`));
    }, PRIME_AFTER_MS);
    this.primeTimer.unref?.();
  }

  /**
   * Reads the workflows of every company's workflow sources whose syntax tree is not read yet, in
   * slices of `BATCH_MS`, until done or `stop()` holds between two slices. Logs how many it read.
   */
  async readWorkflows(why: string, stop: () => boolean = () => false): Promise<void> {
    const started = performance.now();
    let read = 0;
    const unread = (f: CompanyFile): boolean => f.role.isWorkflowSource && f.facts !== undefined && !treeRead(f.facts);
    for (const root of this.ws.companies.keys()) {
      const files = this.resultOf(root)?.analysis.files;
      if (!files) continue;
      let t = performance.now();
      for (const f of files) {
        if (!unread(f)) continue;
        void f.facts!.workflows;
        read++;
        if (performance.now() - t > BATCH_MS) {
          await yieldToRequests();
          if (stop()) return this.logRead(read, why, started, " (stopped: other work came)");
          t = performance.now();
        }
      }
    }
    this.logRead(read, why, started, "");
  }

  private logRead(read: number, why: string, started: number, tail: string): void {
    if (read > 0) this.options.log(`read the workflows of ${read} file${read === 1 ? "" : "s"} ${why} in ${Math.round(performance.now() - started)} ms${tail}`);
  }

  /** A file's diagnostics, to the URI the client has for it now (and none left where it had another). */
  private publishFile(file: string, diagnostics: ReturnType<typeof toDiagnostic>[]): void {
    const uri = this.uriOf(file);
    const before = this.publishedTo.get(file);
    if (before !== undefined && before !== uri) this.publish(before, file, []);
    this.publish(uri, file, diagnostics);
  }

  /** A file was opened or closed under another spelling than its problems were published to: they move. */
  private respell(file: string): void {
    const before = this.publishedTo.get(file);
    if (before !== undefined && before !== this.uriOf(file)) this.publishFile(file, toDiagnostics(this.problemsByFile.get(file) ?? [], this.docsUrl));
  }

  private publish(uri: string, file: string, diagnostics: ReturnType<typeof toDiagnostic>[]): void {
    const key = JSON.stringify(diagnostics);
    const before = this.published.get(uri)?.key;
    if (before === key || (before === undefined && diagnostics.length === 0)) return;
    if (diagnostics.length === 0) {
      this.published.delete(uri);
      if (this.publishedTo.get(file) === uri) this.publishedTo.delete(file);
    } else {
      this.published.set(uri, { key, file });
      this.publishedTo.set(file, uri);
    }
    void this.connection.sendDiagnostics({ uri, diagnostics }).catch(() => undefined);
  }

  // ---- Settings ------------------------------------------------------------------------------

  /**
   * The `sanoma` section a client pushed with `workspace/didChangeConfiguration`, for clients that
   * cannot be asked (no `workspace/configuration`): one set of settings for every company.
   */
  private pushedSettings: unknown = undefined;
  /** The roots the `companyRoots` setting names (as last read): kept whatever is open. */
  private readonly manualRoots = new Set<string>();

  async fetchSettings(root: string | undefined): Promise<Settings> {
    try {
      const raw = this.options.configuration
        ? await this.connection.workspace.getConfiguration({ scopeUri: root ? toUri(root) : undefined, section: "sanoma" })
        : this.pushedSettings;
      const { settings, problems } = parseSettings(raw);
      for (const p of problems) if (!this.settingsProblems.includes(p)) { this.settingsProblems.push(p); void this.connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message: `Sanoma: ${p}` }).catch(() => undefined); }
      return settings;
    } catch (e) {
      this.options.log(`workspace/configuration failed: ${(e as Error).message}`);
      return DEFAULT_SETTINGS;
    }
  }

  /**
   * Settings changed: pull them again for every company (or take the ones pushed, from a client
   * that cannot be asked) and re-check what they affect.
   */
  async settingsChanged(pushed?: unknown): Promise<void> {
    if (!this.options.configuration) {
      // `{ settings: { sanoma: {…} } }` (no `sanoma` in them: the defaults); a notification
      // without settings tells nothing new.
      if (typeof pushed !== "object" || pushed === null) return;
      this.pushedSettings = (pushed as { sanoma?: unknown }).sanoma;
    }
    this.settingsGeneration++;
    this.settingsProblems = [];
    this.settingsPending++;
    try {
      await this.refreshSettings([...this.state.keys()]);
      await this.enqueueIndex(() => this.companyRootsChanged());
    } finally {
      this.settingsPending--;
      this.notifyStatus();
    }
  }

  /** Reads the settings of companies anew and re-checks (or, when their folders left out changed, re-indexes) them. */
  private async refreshSettings(roots: string[]): Promise<void> {
    for (const root of roots) {
      const st = this.state.get(root);
      if (!st) continue;
      const next = await this.settingsFor(root);
      if (this.state.get(root) !== st) continue; // dropped or re-indexed meanwhile: that round read them
      for (const l of this.settingsListeners) l(root, next);
      const excludeChanged = JSON.stringify(next.exclude) !== JSON.stringify(st.settings.exclude);
      st.settings = next;
      if (excludeChanged) { st.indexed = false; this.ws.removeCompany(root); void this.enqueueIndex(() => this.indexRoots([root])); }
      else this.markDirty(root);
    }
  }

  /**
   * A company's settings: the client's laid over the team's `.sanomarc.json` (the nearest at or
   * above its root, an open editor's text of it winning over the disk's), whose problems are
   * published in that file.
   */
  private async settingsFor(root: string): Promise<Settings> {
    const own = await this.fetchSettings(root);
    const rc = readSanomaRc(this.ws.fs, root, RULE_IDS, (f) => this.openText(f));
    if (rc.file !== undefined) this.publish(this.uriOf(rc.file), rc.file, rc.problems.map(settingsDiagnostic));
    return withShared(own, rc, root);
  }

  /**
   * A `.sanomarc.json` changed, came, went, or its editor text changed: the companies at or below
   * its folder (the file may now be, or no longer be, the nearest to them) take their settings anew.
   */
  sharedSettingsChanged(file: string): void {
    const dir = path.dirname(file);
    const roots = [...this.state.keys()].filter((root) => isWithin(dir, root));
    if (roots.length === 0) return;
    this.settingsGeneration++; // a round reading settings meanwhile reads them again
    this.settingsPending++;
    void this.refreshSettings(roots)
      .catch((e) => this.options.log(`reading ${file} failed: ${(e as Error).stack}`))
      .finally(() => { this.settingsPending--; this.notifyStatus(); });
  }

  /**
   * The `companyRoots` setting read again (it was read only at startup: a later change, or the
   * first push of a client that cannot be asked, was ignored): the roots it names now are
   * indexed; those it no longer names go, unless a workspace folder leads to them or a file of
   * them is open (then they go with the last of those files, as any company found through files).
   */
  private async companyRootsChanged(): Promise<void> {
    const named = new Set(await this.settingsRoots());
    const before = [...this.manualRoots];
    this.manualRoots.clear();
    for (const r of named) this.manualRoots.add(r);
    const open = this.openRoots();
    for (const root of before) {
      if (named.has(root) || open.has(root) || this.kept(root) || !this.drop(root)) continue;
      this.options.log(`dropped ${root}: the companyRoots setting no longer names it`);
    }
    await this.indexRoots([...named]);
    this.notifyStatus();
  }

  /** Re-reads every company from disk (the "check the whole workspace now" command). */
  recheckAll(): Promise<void> {
    const roots = [...this.ws.companies.keys()];
    for (const r of roots) { this.state.delete(r); this.ws.removeCompany(r); }
    return this.enqueueIndex(async () => {
      const found = new Set([...await this.findRoots(this.options.folders), ...roots.filter((r) => this.ws.fs.isFile(path.join(r, CONFIG_FILE)))]);
      await this.indexRoots([...found]);
    });
  }

  // ---- Status --------------------------------------------------------------------------------

  status(): StatusResult {
    let indexed = 0;
    for (const c of this.ws.companies.values()) indexed += c.files.size;
    return {
      // Busy while indexing, reading changed settings or while a check is pending: "idle" means the published diagnostics are current.
      state: this.indexing > 0 || this.settingsPending > 0 || this.dirty.size > 0 || this.checkScheduled || this.running.size > 0 ? "indexing" : "idle",
      companies: this.ws.companies.size,
      files: indexed + this.waitingToBeRead,
      indexedFiles: indexed,
      lastCheckMs: this.lastCheckMs,
      lastCheckAt: this.lastCheckAt,
    };
  }

  private notifyStatus(): void {
    void this.connection.sendNotification(StatusChangedNotification, this.status()).catch(() => undefined);
  }

  /** The company and entry of a document, if it belongs to one. */
  locate(uri: string): { company: Company; file: string } | undefined {
    const file = this.filePath(uri);
    if (!file) return undefined;
    const company = this.ws.companyOf(file);
    return company ? { company, file } : undefined;
  }

  resultOf(root: string): CheckResult | undefined {
    return this.state.get(root)?.result;
  }

  settingsOf(root: string): Settings {
    return this.state.get(root)?.settings ?? DEFAULT_SETTINGS;
  }
}

function yieldToRequests(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Runs the core's steps (see `core/steps.ts`) in batches of `BATCH_MS`, yielding to requests between them. */
export async function inSlices<T>(steps: Steps<T>): Promise<T> {
  let t = performance.now();
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    if (performance.now() - t > BATCH_MS) { await yieldToRequests(); t = performance.now(); }
  }
}
