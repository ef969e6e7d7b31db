#!/usr/bin/env node
// sanoma-check: every rule over the Sanoma companies under the given folders (--help).
// The check runs in a worker thread with a small young generation (thread.js says why);
// this thread starts it, reads its bundle for it meanwhile, and reads the files ahead of it.
"use strict";
const path = require("node:path");
const { isMainThread } = require("node:worker_threads");

const BUNDLE = path.join(__dirname, "../dist/sanoma.js");
const check = () => require("./code-cache.js").requireCached(BUNDLE, process.env, require("./thread.js").takeBundle).check();
if (isMainThread) require("./thread.js").runInThread(__filename, { fallback: check, readAhead: path.join(__dirname, "../dist/read-ahead.js"), bundle: BUNDLE });
else check();
