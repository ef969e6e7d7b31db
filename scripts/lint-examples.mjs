// Lints the example companies with our own lint plugin, the way a company's CI would: the real
// `oxlint` binary with the built plugin (lint-plugin/dist/index.mjs) over each folder of
// examples/. Each example must get from oxlint exactly what `sanoma-check` (dist/check.js) reports
// for the five import rules (file, line, column, rule, message); an example whose name ends in
// `-broken` must have every import rule firing, any other example none.
//
// Usage: node scripts/lint-examples.mjs [examples-folder]   (after node scripts/build.mjs; the
// folder defaults to examples/). Exit 1 on a difference, 2 when something to run is missing.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const EXAMPLES = resolve(process.argv[2] ?? join(REPO, "examples"));
const PLUGIN = join(REPO, "lint-plugin", "dist", "index.mjs");
const CHECK = join(REPO, "dist", "check.js");
const OXLINT = join(REPO, "node_modules", ".bin", "oxlint");

const examples = existsSync(EXAMPLES) ? readdirSync(EXAMPLES).filter((e) => !e.startsWith(".") && statSync(join(EXAMPLES, e)).isDirectory()).sort() : [];
if (examples.length === 0) {
  console.log(`lint-examples: no example companies under ${EXAMPLES}, nothing to lint`);
  process.exit(0);
}
for (const f of [PLUGIN, CHECK, OXLINT]) {
  if (!existsSync(f)) { console.error(`lint-examples: ${f} is missing (run npm install and node scripts/build.mjs)`); process.exit(2); }
}
// The import rules, as the built plugin names them (the registry's IMPORT_RULE_IDS).
const RULES = Object.keys((await import(PLUGIN)).default.rules);

/** 0-based line and UTF-16 column of a UTF-16 offset; lines end at \n, \r\n or a lone \r, as the core counts them. */
function position(text, offset) {
  let line = 0, start = 0;
  for (let i = 0; i < offset; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) { line++; start = i + 1; }
  }
  return { line, character: offset - start };
}

function oxlintFindings(dir, config) {
  const r = spawnSync(OXLINT, ["-c", config, "-f", "json", "."], { cwd: dir, encoding: "utf8", maxBuffer: 64 << 20 });
  let out;
  try { out = JSON.parse(r.stdout); } catch { throw new Error(`oxlint printed no JSON (exit ${r.status}): ${r.stdout}${r.stderr}`); }
  const found = [], other = [];
  for (const d of out.diagnostics) {
    const m = /^sanoma\((.+)\)$/.exec(d.code ?? "");
    const span = d.labels?.[0]?.span;
    if (!m || !span) { other.push({ file: d.filename.split("\\").join("/"), message: d.message }); continue; }
    const bytes = readFileSync(join(dir, d.filename));
    const text = bytes.toString("utf8");
    // oxlint counts UTF-8 bytes; the core (and LSP) count UTF-16 units.
    const p = position(text, bytes.subarray(0, span.offset).toString("utf8").length);
    found.push(`${d.filename.split("\\").join("/")}:${p.line + 1}:${p.character + 1} ${m[1]} ${d.message}`);
  }
  return { found: found.sort(), other };
}

function checkFindings(dir) {
  // Run from the company's folder: sanoma-check prints paths relative to it.
  const r = spawnSync(process.execPath, [CHECK, ".", "--format", "json"], { cwd: dir, encoding: "utf8", maxBuffer: 64 << 20 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`sanoma-check failed (exit ${r.status}): ${r.stderr}`);
  const problems = JSON.parse(r.stdout).problems;
  return {
    found: problems.filter((p) => RULES.includes(p.rule)).map((p) => `${p.file.split("\\").join("/")}:${p.line}:${p.column} ${p.rule} ${p.message}`).sort(),
    // Files that do not parse (syntax-error): oxlint's own parse error there is the same news.
    broken: new Set(problems.filter((p) => p.rule === "syntax-error").map((p) => p.file.split("\\").join("/"))),
  };
}

const work = mkdtempSync(join(tmpdir(), "sanoma-lint-examples-"));
let failed = false;
try {
  const config = join(work, "oxlintrc.json");
  writeFileSync(config, JSON.stringify({ jsPlugins: [PLUGIN], categories: { correctness: "off" }, rules: Object.fromEntries(RULES.map((r) => [`sanoma/${r}`, "error"])) }));
  for (const name of examples) {
    const dir = join(EXAMPLES, name);
    const ox = oxlintFindings(dir, config);
    const { found: check, broken } = checkFindings(dir);
    const problems = [];
    for (const o of ox.other) if (!broken.has(o.file)) problems.push(`oxlint: ${o.file}: ${o.message}`);
    for (const f of check) if (!ox.found.includes(f)) problems.push(`missing from oxlint: ${f}`);
    for (const f of ox.found) if (!check.includes(f)) problems.push(`oxlint only:         ${f}`);
    const fired = new Set(ox.found.map((f) => f.split(" ")[1]));
    if (name.endsWith("-broken")) {
      for (const r of RULES) if (!fired.has(r)) problems.push(`${r} does not fire in ${name}`);
    } else if (ox.found.length > 0) {
      problems.push(`${name} is meant to be clean`);
    }
    const counts = RULES.map((r) => ox.found.filter((f) => f.split(" ")[1] === r).length);
    const agree = ox.found.length === check.length && ox.found.every((f, i) => f === check[i]);
    console.log(`${problems.length ? "✗" : "✓"} ${name}: oxlint + sanoma plugin found ${ox.found.length} (${RULES.map((r, i) => `${r} ${counts[i]}`).join(", ")}); sanoma-check ${agree ? "agrees" : "differs"}`);
    for (const p of problems) console.log(`    ${p}`);
    failed ||= problems.length > 0;
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
