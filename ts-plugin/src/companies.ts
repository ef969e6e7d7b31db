/**
 * The companies as the plugin reads them: one `Workspace` for the whole tsserver process (every
 * project of it shares it), roots found by walking up from the files asked about, and each
 * company's files read as the language server reads them (every file of the company, not only
 * the program's), kept current from tsserver itself: open buffers from its script infos, files on
 * disk through its own watching (`serverHost.watchDirectory`). Nothing is read before a request
 * needs it, and what the watchers report is only noted, to be read at the next request; when it
 * feeds a full company's rules, tsserver is told the projects changed (`onChange`), for the
 * editors that ask for problems again only then.
 *
 * A company is read `full` (every file: what diagnostics and quick fixes need) or `slim` (the
 * config, the lockfile, the collections files and the files asked about: what completion,
 * definition, hover and rename need), for the servers that report no diagnostics: tsserver's
 * partial-semantic server, and a tsserver whose editor runs the Sanoma language server beside it.
 * A slim company is only analysed, never checked (its problems would be wrong); it becomes full
 * when a request needs that.
 */
import * as fs from "node:fs";
import path from "node:path";
import type * as TS from "typescript";
import type { Analysis } from "../../server/src/core/analysis.ts";
import type { CheckOptions, CheckResult } from "../../server/src/core/check.ts";
import { CONFIG_FILE, LOCK_FILE, isInNodeModules, isSkippedDirName } from "../../server/src/core/company.ts";
import { isWithin, type Company } from "../../server/src/core/model.ts";
import { RULE_IDS } from "../../server/src/core/rules/ids.ts";
import { excludeFor, findSanomaRc, layer, personalBases, personalExcludeFor, readSanomaRc, SANOMARC, type Level } from "../../server/src/core/sanomarc.ts";
import type { Located } from "../../server/src/core/target.ts";
import type { FileSystem } from "../../server/src/core/types.ts";
import { Workspace } from "../../server/src/core/workspace.ts";
import { FolderWatcher } from "../../server/src/node/folder-watcher.ts";
import { nodeFileSystem } from "../../server/src/node/fs.ts";
import { SettingsAboveWatcher } from "../../server/src/node/settings-above-watcher.ts";

export type Mode = "slim" | "full";

/** The script info of a file open in tsserver (an editor's buffer), if it is open. */
function openInfo(ps: TS.server.ProjectService, file: string): TS.server.ScriptInfo | undefined {
  const info = ps.getScriptInfo(toTs(file));
  return info?.isScriptOpen() ? info : undefined;
}

/** The text of a file open in tsserver (an editor's buffer), if it is open. */
function openText(ps: TS.server.ProjectService, file: string): string | undefined {
  const info = openInfo(ps, file);
  if (!info) return undefined;
  const snapshot = info.getSnapshot();
  return snapshot.getText(0, snapshot.getLength());
}

/** How long after the last change the watchers saw tsserver is told of them. */
const REFRESH_DELAY_MS = 150;

/** A path as tsserver spells it (`/` separators) and as the core does (the platform's). */
export const toNative = (f: string): string => (path.sep === "/" ? f : f.replace(/\//g, path.sep));
export const toTs = (f: string): string => (path.sep === "/" ? f : f.replace(/\\/g, "/"));

export interface Host {
  serverHost: TS.server.ServerHost;
  projectService: TS.server.ProjectService;
  log(message: string): void;
}

export class Companies {
  readonly ws: Workspace;
  private readonly modes = new Map<string, Mode>();
  private readonly watchers = new Map<string, TS.FileWatcher[]>();
  /** Paths the watchers reported since the last request. */
  private readonly pending = new Set<string>();
  /** Files whose text was taken from a script info of tsserver's, and which (a script info and its version). */
  private readonly taken = new Map<string, { info: TS.server.ScriptInfo; version: string }>();
  /** The company files open in the editor at the last sync (their text is the editor's). */
  private open = new Set<string>();
  /** The package files open in the editor at the last sync (under a `node_modules`, or a linked workspace package's at its real path), and the version of their text read. */
  private openPackages = new Map<string, string>();

  readonly log: (message: string) => void;

  constructor(private readonly host: Host) {
    this.log = host.log;
    // A package's file (a connector, its package.json) open in the editor is read as the editor
    // has it, as the language server reads it (B1: unsaved text wins): open by the path read, or,
    // a monorepo's workspace package linked into `node_modules`, at its real path (as editors
    // open it: `packages/shared/index.ts`), as the server's `openTextByRealPath`. Only those: a
    // company's files are taken from tsserver's script infos as they are asked about (`take`).
    const ps = host.projectService;
    const packageText = (file: string): string | undefined => {
      const text = openText(ps, file);
      if (text !== undefined) return text;
      const real = nodeFileSystem.realPath(file);
      return real === undefined || real === file ? undefined : openText(ps, real);
    };
    // (Not the workspace's `textOf`, the server's way: given it, a company lets a text read without
    // a tree go and reads it again through it should a parse be asked for; the texts the plugin
    // sets are tsserver's snapshots (an open buffer's as it was at the last request; a closed
    // program file's older than the disk's until tsserver reads it again), which no later read
    // gives back. So the plugin keeps its texts, and only
    // what the resolver reads goes through this.)
    const fs: FileSystem = {
      ...nodeFileSystem,
      readFile: (file) => (isInNodeModules(file) ? packageText(file) : undefined) ?? nodeFileSystem.readFile(file),
    };
    this.ws = new Workspace(fs, { onSkip: (s) => host.log(`skipped ${s.path}: ${s.reason}`) });
  }

  /** Folders each company's walk leaves out (the plugin's `exclude` option). */
  private exclude: string[] = [];
  /** The folders its paths are read from besides the company roots, where one lies in no company: the project's (`projectFolder` in plugin.ts). */
  private excludeFrom: string[] = [];

  /** No project reads through these companies any more: each is forgotten, its watches closed. */
  close(): void {
    for (const root of Array.from(this.modes.keys())) this.forget(root, "no project reads it with these options any more");
    this.folderWatcher?.close();
    this.folderWatcher = undefined;
    this.aboveWatcher?.close();
    this.aboveWatcher = undefined;
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.refreshTimer = undefined;
    this.changedRoots.clear();
  }

  /**
   * Sets the plugin's `exclude` option, and the folders its paths are read from besides the company
   * roots (`from`: the project's folder, as `sanoma-check`'s folders given and the server's
   * workspace folders): the companies read already are read again when next asked about, with it
   * (set through `configurePlugin`, it was taken only by companies read later).
   */
  setExclude(folders: string[], from: string[] = []): void {
    if (JSON.stringify([this.exclude, this.excludeFrom]) === JSON.stringify([folders, from])) return;
    this.exclude = folders;
    this.excludeFrom = from;
    for (const root of Array.from(this.modes.keys())) this.forget(root, "the exclude option changed");
  }

  /**
   * The company of a file, read at least as `mode` asks (a slim company becomes full; a full one
   * stays full), with the file itself in it when the company's walk reads it; undefined for a
   * file of no company. Everything tsserver and the disk said since the last request is taken in
   * first.
   */
  companyFor(file: string, mode: Mode): Company | undefined {
    this.sync();
    const root = this.ws.rootOf(file);
    if (!root) return undefined;
    this.refreshShared(root);
    const had = this.modes.get(root);
    if (had === undefined || (had === "slim" && mode === "full")) this.load(root, mode);
    const company = this.ws.companies.get(root)!;
    if (this.modes.get(root) === "slim" && !company.files.has(file) && this.ws.reads(root, file)) this.read(company, file, true);
    this.takeCurrent(company, file);
    return company;
  }

  /** A file's company, its analysis (the check's, for a full company) and its entry: what the features look things up in. */
  locate(file: string, mode: Mode, options: CheckOptions): Located | undefined {
    const company = this.companyFor(file, mode);
    if (!company) return undefined;
    const analysis = this.modes.get(company.root) === "full" ? this.check(company.root, options).analysis : this.analysis(company);
    return { analysis, file: company.files.get(file), path: file, root: company.root };
  }

  /**
   * The company's check (incremental: what changed since the last one). Only for a full company.
   * The levels of its `.sanomarc.json`, with the plugin's own (`options.rules`) laid over them.
   */
  check(root: string, options: CheckOptions): CheckResult {
    if (this.modes.get(root) !== "full") throw new Error(`${root} is not read whole`);
    const shared = this.shared.get(root);
    const result = this.ws.check(root, shared ? { ...options, rules: { ...shared.rules, ...options.rules } as CheckOptions["rules"] } : options);
    this.watchPackages(root);
    return result;
  }

  // ---- .sanomarc.json -----------------------------------------------------------------------------

  /** Each company's `.sanomarc.json` as last read: which file and its stamp, its levels, and the folders it leaves out (`excludeFor`). */
  private readonly shared = new Map<string, { stamp: string; rules: Record<string, Level>; exclude: string[] }>();

  /**
   * Reads the company's `.sanomarc.json` again when the nearest one is another file, or was
   * written since (its stamp: modification time and size; the version of its text, while it is
   * open in tsserver), as the language server and `sanoma-check` read it. A file open in tsserver
   * (an editor that opens it there) is read from its unsaved text, as the language server reads
   * an open document's: one not saved yet counts too, and closed, the disk's counts again. Its
   * problems go to tsserver's log (a JSON file has no diagnostics of tsserver's). The folders it
   * leaves out changed: the company is read anew, as they say.
   */
  private refreshShared(root: string): void {
    const ps = this.host.projectService;
    const textOf = (file: string) => openText(ps, file);
    // (Whether a folder holds one open asks for no text.)
    const file = findSanomaRc(this.ws.fs, root, (f) => (openInfo(ps, f) ? "" : undefined));
    let stamp = "";
    if (file !== undefined) {
      const info = openInfo(ps, file);
      if (info) stamp = `${file}\0open\0${info.getLatestVersion()}`;
      else try { const st = fs.statSync(file); stamp = `${file}\0${st.mtimeMs}\0${st.size}\0${st.isDirectory()}`; } catch { stamp = `${file}\0gone`; }
    }
    const had = this.shared.get(root);
    if (had?.stamp === stamp) return;
    const rc = readSanomaRc(this.ws.fs, root, RULE_IDS, textOf);
    for (const p of rc.problems) this.host.log(`${p.file}:${p.range.start.line + 1}:${p.range.start.character + 1}: ${p.message}`);
    const next = { stamp, rules: rc.settings.rules, exclude: excludeFor(rc.file, rc.settings.exclude, root) };
    this.shared.set(root, next);
    if (had && JSON.stringify(had.exclude) !== JSON.stringify(next.exclude) && this.modes.has(root)) this.forget(root, "the folders .sanomarc.json leaves out changed");
  }

  /**
   * The folders a company's walk leaves out: its `.sanomarc.json`'s, and the plugin's `exclude`
   * option's, read from each company root around it too and from the project's folder where that
   * holds it and lies in no company (`personalBases`, given the project's folder where
   * `sanoma-check` is given the folders it searches), so a company whose root lies in a folder
   * they leave out is left out whole.
   */
  private excludeOf(root: string): string[] {
    const own = this.exclude.length > 0 ? personalExcludeFor(this.exclude, root, personalBases(root, this.excludeFrom, (d) => this.ws.fs.isFile(path.join(d, CONFIG_FILE)))).exclude : [];
    return layer({ rules: {}, exclude: this.shared.get(root)?.exclude ?? [] }, { exclude: own }).exclude;
  }

  private analysis(company: Company): Analysis {
    return this.ws.analyse(company.root);
  }

  modeOf(root: string): Mode | undefined {
    return this.modes.get(root);
  }

  // ---- Reading ----------------------------------------------------------------------------------

  private load(root: string, mode: Mode): void {
    const started = performance.now();
    const company = this.ws.ensureCompany(root);
    this.ws.setExclude(root, this.excludeOf(root));
    const before = company.files.size;
    if (mode === "full") for (const file of this.ws.listFiles(root)) { if (!company.files.has(file)) this.read(company, file, false); }
    else this.readSlim(company);
    this.modes.set(root, mode);
    this.openRoots.clear(); // (a company more: an open file may be in it now)
    this.watch(company, mode);
    this.host.log(`read ${company.files.size - before} files of the company ${root} (${mode}) in ${Math.round(performance.now() - started)} ms`);
  }

  /**
   * What a slim company reads: the config, the lockfile, and each scope's collections file, those
   * not there yet too (a first apply writes the lockfile; an app or a collections file is made
   * later): each is watched, and read once it is there.
   */
  private slimFiles(root: string): string[] {
    const fs = this.ws.fs;
    const out = [path.join(root, CONFIG_FILE), path.join(root, LOCK_FILE), path.join(root, "resources", "data.ts")];
    for (const e of fs.readDir(path.join(root, "apps")) ?? []) {
      if ((e.kind === "dir" || e.kind === "symlink") && !isSkippedDirName(e.name)) out.push(path.join(root, "apps", e.name, "resources", "data.ts"));
    }
    return out.filter((f) => this.ws.reads(root, f));
  }

  /**
   * Reads a slim company's files (`slimFiles`) that are there and not read yet, and watches each,
   * there or not, and the two folders where an app's collections file can come from: the root
   * (`apps` made) and `apps` (an app made). Done again when a watched folder changes.
   */
  private readSlim(company: Company): void {
    const root = company.root;
    for (const file of this.slimFiles(root)) {
      // (Watched already: read then, or to be read when its watcher reports it made.)
      if (this.watchedFiles.get(root)?.has(file)) continue;
      if (this.ws.fs.isFile(file)) this.read(company, file, true);
      else this.watchFile(root, file);
    }
    for (const dir of [root, path.join(root, "apps")]) if (this.ws.fs.isDir(dir)) this.watchFolder(root, dir);
  }

  /** Reads one file: from tsserver when it holds it (open, or in a program: no second read), else from disk. */
  private read(company: Company, file: string, watchIt: boolean): void {
    const info = this.host.projectService.getScriptInfo(toTs(file));
    if (info && (info.isScriptOpen() || this.ws.fs.isFile(file))) this.take(company, file, info);
    else this.ws.readFromDisk(company, file);
    if (watchIt) this.watchFile(company.root, file);
  }

  /** Sets a file's text from a script info, unless that text (that info, that version) is what the company holds already. */
  private take(company: Company, file: string, info: TS.server.ScriptInfo): void {
    const version = info.getLatestVersion();
    const had = this.taken.get(file);
    if (had?.info === info && had.version === version) return;
    const snapshot = info.getSnapshot();
    this.ws.setFile(company, file, snapshot.getText(0, snapshot.getLength()));
    this.taken.set(file, { info, version });
  }

  /** The file a request is about, as tsserver holds it now (its program's text is what the answer's offsets are in). */
  private takeCurrent(company: Company, file: string): void {
    if (!company.files.has(file)) return;
    const info = this.host.projectService.getScriptInfo(toTs(file));
    if (info) this.take(company, file, info);
  }

  // ---- Keeping current ----------------------------------------------------------------------------

  /** Takes in what the watchers reported, and the editor's open buffers. */
  sync(): void {
    if (this.modes.size === 0) return;
    this.applyDiskChanges();
    this.syncOpenFiles();
  }

  /** Per open file, its loaded company's root when the company's walk reads it (else null): asked on every request, found once. */
  private readonly openRoots = new Map<string, string | null>();

  private syncOpenFiles(): void {
    const ps = this.host.projectService;
    const now = new Set<string>();
    const packages = new Map<string, string>();
    for (const p of ps.openFiles.keys()) {
      const info = ps.getScriptInfoForPath(p);
      if (!info) continue;
      const file = toNative(info.fileName);
      if (isInNodeModules(file)) { packages.set(file, info.getLatestVersion()); continue; }
      // (A linked workspace package open at its real path: read through the links. It may be a company's file too: taken as such below.)
      if (this.ws.readsLinkedPackageAt(file)) packages.set(file, info.getLatestVersion());
      let root = this.openRoots.get(file);
      if (root === undefined) {
        const c = this.loadedCompanyOf(file);
        this.openRoots.set(file, (root = c && this.ws.reads(c.root, file) ? c.root : null));
      }
      const company = root === null ? undefined : this.ws.companies.get(root);
      if (!company) continue;
      // (Read when asked about; the lockfile is never among the files, and a slim company reads it.)
      if (this.modes.get(company.root) === "slim" && !company.files.has(file) && file !== company.lockPath) continue;
      now.add(file);
      this.take(company, file, info);
    }
    // Closed since: the disk's text counts again.
    for (const file of this.openRoots.keys()) if (!now.has(file) && !ps.openFiles.has(ps.toPath(toTs(file)))) this.openRoots.delete(file);
    for (const file of this.open) {
      if (now.has(file)) continue;
      this.taken.delete(file);
      const company = this.loadedCompanyOf(file);
      // (The lockfile too: it is the company's `lockPath`, never among its files. Its unsaved text
      // closed, its problems stayed until the file changed on disk.)
      if (company && (company.files.has(file) || file === company.lockPath)) this.ws.readFromDisk(company, file);
    }
    this.open = now;
    // A package's file opened, edited or closed: what the connectors read of it is read again
    // (through `fs`: the editor's text while it is open, the disk's once closed).
    for (const [file, version] of packages) if (this.openPackages.get(file) !== version) this.ws.packageFileChanged(file);
    for (const file of this.openPackages.keys()) if (!packages.has(file)) this.ws.packageFileChanged(file);
    this.openPackages = packages;
  }

  private applyDiskChanges(): void {
    if (this.pending.size === 0) return;
    const paths = [...this.pending];
    this.pending.clear();
    const fs = this.ws.fs;
    for (const p of paths) {
      if (isInNodeModules(p)) { if (!this.openPackages.has(p)) this.ws.packageFileChanged(p); continue; } // (the editor's text wins)
      // A company came or went: the companies it touches are read again when next asked about.
      if (path.basename(p) === CONFIG_FILE) { this.companiesChanged(path.dirname(p)); continue; }
      if (this.open.has(p)) continue; // the editor's text wins
      // (A company's root itself, replaced: its whole tree is listed again below.)
      const company = this.modes.has(p) ? this.ws.companies.get(p) : this.loadedCompanyOf(p);
      if (!company) continue;
      const root = company.root;
      const slim = this.modes.get(root) === "slim";
      if (fs.isFile(p)) {
        if (slim && !company.files.has(p) && p !== company.lockPath && !this.watchedFiles.get(root)?.has(p)) continue;
        if (!this.ws.reads(root, p)) continue;
        this.taken.delete(p);
        this.ws.readFromDisk(company, p);
      } else if (fs.isDir(p)) {
        if (!slim) this.relist(company, p);
        else this.readSlim(company); // (an app, or `apps`, made: its collections file watched, read if there)
      } else {
        // Gone: the file, or a folder with everything under it (but open buffers: the editor's text wins).
        this.taken.delete(p);
        if (company.files.has(p) || p === company.lockPath) this.ws.setFile(company, p, undefined);
        const prefix = p + path.sep;
        for (const f of Array.from(company.files.keys())) if (f.startsWith(prefix) && !this.open.has(f)) { this.taken.delete(f); this.ws.setFile(company, f, undefined); }
      }
    }
  }

  /**
   * A folder came, went and came back, or changed: listed again, as the language server reads a
   * folder deleted then created. The watchers' events of one path are one pending path here
   * (`mv resources away; mv new resources` is a deletion and a creation of `resources`, and
   * tsserver's watching says no more than the path): the files indexed under it that are gone now
   * go, those still there are read again (they may be other files of the same name), new ones
   * are read; the editor's open files keep their text.
   */
  private relist(company: Company, dir: string): void {
    const now = new Set(this.ws.listFiles(company.root, dir));
    const prefix = dir + path.sep;
    const drop = (f: string) => { this.taken.delete(f); this.ws.setFile(company, f, undefined); };
    if (company.files.has(dir) && !this.open.has(dir)) drop(dir); // (a file, now a folder)
    for (const f of Array.from(company.files.keys())) if (f.startsWith(prefix) && !now.has(f) && !this.open.has(f)) drop(f);
    for (const f of now) if (!this.open.has(f)) { this.taken.delete(f); this.ws.readFromDisk(company, f); }
    if (company.lockPath.startsWith(prefix) && !this.open.has(company.lockPath)) this.ws.readFromDisk(company, company.lockPath);
  }

  /** A config was created or deleted in `dir`: that company, and any enclosing one (its files change), are forgotten. */
  private companiesChanged(dir: string): void {
    for (const root of Array.from(this.modes.keys())) {
      if (root === dir || dir.startsWith(root + path.sep)) this.forget(root, "a sanoma.config.ts came or went");
    }
  }

  private forget(root: string, why: string): void {
    this.openRoots.clear();
    this.unwatch(root);
    this.modes.delete(root);
    this.ws.removeCompany(root);
    for (const f of Array.from(this.taken.keys())) if (f.startsWith(root + path.sep)) this.taken.delete(f);
    this.host.log(`forgot the company ${root}: ${why}`);
  }

  private loadedCompanyOf(file: string): Company | undefined {
    const root = this.ws.rootOf(file);
    return root !== undefined && this.modes.has(root) ? this.ws.companies.get(root) : undefined;
  }

  /** The watcher of the full companies' trees (the language server's own: a watch per folder), made on first need. */
  private folderWatcher: FolderWatcher | undefined;
  /** The watcher of the folders above the full companies, for a `.sanomarc.json` there (the language server's own). */
  private aboveWatcher: SettingsAboveWatcher | undefined;

  // ---- Telling tsserver -------------------------------------------------------------------------

  /** Those told when what a full company's rules read changed on disk (`onChange`). */
  private readonly listeners = new Set<(roots: ReadonlySet<string>) => boolean>();
  /** The full companies whose input changed since tsserver was last told. */
  private readonly changedRoots = new Set<string>();
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private refreshSince = 0;

  /**
   * Calls `listener` (debounced) with the roots of the full companies whose input the watchers saw
   * change: a file of theirs, their lockfile, a `.sanomarc.json` that holds for them, a package
   * their connectors were read from. The first listener that says it told tsserver (one
   * `projectsUpdatedInBackground` is about every open file) ends the round. Returns the undoing.
   */
  onChange(listener: (roots: ReadonlySet<string>) => boolean): () => void {
    this.listeners.add(listener);
    return () => { this.listeners.delete(listener); };
  }

  /**
   * A path the watchers reported: noted, to be read at the next request; and when it feeds a full
   * company's rules, tsserver is told, soon, that the projects changed. tsserver knows of the
   * program's files only: a lockfile or a `.sanomarc.json` rewritten in place, a connector's file
   * edited, gave no sign to an editor that asks for problems only on its own edits and on
   * `projectsUpdatedInBackground` (VS Code, typescript-language-server), which then showed the
   * old ones until the user typed.
   */
  private note(file: string): void {
    const p = path.resolve(file);
    this.pending.add(p);
    let any = false;
    for (const root of this.rootsFed(p)) { this.changedRoots.add(root); any = true; }
    if (!any) return;
    const now = Date.now();
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    else this.refreshSince = now;
    // (A burst, a checkout, is told once it is over, or every second while it lasts.)
    this.refreshTimer = setTimeout(() => this.tell(), now - this.refreshSince > 1000 ? 0 : REFRESH_DELAY_MS);
    this.refreshTimer.unref?.();
  }

  private tell(): void {
    this.refreshTimer = undefined;
    const roots = new Set(this.changedRoots);
    this.changedRoots.clear();
    for (const root of roots) if (this.modes.get(root) !== "full") roots.delete(root);
    if (roots.size === 0) return;
    for (const listener of this.listeners) {
      try { if (listener(roots)) return; } catch (e) { this.host.log(`telling tsserver of a change failed: ${(e as Error)?.stack ?? e}`); }
    }
  }

  /** The full companies whose rules read `p` (a path reported by a watcher: a file or a folder, there or gone). */
  private rootsFed(p: string): string[] {
    const out: string[] = [];
    const name = path.basename(p);
    for (const [root, mode] of this.modes) {
      if (mode !== "full") continue;
      // (Open in tsserver: the editor's text wins.)
      if (name === SANOMARC) { if (isWithin(path.dirname(p), root) && !openInfo(this.host.projectService, p)) out.push(root); continue; }
      if (isInNodeModules(p)) {
        if (this.openPackages.has(p)) continue; // (the editor's text wins)
        for (const dir of this.ws.packageFoldersOf(root)) if (isWithin(dir, p) || isWithin(p, dir)) { out.push(root); break; }
        continue;
      }
      if (!isWithin(root, p) || this.open.has(p)) continue;
      const company = this.ws.companies.get(root);
      if (!company || (p !== root && this.ws.rootOf(p) !== root)) continue; // (a nested company's)
      if (p === root || p === company.lockPath || name === CONFIG_FILE || company.files.has(p) || this.ws.reads(root, p)) { out.push(root); continue; }
      // A folder the company's walk goes into (not a dot folder's, not one left out): made, or gone with files of the company in it.
      if (!this.ws.reads(root, path.join(p, "x.ts"))) continue;
      if (this.ws.fs.isDir(p)) { out.push(root); continue; }
      const prefix = p + path.sep;
      for (const f of company.files.keys()) if (f.startsWith(prefix)) { out.push(root); break; }
    }
    return out;
  }

  /**
   * A full company is watched whole: by tsserver's recursive directory watching (which it shares
   * between callers of one folder, and which follows the user's `watchOptions`: polling where
   * events do not reach), which reports files created and deleted, and by the language server's
   * own watcher, which reports files whose text changed in place too (a checkout, a generator:
   * tsserver's recursive watching on Linux reports no change of a file's content). A slim company is
   * watched file by file (those not there yet too), and its root and `apps/` folder entry by entry
   * (`readSlim`), so that tsserver's partial-semantic server (which watches nothing of its own) is
   * not made to watch a whole tree.
   */
  private watch(company: Company, mode: Mode): void {
    if (mode !== "full") return;
    const root = company.root;
    this.unwatch(root);
    const list: TS.FileWatcher[] = [this.host.serverHost.watchDirectory(toTs(root), (p) => this.note(toNative(p)), true)];
    try {
      const folders = (this.folderWatcher ??= new FolderWatcher((file) => this.note(file), (m) => this.host.log(m)));
      folders.watchTree(root, root);
      list.push({ close: () => folders.unwatchTree(root, root) });
      // A `.sanomarc.json` above the company (a monorepo's top): none of the trees watched holds it.
      const above = (this.aboveWatcher ??= new SettingsAboveWatcher((file) => this.note(file), (m) => this.host.log(m)));
      above.watchAbove(root, () => false);
      list.push({ close: () => above.unwatchAbove(root) });
    } catch (e) {
      this.host.log(`cannot watch ${root} for changes in place: ${(e as Error).message}`);
    }
    this.watchers.set(root, list);
  }

  /** The package folders each full company's watch took in (`watchPackages`), by company root. */
  private readonly packagesWatched = new Map<string, Set<string>>();

  /**
   * The package folders a full company's connectors were read from, or looked for in vain
   * (`Workspace.packageFoldersOf`), watched as the language server's own watcher watches them:
   * `node_modules` is no part of the company's trees, and tsserver's watching reports no file
   * rewritten in place (a linked workspace package's `dist/` rebuilt, a package patched).
   */
  private watchPackages(root: string): void {
    const folders = this.folderWatcher;
    const list = this.watchers.get(root);
    if (!folders || !list) return; // (not watched whole: a slim company)
    let mine = this.packagesWatched.get(root);
    if (!mine) this.packagesWatched.set(root, (mine = new Set()));
    for (const dir of this.ws.packageFoldersOf(root)) {
      if (mine.has(dir)) continue;
      mine.add(dir);
      folders.watchTree(dir, root);
      list.push({ close: () => folders.unwatchTree(dir, root) });
    }
  }

  /** The files (and folders, a separator after them) each slim company watches one by one, by company root. */
  private readonly watchedFiles = new Map<string, Set<string>>();

  private watchFile(root: string, file: string): void {
    if (this.modes.get(root) === "full") return;
    // (The polling interval is a parameter every host takes; TypeScript's own watching of a file
    // not there yet polls with it, and fails without one: 500 ms, its `PollingInterval.Medium`,
    // what it gives the files a program misses.)
    this.watchOnce(root, file, () => this.host.serverHost.watchFile(toTs(file), (p) => this.note(toNative(p)), 500));
  }

  /** A slim company's folder watched for the entries made in it or gone (not below it). */
  private watchFolder(root: string, dir: string): void {
    // (A folder's key: no file has a path ending in a separator.)
    this.watchOnce(root, dir + path.sep, () => this.host.serverHost.watchDirectory(toTs(dir), (p) => this.note(toNative(p)), false));
  }

  /** A slim company's watcher of `key` (a file, or a folder and a separator), made once, closed with the company's. */
  private watchOnce(root: string, key: string, watch: () => TS.FileWatcher): void {
    let keys = this.watchedFiles.get(root);
    if (!keys) this.watchedFiles.set(root, (keys = new Set()));
    if (keys.has(key)) return;
    keys.add(key);
    const w = watch();
    const list = this.watchers.get(root);
    if (list) list.push(w); else this.watchers.set(root, [w]);
  }

  private unwatch(root: string): void {
    for (const w of this.watchers.get(root) ?? []) w.close();
    this.watchers.delete(root);
    this.watchedFiles.delete(root);
    this.packagesWatched.delete(root);
  }
}
