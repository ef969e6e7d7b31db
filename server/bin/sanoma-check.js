#!/usr/bin/env node
// sanoma-check: every rule over the Sanoma companies under the given folders (--help).
require("./code-cache.js").requireCached(require("node:path").join(__dirname, "../dist/sanoma.js")).check();
