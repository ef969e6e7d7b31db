/**
 * For `bench/heap.ts --check`: the check in process on a company, then a heap snapshot with the
 * workspace (its companies, facts and findings) still held.
 *
 *   node --import tsx bench/heap-check.ts <dir> <snapshot file>
 */
import { writeHeapSnapshot } from "node:v8";
import { Workspace } from "../server/src/core/workspace.ts";
import { nodeFileSystem } from "../server/src/node/fs.ts";

const [dir, out] = process.argv.slice(2);
// As sanoma-check makes it (check/cli.ts): facts let their texts go and read them again if need
// be, and a workflow source's syntax is judged as it is read.
const ws = new Workspace(nodeFileSystem, { textOf: (file) => nodeFileSystem.readFile(file) });
let problems = 0;
for (const root of ws.discoverRoots([dir])) { ws.loadCompany(root, { syntaxNow: true }); problems += ws.check(root).problems.length; }
console.log(`check on ${dir}: ${problems} problems, peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
writeHeapSnapshot(out);
(globalThis as { kept?: unknown }).kept = ws;
