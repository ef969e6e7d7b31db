/**
 * The `sanoma-check` process: wires the check to the real disk, stdout and stderr. What goes to
 * stdout is written a megabyte at a time as it comes (a report of 500,000 problems is never one
 * string); what goes to stderr is written at once until stdout has had text, then kept until
 * stdout's last piece is flushed, so the summary comes last on a terminal.
 */
import { isMainThread, workerData } from "node:worker_threads";
import { nodeFileSystem } from "../node/fs.ts";
import { runCheck } from "./cli.ts";
import { writeIfUnchanged } from "./write.ts";

/** Stdout's text gathered before a write: pieces are small (a line, a problem), writes are not. */
const OUT_WRITE = 1024 * 1024;

/**
 * Whether stdout and stderr are terminals: asked of the streams, or, in the worker thread the
 * package's command runs the check in (`server/bin/check-thread.js`), told by the thread that
 * started it (a worker's own streams are pipes to that thread).
 */
const told = isMainThread ? undefined : (workerData as { tty?: { out?: unknown; err?: unknown } } | null)?.tty;
const tty = told ? { out: told.out === true, err: told.err === true } : { out: process.stdout.isTTY === true, err: process.stderr.isTTY === true };

let outPieces: string[] = [];
let outLength = 0;
let outStarted = false;
const errAfterOut: string[] = [];

function writeOut(done?: () => void): void {
  const text = outPieces.join("");
  outPieces = [];
  outLength = 0;
  if (text !== "") process.stdout.write(text, done ? () => done() : undefined);
  else done?.();
}

const code = runCheck(process.argv.slice(2), {
  fs: nodeFileSystem,
  cwd: process.cwd(),
  out: (text) => {
    outStarted = true;
    outPieces.push(text);
    outLength += text.length;
    if (outLength >= OUT_WRITE) writeOut();
  },
  err: (text) => { if (outStarted) errAfterOut.push(text); else process.stderr.write(text); },
  now: () => Date.now(),
  env: process.env,
  tty,
  writeIfUnchanged,
});

// Stdout's last piece, flushed (and so every one before it), then what stderr was kept, then the exit.
writeOut(() => {
  const err = errAfterOut.join("");
  if (err === "") process.exit(code);
  else process.stderr.write(err, () => process.exit(code));
});
