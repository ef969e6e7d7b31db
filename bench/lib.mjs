/**
 * What the benchmark parts share: running a process and measuring it from outside (wall time,
 * and through `usage.cjs` its CPU time and peak RSS), medians and percentiles, and a small table
 * printer. Figures are printed as ratios against a baseline measured in the same run; nothing
 * here passes or fails on time.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
export const USAGE_HOOK = join(ROOT, "bench", "usage.cjs");

/** Common flags: `--quick` shrinks sizes; `--name value` options. */
export function parseFlags(argv = process.argv.slice(2)) {
  const flags = { quick: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith("--")) continue;
    const [k, inline] = a.slice(2).split("=", 2);
    const next = argv[i + 1];
    if (inline !== undefined) flags[k] = inline;
    else if (next !== undefined && !next.startsWith("--")) { flags[k] = next; i++; }
    else flags[k] = true;
  }
  return flags;
}

export function tempDir(prefix) {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

/**
 * Runs `node [nodeArgs] script args` with the usage hook preloaded; resolves with its wall time
 * (measured here, spawn to exit), CPU time, main-thread CPU time and peak RSS (from the hook),
 * exit code and stdout.
 */
export function runNode(args, { cwd = ROOT, env = process.env } = {}) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const p = spawn(process.execPath, ["-r", USAGE_HOOK, ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    const out = [];
    let err = "";
    p.stdout.on("data", (d) => out.push(d));
    p.stderr.on("data", (d) => (err += d));
    p.on("error", reject);
    p.on("close", (code) => {
      const wallMs = performance.now() - t0;
      const m = /@@usage (\{.*\})/.exec(err);
      const usage = m ? JSON.parse(m[1]) : {};
      resolve({ code, wallMs, cpuMs: usage.cpuMs, mainCpuMs: usage.mainCpuMs, maxRssKb: usage.maxRssKb, stdout: Buffer.concat(out).toString(), stderr: err.replace(/\n?@@usage .*\n?/, "") });
    });
  });
}

/** The last JSON line a child printed. */
export function lastJson(stdout) {
  const line = stdout.trim().split("\n").filter((l) => l.startsWith("{")).pop();
  if (!line) throw new Error(`no JSON in output:\n${stdout.slice(-2000)}`);
  return JSON.parse(line);
}

export function median(xs) {
  const s = xs.filter((x) => typeof x === "number" && !Number.isNaN(x)).sort((a, b) => a - b);
  if (!s.length) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Nearest-rank percentile (p in 0..100). */
export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  if (!s.length) return NaN;
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

export const fmtMs = (ms) => (Number.isFinite(ms) ? (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2)) : "n/a");
export const fmtX = (x) => (Number.isFinite(x) ? `${x.toFixed(2)}×` : "n/a");
export const fmtMb = (kb) => (Number.isFinite(kb) ? `${(kb / 1024).toFixed(0)} MB` : "n/a");
export const fmtInt = (n) => n.toLocaleString("en");

/** Prints rows as aligned columns; the first row is the header. */
export function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i] ?? "").length)));
  const line = (r) => r.map((c, i) => (i === 0 ? String(c ?? "").padEnd(widths[i]) : String(c ?? "").padStart(widths[i]))).join("   ").trimEnd();
  return [line(rows[0]), widths.map((w) => "-".repeat(w)).join("   "), ...rows.slice(1).map(line)].join("\n");
}

/** How busy the machine was (other processes skew wall times on a shared machine). */
export async function loadNote() {
  const { loadavg, cpus } = await import("node:os");
  return `load average ${loadavg().map((x) => x.toFixed(2)).join(" ")} on ${cpus().length} cores`;
}
