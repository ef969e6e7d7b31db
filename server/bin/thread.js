// Runs `sanoma-check` in a worker thread whose young generation is kept small (issue 23).
//
// Why: V8 grows a process's young generation up to 16 MB a semi-space (32 MB for its two) when much
// of what is made survives, and a check keeps most of what it makes (every file's facts). On the
// 10,000-file bench company that growth was a fifth of the check's peak memory, and a young
// generation of a few MB ran no slower (docs/bench.md, "The check in a worker thread"). Node sets
// the young generation's size only at start: by a flag (`--max-semi-space-size`, which a
// `#!/usr/bin/env -S node ...` line would give, but BusyBox's `env` and so Alpine's CI images
// cannot run such a line), or for a worker thread, by its `resourceLimits`. A second process
// would cost a second Node (39 MB) for as long as the check runs; a thread costs 12.
//
// This thread loads nothing but Node's `worker_threads`: the bundle is loaded in the worker only.
// The check writes its report straight to the process's stdout and stderr (server/src/check/main.ts
// says why); whatever else a worker writes to its streams is piped to this process's, in the order
// written, and Node passes on all of it before the worker's `exit`; its exit code is the process's.
"use strict";
const tty = require("node:tty");
const { Worker } = require("node:worker_threads");

/** The worker's young generation, in MB (V8 splits it in three: two semi-spaces and room for large objects). */
const YOUNG_GENERATION_MB = 6;

/**
 * Runs `file` (a CommonJS script) in a worker thread given this process's arguments, told whether
 * stdout and stderr are terminals (its own are pipes to this thread: `workerData.tty`). The
 * process's exit code becomes the worker's; a worker that cannot start at all (a Node without
 * threads, a sandbox that forbids them) is `fallback` run here instead. An error thrown in the
 * worker and not caught there is reported with its stack and exit code 2, a worker out of memory
 * as such: never a silent exit, and never the code 1 that means "problems found".
 */
function runInThread(file, { fallback, argv = process.argv.slice(2), youngGenerationMb = YOUNG_GENERATION_MB, name = "sanoma-check" } = {}) {
  let worker;
  try {
    worker = new Worker(file, {
      argv,
      // (`isatty`, not `process.stdout.isTTY`: making this thread's stdout stream would make a pipe
      // on descriptor 1 non-blocking, for the worker's writes to it too.)
      workerData: { tty: { out: tty.isatty(1), err: tty.isatty(2) } },
      resourceLimits: { maxYoungGenerationSizeMb: youngGenerationMb },
    });
  } catch {
    return fallback();
  }
  let failed = false;
  worker.on("error", (e) => {
    failed = true;
    const outOfMemory = e && e.code === "ERR_WORKER_OUT_OF_MEMORY";
    process.stderr.write(outOfMemory
      ? `${name}: out of memory; give Node more with NODE_OPTIONS=--max-old-space-size=<MB>\n`
      : `${name}: internal error: ${(e && e.stack) || e}\n`);
  });
  worker.on("exit", (code) => { process.exitCode = failed ? 2 : code; });
}

module.exports = { runInThread, YOUNG_GENERATION_MB };
