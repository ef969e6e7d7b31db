/**
 * Every custom message between the Sanoma language server and its clients, declared once.
 * Each has a doc comment saying who sends it; `docs/protocol.md` documents them for LSP clients,
 * and a test keeps the two in step. Types and constants only: both the server and the VS Code client
 * import this.
 */

/** Client → server request `sanoma/companies`: every company the server knows. */
export const CompaniesRequest = "sanoma/companies";
export interface CompanyInfo {
  /** Absolute path of the company root (the folder holding sanoma.config.ts). */
  root: string;
  /** The company's name: the config's `name` when it is a string literal, else the folder's name. */
  name: string;
  apps: string[];
  /** Paths relative to the root, `/`-separated. */
  declarationFiles: string[];
  counts: { files: number; dataFiles: number; workflowSources: number; declarations: number; collections: number; problems: number };
  /**
   * What leaves the company out whole, when something does (none of its files is read or judged):
   * `sanoma.exclude "x"` or `../.sanomarc.json's exclude "x"` (that file's path from the root), as
   * the `left-out` note on its open files says it. Absent for a company that is judged.
   */
  leftOut?: string;
}
export interface CompaniesResult { companies: CompanyInfo[] }

/** Client → server request `sanoma/status`: indexing state, the last check, and the companies whose check failed. */
export const StatusRequest = "sanoma/status";
export interface StatusResult {
  state: "indexing" | "idle";
  companies: number;
  /** The companies' files, those listed for indexing and not read yet included, and the connector packages' files changed on disk and not read again yet. */
  files: number;
  /** The companies' files read (those changed on disk and not read again yet left out). */
  indexedFiles: number;
  /** Milliseconds the last company-wide check took, and when it finished (epoch ms). */
  lastCheckMs: number | undefined;
  lastCheckAt: number | undefined;
  /**
   * The companies whose last check, or reading of their files, failed (a fault of the server's,
   * logged with its stack): the problems shown for each may be out of date until its next check
   * publishes. Empty when none has (absent from a server older than this field).
   */
  failed?: StatusFailure[];
}
/** A company whose check or reading failed: its root, its name, and what failed, in a sentence's words (`check of acme failed: …`). */
export interface StatusFailure { root: string; name: string; message: string }

/** Client → server request `sanoma/companyOf`: the company and scope of a document (for a status bar). */
export const CompanyOfRequest = "sanoma/companyOf";
export interface CompanyOfParams { uri: string }
export interface CompanyOfResult { root: string; name: string; scope: string | null; kind: string | null }

/** Server → client notification `sanoma/statusChanged`: sent when indexing starts, progresses (about every 100 ms) or ends, when a company goes away, and after each check. */
export const StatusChangedNotification = "sanoma/statusChanged";

// ---- Boxes and previews (SPEC B4, B5): the section below is owned by server/src/boxes/. ----

/** The isolation a box's commands run under: `process` (a process group), `namespace` (bubblewrap) or `container` (podman or docker). */
export type BoxTier = "process" | "namespace" | "container";
/** What a box can do (the Sandbox contract): its home survives stops (snapshot), no pause, ports reachable. */
export interface BoxCapabilities { snapshot: boolean; pause: boolean; port: boolean }

interface BoxEventBase {
  /** Grows by one per event of this box's log; resume with `cursor` = the last `seq` seen. */
  seq: number;
  box: string;
  runId: string;
  /** Epoch milliseconds. */
  at: number;
}
/** A run started: `cwd` is relative to the box's home (`""` for the home itself). */
export interface BoxStartEvent extends BoxEventBase { kind: "start"; command: string; cwd: string; tier: BoxTier }
/** A chunk of output: UTF-8 text (a character is never split across chunks) and its size in bytes. */
export interface BoxOutputEvent extends BoxEventBase { kind: "output"; stream: "stdout" | "stderr"; text: string; bytes: number }
/** A process of the run started listening on a loopback port; `url` is what `expose` gives. */
export interface BoxPortEvent extends BoxEventBase { kind: "port"; port: number; url: string }
/**
 * The command exited (or could not start: 127). `exitCode` is a shell's: 128 + n when killed by
 * signal n, and then `signal` names it. `message` explains a known failure (a missing preview CLI).
 * `error`: the box could not be made ready (the engine refused or is absent, the image is missing,
 * bubblewrap could not make its namespaces, the sync failed): the command never started, and
 * this is why (the first failure recorded for the run: what followed from it never replaces it).
 */
export interface BoxExitEvent extends BoxEventBase { kind: "exit"; exitCode: number; signal: string | null; durationMs: number; message?: string; error?: string }
/** One recorded event of a box's run. */
export type BoxEvent = BoxStartEvent | BoxOutputEvent | BoxPortEvent | BoxExitEvent;

/** A run as the runs list shows it. `lost`: it was running when its server stopped. */
export interface BoxRunInfo {
  runId: string;
  /**
   * The seq of the run's `start` event: a client that shows one run reads its events from
   * `startSeq - 1` (`sanoma/boxes/events`), not from the start of the box's log.
   */
  startSeq: number;
  box: string;
  command: string;
  cwd: string;
  tier: BoxTier;
  startedAt: number;
  state: "running" | "exited" | "lost";
  endedAt?: number;
  exitCode?: number;
  signal?: string | null;
  durationMs?: number;
  ports: number[];
  /** Why the box could not be made ready for the run (see `BoxExitEvent.error`): its command never started. */
  error?: string;
}

/** The run's outcome, returned when a request asked to wait. Captured output is capped; events hold all of it. */
export interface BoxRunResult {
  runId: string;
  box: string;
  tier: BoxTier;
  exitCode: number;
  signal: string | null;
  stdout: string;
  stderr: string;
  /** True when stdout or stderr was longer than the capture cap. */
  outputTruncated: boolean;
  startedAt: number;
  durationMs: number;
  ports: number[];
  message?: string;
  /** Why the box could not be made ready for the run: its command never started. */
  error?: string;
}

/** Where a preview box's files came from. */
export interface BoxPreviewSource {
  /** Absolute path of the company root. */
  root: string;
  /** The workflow's file, relative to the root, `/`-separated. */
  file: string;
  export: string;
  scope: string | null;
  command: string;
}

/** A box as the list shows it. `missing`: its folder was deleted by hand (the next open recreates it). */
export interface BoxInfo {
  name: string;
  /** Absolute path of the box's home. */
  home: string;
  state: "running" | "idle" | "missing";
  /** How many of its runs' processes are still alive (a run that exited may leave some). */
  liveRuns: number;
  lastRun?: BoxRunInfo;
  preview?: BoxPreviewSource;
}

/** Client → server request `sanoma/boxes/list`: every box, and the tier in force. */
export const BoxesListRequest = "sanoma/boxes/list";
export interface BoxesListParams {}
export interface BoxesListResult {
  boxesDir: string;
  tier: BoxTier;
  /** Why this tier: the setting, or why bubblewrap is not used. */
  tierReason: string;
  capabilities: BoxCapabilities;
  boxes: BoxInfo[];
}

/**
 * Client → server request `sanoma/boxes/open`: makes the box's home if needed. A refused name is a
 * JSON-RPC error whose message is `<name> is no box's name`; a name that would be another box's
 * folder on macOS or Windows (`Demo` beside `demo`), `<name> is no new box's name: the box <other>
 * exists, …` (docs/boxes.md, "Box names").
 */
export const BoxesOpenRequest = "sanoma/boxes/open";
export interface BoxesOpenParams { name: string }
export interface BoxesOpenResult { box: BoxInfo; created: boolean; tier: BoxTier; capabilities: BoxCapabilities }

/**
 * Client → server request `sanoma/boxes/run`: runs `bash -c command` in the box. Answers at once
 * with the run's id (its events follow as `sanoma/boxes/event`), or, with `wait`, when it exits.
 * `env` is laid over a small base (PATH, HOME, TMPDIR): the server's own environment never reaches it.
 */
export const BoxesRunRequest = "sanoma/boxes/run";
export interface BoxesRunParams {
  name: string;
  command: string;
  /** Relative to the box's home. */
  cwd?: string;
  env?: Record<string, string>;
  /** Text written to the command's standard input, which is then closed. */
  stdin?: string;
  wait?: boolean;
}
export interface BoxesRunResult { runId: string; tier: BoxTier; result?: BoxRunResult }

/** Client → server request `sanoma/boxes/stop`: ends one run (`runId`) or every process the box started. */
export const BoxesStopRequest = "sanoma/boxes/stop";
export interface BoxesStopParams { name: string; runId?: string }
export interface BoxesStopResult { stopped: number }

/** Client → server request `sanoma/boxes/discard`: stops the box and deletes its home and its log. */
export const BoxesDiscardRequest = "sanoma/boxes/discard";
export interface BoxesDiscardParams { name: string }
export interface BoxesDiscardResult { discarded: boolean }

/**
 * Client → server request `sanoma/boxes/events`: the box's recorded events with `seq` > `cursor`,
 * oldest first, at most `limit` (default 1000). Resume with the returned `cursor`; when `logId`
 * differs from the one you saw, the log was discarded and remade: start again from 0. A box keeps
 * its newest 256 MiB of events: `skipped` says how many events after `cursor` it no longer holds.
 */
export const BoxesEventsRequest = "sanoma/boxes/events";
export interface BoxesEventsParams { name: string; cursor?: number; limit?: number }
export interface BoxesEventsResult { events: BoxEvent[]; cursor: number; more: boolean; logId: string; skipped: number }

/**
 * Client → server request `sanoma/boxes/runs`: past and current runs, newest first, of one box (or
 * all), started within [`since`, `until`] (epoch ms, both optional), at most `limit` (default 50).
 */
export const BoxesRunsRequest = "sanoma/boxes/runs";
export interface BoxesRunsParams { name?: string; since?: number; until?: number; limit?: number }
export interface BoxesRunsResult { runs: BoxRunInfo[]; truncated: boolean }

/** What a box has at a changed path: a regular file, or what apply never copies. */
export type BoxEntryKind = "file" | "symlink" | "fifo" | "socket" | "device";

/** A file the box changed, against the workspace. Paths are relative to the company root, `/`-separated. */
export interface BoxFileChange {
  path: string;
  change: "added" | "modified" | "deleted";
  /** What the box has at the path (absent for a deletion, and for a folder the server cannot read). Only a `file` is ever applied. */
  kind?: BoxEntryKind;
  /**
   * The box's file's size in bytes, as the diff saw it (a regular file of the box). Apply copies no
   * file past 256 MiB (such a one is `refused`), and no more than 1 GiB in one request.
   */
  size?: number;
  /**
   * Why apply refuses this change (a symlink, FIFO, socket or device in the box, what the server
   * cannot read, a file past 256 MiB, or one past the 1 GiB the diff reads to hash what it lists):
   * listed to be seen, never applied.
   */
  refused?: string;
  /**
   * The workspace's file also changed since the box was synced (a conflict): apply skips it unless
   * the request names it in `overwrite`.
   */
  workspaceChanged: boolean;
  /** Absolute paths for a side-by-side diff (`boxFile` only for a regular file of the box). */
  boxFile?: string;
  workspaceFile: string;
  /**
   * Set when apply would change whether the workspace's file is executable (the box's file's `x`,
   * which apply follows): true, it becomes executable (or is added so); false, it no longer is.
   */
  executable?: boolean;
}

/** Client → server request `sanoma/boxes/diff`: what a preview box changed against its company's files. */
export const BoxesDiffRequest = "sanoma/boxes/diff";
export interface BoxesDiffParams { name: string }
export interface BoxesDiffResult {
  name: string;
  root: string;
  files: BoxFileChange[];
  /** How many changes more than `files` lists, past the answer's bounds (a box's own making: thousands of files, names of escapes); apply takes them by path all the same. */
  omitted?: number;
  /**
   * Set when the box holds more files and folders than a diff looks at (200,000, whose paths take
   * 32 MiB in all at most): the diff lists what changed among those it looked at, and no
   * deletions; this says so, in words for the user.
   */
  tooMany?: string;
}

/**
 * Client → server request `sanoma/boxes/apply`: copies the chosen changed files back into the
 * workspace (a deletion deletes). Nothing else in the workspace changes. Skipped, each with its
 * reason: a path the box did not change (or no string), a change the diff marks `refused`, a
 * conflict (`workspaceChanged`) not named in `overwrite`, a file the box changed since the last
 * diff (by its bytes, for a file that diff listed: a copy is kept only when its bytes hash as those
 * the diff read), an absolute path or one through `.git` or `node_modules`, and a workspace path
 * that is a link or lies under one.
 */
export const BoxesApplyRequest = "sanoma/boxes/apply";
export interface BoxesApplyParams {
  name: string;
  files: string[];
  /** Files of `files` that changed in the workspace too, to be overwritten with the box's version all the same. */
  overwrite?: string[];
}
export interface BoxesApplyResult {
  /** The company root the files were applied to: the one the last diff answered for the box was made against. */
  root: string;
  applied: string[];
  skipped: { path: string; reason: string }[];
}

/**
 * Client → server request `sanoma/boxes/preview`: runs one exported workflow in the box
 * `<scope>-<export>`: syncs the company in, links `node_modules`, runs the preview command
 * (`command`, else the `sanoma.preview.command` setting). `reset` drops the box's own changes first.
 */
export const BoxesPreviewRequest = "sanoma/boxes/preview";
export interface BoxesPreviewParams {
  /** Absolute path of the company root. */
  root: string;
  /** The workflow's file: absolute, or relative to the root. */
  file: string;
  export: string;
  /** The file's scope (its app), `null` for the root scope; found from the path when absent. */
  scope?: string | null;
  command?: string;
  reset?: boolean;
  wait?: boolean;
}
export interface BoxSyncReport { copied: number; updated: number; deleted: number; kept: string[]; unchanged: number; ms: number }
export interface BoxesPreviewResult { name: string; runId: string; tier: BoxTier; command: string; sync: BoxSyncReport; result?: BoxRunResult }

/** Client → server request `sanoma/boxes/expose`: the URL of a box's port. */
export const BoxesExposeRequest = "sanoma/boxes/expose";
export interface BoxesExposeParams { name: string; port: number }
export interface BoxesExposeResult { url: string }

/** Server → client notification `sanoma/boxes/event`: each event as it is recorded (the same object `events` returns). */
export const BoxesEventNotification = "sanoma/boxes/event";
export type BoxesEventParams = BoxEvent;

/** Server → client notification `sanoma/boxes/changed`: a box was made, discarded, or started or stopped running. */
export const BoxesChangedNotification = "sanoma/boxes/changed";
export interface BoxesChangedParams { name: string; state: BoxInfo["state"] | "discarded" }

/**
 * Node's options a client starts the server under: V8's young generation capped at 4 MB a
 * semi-space (16 by default). The server keeps what it reads (every file's facts, a lockfile's
 * bindings and problems), so nearly everything the young generation holds survives, and each
 * scavenge copies it: at 16 MB, pauses of 30–70 ms on a slow machine, which a request waits
 * through; at 4, under 15 ms, and about 25 MB less RSS at 10,000 files, for no index time we could
 * measure (issues 17 and 23; docs/bench.md). A Node option, which a running process cannot
 * change: the VS Code client passes it, and docs/settings.md tells other clients how.
 */
export const SERVER_NODE_ARGS = ["--max-semi-space-size=4"];
