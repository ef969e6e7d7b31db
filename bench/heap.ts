/**
 * Where the memory goes (issue 23): a heap snapshot of the language server after its index (over
 * stdio, as an editor starts it) or of the check in process after `check` (the company and its
 * facts still held), summed by kind of object: V8's node type, and for objects their constructor
 * (`Object` for literals, `Map`, `Array`…), with how many there are. Also: the bytes of strings
 * held more than once (the same text in several string objects: what interning would save), and
 * the ranges held as objects (`{start, end}` and their `{line, character}` positions).
 *
 * `--server F` runs another build's server bundle (a baseline: `git worktree add /tmp/base <commit>`
 * and build it there).
 *
 *   node --import tsx bench/heap.ts [--size 10000 | --dir D] [--check] [--server F] [--top 25] [--keep]
 *
 * `--check` runs the check under tsx, as sanoma-check makes its workspace (`heap-check.ts`); its
 * snapshot also holds tsx's own WebAssembly lexer's memory (one ArrayBuffer of some 37 MB after it
 * has lexed TypeScript's 9 MB source, shown as `native`), which the bundled command does not have.
 *
 * A snapshot is about twice the heap on disk and is parsed here whole: at 100,000 files it needs a
 * few GB of memory (run it with `NODE_OPTIONS=--max-old-space-size=8192`).
 */
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { LspClient, SERVER } from "../test/support/lsp.ts";
// @ts-expect-error plain JavaScript modules of the benchmark, without declarations
import { generateCompany } from "./generate.mjs";
// @ts-expect-error idem
import { fmtInt, parseFlags, ROOT, table, tempDir } from "./lib.mjs";

const flags = parseFlags() as { size?: string; dir?: string; check?: boolean; server?: string; top?: string; keep?: boolean };
const top = Number(flags.top ?? 25);
const work = tempDir("sanoma-bench-heap-");
const dir = flags.dir ?? join(work, "company");
if (!flags.dir) generateCompany(dir, { files: Number(flags.size ?? 10_000), seed: 1 });

void (async () => {
  const snapshot = flags.check ? await checkSnapshot() : await serverSnapshot();
  summarize(snapshot);
  if (!flags.keep) rmSync(work, { recursive: true, force: true });
})();

/** The server indexes the company; SIGUSR2 makes it write a snapshot (after a full GC) into its cwd. */
async function serverSnapshot(): Promise<string> {
  const client = new LspClient({ command: [process.execPath, "--heapsnapshot-signal=SIGUSR2", flags.server ?? SERVER, "--stdio"], cwd: work });
  await client.initialize([dir]);
  await client.waitIdle(600_000);
  const rss = /VmRSS:\s*(\d+)/.exec(readFileSync(`/proc/${client.proc.pid}/status`, "utf8"))?.[1];
  const hwm = /VmHWM:\s*(\d+)/.exec(readFileSync(`/proc/${client.proc.pid}/status`, "utf8"))?.[1];
  console.log(`server on ${dir}: RSS ${(Number(rss) / 1024).toFixed(0)} MB after the index, peak ${(Number(hwm) / 1024).toFixed(0)} MB`);
  client.proc.kill("SIGUSR2");
  // The snapshot is written on the main thread: the next answer comes after it.
  await client.request("sanoma/status", null, 600_000);
  const file = waitForSnapshot(work);
  await client.shutdown().catch(() => client.proc.kill());
  return file;
}

/** The check in process (`heap-check.ts`), then `v8.writeHeapSnapshot` with the company kept. */
async function checkSnapshot(): Promise<string> {
  const file = join(work, "check.heapsnapshot");
  await new Promise<void>((resolve, reject) => {
    const p = spawn(process.execPath, ["--import", "tsx", join(ROOT, "bench", "heap-check.ts"), dir, file], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] });
    p.on("error", reject);
    p.on("close", (c) => (c === 0 ? resolve() : reject(new Error(`exit ${c}`))));
  });
  return file;
}

function waitForSnapshot(folder: string): string {
  const found = readdirSync(folder).find((f) => f.endsWith(".heapsnapshot"));
  if (!found) throw new Error("no heap snapshot was written");
  return join(folder, found);
}

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]]; edge_fields: string[]; edge_types: [string[], ...unknown[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

function summarize(file: string): void {
  console.log(`snapshot: ${file} (${(statSync(file).size / 1e6).toFixed(0)} MB)`);
  const s = JSON.parse(readFileSync(file, "utf8")) as Snapshot;
  const f = s.snapshot.meta.node_fields;
  const width = f.length;
  const [TYPE, NAME, SIZE, EDGES] = ["type", "name", "self_size", "edge_count"].map((k) => f.indexOf(k));
  const types = s.snapshot.meta.node_types[0];
  const ef = s.snapshot.meta.edge_fields;
  const ewidth = ef.length;
  const [ETYPE, ENAME] = ["type", "name_or_index"].map((k) => ef.indexOf(k));
  const etypes = s.snapshot.meta.edge_types[0];
  const byKind = new Map<string, { count: number; bytes: number }>();
  const stringsByText = new Map<string, { count: number; bytes: number }>();
  let total = 0;
  let rangeObjects = 0, rangeBytes = 0;
  let edge = 0;
  for (let i = 0; i < s.nodes.length; i += width) {
    const type = types[s.nodes[i + TYPE]];
    const name = s.strings[s.nodes[i + NAME]];
    const size = s.nodes[i + SIZE];
    const edges = s.nodes[i + EDGES];
    total += size;
    const isString = type === "string" || type === "concatenated string" || type === "sliced string";
    const kind = type === "object" ? `object: ${name}` : isString ? `string (${type})` : type === "code" || type === "closure" || type === "hidden" || type === "array" ? `${type}: ${name.length > 40 ? name.slice(0, 40) + "…" : name || "-"}` : type;
    const k = byKind.get(kind) ?? { count: 0, bytes: 0 };
    k.count++; k.bytes += size;
    byKind.set(kind, k);
    if (type === "string") {
      const t = stringsByText.get(name) ?? { count: 0, bytes: 0 };
      t.count++; t.bytes += size;
      stringsByText.set(name, t);
    }
    // A range object: an Object whose own properties are exactly start and end (or line and character).
    if (type === "object" && name === "Object") {
      const props: string[] = [];
      for (let e = edge; e < edge + edges * ewidth; e += ewidth) if (etypes[s.edges[e + ETYPE]] === "property" && s.strings[s.edges[e + ENAME]] !== "__proto__") props.push(s.strings[s.edges[e + ENAME]]);
      const key = props.sort().join(",");
      if (key === "end,start" || key === "character,line") { rangeObjects++; rangeBytes += size; }
    }
    edge += edges * ewidth;
  }
  const rows: string[][] = [["kind", "count", "MB", "share"]];
  for (const [kind, v] of [...byKind].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, top)) rows.push([kind, fmtInt(v.count), (v.bytes / 1e6).toFixed(1), `${((v.bytes / total) * 100).toFixed(1)}%`]);
  console.log(`\nheap: ${(total / 1e6).toFixed(1)} MB in ${fmtInt(s.nodes.length / width)} objects; by kind (self size):\n`);
  console.log(table(rows));
  const long = [...stringsByText].filter(([text]) => text.length >= 512);
  const longBytes = long.reduce((n, [, v]) => n + v.bytes, 0);
  console.log(`\nstrings of 512 characters or more (file texts and the like): ${fmtInt(long.reduce((n, [, v]) => n + v.count, 0))}, ${(longBytes / 1e6).toFixed(1)} MB; the largest:`);
  for (const [text, v] of long.sort((a, b) => b[1].bytes - a[1].bytes).slice(0, 5)) console.log(`  ${(v.bytes / 1e3).toFixed(0)} KB ×${v.count}: ${JSON.stringify(text.slice(0, 70))}`);
  let dupBytes = 0, dupStrings = 0;
  for (const v of stringsByText.values()) if (v.count > 1) { dupBytes += v.bytes - v.bytes / v.count; dupStrings += v.count - 1; }
  console.log(`\nstrings held more than once: ${fmtInt(dupStrings)} extra copies, ${(dupBytes / 1e6).toFixed(1)} MB`);
  console.log(`ranges as objects ({start, end} and {line, character}): ${fmtInt(rangeObjects)}, ${(rangeBytes / 1e6).toFixed(1)} MB`);
}
