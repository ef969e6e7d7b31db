/**
 * The language server's state and its life: companies found from workspace folders and opened
 * files, indexed in the background in time-boxed batches, checked after each change, and
 * forgotten when nothing leads to them any more. Unsaved editor text always wins over disk;
 * changes on disk arrive through `workspace/didChangeWatchedFiles` or, when the client cannot
 * register for them, through the server's own watcher.
 *
 * It reaches the core only through `Workspace`, and the outside world only through what it is
 * given: a `FileSystem`, a `Client` and the open documents. Its parts, each a file of its own:
 * `documents.ts` (open documents, how paths are spelled), `settings-source.ts` (each company's
 * settings), `checks.ts` (when checks run), `publisher.ts` (diagnostics as the client has them),
 * `workflow-reading.ts` (workflows left to read before a symbol search), `indexer.ts` (reading a company's files),
 * `failures.ts` (a company whose check or reading failed, noted on its config), `slices.ts` (time slices).
 */
import * as path from "node:path";
import { CONFIG_FILE, findCompanyRoot, isInNodeModules, isSkippedDirName } from "../core/company.ts";
import type { CheckResult } from "../core/check.ts";
import { isWithin, walkReads, type Company } from "../core/model.ts";
import { ruleDocsUrl } from "../core/rules/index.ts";
import { SANOMARC, WHOLE_COMPANY } from "../core/sanomarc.ts";
import type { FileSystem, Problem } from "../core/types.ts";
import { thousands } from "../core/text.ts";
import { Workspace } from "../core/workspace.ts";
import type { StatusResult } from "../protocol.ts";
import type { Failpoints } from "../node/failpoints.ts";
import { Checks } from "./checks.ts";
import type { Client, Progress } from "./client.ts";
import { OpenDocuments, type DocumentSource } from "./documents.ts";
import { Failures } from "./failures.ts";
import { Publisher } from "./publisher.ts";
import { SettingsSource } from "./settings-source.ts";
import { DEFAULT_SETTINGS, excludedFolderDiagnostic, leftOutDiagnostic, type CompanySettings, type Settings } from "./settings.ts";
import { READ_BATCH_MS, readFiles, readLockText, readNewFilesUnder, rereadAfterIndex } from "./indexer.ts";
import { BATCH_MS, inSlices, yieldToRequests, yieldToWaitingRequests } from "./slices.ts";
import { readPendingWorkflows } from "./workflow-reading.ts";

export interface SessionOptions {
  folders: string[];
  /** Whether the client answers `workspace/configuration`. */
  configuration: boolean;
  /** Whether hovers may be markdown (the client's `hover.contentFormat` names it, or says nothing). */
  markdownHover?: boolean;
  docsUrl?: (rule: string) => string;
  log: (message: string) => void;
  /** The failpoints armed (tests only: `SANOMA_FAILPOINTS`, read by main.ts), if any. */
  failpoints?: Failpoints;
}

interface CompanyState {
  indexed: boolean;
  /** Paths changed on disk while the company was being indexed. */
  changedWhileIndexing?: Set<string>;
  result?: CheckResult;
  settings: CompanySettings;
  /** Reads of the lockfile started after a change on disk: only the newest one's text is taken. */
  lockReads?: number;
  /** Its config is reached through a link (it, or a folder above it): the deletion of any path may take it. */
  configLinked?: boolean;
}

export class Session {
  readonly ws: Workspace;
  readonly documents: OpenDocuments;
  readonly publisher: Publisher;
  readonly settings: SettingsSource;
  readonly checks: Checks;
  /** The companies whose check or reading failed, each noted on its config until its next check publishes. */
  readonly failures: Failures;
  readonly state = new Map<string, CompanyState>();
  private indexing = 0;
  private indexQueue: Promise<void> = Promise.resolve();
  /** Files listed for indexing and not read yet (so a client can show "812/3,400"). */
  private waitingToBeRead = 0;
  /** Settings changes being read (busy meanwhile: the diagnostics on screen may change). */
  private settingsPending = 0;
  /** The roots the `companyRoots` setting names (as last read): kept whatever is open. */
  private readonly manualRoots = new Set<string>();
  /** Told of each company's settings when they are read. */
  readonly settingsListeners: ((root: string, settings: Settings) => void)[] = [];
  /**
   * Told when a company's indexing starts (before its files are listed, so nothing written
   * meanwhile is missed) and when the company is forgotten: the server's own watcher follows them.
   */
  readonly companyListeners: { indexing(root: string): void; gone(root: string): void; foldersChanged?(): void; checked?(root: string): void }[] = [];
  /**
   * Roots of companies whose config went while a workspace folder or an open file still leads into
   * them: their trees stay watched (for the listeners, not yet `gone`), so that the config coming
   * back (a checkout, an undo) brings the company back, as a fresh server would find it.
   */
  private readonly dormant = new Set<string>();
  /** Resolves when the current indexing round and the checks after it are done (tests, bench). */
  idle: Promise<void> = Promise.resolve();

  constructor(fs: FileSystem, readonly client: Client, documents: DocumentSource, readonly options: SessionOptions) {
    // A file's text now: the editor's, else the disk's (what a fact that let its text go reads again).
    // A package's file read through a link (a monorepo's workspace package) is the editor's when open
    // by any path to it: at its real path, as an editor opens it, or through another link.
    const textOf = (file: string) => this.documents.openText(file) ?? (isInNodeModules(file) ? this.documents.openTextByRealPath(file) : undefined) ?? fs.readFile(file);
    this.ws = new Workspace(fs, { textOf, listsWorkflows: true, onSkip: (s) => options.log(`skipped ${s.path}: ${s.reason}`) });
    this.documents = new OpenDocuments(documents, this.ws);
    this.publisher = new Publisher(client, this.documents, options.docsUrl ?? ruleDocsUrl);
    this.settings = new SettingsSource(client, this.ws, this.documents, this.publisher, { ...options, lateAnswer: () => void this.settingsChanged(), roots: () => [...this.ws.companies.keys(), ...(this.roundLeft ?? [])] });
    this.failures = new Failures(this.publisher, () => this.notifyStatus());
    this.checks = new Checks(this.ws, this.publisher, (root) => this.state.get(root), () => this.notifyStatus(), options.log, (root) => {
      // Its problems are current again: a failure noted before goes.
      this.failures.clear(root);
      for (const l of this.companyListeners) l.checked?.(root);
    }, { mark: () => this.changes, waits: (root, since) => this.waitsForChanged(root, since) }, (root, e) => this.checkFailed(root, e), options.failpoints);
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
      const manual = this.settings.companyRoots(this.options.folders);
      const found = await this.findRoots(this.options.folders);
      for (const r of await manual) this.manualRoots.add(r);
      // One company per real folder: a file opened through a link to it (or by its real path, where
      // a folder is a link) joins the company the folders found, under the folders' spelling.
      const roots = new Map<string, string>();
      const add = (root: string) => { const real = this.documents.realOf(root); if (!roots.has(real)) roots.set(real, root); };
      for (const root of [...found, ...this.manualRoots]) add(root);
      for (const root of this.documents.roots()) add(root);
      try { await ready; await this.indexRoots([...roots.values()]); } finally { this.indexing--; }
    });
  }

  /** Each workspace folder's `sanoma.exclude` as its last search for companies left it out (JSON). */
  private readonly searchedWithout = new Map<string, string>();

  /** The companies in and above workspace folders, each folder searched with its own settings' folders left out. */
  private async findRoots(folders: string[]): Promise<string[]> {
    const found: string[] = [];
    for (const folder of folders) {
      const settings = await this.settings.ofScope(folder);
      this.searchedWithout.set(folder, JSON.stringify(settings.exclude));
      for (const root of await inSlices(this.ws.discoverRootsSteps([folder], settings.exclude))) found.push(root);
    }
    return [...new Set(found)].sort();
  }

  private enqueueIndex(task: () => Promise<void>): Promise<void> {
    this.indexQueue = this.indexQueue.then(task, task).catch((e) => this.options.log(`indexing failed: ${(e as Error).stack}`));
    this.idle = this.indexQueue.then(() => this.checks.flush());
    return this.idle;
  }

  /** Makes sure a file's company is known; indexes it when it is new (first of what the round under way has left, if one is). */
  private ensureCompanyFor(file: string): Company | undefined {
    let root = this.ws.rootOf(file);
    if (!root) return undefined;
    // (A file opened through a link while its company waits in the round: that company, as the round spells it.)
    if (!this.ws.companies.has(root)) root = this.sameFolder(root) ?? root;
    // Its indexing failed: read again whole, this edit's text with the rest (`readAgainIfFailed`).
    if (this.readAgainIfFailed(root)) return undefined;
    if (!this.ws.companies.has(root)) {
      this.indexNext(root);
      void this.enqueueIndex(() => this.indexRoots([root])); // (a round that reads it first finds it indexed)
    }
    return this.ws.companies.get(root);
  }

  /** The root, known or left to the round under way, of the same real folder as `root` under another spelling. */
  private sameFolder(root: string): string | undefined {
    const real = this.documents.realOf(root);
    for (const r of [...this.ws.companies.keys(), ...(this.roundLeft ?? [])]) if (r !== root && this.documents.realOf(r) === real) return r;
    return undefined;
  }

  /**
   * The companies the indexing round under way has yet to read, in the order it reads them; none
   * when no round runs. A company whose file is opened goes to its front (see `indexNext`).
   */
  private roundLeft: string[] | undefined;

  /**
   * A file of the company at `root` was opened (or edited) while a round indexes: the company is
   * read next, before the others the round has left (one opened outside the round's folders
   * joins it there), so the file the user looks at is not left waiting for a whole monorepo.
   */
  private indexNext(root: string): void {
    const left = this.roundLeft;
    if (!left || left[0] === root) return;
    const real = this.documents.realOf(root);
    // (By real path, as the round was made: a file opened through a link joins the company the folders found.)
    const at = left.findIndex((r) => r === root || this.documents.realOf(r) === real);
    if (at === 0) return;
    left.unshift(at > 0 ? left.splice(at, 1)[0] : root);
  }

  private async indexRoots(roots: string[]): Promise<void> {
    // (One company per real folder: a root indexed under another spelling, a link's, is not read again.)
    const indexed = new Set([...this.state].filter(([, st]) => st.indexed).map(([r]) => this.documents.realOf(r)));
    const fresh = roots.filter((r) => !indexed.has(this.documents.realOf(r)));
    if (fresh.length === 0) return;
    this.indexing++;
    this.notifyStatus();
    let progress: Progress | undefined;
    let settingsOf = new Map<string, Promise<CompanySettings>>();
    try {
      // The companies of open documents first, in the order found; then the others.
      const open = new Set([...this.documents.roots()].map((r) => this.documents.realOf(r)));
      const first = (r: string) => open.has(this.documents.realOf(r));
      const left = [...fresh.filter(first), ...fresh.filter((r) => !first(r))];
      this.roundLeft = left;
      // Both round trips to the client at once: every root's settings (in that order), and the progress token.
      settingsOf = new Map(left.map((root) => [root, this.settings.forCompany(root)]));
      const generation = this.settings.generation;
      const reported = await this.client.progress("Sanoma", "Finding files");
      // (One report for them all: each company's share of it, so that its percentage only rises, as
      // LSP asks; a company that joins the round meanwhile may not take it back down.)
      let shown = 0;
      progress = reported && { report: (percentage, message) => reported.report((shown = Math.max(shown, percentage)), message), done: () => reported.done() };
      for (let done = 0; left.length > 0; done++) {
        const root = left.shift()!;
        // (One company's failure is its own: the round goes on with the others.)
        try {
          await this.indexCompany(root, () => settingsOf.get(root) ?? this.settings.forCompany(root), generation, progress && { progress, done, of: done + 1 + left.length });
        } catch (e) {
          this.indexingFailed(root, e);
        }
      }
    } finally {
      // A root asked for that did not become a company (its config gone, nothing leading to it any
      // more): the `.sanomarc.json` read for it holds for it no more.
      for (const [root, asked] of settingsOf) { const release = () => this.releaseUnknown(root); void asked.then(release, release); }
      this.roundLeft = undefined;
      progress?.done();
      this.indexing--;
      if (this.indexing === 0) this.waitingToBeRead = 0; // whatever an interrupted round listed is not coming
      this.checks.schedule();
      this.notifyStatus();
    }
  }

  /** Reads one company's files (its open documents' texts, else the disk's) in batches of `READ_BATCH_MS` (indexer.ts). */
  private async indexCompany(root: string, settingsAsked: () => Promise<CompanySettings>, generation: number, report: { progress: Progress; done: number; of: number } | undefined): Promise<void> {
    // Its config deleted since the round was queued: no company (the deletion found none to
    // dissolve), and an enclosing company listed meanwhile left its files out.
    if (!this.ws.fs.isFile(path.join(root, CONFIG_FILE))) { this.enclosingTakesBack(root); return; }
    // Nothing leads to it any more (its only open file closed before its turn came): a fresh server
    // would not know it, and no drop was queued for a company not known yet.
    if (!this.discoverable(root)) return;
    const company = this.ws.ensureCompany(root);
    this.dormant.delete(root);
    for (const l of this.companyListeners) l.indexing(root);
    // Dissolved (its config deleted) or dropped to be indexed anew while this round waited:
    // what dropped it has the last word, nothing of this reading is kept.
    const dropped = () => this.ws.companies.get(root) !== company;
    // Settings that changed since they were asked for are asked again.
    let settings = await settingsAsked();
    if (this.settings.generation !== generation) settings = await this.settings.forCompany(root);
    if (dropped()) return;
    const config = path.join(root, CONFIG_FILE);
    this.state.set(root, { indexed: false, settings, configLinked: this.ws.fs.realPath(config) !== config });
    for (const l of this.settingsListeners) l(root, settings);
    this.noteLeftOutOpen();
    // Each company walks with its own settings' folders left out.
    this.ws.setExclude(root, settings.exclude);
    const files = await inSlices(this.ws.listFilesSteps(root));
    this.options.failpoints?.hit("index");
    this.waitingToBeRead += files.length;
    const done = await readFiles(this.ws, this.documents, company, files, {
      progress: (read) => {
        report?.progress.report(Math.floor(((report.done + read / files.length) / report.of) * 100), `Indexing ${company.name}: ${thousands(read)}/${thousands(files.length)} files`);
        this.notifyStatus();
      },
      read: () => this.waitingToBeRead--,
      dropped,
    });
    this.waitingToBeRead -= files.length - done;
    const st = this.state.get(root);
    if (!st || dropped()) return;
    // Files changed on disk while the round read others: read them again, as they are now.
    for (const file of st.changedWhileIndexing ?? []) {
      if (file === company.lockPath) void this.lockfileChanged(company); else rereadAfterIndex(this.ws, this.documents, company, file);
    }
    st.changedWhileIndexing = undefined;
    // Open documents of this company that are not on disk (new, unsaved files) count too.
    for (const doc of this.documents.all()) {
      const file = this.documents.filePath(doc.uri);
      if (file && !company.files.has(file) && this.ws.rootOf(file) === root && this.ws.reads(root, file)) this.ws.setFile(company, file, doc.getText());
    }
    st.indexed = true;
    this.checks.markDirty(root);
    this.options.log(`indexed ${root}: ${company.files.size} files`);
  }

  // ---- Failures (a fault of ours: failures.ts) ---------------------------------------------------

  /** A company's check threw (its stack logged by the checks): noted on its config; checked again at its next change. */
  private checkFailed(root: string, e: unknown): void {
    const name = this.nameOf(root);
    this.failures.failed({ root, name }, "check", `check of ${name}`, e);
  }

  /**
   * A company's indexing threw: logged, and noted on its config. It stays unindexed (unchecked)
   * until the next change to one of its files, or a check of the workspace, reads it again whole:
   * not at once, as a fault that comes back every time would read it for ever.
   */
  private indexingFailed(root: string, e: unknown): void {
    this.options.log(`indexing ${root} failed: ${(e as Error).stack ?? e}`);
    // (A company gone meanwhile, its config with it, has nothing to note.)
    if (!this.ws.companies.has(root) && !this.ws.fs.isFile(path.join(root, CONFIG_FILE))) return;
    const name = this.nameOf(root);
    this.failures.failed({ root, name }, "indexing", `reading of ${name}'s files (indexing)`, e);
  }

  /**
   * A change to a company's files (on disk, or an editor's text) could not be taken: its index
   * may no longer be its files. Logged, noted on its config, and the company read again whole at
   * once (the open documents' texts with the disk's): a fault in taking one change is not met by
   * reading a company; should that fail too, it is an indexing failure (above).
   */
  private changeFailed(root: string | undefined, what: string, e: unknown): void {
    this.options.log(`${what} failed: ${(e as Error).stack ?? e}`);
    if (root !== undefined) this.readAgainAfter(root, what, e);
  }

  /** What `changeFailed` does once the stack is logged: the company at `root`, if it is known, noted and read again whole. */
  private readAgainAfter(root: string, what: string, e: unknown): void {
    if (!this.ws.companies.has(root)) return; // (no company known there: nothing of one shown)
    this.failures.failed({ root, name: this.nameOf(root) }, "change", what, e);
    this.reindex(root);
  }

  /** A company whose indexing failed, at the next change to one of its files: read again whole (once: whatever comes meanwhile waits for that reading). */
  private readAgainIfFailed(root: string): boolean {
    if (!this.failures.takeReadAgain(root)) return false;
    this.reindex(root);
    return true;
  }

  private nameOf(root: string): string {
    return this.ws.companies.get(root)?.name ?? path.basename(root);
  }

  /** A file as the user reads it in a message: from its company's root, else whole. */
  private shown(file: string, root: string | undefined): string {
    return root !== undefined && isWithin(root, file) ? path.relative(root, file).split(path.sep).join("/") : file;
  }

  /** A root the round asked settings for but did not index: no `.sanomarc.json` holds for it (unless it became a company meanwhile). */
  private releaseUnknown(root: string): void {
    if (!this.ws.companies.has(root)) this.settings.release(root);
  }

  /**
   * Companies whose config is a link that its target's deletion left leading nowhere. No event
   * names the config when the target is made again (the link itself did not change): each is
   * looked at again whenever something is made or written, and comes back once its config leads
   * to a file (before, only an edit of one of its files, or a check of the workspace, brought it).
   */
  private readonly linkTargetGone = new Set<string>();

  private linkTargetsBack(): void {
    for (const root of Array.from(this.linkTargetGone)) {
      if (!this.ws.fs.isFile(path.join(root, CONFIG_FILE))) continue;
      this.linkTargetGone.delete(root);
      this.takeDiskChange(path.join(root, CONFIG_FILE), "created");
    }
  }

  /**
   * A `sanoma.config.ts` was deleted: the company dissolves, its diagnostics go. A workspace folder
   * or an open file that leads into it keeps its tree watched (`dormant`): only there would its
   * config coming back be seen (opened through a subfolder, the client watches that folder alone).
   */
  dissolve(root: string): void {
    const watchedOn = this.leadsInto(root);
    if (!this.drop(root, watchedOn)) return;
    if (watchedOn) this.dormant.add(root);
    this.enclosingTakesBack(root);
    this.notifyStatus();
  }

  /** Whether a workspace folder opens `root` through a subfolder (`walkUpReaches`; not at it: the folder's own watch sees it) or an open file lies inside it. */
  private leadsInto(root: string): boolean {
    if (this.options.folders.some((f) => f !== root && this.walkUpReaches(f, root))) return true;
    for (const doc of this.documents.all()) {
      const file = this.documents.filePath(doc.uri);
      if (file && isWithin(root, file)) return true;
    }
    return false;
  }

  /** The dormant trees nothing leads into any more (a folder removed, a file closed) are let go. */
  private releaseDormant(): void {
    for (const root of Array.from(this.dormant)) {
      if (this.ws.companies.has(root)) { this.dormant.delete(root); continue; }
      if (this.leadsInto(root)) continue;
      this.dormant.delete(root);
      for (const l of this.companyListeners) l.gone(root);
    }
  }

  /**
   * Whether a fresh server would know a company at `root`: a workspace folder's walk reaches it (no
   * dot folder or `node_modules` on the way, A3), a folder's walk up finds it (opened through a
   * subfolder: `walkUpReaches`), a file of it is open, or the settings name it. A config made anywhere else (in
   * `.tmp/`, a company moved into `.trash/`) makes no company.
   */
  private discoverable(root: string): boolean {
    return this.documents.roots().has(root) || this.kept(root);
  }

  /**
   * Whether a workspace folder's walk up finds `root` (A1, as Workspace.discoverRootsSteps starts):
   * it is the nearest folder at or above the folder that holds a config, none in `node_modules`.
   * A folder inside a company opens it through a subfolder, but not where a company nested in it
   * stands between them (the folder's own included: a company's root opened as a folder is that
   * company, not the one around it). `root` counts as a root with its config gone (one dissolving).
   */
  private walkUpReaches(folder: string, root: string): boolean {
    if (!isWithin(root, folder)) return false;
    return findCompanyRoot(folder, (d) => d === root || this.ws.fs.isFile(path.join(d, CONFIG_FILE)), true) === root;
  }

  /**
   * Whether a workspace folder's walk for companies reaches `root` (Workspace.discoverRootsSteps):
   * under the folder by its own path, through no dot folder or `node_modules` (A3) and no link to a
   * folder (never followed). A company opened through such a link is the open file's, not the folder's.
   */
  private walkReaches(folder: string, root: string): boolean {
    if (!isWithin(folder, root) || path.relative(folder, root).split(path.sep).some(isSkippedDirName)) return false;
    const realFolder = this.ws.fs.realPath(folder);
    const realRoot = this.ws.fs.realPath(root);
    // (Either gone: as the paths say.)
    return realFolder === undefined || realRoot === undefined || realRoot === path.join(realFolder, path.relative(folder, root));
  }

  /**
   * Forgets a company: its index, its state, its diagnostics. False when it was not known.
   * `keepWatched`: its listeners are not told it is gone (see `dormant`).
   */
  private drop(root: string, keepWatched = false): boolean {
    const company = this.ws.companies.get(root);
    if (!company) return false;
    this.ws.removeCompany(root);
    this.state.delete(root);
    this.publisher.clear((file) => file === company.lockPath || company.files.has(file));
    this.failures.clear(root);
    this.settings.release(root);
    if (!keepWatched) for (const l of this.companyListeners) l.gone(root);
    this.noteLeftOutOpen();
    return true;
  }

  /** Forgets a company to read it again, whole. */
  private reindex(root: string): void {
    this.state.delete(root);
    this.ws.removeCompany(root);
    void this.enqueueIndex(() => this.indexRoots([root]));
  }

  /**
   * An open file of a company left out whole (`sanoma.exclude`, `.sanomarc.json`: none of its
   * files is judged) gets a note saying so, an Information diagnostic at its start: it showed
   * nothing, as a clean file does. Only a file the company would read were it not left out (a
   * code file, outside the folders it leaves out besides); a file closed, or whose company is
   * judged again or gone, loses it.
   */
  private noteLeftOut(file: string, company: Company | undefined = this.ws.companyOf(file)): void {
    const settings = company && this.documents.isOpen(file) ? this.state.get(company.root)?.settings : undefined;
    let note: ReturnType<typeof leftOutDiagnostic> | undefined;
    if (company && settings?.leftOut) {
      if (walkReads(company.root, file, { exclude: settings.exclude.filter((e) => e !== WHOLE_COMPANY) })) note = leftOutDiagnostic(company, settings.leftOut, (f) => this.documents.uriOf(f));
    } else if (company && settings?.excludedBy && walkReads(company.root, file, { exclude: [] })) {
      // A file the company would read but for a folder its walk leaves out: which one, and who says so.
      for (const by of settings.excludedBy) {
        const folder = by.folders.find((f) => !walkReads(company.root, file, { exclude: [f] }));
        if (folder !== undefined) { note = excludedFolderDiagnostic(company, by, folder, (f) => this.documents.uriOf(f)); break; }
      }
    }
    this.publisher.note(file, "left-out", note);
  }

  /** `noteLeftOut` for every open file, and every file noted (a company's settings read, a company gone). */
  private noteLeftOutOpen(): void {
    for (const file of new Set([...this.documents.byPath().keys(), ...this.publisher.noted("left-out")])) this.noteLeftOut(file);
  }

  /** A company at `root` is no more (or never was): its files may now belong to an enclosing company, which is indexed anew. */
  private enclosingTakesBack(root: string): void {
    const outer = this.ws.rootOf(root);
    if (outer) this.reindex(outer);
  }

  /**
   * Workspace folders were removed: the companies found only through them go, with their
   * diagnostics. A company stays when another workspace folder leads to it (it lies under one, or
   * one opens it through a subfolder, no company nested between them: `kept`) or a file of it is open. Run after
   * any indexing under way, so that no round indexes a company dropped meanwhile.
   */
  foldersRemoved(removed: string[]): Promise<void> {
    const gone = new Set(removed);
    this.options.folders = this.options.folders.filter((f) => !gone.has(f));
    return this.enqueueIndex(async () => {
      const open = this.documents.roots();
      // (A copy: dropping a company deletes it from the map being walked.)
      for (const root of Array.from(this.ws.companies.keys())) {
        if (!removed.some((f) => isWithin(f, root) || isWithin(root, f))) continue; // not found through a removed folder
        if (open.has(root) || this.kept(root)) continue;
        this.drop(root);
        this.options.log(`dropped ${root}: its workspace folder was removed`);
      }
      this.releaseDormant();
      this.notifyStatus();
    });
  }

  /**
   * Whether a company is kept whatever is open: a workspace folder leads to it (its walk reaches it,
   * or its walk up finds it: `walkUpReaches`), or the `companyRoots` setting names it.
   */
  private kept(root: string): boolean {
    return this.manualRoots.has(root) || this.options.folders.some((f) => this.walkUpReaches(f, root) || this.walkReaches(f, root));
  }

  /** Re-reads every company from disk (the "check the whole workspace now" command). */
  async recheckAll(): Promise<void> {
    const roots = [...this.ws.companies.keys()];
    for (const r of roots) { this.state.delete(r); this.ws.removeCompany(r); }
    await this.enqueueIndex(async () => {
      const found = new Set([...await this.findRoots(this.options.folders), ...roots.filter((r) => this.ws.fs.isFile(path.join(r, CONFIG_FILE)))]);
      await this.indexRoots([...found]);
      for (const r of roots) if (!this.ws.companies.has(r)) { this.settings.release(r); this.failures.clear(r); }
    });
    // Until the status says idle (a check scheduled by the index, settings still being read), so
    // that the status answered with says what is published; bounded, as edits may keep coming.
    for (let i = 0; i < 50 && this.status().state !== "idle"; i++) {
      await this.idle;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  // ---- Changes --------------------------------------------------------------------------------

  /** An editor's text for a file (open or changed): it wins over disk. One that cannot be taken (a fault of ours) has its company read again whole (`changeFailed`). */
  setText(uri: string, text: string): void {
    const file = this.documents.filePath(uri);
    if (!file) return;
    try {
      this.options.failpoints?.hit("edit");
      this.takeText(file, text);
    } catch (e) {
      const root = this.ws.rootOf(file);
      this.changeFailed(root, `reading of an edit of ${this.shown(file, root)}`, e);
    }
  }

  private takeText(file: string, text: string): void {
    if (path.basename(file) === SANOMARC) { this.sharedSettingsChanged(file); return; }
    // A package's file (a connector, its package.json): no company's, but what the resolver reads.
    if (isInNodeModules(file)) { this.packageChanged(file); return; }
    // A monorepo's workspace package linked into `node_modules`, open at its real path (as editors
    // open it): read through the link, by the companies that link it (see the workspace's `textOf`).
    // It may also be a company's file: taken as such below.
    if (this.ws.readsLinkedPackageAt(file)) this.packageChanged(file);
    const company = this.ensureCompanyFor(file);
    this.noteLeftOut(file, company);
    // A file the company's walk skips (a dot folder, a non-code file) stays out of it, open or not.
    if (!company || !this.ws.reads(company.root, file)) return;
    this.ws.setFile(company, file, text);
    this.checks.markDirty(company.root);
    this.publisher.respell(file);
  }

  /**
   * A document closed: its text on disk counts again. A company found only through open files
   * (no workspace folder leads to it) goes with the last of them, and its problems with it: the
   * editor's list of problems is of what the user works on.
   */
  closed(uri: string): void {
    const file = this.documents.filePath(uri);
    if (!file) return;
    try {
      this.takeClose(file);
    } catch (e) {
      const root = this.ws.rootOf(file);
      this.changeFailed(root, `reading of ${this.shown(file, root)} closed`, e);
    }
  }

  private takeClose(file: string): void {
    this.publisher.note(file, "left-out", undefined);
    if (path.basename(file) === SANOMARC) { this.sharedSettingsChanged(file); return; }
    if (isInNodeModules(file)) { this.packageChanged(file); return; }
    // (A linked workspace package, open at its real path: its disk text counts again through the links.)
    if (this.ws.readsLinkedPackageAt(file)) this.packageChanged(file);
    const company = this.ws.companyOf(file);
    // (Not known yet, its indexing queued or under way: the same drop is queued, after that indexing.)
    const root = company?.root ?? this.ws.rootOf(file);
    if (!root) { this.releaseDormant(); return; }
    if (!company) this.releaseDormant();
    else if (this.ws.reads(root, file)) {
      if (file === company.lockPath) void this.lockfileChanged(company); // (in slices: it may be 40 MB)
      else { this.ws.setFile(company, file, this.documents.openText(file) ?? this.ws.fs.readFile(file)); this.checks.markDirty(root); } // (still open under another URI: that text still wins)
      this.publisher.respell(file);
    }
    if (this.kept(root)) return;
    // After any indexing under way, and only if no file of it was opened meanwhile.
    void this.enqueueIndex(async () => {
      if (this.kept(root) || this.documents.roots().has(root) || !this.drop(root)) return;
      this.options.log(`dropped ${root}: its last open file was closed, and no workspace folder leads to it`);
      this.notifyStatus();
    });
  }

  /** A package's file changed (on disk, or in the editor): what was read of it is forgotten, and every company checked again. */
  private packageChanged(file: string): void {
    this.ws.packageFileChanged(file, ++this.changes);
    for (const root of this.ws.companies.keys()) this.checks.markDirty(root);
    void this.readChanged();
  }

  /**
   * A file changed, was created or deleted on disk (or a folder went away): the client's
   * `didChangeWatchedFiles` and the server's own watchers. One that cannot be taken (a fault of
   * ours) has its company read again whole (`changeFailed`).
   */
  diskChanged(file: string, kind: "created" | "changed" | "deleted"): void {
    try {
      this.options.failpoints?.hit("disk");
      this.takeDiskChange(file, kind);
    } catch (e) {
      const root = this.ws.rootOf(file);
      this.changeFailed(root, `reading of ${this.shown(file, root)} ${kind} on disk`, e);
    }
  }

  private takeDiskChange(file: string, kind: "created" | "changed" | "deleted"): void {
    const base = path.basename(file);
    if (base === SANOMARC) {
      if (kind === "deleted") this.publisher.file(file, []);
      if (!this.documents.isOpen(file)) this.sharedSettingsChanged(file); // the editor's text wins
      return;
    }
    if (isInNodeModules(file)) {
      // (An open one's text is the editor's: its disk text counts again when it closes.)
      if (!this.documents.isOpen(file)) this.packageChanged(file);
      return;
    }
    // A company's own `package.json` (its `exports`, which a package importing itself by name goes
    // through; its dependencies, which tell a connector) or a `.pnp.cjs`: what the resolvers found
    // through them is forgotten. Neither is a company's file.
    if (base === "package.json" || base === ".pnp.cjs" || base === ".pnp.js") {
      if (!this.documents.isOpen(file)) this.packageChanged(file);
      return;
    }
    if (kind !== "deleted" && this.linkTargetGone.size > 0) this.linkTargetsBack();
    // A workspace package linked into `node_modules` (a monorepo's), changed at its real path: what
    // was read of it is forgotten (it may also be a company's file: read as such below).
    if (this.ws.readsLinkedPackageAt(file) && !this.documents.isOpen(file)) this.packageChanged(file);
    if (base === CONFIG_FILE) {
      const root = path.dirname(file);
      if (kind === "deleted") { this.linkTargetGone.delete(root); this.dissolve(root); return; }
      if (!this.ws.companies.has(root)) {
        // A new company: it takes its files from the enclosing company, if one is known, which is
        // read anew, whether the new one is known then or not (nothing may lead to it: then its
        // files are no one's, as a fresh server has it). The enclosing company is looked for from
        // the new root's parent up (`rootOf` of the root itself: a root one level below it is found).
        const outer = this.ws.rootOf(root);
        const enclosing = outer === undefined ? undefined : this.ws.companies.get(outer);
        if (enclosing) {
          // Only the problems of the files it gives up go now (those the new root is the root of):
          // the rest of its own are published anew by its next first check, and a company nested
          // in it, or in the new one, keeps its own (a `.sanomarc.json`'s are its readers').
          this.publisher.clear((f) => isWithin(root, f) && path.basename(f) !== SANOMARC && this.ws.rootOf(f) === root);
          this.reindex(enclosing.root);
        }
        if (this.discoverable(root)) void this.enqueueIndex(() => this.indexRoots([root]));
        return;
      }
    }
    if (kind === "deleted") {
      // A folder deleted whole is one event for the folder (VS Code's way): the companies whose
      // config went with it dissolve, as when their config alone is deleted.
      // (A config that is a link goes with whatever it leads to: its target, a folder on the way.)
      const gone = [...this.ws.companies.keys()].filter((root) => (isWithin(file, root) || this.state.get(root)?.configLinked) && !this.ws.fs.isFile(path.join(root, CONFIG_FILE)));
      for (const root of gone) {
        // A link left leading nowhere: looked at again whenever something is made (its target, or a folder on the way).
        if (!isWithin(file, root) && this.state.get(root)?.configLinked) this.linkTargetGone.add(root);
        this.dissolve(root);
      }
    } else if (kind === "created" && !isSkippedDirName(base) && this.isRealFolder(file)) {
      // A folder created (or renamed in) in one event may bring companies of its own.
      for (const root of this.ws.discoverRoots([file])) if (!this.ws.companies.has(root)) this.takeDiskChange(path.join(root, CONFIG_FILE), "created");
    }
    if (this.documents.isOpen(file)) return; // the editor's text wins
    const company = this.ws.companyOf(file);
    if (!company) {
      if (kind === "created" && this.isRealFolder(file)) this.rescanFolder(file);
      return;
    }
    if (this.readAgainIfFailed(company.root)) return; // (its indexing failed: read again whole, this change with the rest)
    const st = this.state.get(company.root);
    if (st && !st.indexed) { (st.changedWhileIndexing ??= new Set()).add(file); return; } // read again once the round is done
    if (file === company.lockPath) { void this.lockfileChanged(company); return; }
    if (kind === "deleted" && !company.files.has(file)) {
      // Perhaps a folder: everything under it goes, but for open documents (the editor's text wins).
      const prefix = file + path.sep;
      const open = this.documents.byPath();
      const queued = this.changedToRead.get(company.root)?.files;
      for (const f of queued?.keys() ?? []) if (f.startsWith(prefix)) queued!.delete(f);
      for (const f of company.files.keys()) if (f.startsWith(prefix) && !open.has(f)) this.ws.setFile(company, f, undefined);
      this.checks.markDirty(company.root);
      return;
    }
    if (kind !== "deleted" && this.ws.fs.isDir(file)) { if (this.isRealFolder(file)) this.rescanFolder(file); return; }
    if (!this.ws.reads(company.root, file)) return;
    if (kind === "deleted") { this.changedToRead.get(company.root)?.files.delete(file); this.ws.setFile(company, file, undefined); }
    else this.readLater(company, file);
    this.checks.markDirty(company.root);
  }

  // ---- Files changed on disk, read between requests -------------------------------------------

  /**
   * A company's files changed on disk, to be read again (`readChanged`), by root. A client reports
   * a checkout, a build or an `npm install` as one `didChangeWatchedFiles` of hundreds of files:
   * read in its handler, all of them (8 compiled bundles of 1.5 MB: 8–20 s), no request was
   * answered until the last was read. Each file with the number of the change that queued it
   * (`changes`), oldest first (a file queued again before it is read keeps its place).
   */
  private readonly changedToRead = new Map<string, { company: Company; files: Map<string, number> }>();
  /** Changes on disk numbered as they come: a company's files (`readLater`), a package's (`packageChanged`). */
  private changes = 0;
  /** Whether `readChanged` runs. */
  private readingChanged = false;

  /** A company's file changed on disk: read again soon, between requests (`readChanged`). */
  private readLater(company: Company, file: string): void {
    let queued = this.changedToRead.get(company.root);
    if (queued?.company !== company) this.changedToRead.set(company.root, (queued = { company, files: new Map() }));
    if (!queued.files.has(file)) queued.files.set(file, ++this.changes);
    void this.readChanged();
  }

  /**
   * Reads the files changed on disk (`readLater`) and the package files whose facts a change made
   * the connectors forget (`packageChanged`: the next check read them all in one of its steps),
   * oldest change first, in batches of `READ_BATCH_MS` with the requests answered between them, as
   * indexing reads: a request waits for one file at most (a 1.5 MB bundle: about a second), not for
   * the batch. A company's check waits for the changes queued by the time it was due
   * (`waitsForChanged`), so that what it publishes is of the whole batch, as before; not for those
   * queued since, which a build rewriting files faster than they are read would queue for ever.
   * A file opened meanwhile keeps the editor's text.
   */
  private async readChanged(): Promise<void> {
    if (this.readingChanged) return; // (the loop under way takes it)
    this.readingChanged = true;
    this.notifyStatus();
    let read: ReturnType<Session["nextChanged"]>;
    try {
      // The rest of the notification's changes first, and the requests already received.
      await yieldToWaitingRequests();
      let t = performance.now();
      for (read = this.nextChanged(); read; read = this.nextChanged()) {
        read.read();
        const held = performance.now() - t;
        if (held > READ_BATCH_MS) { this.notifyStatus(); await (held > BATCH_MS ? yieldToWaitingRequests() : yieldToRequests()); t = performance.now(); }
      }
    } catch (e) {
      // (A fault of ours.) The changes still queued go with the one that threw, and each company
      // they were of is read again whole; a package's file is every company's.
      const what = read ? `reading of ${this.shown(read.file, read.root)} changed on disk` : "reading of files changed on disk";
      this.options.log(`${what} failed: ${(e as Error).stack ?? e}`);
      const roots = new Set(this.changedToRead.keys());
      if (read?.root !== undefined) roots.add(read.root);
      else if (read) for (const root of this.ws.companies.keys()) roots.add(root);
      this.changedToRead.clear();
      for (const root of roots) this.readAgainAfter(root, what, e);
    } finally {
      this.readingChanged = false;
      this.checks.schedule();
      this.notifyStatus();
    }
  }

  /** The next read of `readChanged` (a company's file, with its root, or a package's, of the oldest change), or undefined when none is left. */
  private nextChanged(): { root?: string; file: string; read: () => void } | undefined {
    let oldest: { root: string; company: Company; file: string; change: number } | undefined;
    for (const [root, queued] of this.changedToRead) {
      const [first] = queued.files;
      // (Dropped or read anew whole meanwhile: nothing of this queue counts.)
      if (first === undefined || this.ws.companies.get(root) !== queued.company) { this.changedToRead.delete(root); continue; }
      if (oldest === undefined || first[1] < oldest.change) oldest = { root, company: queued.company, file: first[0], change: first[1] };
    }
    const pkg = this.ws.packageFilesToReadAgain();
    if (pkg.first !== undefined && (oldest === undefined || pkg.change! < oldest.change)) { const file = pkg.first; return { file, read: () => this.ws.readPackageFileAgain(file) }; }
    if (oldest === undefined) return undefined;
    const { root, company, file } = oldest;
    this.changedToRead.get(root)!.files.delete(file);
    return { root, file, read: () => {
      if (this.documents.isOpen(file)) return;
      this.options.failpoints?.hit("read");
      this.ws.readFromDisk(company, file);
      // (A check that did not wait for it, the change being newer than what it waited for, was of the file before.)
      this.checks.markDirty(root);
    } };
  }

  /**
   * Whether the check of a company, due since the changes numbered up to `since` were queued, waits
   * for some of them that `readChanged` has not read yet (its own files, or packages' its
   * connectors read). Those queued since are not waited for: the check after the one they missed
   * takes them (`nextChanged` marks the company dirty again).
   */
  private waitsForChanged(root: string, since: number): boolean {
    if (!this.readingChanged) return false;
    const queued = this.changedToRead.get(root);
    const [first] = queued?.company === this.ws.companies.get(root) ? (queued?.files.values() ?? []) : [];
    if (first !== undefined && first <= since) return true;
    const { change } = this.ws.packageFilesToReadAgain(root);
    return change !== undefined && change <= since;
  }

  /**
   * The lockfile changed on disk (or went): read again in slices, as indexing reads it, and the
   * company checked again. Of reads that overlap (an apply writes, then writes again), the newest
   * wins; a company dropped meanwhile takes nothing.
   */
  private async lockfileChanged(company: Company): Promise<void> {
    const st = this.state.get(company.root);
    if (!st) return;
    const read = (st.lockReads = (st.lockReads ?? 0) + 1);
    try {
      const text = await readLockText(this.ws, this.documents, company);
      if (st.lockReads !== read || this.state.get(company.root) !== st || this.ws.companies.get(company.root) !== company) return;
      this.ws.setLockText(company, text);
      this.checks.markDirty(company.root);
    } catch (e) {
      // (Its callers do not wait for it: a rejection let through would end the server.)
      if (this.ws.companies.get(company.root) === company) this.changeFailed(company.root, `reading of ${this.shown(company.lockPath, company.root)} changed`, e);
    }
  }

  /** A folder appeared (a checkout, a generator): the files under it that belong to a company are read. */
  /**
   * Whether a path is a folder and no link to one: a walk never follows a link to a folder (it
   * could lead anywhere, `/` included), and an event naming one does not either.
   */
  private isRealFolder(file: string): boolean {
    if (!this.ws.fs.isDir(file)) return false;
    const parent = this.ws.fs.realPath(path.dirname(file));
    return parent !== undefined && this.ws.fs.realPath(file) === path.join(parent, path.basename(file));
  }

  private rescanFolder(dir: string): void {
    const company = this.ws.companyOf(path.join(dir, "x"));
    if (!company) return;
    readNewFilesUnder(this.ws, company, dir);
    this.checks.markDirty(company.root);
  }

  // ---- Settings ------------------------------------------------------------------------------

  /**
   * Settings changed: pull them again for every company (or take the ones pushed, from a client
   * that cannot be asked) and re-check what they affect.
   */
  async settingsChanged(pushed?: unknown): Promise<void> {
    if (!this.settings.changed(pushed)) return;
    this.settingsPending++;
    try {
      this.options.failpoints?.hit("settings");
      await this.refreshSettings([...this.state.keys()]);
      await this.enqueueIndex(() => this.companyRootsChanged());
      await this.enqueueIndex(() => this.searchAgainIfExcludeChanged());
    } finally {
      this.settingsPending--;
      this.notifyStatus();
    }
  }

  /**
   * A workspace folder's `sanoma.exclude` changed: its companies are searched for again, and those
   * found now are indexed (a company under a folder no longer left out was never found: the
   * search at the start had left that folder out). Those now left out are left out whole by their
   * settings (`withShared`).
   */
  private async searchAgainIfExcludeChanged(): Promise<void> {
    let changed = false;
    for (const folder of this.options.folders) {
      if (JSON.stringify((await this.settings.ofScope(folder)).exclude) !== this.searchedWithout.get(folder)) changed = true;
    }
    if (!changed) return;
    const fresh = (await this.findRoots(this.options.folders)).filter((root) => !this.ws.companies.has(root));
    if (fresh.length > 0) await this.indexRoots(fresh);
  }

  /** Reads the settings of companies anew and re-checks (or, when their folders left out changed, re-indexes) them. */
  private async refreshSettings(roots: string[]): Promise<void> {
    for (const root of roots) {
      const st = this.state.get(root);
      if (!st) continue;
      const next = await this.settings.forCompany(root);
      if (this.state.get(root) !== st) continue; // dropped or re-indexed meanwhile: that round read them
      for (const l of this.settingsListeners) l(root, next);
      const excludeChanged = JSON.stringify(next.exclude) !== JSON.stringify(st.settings.exclude);
      st.settings = next;
      if (excludeChanged) { st.indexed = false; this.ws.removeCompany(root); void this.enqueueIndex(() => this.indexRoots([root])); }
      else { this.checks.markDirty(root); this.noteLeftOutOpen(); }
    }
  }

  /**
   * A `.sanomarc.json` changed, came, went, or its editor text changed: the companies at or below
   * its folder (the file may now be, or no longer be, the nearest to them) take their settings anew.
   */
  sharedSettingsChanged(file: string): void {
    const dir = path.dirname(file);
    // A round reading settings meanwhile reads them again: its companies not indexed yet (none
    // of them in `state`) asked for theirs when it began.
    this.settings.generation++;
    const roots = [...this.state.keys()].filter((root) => isWithin(dir, root));
    if (roots.length === 0) return;
    this.settingsPending++;
    void this.refreshSettings(roots)
      .catch((e) => {
        // (A fault of ours.) The companies it holds for may be checked with settings of before: each is read again whole.
        const what = `reading of ${file}`;
        this.options.log(`${what} failed: ${(e as Error).stack ?? e}`);
        for (const root of roots) this.readAgainAfter(root, what, e);
      })
      .finally(() => { this.settingsPending--; this.notifyStatus(); });
  }

  /**
   * The `companyRoots` setting read again (it was read only at startup: a later change, or the
   * first push of a client that cannot be asked, was ignored): the roots it names now are
   * indexed; those it no longer names go, unless a workspace folder leads to them or a file of
   * them is open (then they go with the last of those files, as any company found through files).
   */
  private async companyRootsChanged(): Promise<void> {
    const named = new Set(await this.settings.companyRoots(this.options.folders));
    const before = [...this.manualRoots];
    this.manualRoots.clear();
    for (const r of named) this.manualRoots.add(r);
    const open = this.documents.roots();
    for (const root of before) {
      if (named.has(root) || open.has(root) || this.kept(root) || !this.drop(root)) continue;
      this.options.log(`dropped ${root}: the companyRoots setting no longer names it`);
    }
    await this.indexRoots([...named]);
    this.notifyStatus();
  }

  // ---- What features ask ---------------------------------------------------------------------

  status(): StatusResult {
    let indexed = 0;
    for (const c of this.ws.companies.values()) indexed += c.files.size;
    // Files changed on disk not read again yet: a company's (counted as not indexed), and packages' (to read).
    let changed = 0;
    for (const { files } of this.changedToRead.values()) changed += files.size;
    const packages = this.readingChanged ? this.ws.packageFilesToReadAgain().count : 0;
    return {
      // Busy while indexing, reading changed settings or files, or while a check is pending: "idle" means the published diagnostics are current (but for the companies `failed` names).
      state: this.indexing > 0 || this.settingsPending > 0 || this.readingChanged || this.checks.busy ? "indexing" : "idle",
      companies: this.ws.companies.size,
      files: indexed + this.waitingToBeRead + packages,
      indexedFiles: Math.max(0, indexed - changed),
      lastCheckMs: this.checks.lastCheckMs,
      lastCheckAt: this.checks.lastCheckAt,
      failed: this.failures.list(),
    };
  }

  /** The last status told, serialized: the client hears of each change once. */
  private toldStatus = "";

  private notifyStatus(): void {
    const status = this.status();
    const key = JSON.stringify(status);
    if (key === this.toldStatus) return;
    this.toldStatus = key;
    this.client.status(status);
  }

  /** The company and entry of a document, if it belongs to one. */
  locate(uri: string): { company: Company; file: string } | undefined {
    const file = this.documents.filePath(uri);
    if (!file) return undefined;
    const company = this.ws.companyOf(file);
    return company ? { company, file } : undefined;
  }

  /**
   * `locate`, once the companies being found and indexed are known: a request that names a file's
   * company (a preview) right after a start or a restart came before they were, and heard "no
   * company" for a file of one.
   */
  async locateIndexed(uri: string): Promise<{ company: Company; file: string } | undefined> {
    const where = this.locate(uri);
    if (where || this.indexing === 0) return where;
    await this.indexQueue;
    return this.locate(uri);
  }

  resultOf(root: string): CheckResult | undefined { return this.state.get(root)?.result; }
  settingsOf(root: string): Settings { return this.state.get(root)?.settings ?? DEFAULT_SETTINGS; }

  /** The client's settings for a scope (a folder, a company root; none: the workspace's). */
  fetchSettings(scope: string | undefined): Promise<Settings> {
    return this.settings.ofScope(scope);
  }

  /** Reads the workflows not read yet of the files indexed without a syntax tree (before a symbol search). */
  readWorkflows(why: string): Promise<void> {
    return readPendingWorkflows(this.ws, why, this.options.log);
  }

  // The documents' and the publisher's, for the features.
  uriOf(file: string): string { return this.documents.uriOf(file); }
  filePath(uri: string): string | undefined { return this.documents.filePath(uri); }
  openText(file: string): string | undefined { return this.documents.openText(file); }
  get problemsByFile(): Map<string, Problem[]> { return this.publisher.problemsByFile; }
}
