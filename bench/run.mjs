/**
 * `npm run bench` (after `npm run build`): runs each benchmark part as a child process, one after
 * the other so they do not compete for the two cores, and prints what each prints: figures as
 * ratios against a baseline measured in the same run, never a pass or fail on time.
 *   - bench/check.mjs   sanoma-check vs the bare read-and-parse (issue 2)
 *   - bench/server.ts   the language server: initial index, edits p50/p95 at 10,000 and 1,000 files (issue 3)
 *   - bench/lint.mjs    the lint plugin, when present (written alongside)
 *   - bench/boxes.mjs   local boxes, when present (written alongside)
 *   - bench/tsserver.mjs the TypeScript plugin in a real tsserver, against tsserver without it (issue 20)
 *
 *   node bench/run.mjs [--quick] [--only check,server,lint,boxes,tsserver] [--cpu-prof]
 * `--quick` shrinks every size for a smoke run; it is passed on to each part.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./lib.mjs";

const argv = process.argv.slice(2);
const quick = argv.includes("--quick");
const onlyAt = argv.indexOf("--only");
const only = onlyAt >= 0 ? new Set((argv[onlyAt + 1] ?? "").split(",")) : undefined;

const PARTS = [
  { name: "check", file: "bench/check.mjs", node: [] },
  { name: "server", file: "bench/server.ts", node: ["--import", "tsx"], extra: argv.includes("--cpu-prof") ? ["--cpu-prof"] : [] },
  // The other parts take their sizes as flags of their own: --quick is passed on, with those.
  { name: "lint", file: "bench/lint.mjs", node: [], optional: true, quick: ["--files", "1000", "--runs", "2", "--eslint-runs", "1"] },
  { name: "boxes", file: "bench/boxes.mjs", node: [], optional: true, quick: ["--files", "1000", "--runs", "20"] },
  { name: "tsserver", file: "bench/tsserver.mjs", node: ["--import", "tsx"], optional: true },
];

function run(part) {
  return new Promise((resolve) => {
    const args = [...part.node, join(ROOT, part.file), ...(quick ? ["--quick", ...(part.quick ?? [])] : []), ...(part.extra ?? [])];
    console.log(`\n=== ${part.name}: node ${args.map((a) => a.replace(ROOT + "/", "")).join(" ")}\n`);
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: "inherit" });
    child.on("error", (e) => { console.error(`${part.name}: ${e.message}`); resolve(1); });
    child.on("exit", (code, signal) => {
      console.log(`\n=== ${part.name}: ${code === 0 ? "done" : `exited ${code ?? signal}`} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      resolve(code ?? 1);
    });
  });
}

if (!existsSync(join(ROOT, "dist", "check.js")) || !existsSync(join(ROOT, "dist", "server.js"))) {
  console.error("dist/check.js or dist/server.js is missing: run npm run build (npm run bench does)");
  process.exit(2);
}

const failed = [];
for (const part of PARTS) {
  if (only && !only.has(part.name)) continue;
  if (part.optional && !existsSync(join(ROOT, part.file))) { console.log(`\n=== ${part.name}: ${part.file} is not there, skipped`); continue; }
  // A part that breaks is reported, and the others still run.
  if ((await run(part)) !== 0) failed.push(part.name);
}
if (failed.length) { console.error(`\nparts that did not finish: ${failed.join(", ")}`); process.exit(1); }
