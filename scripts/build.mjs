// Bundles each entry point with esbuild: the server, the check command, the VS Code client, the
// lint plugin and the TypeScript plugin are single files that need nothing installed beside them.
import { build } from "esbuild";
import { chmodSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const common = { bundle: true, platform: "node", target: "node20", format: "cjs", sourcemap: "linked", logLevel: "warning", legalComments: "none" };
const production = process.argv.includes("--production");

await Promise.all([
  build({ ...common, entryPoints: ["server/src/lsp/main.ts"], outfile: "dist/server.js", minify: production, banner: { js: "#!/usr/bin/env node" } }),
  build({ ...common, entryPoints: ["server/src/check/main.ts"], outfile: "dist/check.js", minify: production, banner: { js: "#!/usr/bin/env node" } }),
  build({ ...common, entryPoints: ["client/src/extension.ts"], outfile: "dist/client.js", external: ["vscode"], minify: production }),
  build({ ...common, entryPoints: ["lint-plugin/src/index.ts"], outfile: "lint-plugin/dist/index.mjs", format: "esm", minify: false, sourcemap: false }),
  // The TypeScript plugin: CommonJS for tsserver's require, the core's `typescript` being the one
  // tsserver passes to the plugin (an alias to a shim: ts-plugin/src/host-typescript.ts).
  build({ ...common, entryPoints: ["ts-plugin/src/index.ts"], outfile: "ts-plugin/dist/index.js", alias: { typescript: "./ts-plugin/src/host-typescript.ts" }, minify: false, sourcemap: false }),
].map((p) => p.catch((e) => { console.error(e.message); process.exitCode = 1; })));
for (const f of ["dist/server.js", "dist/check.js"]) { try { chmodSync(f, 0o755); } catch {} }

// The plugin's recommended config for oxlint, which reads JSON configs only: the rules of the
// plugin's own `configs.recommended`, with the bundle beside it (oxlint resolves a `jsPlugins` path
// from the config file that names it, so `extends` of this file works from anywhere).
if (!process.exitCode) {
  const { default: plugin } = await import(pathToFileURL(resolve("lint-plugin/dist/index.mjs")).href);
  const recommended = { jsPlugins: ["./index.mjs"], rules: plugin.configs.recommended.rules };
  writeFileSync("lint-plugin/dist/oxlint-recommended.json", JSON.stringify(recommended, null, 2) + "\n");
}
