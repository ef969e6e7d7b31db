/**
 * `BoxService`: the boxes and previews as the language server offers them (`sanoma/boxes/*`, see
 * `protocol.ts` and `docs/protocol.md`). Plain async methods taking and returning JSON-able
 * objects, one per request, and listeners for the two notifications. The server only connects
 * methods to these; a refused name throws `BoxNameError`, whose message is the one the client sees.
 * A name that would be another box's folder on macOS or Windows (`Demo` beside `demo`) throws
 * `BoxNameTakenError`, on every system (`box()`).
 *
 * **Architecture invariant: this folder imports no editor and no LSP module** (only the types of
 * `protocol.ts`), so it runs the same under the server, in tests and in the bench.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  BoxesApplyRequest, BoxesDiffRequest, BoxesDiscardRequest, BoxesEventsRequest, BoxesExposeRequest, BoxesListRequest,
  BoxesOpenRequest, BoxesPreviewRequest, BoxesRunRequest, BoxesRunsRequest, BoxesStopRequest,
} from "../protocol.ts";
import type {
  BoxEvent, BoxFileChange, BoxInfo, BoxTier, BoxRunInfo, BoxesApplyParams, BoxesApplyResult, BoxesChangedParams, BoxesDiffParams, BoxesDiffResult,
  BoxesDiscardParams, BoxesDiscardResult, BoxesEventsParams, BoxesEventsResult, BoxesExposeParams, BoxesExposeResult,
  BoxesListResult, BoxesOpenParams, BoxesOpenResult, BoxesPreviewParams, BoxesPreviewResult, BoxesRunParams, BoxesRunResult,
  BoxesRunsParams, BoxesRunsResult, BoxesStopParams, BoxesStopResult, BoxSyncReport,
} from "../protocol.ts";
import { Box, boxesLabel, CAPABILITIES, checkRunParams, runsDir, type BoxContext } from "./box.ts";
import { reapOrphans, type ContainerSettings } from "./container.ts";
import { applyToWorkspace, readDiff, readShown, withPaths, type DiffChange, type DiffSides } from "./diff.ts";
import type { EventLogLimits } from "./events.ts";
import { selectRuns } from "./history.ts";
import { manifestRoot } from "./manifest.ts";
import { BoxNameTakenError, boxNameProblem, checkBoxName, previewBoxName, sameFolder } from "./names.ts";
import { optional } from "./params.ts";
import { DEFAULT_PREVIEW_COMMAND, explainPreviewExit, findSanomaCli, missingCliMessage, previewCommand, readPreviewSource, relativeFile, scopeOf, usesInstalledCli, writePreviewSource } from "./preview.ts";
import { Supervisor } from "./supervisor.ts";
import { syncIntoBox } from "./sync.ts";
import { chooseTier, type TierChoice, type TierSetting } from "./tiers.ts";

export interface BoxServiceOptions {
  /** Where boxes live; default: a per-user cache folder (`defaultBoxesDir()`). */
  boxesDir?: string;
  /** `auto` (default): `namespace` when bubblewrap works here, else `process`. */
  tier?: TierSetting;
  /** The container tier's image and limits (`sanoma.boxes.image`, `.memory`, `.processes`). */
  container?: ContainerSettings;
  /** The `sanoma.preview.command` setting. */
  previewCommand?: string;
  /** Output one run records at most (default `DEFAULT_RECORDED_BYTES`, 64 MiB). */
  maxRecordedBytes?: number;
  /** How much of its event log a box keeps, and in what segments (defaults: 256 and 16 MiB). */
  logLimits?: EventLogLimits;
  /**
   * The exported workflows of a company's file (`rel` to `root`), and why it cannot load when it
   * does not parse (A11: its first syntax error), or undefined when it is no workflow source: a
   * preview of anything else, or of a file Sanoma cannot load, is refused before a box is made.
   * The server reads them with the core's facts; without it, a preview takes the export as given.
   */
  workflowsOf?: (root: string, rel: string) => { workflows: string[]; doesNotLoad?: string } | undefined;
}

/** `$XDG_CACHE_HOME/sanoma/boxes`, `~/.cache/sanoma/boxes`, or `~/Library/Caches/sanoma/boxes` on macOS. */
export function defaultBoxesDir(): string {
  if (process.platform === "darwin") return path.join(os.homedir(), "Library", "Caches", "sanoma", "boxes");
  const cache = process.env.XDG_CACHE_HOME && path.isAbsolute(process.env.XDG_CACHE_HOME) ? process.env.XDG_CACHE_HOME : path.join(os.homedir(), ".cache");
  return path.join(cache, "sanoma", "boxes");
}

type Listener<T> = (value: T) => void;

/** The most changes a diff's answer lists, and the most characters it takes as JSON. */
export const DIFF_MAX_FILES = 5000;
export const DIFF_MAX_CHARS = 16 * 1024 * 1024;

/**
 * The changes a diff answers with, within bounds, each given its absolute paths (only those
 * listed: `withPaths`): a box that made 9,000 names of control characters (six characters each in
 * JSON) made an answer past V8's longest string, which the connection dropped: the diff never
 * answered. The rest is counted in `omitted`.
 */
function boundedChanges(sides: DiffSides, changes: DiffChange[]): { files: BoxFileChange[]; omitted?: number } {
  const files: BoxFileChange[] = [];
  let chars = 0;
  for (const change of changes) {
    if (files.length === DIFF_MAX_FILES) break;
    const file = withPaths(sides, change);
    chars += JSON.stringify(file).length + 1;
    if (chars > DIFF_MAX_CHARS) break;
    files.push(file);
  }
  return files.length === changes.length ? { files } : { files, omitted: changes.length - files.length };
}

export class BoxService {
  readonly boxesDir: string;
  private readonly ctx: BoxContext;
  private readonly boxes = new Map<string, Box>();
  private readonly eventListeners = new Set<Listener<BoxEvent>>();
  private readonly changeListeners = new Set<Listener<BoxesChangedParams>>();
  private readonly lastState = new Map<string, BoxesChangedParams["state"]>();
  private previewTemplate: string;
  private readonly workflowsOf: BoxServiceOptions["workflowsOf"];
  private disposed = false;
  /** Why no box can be made (its folder cannot be), if so: every operation on a box says it. */
  readonly unavailable: string | undefined;

  constructor(options: BoxServiceOptions = {}) {
    const given = path.resolve(options.boxesDir ?? defaultBoxesDir());
    let boxesDir = given;
    try {
      boxesDir = ownBoxesFolder(given);
    } catch (e) {
      // Boxes are one feature: without their folder they say why, and nothing else is lost.
      const why = e instanceof BoxesFolderRefused ? e.message : `cannot be made (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
      this.unavailable = `boxes are unavailable: their folder ${given} ${why}; set the initialization option boxesDir, or XDG_CACHE_HOME, to a folder you can write`;
    }
    this.boxesDir = boxesDir;
    this.previewTemplate = options.previewCommand || DEFAULT_PREVIEW_COMMAND;
    this.workflowsOf = options.workflowsOf;
    this.tierSetting = options.tier ?? "auto";
    // The tier is chosen when a box first needs it, not when the server starts: choosing may run
    // bubblewrap once to see that it works here (5–40 ms before `initialize` could be answered).
    let tier: TierChoice | undefined;
    const settingNow = () => this.tierSetting;
    this.ctx = {
      boxesDir: this.boxesDir,
      get tier(): TierChoice { return (tier ??= chooseTier(settingNow())); },
      set tier(chosen: TierChoice) { tier = chosen; },
      supervisor: new Supervisor(),
      onEvent: (event) => {
        for (const listener of this.eventListeners) safely(listener, event);
      },
      onStateChange: (name) => this.noteState(name),
      maxRecordedBytes: options.maxRecordedBytes,
      logLimits: options.logLimits,
      container: options.container,
    };
    this.reap();
  }

  private tierSetting: TierSetting;
  /** Containers left by a server of this boxes folder that was killed: removed once an engine is in use here. */
  private reaped: Promise<unknown> | undefined;
  private reap(): void {
    // (Only the container tier has an engine: other settings need no tier chosen to know there is none.)
    if (this.unavailable || this.reaped || this.tierSetting !== "container") return;
    const { engine } = this.ctx.tier;
    if (!engine) return;
    this.reaped = reapOrphans(engine, this.boxesDir, boxesLabel(this.boxesDir)).catch(() => []);
  }

  /** Resolves once the containers of killed servers are gone (tests). */
  async reaping(): Promise<string[]> {
    return ((await this.reaped) as string[] | undefined) ?? [];
  }

  /** The tier in force and why. */
  get tier(): { tier: BoxTier; reason: string } {
    return { tier: this.ctx.tier.tier, reason: this.ctx.tier.reason };
  }

  /** Applies changed settings; a tier change applies to runs started from now on. */
  configure(options: { tier?: TierSetting; previewCommand?: string; container?: ContainerSettings }): void {
    if (options.container) this.ctx.container = options.container;
    if (options.tier && (options.tier !== this.tierSetting || this.tierSetting === "container")) {
      this.tierSetting = options.tier;
      this.ctx.tier = chooseTier(options.tier);
      this.reap();
    }
    if (options.previewCommand !== undefined) this.previewTemplate = options.previewCommand || DEFAULT_PREVIEW_COMMAND;
  }

  /** Every recorded event as it happens (`sanoma/boxes/event`); returns the unsubscribe. */
  onEvent(listener: Listener<BoxEvent>): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** A box made, discarded, or starting or ending to run (`sanoma/boxes/changed`); returns the unsubscribe. */
  onChanged(listener: Listener<BoxesChangedParams>): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  /** Per box, the end of the last operation that must not overlap another. */
  private readonly exclusive = new Map<string, Promise<unknown>>();

  /**
   * Runs `operation` once the box's earlier exclusive operations are done. A preview's stop, sync
   * and start are one such operation, and so is each `run`'s start and a `discard`: a command
   * started while the sync copies could swap a folder of the box for a symlink between the
   * folder's check and a copy into it, and so have the server write outside the box.
   */
  private exclusively<T>(name: string, operation: () => Promise<T>): Promise<T> {
    const before = this.exclusive.get(name) ?? Promise.resolve();
    const result = before.then(operation, operation);
    const settled = result.then(() => undefined, () => undefined);
    this.exclusive.set(name, settled);
    void settled.then(() => { if (this.exclusive.get(name) === settled) this.exclusive.delete(name); });
    return result;
  }

  /**
   * The box object for `name` (read/write/run directly); throws `BoxNameError` for a refused name,
   * and `BoxNameTakenError` for a name that is no box yet and would be another's folder on macOS
   * or Windows (`refuseSharedFolder`). Every request naming a box comes through here.
   */
  box(name: string): Box {
    this.assertOpen();
    checkBoxName(name);
    this.refuseSharedFolder(name);
    return this.boxObject(name);
  }

  /**
   * Refuses `name` when it is no box (not on disk, nor one this server works on) while a box is
   * whose folder it would be on macOS or Windows: `Demo` beside `demo`, `café` in NFC beside
   * `café` in NFD. There, the two are one folder, so one home, one record and one writer's claim:
   * a discard of one would delete the other, a diff show the other's changes. Refused on every
   * system, so that Linux's disks, which keep the two apart, behave as the others do. Two such
   * boxes that an earlier version made on Linux are both boxes: each is still its own.
   */
  private refuseSharedFolder(name: string): void {
    const existing = this.existingNames();
    if (existing.has(name)) return;
    const others = [...existing].filter((other) => sameFolder(other, name) !== undefined).sort();
    if (others.length > 0) throw new BoxNameTakenError(name, others);
  }

  /**
   * The boxes there are: the folders `list` shows (homes and records, by the names they have on
   * disk), and those this server runs in or has an operation under way or queued on (a preview
   * still syncing has made nothing yet, a run queued behind a discard will make its box again: no
   * other box may take their folder meanwhile).
   */
  private existingNames(): Set<string> {
    const names = this.namesOnDisk();
    for (const name of this.exclusive.keys()) names.add(name);
    for (const [name, box] of this.boxes) if (box.liveRuns().length > 0) names.add(name);
    return names;
  }

  /** The names of the boxes' homes and records in the boxes folder. */
  private namesOnDisk(): Set<string> {
    const names = new Set<string>();
    for (const dir of [this.boxesDir, path.join(this.boxesDir, ".runs")]) {
      let entries: fs.Dirent[] = [];
      try {
        entries = fs.readdirSync(dir, { withFileTypes: true });
      } catch {
        // not made yet, or deleted by hand
      }
      for (const entry of entries) if (entry.isDirectory() && boxNameProblem(entry.name) === undefined) names.add(entry.name);
    }
    return names;
  }

  /** The box object for a name already checked (or listed: a box on disk is its own, whatever its name). */
  private boxObject(name: string): Box {
    let box = this.boxes.get(name);
    if (!box) {
      if (this.closing) throw new Error("the box service was stopped");
      this.boxes.set(name, (box = new Box(this.ctx, name)));
    }
    return box;
  }

  async list(): Promise<BoxesListResult> {
    // Each box by the name it has on disk: two an earlier version made on Linux (`Demo`, `demo`) are both listed.
    const names = this.namesOnDisk();
    for (const [name, box] of this.boxes) if (box.liveRuns().length > 0) names.add(name);
    const boxes = [...names].sort().map((name) => this.info(name));
    return { boxesDir: this.boxesDir, tier: this.ctx.tier.tier, tierReason: this.ctx.tier.refusal ?? this.ctx.tier.reason, capabilities: { ...CAPABILITIES }, boxes };
  }

  async open(params: BoxesOpenParams): Promise<BoxesOpenResult> {
    const box = this.box(params?.name);
    const { created } = box.open();
    // The container tier makes the box's container now, as the box's own work (never beside a run's start).
    await this.exclusively(box.name, () => this.box(box.name).ready().catch((e: Error) => { throw new Error(`the box's container could not be made ready: ${e.message}`); }));
    this.noteState(box.name);
    return { box: this.info(box.name), created, tier: box.tier, capabilities: { ...CAPABILITIES } };
  }

  /** `signal`: aborting it stops the run (a client's cancellation of a waited run). */
  async run(params: BoxesRunParams, signal?: AbortSignal): Promise<BoxesRunResult> {
    const name = this.box(params?.name).name;
    // Checked before anything starts: a command must never be left running by a request refused after it.
    checkRunParams(params);
    if (this.ctx.tier.refusal) throw new Error(this.ctx.tier.refusal);
    if (params.stdin !== undefined && typeof params.stdin !== "string") throw new TypeError("stdin must be text");
    // Never while a preview syncs into the box (see `exclusively`), and on the box as it is then:
    // a discard queued before this run drops the box object it would otherwise have started on.
    const handle = await this.exclusively(name, async () => this.box(name).start(params.command, { cwd: params.cwd, env: params.env, stdin: params.stdin, signal }));
    if (!params.wait) {
      handle.done.catch(() => {}); // failures are recorded as events
      return { runId: handle.runId, tier: handle.tier };
    }
    return { runId: handle.runId, tier: handle.tier, result: await handle.done };
  }

  async stop(params: BoxesStopParams): Promise<BoxesStopResult> {
    const name = this.box(params?.name).name;
    const runId = optional(params, "runId", "string", "a run's id (text, such as run-12)");
    // After the starts queued before it: a stop sent while a preview syncs ends the preview too.
    return { stopped: await this.exclusively(name, () => {
      const box = this.box(name);
      // A run that ended answers 0; an id that names no run of the box (a typo, another box's run) is an error.
      if (runId !== undefined && !box.liveRun(runId) && !box.log.runs().some((run) => run.runId === runId)) {
        box.log.refuseIfKept();
        throw new Error(`${runId} is no run of ${name}`);
      }
      return box.stop({ runId });
    }) };
  }

  async discard(params: BoxesDiscardParams): Promise<BoxesDiscardResult> {
    const name = this.box(params?.name).name;
    const existed = await this.exclusively(name, async () => {
      const box = this.box(name);
      const existed = box.exists() || fs.existsSync(box.log.dir);
      await box.discard();
      // Forgotten before the next queued operation: it starts on a new box object.
      this.boxes.delete(name);
      this.shown.delete(name);
      this.synced.delete(name);
      this.lastState.delete(name);
      return existed;
    });
    this.emitChanged({ name, state: "discarded" });
    return { discarded: existed };
  }

  async events(params: BoxesEventsParams): Promise<BoxesEventsResult> {
    const box = this.box(params?.name);
    const given = { cursor: optional(params, "cursor", "number", "a number (the seq of the last event seen)"), limit: optional(params, "limit", "number", "a number") };
    if (!fs.existsSync(box.log.dir)) return { events: [], cursor: 0, more: false, logId: "", skipped: 0 };
    box.log.revalidate();
    const cursor = Number.isFinite(given.cursor) ? Math.max(0, Math.floor(given.cursor!)) : 0;
    const limit = Number.isFinite(given.limit) ? Math.max(0, Math.floor(given.limit!)) : 1000;
    return { ...box.log.read(cursor, limit), logId: box.log.logId };
  }

  async runs(params: BoxesRunsParams = {}): Promise<BoxesRunsResult> {
    // (Another box's record, on macOS, is what a name sharing its folder would read: refused as in `box`.)
    const names = params.name !== undefined ? [this.box(params.name).name] : this.namesWithLogs();
    const all: BoxRunInfo[] = [];
    for (const name of names) all.push(...this.runsOf(name));
    return selectRuns(all, params);
  }

  /**
   * Per box, the last diff answered: the company it was made against, and what it saw of each path
   * (and the SHA-256 of the files it lists). Apply writes into that company only, and skips a file
   * the box changed since.
   */
  private readonly shown = new Map<string, { root: string; seen: Map<string, string> }>();

  /**
   * Per box, the company root this server last synced it from (a preview). The box's record says so
   * too (`box.json`, `sync.json`, beside the home), but a `process` box can rewrite it: to name
   * another user's folder, which a root server's apply would then write into.
   */
  private readonly synced = new Map<string, string>();

  /**
   * The company root a box's changes are compared with and applied to: the one this server synced
   * it from, which the record must still name (else refused); without one (a server before this one
   * synced it), the record's, when it names a company root (a folder holding `sanoma.config.ts`, as
   * a preview requires), which a box cannot make in a folder it cannot write.
   */
  private companyOf(box: Box, nothingTo: string): string {
    const source = readPreviewSource(box.log.dir);
    if (!source) throw new Error(`${box.name} is no preview's box: there is nothing to ${nothingTo}`);
    const known = this.synced.get(box.name);
    if (known !== undefined) {
      const other = [source.root, manifestRoot(box.log.dir)].find((recorded) => recorded !== undefined && recorded !== known);
      if (other !== undefined) throw new Error(`${box.name}'s record (box.json, sync.json beside the box) names ${other}, but this server synced the box from ${known}: a process of the box rewrote it, and nothing is compared or applied by it; run the preview again to make the box ${known}'s copy anew`);
      return known;
    }
    // (An absolute path only: a relative one would be read from the server's working folder.)
    if (!path.isAbsolute(source.root) || !fs.existsSync(path.join(source.root, "sanoma.config.ts"))) throw new Error(`${box.name}'s record (box.json beside the box) names ${source.root}, which is no company root (an absolute path to a folder holding sanoma.config.ts): nothing is compared or applied by it; run the preview again`);
    return source.root;
  }

  async diff(params: BoxesDiffParams): Promise<BoxesDiffResult> {
    const box = this.box(params?.name);
    const root = this.companyOf(box, "compare it with");
    const sides = { root, home: box.home, runsDir: box.log.dir };
    const diff = await readDiff(sides);
    // The files the answer can list are read, and their bytes' hash kept: apply copies those bytes or none.
    await readShown(sides, diff, DIFF_MAX_FILES);
    this.shown.set(box.name, { root, seen: diff.seen });
    return { name: box.name, root, ...boundedChanges(sides, diff.changes), ...(diff.tooMany !== undefined ? { tooMany: diff.tooMany } : {}) };
  }

  async apply(params: BoxesApplyParams): Promise<BoxesApplyResult> {
    const box = this.box(params?.name);
    const root = this.companyOf(box, "apply to");
    // Into the company the changes shown were made against, or nowhere.
    const shown = this.shown.get(box.name);
    if (shown && shown.root !== root) throw new Error(`the changes of ${box.name} you were shown were made against ${shown.root}, but the box is now a copy of ${root}: nothing was applied; show the changes again`);
    if (!Array.isArray(params.files)) throw new TypeError("files must be a list of paths");
    if (params.overwrite !== undefined && !Array.isArray(params.overwrite)) throw new TypeError("overwrite must be a list of paths");
    const result = await applyToWorkspace({ root, home: box.home, runsDir: box.log.dir }, params.files, { overwrite: params.overwrite, shown: shown?.seen });
    return { root, ...result };
  }

  async expose(params: BoxesExposeParams): Promise<BoxesExposeResult> {
    const box = this.box(params?.name);
    box.expose(params.port); // a port number, or the RangeError
    return { url: await box.bridge(params.port) };
  }

  /**
   * Runs a workflow's preview: stops what the box still runs, syncs the company in, starts the
   * preview command. Answers once the command started (or, with `wait`, ended).
   */
  async preview(params: BoxesPreviewParams): Promise<BoxesPreviewResult> {
    this.assertOpen();
    if (typeof params?.root !== "string" || !path.isAbsolute(params.root)) throw new Error("root must be the company root's absolute path");
    if (typeof params.export !== "string" || params.export === "") throw new Error("export must name the workflow's export");
    const root = path.resolve(params.root);
    if (!fs.existsSync(root)) throw new Error(`${root} does not exist`);
    // A preview copies a company (A1: the folder holding sanoma.config.ts), and runs one of its files.
    if (!fs.existsSync(path.join(root, "sanoma.config.ts"))) throw new Error(`${root} is no company root (it holds no sanoma.config.ts)`);
    const file = relativeFile(root, params.file);
    if (!fs.statSync(path.join(root, file), { throwIfNoEntry: false })?.isFile()) throw new Error(`${file} is no file of the company at ${root}`);
    // Refused before anything is made: an export that is no workflow of the file, a CLI that is not installed.
    if (this.workflowsOf) {
      const source = this.workflowsOf(root, file);
      if (source === undefined) throw new Error(`${file} is no workflow source of the company at ${root} (those are the .ts files under a workflows folder): there is nothing to preview in it`);
      if (source.doesNotLoad !== undefined) throw new Error(`${file} does not parse (${source.doesNotLoad}): Sanoma cannot load it, so there is nothing to preview until it parses`);
      const { workflows } = source;
      if (!workflows.includes(params.export)) throw new Error(`${params.export} is no exported workflow of ${file} (${workflows.length > 0 ? `its workflows: ${workflows.join(", ")}` : "it exports none"})`);
    }
    if (this.ctx.tier.refusal) throw new Error(this.ctx.tier.refusal);
    const template = params.command || this.previewTemplate;
    const cli = usesInstalledCli(template) ? findSanomaCli(root) : undefined;
    if (usesInstalledCli(template) && !cli) throw new Error(missingCliMessage(root));
    const scope = params.scope !== undefined ? params.scope : scopeOf(root, file);
    const box = this.previewBox(previewBoxName(scope, params.export), root, params.export);
    const command = previewCommand(template, { file, export: params.export, scope, root: box.home, sanoma: cli });
    const { sync, handle } = await this.exclusively(box.name, async () => {
      const current = this.box(box.name); // the box as it is now (see `run`)
      // Its record claimed first: a box another server keeps is refused with nothing changed (its
      // preview source rewritten, another server's diff and apply would compare the wrong company).
      current.log.openToWrite();
      await current.stop({ graceMs: 1000 });
      // Two workflows whose names come out alike (app `a-b`'s `c`, app `a`'s `b-c`) share a box
      // name: the box is made an exact copy for the other one, never left with the first's changes.
      const before = readPreviewSource(current.log.dir);
      const otherWorkflow = before !== undefined && before.root === root && (before.file !== file || before.export !== params.export);
      writePreviewSource(current.log.dir, { root, file, export: params.export, scope, command });
      this.synced.set(box.name, root);
      // The sync is the run's preparation: its failure is the run's error (SPEC B4), and the request's.
      const handle = current.start(command, {
        explainExit: explainPreviewExit,
        prepare: () => syncIntoBox({ root, home: current.home, runsDir: current.log.dir, reset: params.reset === true || otherWorkflow }),
      });
      const sync = await handle.prepared.then((report) => report as BoxSyncReport, (e: Error) => { throw new Error(`the box could not be made ready: ${e.message}`); });
      return { sync, handle };
    });
    const base = { name: box.name, runId: handle.runId, tier: handle.tier, command, sync };
    if (!params.wait) {
      handle.done.catch(() => {});
      return base;
    }
    return { ...base, result: await handle.done };
  }

  /**
   * The box a preview of `exportName` runs in. Two exports whose names differ in case only (`Foo`,
   * `foo`) make box names that are one folder on macOS and Windows: the second is refused, as any
   * such name, saying what the box there previews and how to preview this one. It never runs in
   * the other's box (which it would reset, or whose changes it would see) nor in a box of another
   * name (which the next preview of it would have to find again).
   */
  private previewBox(name: string, root: string, exportName: string): Box {
    try {
      return this.box(name);
    } catch (error) {
      if (!(error instanceof BoxNameTakenError)) throw error;
      const other = error.existing[0]!;
      const source = readPreviewSource(runsDir(this.boxesDir, other));
      const what = source ? `${other} is the preview of ${source.export} in ${source.file}${source.root !== root ? ` of the company at ${source.root}` : ""}: discard it` : `discard ${other}`;
      throw new Error(`${error.message} (${what} to preview ${exportName})`);
    }
  }

  /** Stops every box's processes (SIGTERM, then SIGKILL after a short grace) and closes the logs. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    // First, nothing more starts: a preview still copying would start its command after the stop,
    // and a box asked for meanwhile is refused.
    this.closing = true;
    for (const box of this.boxes.values()) box.closeForGood();
    await Promise.all([...this.boxes.values()].map((box) => box.stop({ graceMs: 500 }).catch(() => 0)));
    this.disposeSync();
  }

  /** SIGKILL to every box's processes at once, synchronously: for `process.on("exit")`. */
  disposeSync(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const box of this.boxes.values()) {
      box.killAllNow();
      box.log.close();
    }
    this.ctx.supervisor.dispose();
  }

  /** `dispose` has begun: no box is made any more, and those there start nothing (`Box.closeForGood`). */
  private closing = false;

  private assertOpen(): void {
    if (this.disposed) throw new Error("the box service was stopped");
    if (this.unavailable) throw new Error(this.unavailable);
  }

  /** What `list` shows of a box it found, by the name it has (two an earlier version made may share a key: each is its own). */
  private info(name: string): BoxInfo {
    this.assertOpen();
    const box = this.boxObject(name);
    const runs = this.runsOf(name);
    // A box another live server keeps runs what its record says runs (this server runs nothing there).
    const live = box.log.keeper() !== undefined ? runs.filter((run) => run.state === "running") : box.liveRuns();
    const lastRun = runs.sort((a, b) => b.startedAt - a.startedAt)[0];
    const preview = fs.existsSync(box.log.dir) ? readPreviewSource(box.log.dir) : undefined;
    return {
      name,
      home: box.home,
      state: !box.exists() ? "missing" : live.length > 0 ? "running" : "idle",
      liveRuns: live.length,
      ...(lastRun ? { lastRun } : {}),
      ...(preview ? { preview } : {}),
    };
  }

  /**
   * A box's runs from its log, with `lost` for those that were running when a server stopped. A
   * box another live server keeps is that server's: what its record says runs, runs (a server
   * that takes a box over records the runs it found running as lost).
   */
  private runsOf(name: string): BoxRunInfo[] {
    this.assertOpen();
    const box = this.boxObject(name);
    if (!fs.existsSync(box.log.dir)) return [];
    const keptElsewhere = box.log.keeper() !== undefined;
    return box.log.runs().map((run) => {
      const live = box.liveRun(run.runId);
      if (live) return { ...live, ports: [...live.ports] };
      return run.state === "running" && !keptElsewhere ? { ...run, state: "lost" as const } : run;
    });
  }

  private namesWithLogs(): string[] {
    try {
      return fs.readdirSync(path.join(this.boxesDir, ".runs"), { withFileTypes: true }).filter((e) => e.isDirectory() && boxNameProblem(e.name) === undefined).map((e) => e.name);
    } catch {
      return [];
    }
  }

  private noteState(name: string): void {
    const box = this.boxes.get(name);
    if (!box) return;
    const state: BoxInfo["state"] = !box.exists() ? "missing" : box.liveRuns().length > 0 ? "running" : "idle";
    if (this.lastState.get(name) === state) return;
    this.lastState.set(name, state);
    this.emitChanged({ name, state });
  }

  private emitChanged(change: BoxesChangedParams): void {
    for (const listener of this.changeListeners) safely(listener, change);
  }
}

/**
 * Every `sanoma/boxes/*` request with the service method that answers it, for the server to
 * register in one loop: `for (const [method, handle] of boxRequestHandlers(service))
 * connection.onRequest(method, handle)`. A handler rejects with the user's sentence (a refused
 * name: `<name> is no box's name`), which the server passes on as the JSON-RPC error's message.
 */
export function boxRequestHandlers(service: BoxService): Array<[string, (params: never) => Promise<unknown>]> {
  return [
    [BoxesListRequest, () => service.list()],
    [BoxesOpenRequest, (p: BoxesOpenParams) => service.open(p)],
    [BoxesRunRequest, (p: BoxesRunParams) => service.run(p)],
    [BoxesStopRequest, (p: BoxesStopParams) => service.stop(p)],
    [BoxesDiscardRequest, (p: BoxesDiscardParams) => service.discard(p)],
    [BoxesEventsRequest, (p: BoxesEventsParams) => service.events(p)],
    [BoxesRunsRequest, (p: BoxesRunsParams) => service.runs(p ?? {})],
    [BoxesDiffRequest, (p: BoxesDiffParams) => service.diff(p)],
    [BoxesApplyRequest, (p: BoxesApplyParams) => service.apply(p)],
    [BoxesPreviewRequest, (p: BoxesPreviewParams) => service.preview(p)],
    [BoxesExposeRequest, (p: BoxesExposeParams) => service.expose(p)],
  ];
}

/** A listener's failure must not break a run. */
function safely<T>(listener: Listener<T>, value: T): void {
  try {
    listener(value);
  } catch {
    // the listener's own problem
  }
}

/** A boxes folder that exists and is no private folder of ours (another user's, a link). */
class BoxesFolderRefused extends Error {}

/**
 * The folder the boxes live in, private to the server's user (mode 700): a box's files (a
 * `namespace` box's are owned by that user outside it, setuid bits included) are no one else's
 * to reach. A folder that does not exist is made so. One that exists is never re-permissioned
 * (at `/tmp`, a chmod would lock every other user out): it is used as it is when it is already
 * ours and private, else the boxes live in a folder of ours inside it, `sanoma-boxes-<uid>`.
 */
export function ownBoxesFolder(dir: string): string {
  if (!fs.existsSync(dir)) {
    makeFolders(dir, 0o700);
    return dir;
  }
  const uid = process.getuid?.();
  if (uid === undefined) return dir; // no owners to tell (Windows)
  const given = fs.statSync(dir);
  if (!given.isDirectory()) throw new BoxesFolderRefused("is no folder");
  if (given.uid === uid && (given.mode & 0o077) === 0) return dir;
  const own = path.join(dir, `sanoma-boxes-${uid}`);
  try {
    fs.mkdirSync(own, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const stat = fs.lstatSync(own);
  // Anyone may make a folder of that name in a shared folder first: only one of ours is taken.
  if (!stat.isDirectory()) throw new BoxesFolderRefused(`is shared, and ${own} in it is no folder of ours (a link?)`);
  if (stat.uid !== uid) throw new BoxesFolderRefused(`is shared, and ${own} in it belongs to another user (uid ${stat.uid})`);
  if ((stat.mode & 0o077) !== 0) fs.chmodSync(own, 0o700); // ours, by its name and owner
  return own;
}

/**
 * `mkdir -p`, one level at a time from the nearest folder that exists: Node 20's own recursive
 * mkdir never returns under `/proc` (a cache folder set there would hang the server's start).
 */
function makeFolders(dir: string, mode: number): void {
  const missing: string[] = [];
  for (let d = dir; !fs.existsSync(d); d = path.dirname(d)) {
    if (path.dirname(d) === d) break;
    missing.push(d);
  }
  for (const d of missing.reverse()) fs.mkdirSync(d, { mode });
}
