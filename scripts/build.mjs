// Bundles each entry point with esbuild: the server, the check command, the VS Code client, the
// lint plugin and the TypeScript plugin are single files that need nothing installed beside them;
// the language-server package (server/) ships the server and the check command as one bundle.
import { build } from "esbuild";
import { chmodSync, copyFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const common = { bundle: true, platform: "node", target: "node20", format: "cjs", sourcemap: "linked", logLevel: "warning", legalComments: "none" };
const production = process.argv.includes("--production");

await Promise.all([
  // The VS Code extension's two bundles (the .vsix ships them, and the licences of the code in them: dist/THIRD-PARTY-NOTICES.md, below).
  Promise.all([
    build({ ...common, entryPoints: ["server/src/lsp/main.ts"], outfile: "dist/server.js", minify: production, metafile: true, banner: { js: "#!/usr/bin/env node" } }),
    build({ ...common, entryPoints: ["client/src/extension.ts"], outfile: "dist/client.js", external: ["vscode"], minify: production, metafile: true }),
  ]).then(([server, client]) => writeFileSync("dist/THIRD-PARTY-NOTICES.md", notices([server.metafile, client.metafile], "The extension's bundles (`dist/server.js`, `dist/client.js`) hold"))),
  build({ ...common, entryPoints: ["server/src/check/main.ts"], outfile: "dist/check.js", minify: production, banner: { js: "#!/usr/bin/env node" } }),
  build({ ...common, entryPoints: ["lint-plugin/src/index.ts"], outfile: "lint-plugin/dist/index.mjs", format: "esm", minify: false, sourcemap: false }),
  // The @sanoma-ai/language-server package (server/): both commands in one bundle, and the licences
  // of the code bundled in it. Whitespace and syntax minified, names kept: V8 holds the source
  // text for as long as the process runs, and reads it at every start (11 MB unminified: 7.3 MB
  // takes 60 ms and 7 MB less, docs/bench.md); a stack trace still names every function. No
  // source map: the bundle is loaded through `vm.Script` (bin/code-cache.js), which Node's
  // source-map support does not read.
  // The reader the package's first thread runs for the check's worker (node/read-ahead.ts): alone, small.
  build({ ...common, entryPoints: ["server/src/node/read-ahead.ts"], outfile: "server/dist/read-ahead.js", sourcemap: false, minifyWhitespace: true, minifySyntax: true, banner: { js: "/* @sanoma-ai/language-server: bundled */\n/* eslint-disable */" } }),
  build({ ...common, entryPoints: ["server/src/bin.ts"], outfile: "server/dist/sanoma.js", sourcemap: false, metafile: true, minifyWhitespace: true, minifySyntax: true, banner: { js: "/* @sanoma-ai/language-server: bundled; third-party licences in THIRD-PARTY-NOTICES.md */\n/* eslint-disable */" } })
    .then((r) => writeFileSync("server/dist/THIRD-PARTY-NOTICES.md", notices([r.metafile], "This package's bundle (`dist/sanoma.js`) holds"))),
  // The TypeScript plugin: CommonJS for tsserver's require, the core's `typescript` being the one
  // tsserver passes to the plugin (an alias to a shim: ts-plugin/src/host-typescript.ts). The
  // core's `zod` is in it: its licence goes with it.
  build({ ...common, entryPoints: ["ts-plugin/src/index.ts"], outfile: "ts-plugin/dist/index.js", alias: { typescript: "./ts-plugin/src/host-typescript.ts" }, minify: false, sourcemap: false, metafile: true, banner: { js: "/* @sanoma-ai/typescript-plugin: bundled; third-party licences in THIRD-PARTY-NOTICES.md */" } })
    .then((r) => writeFileSync("ts-plugin/dist/THIRD-PARTY-NOTICES.md", notices([r.metafile], "This package's bundle (`dist/index.js`) holds"))),
].map((p) => p.catch((e) => { console.error(e.message); process.exitCode = 1; })));
for (const f of ["dist/server.js", "dist/check.js"]) { try { chmodSync(f, 0o755); } catch {} }
// The loader that starts a bundle from V8's code cache, beside the extension's server (the client
// starts `dist/code-cache.js dist/server.js`); the package's copy is server/bin/code-cache.js itself.
if (!process.exitCode) copyFileSync("server/bin/code-cache.js", "dist/code-cache.js");

// Every bundle in ASCII: a few comments carry non-ASCII characters (→, …), and one such character
// makes V8 hold the whole source (11 MB for the server) two bytes per character. esbuild already
// escapes strings and identifiers; a comment's characters escaped the same way read the same.
if (!process.exitCode) {
  for (const f of ["dist/server.js", "dist/check.js", "dist/client.js", "server/dist/sanoma.js", "server/dist/read-ahead.js", "ts-plugin/dist/index.js", "lint-plugin/dist/index.mjs"]) {
    const text = readFileSync(f, "utf8");
    const ascii = text.replace(/[\u0080-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
    if (ascii !== text) writeFileSync(f, ascii);
  }
}

/** The licence of every package whose code a package's bundles hold (from esbuild's metafiles), for the package that ships them. */
function notices(metafiles, holds) {
  const packages = new Map();
  for (const input of metafiles.flatMap((m) => Object.keys(m.inputs))) {
    const m = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (!m) continue;
    const dir = input.slice(0, m.index + m[0].length - 1);
    if (!packages.has(m[1])) packages.set(m[1], dir);
  }
  const out = ["# Third-party notices", "", `${holds} code of these packages, under these licences.`, ""];
  for (const [name, dir] of [...packages].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(f));
    out.push(`## ${name} ${pkg.version} (${pkg.license ?? "see below"})`, "", file ? readFileSync(join(dir, file), "utf8").trim() : "(no licence file in the package)", "");
    // A package's own notices of what it holds (TypeScript's ThirdPartyNoticeText.txt).
    for (const f of readdirSync(dir).filter((f) => /^third-?party/i.test(f))) out.push(`### ${name}: ${f}`, "", readFileSync(join(dir, f), "utf8").trim(), "");
  }
  return out.join("\n");
}

// The plugin's recommended config for oxlint, which reads JSON configs only: the rules of the
// plugin's own `configs.recommended`, with the bundle beside it (oxlint resolves a `jsPlugins` path
// from the config file that names it, so `extends` of this file works from anywhere).
if (!process.exitCode) {
  const { default: plugin } = await import(pathToFileURL(resolve("lint-plugin/dist/index.mjs")).href);
  const recommended = { jsPlugins: ["./index.mjs"], rules: plugin.configs.recommended.rules };
  writeFileSync("lint-plugin/dist/oxlint-recommended.json", JSON.stringify(recommended, null, 2) + "\n");
}
