/**
 * The bundles as the runtime holds them: every one is ASCII, since a single non-ASCII character
 * (a `→` in a comment) makes V8 keep the whole source, 11 MB for the server, two bytes a character.
 * And as they are shipped: whatever ships a bundle ships the licence of every package whose code
 * is in it.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";

const repo = join(__dirname, "..", "..");
const BUNDLES = ["dist/server.js", "dist/check.js", "dist/client.js", "server/dist/sanoma.js", "server/dist/read-ahead.js", "ts-plugin/dist/index.js", "lint-plugin/dist/index.mjs"];

test("every bundle is ASCII, so V8 holds its source one byte a character", () => {
  for (const bundle of BUNDLES) {
    const bytes = readFileSync(join(repo, bundle));
    const first = bytes.findIndex((b) => b > 0x7f);
    assert.equal(first, -1, `${bundle}: a non-ASCII byte at offset ${first}: ${bytes.subarray(Math.max(0, first - 40), first + 10).toString("utf8")}`);
  }
});

/** The packages whose code a bundle of these entry points holds, as esbuild finds them (bundled here again, apart from scripts/build.mjs, written nowhere). */
async function packagesIn(entryPoints: string[], options: Record<string, unknown> = {}): Promise<string[]> {
  const names = new Set<string>();
  for (const entry of entryPoints) {
    const r = await build({ entryPoints: [join(repo, entry)], bundle: true, platform: "node", format: "cjs", write: false, metafile: true, logLevel: "silent", absWorkingDir: repo, ...options });
    for (const input of Object.keys(r.metafile.inputs)) {
      const m = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
      if (m) names.add(m[1]);
    }
  }
  return [...names].sort();
}

test("every package a company installs, and the VS Code extension, ships the licences of the third-party code its bundles hold", async () => {
  const shipped = [
    { what: "@sanoma-ai/language-server", entries: ["server/src/bin.ts"], notices: "server/dist/THIRD-PARTY-NOTICES.md", pkg: "server" },
    { what: "@sanoma-ai/typescript-plugin", entries: ["ts-plugin/src/index.ts"], notices: "ts-plugin/dist/THIRD-PARTY-NOTICES.md", pkg: "ts-plugin", options: { alias: { typescript: "./ts-plugin/src/host-typescript.ts" } } },
    { what: "@sanoma-ai/lint-plugin", entries: ["lint-plugin/src/index.ts"], notices: undefined, pkg: "lint-plugin" },
    { what: "the VS Code extension", entries: ["server/src/lsp/main.ts", "client/src/extension.ts"], notices: "dist/THIRD-PARTY-NOTICES.md", pkg: undefined, options: { external: ["vscode"] } },
  ];
  for (const { what, entries, notices, pkg, options } of shipped) {
    const packages = await packagesIn(entries, options);
    if (notices === undefined) { assert.deepEqual(packages, [], `${what} bundles no third-party code (else it ships notices)`); continue; }
    assert.ok(packages.length > 0, `${what}: its bundles hold third-party code`);
    const text = readFileSync(join(repo, notices), "utf8");
    for (const name of packages) {
      const at = text.indexOf(`\n## ${name} `);
      assert.ok(at >= 0, `${what}: ${notices} names ${name}`);
      assert.match(text.slice(at, at + 4000), /\n\n\S[^\n]*\n[\s\S]*(licen[cs]e|permission|copyright)/i, `${what}: ${name}'s licence text follows its heading`);
    }
    if (pkg === undefined) continue; // (the .vsix's list: test/package/vsix.test.ts)
    const r = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: join(repo, pkg), encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    const files = (JSON.parse(r.stdout)[0].files as { path: string }[]).map((f) => f.path);
    assert.ok(files.includes(notices.slice(pkg.length + 1)), `${what}'s tarball ships ${notices}: ${files.join(", ")}`);
  }
});
