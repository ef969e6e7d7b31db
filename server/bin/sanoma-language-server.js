#!/usr/bin/env node
// sanoma-language-server: the Sanoma language server for any LSP client (--stdio or --node-ipc).
require("../dist/sanoma.js").languageServer();
