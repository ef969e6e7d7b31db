/**
 * Preloaded (`node -r bench/usage.cjs ...`) into a process whose cost the benchmarks measure from
 * outside (`dist/check.js`, the baseline): on exit it writes its CPU time (all threads, and the
 * main thread alone, which leaves out V8's helper threads and varies less on a busy machine) and
 * its peak RSS to stderr as one marked JSON line, so no `/usr/bin/time` is needed.
 */
const { readFileSync } = require("node:fs");

/** CPU time of this process's main thread, from /proc (10 ms resolution); NaN where there is none. */
function mainThreadCpuMs() {
  try {
    const f = readFileSync(`/proc/self/task/${process.pid}/stat`, "utf8").split(") ").pop().split(" ");
    return (Number(f[11]) + Number(f[12])) * 10; // utime, stime in clock ticks of 1/100 s
  } catch {
    return NaN;
  }
}

process.on("exit", () => {
  const u = process.resourceUsage();
  process.stderr.write(`\n@@usage ${JSON.stringify({ cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, mainCpuMs: mainThreadCpuMs(), maxRssKb: u.maxRSS })}\n`);
});

module.exports = { mainThreadCpuMs };
