/**
 * Benchmark of the TypeScript plugin in a real tsserver (issue 20, Speed), on the generated
 * company of 10,000 files, twice side by side: one copy whose tsconfig names the plugin, one whose
 * tsconfig does not (the baseline), both in a project where the plugin and the repository's
 * TypeScript are installed from their tarballs (`test/support/tsserver.ts`). Each run starts a
 * fresh tsserver and, in turn for the two copies (the order alternates between runs):
 *   - opens a workflow, waits for its project to load (`projectInfo`: the plugin reads the whole
 *     company ahead there, once the program is built), then times its first `geterr` (request to
 *     `requestCompleted`); also the time from `open` to that `requestCompleted`, the project's
 *     load and the plugin's reading ahead included; then opens four more workflows, one by one,
 *     and times the first `geterr` of each: the figure is the median of the five (one `geterr` of
 *     some 30 ms swings by a third from one run to the next on a busy machine, either way);
 *   - opens the hot data file and makes N edits that toggle a second wakeup (a cross-file
 *     problem in `resources/infra.ts`), each followed by a `geterr` of both files, timed;
 *   - reads tsserver's RSS (VmRSS) after the edits, and its peak (VmHWM).
 * Both run with a verbose log, in which the plugin logs its own time in each hook: its added time
 * per geterr is read there (the whole geterr's time varies by more than that from one edit to the
 * next on a busy machine, with or without the plugin).
 * Goals (printed, not asserted): first geterr ≤ 1.2× the baseline; the plugin's added time per
 * geterr after an edit p95 ≤ 10 ms; RSS ≤ 1.15×.
 *
 * `--bundle <file>` puts another build of the plugin in place of the packed one (an experiment:
 * docs/decisions.md compares the bundle that carries its own TypeScript with the one that takes
 * tsserver's).
 *
 *   node --import tsx bench/tsserver.mjs [--files 10000] [--edits 100] [--runs 3] [--quick] [--bundle <file>]
 */
import { copyFileSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { generateCompany, HOT } from "./generate.mjs";
import { fmtMs, fmtX, median, parseFlags, percentile } from "./lib.mjs";
import { installProject, PLUGIN, TsServer, writeTsconfig } from "../test/support/tsserver.ts";

const flags = parseFlags();
const files = Number(flags.files ?? (flags.quick ? 2000 : 10_000));
const edits = Number(flags.edits ?? (flags.quick ? 20 : 100));
const runs = Number(flags.runs ?? (flags.quick ? 1 : 3));

const status = (pid, field) => {
  try { return Number(new RegExp(`${field}:\\s*(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]); } catch { return NaN; }
};

const project = installProject();
if (typeof flags.bundle === "string") {
  copyFileSync(flags.bundle, join(project, "node_modules", PLUGIN, "dist", "index.js"));
  console.log(`the plugin's bundle: ${flags.bundle} (${(statSync(flags.bundle).size / 1024).toFixed(0)} KB)`);
}
const copies = { plugin: join(project, "bench-plugin"), bare: join(project, "bench-bare") };
for (const [name, dir] of Object.entries(copies)) {
  generateCompany(dir, { files, hot: true });
  writeTsconfig(dir, name === "plugin" ? {} : false);
}
console.log(`company: ${files.toLocaleString("en")} files, twice (with and without the plugin), in ${project}`);

/** One tsserver on one copy: its first geterr, N edits, its memory. */
async function measure(name) {
  const dir = copies[name];
  const log = join(project, `${name}.log`);
  rmSync(log, { force: true });
  // A verbose log for both (the same cost): with it the plugin logs each hook's own time.
  const s = new TsServer({ cwd: project, logFile: log });
  try {
    const wf = join(dir, HOT.workflowFile);
    const opened = performance.now();
    s.open(wf);
    await s.request("projectInfo", { file: wf, needFileNameList: false });
    const first = await s.geterr([wf]);
    const openToDiag = performance.now() - opened;
    const sanoma = (first.byFile.get(wf)?.semantic ?? []).filter((d) => d.source === "sanoma").length;
    const firsts = [first.ms];
    for (const name of readdirSync(join(dir, "workflows")).filter((f) => /^[^.]+\.ts$/.test(f) && f !== basename(wf)).sort().slice(0, 4)) {
      const other = join(dir, "workflows", name);
      s.open(other);
      firsts.push((await s.geterr([other])).ms);
    }

    const data = join(dir, HOT.dataFile);
    const other = join(dir, HOT.otherFile);
    s.open(data, HOT.dataText(false));
    s.open(other);
    await s.geterr([data, other]);
    const times = [];
    let seen = 0;
    for (let i = 0; i < edits; i++) {
      const on = i % 2 === 0;
      const old = HOT.dataText(!on).split("\n");
      s.change(data, { line: 1, offset: 1 }, { line: old.length, offset: old[old.length - 1].length + 1 }, HOT.dataText(on));
      const r = await s.geterr([data, other]);
      times.push(r.ms);
      const wake = (r.byFile.get(other)?.semantic ?? []).some((d) => d.source === "sanoma" && /one wakeup/.test(d.text));
      if (wake === on) seen++;
    }
    const pid = s.proc.pid;
    const rssKb = status(pid, "VmRSS"), hwmKb = status(pid, "VmHWM");
    await s.close();
    // The plugin's own time in getSemanticDiagnostics: once for the first geterr, twice for each later one (two files).
    const text = readFileSync(log, "utf8");
    const own = [...text.matchAll(/\[sanoma\] getSemanticDiagnostics took ([\d.]+) ms/g)].map((m) => Number(m[1]));
    const perEdit = [];
    for (let i = own.length - 2 * edits; i < own.length; i += 2) perEdit.push(own[i] + own[i + 1]);
    const ahead = /\[sanoma\] read ahead for .* in (\d+) ms/.exec(text);
    return { firstMs: median(firsts), firsts, openToDiag, sanoma, times, seen, rssKb, hwmKb, ownFirstMs: own[0], ownPerEdit: name === "plugin" ? perEdit : [], aheadMs: ahead ? Number(ahead[1]) : undefined };
  } finally { await s.close(); }
}

const rows = { plugin: [], bare: [] };
for (let run = 0; run < runs; run++) {
  const order = run % 2 === 0 ? ["bare", "plugin"] : ["plugin", "bare"];
  for (const name of order) {
    const m = await measure(name);
    rows[name].push(m);
    console.log(`run ${run + 1} ${name.padEnd(6)}: first geterr ${fmtMs(m.firstMs)} ms (median of ${m.firsts.map(fmtMs).join(", ")}; open → diagnostics ${fmtMs(m.openToDiag)} ms, ${m.sanoma} sanoma), edits p50 ${fmtMs(percentile(m.times, 50))} p95 ${fmtMs(percentile(m.times, 95))} ms${name === "plugin" ? `; the plugin's own: reading ahead ${m.aheadMs} ms, first geterr ${fmtMs(m.ownFirstMs)} ms, per geterr after an edit p50 ${fmtMs(percentile(m.ownPerEdit, 50))} p95 ${fmtMs(percentile(m.ownPerEdit, 95))} max ${fmtMs(Math.max(...m.ownPerEdit))} ms; the cross-file problem right after ${m.seen}/${edits} edits` : ""}, RSS ${Math.round(m.rssKb / 1024)} MB (peak ${Math.round(m.hwmKb / 1024)} MB)`);
  }
}

const med = (name, f) => median(rows[name].map(f));
const ratios = (f) => rows.plugin.map((p, i) => f(p) / f(rows.bare[i]));
const p95 = (name) => median(rows[name].map((m) => percentile(m.times, 95)));
console.log(`
| | without the plugin | with it | ratio (median of runs') | goal |
| --- | --- | --- | --- | --- |
| first geterr of a file (project loaded; median of five files) | ${fmtMs(med("bare", (m) => m.firstMs))} ms | ${fmtMs(med("plugin", (m) => m.firstMs))} ms | **${fmtX(median(ratios((m) => m.firstMs)))}** | ≤ 1.2× |
| open → its diagnostics | ${fmtMs(med("bare", (m) => m.openToDiag))} ms | ${fmtMs(med("plugin", (m) => m.openToDiag))} ms | ${fmtX(median(ratios((m) => m.openToDiag)))} | |
| the plugin's own time per geterr after a data-file edit (two files), p95 (${edits} edits a run) | | **${fmtMs(median(rows.plugin.map((m) => percentile(m.ownPerEdit, 95))))} ms** | | ≤ 10 ms |
| geterr after a data-file edit, p95, whole | ${fmtMs(p95("bare"))} ms | ${fmtMs(p95("plugin"))} ms | ${fmtMs(p95("plugin") - p95("bare"))} ms more | |
| geterr after an edit, p50 | ${fmtMs(median(rows.bare.map((m) => percentile(m.times, 50))))} ms | ${fmtMs(median(rows.plugin.map((m) => percentile(m.times, 50))))} ms | | |
| RSS after the edits | ${Math.round(med("bare", (m) => m.rssKb) / 1024)} MB | ${Math.round(med("plugin", (m) => m.rssKb) / 1024)} MB | **${fmtX(median(ratios((m) => m.rssKb)))}** | ≤ 1.15× |
| peak RSS | ${Math.round(med("bare", (m) => m.hwmKb) / 1024)} MB | ${Math.round(med("plugin", (m) => m.hwmKb) / 1024)} MB | ${fmtX(median(ratios((m) => m.hwmKb)))} | |
`);
console.log(JSON.stringify({ files, edits, runs, plugin: PLUGIN, rows }));
writeFileSync(join(project, "bench.json"), JSON.stringify(rows));
