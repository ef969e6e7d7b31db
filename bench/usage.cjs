/**
 * Preloaded (`node -r bench/usage.cjs ...`) into a process whose cost the benchmarks measure from
 * outside (`dist/check.js`, the baseline): on exit it writes its CPU time and peak RSS to stderr
 * as one marked JSON line, so no `/usr/bin/time` is needed.
 */
process.on("exit", () => {
  const u = process.resourceUsage();
  process.stderr.write(`\n@@usage ${JSON.stringify({ cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000, maxRssKb: u.maxRSS })}\n`);
});
