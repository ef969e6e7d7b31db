#!/usr/bin/env node
// sanoma-language-server: the Sanoma language server for any LSP client (--stdio or --node-ipc).
require("./code-cache.js").requireCached(require("node:path").join(__dirname, "../dist/sanoma.js")).languageServer();
