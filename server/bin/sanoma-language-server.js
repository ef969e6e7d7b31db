#!/usr/bin/env node
// sanoma-language-server: the Sanoma language server for any LSP client (--stdio or --node-ipc).
// Over stdio (what a client gets by default) the server runs in a worker thread with the small
// young generation the VS Code extension gives it by a Node option, which another client does not
// give (thread.js says why); over node IPC, a socket or a pipe, and on Windows, it runs here.
"use strict";
const path = require("node:path");
const { isMainThread } = require("node:worker_threads");

/** The young generation the server's worker is given: V8's under the extension's `--max-semi-space-size=4` (two semi-spaces of 4 MB, and a third for large objects). */
const SERVER_YOUNG_GENERATION_MB = 12;

const BUNDLE = path.join(__dirname, "../dist/sanoma.js");
const serve = () => require("./code-cache.js").requireCached(BUNDLE, process.env, require("./thread.js").takeBundle).languageServer();
const args = process.argv.slice(2);
const overStdio = !args.some((a) => a === "--node-ipc" || a === "--version" || a.startsWith("--socket") || a.startsWith("--pipe"));
if (isMainThread && overStdio && process.platform !== "win32") {
  require("./thread.js").runInThread(__filename, { fallback: serve, youngGenerationMb: SERVER_YOUNG_GENERATION_MB, name: "sanoma-language-server", errorExitCode: 1, server: true, bundle: BUNDLE });
} else serve();
