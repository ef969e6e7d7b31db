// How much of the lint plugin's cost in a one-shot oxlint run is V8 warming up its code. The five
// rules' `before` hooks (oxlint's `createOnce` entry, where the plugin does all its work on a
// company like the bench's) are driven directly over a generated company's files, in one fresh
// Node process each run, as oxlint drives them but without oxlint: a first pass with the plugin's
// code cold, then a second pass over the same files with it optimized (the baseline). Printed: the
// median of each pass, their ratio, and the first pass's time per 500 files, which shows how long
// the code runs before V8 has optimized it.
//
// Usage: node bench/lint-warmup.mjs [--files 10000] [--runs 5] [--dir <company>]
// (With a few thousand files V8 is still optimizing during the second pass: the split between
// warming up and the work itself means something at the default size and above.)
// Needs `node scripts/build.mjs` first (lint-plugin/dist/index.mjs). Not a goal: a diagnostic for
// docs/bench.md ("The cold phase"). The files are visited in path order; oxlint's two threads
// interleave two walks, which changes when each kind of file is first seen, not the totals.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { median } from "./lib.mjs";
import { generateCompany } from "./lint.mjs";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const PLUGIN = join(REPO, "lint-plugin", "dist", "index.mjs");
const CHUNK = 500;

const argv = process.argv.slice(2);
const arg = (name, fallback) => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1] : fallback; };

/** In the child: both passes over the company's files; prints one JSON line. */
async function child(dir) {
  const files = [];
  (function walk(d) {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".ts")) files.push(p);
    }
  })(dir);
  // Bytes read before timing; each text decoded per file, as oxlint decodes it from its buffer.
  const bytes = files.map((f) => readFileSync(f));
  const { default: plugin } = await import(pathToFileURL(PLUGIN).href);
  let reports = 0;
  const context = { physicalFilename: "", filename: "", sourceCode: { text: "" }, settings: {}, options: [], report() { reports++; } };
  const hooks = Object.values(plugin.rules).map((rule) => rule.createOnce(context).before);
  const pass = () => {
    const chunks = [];
    const t0 = performance.now();
    let t = t0;
    for (let i = 0; i < files.length; i++) {
      context.physicalFilename = context.filename = files[i];
      context.sourceCode = { text: bytes[i].toString("utf8") };
      for (const before of hooks) before();
      if ((i + 1) % CHUNK === 0) { const now = performance.now(); chunks.push(now - t); t = now; }
    }
    return { ms: performance.now() - t0, chunks };
  };
  const cold = pass();
  const coldReports = reports;
  const warm = pass();
  process.stdout.write(JSON.stringify({ files: files.length, reports: coldReports, cold, warm }) + "\n");
}

async function main() {
  const runs = Number(arg("runs", 5));
  let dir = arg("dir", undefined);
  let work;
  if (!dir) {
    work = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-lint-warmup-")));
    dir = join(work, "company");
    const gen = generateCompany(dir, Number(arg("files", 10000)));
    console.log(`company: ${gen.files} files, ${gen.total} violations (in ${dir})`);
  }
  try {
    const results = [];
    for (let r = 0; r < runs; r++) {
      const p = spawnSync(process.execPath, [fileURLToPath(import.meta.url), "--child", dir], { encoding: "utf8", maxBuffer: 16 << 20 });
      if (p.status !== 0) throw new Error(`run ${r + 1} failed:\n${p.stderr}`);
      results.push(JSON.parse(p.stdout.trim().split("\n").pop()));
      process.stdout.write(".");
    }
    const cold = median(results.map((x) => x.cold.ms)), warm = median(results.map((x) => x.warm.ms));
    const { files, reports } = results[0];
    console.log(`\n${files} files, ${reports} findings; the five hooks per file, medians of ${runs} fresh processes:`);
    console.log(`  first pass (cold)     ${cold.toFixed(0).padStart(5)} ms   ${((cold * 1000) / files).toFixed(1)} µs a file`);
    console.log(`  second pass (warm)    ${warm.toFixed(0).padStart(5)} ms   ${((warm * 1000) / files).toFixed(1)} µs a file`);
    console.log(`  cold / warm           ${(cold / warm).toFixed(2)}×`);
    const chunks = results[0].cold.chunks.map((_, k) => median(results.map((x) => x.cold.chunks[k])));
    console.log(`  first pass, ms per ${CHUNK} files: ${chunks.map((c) => c.toFixed(0)).join(" ")}`);
    const warmChunk = (warm * CHUNK) / files;
    const settled = chunks.findIndex((c, k) => chunks.slice(k).every((d) => d < 2 * warmChunk));
    if (settled >= 0) console.log(`  within 2× of the warm pace from file ${settled * CHUNK} on`);
  } finally {
    if (work) rmSync(work, { recursive: true, force: true });
  }
}

if (argv[0] === "--child") await child(argv[1]);
else await main();
