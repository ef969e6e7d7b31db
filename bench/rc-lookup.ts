/**
 * The search for `.sanomarc.json` (`findSanomaRc`) of each of N sibling companies under one
 * `companies/` folder, none of them with such a file: what every host pays per company (the
 * server's settings, `sanoma-check`, the lint plugin, the TypeScript plugin). Prints, per N, the
 * time for all N searches and the folders listed: with a look per folder, both grow as N, not N².
 *
 *   node --import tsx bench/rc-lookup.ts [--sizes 250,1000,4000]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findSanomaRc } from "../server/src/core/sanomarc.ts";
import type { FileSystem } from "../server/src/core/types.ts";
import { nodeFileSystem } from "../server/src/node/fs.ts";

const at = process.argv.indexOf("--sizes");
const sizes = (at > 0 ? process.argv[at + 1] : "250,1000,4000").split(",").map(Number);
for (const n of sizes) {
  const dir = mkdtempSync(join(tmpdir(), "sanoma-bench-rc-"));
  try {
    for (let i = 0; i < n; i++) { mkdirSync(join(dir, "companies", `co${i}`), { recursive: true }); writeFileSync(join(dir, "companies", `co${i}`, "sanoma.config.ts"), ""); }
    let listed = 0;
    const fs: FileSystem = { ...nodeFileSystem, readDir: (d) => { listed++; return nodeFileSystem.readDir(d); } };
    const start = performance.now();
    for (let i = 0; i < n; i++) findSanomaRc(fs, join(dir, "companies", `co${i}`));
    const ms = performance.now() - start;
    console.log(`${String(n).padStart(5)} companies: ${ms.toFixed(0).padStart(6)} ms for all (${(ms / n).toFixed(3)} ms each), ${listed} folders listed`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
