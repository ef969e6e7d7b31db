/**
 * Reading ahead (`server/src/node/read-ahead.ts`, issue 23): the package's `sanoma-check` has the
 * thread that started its worker read the company's files ahead of it. Run here as the command
 * runs it: the built reader (`server/dist/read-ahead.js`) on this thread, its worker half in a real
 * worker thread. What the worker is given must be exactly what `nodeFileSystem.readFile` reads,
 * whatever the files are (a byte order mark, bad UTF-8, nothing, too big for a slot, a folder, a
 * FIFO, gone); it must be given the plain files (else nothing is read ahead); a file asked out of
 * order, or a second run after an abandoned one, must never hand over another file's text; and
 * through all of it nothing waits for ever.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MessageChannel, Worker } from "node:worker_threads";
import { nodeFileSystem } from "../../server/src/node/fs.ts";

const repo = join(__dirname, "..", "..");
const BUNDLE = join(repo, "server", "dist", "read-ahead.js");
// eslint-disable-next-line @typescript-eslint/no-require-imports
const reader = require(BUNDLE) as typeof import("../../server/src/node/read-ahead.ts");

const dir = mkdtempSync(join(tmpdir(), "sanoma-read-ahead-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/** What a worker did: for each run (a list of files), what `take` gave for each file (null: nothing). */
type Runs = (string | null)[][];

/**
 * Runs `plan` in a worker over a reader on this thread: `plan` is the body of a function given
 * `ahead` (the worker's ReadAhead) and `lists`, that returns the texts taken (`Runs`).
 */
async function inWorker(lists: string[][], plan: string): Promise<Runs> {
  const shared = reader.sharedMemory();
  const { port1, port2 } = new MessageChannel();
  const stop = reader.startReader({ port: port1, shared });
  const worker = new Worker(
    `const { workerData, parentPort } = require("node:worker_threads");
     const ahead = require(workerData.bundle).readAheadFrom({ port: workerData.port, shared: workerData.shared });
     const lists = workerData.lists;
     parentPort.postMessage((() => { ${plan} })());`,
    { eval: true, workerData: { bundle: BUNDLE, port: port2, shared, lists }, transferList: [port2] },
  );
  try {
    return await new Promise<Runs>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the worker did not answer in 60 s")), 60_000);
      worker.once("message", (m: Runs) => { clearTimeout(timer); resolve(m); });
      worker.once("error", (e) => { clearTimeout(timer); reject(e); });
    });
  } finally {
    await worker.terminate();
    stop();
  }
}

/** Takes every file of every list in order, each run ended when its list is. */
const TAKE_ALL = `return lists.map((files) => { ahead.start(files); const got = files.map((f) => ahead.take(f) ?? null); ahead.end(); return got; });`;

/** A company-like tree of `plain` small files, then one of each kind the reader must leave to the worker or read exactly. */
function tree(name: string, plain: number): { files: string[]; plainFiles: Set<string>; leftFiles: Set<string> } {
  const root = join(dir, name);
  mkdirSync(join(root, "d.ts"), { recursive: true });
  const files: string[] = [];
  const plainFiles = new Set<string>();
  /** Those the worker must read itself: nothing in it (a FIFO reads so too), too big, not a file. */
  const leftFiles = new Set<string>();
  for (let i = 0; i < plain; i++) {
    const f = join(root, `f${i}.ts`);
    // Sizes that fill slots unevenly, so the ring wraps mid-file-list.
    writeFileSync(f, `export const n${i} = ${i};\n`.repeat(1 + (i % 37)));
    files.push(f);
    plainFiles.add(f);
  }
  const special = (file: string, content: string | Buffer | undefined, kind: "plain" | "left" | "either") => {
    const f = join(root, file);
    if (content !== undefined) writeFileSync(f, content);
    files.push(f);
    if (kind === "plain") plainFiles.add(f);
    if (kind === "left") leftFiles.add(f);
  };
  special("bom.ts", "\ufeffexport const a = 1;\n", "plain");
  special("utf8.ts", "export const café = \"naïve ☕ 𝄞\";\n", "plain");
  special("bad-utf8.ts", Buffer.from([0x65, 0x78, 0xff, 0xfe, 0xc3, 0x0a]), "plain");
  special("empty.ts", "", "left");
  // (Given when a slot has room for it, else left.)
  special("slot-sized.ts", "x".repeat(200 * 1024), "either");
  special("huge.ts", "y".repeat(600 * 1024), "left");
  special("missing.ts", undefined, "left");
  special("d.ts", undefined, "left");
  execFileSync("mkfifo", [join(root, "fifo.ts")]);
  special("fifo.ts", undefined, "left");
  symlinkSync(join(root, "f0.ts"), join(root, "link.ts"));
  files.push(join(root, "link.ts"));
  plainFiles.add(join(root, "link.ts"));
  for (let i = 0; i < 50; i++) { const f = join(root, `tail${i}.ts`); writeFileSync(f, `export const t${i} = ${i};\n`); files.push(f); plainFiles.add(f); }
  return { files, plainFiles, leftFiles };
}

test("every text the worker is given is nodeFileSystem.readFile's, the plain files are all given, and the rest is left to it", async () => {
  // (More files than the ring holds many times over, and than the paths sent to the reader at once.)
  const { files, plainFiles, leftFiles } = tree("all", 9000);
  const [got] = await inWorker([files], TAKE_ALL);
  assert.equal(got.length, files.length);
  for (let i = 0; i < files.length; i++) {
    if (got[i] === null) assert.ok(!plainFiles.has(files[i]), `a plain file not read ahead: ${files[i]}`);
    else assert.equal(got[i], nodeFileSystem.readFile(files[i]), files[i]);
    if (leftFiles.has(files[i])) assert.equal(got[i], null, `read ahead, but the worker's to read: ${files[i]}`);
  }
  assert.equal(leftFiles.size, 5);
  // The byte order mark is dropped, bad bytes read as readFile reads them.
  assert.equal(got[files.indexOf(join(dir, "all", "bom.ts"))], "export const a = 1;\n");
  assert.ok(got[files.indexOf(join(dir, "all", "bad-utf8.ts"))]!.includes("\ufffd"));
});

test("a file asked out of order ends the taking: nothing more is given in that run, and the next run is read whole", async () => {
  const { files } = tree("order", 400);
  const other = files.slice(0, 300).reverse();
  const [first, second] = await inWorker([files, other], `
    ahead.start(lists[0]);
    const first = [ahead.take(lists[0][0]) ?? null, ahead.take(lists[0][2]) ?? null, ahead.take(lists[0][3]) ?? null, ahead.take(lists[0][1]) ?? null];
    ahead.end();
    ahead.start(lists[1]);
    const second = lists[1].map((f) => ahead.take(f) ?? null);
    ahead.end();
    return [first, second];`);
  assert.deepEqual(first, [nodeFileSystem.readFile(files[0]), null, null, null]);
  assert.deepEqual(second, other.map((f) => nodeFileSystem.readFile(f)!));
});

test("runs left half-taken, one after another, never hand a file another's text", async () => {
  const { files } = tree("runs", 9000);
  const plain = files.filter((f) => /\/f\d+\.ts$/.test(f));
  const lists = [plain, plain.slice(500), plain.slice(0, 1500).reverse(), plain, plain.slice(1000, 1100)];
  // Each run but the last is left part way, with slots of it filled and not taken: after a few
  // files, or (the fourth) after more than one part of its paths was sent.
  const runs = await inWorker(lists, `
    return lists.map((files, r) => {
      ahead.start(files);
      const n = r === lists.length - 1 ? files.length : r === 3 ? 5000 : 3 + r * 40;
      const got = files.slice(0, n).map((f) => ahead.take(f) ?? null);
      ahead.end();
      return got;
    });`);
  runs.forEach((got, r) => got.forEach((text, i) => assert.equal(text, nodeFileSystem.readFile(lists[r][i]), `run ${r}, file ${i}`)));
  assert.equal(runs[4].length, 100);
});

test("the package's sanoma-check says the same with and without reading ahead, on a company of every kind of file, and says it read ahead", () => {
  const company = join(dir, "company");
  mkdirSync(join(company, "workflows"), { recursive: true });
  mkdirSync(join(company, "resources"), { recursive: true });
  writeFileSync(join(company, "sanoma.config.ts"), `export default { name: "read-ahead" };\n`);
  writeFileSync(join(company, "resources", "data.ts"), `import { collection } from "@sanoma-ai/data";\nexport const orders = collection({ name: "orders" });\n`);
  for (let i = 0; i < 1500; i++) {
    writeFileSync(join(company, "workflows", `w${i}.ts`), i % 100 === 7
      ? `export async function w${i}(ctx) { await ctx.call("data.orders.nope", {}); \n`
      : `export async function w${i}(ctx: any) {\n  return ctx.call("data.orders.list", { limit: ${i} });\n}\n`);
  }
  writeFileSync(join(company, "workflows", "bom.ts"), "\ufeffexport async function bom(ctx: any) { return ctx.call(\"data.ordrs.list\", {}); }\n");
  writeFileSync(join(company, "workflows", "empty.ts"), "");
  writeFileSync(join(company, "workflows", "big.ts"), `export async function big(ctx: any) {\n${"  await ctx.call(\"data.orders.list\", {});\n".repeat(8000)}}\n`);
  writeFileSync(join(company, "workflows", "café.ts"), `export async function cafe(ctx: any) { return ctx.call("data.cafés.list", {}); }\n`);
  mkdirSync(join(company, "workflows", "dir.ts"));
  execFileSync("mkfifo", [join(company, "workflows", "fifo.ts")]);
  const check = (env: Record<string, string>) => {
    const r = spawnSync(process.execPath, [join(repo, "server", "bin", "sanoma-check.js"), company, "--format", "json", "--verbose"], { encoding: "utf8", timeout: 120_000, maxBuffer: 256 * 1024 * 1024, env: { ...process.env, ...env } });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };
  const ahead = check({});
  const alone = check({ SANOMA_READ_AHEAD: "off" });
  assert.equal(ahead.status, 1, ahead.stderr);
  assert.equal(ahead.stdout, alone.stdout);
  const problems = JSON.parse(ahead.stdout).problems as { rule: string }[];
  assert.ok(problems.filter((p) => p.rule === "syntax-error").length >= 15, "the files that do not parse are said");
  // Every file but the few the reader leaves (nothing in it, too big, a folder, a FIFO) was read ahead.
  const said = /(\d+) files \((\d+) read ahead by another thread\)/.exec(ahead.stderr);
  assert.ok(said, ahead.stderr);
  assert.ok(Number(said[2]) >= 1500 && Number(said[2]) < Number(said[1]), said[0]);
  assert.doesNotMatch(alone.stderr, /read ahead/);
  assert.equal(ahead.stderr.replace(/ \(\d+ read ahead by another thread\)/, "").replace(/\d+ ms/g, ""), alone.stderr.replace(/\d+ ms/g, ""));
});

test("a worker that fails in the middle of a run ends the process at once: the reader stops with it, and nothing is left running", () => {
  const { files } = tree("fail", 3000);
  const script = join(dir, "fails.js");
  writeFileSync(script, `"use strict";
const { workerData } = require("node:worker_threads");
const ahead = require(${JSON.stringify(BUNDLE)}).readAheadFrom(workerData.readAhead);
const files = ${JSON.stringify(files)};
ahead.start(files);
ahead.take(files[0]);
throw new Error("failed with the reader's slots full");
`);
  const driver = join(dir, "fails.driver.js");
  writeFileSync(driver, `require(${JSON.stringify(join(repo, "server", "bin", "thread.js"))}).runInThread(${JSON.stringify(script)}, { readAhead: ${JSON.stringify(BUNDLE)}, fallback() { process.exit(9); } });\n`);
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [driver], { encoding: "utf8", timeout: 30_000 });
  assert.equal(r.signal, null, `still running after 30 s: ${r.stderr}`);
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /internal error: Error: failed with the reader's slots full/);
  assert.ok(Date.now() - t0 < 20_000);
});
