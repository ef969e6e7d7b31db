/**
 * The package's `sanoma-check` runs the check in a worker thread with a small young generation
 * (`server/bin/thread.js`, issue 23). The thread must keep what a process gives a command:
 * its arguments, its streams in full and in order, whether they are terminals, its exit code; an
 * error thrown in it, or its running out of memory, is said and exits 2, never 1 ("problems
 * found"); a worker that cannot start leaves the work to the process itself. Each test runs a
 * small script through `runInThread` in a Node of its own, as the command does; the last ones run
 * the command itself. Run for a server (`sanoma-language-server` over stdio), the thread passes the
 * process's stdin on, posts signals to the worker, and keeps the worker's stray prints off stdout.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync, type SpawnSyncOptions } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const repo = join(__dirname, "..", "..");
const THREAD = join(repo, "server", "bin", "thread.js");
const CHECK = join(repo, "server", "bin", "sanoma-check.js");
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { YOUNG_GENERATION_MB } = require(THREAD) as { YOUNG_GENERATION_MB: number };

const dir = mkdtempSync(join(tmpdir(), "sanoma-check-thread-"));
after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * Writes a script, and a driver that runs it through `runInThread` as `bin/sanoma-check.js` does (its
 * fallback says so and exits 9); `options`, more of runInThread's options, as JavaScript source.
 */
function script(name: string, body: string, options = ""): { file: string; driver: string } {
  const file = join(dir, `${name}.js`);
  writeFileSync(file, `"use strict";\n${body}\n`);
  const driver = join(dir, `${name}.driver.js`);
  writeFileSync(driver, `require(${JSON.stringify(THREAD)}).runInThread(process.env.SCRIPT_PATH || ${JSON.stringify(file)}, { ${options} fallback() { process.stdout.write("fallback ran\\n"); process.exitCode = 9; } });\n`);
  return { file, driver };
}

function run(args: string[], options: SpawnSyncOptions = {}) {
  const r = spawnSync(process.execPath, args, { encoding: "utf8", timeout: 60_000, maxBuffer: 64 * 1024 * 1024, ...options });
  return { status: r.status, stdout: String(r.stdout), stderr: String(r.stderr) };
}

/** A script that keeps 400,000 small objects (as a check keeps every file's facts), then says how big V8 let its young generation grow. */
const KEEPER = `
const v8 = require("node:v8");
const { isMainThread } = require("node:worker_threads");
const kept = [];
for (let i = 0; i < 400000; i++) kept.push({ i, name: "file" + i, sites: [i] });
const newSpace = v8.getHeapSpaceStatistics().find((s) => s.space_name === "new_space");
process.stdout.write(JSON.stringify({ isMainThread, kept: kept.length, newSpaceKb: newSpace.space_size / 1024 }));
`;

test("the work runs in a worker thread whose young generation stays within the cap, where the same work in the main thread grows it past", () => {
  const { file, driver } = script("keeper", KEEPER);
  const threaded = run([driver]);
  assert.equal(threaded.status, 0, threaded.stderr);
  const inThread = JSON.parse(threaded.stdout);
  assert.equal(inThread.isMainThread, false);
  assert.equal(inThread.kept, 400_000);
  assert.ok(inThread.newSpaceKb <= YOUNG_GENERATION_MB * 1024, `young generation ${inThread.newSpaceKb} KB, cap ${YOUNG_GENERATION_MB} MB`);
  // Under V8's default on a 64-bit machine with a few GB (16 MB semi-spaces), named here so that a
  // smaller machine's smaller default cannot change what is compared.
  const plain = JSON.parse(run(["--max-semi-space-size=16", file]).stdout);
  assert.equal(plain.isMainThread, true);
  assert.ok(plain.newSpaceKb > YOUNG_GENERATION_MB * 1024, `in the main thread the same work grows it to ${plain.newSpaceKb} KB: the cap is what keeps it small`);
});

test("V8's flags given to runInThread are the worker's: set before its isolate is made (here --expose-gc, which gives a new context `gc`)", () => {
  const { driver } = script("flags", `process.stdout.write(typeof globalThis.gc);`, "v8Flags: process.argv[2] ? [process.argv[2]] : [],");
  assert.equal(run([driver]).stdout, "undefined");
  const flagged = run([driver, "--expose-gc"]);
  assert.equal(flagged.stdout, "function", flagged.stderr);
  assert.equal(flagged.stderr, "");
});

test("the worker has the process's arguments, its streams arrive whole and in order, and its exit code is the process's", () => {
  // 4 MB a stream in numbered pieces, then the exit once the last piece is written, as the check does.
  const { driver } = script("streams", `
const pieces = 2000, pad = "x".repeat(2000);
for (let i = 0; i < pieces; i++) { process.stdout.write(i + " " + pad + "\\n"); process.stderr.write("e" + i + "\\n"); }
process.stdout.write(JSON.stringify(process.argv.slice(2)) + "\\n", () => process.exit(3));
`);
  const args = ["--format", "json", "a folder with spaces", "", "--rule=x:off"];
  const r = run([driver, ...args]);
  assert.equal(r.status, 3, r.stderr.slice(-500));
  const out = r.stdout.trimEnd().split("\n");
  assert.equal(out.length, 2001);
  out.slice(0, 2000).forEach((line, i) => assert.ok(line.startsWith(`${i} `) && line.length === `${i} `.length + 2000, `stdout line ${i}`));
  assert.deepEqual(JSON.parse(out[2000]), args);
  assert.deepEqual(r.stderr.trimEnd().split("\n"), Array.from({ length: 2000 }, (_, i) => `e${i}`));
});

test("the worker is told whether stdout and stderr are terminals: its own streams are pipes", () => {
  const { driver } = script("tty", `process.stdout.write(JSON.stringify(require("node:worker_threads").workerData.tty) + "\\n");`);
  assert.deepEqual(JSON.parse(run([driver]).stdout), { out: false, err: false });
  // Under a pseudo-terminal (util-linux `script`, in every Debian).
  const r = spawnSync("script", ["-qec", `${JSON.stringify(process.execPath)} ${JSON.stringify(driver)}`, "/dev/null"], { encoding: "utf8", timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout.trim()), { out: true, err: true });
});

test("an error thrown in the worker is said with its stack and exits 2, not the 1 of problems found", () => {
  const { driver } = script("throws", `function deepInTheCheck() { throw new Error("a fault of ours"); }\ndeepInTheCheck();`);
  const r = run([driver]);
  assert.equal(r.status, 2);
  assert.match(r.stderr, /^sanoma-check: internal error: Error: a fault of ours\n\s+at deepInTheCheck /);
});

test("an error thrown in the check itself is said with its stack and exits 2, by the package's command (in its worker) and by the repository's bundle (in its process)", () => {
  const company = join(dir, "fault-company");
  mkdirSync(company, { recursive: true });
  writeFileSync(join(company, "sanoma.config.ts"), `export default { name: "fault" };\n`);
  // A fault planted where only the check reaches: JSON.stringify of an object (the check's cache
  // keys, its JSON report) throws; of a string (what Node's start and the facts ask) it works.
  const fault = join(dir, "fault.cjs");
  writeFileSync(fault, `const stringify = JSON.stringify;\nJSON.stringify = function (value, ...rest) { if (value && typeof value === "object") throw new Error("a fault of ours"); return stringify(value, ...rest); };\n`);
  for (const command of [CHECK, join(repo, "dist", "check.js")]) {
    const r = run(["-r", fault, command, company, "--format", "json"]);
    assert.equal(r.status, 2, `${command}: ${r.stderr}`);
    assert.match(r.stderr, /^sanoma-check: internal error: Error: a fault of ours\n\s+at JSON.stringify /, command);
    // (Frames in the bundle the command runs; their names are the code's or, in a bundle another
    // test built for production, minified ones.)
    assert.match(r.stderr, /\n\s+at .*\/dist\/(sanoma|check)\.js:\d+:\d+\)?\n/, `${command}: the stack is the check's`);
  }
});

test("a worker out of memory says so, and how to give it more, and exits 2", () => {
  const { driver } = script("greedy", `const kept = []; for (;;) kept.push(new Array(1000).fill(kept.length));`);
  const r = run([driver], { env: { ...process.env, NODE_OPTIONS: "--max-old-space-size=48" } });
  assert.equal(r.status, 2, r.stderr);
  assert.equal(r.stderr, "sanoma-check: out of memory; give Node more with NODE_OPTIONS=--max-old-space-size=<MB>\n");
});

test("the worker is handed the bundle the first thread read for it while it started, and lets it go once compiled", () => {
  // A bundle of 16 MB (most of it a comment), loaded in the worker as the commands load theirs.
  const bundle = join(dir, "big-bundle.js");
  writeFileSync(bundle, `module.exports = { value: 42 };\n/*${"x".repeat(16 * 1024 * 1024)}*/\n`);
  const cache = join(dir, "hand-over-cache");
  const THREAD_JS = JSON.stringify(THREAD);
  const LOADER = JSON.stringify(join(repo, "server", "bin", "code-cache.js"));
  const handed = script("handed", `
const { readFileSync } = require("node:fs");
const read = require(${THREAD_JS}).takeBundle();
process.stdout.write(JSON.stringify({ bundle: read.bundle, isBuffer: Buffer.isBuffer(read.bytes), same: read.bytes.equals(readFileSync(read.bundle)), file: read.file, cached: read.cachedData !== undefined }));
`, `bundle: ${JSON.stringify(bundle)},`);
  const env = { ...process.env, SANOMA_CODE_CACHE: cache };
  const first = run([handed.driver], { env });
  assert.equal(first.status, 0, first.stderr);
  const got = JSON.parse(first.stdout);
  assert.deepEqual({ ...got, file: undefined }, { bundle, isBuffer: true, same: true, file: undefined, cached: false });
  assert.ok(got.file.startsWith(cache) && got.file.endsWith(".cache"), got.file);
  // Not handed anything where no cache may be kept: the worker reads (and requires) the bundle itself.
  const none = script("handed-none", `process.stdout.write(String(require(${THREAD_JS}).takeBundle()));`, `bundle: ${JSON.stringify(bundle)},`);
  assert.equal(run([none.driver], { env: { ...process.env, SANOMA_CODE_CACHE: "off" } }).stdout, "undefined");

  // Loaded from what was handed over, then let go: once the load is done, nothing holds the bytes
  // (a weak reference to them is cleared by a collection, in a later turn: a WeakRef holds its
  // target through the turn it was made in).
  const loads = script("handed-load", `
let bytes;
const m = require(${LOADER}).requireCached(${JSON.stringify(bundle)}, process.env, () => {
  const read = require(${THREAD_JS}).takeBundle();
  bytes = new WeakRef(read.bytes);
  return read;
});
setTimeout(() => { global.gc(); process.stdout.write(JSON.stringify({ value: m.value, held: bytes.deref() !== undefined })); }, 10);
`, `bundle: ${JSON.stringify(bundle)},`);
  for (let i = 0; i < 2; i++) {
    const r = run(["--expose-gc", loads.driver], { env });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { value: 42, held: false }, `run ${i + 1}: the bytes are kept after the load`);
  }
});

test("a worker that cannot start leaves the work to the process (Node refuses a path that is neither absolute nor ./-relative)", () => {
  const { driver } = script("refused", "");
  const r = run([driver], { env: { ...process.env, SCRIPT_PATH: "not-a-worker-path.js" } });
  assert.equal(r.status, 9, r.stderr);
  assert.equal(r.stdout, "fallback ran\n");
});

/** A server's worker: echoes its stdin straight to descriptor 1, prints a stray line on its own stdout, ends on stdin's end (3) or on a signal posted to it (0). */
const SERVER_WORKER = `
const fs = require("node:fs");
const { parentPort, workerData } = require("node:worker_threads");
process.stdout.write("a stray print\\n");
process.stdin.on("data", (d) => fs.writeSync(1, "echo:" + d));
process.stdin.on("end", () => { fs.writeSync(1, "stdin ended\\n"); process.exit(3); });
parentPort.on("message", (m) => { fs.writeSync(1, "signal:" + m.signal + " stdio:" + workerData.stdio + "\\n"); process.exit(0); });
parentPort.unref();
`;
const SERVER_OPTIONS = `server: true, name: "sanoma-language-server", errorExitCode: 1, youngGenerationMb: 12,`;

/** Runs a server driver; `then` acts on it once its worker has echoed a first line. */
async function serve(driver: string, then: (child: ReturnType<typeof spawn>) => void): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [driver], { stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  const echoed = new Promise<void>((resolve) => child.stdout!.on("data", (d: Buffer) => { stdout += d; if (stdout.includes("echo:")) resolve(); }));
  child.stderr!.on("data", (d: Buffer) => { stderr += d; });
  const closed = new Promise<number | null>((r) => child.on("close", r));
  child.stdin!.write("hello\n");
  await echoed;
  then(child);
  return { status: await closed, stdout, stderr };
}

test("for a server: the process's stdin reaches the worker, a signal is posted to it (it cannot take one itself), its own stdout goes to stderr, and its exit code is the process's", { timeout: 30_000 }, async () => {
  const { driver } = script("server-signal", SERVER_WORKER, SERVER_OPTIONS);
  const r = await serve(driver, (child) => child.kill("SIGTERM"));
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, "echo:hello\nsignal:SIGTERM stdio:fd\n", "only what the worker wrote to descriptor 1 is on stdout");
  assert.equal(r.stderr, "a stray print\n");
});

test("for a server: the end of the process's stdin (its client gone) is the end of the worker's, and the process ends with the worker", { timeout: 30_000 }, async () => {
  const { driver } = script("server-stdin-end", SERVER_WORKER, SERVER_OPTIONS);
  const r = await serve(driver, (child) => child.stdin!.end());
  assert.equal(r.status, 3, r.stderr);
  assert.equal(r.stdout, "echo:hello\nstdin ended\n");
});

test("for a server: a worker that does not end on a posted signal is ended with the process after a grace", { timeout: 30_000 }, async () => {
  const { driver } = script("server-deaf", `process.stdin.on("data", (d) => require("node:fs").writeSync(1, "echo:" + d));`, SERVER_OPTIONS);
  const r = await serve(driver, (child) => child.kill("SIGTERM"));
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, "echo:hello\n");
});

test("sanoma-check colours its report on a terminal, told so from the thread that started it, and not in a pipe", () => {
  const company = join(repo, "examples", "acme-broken");
  const env: NodeJS.ProcessEnv = { ...process.env, TERM: "xterm-256color", SANOMA_CODE_CACHE: "off" };
  delete env.FORCE_COLOR;
  delete env.NO_COLOR;
  const piped = spawnSync(process.execPath, [CHECK, company], { encoding: "utf8", env, timeout: 60_000 });
  assert.equal(piped.status, 1, piped.stderr);
  assert.ok(piped.stdout.includes("collection-op") && !piped.stdout.includes("\x1b["), "no colour in a pipe");
  const tty = spawnSync("script", ["-qec", `${JSON.stringify(process.execPath)} ${JSON.stringify(CHECK)} ${JSON.stringify(company)}`, "/dev/null"], { encoding: "utf8", env, timeout: 60_000 });
  assert.ok(tty.stdout.includes("collection-op"), tty.stdout);
  assert.ok(tty.stdout.includes("\x1b["), "colour on a terminal");
});

test("sanoma-check --fix in its worker writes the fixes to the user's files, and says what it fixed and what is left", () => {
  const company = join(dir, "fix-me");
  cpSync(join(repo, "examples", "acme-broken"), company, { recursive: true });
  const data = join(company, "resources", "data.ts");
  assert.match(readFileSync(data, "utf8"), /key: "orderID"/);
  const r = spawnSync(process.execPath, [CHECK, company, "--fix"], { encoding: "utf8", env: { ...process.env, SANOMA_CODE_CACHE: "off" }, timeout: 60_000 });
  assert.equal(r.status, 1, r.stderr); // errors no fix can take are left
  assert.match(r.stderr, /^fixed \d+ problems in \d+ files; left: \d+ errors/m);
  assert.match(readFileSync(data, "utf8"), /key: "orderId"/, "the fix is written");
});

test("sanoma-check writes its report whole, straight to its stdout, through a pipe another process made non-blocking and that is read late", async () => {
  // A company whose lockfile has 20,000 orphan bindings: a JSON report of about 9 MB.
  const company = join(dir, "many-orphans");
  mkdirSync(join(company, "resources"), { recursive: true });
  writeFileSync(join(company, "sanoma.config.ts"), "export default {};\n");
  writeFileSync(join(company, "resources", "a.ts"), "export const a = 1;\n");
  const bindings = Array.from({ length: 20_000 }, (_, i) => `  "resources/f${i % 100}.ts#d${i}": { "type": "cloud.vm", "object": "cloud:vm/${i}" }`);
  writeFileSync(join(company, "sanoma.lock.json"), `{ "version": 1, "bindings": {\n${bindings.join(",\n")}\n} }\n`);
  // The command runs under a Node that made the pipe non-blocking (making its own stdout stream
  // does) and shares it, as a CI runner's shell may: writes to a full pipe then fail with EAGAIN.
  const wrapper = join(dir, "nonblocking-parent.js");
  writeFileSync(wrapper, `process.stdout;\nconst r = require("node:child_process").spawnSync(process.execPath, process.argv.slice(2), { stdio: "inherit", env: { ...process.env, SANOMA_CODE_CACHE: "off" } });\nprocess.exitCode = r.status;\n`);
  const child = spawn(process.execPath, [wrapper, CHECK, company, "--format", "json"], { stdio: ["ignore", "pipe", "pipe"] });
  const closed = new Promise<number | null>((r) => child.on("close", r));
  const out: Buffer[] = [];
  let err = "";
  child.stderr.on("data", (d: Buffer) => { err += d; });
  // Read late: the pipe fills, and the check waits for its reader rather than dropping the rest.
  child.stdout.pause();
  await new Promise((r) => setTimeout(r, 3000));
  child.stdout.on("data", (d: Buffer) => out.push(d));
  child.stdout.resume();
  const status = await closed;
  assert.equal(status, 0, err);
  const report = JSON.parse(Buffer.concat(out).toString("utf8"));
  assert.equal(report.problems.length, 20_000);
  assert.match(err, /0 errors, 20000 warnings/);
});
