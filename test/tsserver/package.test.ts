/**
 * `@sanoma-ai/typescript-plugin` as published: a `package.json` that stands on its own (no
 * dependencies, TypeScript a peer), one CommonJS file that requires nothing but Node's own
 * modules (never `typescript`: it takes tsserver's), and a README whose install lines and
 * tsconfig snippet work as written in a company's repository, with a code for every rule.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { join } from "node:path";
import { RULE_IDS } from "../../server/src/core/rules/index.ts";
import { RULE_CODES } from "../../ts-plugin/src/codes.ts";
import { installProject, locationOf, PLUGIN, PLUGIN_DIR, TsServer } from "../support/tsserver.ts";

const pkg = JSON.parse(readFileSync(join(PLUGIN_DIR, "package.json"), "utf8"));
const readme = readFileSync(join(PLUGIN_DIR, "README.md"), "utf8");
const bundle = join(PLUGIN_DIR, "dist", "index.js");
/** Where the README's links lead: absolute, so that they work on the registry's page and in node_modules. */
const DOCS = "https://github.com/sanoma-ai/sanoma-tooling/blob/main/docs";

test("package.json stands on its own: main, files, no dependencies, typescript a peer", () => {
  assert.equal(pkg.name, PLUGIN);
  assert.equal(pkg.main, "./dist/index.js");
  assert.deepEqual(pkg.files, ["dist/index.js", "dist/THIRD-PARTY-NOTICES.md", "README.md", "LICENSE"]);
  assert.equal(pkg.dependencies, undefined);
  // (Below 7: TypeScript 7, the native compiler and the registry's `latest` since, has no tsserver
  // and loads no plugin; with no upper bound, npm and pnpm installed it as the peer.)
  assert.deepEqual(pkg.peerDependencies, { typescript: ">=5.3 <7" });
  const packed = JSON.parse(execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: PLUGIN_DIR, encoding: "utf8" }));
  assert.deepEqual(packed[0].files.map((f: { path: string }) => f.path).sort(), ["LICENSE", "README.md", "dist/THIRD-PARTY-NOTICES.md", "dist/index.js", "package.json"]);
});

test("the bundle is one CommonJS file, exporting the factory, requiring only Node's own modules (never typescript)", () => {
  const text = readFileSync(bundle, "utf8");
  assert.ok(statSync(bundle).size < 600_000, `${statSync(bundle).size} bytes`);
  assert.ok(!/function createSourceFile|var SyntaxKind/.test(text), "no compiler of its own");
  // What it requires: every module esbuild left out of the bundle is required as `__toESM(require("…"))`.
  const required = [...text.matchAll(/__toESM\(require\("([^"]+)"\)/g)].map((m) => m[1]);
  assert.ok(required.length > 0);
  for (const r of required) assert.ok(r.startsWith("node:") || builtinModules.includes(r), `requires ${r}`);
  assert.doesNotMatch(text, /require\("typescript"\)/);
  // It loads on its own and exports the factory tsserver calls.
  const kind = execFileSync(process.execPath, ["-e", `console.log(typeof require(${JSON.stringify(bundle)}))`], { encoding: "utf8" }).trim();
  assert.equal(kind, "function");
});

test("the README names every rule with its code", () => {
  for (const id of RULE_IDS) assert.ok(readme.includes(`| ${RULE_CODES[id]} | [\`${id}\`](${DOCS}/rules/${id}.md) |`), id);
  assert.equal(new Set(Object.values(RULE_CODES)).size, RULE_IDS.length, "one code a rule");
});

test("the README's install lines and tsconfig snippet work as written in a company's repository", { timeout: 180_000 }, async () => {
  const blocks = (lang: string) => [...readme.matchAll(new RegExp("```" + lang + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1].trim());
  const [registry, tarball] = blocks("sh");
  assert.equal(registry, `npm install --save-dev ${PLUGIN}`);
  // The tarball line names the file npm pack makes of this version (the test project installs that very file that way).
  assert.equal(tarball, `npm install --save-dev ./sanoma-ai-typescript-plugin-${pkg.version}.tgz`);
  const project = installProject();
  assert.equal(JSON.parse(readFileSync(join(project, "package.json"), "utf8")).devDependencies[PLUGIN].startsWith("file:"), true, "installed from the tarball");
  const [tsconfig] = blocks("json");
  const dir = join(project, "readme");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "workflows"), { recursive: true });
  writeFileSync(join(dir, "tsconfig.json"), tsconfig);
  writeFileSync(join(dir, "sanoma.config.ts"), "export default {};\n");
  const wf = join(dir, "workflows", "w.ts");
  const text = `export const w = (ctx: { call(id: string): void }) => ctx.call("data.nope.get");\n`;
  writeFileSync(wf, text);
  const s = new TsServer({ cwd: project });
  try {
    s.open(wf);
    const ours = (await s.semantic(wf)).filter((d) => d.source === "sanoma");
    assert.deepEqual(ours.map((d) => [d.code, d.message, d.startLocation]), [[RULE_CODES["collection-op"], "No collection `nope` in data.nope.get", locationOf(text, `"data.nope.get"`)]]);
  } finally { await s.close(); }
});
