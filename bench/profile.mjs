/**
 * Summarizes a V8 `.cpuprofile` (from `node --cpu-prof`): the hottest functions by self time and by
 * total (inclusive) time, and self time per source file. Positions in a bundle (`dist/*.js`) are
 * mapped back to the original sources through its linked source map, so `server/src/core/facts.ts`
 * and `typescript.js` show apart.
 *
 *   node bench/profile.mjs <file.cpuprofile | dir> [--top 25]
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { SourceMap } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const maps = new Map();

/** The source map of a script URL, loaded once; undefined when it has none. */
function mapOf(url) {
  if (!url.startsWith("file://") && !url.startsWith("/")) return undefined;
  if (maps.has(url)) return maps.get(url);
  let map;
  try {
    const file = url.startsWith("file://") ? fileURLToPath(url) : url;
    const m = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(file, "utf8").slice(-500));
    if (m && !m[1].startsWith("data:")) map = new SourceMap(JSON.parse(readFileSync(join(dirname(file), m[1]), "utf8")));
  } catch { map = undefined; }
  maps.set(url, map);
  return map;
}

/**
 * The name and `source:line` of a call frame, through the source map when there is one. In a
 * minified bundle (`build.mjs --production`) the map's name at the function's position stands in
 * for the short name, marked with `~` as it is a best guess.
 */
function where(frame) {
  const { url, lineNumber, columnNumber, functionName } = frame;
  const name = functionName || "(anonymous)";
  if (!url) return { name, loc: "(native)" };
  const map = mapOf(url);
  if (map) {
    const e = map.findEntry(lineNumber, columnNumber);
    if (e && e.originalSource) {
      const guess = functionName.length > 0 && functionName.length <= 3 && e.name && e.name !== functionName ? `~${e.name}` : name;
      return { name: guess, loc: `${shorten(e.originalSource)}:${e.originalLine + 1}` };
    }
  }
  return { name, loc: `${shorten(url)}:${lineNumber + 1}` };
}

function shorten(source) {
  let s = source.startsWith("file://") ? fileURLToPath(source) : source;
  s = s.replace(/^(\.\.\/)+/, "");
  if (s.startsWith("/")) s = relative(ROOT, s);
  return s.replace(/^.*node_modules\//, "node_modules/");
}

function fileOf(loc) {
  return loc.replace(/:\d+$/, "");
}

/**
 * Self and total milliseconds per function, and self per file. `fromUs`/`toUs` keep only the
 * samples taken in that window (V8's clock: CLOCK_MONOTONIC microseconds, as
 * `process.hrtime.bigint() / 1000n` in any process on the machine).
 */
export function summarize(profile, { fromUs = -Infinity, toUs = Infinity } = {}) {
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const key = new Map();
  for (const n of profile.nodes) {
    const { name, loc } = where(n.callFrame);
    key.set(n.id, { fn: `${name} ${loc}`, file: fileOf(loc) });
  }
  const self = new Map();
  const total = new Map();
  const files = new Map();
  let all = 0;
  const { samples, timeDeltas } = profile;
  let at = profile.startTime;
  for (let i = 0; i < samples.length; i++) {
    at += timeDeltas[i] ?? 0;
    if (at < fromUs || at > toUs) continue;
    const dt = (timeDeltas[i + 1] ?? timeDeltas[i] ?? 0) / 1000;
    all += dt;
    const id = samples[i];
    const k = key.get(id);
    self.set(k.fn, (self.get(k.fn) ?? 0) + dt);
    files.set(k.file, (files.get(k.file) ?? 0) + dt);
    const seen = new Set();
    for (let n = id; n !== undefined; n = parent.get(n)) {
      const fn = key.get(n).fn;
      if (seen.has(fn)) continue;
      seen.add(fn);
      total.set(fn, (total.get(fn) ?? 0) + dt);
    }
  }
  const sorted = (m) => [...m].sort((a, b) => b[1] - a[1]);
  return { all, self: sorted(self), total: sorted(total), files: sorted(files) };
}

export function formatSummary(s, top = 25) {
  const pct = (ms) => `${ms.toFixed(0).padStart(7)} ms ${((100 * ms) / s.all).toFixed(1).padStart(5)}%`;
  const out = [`sampled ${s.all.toFixed(0)} ms`, "", "self time by source file:"];
  for (const [f, ms] of s.files.slice(0, 12)) out.push(`${pct(ms)}  ${f}`);
  out.push("", "hottest functions (self):");
  for (const [f, ms] of s.self.slice(0, top)) out.push(`${pct(ms)}  ${f}`);
  out.push("", "hottest functions (total, callees included):");
  for (const [f, ms] of s.total.filter(([f]) => !/^\((root|program|idle|garbage collector)\)/.test(f)).slice(0, top)) out.push(`${pct(ms)}  ${f}`);
  return out.join("\n");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const arg = process.argv[2];
  if (!arg) { console.error("usage: node bench/profile.mjs <file.cpuprofile | dir> [--top N]"); process.exit(2); }
  const i = process.argv.indexOf("--top");
  const top = i > 0 ? Number(process.argv[i + 1]) : 25;
  const files = statSync(arg).isDirectory() ? readdirSync(arg).filter((f) => f.endsWith(".cpuprofile")).map((f) => join(arg, f)) : [arg];
  for (const f of files) {
    console.log(`== ${f}`);
    console.log(formatSummary(summarize(JSON.parse(readFileSync(f, "utf8"))), top));
  }
}
