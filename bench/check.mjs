/**
 * Benchmark of `sanoma-check` against the bare read-and-parse of the same files (issue 2, Speed):
 * generates a company, then runs, alternating so that drift on a shared machine hits each alike,
 *   - the baseline, `bench/parse.mjs` (walk, read, `ts.createSourceFile`, nothing else),
 *   - `node dist/check.js <dir> --format json`, end to end as a process,
 *   - `Workspace.discoverRoots + loadCompany + check` in process (`bench/core.ts`),
 *   - `node dist/check.js <dir> --format sarif`, against the JSON run of the same round (issue 19),
 *   - `oxlint <dir>`, oxlint's own built-in rules on the same files (issue 23), under /usr/bin/time,
 *   - `node server/bin/sanoma-check.js <dir> --format json`, the package's command, which loads the
 *     bundle with V8's code cache (`server/bin/code-cache.js`; the cache warm from the untimed pass),
 * and prints medians as ratios to the baseline, wall and CPU time, and each one's peak RSS.
 * Goals (printed, not asserted): check ≤ 1.5× the baseline; the package's command ≤ 2× oxlint
 * (wall) and peak RSS ≤ 150 MB at 10,000 files, ≤ 600 MB at 100,000 (issue 23); SARIF ≤ 1.05×
 * JSON (the median of each round's ratio).
 *
 *   node bench/check.mjs [--size 10000 | --files N] [--runs 3] [--seed 1] [--quick] [--keep]
 */
import { spawn } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { generateCompany } from "./generate.mjs";
import { fmtInt, fmtMb, fmtMs, fmtX, lastJson, loadNote, median, parseFlags, ROOT, runNode, table, tempDir } from "./lib.mjs";

const flags = parseFlags();
const files = Number(flags.size ?? flags.files ?? (flags.quick ? 1000 : 10_000));
const runs = Number(flags.runs ?? (flags.quick ? 1 : files >= 50_000 ? 1 : 3));
const rssGoalMb = files >= 50_000 ? 600 : 150;
const seed = Number(flags.seed ?? 1);

const dir = join(tempDir("sanoma-bench-check-"), "company");
const gen = generateCompany(dir, { files, seed });
console.log(`check: a generated company of ${fmtInt(gen.files)} files (${gen.apps} apps, ${fmtInt(gen.declarations)} declarations, ${fmtInt(gen.bindings)} lock bindings, a ${(gen.lockBytes / 1024).toFixed(0)} KB lockfile) in ${dir}`);

const CHECK = join(ROOT, "dist", "check.js");
const parse = () => runNode([join(ROOT, "bench", "parse.mjs"), dir]);
const check = () => runNode([CHECK, dir, "--format", "json"]);
const sarif = () => runNode([CHECK, dir, "--format", "sarif"]);
const core = () => runNode(["--import", "tsx", join(ROOT, "bench", "core.ts"), dir]);
const codeCache = join(dir, "..", "code-cache");
const packaged = () => runNode([join(ROOT, "server", "bin", "sanoma-check.js"), dir, "--format", "json"], { env: { ...process.env, SANOMA_CODE_CACHE: codeCache } });
const OXLINT = join(ROOT, "node_modules", ".bin", "oxlint");
/** oxlint's own run (its built-in rules, no config of ours), timed by /usr/bin/time: wall, CPU and peak RSS of the process. */
const oxlint = () => new Promise((resolve, reject) => {
  const out = join(dir, "..", "oxlint-time.txt");
  const t0 = performance.now();
  const p = spawn("/usr/bin/time", ["-f", "%U %S %M", "-o", out, OXLINT, "--silent", dir], { cwd: join(dir, ".."), stdio: "ignore" });
  p.on("error", reject);
  p.on("close", (code) => {
    const wallMs = performance.now() - t0;
    const [u, s, kb] = readFileSync(out, "utf8").trim().split("\n").pop().split(/\s+/).map(Number);
    resolve({ code, wallMs, cpuMs: (u + s) * 1000, maxRssKb: kb });
  });
});

// One untimed pass of each: the files are in the page cache and the bundles compiled alike for all.
await parse();
await check();
await sarif();
await oxlint();
await packaged();

const base = [];
const cli = [];
const inproc = [];
const sarifs = [];
const oxlints = [];
const packageds = [];
for (let i = 0; i < runs; i++) {
  // Alternate the order so that a slow patch of a shared machine does not hit one side only (the
  // SARIF run beside the JSON one, before it in one round and after it in the next).
  const order = i % 2 ? [core, packaged, oxlint, sarif, check, parse] : [parse, check, sarif, oxlint, packaged, core];
  for (const f of order) {
    const r = await f();
    if (f === parse) { if (r.code !== 0) throw new Error(r.stderr); base.push({ ...r, inner: lastJson(r.stdout) }); }
    else if (f === check) {
      if (r.code !== 0 && r.code !== 1) throw new Error(`sanoma-check exited ${r.code}: ${r.stderr}`);
      cli.push({ ...r, problems: JSON.parse(r.stdout).problems.length });
    } else if (f === sarif) {
      if (r.code !== 0 && r.code !== 1) throw new Error(`sanoma-check --format sarif exited ${r.code}: ${r.stderr}`);
      sarifs.push({ ...r, results: JSON.parse(r.stdout).runs[0].results.length });
    } else if (f === oxlint) oxlints.push(r);
    else if (f === packaged) {
      if (r.code !== 0 && r.code !== 1) throw new Error(`the package's sanoma-check exited ${r.code}: ${r.stderr}`);
      packageds.push({ ...r, problems: JSON.parse(r.stdout).problems.length });
    }
    else { if (r.code !== 0) throw new Error(r.stderr); inproc.push({ ...r, inner: lastJson(r.stdout) }); }
  }
}

const m = (xs, f) => median(xs.map(f));
// Three clocks: wall time; CPU time of all threads (V8's GC helpers included); the main thread's
// CPU time alone, which a busy shared machine disturbs least.
const col = (xs, f, base) => { const v = m(xs, f); return [fmtMs(v), base === undefined ? fmtX(1) : fmtX(v / base)]; };
const baseWall = m(base, (r) => r.wallMs);
const baseCpu = m(base, (r) => r.cpuMs);
const baseMain = m(base, (r) => r.mainCpuMs);
const baseIn = m(base, (r) => r.inner.ms);
const baseInCpu = m(base, (r) => r.inner.cpuMs);
const baseInMain = m(base, (r) => r.inner.mainCpuMs);
const peakCli = Math.max(...cli.map((r) => r.maxRssKb));

console.log(`\n${fmtInt(base[0].inner.files)} files, ${(base[0].inner.bytes / 1e6).toFixed(1)} MB of source; ${cli[0].problems} problems found; medians of ${runs} run${runs > 1 ? "s" : ""}; ${await loadNote()}\n`);
console.log(table([
  ["", "wall ms", "× base", "CPU ms", "× base", "main thread ms", "× base", "peak RSS"],
  ["baseline: node parse.mjs (process)", ...col(base, (r) => r.wallMs), ...col(base, (r) => r.cpuMs), ...col(base, (r) => r.mainCpuMs), fmtMb(Math.max(...base.map((r) => r.maxRssKb)))],
  ["sanoma-check --format json (process)", ...col(cli, (r) => r.wallMs, baseWall), ...col(cli, (r) => r.cpuMs, baseCpu), ...col(cli, (r) => r.mainCpuMs, baseMain), fmtMb(peakCli)],
  // (The package's command works in a worker thread: its main thread only starts it, so that column says nothing of it.)
  ["the package's sanoma-check (code cache)", ...col(packageds, (r) => r.wallMs, baseWall), ...col(packageds, (r) => r.cpuMs, baseCpu), "", "", fmtMb(Math.max(...packageds.map((r) => r.maxRssKb)))],
  ["oxlint <dir> (its built-in rules)", ...col(oxlints, (r) => r.wallMs, baseWall), ...col(oxlints, (r) => r.cpuMs, baseCpu), "", "", fmtMb(Math.max(...oxlints.map((r) => r.maxRssKb)))],
  ["baseline: read + parse (in process)", ...col(base, (r) => r.inner.ms), ...col(base, (r) => r.inner.cpuMs), ...col(base, (r) => r.inner.mainCpuMs), ""],
  ["loadCompany + check (in process)", ...col(inproc, (r) => r.inner.ms, baseIn), ...col(inproc, (r) => r.inner.cpuMs, baseInCpu), ...col(inproc, (r) => r.inner.mainCpuMs, baseInMain), fmtMb(Math.max(...inproc.map((r) => r.maxRssKb)))],
  ["  of which discoverRoots", fmtMs(m(inproc, (r) => r.inner.discoverMs)), "", "", "", "", "", ""],
  ["  of which loadCompany (read + facts)", ...col(inproc, (r) => r.inner.loadMs, baseIn), "", "", "", "", ""],
  ["  of which check (rules)", fmtMs(m(inproc, (r) => r.inner.checkMs)), "", "", "", "", "", ""],
]));
const ratios = [m(cli, (r) => r.wallMs) / baseWall, m(cli, (r) => r.cpuMs) / baseCpu, m(cli, (r) => r.mainCpuMs) / baseMain];
console.log(`\ngoal: sanoma-check ≤ 1.50× the baseline: ${fmtX(ratios[0])} wall, ${fmtX(ratios[1])} CPU, ${fmtX(ratios[2])} main-thread CPU (${ratios.every((x) => x <= 1.5) ? "met" : ratios.some((x) => x <= 1.5) ? "met on some clocks only" : "missed"}); peak memory < 400 MB: ${fmtMb(peakCli)} (${peakCli < 400 * 1024 ? "met" : "missed"})`);
// Issue 23's goals are judged on the package's command, the `sanoma-check` a company installs and
// runs (its code cache warm, its check in a worker thread with a small young generation); the
// repository's own bundle, run directly, is said beside it.
if (packageds.some((r, i) => r.problems !== cli[i].problems)) throw new Error("the package's command and the bundle disagree on the problems");
const peakPackaged = Math.max(...packageds.map((r) => r.maxRssKb));
const cachedOxlint = median(packageds.map((r, i) => r.wallMs / oxlints[i].wallMs));
const againstOxlint = median(cli.map((r, i) => r.wallMs / oxlints[i].wallMs));
const cached = median(packageds.map((r, i) => r.wallMs / cli[i].wallMs));
console.log(`goal (issue 23): the package's sanoma-check ≤ 2× oxlint's built-in run (wall, median of the rounds' paired ratios): ${fmtX(cachedOxlint)} (${cachedOxlint <= 2 ? "met" : "missed"}); peak RSS ≤ ${rssGoalMb} MB: ${fmtMb(peakPackaged)} (${peakPackaged <= rssGoalMb * 1024 ? "met" : "missed"})`);
console.log(`the bundle run directly (node dist/check.js: no code cache, no worker): ${fmtX(againstOxlint)} oxlint's; peak RSS ${fmtMb(peakCli)}; the package's command takes ${fmtX(cached)} its wall time (paired medians)`);
console.log(`runs, wall ms: baseline ${base.map((r) => fmtMs(r.wallMs)).join(" ")} · check ${cli.map((r) => fmtMs(r.wallMs)).join(" ")} · in process ${inproc.map((r) => fmtMs(r.inner.ms)).join(" ")}`);
console.log(`runs, check ÷ baseline (main-thread CPU, paired): ${cli.map((r, i) => fmtX(r.mainCpuMs / base[i].mainCpuMs)).join(" ")}`);

// SARIF against JSON, each round's pair (the same company, the same problems).
if (sarifs.some((r, i) => r.results !== cli[i].problems)) throw new Error("--format sarif and --format json disagree on the problems");
const pair = (f) => median(sarifs.map((r, i) => f(r) / f(cli[i])));
const sarifRatios = [pair((r) => r.wallMs), pair((r) => r.cpuMs), pair((r) => r.mainCpuMs)];
console.log(`\ngoal: --format sarif ≤ 1.05× --format json (median of the rounds' paired ratios): ${fmtX(sarifRatios[0])} wall, ${fmtX(sarifRatios[1])} CPU, ${fmtX(sarifRatios[2])} main-thread CPU (${sarifRatios.every((x) => x <= 1.05) ? "met" : sarifRatios.some((x) => x <= 1.05) ? "met on some clocks only" : "missed"}); medians ${fmtMs(m(sarifs, (r) => r.wallMs))} against ${fmtMs(m(cli, (r) => r.wallMs))} wall, peak RSS ${fmtMb(Math.max(...sarifs.map((r) => r.maxRssKb)))}`);
console.log(`runs, sarif ÷ json (wall, paired): ${sarifs.map((r, i) => fmtX(r.wallMs / cli[i].wallMs)).join(" ")}`);

if (!flags.keep) rmSync(join(dir, ".."), { recursive: true, force: true });
