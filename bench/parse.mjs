/**
 * The baseline every figure is compared with: walk a folder as a company walk does (skipping
 * `node_modules` and dot folders), read each code file from disk and parse it with the TypeScript
 * parser alone (`ts.createSourceFile`, the same arguments the core uses), then drop the tree.
 * Nothing else: no facts, no rules. Prints one JSON line:
 * `{ files, bytes, ms, cpuMs, mainCpuMs, maxRssKb }`, `ms` being the walk + read + parse time inside the
 * process (`mainCpuMs`: the main thread's CPU time for it).
 *
 *   node bench/parse.mjs <dir>
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

const require = createRequire(import.meta.url);
const ts = require("typescript");
const { mainThreadCpuMs } = require("./usage.cjs");

const CODE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
/** As `readFacts` parses (server/src/core/facts.ts): JSDoc is not parsed, the facts never read it. */
const OPTIONS = { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone };

function scriptKind(name) {
  if (name.endsWith(".tsx")) return ts.ScriptKind.TSX;
  if (name.endsWith(".jsx")) return ts.ScriptKind.JSX;
  if (/\.[cm]?js$/.test(name)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

/** Reads and parses every code file under `dir` (and the lockfile as JSON); returns counts. */
export function readAndParse(dir) {
  let files = 0;
  let bytes = 0;
  const stack = [dir];
  while (stack.length) {
    const d = stack.pop();
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== "node_modules" && !e.name.startsWith(".")) stack.push(p);
      } else if (e.isFile() && CODE.test(e.name)) {
        const text = readFileSync(p, "utf8");
        ts.createSourceFile(p, text, OPTIONS, false, scriptKind(e.name));
        files++;
        bytes += text.length;
      } else if (e.name === "sanoma.lock.json") {
        const text = readFileSync(p, "utf8");
        JSON.parse(text);
        files++;
        bytes += text.length;
      }
    }
  }
  return { files, bytes };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split("/").pop())) {
  const dir = process.argv[2];
  if (!dir) { console.error("usage: node bench/parse.mjs <dir>"); process.exit(2); }
  const cpu0 = process.cpuUsage();
  const main0 = mainThreadCpuMs();
  const t0 = performance.now();
  const r = readAndParse(dir);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  console.log(JSON.stringify({ ...r, ms, cpuMs: (cpu.user + cpu.system) / 1000, mainCpuMs: mainThreadCpuMs() - main0, maxRssKb: process.resourceUsage().maxRSS }));
}
