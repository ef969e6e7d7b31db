/**
 * `sanoma-check --fix` and `--fix-dry-run`: exactly the fixes the editor marks preferred (the
 * core's `isCertainFix`, one decision for both), never written over a file that changed while the
 * command ran, a byte order mark and CRLF line ends kept; the dry run's diff is what `git apply`
 * takes to make the same change, and it writes nothing. Plus the core's pieces: the certain fix,
 * the plan without overlaps, applying edits, and the unified diff.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { applyEdits, certainFix, isCertainFix, planFixes } from "../../server/src/core/fixes.ts";
import type { Fix, Problem } from "../../server/src/core/types.ts";
import { unifiedDiff } from "../../server/src/check/diff.ts";
import { runCheck } from "../../server/src/check/cli.ts";
import { writeIfUnchanged } from "../../server/src/check/write.ts";
import { nodeFileSystem } from "../../server/src/node/fs.ts";
import { removeFixture } from "../support/fixture.ts";
import { SETPRIV_ARGS } from "../../server/src/boxes/tiers.ts";

const REPO = resolve(import.meta.dirname, "..", "..");
const CHECK = join(REPO, "dist", "check.js");
const run = (args: string[], cwd: string) => spawnSync(process.execPath, [CHECK, ...args], { cwd, encoding: "utf8", timeout: 60000 });

const dirs: string[] = [];
after(() => { for (const d of dirs) removeFixture(d); });

/** A copy of the broken example (every rule firing, five certain fixes among them) under a new folder. */
function broken(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-fix-")));
  dirs.push(dir);
  cpSync(join(REPO, "examples", "acme-broken"), join(dir, "acme-broken"), { recursive: true });
  return dir;
}

/** Every file under a folder with its text. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => { for (const e of readdirSync(d, { withFileTypes: true })) { const p = join(d, e.name); if (e.isDirectory()) walk(p); else out.set(p, readFileSync(p, "utf8")); } };
  walk(dir);
  return out;
}

const FIXED = [
  ["acme-broken/resources/data.ts", `key: "orderID"`, `key: "orderId"`],
  ["acme-broken/resources/infra.ts", `sise: "shared-cpu-1x"`, `size: "shared-cpu-1x"`],
  ["acme-broken/resources/infra.ts", `fly.machin(`, `fly.machine(`],
  ["acme-broken/workflows/nightly.ts", `"data.orders.lst"`, `"data.orders.list"`],
];

test("--fix applies exactly the fixes the editor marks preferred, reports what is left, and a second run finds nothing to fix", () => {
  const dir = broken();
  const before = snapshot(dir);
  // What the editor would mark preferred: the JSON output's `preferred` fixes.
  const json = JSON.parse(run(["acme-broken", "--format", "json"], dir).stdout);
  const preferred = json.problems.flatMap((p: any) => p.fixes.filter((f: any) => f.preferred).map((f: any) => `${p.file}:${p.line} ${f.title}`));
  assert.equal(preferred.length, FIXED.length, preferred.join("\n"));
  const r = run(["acme-broken", "--fix"], dir);
  assert.equal(r.status, 1, "errors are left");
  assert.match(r.stderr, /^fixed 4 problems in 3 files; left: 24 errors, 2 warnings, 0 info, 0 hints in 1 company\n$/);
  const left = r.stdout.trim().split("\n");
  assert.equal(left.length, json.problems.length - 4, "what is left is printed");
  // A secret with no binding may be right (the store may hold it): its did-you-mean is offered, never applied.
  assert.ok(json.problems.some((p: any) => p.rule === "secret-bindings" && p.fixes.some((f: any) => f.title === 'Change to "SIGNING_KEY"' && !f.preferred)), "the secret's fix is offered, not preferred");
  assert.match(readFileSync(join(dir, "acme-broken/resources/infra.ts"), "utf8"), /secret\("SIGNING_KEYS"\)/, "and not applied");
  const now = snapshot(dir);
  for (const [file, text] of before) {
    const fixes = FIXED.filter(([f]) => join(dir, f) === file);
    let expected = text;
    for (const [, from, to] of fixes) { assert.ok(expected.includes(from), from); expected = expected.replace(from, to); }
    assert.equal(now.get(file), expected, file);
  }
  const again = run(["acme-broken", "--fix"], dir);
  assert.match(again.stderr, /^fixed 0 problems in 0 files; left: 24 errors/);
  assert.deepEqual(snapshot(dir), now);
});

/** infra.ts of a copy given a byte order mark and CRLF line ends. */
function markedCrlf(dir: string): string {
  const infra = join(dir, "acme-broken/resources/infra.ts");
  writeFileSync(infra, "\ufeff" + readFileSync(infra, "utf8").replace(/\n/g, "\r\n"));
  return dir;
}

test("--fix-dry-run prints a unified diff that git apply takes to make what --fix makes (a file with a byte order mark and CRLF line ends too), writes nothing, and says what would be left", () => {
  const dir = markedCrlf(broken());
  const before = snapshot(dir);
  const mtimes = [...before.keys()].map((f) => statSync(f).mtimeMs);
  const dry = run(["acme-broken", "--fix-dry-run"], dir);
  assert.equal(dry.status, 1);
  assert.match(dry.stderr, /^would fix 4 problems in 3 files \(nothing written\); left: 24 errors, 2 warnings, 0 info, 0 hints in 1 company\n$/);
  assert.deepEqual(snapshot(dir), before, "nothing written");
  assert.deepEqual([...before.keys()].map((f) => statSync(f).mtimeMs), mtimes);
  assert.match(dry.stdout, /^--- a\/acme-broken\/resources\/data\.ts\n\+\+\+ b\/acme-broken\/resources\/data\.ts\n@@ -7,6 \+7,6 @@\n/);
  // The diff, applied by git to a second copy, makes exactly what --fix makes.
  const other = markedCrlf(broken());
  writeFileSync(join(other, "fix.diff"), dry.stdout);
  execFileSync("git", ["apply", "fix.diff"], { cwd: other });
  run(["acme-broken", "--fix"], dir);
  const fixed = snapshot(join(dir, "acme-broken"));
  const applied = snapshot(join(other, "acme-broken"));
  assert.deepEqual([...applied].map(([f, t]) => [f.slice(other.length), t]), [...fixed].map(([f, t]) => [f.slice(dir.length), t]));
  assert.ok(fixed.get(join(dir, "acme-broken/resources/infra.ts"))!.startsWith("\ufeff"), "the mark is kept");
});

test("--fix-dry-run: a fix on the first line of a file with a byte order mark is a diff git apply takes (the mark on both sides)", () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-fix-mark-")));
  dirs.push(dir);
  const write = (d: string) => {
    mkdirSync(join(d, "co", "resources"), { recursive: true });
    writeFileSync(join(d, "co", "sanoma.config.ts"), "export default { secrets: { bindings: { K: { env: \"K\" } } } };\n");
    writeFileSync(join(d, "co", "resources", "keys.ts"), "\ufeffimport { secret } from \"@sanoma-ai/workflows\";\nexport const k = secret(\"K\");\n");
  };
  write(dir);
  const dry = run(["co", "--fix-dry-run"], dir);
  assert.match(dry.stdout, /^--- a\/co\/resources\/keys\.ts\n\+\+\+ b\/co\/resources\/keys\.ts\n@@ -1,2 \+1,2 @@\n-\ufeffimport /, dry.stdout);
  const other = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-fix-mark-")));
  dirs.push(other);
  write(other);
  writeFileSync(join(other, "fix.diff"), dry.stdout);
  execFileSync("git", ["apply", "fix.diff"], { cwd: other });
  run(["co", "--fix"], dir);
  assert.equal(readFileSync(join(other, "co/resources/keys.ts"), "utf8"), readFileSync(join(dir, "co/resources/keys.ts"), "utf8"));
  assert.equal(readFileSync(join(dir, "co/resources/keys.ts"), "utf8"), "\ufeffimport { secret } from \"@sanoma-ai/workflows/resources\";\nexport const k = secret(\"K\");\n");
});

test("--fix-dry-run: a path holding a line break, a quote or a backslash is written quoted, as git writes it, and git apply takes the diff", () => {
  const odd = "nl\nx \"q\" b\\s\tt";
  const write = (d: string) => {
    mkdirSync(join(d, odd, "resources"), { recursive: true });
    writeFileSync(join(d, odd, "sanoma.config.ts"), "export default {};\n");
    writeFileSync(join(d, odd, "resources", "keys.ts"), "import { secret } from \"@sanoma-ai/workflows\";\nexport const k = secret;\n");
  };
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-fix-name-")));
  dirs.push(dir);
  write(dir);
  const dry = run([odd, "--fix-dry-run"], dir);
  assert.ok(dry.stdout.startsWith(`--- "a/nl\\nx \\"q\\" b\\\\s\\tt/resources/keys.ts"\n+++ "b/nl\\nx \\"q\\" b\\\\s\\tt/resources/keys.ts"\n@@ `), dry.stdout);
  const other = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-fix-name-")));
  dirs.push(other);
  write(other);
  writeFileSync(join(other, "fix.diff"), dry.stdout);
  execFileSync("git", ["apply", "fix.diff"], { cwd: other });
  assert.equal(readFileSync(join(other, odd, "resources", "keys.ts"), "utf8"), "import { secret } from \"@sanoma-ai/workflows/resources\";\nexport const k = secret;\n");
});

/** A company with one certain fix in `<name>/resources/keys.ts` (a `secret` imported from the wrong module). */
function oneFix(dir: string, name: string): string {
  mkdirSync(join(dir, name, "resources"), { recursive: true });
  writeFileSync(join(dir, name, "sanoma.config.ts"), "export default {};\n");
  writeFileSync(join(dir, name, "resources", "keys.ts"), "import { secret } from \"@sanoma-ai/workflows\";\nexport const k = secret;\n");
  return join(dir, name, "resources", "keys.ts");
}
const FIXED_KEYS = "import { secret } from \"@sanoma-ai/workflows/resources\";\nexport const k = secret;\n";

test("--fix-dry-run: a name with a space ends with a tab in the diff's header, as git writes it, and patch -p1 and git apply both take it", () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-fix-space-")));
  dirs.push(dir);
  const file = oneFix(dir, "my co");
  const dry = run(["my co", "--fix-dry-run"], dir);
  assert.ok(dry.stdout.startsWith("--- a/my co/resources/keys.ts\t\n+++ b/my co/resources/keys.ts\t\n@@ "), JSON.stringify(dry.stdout.slice(0, 80)));
  writeFileSync(join(dir, "fix.diff"), dry.stdout);
  execFileSync("patch", ["-p1", "-i", "fix.diff"], { cwd: dir, stdio: "ignore" });
  assert.equal(readFileSync(file, "utf8"), FIXED_KEYS);
  oneFix(dir, "my co");
  execFileSync("git", ["apply", "fix.diff"], { cwd: dir });
  assert.equal(readFileSync(file, "utf8"), FIXED_KEYS);
});

test("--fix-dry-run run from a folder inside the company (a file it fixes lies outside it): the diff's paths are from the folder that holds them all, said on stderr, and git apply and patch -p1 take it there", () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-fix-sub-")));
  dirs.push(dir);
  const file = oneFix(dir, "co");
  mkdirSync(join(dir, "co", "workflows"));
  const dry = run(["--fix-dry-run"], join(dir, "co", "workflows"));
  assert.ok(dry.stdout.startsWith("--- a/resources/keys.ts\n+++ b/resources/keys.ts\n@@ "), dry.stdout);
  assert.match(dry.stderr, /^sanoma-check: the diff's paths are from \.\. \(a file it fixes lies outside the working folder\): apply it there\n/);
  writeFileSync(join(dir, "fix.diff"), dry.stdout);
  execFileSync("patch", ["-p1", "-i", join(dir, "fix.diff")], { cwd: join(dir, "co"), stdio: "ignore" });
  assert.equal(readFileSync(file, "utf8"), FIXED_KEYS);
  oneFix(dir, "co");
  execFileSync("git", ["apply", join(dir, "fix.diff")], { cwd: join(dir, "co") });
  assert.equal(readFileSync(file, "utf8"), FIXED_KEYS);
  // From the company's root, the paths are the working folder's, and nothing is said.
  const fromRoot = run(["--fix-dry-run"], join(dir, "co"));
  assert.doesNotMatch(fromRoot.stderr, /the diff's paths are from/);
});

test("--fix on a file it may not write (read-only) says it could not be written, not that it changed meanwhile", () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-fix-ro-")));
  dirs.push(dir);
  const file = oneFix(dir, "co");
  chmodSync(file, 0o444);
  // (Root writes any file: run without its capabilities, as the owner of a file it may only read.)
  const node = [process.execPath, CHECK, "co", "--fix"];
  const command = process.getuid?.() === 0 ? ["setpriv", ...SETPRIV_ARGS, ...node] : node;
  const r = spawnSync(command[0]!, command.slice(1), { cwd: dir, encoding: "utf8", timeout: 60000 });
  assert.match(r.stderr, /^sanoma-check: co\/resources\/keys\.ts could not be written: not fixed\n/, r.stderr);
  assert.equal(readFileSync(file, "utf8"), "import { secret } from \"@sanoma-ai/workflows\";\nexport const k = secret;\n");
});

test("--fix never writes over a file that changed while it ran (the other files are fixed); a byte order mark and CRLF line ends are kept", () => {
  const dir = broken();
  const nightly = join(dir, "acme-broken/workflows/nightly.ts");
  const infra = join(dir, "acme-broken/resources/infra.ts");
  // infra.ts with a mark and CRLF line ends.
  writeFileSync(infra, "\ufeff" + readFileSync(infra, "utf8").replace(/\n/g, "\r\n"));
  const edited = readFileSync(nightly, "utf8") + "// an edit made while the check ran\n";
  const out: string[] = [];
  const err: string[] = [];
  let changed = false;
  // The real disk and the real writer; the editor's save lands right after the check read nightly.ts.
  const code = runCheck(["acme-broken", "--fix"], {
    fs: { ...nodeFileSystem, readFile(p) { const t = nodeFileSystem.readFile(p); if (p === nightly && !changed) { changed = true; writeFileSync(nightly, edited); } return t; } },
    cwd: dir, out: (t) => out.push(t), err: (t) => err.push(t), now: () => 0, writeIfUnchanged,
  });
  assert.equal(code, 1);
  assert.equal(readFileSync(nightly, "utf8"), edited, "the user's edit stands, unfixed");
  assert.match(err.join(""), /acme-broken\/workflows\/nightly\.ts changed while sanoma-check ran: not fixed\n/);
  assert.match(err.join(""), /fixed 3 problems in 2 files; left: 25 errors/);
  const text = readFileSync(infra, "utf8");
  assert.ok(text.startsWith("\ufeffimport"), "the mark kept");
  assert.ok(text.includes(`size: "shared-cpu-1x" }); // expect: resource-fields\r\n`), "CRLF kept");
  assert.ok(!/[^\r]\n/.test(text), "no bare LF");
  assert.equal(writeIfUnchanged(join(dir, "gone.ts"), "", "x"), "changed", "a file gone since");
});

test("--fix and --fix-dry-run leave alone a file that is a link (here to a file outside the company) and one that is not UTF-8, each said; the other fixes are made", () => {
  const dir = broken();
  const nightly = join(dir, "acme-broken/workflows/nightly.ts");
  const data = join(dir, "acme-broken/resources/data.ts");
  const outside = join(dir, "outside-nightly.ts");
  // nightly.ts a link to a file outside the company, with its fixable problem; data.ts with a
  // Latin-1 comment (the byte 0xE9, no UTF-8), and its fixable problem.
  writeFileSync(outside, readFileSync(nightly));
  rmSync(nightly);
  symlinkSync(outside, nightly);
  const latin1 = Buffer.concat([readFileSync(data), Buffer.from("// caf\xe9 au lait\n", "latin1")]);
  writeFileSync(data, latin1);
  const outsideBefore = readFileSync(outside);
  const said = [
    /acme-broken\/workflows\/nightly\.ts is a symlink: not fixed \(a fix would be written where it leads, maybe outside the company; fix that file itself\)\n/,
    /acme-broken\/resources\/data\.ts is not UTF-8: not fixed \(writing its text back would change bytes no fix touches\)\n/,
  ];
  const dry = run(["acme-broken", "--fix-dry-run"], dir);
  for (const s of said) assert.match(dry.stderr, s);
  assert.doesNotMatch(dry.stdout, /nightly\.ts|data\.ts/, "no diff of either");
  assert.match(dry.stderr, /would fix 2 problems in 1 file/);
  const fixed = run(["acme-broken", "--fix"], dir);
  for (const s of said) assert.match(fixed.stderr, s);
  assert.match(fixed.stderr, /fixed 2 problems in 1 file;/);
  assert.deepEqual(readFileSync(outside), outsideBefore, "the file outside the company is as it was");
  assert.ok(lstatSync(nightly).isSymbolicLink(), "the link is still a link");
  assert.deepEqual(readFileSync(data), latin1, "every byte of the file that is not UTF-8 as it was");
  assert.match(readFileSync(join(dir, "acme-broken/resources/infra.ts"), "utf8"), /fly\.machine\(/, "infra.ts fixed");
});

test("--fix never blocks on a FIFO put where a file to fix was (the writer opens it without blocking, and takes regular files only)", () => {
  const dir = broken();
  const fifo = join(dir, "pipe.ts");
  execFileSync("mkfifo", [fifo]);
  // In a Node of its own: a write that blocked would be this child's, ended by the timeout.
  const code = `const w = require(${JSON.stringify(join(REPO, "server/src/check/write.ts"))}); const written = w.writeIfUnchanged(process.argv[1], "", "x"); process.stdout.write(JSON.stringify([written, w.fixRefusal(process.argv[1])]));`;
  const r = spawnSync(process.execPath, ["--import", "tsx", "-e", code, fifo], { cwd: REPO, encoding: "utf8", timeout: 15_000 });
  assert.equal(r.status, 0, `the child ended by itself (${r.signal ?? r.status}): ${r.stderr}`);
  assert.deepEqual(JSON.parse(r.stdout), ["changed", "is no regular file any more: not fixed"]);
  assert.ok(statSync(fifo).isFIFO(), "the FIFO is as it was");
});

// ---- the core's pieces -----------------------------------------------------------------------

const R = (line: number, a: number, b: number) => ({ start: { line, character: a }, end: { line, character: b } });
function problem(fixes: Fix[], line = 0): Problem {
  return { rule: "collection-op", severity: "error", file: "/f.ts", range: R(line, 0, 1), message: "m", fixes };
}
const fix = (title: string, preferred: boolean | undefined, ...edits: [number, number, number, string][]): Fix =>
  ({ title, preferred, edits: edits.map(([line, a, b, newText]) => ({ file: "/f.ts", range: R(line, a, b), newText })) });

test("isCertainFix: a fix the rule marked preferred and the only such fix of its problem", () => {
  const one = fix("a", true, [0, 0, 1, "x"]);
  assert.equal(isCertainFix(problem([one]), one), true);
  const plain = fix("b", undefined, [0, 0, 1, "y"]);
  assert.equal(isCertainFix(problem([plain]), plain), false, "not marked");
  const two = fix("c", true, [0, 0, 1, "z"]);
  assert.equal(isCertainFix(problem([one, two]), one), false, "two preferred: the user chooses");
  assert.equal(certainFix(problem([plain, one])), one);
  assert.equal(isCertainFix(problem([fix("d", true)]), fix("d", true)), false, "not the problem's own fix, and no edit");
});

test("planFixes: in order, a fix overlapping one taken is left whole; the same edit twice is made once", () => {
  const a = problem([fix("a", true, [0, 2, 5, "AAA"])]);
  const b = problem([fix("b", true, [0, 4, 6, "B"])]);
  const c = problem([fix("c", true, [0, 5, 7, "C"])], 1);
  const d = problem([fix("d", true, [0, 2, 5, "AAA"])], 2);
  const plan = planFixes([a, b, c, d]);
  assert.deepEqual(plan.taken.map((t) => t.fix.title), ["a", "c", "d"]);
  assert.deepEqual(plan.overlapping.map((t) => t.fix.title), ["b"]);
  assert.deepEqual(plan.edits.get("/f.ts")!.map((e) => e.newText), ["AAA", "C"]);
  assert.equal(applyEdits("0123456789\nline two\n", plan.edits.get("/f.ts")!), "01AAAC789\nline two\n");
});

test("applyEdits: positions in UTF-16 units on any line, from the end back; CRLF lines", () => {
  const text = "é😀ab\r\nsecond line\r\nthird";
  assert.equal(applyEdits(text, [{ file: "/f", range: R(0, 3, 4), newText: "X" }, { file: "/f", range: R(2, 0, 5), newText: "3rd" }, { file: "/f", range: R(1, 0, 0), newText: ">" }]), "é😀Xb\r\n>second line\r\n3rd");
});

test("unifiedDiff: hunks with three lines of context, far changes apart, near ones together, a missing final newline said", () => {
  const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
  const before = lines.join("\n") + "\n";
  const after = lines.map((l, i) => (i === 1 ? "LINE 2" : i === 4 ? "LINE 5" : i === 17 ? "LINE 18" : l)).join("\n") + "\n";
  assert.equal(unifiedDiff("x.ts", before, after), [
    "--- a/x.ts", "+++ b/x.ts",
    "@@ -1,8 +1,8 @@", " line 1", "-line 2", "+LINE 2", " line 3", " line 4", "-line 5", "+LINE 5", " line 6", " line 7", " line 8",
    "@@ -15,6 +15,6 @@", " line 15", " line 16", " line 17", "-line 18", "+LINE 18", " line 19", " line 20", "",
  ].join("\n"));
  assert.equal(unifiedDiff("x.ts", "a\nb", "a\nc"), "--- a/x.ts\n+++ b/x.ts\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n");
  assert.equal(unifiedDiff("x.ts", "a\n", "a\n"), "");
  assert.equal(unifiedDiff("x.ts", "a\n", "a\nb\n"), "--- a/x.ts\n+++ b/x.ts\n@@ -1 +1,2 @@\n a\n+b\n");
  assert.equal(unifiedDiff("x.ts", "", "a\n"), "--- a/x.ts\n+++ b/x.ts\n@@ -0,0 +1 @@\n+a\n");
});

test("unifiedDiff: git apply takes every diff of random edits to random texts", () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-diff-")));
  dirs.push(dir);
  execFileSync("git", ["init", "-q"], { cwd: dir });
  let seed = 7;
  const rand = (n: number) => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return seed % n; };
  for (let round = 0; round < 40; round++) {
    const words = ["a", "b", "c", "d", "x y", ""];
    const text = Array.from({ length: rand(30) }, () => words[rand(words.length)]).join("\n") + (rand(3) ? "\n" : "");
    const lines = text.split("\n");
    for (let k = rand(5); k >= 0; k--) {
      const at = rand(lines.length + 1);
      if (rand(2)) lines.splice(at, rand(3), ...Array.from({ length: rand(3) }, () => words[rand(words.length)]));
      else lines.splice(at, 0, `new ${round}`);
    }
    const changed = lines.join("\n");
    writeFileSync(join(dir, "f.txt"), text);
    const diff = unifiedDiff("f.txt", text, changed);
    if (diff === "") { assert.equal(text, changed); continue; }
    writeFileSync(join(dir, "p.diff"), diff);
    execFileSync("git", ["apply", "p.diff"], { cwd: dir });
    assert.equal(readFileSync(join(dir, "f.txt"), "utf8"), changed, `round ${round}\n${diff}`);
  }
});
