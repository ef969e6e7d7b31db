/**
 * `npm run package` makes a small, self-contained `.vsix`: this runs it, then reads the archive's
 * central directory (no unzip needed) and checks the file list against `.vscodeignore`'s intent
 * (bundled code, grammar, schema, icons, README, CHANGELOG, LICENSE), the size (under 2 MB), and
 * that every path the manifest names is inside.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { TsServer } from "../support/tsserver.ts";
import { inflateRawSync } from "node:zlib";

const repo = join(__dirname, "..", "..");
const vsix = join(repo, "sanoma.vsix");
const maxBytes = 2 * 1024 * 1024;

interface Entry { name: string; method: number; compressedSize: number; offset: number }

/** The entries of a zip archive, from its central directory. */
function zipEntries(zip: Buffer): Entry[] {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(eocd >= 0, "a zip archive");
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const entries: Entry[] = [];
  for (let i = 0; i < count; i++) {
    assert.equal(zip.readUInt32LE(at), 0x02014b50, "a central directory entry");
    const nameLength = zip.readUInt16LE(at + 28), extra = zip.readUInt16LE(at + 30), comment = zip.readUInt16LE(at + 32);
    entries.push({
      name: zip.toString("utf8", at + 46, at + 46 + nameLength),
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      offset: zip.readUInt32LE(at + 42),
    });
    at += 46 + nameLength + extra + comment;
  }
  return entries;
}

function readEntry(zip: Buffer, entry: Entry): Buffer {
  const local = entry.offset;
  const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
  const data = zip.subarray(start, start + entry.compressedSize);
  return entry.method === 0 ? data : inflateRawSync(data);
}

test("npm run package makes a small vsix holding only what runs", () => {
  const started = Date.now();
  const run = spawnSync("npm", ["run", "package"], { cwd: repo, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  assert.equal(run.status, 0, `npm run package failed:\n${run.stdout}\n${run.stderr}`);
  const size = statSync(vsix).size;
  console.log(`packaged ${vsix}: ${(size / 1024).toFixed(1)} KB in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  assert.ok(size < maxBytes, `the vsix is ${size} bytes, more than 2 MB`);

  const zip = readFileSync(vsix);
  const entries = zipEntries(zip);
  const files = entries.map((e) => e.name).filter((n) => n.startsWith("extension/")).map((n) => n.slice("extension/".length)).sort();
  const required = [
    "package.json",
    "dist/client.js",
    "dist/server.js",
    "dist/code-cache.js",
    "dist/THIRD-PARTY-NOTICES.md",
    "syntaxes/sanoma.injection.tmLanguage.json",
    "schemas/sanoma.lock.schema.json",
    "schemas/sanomarc.schema.json",
    "media/icon.png",
    "media/activitybar.svg",
    "changelog.md",
    "readme.md",
    "LICENSE.txt", // vsce names the LICENSE so
    // The TypeScript plugin, where tsserver looks for it (added after vsce: scripts/vsix-ts-plugin.mjs).
    "node_modules/@sanoma-ai/typescript-plugin/package.json",
    "node_modules/@sanoma-ai/typescript-plugin/dist/index.js",
    "node_modules/@sanoma-ai/typescript-plugin/dist/vscode.js",
    "node_modules/@sanoma-ai/typescript-plugin/LICENSE",
    "node_modules/@sanoma-ai/typescript-plugin/dist/THIRD-PARTY-NOTICES.md",
    // The rule pages the diagnostics link to (the server links the ones shipped beside it).
    ...readdirSync(join(repo, "docs", "rules")).filter((f) => f.endsWith(".md")).map((f) => `docs/rules/${f}`),
  ];
  // vsce lower-cases README and CHANGELOG.
  const optional = new Set<string>();
  for (const f of required) assert.ok(files.includes(f), `${f} is in the vsix`);
  const unexpected = files.filter((f) => !required.includes(f) && !optional.has(f));
  assert.deepEqual(unexpected, [], "nothing else is in the vsix (no sources, maps, tests or node_modules)");

  // Every path the packaged manifest names is in the package.
  const manifest = JSON.parse(readEntry(zip, entries.find((e) => e.name === "extension/package.json")!).toString("utf8"));
  const named = [
    manifest.main,
    manifest.icon,
    ...manifest.contributes.grammars.map((g: { path: string }) => g.path),
    ...manifest.contributes.jsonValidation.map((j: { url: string }) => j.url),
    ...manifest.contributes.viewsContainers.activitybar.map((v: { icon: string }) => v.icon),
  ].map((p: string) => p.replace(/^\.\//, ""));
  for (const p of named) assert.ok(files.includes(p), `${p}, named by package.json, is in the vsix`);
  // The server bundle runs without node_modules beside it.
  const server = readEntry(zip, entries.find((e) => e.name === "extension/dist/server.js")!).toString("utf8");
  assert.doesNotMatch(server, /require\("vscode-languageserver/, "the server is bundled");
  // The contributed TypeScript plugin is the package in the vsix.
  assert.deepEqual(manifest.contributes.typescriptServerPlugins, [{ name: "@sanoma-ai/typescript-plugin", enableForWorkspaceTypeScriptVersions: true }]);
  const plugin = JSON.parse(readEntry(zip, entries.find((e) => e.name === "extension/node_modules/@sanoma-ai/typescript-plugin/package.json")!).toString("utf8"));
  assert.equal(plugin.name, "@sanoma-ai/typescript-plugin");
  assert.ok(files.includes(`node_modules/@sanoma-ai/typescript-plugin/${plugin.main.replace(/^\.\//, "")}`), "its main is in the vsix");
});

test("tsserver loads the TypeScript plugin from the unpacked vsix, as VS Code passes it (--globalPlugins, --pluginProbeLocations)", { timeout: 120_000 }, async () => {
  const zip = readFileSync(vsix);
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-vsix-")));
  try {
    // The extension as VS Code unpacks it (only what tsserver reads of it).
    const ext = join(dir, "extensions", "sanoma-ai.sanoma-0.1.0");
    for (const e of zipEntries(zip)) {
      if (!e.name.startsWith("extension/node_modules/")) continue;
      const to = join(ext, e.name.slice("extension/".length));
      mkdirSync(dirname(to), { recursive: true });
      writeFileSync(to, readEntry(zip, e));
    }
    // A company with no tsconfig and no plugin of its own: the global plugin alone.
    const co = join(dir, "co");
    mkdirSync(join(co, "workflows"), { recursive: true });
    writeFileSync(join(co, "sanoma.config.ts"), "export default {};\n");
    const wf = join(co, "workflows", "w.ts");
    writeFileSync(wf, `export const w = (ctx: { call(id: string): void }) => ctx.call("data.nope.get");\n`);
    const s = new TsServer({ cwd: co, tsserver: join(repo, "node_modules", "typescript", "lib", "tsserver.js"), args: ["--globalPlugins", "@sanoma-ai/typescript-plugin", "--pluginProbeLocations", ext] });
    try {
      s.open(wf);
      const text = readFileSync(wf, "utf8");
      const at = { file: wf, line: 1, offset: text.indexOf("data.nope") + 3 };
      // The copy in the extension leaves problems and navigation to the extension's language server…
      assert.deepEqual((await s.semantic(wf)).filter((d) => d.source === "sanoma"), []);
      assert.deepEqual(await s.request("definition", at), []);
      // …until the extension says the server is down (configurePlugin, as the extension sends it).
      await s.request("configurePlugin", { pluginName: "@sanoma-ai/typescript-plugin", configuration: { languageServer: false } });
      assert.deepEqual((await s.semantic(wf)).filter((d) => d.source === "sanoma").map((d) => d.message), ["No collection `nope` in data.nope.get"]);
    } finally { await s.close(); }
  } finally { rmSync(dir, { recursive: true, force: true }); }
});
