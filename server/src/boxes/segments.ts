/**
 * Reading a box's event log segments (`events.ts`): one segment file scanned for its sparse index
 * and sequence numbers, and the events after a cursor read from an indexed offset. Lines that are
 * not events (a line torn by a crash) are passed over.
 */
import * as fs from "node:fs";
import type { BoxEvent } from "../protocol.ts";

/** Lines between two remembered offsets: reading from a cursor seeks, then parses at most this many. */
const INDEX_EVERY = 256;
const READ_CHUNK = 256 * 1024;

/**
 * One segment file read whole (up to `limit` bytes), or from `start` on (a line's start: a reader
 * catching up with what a writer appended since): its sparse index, first and last seq, size,
 * where its last whole line ends, and whether a line after it is torn (or still being written).
 */
export function scanSegment(file: string, limit: number, start = 0): { index: Array<[number, number]>; firstSeq: number | undefined; lastSeq: number; size: number; end: number; torn: boolean } {
  const index: Array<[number, number]> = [];
  let firstSeq: number | undefined, lastSeq = 0, position = start;
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch {
    return { index, firstSeq, lastSeq, size: 0, end: 0, torn: false };
  }
  let carry = Buffer.alloc(0);
  let lineStart = start;
  try {
    const buffer = Buffer.alloc(READ_CHUNK);
    while (position < limit) {
      const n = fs.readSync(fd, buffer, 0, Math.min(READ_CHUNK, limit - position), position);
      if (n <= 0) break;
      const chunk = Buffer.concat([carry, buffer.subarray(0, n)]);
      let from = 0;
      for (let nl = chunk.indexOf(10, from); nl >= 0; nl = chunk.indexOf(10, from)) {
        const event = parseEvent(chunk.toString("utf8", from, nl));
        if (event && event.seq > lastSeq) {
          remember(index, event.seq, lineStart);
          firstSeq ??= event.seq;
          lastSeq = event.seq;
        }
        lineStart += nl - from + 1;
        from = nl + 1;
      }
      carry = chunk.subarray(from);
      position += n;
    }
  } finally {
    fs.closeSync(fd);
  }
  return { index, firstSeq, lastSeq, size: position, end: lineStart, torn: carry.length > 0 };
}

/** Adds a line to a sparse index when it is INDEX_EVERY events past the last one indexed. */
export function remember(index: Array<[number, number]>, seq: number, offset: number): void {
  const last = index[index.length - 1];
  if (!last || seq - last[0] >= INDEX_EVERY) index.push([seq, offset]);
}

/** The offset of the last indexed line whose seq is at most `seq` (0 when none is). */
export function offsetBefore(index: Array<[number, number]>, seq: number): number {
  let lo = 0;
  let hi = index.length - 1;
  let found = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [s, offset] = index[mid]!;
    if (s <= seq) {
      found = offset;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Appends to `events` the events of one segment with seq > cursor, from `position`; true when `limit` stopped it short. */
export function readSegment(file: string, size: number, position: number, cursor: number, limit: number, events: BoxEvent[]): boolean {
  let fd: number;
  try {
    fd = fs.openSync(file, "r");
  } catch {
    return false; // deleted by hand: revalidate() remakes the log
  }
  try {
    let carry = "";
    const buffer = Buffer.alloc(READ_CHUNK);
    while (position < size) {
      const n = fs.readSync(fd, buffer, 0, Math.min(READ_CHUNK, size - position), position);
      if (n <= 0) break;
      position += n;
      const lines = (carry + buffer.toString("utf8", 0, n)).split("\n");
      carry = lines.pop() ?? "";
      for (const line of lines) {
        const event = parseEvent(line);
        if (!event || event.seq <= cursor) continue;
        if (events.length >= limit) return true;
        events.push(event);
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return false;
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
