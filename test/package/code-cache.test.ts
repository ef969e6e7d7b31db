/**
 * The package's commands load their bundle with V8's code cache (`server/bin/code-cache.js`): the
 * cache is made by a first run, taken as it is by the next (not made again), thrown away and made
 * anew when it is bad, never read from a folder others may write in, and never changes what the
 * command says. The commands are run as a user runs them: `node server/bin/<command>.js`.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ensureCodeServer, node24 } from "../../scripts/code-server.mjs";

const repo = join(__dirname, "..", "..");
const CHECK = join(repo, "server", "bin", "sanoma-check.js");
const SERVER = join(repo, "server", "bin", "sanoma-language-server.js");
const COMPANY = join(repo, "examples", "acme-broken");

function check(cache: string, node = process.execPath): { status: number | null; stdout: string } {
  const r = spawnSync(node, [CHECK, COMPANY, "--format", "json"], { cwd: repo, encoding: "utf8", env: { ...process.env, SANOMA_CODE_CACHE: cache } });
  assert.notEqual(r.status, 2, r.stderr);
  return { status: r.status, stdout: r.stdout };
}

const caches = (dir: string) => readdirSync(dir).filter((f) => f.endsWith(".cache"));
/** A folder of the test's own, removed when the file's tests are done (each cache is megabytes). */
const folders: string[] = [];
const folder = () => { const dir = mkdtempSync(join(tmpdir(), "sanoma-code-cache-")); folders.push(dir); return dir; };
after(() => { for (const dir of folders) rmSync(dir, { recursive: true, force: true }); });

test("the first run makes the cache; the next takes it as it is; both say what a run without one says", () => {
  const plain = check("off");
  assert.ok(plain.stdout.includes('"rule"'), "the company has problems to report");
  const dir = join(folder(), "made", "here");
  assert.deepEqual(check(dir), plain);
  const made = caches(dir);
  assert.equal(made.length, 1, "one cache, for the bundle");
  assert.match(made[0], /^sanoma-[0-9a-f]{24}\.cache$/);
  const file = join(dir, made[0]);
  const first = statSync(file);
  assert.ok(first.size > 100_000, `a cache of the compiled bundle (${first.size} bytes)`);
  assert.equal(first.mode & 0o777, 0o600, "the cache is the user's alone");
  assert.equal(statSync(dir).mode & 0o777, 0o700, "so is the folder it made");
  assert.deepEqual(check(dir), plain);
  const second = statSync(file);
  assert.equal(second.mtimeMs, first.mtimeMs, "taken, not made again");
  assert.equal(second.ino, first.ino);
});

test("a cache V8 refuses (bytes that are no cache) is made anew, and the run says the same", () => {
  const plain = check("off");
  const dir = folder();
  check(dir);
  const file = join(dir, caches(dir)[0]);
  const garbage = Buffer.alloc(4096, 0x5a);
  writeFileSync(file, garbage);
  assert.deepEqual(check(dir), plain);
  assert.notDeepEqual(readFileSync(file).subarray(0, 4096), garbage, "made anew");
  assert.deepEqual(check(dir), plain);
});

test("a cache damaged inside (its length and V8's header whole, bytes of its data changed) is never given to V8: the run says the same, and the cache is made anew", () => {
  const plain = check("off");
  const dir = folder();
  check(dir);
  const file = join(dir, caches(dir)[0]);
  const good = readFileSync(file);
  // Bits flipped far from either end: what V8 checks of a cache (its header, its length) is whole.
  // V8 given such a cache died at every run (Node 20: "Fatal error … Check failed"; Node 24: a segfault).
  const damaged = Buffer.from(good);
  for (let i = 0; i < 64; i++) damaged[256 + Math.floor((i * (damaged.length - 512)) / 64)] ^= 0x10 << (i % 4);
  writeFileSync(file, damaged);
  assert.deepEqual(check(dir), plain);
  const made = readFileSync(file);
  assert.ok(!made.equals(damaged), "made anew");
  assert.ok(made.length > 100_000, `a whole cache again (${made.length} bytes; the first run's was ${good.length})`);
  const again = statSync(file);
  assert.deepEqual(check(dir), plain);
  assert.equal(statSync(file).mtimeMs, again.mtimeMs, "and taken as it is by the next run");
  // The same for the language server, started as the VS Code extension starts it: through the
  // loader run as a program (a damaged cache kept it from ever answering).
  const loaderDir = folder();
  const started = () => spawnSync(process.execPath, [join(repo, "server", "bin", "code-cache.js"), join(repo, "dist", "check.js"), COMPANY, "--format", "json"], { cwd: repo, encoding: "utf8", env: { ...process.env, SANOMA_CODE_CACHE: loaderDir } });
  const first = started();
  const loaderFile = join(loaderDir, caches(loaderDir)[0]);
  const bytes = readFileSync(loaderFile);
  for (let i = 0; i < 64; i++) bytes[256 + Math.floor((i * (bytes.length - 512)) / 64)] ^= 0x01 << (i % 8);
  writeFileSync(loaderFile, bytes);
  const second = started();
  assert.equal(second.status, first.status, second.stderr);
  assert.equal(second.stdout, first.stdout);
});

test("a folder others may write in is not used: no cache read from it or written to it", () => {
  const plain = check("off");
  const dir = folder();
  chmodSync(dir, 0o777);
  assert.deepEqual(check(dir), plain);
  assert.deepEqual(caches(dir), []);
});

test("a folder that cannot be made, or a relative one, leaves the command as it is", () => {
  const plain = check("off");
  const file = join(folder(), "a-file");
  writeFileSync(file, "");
  assert.deepEqual(check(join(file, "under")), plain);
  assert.deepEqual(check("relative/folder"), plain);
});

test("of one bundle's caches, the newest four are kept when a new one is made", () => {
  const dir = folder();
  const old = Date.now() / 1000 - 86_400;
  for (let i = 0; i < 6; i++) {
    const f = join(dir, `sanoma-${String(i).repeat(24)}.cache`);
    writeFileSync(f, "an older version's");
    utimesSync(f, old + i, old + i);
  }
  writeFileSync(join(dir, "other-000000000000000000000000.cache"), "another bundle's");
  check(dir);
  const left = caches(dir).sort();
  assert.deepEqual(left.filter((f) => f.startsWith("other-")), ["other-000000000000000000000000.cache"], "another bundle's cache stays");
  const mine = left.filter((f) => f.startsWith("sanoma-"));
  assert.equal(mine.length, 4);
  for (const gone of ["0", "1", "2"]) assert.ok(!mine.includes(`sanoma-${gone.repeat(24)}.cache`), `the oldest went (${gone})`);
});

test("a temporary file left by a process killed while it wrote a cache is removed when a new one is made; a fresh one (a live writer's) stays", () => {
  const dir = folder();
  const stale = join(dir, `sanoma-${"a".repeat(24)}.cache.4242.tmp`);
  const fresh = join(dir, `sanoma-${"b".repeat(24)}.cache.4243.tmp`);
  const others = join(dir, `other-${"c".repeat(24)}.cache.4244.tmp`);
  for (const f of [stale, fresh, others]) writeFileSync(f, "half a cache");
  const old = Date.now() / 1000 - 3600;
  utimesSync(stale, old, old);
  utimesSync(others, old, old);
  check(dir);
  const left = readdirSync(dir).filter((f) => f.endsWith(".tmp")).sort();
  assert.deepEqual(left, [`other-${"c".repeat(24)}.cache.4244.tmp`, `sanoma-${"b".repeat(24)}.cache.4243.tmp`], "the stale one of this bundle went; another bundle's and a fresh one stay");
});

test("a bundle that is not ASCII is read as UTF-8, and one that is as the same text (its name keyed by its bytes: one cache each)", () => {
  const dir = folder();
  const bundles = folder();
  const loader = join(repo, "server", "bin", "code-cache.js");
  const texts = { "ascii.js": `module.exports = "plain \\u00e9";\n`, "utf8.js": `module.exports = "caf\u00e9 \u2192 \u{1F600}";\n` };
  for (const [name, text] of Object.entries(texts)) writeFileSync(join(bundles, name), text);
  const load = (name: string) => spawnSync(process.execPath, ["-e", `process.stdout.write(require(${JSON.stringify(loader)}).requireCached(${JSON.stringify(join(bundles, name))}))`], { encoding: "utf8", env: { ...process.env, SANOMA_CODE_CACHE: dir } });
  for (let run = 0; run < 2; run++) {
    assert.equal(load("ascii.js").stdout, "plain \u00e9");
    assert.equal(load("utf8.js").stdout, "caf\u00e9 \u2192 \u{1F600}", "multi-byte characters decoded, not taken byte for byte");
  }
  assert.deepEqual(caches(dir).map((f) => f.replace(/-[0-9a-f]+\.cache$/, "")).sort(), ["ascii", "utf8"]);
});

test("under Node 24, the check (which sets a V8 flag of its own) and the language server keep one cache each of their one bundle: neither's run makes the other's anew, and the check says what it says under this Node", () => {
  // (Node 24 is installed with code-server, which the end-to-end tests need: `npm test` sets it up.)
  ensureCodeServer({ quiet: true });
  const dir = folder();
  const serverVersion = () => {
    const r = spawnSync(node24, [SERVER, "--version"], { encoding: "utf8", env: { ...process.env, SANOMA_CODE_CACHE: dir } });
    assert.equal(r.status, 0, r.stderr);
  };
  const plain = check("off");
  assert.deepEqual(check(dir, node24), plain, "the same report under Node 24");
  serverVersion();
  const made = new Map(caches(dir).map((f) => [f, statSync(join(dir, f)).mtimeMs]));
  // V8 refuses a cache made under other flags: with one name for both, each run would make it anew.
  assert.equal(made.size, 2, `one cache for each set of flags: ${[...made.keys()].join(", ")}`);
  assert.deepEqual(check(dir, node24), plain);
  serverVersion();
  assert.deepEqual(check(dir, node24), plain);
  for (const [f, mtimeMs] of made) assert.equal(statSync(join(dir, f)).mtimeMs, mtimeMs, `${f}: taken, not made again`);
});
