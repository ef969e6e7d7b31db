/**
 * The `sanoma-check` process: wires the check to the real disk, stdout and stderr. What goes to
 * stdout is written a megabyte at a time as it comes (a report of 500,000 problems is never one
 * string); what goes to stderr is written at once until stdout has had text, then kept until
 * stdout's last piece is flushed, so the summary comes last on a terminal.
 */
import { realpathSync } from "node:fs";
import * as path from "node:path";
import { isMainThread, workerData } from "node:worker_threads";
import { writeAllSync } from "../node/fd-output.ts";
import { nodeFileSystem } from "../node/fs.ts";
import { readAheadFrom, type ReadAheadChannel } from "../node/read-ahead.ts";
import { runCheck } from "./cli.ts";
import { fixRefusal, startsWithByteOrderMark, writeIfUnchanged } from "./write.ts";

/** Stdout's text gathered before a write: pieces are small (a line, a problem), writes are not. */
const OUT_WRITE = 1024 * 1024;

/**
 * Whether stdout and stderr are terminals: asked of the streams, or, in the worker thread the
 * package's command runs the check in (`server/bin/thread.js`), told by the thread that
 * started it (a worker's own streams are pipes to that thread).
 */
const told = isMainThread ? undefined : (workerData as { tty?: { out?: unknown; err?: unknown } } | null)?.tty;
const tty = told ? { out: told.out === true, err: told.err === true } : { out: process.stdout.isTTY === true, err: process.stderr.isTTY === true };

/**
 * How text reaches stdout and stderr: through Node's streams, or, in that worker thread on POSIX,
 * written straight to the process's file descriptors, synchronously, as Node itself writes to files
 * and (on Linux) to pipes. A worker's own streams are pipes to the thread that started it: they
 * take all the check writes at once and hold it until that thread has passed it on, so a report of
 * 228 MB (500,000 problems) was held twice over, 400 MB more at the peak. (Windows keeps the
 * streams: a console takes text through them, not bytes through a descriptor.)
 */
const straight = told !== undefined && process.platform !== "win32";

/** The reading ahead the thread that started this one does for it (node/read-ahead.ts), if it does. */
const readAheadChannel = isMainThread ? undefined : (workerData as { readAhead?: ReadAheadChannel } | null)?.readAhead;

/** Whether stdout's reader is gone (a pipe closed: `sanoma-check | head`): what is left of the report is dropped. */
let outGone = false;
/**
 * Why stdout failed otherwise (a full disk: ENOSPC), if it did: the report is not all there, which
 * is said, and the exit code is 2, so that a CI step does not pass on an empty SARIF file.
 */
let outFailed: string | undefined;

function outError(e: unknown): void {
  if (e === null || e === undefined) return;
  const code = (e as NodeJS.ErrnoException).code;
  outGone = true;
  if (code !== "EPIPE") outFailed ??= code ?? String(e);
}
// (Through Node's stream: its failures come as events, which would otherwise end the process.)
process.stdout.on("error", outError);

/** Writes all of `text` to `fd`; false when the descriptor will take no more (its reader gone). */
function writeAll(fd: number, text: string): boolean {
  return writeAllSync(fd, Buffer.from(text, "utf8"));
}

function writeErr(text: string, done?: () => void): void {
  // (Stderr failing too leaves nowhere to say anything: the exit code still tells.)
  if (straight) { try { writeAll(2, text); } catch { /* nowhere to say it */ } done?.(); } else process.stderr.write(text, done ? () => done() : undefined);
}

let outPieces: string[] = [];
let outLength = 0;
let outStarted = false;
const errAfterOut: string[] = [];

function writeOut(done?: () => void): void {
  const text = outPieces.join("");
  outPieces = [];
  outLength = 0;
  if (text === "") done?.();
  else if (straight) {
    if (!outGone) { try { outGone = !writeAll(1, text); } catch (e) { outError(e); } }
    done?.();
  } else if (outGone) done?.();
  else process.stdout.write(text, (e) => { outError(e); done?.(); });
}

/** Stderr's text: written at once until stdout has had text, then kept until stdout's last piece is out. */
function err(text: string): void {
  if (outStarted) errAfterOut.push(text); else writeErr(text);
}

/**
 * The working folder as the shell names it (`$PWD`, when that is this very folder, reached through
 * a link), else the real one (`process.cwd()` resolves links): paths are shown from where the user
 * stands, and `sanoma-check "$PWD/co"` in a linked folder prints `co/…`, not `../link/co/…`.
 */
function workingFolder(): string {
  const real = process.cwd();
  const pwd = process.env.PWD;
  if (pwd && pwd !== real && path.isAbsolute(pwd)) {
    try { if (realpathSync(pwd) === real) return path.normalize(pwd); } catch { /* gone, or not ours */ }
  }
  return real;
}

let code: number;
try {
  code = runCheck(process.argv.slice(2), {
    fs: nodeFileSystem,
    cwd: workingFolder(),
    out: (text) => {
      outStarted = true;
      outPieces.push(text);
      outLength += text.length;
      if (outLength >= OUT_WRITE) writeOut();
    },
    err,
    now: () => Date.now(),
    env: process.env,
    tty,
    writeIfUnchanged,
    fixRefusal,
    startsWithByteOrderMark,
    readAhead: readAheadChannel && readAheadFrom(readAheadChannel),
  });
} catch (e) {
  // A fault of ours, not a finding: said with its stack, and exit code 2 (1 means "problems
  // found"), as the package's command says it for an error thrown in its worker.
  err(`sanoma-check: internal error: ${(e instanceof Error && e.stack) || String(e)}\n`);
  code = 2;
}

// Stdout's last piece, flushed (and so every one before it), then what stderr was kept, then the exit.
writeOut(() => {
  if (outFailed !== undefined) {
    errAfterOut.push(`sanoma-check: the report could not be written to stdout (${outFailed}): it is not whole\n`);
    code = 2;
  }
  const kept = errAfterOut.join("");
  if (kept === "") process.exit(code);
  else writeErr(kept, () => process.exit(code));
});
