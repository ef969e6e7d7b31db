/**
 * The check in process, without the CLI: `Workspace.discoverRoots`, `loadCompany` (read + facts of
 * every file) and `check` (every rule), each phase timed, on the real disk. Prints one JSON line:
 * `{ files, problems, ms, discoverMs, loadMs, checkMs, cpuMs, mainCpuMs, maxRssKb }`.
 *
 *   node --import tsx bench/core.ts <dir>
 */
import { Workspace } from "../server/src/core/workspace.ts";
import { nodeFileSystem } from "../server/src/node/fs.ts";
// @ts-expect-error a plain CommonJS module of the benchmark, without declarations
import { mainThreadCpuMs } from "./usage.cjs";

const dir = process.argv[2];
if (!dir) { console.error("usage: node --import tsx bench/core.ts <dir>"); process.exit(2); }

const cpu0 = process.cpuUsage();
const main0: number = mainThreadCpuMs();
const t0 = performance.now();
const ws = new Workspace(nodeFileSystem);
const roots = ws.discoverRoots([dir]);
const t1 = performance.now();
let files = 0;
for (const root of roots) files += ws.loadCompany(root).files.size;
const t2 = performance.now();
let problems = 0;
for (const root of roots) problems += ws.check(root).problems.length;
const t3 = performance.now();
const cpu = process.cpuUsage(cpu0);
console.log(JSON.stringify({
  files, problems, ms: t3 - t0, discoverMs: t1 - t0, loadMs: t2 - t1, checkMs: t3 - t2,
  cpuMs: (cpu.user + cpu.system) / 1000, mainCpuMs: mainThreadCpuMs() - main0, maxRssKb: process.resourceUsage().maxRSS,
}));
