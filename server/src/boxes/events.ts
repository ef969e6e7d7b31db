/**
 * A box's record of its runs (SPEC B5): an append-only log of events, each with a sequence number,
 * and a list of runs. Both live in `<boxes>/.runs/<name>/`, beside the box's home and never inside
 * it, so a preview cannot rewrite its own history (in the `namespace` tier it cannot even reach it:
 * only the home is writable there).
 *
 *   events.jsonl   one event per line, `seq` growing by one
 *   runs.jsonl     one line when a run starts and one when it ends; folded into `BoxRunInfo`
 *   log.json       `{ logId }`: a new id whenever the log is made anew (after a discard)
 *
 * Writes are synchronous appends to an open descriptor: a line is on disk before the event is
 * handed to live listeners, so a client that reads the log after a notification finds it there.
 * One server writes one boxes directory; two servers sharing one would interleave sequence numbers.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { randomBytes } from "node:crypto";
import type { BoxEvent, BoxRunInfo } from "../protocol.ts";

/** An event before the log numbers it. */
export type NewBoxEvent = BoxEvent extends infer E ? (E extends BoxEvent ? Omit<E, "seq"> : never) : never;

/** Lines between two remembered offsets: reading from a cursor seeks, then parses at most this many. */
const INDEX_EVERY = 256;
const READ_CHUNK = 256 * 1024;

export class EventLog {
  readonly dir: string;
  private readonly eventsFile: string;
  private readonly runsFile: string;
  private eventsFd: number | undefined;
  private runsFd: number | undefined;
  private lastSeq = 0;
  private size = 0;
  /** Sparse index: [seq, byte offset of its line], one entry per INDEX_EVERY events, in order. */
  private index: Array<[number, number]> = [];
  private logIdValue = "";

  constructor(dir: string) {
    this.dir = dir;
    this.eventsFile = path.join(dir, "events.jsonl");
    this.runsFile = path.join(dir, "runs.jsonl");
  }

  get logId(): string {
    this.ensureOpen();
    return this.logIdValue;
  }

  get seq(): number {
    this.ensureOpen();
    return this.lastSeq;
  }

  /** Numbers the event, writes it, and returns it. */
  append(event: NewBoxEvent): BoxEvent {
    this.ensureOpen();
    const full = { seq: this.lastSeq + 1, ...event } as BoxEvent;
    const line = Buffer.from(JSON.stringify(full) + "\n");
    this.remember(full.seq, this.size);
    fs.writeSync(this.eventsFd!, line);
    this.size += line.length;
    this.lastSeq = full.seq;
    return full;
  }

  /** Events with seq > cursor, oldest first, at most `limit`; `more` when the log holds further ones. */
  read(cursor: number, limit: number): { events: BoxEvent[]; cursor: number; more: boolean } {
    this.ensureOpen();
    const events: BoxEvent[] = [];
    if (cursor >= this.lastSeq || limit <= 0) return { events, cursor: Math.max(0, Math.min(cursor, this.lastSeq)), more: cursor < this.lastSeq };
    let position = this.offsetBefore(cursor + 1);
    let more = false;
    let fd: number;
    try {
      fd = fs.openSync(this.eventsFile, "r");
    } catch {
      return { events, cursor: Math.max(0, cursor), more: false }; // deleted by hand: revalidate() remakes it
    }
    try {
      let carry = "";
      const buffer = Buffer.alloc(READ_CHUNK);
      outer: while (position < this.size) {
        const n = fs.readSync(fd, buffer, 0, Math.min(READ_CHUNK, this.size - position), position);
        if (n <= 0) break;
        position += n;
        const lines = (carry + buffer.toString("utf8", 0, n)).split("\n");
        carry = lines.pop() ?? "";
        for (const line of lines) {
          const event = parseEvent(line);
          if (!event || event.seq <= cursor) continue;
          if (events.length >= limit) {
            more = true;
            break outer;
          }
          events.push(event);
        }
      }
    } finally {
      fs.closeSync(fd);
    }
    const last = events.length > 0 ? events[events.length - 1]!.seq : Math.max(0, cursor);
    return { events, cursor: last, more: more || last < this.lastSeq };
  }

  /** Records a run's start or end (a partial `BoxRunInfo`, folded by `runs()`). */
  recordRun(record: Partial<BoxRunInfo> & { runId: string }): void {
    this.ensureOpen();
    fs.writeSync(this.runsFd!, JSON.stringify(record) + "\n");
  }

  /** Every run this log knows, folded from its records, in start order. */
  runs(): BoxRunInfo[] {
    this.ensureOpen();
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
  }

  /** Closes the log and deletes its folder. */
  remove(): void {
    this.closeFds();
    fs.rmSync(this.dir, { recursive: true, force: true });
    this.lastSeq = 0;
    this.size = 0;
    this.index = [];
    this.logIdValue = "";
  }

  private closeFds(): void {
    for (const fd of [this.eventsFd, this.runsFd]) if (fd !== undefined) try { fs.closeSync(fd); } catch { /* already closed */ }
    this.eventsFd = this.runsFd = undefined;
  }

  private ensureOpen(): void {
    if (this.eventsFd === undefined) this.openFiles(true);
  }

  private openFiles(load: boolean): void {
    fs.mkdirSync(this.dir, { recursive: true });
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
    if (load) this.load();
    else {
      this.size = 0;
      this.index = [];
    }
    this.eventsFd = fs.openSync(this.eventsFile, "a");
    this.runsFd = fs.openSync(this.runsFile, "a");
    this.repairTornLine(this.runsFile, this.runsFd);
  }

  /** Reads the existing log once: its last sequence number and the offsets index. */
  private load(): void {
    this.lastSeq = 0;
    this.size = 0;
    this.index = [];
    let fd: number;
    try {
      fd = fs.openSync(this.eventsFile, "r");
    } catch {
      return;
    }
    try {
      const buffer = Buffer.alloc(READ_CHUNK);
      let position = 0;
      let lineStart = 0;
      let carry = Buffer.alloc(0);
      for (;;) {
        const n = fs.readSync(fd, buffer, 0, READ_CHUNK, position);
        if (n <= 0) break;
        const chunk = Buffer.concat([carry, buffer.subarray(0, n)]);
        let from = 0;
        for (let nl = chunk.indexOf(10, from); nl >= 0; nl = chunk.indexOf(10, from)) {
          const event = parseEvent(chunk.toString("utf8", from, nl));
          if (event && event.seq > this.lastSeq) {
            this.remember(event.seq, lineStart);
            this.lastSeq = event.seq;
          }
          lineStart += nl - from + 1;
          from = nl + 1;
        }
        carry = chunk.subarray(from);
        position += n;
      }
      this.size = position;
      if (carry.length > 0) {
        // A line torn by a crash: end it so the next append starts on a line of its own.
        fs.appendFileSync(this.eventsFile, "\n");
        this.size += 1;
      }
    } finally {
      fs.closeSync(fd);
    }
  }

  private remember(seq: number, offset: number): void {
    const last = this.index[this.index.length - 1];
    if (!last || seq - last[0] >= INDEX_EVERY) this.index.push([seq, offset]);
  }

  /** The offset of the last indexed line whose seq is at most `seq` (0 when none is). */
  private offsetBefore(seq: number): number {
    let lo = 0;
    let hi = this.index.length - 1;
    let found = 0;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const [s, offset] = this.index[mid]!;
      if (s <= seq) {
        found = offset;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
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

function parseEvent(line: string): BoxEvent | undefined {
  if (line.length === 0) return undefined;
  try {
    const event = JSON.parse(line) as BoxEvent;
    return typeof event?.seq === "number" ? event : undefined;
  } catch {
    return undefined;
  }
}

/** Runs of several boxes, newest first, started within [since, until], at most `limit`. */
export function selectRuns(runs: BoxRunInfo[], window: { since?: number; until?: number; limit?: number }): { runs: BoxRunInfo[]; truncated: boolean } {
  const since = window.since ?? -Infinity;
  const until = window.until ?? Infinity;
  const limit = Math.max(0, window.limit ?? 50);
  const inWindow = runs
    .filter((r) => r.startedAt >= since && r.startedAt <= until)
    .sort((a, b) => b.startedAt - a.startedAt || compareRunIds(b.runId, a.runId));
  return { runs: inWindow.slice(0, limit), truncated: inWindow.length > limit };
}

/** Run ids are `run-<seq>`: later runs of one box have larger numbers. */
function compareRunIds(a: string, b: string): number {
  const na = Number(a.replace(/^\D+/, ""));
  const nb = Number(b.replace(/^\D+/, ""));
  return Number.isFinite(na) && Number.isFinite(nb) && na !== nb ? na - nb : a.localeCompare(b);
}
