#!/usr/bin/env node
// sanoma-check: every rule over the Sanoma companies under the given folders (--help).
// The check runs in a worker thread with a small young generation (thread.js says why);
// this thread starts it, reads its bundle for it meanwhile, and reads the files ahead of it.
"use strict";
const path = require("node:path");
const { isMainThread } = require("node:worker_threads");

const BUNDLE = path.join(__dirname, "../dist/sanoma.js");
// No Maglev (V8's middle compiler, on by default from Node 22): on Node 24 it took the check of
// 10,000 files from 138 to 177 MB at its peak, for no time saved; a no-op on Node 20, neutral on
// 22 (docs/bench.md, "Maglev"). The language server keeps it: it runs for hours, and is within its goal.
const V8_FLAGS = ["--no-maglev"];
const check = () => require("./code-cache.js").requireCached(BUNDLE, process.env, require("./thread.js").takeBundle, V8_FLAGS).check();
if (isMainThread) require("./thread.js").runInThread(__filename, { fallback: check, readAhead: path.join(__dirname, "../dist/read-ahead.js"), bundle: BUNDLE, v8Flags: V8_FLAGS });
else check();
