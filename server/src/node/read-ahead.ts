/**
 * Reading ahead on the package's first thread (issue 23). `sanoma-check` runs in a worker thread
 * (`server/bin/thread.js`), and the thread that started it had nothing to do but wait. It now
 * reads the company's files ahead of the worker, in the order the worker reads them, while the
 * worker reads facts: the worker's reading (opening, reading and closing 10,000 files) is done
 * beside it.
 *
 * Two halves: `startReader`, run on the first thread (bundled alone as `server/dist/read-ahead.js`:
 * that thread never loads the big bundle), and `readAheadFrom`, the worker's `ReadAhead`
 * (core/types.ts). The worker says which files over a port, a few thousand paths at a time as it
 * goes; the bytes come back through memory both threads share (`sharedMemory`): a ring of slots
 * the reader fills and the worker empties, handed over by counters in that memory, so no message
 * and no buffer is made per file. What keeps it exact and safe:
 * - A file's bytes are read as `nodeFileSystem.readFile` reads them and decoded as it decodes them.
 *   Anything but the plain case (a file of nothing, one too big for a slot's room or for
 *   `FIRST_READ_BYTES`, one that cannot be opened or read: a folder, a FIFO, a file gone) is left
 *   to the worker, which reads it itself with every care `readFile` takes.
 * - The worker takes a file only in the order it asked for; at the first file out of that order it
 *   stops taking and reads for itself, as it does when the reader has ended or failed.
 * - The worker never waits on a reader that is gone: the reader says when it has ended a run (done
 *   or failed), and a wait of more than `STALL_MS` for one slot ends the reading ahead.
 * - Memory is bounded, whatever the company's size: `SLOTS` slots, and `PATHS_AHEAD` paths or so.
 */
import * as fs from "node:fs";
import type { MessagePort } from "node:worker_threads";
import type { ReadAhead } from "../core/types.ts";
import { decodeText, FIRST_READ_BYTES, openToRead, readUpTo } from "./fs.ts";

/** What the two threads share: a port (the worker's runs go over it) and the memory `sharedMemory()` makes. */
export interface ReadAheadChannel {
  port: MessagePort;
  shared: SharedArrayBuffer;
}

/** The slots the reader fills in turn, each at most `SLOT_FILES` files and `SLOT_BYTES` of their bytes. */
const SLOTS = 8;
const SLOT_FILES = 128;
const SLOT_BYTES = 256 * 1024;
/** A slot is closed once it has less room than this left (a file that does not fit is the worker's to read). */
const SLOT_CLOSE = 32 * 1024;
/** The longest the worker waits for one slot before it reads for itself. */
const STALL_MS = 30_000;

/** The counters, at the start of the shared memory's words: slots filled by the reader and taken by the worker (ever), the last run the reader ended (done or failed) and the last the worker stopped. */
const FILLED = 0;
const TAKEN = 1;
const READER_ENDED = 2;
const WORKER_STOPPED = 3;
const COUNTERS = 4;
/** A slot's words: its run, its first file's index, its number of files, then each file's end in the slot's bytes, then whether each was read (0: the worker is to read it). */
const SLOT_RUN = 0;
const SLOT_FIRST = 1;
const SLOT_COUNT = 2;
const SLOT_ENDS = 3;
const SLOT_READ = SLOT_ENDS + SLOT_FILES;
const SLOT_WORDS = SLOT_READ + SLOT_FILES;
const BYTES_AT = 4 * (COUNTERS + SLOTS * SLOT_WORDS);

/** The memory the two halves share: 2 MB, the same whatever the company's size. */
export function sharedMemory(): SharedArrayBuffer {
  return new SharedArrayBuffer(BYTES_AT + SLOTS * SLOT_BYTES);
}

/**
 * The worker asks: read these files, in this order, from the run's `first` (of `total` in all).
 * A run's paths come a part at a time, `PATHS_AHEAD` ahead of what the worker takes, so that the
 * reader never holds a copy of a whole company's list (10 MB at 100,000 files).
 */
interface Paths { run: number; first: number; total: number; files: string[] }
const PATHS_AHEAD = 4096;

/**
 * The first thread's half: reads ahead whatever the worker asks over `channel`, a slot a turn of
 * the event loop (so the worker's exit is heard), never more than `SLOTS` slots ahead of it; what
 * it returns stops it. Never throws: a failure ends the run, and the worker reads the rest itself.
 */
export function startReader(channel: ReadAheadChannel): () => void {
  const words = new Int32Array(channel.shared, 0, BYTES_AT / 4);
  const bytes = Buffer.from(channel.shared, BYTES_AT);
  /** The run being read, the paths known of it (from its file `known`), and its next file to read. */
  let current: { run: number; total: number } | undefined;
  let paths: string[] = [];
  let known = 0;
  let next = 0;
  let scheduled = false;

  const end = (run: number) => {
    Atomics.store(words, READER_ENDED, run);
    Atomics.notify(words, FILLED);
  };

  /** Reads one file into `bytes` at `at`, at most `room` bytes: its length, or -1 when the worker is to read it. */
  const readInto = (file: string, at: number, room: number): number => {
    let fd: number | undefined;
    try {
      fd = openToRead(file);
      const cap = Math.min(room, FIRST_READ_BYTES);
      const length = readUpTo(fd, bytes, at, cap);
      // (Nothing read, or all there was room for: the worker reads it, with readFile's every care.)
      return length === 0 || length === cap ? -1 : length;
    } catch {
      return -1;
    } finally {
      if (fd !== undefined) try { fs.closeSync(fd); } catch { /* already gone */ }
    }
  };

  const fill = () => {
    scheduled = false;
    const run = current;
    if (!run) return;
    try {
      if (Atomics.load(words, WORKER_STOPPED) >= run.run || next >= run.total) { current = undefined; paths = []; end(run.run); return; }
      // (No path yet for the next file: its part is on its way, and its message fills again.)
      if (next >= known + paths.length) return;
      const filled = Atomics.load(words, FILLED);
      if (filled - Atomics.load(words, TAKEN) >= SLOTS) { schedule(1); return; }
      const slot = (filled % SLOTS) * SLOT_WORDS + COUNTERS;
      const base = (filled % SLOTS) * SLOT_BYTES;
      const count = Math.min(SLOT_FILES, known + paths.length - next);
      let used = 0;
      let i = 0;
      for (; i < count && SLOT_BYTES - used >= SLOT_CLOSE; i++) {
        const file = paths[next - known + i];
        const length = readInto(file, base + used, SLOT_BYTES - used);
        if (length >= 0) used += length;
        words[slot + SLOT_ENDS + i] = used;
        words[slot + SLOT_READ + i] = length >= 0 ? 1 : 0;
      }
      words[slot + SLOT_RUN] = run.run;
      words[slot + SLOT_FIRST] = next;
      words[slot + SLOT_COUNT] = i;
      next += i;
      // (The slot's words and bytes are written before the count that hands it over: Atomics order them.)
      Atomics.add(words, FILLED, 1);
      Atomics.notify(words, FILLED);
      schedule(0);
    } catch {
      current = undefined;
      paths = [];
      end(run.run);
    }
  };
  const schedule = (ms: number) => {
    if (scheduled) return;
    scheduled = true;
    if (ms === 0) setImmediate(fill);
    else setTimeout(fill, ms);
  };

  channel.port.on("message", (m: Paths) => {
    if (current?.run === m.run) {
      // The run's next part: the paths read already are let go.
      if (m.first !== known + paths.length) return;
      paths = paths.slice(next - known).concat(m.files);
      known = next;
    } else {
      // A new run (a part of one ended already is dropped).
      if (m.first !== 0 || Atomics.load(words, WORKER_STOPPED) >= m.run) return;
      if (current) end(current.run);
      current = { run: m.run, total: m.total };
      paths = m.files;
      known = 0;
      next = 0;
    }
    schedule(0);
  });
  // Stopped (the worker gone): no run left to wait on, and the port no longer keeps this thread alive.
  return () => {
    current = undefined;
    paths = [];
    channel.port.close();
  };
}

/**
 * The worker's half: a `ReadAhead` over `channel`. Each `start` is a run of its own; slots of a run
 * the worker has left are passed over.
 */
export function readAheadFrom(channel: ReadAheadChannel): ReadAhead {
  const words = new Int32Array(channel.shared, 0, BYTES_AT / 4);
  const bytes = Buffer.from(channel.shared, BYTES_AT);
  let run = 0;
  let files: readonly string[] = [];
  let next = 0;
  /** How many of the run's paths the reader has been sent. */
  let sent = 0;
  let taking = false;
  /** The slot being taken from (its words' index), or -1; its first file and number of files. */
  let slot = -1;
  let first = 0;
  let count = 0;

  /** Hands the slot being taken from back to the reader. */
  const release = () => {
    if (slot < 0) return;
    slot = -1;
    Atomics.add(words, TAKEN, 1);
    Atomics.notify(words, TAKEN);
  };

  const stop = () => {
    release();
    if (!taking) return;
    taking = false;
    Atomics.store(words, WORKER_STOPPED, run);
  };

  /** Moves to the next slot of this run, waited for; false when the reader has ended the run or stalled. */
  const nextSlot = (): boolean => {
    release();
    let waited = 0;
    for (;;) {
      const taken = Atomics.load(words, TAKEN);
      if (Atomics.load(words, FILLED) > taken) {
        const at = COUNTERS + (taken % SLOTS) * SLOT_WORDS;
        if (words[at + SLOT_RUN] === run) {
          slot = at;
          first = words[at + SLOT_FIRST];
          count = words[at + SLOT_COUNT];
          return true;
        }
        Atomics.add(words, TAKEN, 1); // a slot of a run left earlier
        continue;
      }
      if (Atomics.load(words, READER_ENDED) >= run) return false;
      if (waited >= STALL_MS) return false;
      const t0 = Date.now();
      Atomics.wait(words, FILLED, taken, 1000);
      waited += Date.now() - t0;
    }
  };

  /** Sends the reader the run's paths up to `upTo` (those it has not been sent). */
  const send = (upTo: number) => {
    const until = Math.min(upTo, files.length);
    if (until <= sent) return;
    const message: Paths = { run, first: sent, total: files.length, files: files.slice(sent, until) };
    channel.port.postMessage(message);
    sent = until;
  };

  return {
    start(list) {
      stop();
      run++;
      files = list;
      next = 0;
      sent = 0;
      taking = true;
      send(PATHS_AHEAD);
    },
    take(file) {
      if (!taking) return undefined;
      if (files[next] !== file) { stop(); return undefined; }
      const i = next++;
      if (i + PATHS_AHEAD / 2 >= sent) send(i + PATHS_AHEAD);
      while (slot < 0 || i >= first + count) {
        if (!nextSlot()) { stop(); return undefined; }
      }
      const k = i - first;
      if (words[slot + SLOT_READ + k] === 0) return undefined;
      const base = ((slot - COUNTERS) / SLOT_WORDS) * SLOT_BYTES;
      return decodeText(bytes, base + (k === 0 ? 0 : words[slot + SLOT_ENDS + k - 1]), base + words[slot + SLOT_ENDS + k]);
    },
    end: stop,
  };
}
