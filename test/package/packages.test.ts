/**
 * The packages a company installs (SPEC B3a), as a company would: each packed with `npm pack`,
 * installed into a fresh project holding a company, with nothing else of this repository, by the
 * install lines of its own README (the "before publication" line, the tarball standing in for the
 * registry; the registry line is that line with the package's name for the tarball), and then
 * each README's use lines run as written, read from its code blocks so that README and test
 * cannot drift. oxlint (a peer the plugin's install line names) comes from the registry, from
 * npm's cache where it can.
 *
 *   - `@sanoma-ai/language-server` (`server/`): `sanoma-check` and `sanoma-language-server`;
 *   - `@sanoma-ai/lint-plugin` (`lint-plugin/`): oxlint and ESLint, and none of its own files
 *     warned about by oxlint's default rules in a project without a `.gitignore`;
 *   - (`@sanoma-ai/typescript-plugin`, `ts-plugin/`, joins this list when it lands.)
 *
 * Needs `node scripts/build.mjs` first (the packages' bundles), as `npm test` runs it.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import Ajv from "ajv";
import { IMPORT_RULE_IDS } from "../../server/src/core/rules/ids.ts";
import { LspClient, uri } from "../support/lsp.ts";

const REPO = resolve(import.meta.dirname, "..", "..");
const SERVER_PKG = join(REPO, "server");
const PLUGIN_PKG = join(REPO, "lint-plugin");

/** npm as a user's shell runs it: none of an outer npm's settings, the cache preferred, no audit or fund noise. */
const ENV: Record<string, string> = {
  ...Object.fromEntries(Object.entries(process.env).filter(([k, v]) => !/^npm_/i.test(k) && v !== undefined)) as Record<string, string>,
  npm_config_prefer_offline: "true", npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false", npm_config_loglevel: "error",
};

let project = "";
const tarballs: Record<string, string> = {};

/** A README's fenced blocks of a language. */
function blocks(readme: string, lang: string): string[] {
  return [...readme.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]);
}

/** The lines of a README's `sh` blocks, in order. */
function shLines(readme: string): string[] {
  return blocks(readme, "sh").flatMap((b) => b.split("\n")).map((l) => l.trim()).filter((l) => l !== "" && !l.startsWith("#"));
}

function sh(line: string, options: { stdin?: string } = {}): SpawnSyncReturns<string> {
  const r = spawnSync("bash", ["-c", line], { cwd: project, encoding: "utf8", env: ENV, input: options.stdin ?? "", timeout: 300_000, maxBuffer: 64 << 20 });
  if (r.error) throw r.error;
  return r;
}

/** Runs a README's install lines: the tarball line as written; the registry line is the same line with the package's name. */
function install(readme: string, name: string): void {
  const lines = shLines(readme).filter((l) => l.startsWith("npm install"));
  const tarball = tarballs[name];
  const local = lines.filter((l) => l.includes(`./${tarball}`));
  assert.equal(local.length, 1, `one install line from ./${tarball} in ${name}'s README:\n${lines.join("\n")}`);
  assert.ok(lines.includes(local[0].replace(`./${tarball}`, name)), `the registry line is the tarball's with the name: ${lines.join(" | ")}`);
  const r = sh(local[0]);
  assert.equal(r.status, 0, `${local[0]}\n${r.stdout}\n${r.stderr}`);
}

before(() => {
  project = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-company-repo-")));
  // A company's repository: its package.json, a company (with the fake framework and connector
  // packages it imports, in its own node_modules), no .gitignore.
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "acme-repo", version: "1.0.0", private: true, type: "module" }, null, 2));
  cpSync(join(REPO, "examples", "acme-broken"), join(project, "acme"), { recursive: true });
  for (const dir of [SERVER_PKG, PLUGIN_PKG]) {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    // (--ignore-scripts: prepack would build the repository again; the build is done.)
    const r = spawnSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", project], { cwd: dir, encoding: "utf8", env: ENV });
    assert.equal(r.status, 0, r.stderr);
    const [packed] = JSON.parse(r.stdout);
    assert.equal(packed.filename, `${pkg.name.replace("@", "").replace("/", "-")}-${pkg.version}.tgz`);
    assert.ok(packed.files.some((f: { path: string }) => f.path === "LICENSE") && packed.files.some((f: { path: string }) => f.path === "README.md"), `${pkg.name} ships its README and licence`);
    tarballs[pkg.name] = packed.filename;
  }
});
after(() => { if (project) rmSync(project, { recursive: true, force: true }); });

test("@sanoma-ai/language-server: installed from its tarball by its README's line, its use lines work as written, with nothing of this repository", async () => {
  const readme = readFileSync(join(SERVER_PKG, "README.md"), "utf8");
  install(readme, "@sanoma-ai/language-server");
  const installed = join(project, "node_modules", "@sanoma-ai", "language-server");
  assert.equal(realpathSync(installed), installed, "a copy, not a link into the repository");
  const pkg = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
  assert.deepEqual(pkg.dependencies, undefined, "no dependencies");
  for (const bin of ["sanoma-check", "sanoma-language-server"]) assert.ok(existsSync(join(project, "node_modules", ".bin", bin)), bin);
  assert.equal(sh("npx sanoma-check --version").stdout, `sanoma-check ${pkg.version}\n`);
  // Its reader (server/dist/read-ahead.js) is shipped: the first thread reads the files ahead of the check.
  assert.match(sh("npx sanoma-check --verbose").stderr, /acme: \d+ files \([1-9]\d* read ahead by another thread\)/);

  const uses = shLines(readme).filter((l) => l.startsWith("npx "));
  assert.deepEqual(uses.map((l) => l.split(" ")[1]), ["sanoma-check", "sanoma-check", "sanoma-check", "sanoma-check", "sanoma-language-server"]);
  // The packaged command says what the repository's says.
  const json = sh("npx sanoma-check --format json");
  const repoJson = spawnSync(process.execPath, [join(REPO, "dist", "check.js"), "--format", "json"], { cwd: project, encoding: "utf8" });
  assert.equal(json.stdout, repoJson.stdout);
  const problems = JSON.parse(json.stdout).problems.length;
  assert.ok(problems > 20);
  for (const line of uses) {
    if (line.includes("sanoma-language-server")) continue;
    const r = sh(line);
    assert.equal(r.status, 1, `${line}: the company has errors\n${r.stderr}`);
    if (line === "npx sanoma-check") assert.equal(r.stdout.trim().split("\n").length, problems);
    else if (line.includes("--format sarif")) {
      const log = JSON.parse(readFileSync(join(project, "sanoma.sarif"), "utf8"));
      const schema = JSON.parse(readFileSync(join(REPO, "test", "check", "sarif-schema-2.1.0.json"), "utf8"));
      const validate = new Ajv({ allErrors: true }).compile({ ...schema, $schema: "http://json-schema.org/draft-07/schema#" });
      assert.equal(validate(log), true, JSON.stringify(validate.errors));
      assert.equal(log.runs[0].results.length, problems);
    } else if (line.includes("--format github")) assert.equal(r.stdout.trim().split("\n").filter((l) => /^::(error|warning|notice) file=acme\//.test(l)).length, problems);
    else if (line.includes("--fix-dry-run")) assert.match(r.stdout, /^--- a\/acme\//);
    else assert.fail(`a use line this test does not know: ${line}`);
  }
  // The language server line, driven as an editor drives it.
  const line = uses.find((l) => l.includes("sanoma-language-server"))!;
  const c = new LspClient({ command: line.split(" "), cwd: project });
  try {
    await c.initialize([project]);
    const nightly = join(project, "acme", "workflows", "nightly.ts");
    await c.waitFor(() => c.diagnosticsFor(nightly).some((d) => d.code === "collection-op"), "diagnostics from the packaged server", 60_000);
    assert.equal(c.diagnostics.has(uri(nightly)), true);
  } finally { await c.shutdown(); }
});

test("@sanoma-ai/lint-plugin: installed from its tarball by its README's line (oxlint with it), its oxlint and ESLint lines work as written, and its own files raise nothing from oxlint's default rules without a .gitignore", () => {
  const readme = readFileSync(join(PLUGIN_PKG, "README.md"), "utf8");
  install(readme, "@sanoma-ai/lint-plugin");
  assert.ok(existsSync(join(project, "node_modules", ".bin", "oxlint")), "oxlint installed with the plugin");
  assert.ok(!existsSync(join(project, ".gitignore")));
  const lines = shLines(readme);
  const oxlintLine = lines.find((l) => l === "npx oxlint");
  assert.ok(oxlintLine, "the README's oxlint line");
  for (const config of blocks(readme, "json")) {
    writeFileSync(join(project, ".oxlintrc.json"), config);
    const r = sh(oxlintLine);
    assert.equal(r.status, 1, `${config}\n${r.stdout}\n${r.stderr}`);
    for (const rule of IMPORT_RULE_IDS) assert.ok(r.stdout.includes(`sanoma(${rule})`), `${rule} with ${config}`);
    // Nothing said of any installed package's own files (the plugin's, the server's bundle), by any rule.
    const all = JSON.parse(sh(`${oxlintLine} -f json`).stdout).diagnostics as { filename: string; code: string }[];
    assert.deepEqual(all.filter((d) => d.filename.includes("node_modules/@sanoma-ai/")).map((d) => `${d.filename} ${d.code}`), []);
  }
  // ESLint: its install line, the README's eslint.config.js, its run line.
  const eslintLines = lines.filter((l) => /\beslint\b/.test(l));
  assert.equal(eslintLines.length, 2, eslintLines.join("\n"));
  const installed = sh(eslintLines[0]);
  assert.equal(installed.status, 0, installed.stderr);
  rmSync(join(project, ".oxlintrc.json"));
  writeFileSync(join(project, "eslint.config.js"), blocks(readme, "js")[0]);
  const r = sh(eslintLines[1]);
  assert.equal(r.status, 1, `${r.stdout}\n${r.stderr}`);
  for (const rule of IMPORT_RULE_IDS) assert.ok(r.stdout.includes(`sanoma/${rule}`), rule);
});
