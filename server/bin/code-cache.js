// Loads a bundle (the package's, or the VS Code extension's server) with V8's code cache: the
// bundle (the TypeScript parser in it) is compiled once per version and machine, not at every
// start. A `sanoma-check` on a small company runs in two thirds of the time with 20 MB less memory
// (docs/bench.md, "The code cache").
//
// Node 22 has this built in (`module.enableCompileCache`); the package supports Node 20, so it is
// done here, by hand, the way that does it: the cache is V8's own data for this very source text,
// which V8 checks against the text, its own version and its flags, and throws away on any mismatch.
//
// V8 checks a cache's header and length, not what it holds: a file damaged inside (a disk's fault,
// a copy cut and mended) crashed V8 at every start (`Fatal error`, or a segfault under Node 24),
// before the file could be made anew. So each file begins with a mark and the SHA-1 of the rest,
// and one whose rest does not match is never given to V8: it is made anew, as a foreign one is.
//
// Where: $SANOMA_CODE_CACHE (a folder), else $XDG_CACHE_HOME/sanoma/code or ~/.cache/sanoma/code
// (%LOCALAPPDATA%\sanoma\code on Windows). SANOMA_CODE_CACHE=off turns it off. A cache is only
// read from a folder that is the user's own and that nobody else may write in (on POSIX): the
// cache is code. Anything that goes wrong (no home, a full disk, a read-only folder, a corrupt
// or foreign file) loads the bundle as plain `require` would: never an error of ours.
"use strict";
const { isAscii } = require("node:buffer");
const fs = require("node:fs");
const Module = require("node:module");
const path = require("node:path");
const vm = require("node:vm");
// (`node:crypto` and `node:os` are required where used: a worker handed its bundle read already
// (thread.js) uses neither, and loading crypto's two dozen modules in it took 5 ms of its start.)

/** Caches of one bundle kept side by side (other versions, other Node versions); older ones are removed. */
const KEEP = 4;

/** The folder of caches, made if need be, or undefined when there is none we may use. */
function cacheFolder(env) {
  const setting = env.SANOMA_CODE_CACHE;
  if (setting === "off" || setting === "0" || setting === "false") return undefined;
  try {
    let dir = setting;
    if (!dir) {
      // (os.homedir() throws where there is no HOME and no passwd entry: then no cache.)
      const home = require("node:os").homedir();
      if (process.platform === "win32") dir = path.join(env.LOCALAPPDATA || path.join(home, "AppData", "Local"), "sanoma", "code");
      else dir = path.join(env.XDG_CACHE_HOME || path.join(home, ".cache"), "sanoma", "code");
    }
    if (!path.isAbsolute(dir)) return undefined;
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (process.platform !== "win32") {
      const st = fs.statSync(dir);
      // Code is read from here: a folder another user owns or may write in is not used.
      if (st.uid !== process.getuid() || (st.mode & 0o022) !== 0) return undefined;
    }
    return dir;
  } catch {
    return undefined;
  }
}

/**
 * The cache's file for this source (its bytes), this Node and these flags (V8 checks its own
 * versions too). `v8Flags`: V8's flags the command set itself once started (thread.js, `v8Flags`).
 */
function cacheFile(dir, bundle, bytes, v8Flags) {
  // (V8 refuses a cache made under other flags: runs under two sets of flags would each throw the
  // other's away, so the flags, NODE_OPTIONS's and the command's own too, are part of the name:
  // sanoma-check and the language server load one bundle under different flags.)
  const flags = process.execArgv.join(" ") + "\0" + (process.env.NODE_OPTIONS || "") + "\0" + v8Flags.join(" ");
  // (sha1: a name, not a lock; the folder's owner is what keeps others out. Over the bytes read,
  // not the text: 20 ms on the bundle, 11 MB then, against 40.)
  const key = require("node:crypto").createHash("sha1").update(bytes).update("\0" + process.version + "\0" + process.arch + "\0" + flags).digest("hex").slice(0, 24);
  return path.join(dir, `${path.basename(bundle, ".js")}-${key}.cache`);
}

/** What a cache file begins with: this mark, then the SHA-1 of what follows (V8's data). */
const MARK = Buffer.from("sanoma-code-cache-1\n", "latin1");
const DIGEST_BYTES = 20;

/** The SHA-1 a cache file carries of V8's data. */
const digestOf = (data) => require("node:crypto").createHash("sha1").update(data).digest();

/** V8's data in a cache file's bytes, or undefined when they are not a whole one of ours (damaged, cut, another format). */
function cachedDataIn(bytes) {
  const head = MARK.length + DIGEST_BYTES;
  if (bytes.length <= head || !bytes.subarray(0, MARK.length).equals(MARK)) return undefined;
  const data = bytes.subarray(head);
  // (A copy of its own, not a view after the mark: thread.js moves it to the worker whole.)
  return digestOf(data).equals(bytes.subarray(MARK.length, head)) ? Buffer.from(data) : undefined;
}

/** Writes the cache (a temporary file renamed into place: a reader never sees half), and removes the oldest of this bundle's past the few kept. */
function writeCache(file, data) {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(temp, Buffer.concat([MARK, digestOf(data), data]), { mode: 0o600 });
    fs.renameSync(temp, file);
  } catch {
    try { fs.unlinkSync(temp); } catch {}
    return;
  }
  try {
    const dir = path.dirname(file);
    const prefix = path.basename(file).replace(/-[0-9a-f]+\.cache$/, "-");
    const names = fs.readdirSync(dir).filter((f) => f.startsWith(prefix));
    const mine = names.filter((f) => f.endsWith(".cache"))
      .map((f) => ({ f, t: fs.statSync(path.join(dir, f)).mtimeMs }))
      .sort((a, b) => b.t - a.t);
    for (const { f } of mine.slice(KEEP)) fs.unlinkSync(path.join(dir, f));
    // A process killed while it wrote left its temporary file (3 MB and more), which nothing
    // else would ever remove: any a minute old is no live writer's (a write takes milliseconds).
    for (const f of names) {
      if (!f.endsWith(".tmp")) continue;
      try { if (Date.now() - fs.statSync(path.join(dir, f)).mtimeMs > 60_000) fs.unlinkSync(path.join(dir, f)); } catch {}
    }
  } catch {}
}

/**
 * What `requireCached` reads before it compiles: the bundle's bytes, its cache's file, and the
 * cache's bytes (undefined when there is none yet); undefined when there is no cache folder to use
 * or the bundle cannot be read. `thread.js` has it read by the thread that starts a worker while
 * the worker starts, and hands it over. `v8Flags`: as for `cacheFile`.
 */
function readForCache(bundle, env = process.env, v8Flags = []) {
  bundle = path.resolve(bundle);
  const dir = cacheFolder(env);
  if (!dir) return undefined;
  // Read as bytes and decoded by requireCached: `readFileSync(bundle, "utf8")` took 125 ms on the
  // 11 MB bundle, bytes and a decoding 60; an ASCII text (our bundles are,
  // test/package/bundles.test.ts) is decoded as Latin-1, a plain copy. A start of sanoma-check:
  // 425 → 345 ms.
  let bytes;
  try { bytes = fs.readFileSync(bundle); } catch { return undefined; }
  const file = cacheFile(dir, bundle, bytes, v8Flags);
  let cachedData;
  try { cachedData = cachedDataIn(fs.readFileSync(file)); } catch {}
  return { bundle, bytes, file, cachedData };
}

/**
 * `require(bundle)`, compiled from the code cache when there is a good one; without one, the cache
 * is made when the process exits (then it holds every function the run compiled, not only the
 * bundle's top level). `handedOver`: gives what `readForCache` read of this bundle already,
 * elsewhere (a function, so that no caller's frame keeps the bytes while the bundle runs).
 * `v8Flags`: V8's flags the command set itself (thread.js), part of the cache's name.
 */
function requireCached(bundle, env = process.env, handedOver = undefined, v8Flags = []) {
  bundle = path.resolve(bundle);
  if (require.cache[bundle]) return require(bundle);
  let read = handedOver && handedOver();
  if (!read || read.bundle !== bundle) read = readForCache(bundle, env, v8Flags);
  if (!read) return require(bundle);
  const { file, cachedData } = read;
  let bytes = read.bytes;
  read = undefined;
  const source = isAscii(bytes) ? bytes.latin1Slice(0, bytes.length) : bytes.toString("utf8");
  bytes = undefined;
  let script;
  try {
    script = new vm.Script(Module.wrap(source.replace(/^#!.*/, "")), { filename: bundle, cachedData });
  } catch {
    return require(bundle);
  }
  if (cachedData === undefined || script.cachedDataRejected) {
    process.once("exit", () => { try { writeCache(file, script.createCachedData()); } catch {} });
  }
  // A module as `require` would make it, registered so that a second `require` of it finds it.
  const mod = new Module(bundle, module);
  mod.filename = bundle;
  require.cache[bundle] = mod;
  try {
    script.runInThisContext()(mod.exports, Module.createRequire(bundle), mod, bundle, path.dirname(bundle));
  } catch (e) {
    delete require.cache[bundle];
    throw e;
  }
  mod.loaded = true;
  return mod.exports;
}

module.exports = { readForCache, requireCached };

// Run as a program, `node code-cache.js <bundle> [args...]` runs the bundle as if it had been
// started itself, with V8's code cache: the VS Code extension starts its language server so.
if (require.main === module && process.argv.length > 2) {
  const bundle = path.resolve(process.argv[2]);
  process.argv.splice(1, 2, bundle);
  requireCached(bundle);
}
