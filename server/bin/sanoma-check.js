#!/usr/bin/env node
// sanoma-check: every rule over the Sanoma companies under the given folders (--help).
require("../dist/sanoma.js").check();
