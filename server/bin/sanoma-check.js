#!/usr/bin/env node
// sanoma-check: every rule over the Sanoma companies under the given folders (--help).
// The check runs in a worker thread with a small young generation (thread.js says why);
// this thread only starts it.
"use strict";
const path = require("node:path");
const { isMainThread } = require("node:worker_threads");

const check = () => require("./code-cache.js").requireCached(path.join(__dirname, "../dist/sanoma.js")).check();
if (isMainThread) require("./thread.js").runInThread(__filename, { fallback: check, readAhead: path.join(__dirname, "../dist/read-ahead.js") });
else check();
