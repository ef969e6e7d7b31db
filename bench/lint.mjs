// The lint plugin's bench (issue 4): a generated 10,000-file company with a few thousand
// violations of the import-reach rules, linted side by side in one run by
//   1. oxlint with an empty JS rule        (the JS bridge's floor)
//   2. oxlint with the sanoma rules        (goal: within 1.3× of 1)
//   3. ESLint with the sanoma rules
//   4. ESLint with eslint-plugin-boundaries, configured for the cross-app rule (goal: 2 at least 15× faster)
// plus, for context: oxlint's built-in rules alone; the floor and the sanoma rules again with the
// built-in rules off (the JS bridge alone, a stricter ratio); the sanoma rules reading the import
// sites of the files the prefilter lets through from their syntax trees, not their text
// (`scan: false`), and with the prefilter off too (every file's tree); and a JS rule that visits
// every file's imports doing nothing (the price of building every file's syntax tree in
// JavaScript, which the plugin avoids where it can).
// Before timing, each sanoma run's findings are counted and compared with what was generated and
// with what `sanoma-check` finds, so a fast wrong plugin cannot pass; the plugin's own count of
// how it read the files (`SANOMA_LINT_STATS`) is printed beside them.
//
// Usage: node bench/lint.mjs [--files 10000] [--runs 10] [--eslint-runs 3] [--keep] [--no-eslint] [--no-time] [--hyperfine] [--per-thread N]
// Needs `node scripts/build.mjs` first (dist/check.js, lint-plugin/dist/index.mjs). Times the
// commands round-robin (robust ratios on a shared machine), or with hyperfine given --hyperfine.
// The company lives in a temporary folder, deleted at the end unless --keep.
// --per-thread N: then N more round-robin runs of the floor and of oxlint + sanoma under `perf record`
// (needs perf), splitting each run's CPU between oxlint's JS thread, V8's and Node's helper threads
// (the optimizing compiler, concurrent GC) and oxlint's lint threads: wall-clock ratios on a shared
// 2-core machine move with the neighbours' load, CPU samples per thread much less.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const BIN = (name) => join(REPO, "node_modules", ".bin", name);
const PLUGIN = join(REPO, "lint-plugin", "dist", "index.mjs");
const CHECK = join(REPO, "dist", "check.js");
const RULE_IDS = ["no-cross-app-import", "no-app-import-from-root", "no-import-outside-company", "data-file-imports", "collection-import"];

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}
const flag = (name) => process.argv.includes(`--${name}`);

// ---- The company ------------------------------------------------------------------------------

/** A body of ordinary code, so each file has a realistic amount of syntax besides its imports. */
function body(name, i) {
  return `
export interface ${name}Input { id: string; amount: number; tags: string[]; note?: string }

const LIMIT_${i} = ${100 + (i % 50)};
const labels: Record<string, string> = { low: "Low priority", mid: "Normal", high: "Urgent: page someone" };

function score${i}(input: ${name}Input): number {
  let total = 0;
  for (const tag of input.tags) {
    if (tag.startsWith("vip")) total += 10;
    else if (tag === "churn-risk") total -= 5;
    else total += tag.length % 3;
  }
  return Math.min(LIMIT_${i}, total + input.amount / 100);
}

export async function ${name}(ctx: { call(op: string, args: unknown): Promise<unknown>; log(msg: string): void }, input: ${name}Input) {
  const s = score${i}(input);
  const level = s > 50 ? "high" : s > 10 ? "mid" : "low";
  ctx.log(\`scored \${input.id}: \${s} (\${labels[level]})\`);
  const existing = await ctx.call("data.orders.get", { id: input.id });
  if (!existing) {
    await ctx.call("data.orders.save", { id: input.id, total: input.amount, level });
  } else if (level === "high") {
    await ctx.call("data.orders.save", { ...(existing as object), level, note: input.note ?? "escalated" });
  }
  return { id: input.id, score: s, level, at: new Date().toISOString() };
}
`;
}

/**
 * Writes the company under `dir` and returns how many findings of each rule it holds. For 10,000
 * files: 24 apps × 380 files, and 879 in the root scope besides the config.
 */
export function generateCompany(dir, totalFiles = 10000) {
  const expected = Object.fromEntries(RULE_IDS.map((r) => [r, 0]));
  let files = 0;
  const write = (rel, text) => {
    const p = join(dir, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
    files++;
  };
  write("sanoma.config.ts", `export default { name: "bench" };\n`);
  const apps = 24;
  const perApp = Math.floor((totalFiles * 0.912) / apps);
  const rootShare = totalFiles - 1 - perApp * apps; // the root scope takes what is left: exactly totalFiles in all
  const rootLib = Math.round(rootShare * 0.45), rootWf = Math.round(rootShare * 0.35), rootRes = Math.round(rootShare * 0.12);
  const rootScen = rootShare - rootLib - rootWf - rootRes;

  const imports = (lines) => lines.join("\n") + "\n";
  // Root scope: shared libraries, workflows, data files, scenarios.
  for (let i = 0; i < rootLib; i++) {
    const lines = [`import { z } from "zod";`, `import { s${(i + 1) % rootLib} as next } from "./s${(i + 1) % rootLib}";`];
    if (i % 5 === 0) { lines.push(`import { h1 } from "../apps/app${i % apps}/lib/h1";`); expected["no-app-import-from-root"]++; }
    write(`lib/s${i}.ts`, imports(lines) + `export const s${i} = (x: number) => x + 1;\nexport const schema${i} = z.object({ id: z.string() });\n` + body(`libFn${i}`, i));
  }
  for (let i = 0; i < rootWf; i++) {
    const lines = [`import { defineWorkflow } from "@sanoma-ai/workflows";`, `import { s${i % rootLib} } from "../lib/s${i % rootLib}";`, `import type { Order } from "../lib/types";`];
    if (i % 5 === 0) { lines.push(`import { w1 } from "../apps/app${i % apps}/workflows/w1";`); expected["no-app-import-from-root"]++; }
    if (i % 25 === 7) { lines.push(`const outside = require("../../shared-config/index");`); expected["no-import-outside-company"]++; }
    if (i % 40 === 0) { lines.push(`import { collection } from "@sanoma-ai/workflows/data";`); expected["collection-import"]++; }
    write(`workflows/w${i}.ts`, imports(lines) + `export const meta${i} = defineWorkflow({ name: "w${i}" });\n` + body(`w${i}`, i));
  }
  write(`resources/data.ts`, `import { collection } from "@sanoma-ai/workflows/data";\nexport const orders = collection({ key: "id", fields: { id: "string", total: "number" } });\n`);
  for (let i = 0; i < rootRes - 1; i++) {
    const lines = [`import { fly } from "@acme/fly-connector";`];
    if (i % 3 === 0) { lines.push(`import { secret } from "@sanoma-ai/workflows";`); expected["data-file-imports"]++; }
    else lines.push(`import { secret } from "@sanoma-ai/workflows/resources";`);
    if (i % 7 === 0) { lines.push(`import { w1 } from "../workflows/w1";`); expected["data-file-imports"]++; }
    write(`resources/r${i}.ts`, imports(lines) + `export const web${i} = fly.machine({ name: "web${i}", region: "ams", token: secret("FLY_TOKEN") });\n`);
  }
  for (let i = 0; i < rootScen; i++) {
    write(`scenarios/sc${i}.ts`, imports([`import { w${i % rootWf} } from "../workflows/w${i % rootWf}";`]) + body(`scenario${i}`, i));
  }

  // Apps: workflows, libraries, data files, scenarios.
  const wf = Math.round(perApp * 0.4), lib = Math.round(perApp * 0.4), res = Math.round(perApp * 0.15);
  const scen = perApp - wf - lib - res;
  for (let a = 0; a < apps; a++) {
    const app = `apps/app${a}`;
    let n = 0;
    const crossApp = (lines, rel) => {
      // One app file in eight reaches into another app's folder.
      if (n++ % 8 !== 3) return;
      lines.push(`import { h2 } from "${rel}app${(a + 1 + (n % (apps - 1))) % apps}/lib/h2";`);
      expected["no-cross-app-import"]++;
    };
    for (let i = 0; i < lib; i++) {
      const lines = [`import { s${i % rootLib} } from "../../../lib/s${i % rootLib}";`, `import { h${(i + 1) % lib} as next } from "./h${(i + 1) % lib}";`];
      crossApp(lines, "../../");
      if (i % 25 === 7) { lines.push(`const cfg = require("../../../../outside/config");`); expected["no-import-outside-company"]++; }
      write(`${app}/lib/h${i}.ts`, imports(lines) + `export const h${i} = 1;\n` + body(`h${i}fn`, i));
    }
    for (let i = 0; i < wf; i++) {
      const lines = [`import { defineWorkflow } from "@sanoma-ai/workflows";`, `import { h${i % lib} } from "../lib/h${i % lib}";`, `import { s${i % rootLib} } from "../../../lib/s${i % rootLib}";`];
      crossApp(lines, "../../");
      if (i % 25 === 7) { lines.push(`const mod = await import("../../../../outside/mod");`); expected["no-import-outside-company"]++; }
      if (i % 40 === 0) { lines.push(`import { collection } from "@sanoma-ai/workflows/data";`); expected["collection-import"]++; }
      write(`${app}/workflows/w${i}.ts`, imports(lines) + `export const meta${i} = defineWorkflow({ name: "${app}-w${i}" });\n` + body(`w${i}`, i));
    }
    write(`${app}/resources/data.ts`, `import { collection } from "@sanoma-ai/workflows/data";\nexport const items${a} = collection({ key: "id", fields: { id: "string" } });\n`);
    for (let i = 0; i < res - 1; i++) {
      const lines = [`import { fly } from "@acme/fly-connector";`, `import { h${i % lib} } from "../lib/h${i % lib}";`];
      crossApp(lines, "../../");
      if (i % 3 === 0) { lines.push(`import { secret } from "@sanoma-ai/workflows";`); expected["data-file-imports"]++; }
      else lines.push(`import { secret } from "@sanoma-ai/workflows/resources";`);
      if (i % 7 === 0) { lines.push(`import type { W } from "../workflows/w1";`); expected["data-file-imports"]++; }
      write(`${app}/resources/r${i}.ts`, imports(lines) + `export const web${i} = fly.machine({ name: "${app}-web${i}", region: "ams", token: secret("FLY_TOKEN") });\n`);
    }
    for (let i = 0; i < scen; i++) {
      write(`${app}/scenarios/sc${i}.ts`, imports([`import { w${i % wf} } from "../workflows/w${i % wf}";`]) + body(`scenario${i}`, i));
    }
  }
  const total = Object.values(expected).reduce((a, b) => a + b, 0);
  return { files, expected, total };
}

// ---- Hosts' configurations --------------------------------------------------------------------

function writeConfigs(work, company) {
  const sanomaRules = Object.fromEntries(RULE_IDS.map((r) => [`sanoma/${r}`, "error"]));
  writeFileSync(join(work, "empty-plugin.mjs"), `// A JS rule that asks for nothing: oxlint never builds a syntax tree for it. (An ES module, as the sanoma plugin is.)\nexport default { meta: { name: "empty" }, rules: { empty: { meta: { schema: [] }, create() { return {}; } } } };\n`);
  writeFileSync(join(work, "visit-plugin.mjs"), `// A JS rule that visits every file's imports and does nothing: the price of a syntax tree per file.\nexport default { meta: { name: "visit" }, rules: { imports: { meta: { schema: [] }, create() { return { ImportDeclaration() {} }; } } } };\n`);
  const off = { categories: { correctness: "off" } }; // oxlint's built-in rules off: the JS bridge alone
  const configs = {
    "oxlint-builtins.json": {},
    "oxlint-empty.json": { jsPlugins: ["./empty-plugin.mjs"], rules: { "empty/empty": "error" } },
    "oxlint-sanoma.json": { jsPlugins: [PLUGIN], rules: sanomaRules },
    "oxlint-js-empty.json": { ...off, jsPlugins: ["./empty-plugin.mjs"], rules: { "empty/empty": "error" } },
    "oxlint-js-sanoma.json": { ...off, jsPlugins: [PLUGIN], rules: sanomaRules },
    "oxlint-js-sanoma-noscan.json": { ...off, jsPlugins: [PLUGIN], rules: sanomaRules, settings: { sanoma: { scan: false } } },
    "oxlint-js-sanoma-noprefilter.json": { ...off, jsPlugins: [PLUGIN], rules: sanomaRules, settings: { sanoma: { prefilter: false } } },
    "oxlint-js-visit.json": { ...off, jsPlugins: ["./visit-plugin.mjs"], rules: { "visit/imports": "error" } },
  };
  for (const [name, config] of Object.entries(configs)) writeFileSync(join(work, name), JSON.stringify(config));
  const parser = JSON.stringify(join(REPO, "node_modules/@typescript-eslint/parser/dist/index.js"));
  writeFileSync(join(work, "eslint-sanoma.config.cjs"), `module.exports = [{ files: ["**/*.ts"], languageOptions: { parser: require(${parser}) }, plugins: { sanoma: require(${JSON.stringify(PLUGIN)}) }, rules: ${JSON.stringify(sanomaRules)} }];\n`);
  // eslint-plugin-boundaries: each app an element (capturing its name); an app may not depend on another app.
  writeFileSync(join(work, "eslint-boundaries.config.cjs"), `const boundaries = require(${JSON.stringify(join(REPO, "node_modules/eslint-plugin-boundaries/dist/index.js"))});
module.exports = [{
  files: ["**/*.ts"],
  languageOptions: { parser: require(${parser}) },
  plugins: { boundaries },
  settings: {
    "boundaries/root-path": ${JSON.stringify(company)},
    "boundaries/elements": [{ type: "app", pattern: "apps/*", capture: ["app"] }],
    "import/resolver": { node: { extensions: [".ts", ".js"] } },
  },
  rules: {
    "boundaries/dependencies": [2, { default: "allow", policies: [
      { from: { element: { type: "app" } }, disallow: { to: { element: { type: "app", captured: { app: "!{{ from.element.captured.app }}" } } } } },
    ] }],
  },
}];
`);
}

// ---- Counting findings ------------------------------------------------------------------------

/** The sanoma findings of one oxlint run, by rule, and the plugin's count of how it read the files. */
function countOxlint(work, config) {
  const r = spawnSync(BIN("oxlint"), ["-c", config, "-f", "json", "company"], { cwd: work, encoding: "utf8", maxBuffer: 256 << 20, env: { ...process.env, SANOMA_LINT_STATS: "1" } });
  const out = Object.fromEntries(RULE_IDS.map((id) => [id, 0]));
  for (const d of JSON.parse(r.stdout).diagnostics) {
    const m = /^sanoma\((.+)\)$/.exec(d.code ?? "");
    if (m) out[m[1]]++;
  }
  const stats = /sanoma-lint-stats (\{.*\})/.exec(r.stderr);
  return { found: out, stats: stats ? JSON.parse(stats[1]) : undefined };
}

const read = (stats) => stats ? `${stats.skipped} files skipped, ${stats.fromText} read from the text (${stats.header ?? 0} from their header alone), ${stats.tree} syntax trees built` : "(no stats)";

function countEslint(work, config, prefix) {
  const r = spawnSync(BIN("eslint"), ["-c", config, "-f", "json", "--no-warn-ignored", "company"], { cwd: work, encoding: "utf8", maxBuffer: 512 << 20 });
  const out = {};
  for (const f of JSON.parse(r.stdout)) for (const m of f.messages) {
    const id = m.ruleId?.startsWith(prefix) ? m.ruleId.slice(prefix.length) : `other:${m.ruleId ?? m.message.slice(0, 60)}`;
    out[id] = (out[id] ?? 0) + 1;
  }
  return out;
}

function countCheck(company) {
  const r = spawnSync(process.execPath, [CHECK, company, "--format", "json"], { encoding: "utf8", maxBuffer: 512 << 20 });
  const out = Object.fromEntries(RULE_IDS.map((id) => [id, 0]));
  for (const p of JSON.parse(r.stdout).problems) if (p.rule in out) out[p.rule]++;
  return out;
}

const same = (a, b) => RULE_IDS.every((id) => (a[id] ?? 0) === (b[id] ?? 0));

// ---- Timing -----------------------------------------------------------------------------------

function hasHyperfine() {
  return spawnSync("hyperfine", ["--version"], { encoding: "utf8" }).status === 0;
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };

/**
 * Times commands (run in `cwd`), round-robin: run 1 of every command, then run 2 of every command,
 * and so on (each round in a shuffled order), so a neighbour's load on a shared machine falls on
 * all of them alike and the ratios hold. Wall-clock and CPU (user+sys, from /usr/bin/time when
 * there) medians.
 * `--hyperfine` times with hyperfine instead (one command after the other).
 */
function time(commands, runs, cwd, warmup) {
  if (flag("hyperfine") && hasHyperfine()) {
    const json = join(cwd, `hyperfine-${Date.now()}.json`);
    const names = commands.flatMap((c) => ["-n", c.name]);
    execFileSync("hyperfine", ["--runs", String(runs), "--warmup", String(warmup), "-N", "--ignore-failure", "--style", "basic", "--export-json", json, ...names, ...commands.map((c) => c.cmd)], { cwd, stdio: ["ignore", "inherit", "inherit"] });
    const results = JSON.parse(readFileSync(json, "utf8")).results;
    // hyperfine gives each command's mean user and system CPU time (all threads).
    return results.map((r, i) => ({ name: commands[i].name, median: r.median, min: r.min, max: r.max, runs: r.times.length, cpu: r.user + r.system }));
  }
  const timer = existsSync("/usr/bin/time") ? "/usr/bin/time" : null;
  const out = join(cwd, "time.txt");
  const walls = commands.map(() => []), cpus = commands.map(() => []);
  // Each round runs the commands in an order of its own (seeded, so runs of the bench compare): a
  // command that always ran right after another would always pay for what that one left behind
  // (the kernel reclaiming its memory), or always find the machine as it left it.
  let seed = 20261201;
  const rnd = (n) => { seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff; return (seed >>> 8) % n; };
  for (let i = 0; i < warmup + runs; i++) {
    const order = commands.map((_, k) => k);
    for (let j = order.length - 1; j > 0; j--) { const r = rnd(j + 1); [order[j], order[r]] = [order[r], order[j]]; }
    order.forEach((k) => {
      const c = commands[k];
      const [bin, ...args] = c.cmd.split(" ");
      const t = process.hrtime.bigint();
      if (timer) spawnSync(timer, ["-f", "%U %S", "-o", out, bin, ...args], { cwd, stdio: "ignore" });
      else spawnSync(bin, args, { cwd, stdio: "ignore" });
      const wall = Number(process.hrtime.bigint() - t) / 1e9;
      if (i < warmup) return;
      walls[k].push(wall);
      if (timer) { const [u, sy] = readFileSync(out, "utf8").trim().split(/\s+/).slice(-2).map(Number); cpus[k].push(u + sy); }
    });
    process.stdout.write(i < warmup ? "w" : ".");
  }
  process.stdout.write("\n");
  return commands.map((c, k) => ({ name: c.name, median: median(walls[k]), min: Math.min(...walls[k]), max: Math.max(...walls[k]), runs, cpu: timer ? median(cpus[k]) : undefined, walls: walls[k] }));
}

/**
 * CPU of each kind of thread of oxlint's process, from `perf record` samples at 1 kHz (a sample is
 * about a millisecond of CPU): the JS thread (the process's first), oxlint's lint threads
 * (`tokio-rt-worker`), and every other thread (V8's compiler and GC helpers, Node's). Medians of
 * `runs` round-robin runs; undefined without perf.
 */
function perThread(commands, runs, cwd) {
  if (spawnSync("perf", ["--version"], { stdio: "ignore" }).status !== 0) return undefined;
  const data = join(cwd, "perf.data");
  const samples = commands.map(() => ({ js: [], helpers: [], lint: [] }));
  for (let i = 0; i < runs; i++) {
    commands.forEach((c, k) => {
      spawnSync("perf", ["record", "-q", "-F", "1000", "-o", data, "--", ...c.cmd.split(" ")], { cwd, stdio: "ignore" });
      const script = spawnSync("perf", ["script", "-i", data, "-F", "comm,pid,tid"], { cwd, encoding: "utf8", maxBuffer: 256 << 20 }).stdout ?? "";
      let js = 0, helpers = 0, lint = 0;
      for (const line of script.split("\n")) {
        const m = /^\s*(.+?)\s+(\d+)\/(\d+)\s*$/.exec(line);
        if (!m) continue;
        if (m[1] === "tokio-rt-worker") lint++;
        else if (m[2] === m[3]) js++;
        else helpers++;
      }
      samples[k].js.push(js); samples[k].helpers.push(helpers); samples[k].lint.push(lint);
    });
    process.stdout.write(".");
  }
  process.stdout.write("\n");
  return commands.map((c, k) => ({ name: c.name, js: median(samples[k].js), helpers: median(samples[k].helpers), lint: median(samples[k].lint) }));
}

// ---- Main -------------------------------------------------------------------------------------

async function main() {
  for (const f of [PLUGIN, CHECK]) if (!existsSync(f)) { console.error(`bench/lint: ${f} is missing; run node scripts/build.mjs first`); process.exit(2); }
  const nFiles = arg("files", 10000), runs = arg("runs", 10), eslintRuns = arg("eslint-runs", 3);
  const work = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-lint-bench-")));
  const company = join(work, "company");
  try {
    const gen = generateCompany(company, nFiles);
    writeConfigs(work, company);
    console.log(`company: ${gen.files} files, ${gen.total} violations generated ${JSON.stringify(gen.expected)}`);
    console.log(`(in ${work})\n`);

    // Correctness first: the plugin in both hosts finds what was generated, as sanoma-check does.
    const check = countCheck(company);
    const ox = countOxlint(work, "oxlint-sanoma.json");
    const oxTree = countOxlint(work, "oxlint-js-sanoma-noscan.json");
    const oxNo = countOxlint(work, "oxlint-js-sanoma-noprefilter.json");
    console.log(`sanoma-check:              ${JSON.stringify(check)}`);
    console.log(`oxlint + sanoma:           ${JSON.stringify(ox.found)}\n                           ${read(ox.stats)}`);
    console.log(`oxlint + sanoma (no scan): ${JSON.stringify(oxTree.found)}\n                           ${read(oxTree.stats)}`);
    console.log(`oxlint + sanoma (no pre):  ${JSON.stringify(oxNo.found)}\n                           ${read(oxNo.stats)}`);
    let ok = same(check, gen.expected) && same(ox.found, gen.expected) && same(oxTree.found, gen.expected) && same(oxNo.found, gen.expected);
    if (!flag("no-eslint")) {
      const es = countEslint(work, "eslint-sanoma.config.cjs", "sanoma/");
      const eb = countEslint(work, "eslint-boundaries.config.cjs", "boundaries/");
      console.log(`ESLint + sanoma:           ${JSON.stringify(es)}`);
      console.log(`ESLint + boundaries:       ${JSON.stringify(eb)}  (cross-app generated: ${gen.expected["no-cross-app-import"]})`);
      ok &&= same(es, gen.expected);
      if ((eb.dependencies ?? 0) !== gen.expected["no-cross-app-import"]) console.log(`  note: boundaries' count differs from the generated cross-app imports`);
    }
    if (!ok) { console.error("\nbench/lint: the findings differ; not timing a wrong plugin"); process.exitCode = 1; return; }
    if (flag("no-time")) return;

    console.log(`\ntiming oxlint (${runs} runs each)…`);
    const oxlint = (config) => `${BIN("oxlint")} -c ${config} company`;
    const ox3 = time([
      { name: "oxlint built-ins only", cmd: oxlint("oxlint-builtins.json") },
      { name: "oxlint + empty JS rule (floor)", cmd: oxlint("oxlint-empty.json") },
      { name: "oxlint + sanoma", cmd: oxlint("oxlint-sanoma.json") },
      { name: "JS only: empty JS rule (floor)", cmd: oxlint("oxlint-js-empty.json") },
      { name: "JS only: sanoma", cmd: oxlint("oxlint-js-sanoma.json") },
      { name: "JS only: sanoma, text scan off", cmd: oxlint("oxlint-js-sanoma-noscan.json") },
      { name: "JS only: sanoma, prefilter off", cmd: oxlint("oxlint-js-sanoma-noprefilter.json") },
      { name: "JS only: a rule visiting every tree", cmd: oxlint("oxlint-js-visit.json") },
    ], runs, work, 2);
    let es = [];
    if (!flag("no-eslint")) {
      console.log(`\ntiming ESLint (${eslintRuns} runs each)…`);
      es = time([
        { name: "ESLint + sanoma", cmd: `${BIN("eslint")} -c eslint-sanoma.config.cjs company` },
        { name: "ESLint + boundaries (cross-app)", cmd: `${BIN("eslint")} -c eslint-boundaries.config.cjs company` },
      ], eslintRuns, work, 0);
    }
    const all = [...ox3, ...es];
    const by = (name) => all.find((r) => r.name === name)?.median;
    console.log(`\n${gen.files} files, ${gen.total} violations; wall-clock medians (min–max) and CPU time medians (user+sys, all threads):`);
    for (const r of all) console.log(`  ${r.name.padEnd(36)} ${r.median.toFixed(3)} s  (${r.min.toFixed(3)}–${r.max.toFixed(3)}, ${r.runs} runs)${r.cpu !== undefined ? `  cpu ${r.cpu.toFixed(3)} s` : ""}`);
    // Each round runs every command back to back, so a round's ratio is taken under one load: the
    // median of the rounds' ratios moves less with a neighbour's load than the ratio of medians.
    const walls = (name) => all.find((r) => r.name === name)?.walls;
    const roundRatios = (a, b) => {
      const wa = walls(a), wb = walls(b);
      return wa && wb && wa.length === wb.length ? wa.map((w, i) => w / wb[i]) : undefined;
    };
    const ratio = (a, b) => {
      const rs = roundRatios(a, b);
      return rs ? median(rs) : by(a) / by(b);
    };
    // How far the rounds spread: on a shared machine one run's median moves by a few hundredths.
    const spread = (a, b) => {
      const rs = roundRatios(a, b)?.sort((x, y) => x - y);
      return rs && rs.length >= 4 ? `  (rounds' quartiles ${rs[Math.floor((rs.length - 1) / 4)].toFixed(2)}–${rs[Math.ceil((3 * (rs.length - 1)) / 4)].toFixed(2)})` : "";
    };
    console.log(`\n  ratios (oxlint's: the median of the rounds' ratios; ESLint's: of the medians):`);
    console.log(`  oxlint + sanoma / oxlint + empty JS rule:             ${ratio("oxlint + sanoma", "oxlint + empty JS rule (floor)").toFixed(2)}×   (goal ≤ 1.30×)${spread("oxlint + sanoma", "oxlint + empty JS rule (floor)")}`);
    console.log(`  the same with oxlint's built-in rules off:           ${ratio("JS only: sanoma", "JS only: empty JS rule (floor)").toFixed(2)}×${spread("JS only: sanoma", "JS only: empty JS rule (floor)")}`);
    console.log(`  text scan off (trees after the prefilter), built-ins off: ${ratio("JS only: sanoma, text scan off", "JS only: empty JS rule (floor)").toFixed(2)}×`);
    console.log(`  prefilter off (every tree), built-ins off:           ${ratio("JS only: sanoma, prefilter off", "JS only: empty JS rule (floor)").toFixed(2)}×`);
    if (by("ESLint + boundaries (cross-app)")) {
      console.log(`  ESLint + boundaries / oxlint + sanoma:                ${ratio("ESLint + boundaries (cross-app)", "oxlint + sanoma").toFixed(1)}×   (goal ≥ 15×)`);
      console.log(`  ESLint + sanoma / oxlint + sanoma:                    ${ratio("ESLint + sanoma", "oxlint + sanoma").toFixed(1)}×`);
    }
    const threadRuns = arg("per-thread", 0);
    if (threadRuns > 0) {
      console.log(`\nCPU by thread under perf (${threadRuns} runs each)…`);
      const split = perThread([
        { name: "oxlint + empty JS rule (floor)", cmd: oxlint("oxlint-empty.json") },
        { name: "oxlint + sanoma", cmd: oxlint("oxlint-sanoma.json") },
      ], threadRuns, work);
      if (split === undefined) console.log("  (no perf on this machine: apt-get install linux-perf)");
      else {
        for (const r of split) console.log(`  ${r.name.padEnd(36)} JS thread ${r.js} ms, V8 and Node helpers ${r.helpers} ms, lint threads ${r.lint} ms`);
        const [f, p] = split;
        console.log(`  the sanoma rules add: JS thread +${p.js - f.js} ms, helpers +${p.helpers - f.helpers} ms, lint threads ${p.lint - f.lint >= 0 ? "+" : ""}${p.lint - f.lint} ms`);
      }
    }
  } finally {
    if (flag("keep")) console.log(`\nkept ${work}`);
    else rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
