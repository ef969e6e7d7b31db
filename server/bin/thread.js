// Runs the package's commands (`sanoma-check`, and `sanoma-language-server` over stdio) in a worker
// thread whose young generation is kept small (issue 23).
//
// Why: V8 grows a process's young generation up to 16 MB a semi-space (32 MB for its two) when much
// of what is made survives, and a check keeps most of what it makes (every file's facts), as a
// server keeps every file's facts and a lockfile's bindings. On the 10,000-file bench company that
// growth was a fifth of the check's peak memory, and a young generation of a few MB ran no slower
// (docs/bench.md, "The check in a worker thread"). Node sets the young generation's size only at
// start: by a flag (`--max-semi-space-size`, which a `#!/usr/bin/env -S node ...` line would give,
// but BusyBox's `env` and so Alpine's CI images cannot run such a line, and which a client that
// starts `sanoma-language-server --stdio` as its README says does not give), or for a worker
// thread, by its `resourceLimits`. A second process would cost a second Node (39 MB) for as long as
// the command runs; a thread costs 12.
//
// This thread loads nothing but Node's `worker_threads` and `tty`, and for the check a reader of a
// few KB that reads the company's files ahead of the worker while it reads facts
// (server/src/node/read-ahead.ts): the bundle is loaded in the worker only. The command writes its
// output straight to the process's stdout (check/main.ts, node/fd-output.ts say why); whatever
// else a worker writes to its streams is piped to this process's, in the order written, and Node
// passes on all of it before the worker's `exit`; its exit code is the process's.
"use strict";
// (`node:tty` is required where used, on this thread: a worker that requires this file for
// `takeBundle` would load it, and `net` with it, for nothing.)
const { MessageChannel, Worker, receiveMessageOnPort, workerData } = require("node:worker_threads");

/** The check's young generation, in MB (V8 splits it in three: two semi-spaces and room for large objects). */
const YOUNG_GENERATION_MB = 6;

/** How long a worker waits for the bundle this thread reads for it (`bundle`) before it reads the bundle itself. */
const HAND_OVER_WAIT_MS = 1000;

/** How long a signal's end may take in the worker (its boxes stopped) before this thread ends the process itself. */
const SIGNAL_GRACE_MS = 3000;

/**
 * Runs `file` (a CommonJS script) in a worker thread given this process's arguments, told whether
 * stdout and stderr are terminals (its own are pipes to this thread: `workerData.tty`). The
 * process's exit code becomes the worker's; a worker that cannot start at all (a Node without
 * threads, a sandbox that forbids them) is `fallback` run here instead. An error thrown in the
 * worker and not caught there is reported with its stack and exit code `errorExitCode`, a worker
 * out of memory as such: never a silent exit (for the check, never the code 1 that means
 * "problems found").
 *
 * For a server (`server: true`): this process's stdin is passed on to the worker's (its end, the
 * client gone, too); what the worker prints on its own stdout goes to stderr, so that nothing but
 * the server's messages (written to descriptor 1 by the worker itself, `workerData.stdio === "fd"`)
 * reaches the client; SIGTERM, SIGINT and SIGHUP are posted to the worker (`{ signal }`), which
 * cannot receive signals itself, to end as it would on them, and the process ends with the worker.
 *
 * `readAhead` (the check's): the reader's bundle, run here for the worker (`workerData.readAhead`);
 * SANOMA_READ_AHEAD=off, or a reader that will not load, leaves the worker to read alone.
 * `bundle`: the bundle the worker loads with V8's code cache: read here (its bytes, its cache's)
 * while the worker starts, which takes as long, and handed over (`takeBundle`).
 * `v8Flags`: V8's flags for the process, set here before the worker's isolate is made (V8's flags
 * are the process's: a worker cannot be given its own); the worker's `requireCached` is to be told
 * the same, as the code cache's name holds them.
 */
function runInThread(file, { fallback, argv = process.argv.slice(2), youngGenerationMb = YOUNG_GENERATION_MB, name = "sanoma-check", errorExitCode = 2, server = false, readAhead, bundle, v8Flags = [] } = {}) {
  // (Set before anything of ours is compiled here or there. A flag V8 does not know, it ignores
  // with a line on stderr: the callers' flags are known to every V8 of a Node the package runs on.)
  if (v8Flags.length > 0) require("node:v8").setFlagsFromString(v8Flags.join(" "));
  let worker;
  const handOver = bundle ? { channel: new MessageChannel(), flag: new SharedArrayBuffer(4) } : undefined;
  // Reading ahead for the worker (`readAhead`: the reader's bundle, node/read-ahead.ts): a port and
  // shared memory, the reader run here once the worker is started. A reader that will not load is
  // no reader: the worker reads alone.
  let reader;
  try {
    if (readAhead && process.env.SANOMA_READ_AHEAD !== "off") reader = require(readAhead);
  } catch {}
  const channel = reader && new MessageChannel();
  const shared = reader && reader.sharedMemory();
  try {
    worker = new Worker(file, {
      argv,
      // (`isatty`, not `process.stdout.isTTY`: making this thread's stdout stream would make a pipe
      // on descriptor 1 non-blocking, for the worker's writes to it too.)
      workerData: {
        tty: { out: require("node:tty").isatty(1), err: require("node:tty").isatty(2) },
        stdio: server ? "fd" : undefined,
        readAhead: channel ? { port: channel.port2, shared } : undefined,
        bundle: handOver ? { port: handOver.channel.port2, flag: handOver.flag } : undefined,
      },
      transferList: [channel && channel.port2, handOver && handOver.channel.port2].filter(Boolean),
      resourceLimits: { maxYoungGenerationSizeMb: youngGenerationMb },
      stdin: server,
      stdout: server,
    });
  } catch {
    return fallback();
  }
  if (handOver) handBundleOver(bundle, handOver.channel.port1, new Int32Array(handOver.flag), v8Flags);
  if (channel) {
    const stopReader = reader.startReader({ port: channel.port1, shared });
    worker.on("exit", stopReader);
  }
  let failed = false;
  worker.on("error", (e) => {
    failed = true;
    const outOfMemory = e && e.code === "ERR_WORKER_OUT_OF_MEMORY";
    process.stderr.write(outOfMemory
      ? `${name}: out of memory; give Node more with NODE_OPTIONS=--max-old-space-size=<MB>\n`
      : `${name}: internal error: ${(e && e.stack) || e}\n`);
  });
  if (!server) {
    worker.on("exit", (code) => { process.exitCode = failed ? errorExitCode : code; });
    return;
  }
  process.stdin.pipe(worker.stdin);
  worker.stdout.pipe(process.stderr);
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) {
    process.on(signal, () => {
      worker.postMessage({ signal });
      setTimeout(() => process.exit(0), SIGNAL_GRACE_MS).unref();
    });
  }
  // (An explicit end: this thread's reading of stdin would keep the process alive after the worker.)
  worker.on("exit", (code) => process.exit(failed ? errorExitCode : code));
}

/** Reads the worker's bundle for it (code-cache.js's `readForCache`), posts it (its buffers moved, not copied), and says so. */
function handBundleOver(bundle, port, flag, v8Flags) {
  try {
    const read = require("./code-cache.js").readForCache(bundle, process.env, v8Flags);
    if (read) {
      const own = (b) => b !== undefined && b.byteOffset === 0 && b.buffer.byteLength === b.length;
      port.postMessage(read, [read.bytes, read.cachedData].filter(own).map((b) => b.buffer));
    }
  } catch {}
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
}

/**
 * In the worker: the bundle the first thread read for it (`readForCache`'s answer, for
 * `requireCached`), waited for at most HAND_OVER_WAIT_MS; undefined when there is none (no cache
 * folder, not a worker of runInThread's, too late), and the worker reads it itself.
 */
function takeBundle() {
  const handed = workerData && workerData.bundle;
  if (!handed) return undefined;
  try {
    Atomics.wait(new Int32Array(handed.flag), 0, 0, HAND_OVER_WAIT_MS);
    const got = receiveMessageOnPort(handed.port);
    handed.port.close();
    if (!got) return undefined;
    // (A Buffer arrives as a Uint8Array.)
    const buffer = (u) => u && Buffer.from(u.buffer, u.byteOffset, u.byteLength);
    return { ...got.message, bytes: buffer(got.message.bytes), cachedData: buffer(got.message.cachedData) };
  } catch {
    return undefined;
  }
}

module.exports = { runInThread, takeBundle, YOUNG_GENERATION_MB };
