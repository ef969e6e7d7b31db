/**
 * Writing straight to a file descriptor of the process (1, stdout), synchronously, from a worker
 * thread: the package's commands run in one (`server/bin/thread.js`), and a worker's own stdout is
 * a pipe to the thread that started it, which holds all that is written until that thread has
 * passed it on (a check's report of 228 MB twice over; a server's answers behind a burst of
 * diagnostics). Node itself writes to files and, on Linux, to pipes synchronously.
 */
import { writeSync } from "node:fs";
import { Writable } from "node:stream";

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes all of `bytes` to `fd`; false when the descriptor takes no more (its reader gone: EPIPE).
 * A descriptor another process made non-blocking (a pipe it shares) answers EAGAIN while its
 * reader is behind: the write waits a millisecond and goes on. Any other failure (a full disk:
 * ENOSPC, EIO) is thrown: what was asked for was not written, and the caller must say so.
 */
export function writeAllSync(fd: number, bytes: Uint8Array): boolean {
  for (let at = 0; at < bytes.length;) {
    try {
      at += writeSync(fd, bytes, at);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "EAGAIN") { Atomics.wait(pause, 0, 0, 1); continue; }
      if (code === "EPIPE") return false;
      throw e;
    }
  }
  return true;
}

/** A stream whose every write goes straight to `fd` (`writeAllSync`); a reader gone, or a write that failed, is the stream's error. */
export function fdWritable(fd: number): Writable {
  return new Writable({
    write(chunk: Buffer, _encoding, done) {
      let written: boolean;
      try { written = writeAllSync(fd, chunk); } catch (e) { done(e as Error); return; }
      done(written ? undefined : Object.assign(new Error(`descriptor ${fd} takes no more`), { code: "EPIPE" }));
    },
  });
}
