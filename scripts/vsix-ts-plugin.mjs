// Adds the TypeScript plugin to a packaged .vsix, where tsserver looks for it:
// `extension/node_modules/@sanoma-ai/typescript-plugin/` (package.json and dist/index.js).
//
// VS Code passes an extension's `typescriptServerPlugins` to tsserver as `--globalPlugins <name>
// --pluginProbeLocations <extension folder>`, and tsserver resolves the name as a package from
// `<extension folder>/node_modules`; a path elsewhere in the extension is never tried. But `vsce
// package` leaves out the extension's `node_modules/` whatever `.vscodeignore` says (with or without
// `--no-dependencies`), so the two files are written into the archive here, after vsce: the zip's
// central directory is rewritten with them appended (stored deflated, CRC-32 from zlib).
//
// That copy's `main` is `dist/vscode.js`, the plugin with `languageServer: true` by default: the
// extension always runs the Sanoma language server, and VS Code sends `configurePlugin` to its
// semantic TypeScript server only, never to the syntax server that answers completion, definitions
// and hovers, which must leave them to the language server too (docs/vscode.md). A user's own
// install (`compilerOptions.plugins`) keeps `dist/index.js`, and its defaults.
//
//   node scripts/vsix-ts-plugin.mjs sanoma.vsix
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { crc32, deflateRawSync } from "node:zlib";

const repo = join(import.meta.dirname, "..");
const vsix = process.argv[2] ?? join(repo, "sanoma.vsix");
const base = "extension/node_modules/@sanoma-ai/typescript-plugin";
const pkg = JSON.parse(readFileSync(join(repo, "ts-plugin", "package.json"), "utf8"));
// What tsserver reads of the package: its name, version and main (no scripts, no files list).
const manifest = { name: pkg.name, version: pkg.version, description: pkg.description, license: pkg.license, main: "./dist/vscode.js" };
const vscodeEntry = `// The TypeScript plugin as the Sanoma VS Code extension ships it: the language server runs beside it.
const init = require("./index.js");
module.exports = (modules) => init(modules, { languageServer: true });
`;
const added = [
  { name: `${base}/package.json`, data: Buffer.from(JSON.stringify(manifest, null, 2) + "\n") },
  { name: `${base}/dist/index.js`, data: readFileSync(join(repo, "ts-plugin", "dist", "index.js")) },
  { name: `${base}/dist/vscode.js`, data: Buffer.from(vscodeEntry) },
  { name: `${base}/LICENSE`, data: readFileSync(join(repo, "ts-plugin", "LICENSE")) },
  { name: `${base}/dist/THIRD-PARTY-NOTICES.md`, data: readFileSync(join(repo, "ts-plugin", "dist", "THIRD-PARTY-NOTICES.md")) },
];

const zip = readFileSync(vsix);
const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
if (eocd < 0) throw new Error(`${vsix} is no zip archive`);
const count = zip.readUInt16LE(eocd + 10);
const cdSize = zip.readUInt32LE(eocd + 12);
const cdOffset = zip.readUInt32LE(eocd + 16);
const centralBefore = zip.subarray(cdOffset, cdOffset + cdSize);
const names = new Set();
for (let at = 0; at < centralBefore.length;) {
  const n = centralBefore.readUInt16LE(at + 28), extra = centralBefore.readUInt16LE(at + 30), comment = centralBefore.readUInt16LE(at + 32);
  names.add(centralBefore.toString("utf8", at + 46, at + 46 + n));
  at += 46 + n + extra + comment;
}
if (added.some((f) => names.has(f.name))) throw new Error(`${vsix} holds the TypeScript plugin already`);

// 1980-01-01 00:00 in DOS time: the same archive for the same inputs.
const dosTime = 0, dosDate = (0 << 9) | (1 << 5) | 1;
const locals = [];
const centrals = [];
let offset = cdOffset;
for (const f of added) {
  const name = Buffer.from(f.name, "utf8");
  const packed = deflateRawSync(f.data, { level: 9 });
  const crc = crc32(f.data);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4); // version needed
  local.writeUInt16LE(0x0800, 6); // UTF-8 names
  local.writeUInt16LE(8, 8); // deflate
  local.writeUInt16LE(dosTime, 10);
  local.writeUInt16LE(dosDate, 12);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(packed.length, 18);
  local.writeUInt32LE(f.data.length, 22);
  local.writeUInt16LE(name.length, 26);
  local.writeUInt16LE(0, 28);
  locals.push(local, name, packed);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE((3 << 8) | 20, 4); // made by: unix
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(0x0800, 8);
  central.writeUInt16LE(8, 10);
  central.writeUInt16LE(dosTime, 12);
  central.writeUInt16LE(dosDate, 14);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(packed.length, 20);
  central.writeUInt32LE(f.data.length, 24);
  central.writeUInt16LE(name.length, 28);
  central.writeUInt32LE((0o100644 << 16) >>> 0, 38); // a regular file, rw-r--r--
  central.writeUInt32LE(offset, 42);
  centrals.push(central, name);
  offset += 30 + name.length + packed.length;
}
const centralAfter = Buffer.concat([centralBefore, ...centrals]);
const end = Buffer.alloc(22);
end.writeUInt32LE(0x06054b50, 0);
end.writeUInt16LE(count + added.length, 8);
end.writeUInt16LE(count + added.length, 10);
end.writeUInt32LE(centralAfter.length, 12);
end.writeUInt32LE(offset, 16);
writeFileSync(vsix, Buffer.concat([zip.subarray(0, cdOffset), ...locals, centralAfter, end]));
console.log(`added the TypeScript plugin to ${vsix} (${added.map((f) => f.name.slice(base.length + 1)).join(", ")})`);
