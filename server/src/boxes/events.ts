/**
 * A box's record of its runs (SPEC B5): an append-only log of events, each with a sequence number,
 * and a list of runs. Both live in `<boxes>/.runs/<name>/`, beside the box's home and never inside
 * it, so a preview cannot rewrite its own history (in the `namespace` tier it cannot even reach it:
 * only the home is writable there).
 *
 *   events.jsonl   one event per line, `seq` growing by one (the segment being written)
 *   events.<N>.jsonl  earlier segments, N the first seq each holds
 *   runs.jsonl     one line when a run starts and one when it ends; folded into `BoxRunInfo`
 *   log.json       `{ logId }`: a new id whenever the log is made anew (after a discard)
 *   writer.json    `{ pid, startTicks }`: the server that writes the log (see `claim`)
 *
 * A run records at most 64 MiB of output, but a box previewed day after day would keep every
 * run's. So the events are written in segments of `segmentBytes` (16 MiB), and once the segments
 * hold more than `maxBytes` (256 MiB) the oldest are deleted: a whole file each, never a copy. A
 * reader whose cursor is older than the oldest event kept is told how many it missed (`skipped`).
 *
 * Writes are synchronous appends to an open descriptor: a line is on disk before the event is
 * handed to live listeners, so a client that reads the log after a notification finds it there.
 * One server writes one box's log: two (two editor windows sharing a boxes folder) would interleave
 * sequence numbers and run ids. So the first to open a box's log to write claims it (`writer.json`),
 * and another server is refused that box (its writes, and its stop and discard), with the other's
 * pid, until the first closes the log or is gone (a claim of a process no longer alive, or of an
 * earlier process with its pid, is taken over). Reading claims nothing: `read` and `runs` read the
 * files as they are, whoever writes them.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { randomBytes } from "node:crypto";
import type { BoxEvent, BoxRunInfo } from "../protocol.ts";
import { removeTree } from "./files.ts";
import { isLiveState, readProc } from "./procfs.ts";
import { offsetBefore, readSegment, remember, scanSegment } from "./segments.ts";

/** The refusal of a box whose record another live server keeps. */
export function keptMessage(dir: string, pid: number): string {
  return `the box's record (${dir}) is kept by another Sanoma language server (pid ${pid}): use that editor window for this box, or give this server another boxes folder (initializationOptions.boxesDir)`;
}

/** An event before the log numbers it. */
export type NewBoxEvent = BoxEvent extends infer E ? (E extends BoxEvent ? Omit<E, "seq"> : never) : never;

export const DEFAULT_LOG_BYTES = 256 * 1024 * 1024;
export const DEFAULT_SEGMENT_BYTES = 16 * 1024 * 1024;

export interface EventLogLimits {
  /** The events kept at most, in bytes (older segments are deleted past it). */
  maxBytes?: number;
  /** When the segment being written is this big, the next event starts a new one. */
  segmentBytes?: number;
}

/** An earlier segment: its file, the first seq it holds, its size, and its index once read. */
interface Sealed { file: string; firstSeq: number; size: number; index?: Array<[number, number]> }

export class EventLog {
  readonly dir: string;
  private readonly eventsFile: string;
  private readonly runsFile: string;
  private readonly maxBytes: number;
  private readonly segmentBytes: number;
  private eventsFd: number | undefined;
  private runsFd: number | undefined;
  private lastSeq = 0;
  /** The segment being written: its size, and the first seq it holds (lastSeq + 1 while empty). */
  private size = 0;
  private activeFirstSeq = 1;
  /** Sparse index of the segment being written: [seq, byte offset of its line], one entry per INDEX_EVERY events, in order. */
  private index: Array<[number, number]> = [];
  /** Earlier segments, oldest first. */
  private sealed: Sealed[] = [];
  private logIdValue = "";

  constructor(dir: string, limits: EventLogLimits = {}) {
    this.dir = dir;
    this.eventsFile = path.join(dir, "events.jsonl");
    this.runsFile = path.join(dir, "runs.jsonl");
    this.maxBytes = limits.maxBytes ?? DEFAULT_LOG_BYTES;
    this.segmentBytes = Math.min(limits.segmentBytes ?? DEFAULT_SEGMENT_BYTES, this.maxBytes);
  }

  /** The oldest seq the log still holds (lastSeq + 1 when it holds none). */
  get firstSeq(): number {
    this.view();
    return this.sealed[0]?.firstSeq ?? this.activeFirstSeq;
  }

  /** The log's id ("" while it has none: no server has written it yet). */
  get logId(): string {
    this.view();
    return this.logIdValue;
  }

  get seq(): number {
    this.view();
    return this.lastSeq;
  }

  /** Opens the log to write, claiming it: throws, having changed nothing, when another live server keeps it. */
  openToWrite(): void {
    this.ensureOpen();
  }

  /** Numbers the event, writes it, and returns it. */
  append(event: NewBoxEvent): BoxEvent {
    this.ensureOpen();
    if (this.size >= this.segmentBytes) this.roll();
    const full = { seq: this.lastSeq + 1, ...event } as BoxEvent;
    const line = Buffer.from(JSON.stringify(full) + "\n");
    remember(this.index, full.seq, this.size);
    fs.writeSync(this.eventsFd!, line);
    this.size += line.length;
    this.lastSeq = full.seq;
    return full;
  }

  /**
   * Events with seq > cursor, oldest first, at most `limit`; `more` when the log holds further
   * ones; `skipped`: how many events after the cursor the log no longer holds (deleted segments).
   */
  read(cursor: number, limit: number): { events: BoxEvent[]; cursor: number; more: boolean; skipped: number } {
    this.view();
    const events: BoxEvent[] = [];
    if (cursor >= this.lastSeq || limit <= 0) return { events, cursor: Math.max(0, Math.min(cursor, this.lastSeq)), more: cursor < this.lastSeq, skipped: 0 };
    const first = this.sealed[0]?.firstSeq ?? this.activeFirstSeq;
    const skipped = Math.max(0, first - 1 - cursor);
    const from = Math.max(cursor, first - 1);
    let more = false;
    // The segments that may hold seq from + 1 on, oldest first, the one being written last.
    const segments: { file: string; size: number; index: () => Array<[number, number]>; firstSeq: number }[] = [
      ...this.sealed.map((seg) => ({ file: seg.file, size: seg.size, firstSeq: seg.firstSeq, index: () => (seg.index ??= scanSegment(seg.file, seg.size).index) })),
      { file: this.eventsFile, size: this.size, firstSeq: this.activeFirstSeq, index: () => this.index },
    ];
    for (let i = 0; i < segments.length && !more; i++) {
      const seg = segments[i]!;
      const next = segments[i + 1];
      if (next && next.firstSeq <= from + 1) continue; // wholly before the cursor
      more = readSegment(seg.file, seg.size, offsetBefore(seg.index(), from + 1), from, limit, events);
    }
    const last = events.length > 0 ? events[events.length - 1]!.seq : Math.max(0, cursor);
    return { events, cursor: last, more: more || last < this.lastSeq, skipped };
  }

  /** Records a run's start or end (a partial `BoxRunInfo`, folded by `runs()`). */
  recordRun(record: Partial<BoxRunInfo> & { runId: string }): void {
    this.ensureOpen();
    fs.writeSync(this.runsFd!, JSON.stringify(record) + "\n");
  }

  /** Every run this log knows, folded from its records, in start order. */
  /** The runs recorded, read without opening the log for writing (a box another server keeps is listed too). */
  runs(): BoxRunInfo[] {
    let text: string;
    try {
      text = fs.readFileSync(this.runsFile, "utf8");
    } catch {
      return [];
    }
    const byId = new Map<string, BoxRunInfo>();
    for (const line of text.split("\n")) {
      let record: Partial<BoxRunInfo> & { runId?: string };
      try {
        record = JSON.parse(line);
      } catch {
        continue; // a torn last line
      }
      if (typeof record?.runId !== "string") continue;
      const known = byId.get(record.runId);
      if (known) Object.assign(known, record);
      else byId.set(record.runId, { ports: [], state: "running", ...record } as BoxRunInfo);
    }
    // (A run recorded before runs said their start's seq: its id holds it, `run-<seq>`.)
    for (const run of byId.values()) if (typeof run.startSeq !== "number") run.startSeq = Number(/^run-(\d+)$/.exec(run.runId)?.[1] ?? 1);
    return [...byId.values()];
  }

  /**
   * Reopens the files when the folder was deleted by hand (the descriptors would write into
   * unlinked files): numbering goes on, so clients' cursors stay valid.
   */
  revalidate(): void {
    if (this.eventsFd === undefined) return;
    if (fs.existsSync(this.eventsFile) && fs.existsSync(this.runsFile)) return;
    this.closeFds();
    this.openFiles(false);
  }

  close(): void {
    this.closeFds();
    this.releaseClaim();
  }

  /**
   * Closes the log and deletes its folder, through descriptors (`removeTree`): a process-tier box
   * can write it, and a folder it swaps for a link while it is emptied is never followed.
   */
  remove(): void {
    this.closeFds();
    removeTree(this.dir, { byDescriptors: true });
    this.lastSeq = 0;
    this.size = 0;
    this.activeFirstSeq = 1;
    this.index = [];
    this.sealed = [];
    this.logIdValue = "";
    this.viewed = undefined;
  }

  /** Seals the segment being written (renamed after its first seq), starts a new one, and deletes the oldest past `maxBytes`. */
  private roll(): void {
    fs.closeSync(this.eventsFd!);
    const sealedFile = path.join(this.dir, `events.${this.activeFirstSeq}.jsonl`);
    try {
      fs.renameSync(this.eventsFile, sealedFile);
      this.sealed.push({ file: sealedFile, firstSeq: this.activeFirstSeq, size: this.size, index: this.index });
    } catch {
      // The folder was deleted by hand mid-run: that segment is gone; the log goes on in a new folder.
      fs.mkdirSync(this.dir, { recursive: true });
    }
    this.eventsFd = fs.openSync(this.eventsFile, "a");
    this.size = 0;
    this.index = [];
    this.activeFirstSeq = this.lastSeq + 1;
    let total = this.sealed.reduce((n, seg) => n + seg.size, 0);
    while (this.sealed.length > 0 && total + this.segmentBytes > this.maxBytes) {
      const oldest = this.sealed.shift()!;
      total -= oldest.size;
      fs.rmSync(oldest.file, { force: true });
    }
  }

  /**
   * The pid of another server that keeps this log, while it lives (its claim, see the header):
   * undefined when the log is this process's, no one's, or a server's that is gone.
   */
  keeper(): number | undefined {
    let other: { pid?: unknown; startTicks?: unknown } = {};
    try { other = JSON.parse(fs.readFileSync(path.join(this.dir, "writer.json"), "utf8")); } catch { return undefined; /* none, torn or unreadable: no one's */ }
    if (typeof other.pid !== "number" || other.pid === process.pid) return undefined;
    const info = readProc(other.pid);
    const alive = info !== undefined && isLiveState(info.state) && (typeof other.startTicks !== "number" || info.startTicks === other.startTicks);
    return alive ? other.pid : undefined;
  }

  /**
   * Throws the refusal when another live server keeps this log: what stops, discards or writes a
   * box is that server's to do (its runs' processes carry the box's tag, which a stop here would hit).
   */
  refuseIfKept(): void {
    const pid = this.keeper();
    if (pid !== undefined) throw new Error(keptMessage(this.dir, pid));
  }

  /** Claims the log for this process, or throws when another live server holds it (see the header). */
  private claim(): void {
    const file = path.join(this.dir, "writer.json");
    const mine = JSON.stringify({ pid: process.pid, startTicks: readProc(process.pid)?.startTicks }) + "\n";
    try {
      fs.writeFileSync(file, mine, { flag: "wx" });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    this.refuseIfKept();
    fs.writeFileSync(file, mine);
  }

  /** Lets the log go, when this process holds it. */
  private releaseClaim(): void {
    const file = path.join(this.dir, "writer.json");
    try {
      if ((JSON.parse(fs.readFileSync(file, "utf8")) as { pid?: unknown }).pid === process.pid) fs.unlinkSync(file);
    } catch { /* none, or not ours */ }
  }

  private closeFds(): void {
    for (const fd of [this.eventsFd, this.runsFd]) if (fd !== undefined) try { fs.closeSync(fd); } catch { /* already closed */ }
    this.eventsFd = this.runsFd = undefined;
  }

  private ensureOpen(): void {
    if (this.eventsFd === undefined) this.openFiles(true);
  }

  /** A reader's view: the log's id, its earlier segments' names, and the segment being written (its inode, and where its last whole line read ends). */
  private viewed: { logId: string; sealed: string; ino: number; end: number } | undefined;

  /**
   * Brings what a read sees up to the files. The writer's own state is the log's. Any other
   * reader (a server that never wrote this box, or not yet) reads the files without writing them
   * and without claiming the log, looking again at each read (another server may append meanwhile),
   * and scanning only what was appended since its last look.
   */
  private view(): void {
    if (this.eventsFd !== undefined) return;
    let logId = "";
    try { logId = String(JSON.parse(fs.readFileSync(path.join(this.dir, "log.json"), "utf8")).logId ?? ""); } catch { /* none yet */ }
    let sealed = "";
    try { sealed = fs.readdirSync(this.dir).filter((name) => /^events\.\d+\.jsonl$/.test(name)).sort().join("/"); } catch { /* none */ }
    let stat: fs.Stats | undefined;
    try { stat = fs.statSync(this.eventsFile); } catch { /* none */ }
    const ino = stat?.ino ?? -1;
    const size = stat?.size ?? 0;
    const before = this.viewed;
    if (before && before.logId === logId && before.sealed === sealed && before.ino === ino && size >= before.end) {
      if (size === before.end) return;
      const added = scanSegment(this.eventsFile, Infinity, before.end);
      for (const [seq, offset] of added.index) remember(this.index, seq, offset);
      if (before.end === 0 && added.firstSeq !== undefined) this.activeFirstSeq = added.firstSeq;
      this.lastSeq = Math.max(this.lastSeq, added.lastSeq);
      this.size = before.end = Math.max(before.end, added.end);
      return;
    }
    this.logIdValue = logId;
    this.load(false);
    this.viewed = { logId, sealed, ino, end: this.size };
  }

  private openFiles(load: boolean): void {
    fs.mkdirSync(this.dir, { recursive: true });
    this.claim();
    const idFile = path.join(this.dir, "log.json");
    try {
      this.logIdValue = String(JSON.parse(fs.readFileSync(idFile, "utf8")).logId ?? "");
    } catch {
      this.logIdValue = "";
    }
    if (!this.logIdValue || !load) {
      this.logIdValue ||= `${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`;
      fs.writeFileSync(idFile, JSON.stringify({ logId: this.logIdValue }) + "\n");
    }
    if (load) this.load(true);
    else {
      // Remade by hand: nothing older is held, and numbering goes on.
      this.size = 0;
      this.index = [];
      this.sealed = [];
      this.activeFirstSeq = this.lastSeq + 1;
    }
    this.viewed = undefined;
    this.eventsFd = fs.openSync(this.eventsFile, "a");
    this.runsFd = fs.openSync(this.runsFile, "a");
    this.repairTornLine(this.runsFile, this.runsFd);
    // A run still recorded running is none of this server's (it runs nothing here yet): a server
    // before it stopped without ending it. Recorded lost, so that another server, seeing this one
    // keep the box, takes the runs still recorded running for this one's.
    if (load) for (const run of this.runs()) if (run.state === "running") fs.writeSync(this.runsFd, JSON.stringify({ runId: run.runId, state: "lost" }) + "\n");
  }

  /**
   * Reads the existing log: the earlier segments by name (read only when a reader needs them),
   * and the segment being written whole, for its last sequence number and its index. To write,
   * a line torn by a crash is ended; a reader leaves the files as they are, and stops at the last
   * whole line (the writer may be writing the next).
   */
  private load(toWrite: boolean): void {
    this.sealed = [];
    let names: string[] = [];
    try { names = fs.readdirSync(this.dir); } catch { /* a new folder */ }
    for (const name of names) {
      const m = /^events\.(\d+)\.jsonl$/.exec(name);
      if (!m) continue;
      const file = path.join(this.dir, name);
      try { this.sealed.push({ file, firstSeq: Number(m[1]), size: fs.statSync(file).size }); } catch { /* gone meanwhile */ }
    }
    this.sealed.sort((a, b) => a.firstSeq - b.firstSeq);
    const active = scanSegment(this.eventsFile, Infinity);
    this.size = toWrite ? active.size : active.end;
    this.index = active.index;
    // The segment being written may be empty (just rolled): then the last seq is the newest sealed one's.
    this.lastSeq = active.lastSeq;
    const newest = this.sealed[this.sealed.length - 1];
    if (this.lastSeq === 0 && newest) {
      const read = scanSegment(newest.file, newest.size);
      newest.index = read.index;
      this.lastSeq = read.lastSeq;
    }
    this.activeFirstSeq = active.firstSeq ?? this.lastSeq + 1;
    if (toWrite && active.torn) {
      // A line torn by a crash: end it so the next append starts on a line of its own.
      fs.appendFileSync(this.eventsFile, "\n");
      this.size += 1;
    }
  }



  private repairTornLine(file: string, fd: number): void {
    const size = fs.fstatSync(fd).size;
    if (size === 0) return;
    const last = Buffer.alloc(1);
    const readFd = fs.openSync(file, "r");
    try {
      fs.readSync(readFd, last, 0, 1, size - 1);
    } finally {
      fs.closeSync(readFd);
    }
    if (last[0] !== 10) fs.writeSync(fd, "\n");
  }
}
