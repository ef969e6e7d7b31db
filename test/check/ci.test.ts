/**
 * `sanoma-check` as CI runs it, each flag as a process: `--format sarif` validated against the
 * SARIF 2.1.0 JSON schema (vendored beside this file: `sarif-schema-2.1.0.json`, the schema the
 * SARIF SDK ships in `@microsoft/sarif-multitool-linux` 5.7.0, MIT), `--format github`
 * annotations read back as GitHub reads them, `--quiet`, `--max-warnings`, colours (a pipe, a
 * terminal, `NO_COLOR`, `FORCE_COLOR`), the summary last with every severity and the files
 * skipped, paths relative to the working folder in every format, and the usage errors.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import Ajv from "ajv";
import { RULES, ruleDocsUrl } from "../../server/src/core/rules/index.ts";
import { removeFixture, writeFixture } from "../support/fixture.ts";

const REPO = resolve(import.meta.dirname, "..", "..");
const CHECK = join(REPO, "dist", "check.js");
/** The environment without colour settings of the test's own (a CI runner may set FORCE_COLOR). */
const BASE_ENV = Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== "FORCE_COLOR" && k !== "NO_COLOR"));
const run = (args: string[], cwd: string, env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [CHECK, ...args], { cwd, encoding: "utf8", timeout: 60000, env: { ...BASE_ENV, ...env } });

const SCHEMA = JSON.parse(readFileSync(join(import.meta.dirname, "sarif-schema-2.1.0.json"), "utf8"));

/** Every keyword the vendored schema uses is one draft-07 has (ajv 6 knows draft-07: the schema says 2020-12 but uses nothing newer). */
function keywords(x: unknown, inMap = false, out = new Set<string>()): Set<string> {
  if (Array.isArray(x)) for (const y of x) keywords(y, false, out);
  else if (x && typeof x === "object") {
    for (const [k, v] of Object.entries(x)) {
      if (!inMap) out.add(k);
      keywords(v, !inMap && (k === "properties" || k === "definitions"), out);
    }
  }
  return out;
}
const DRAFT7 = new Set(["$schema", "$id", "$ref", "title", "description", "default", "type", "properties", "additionalProperties", "required", "items", "minItems", "maxItems", "uniqueItems", "enum", "format", "pattern", "minimum", "maximum", "anyOf", "oneOf", "allOf", "not", "definitions", "minLength", "maxLength", "const"]);
const validateSarif = new Ajv({ allErrors: true, format: "full" }).compile({ ...SCHEMA, $schema: "http://json-schema.org/draft-07/schema#" });

const COMPANY = `
//- /co/sanoma.config.ts
export default { secrets: { bindings: {} } };
//- /co/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const orders = collection({ key: "id", fields: { id: "string" } });
//- /co/resources/keys.ts
import { secret } from "@sanoma-ai/workflows/resources";
export const token = secret("MISSING");
//- /co/workflows/nightly.ts
export async function nightly(ctx: any) {
  await ctx.call("data.orders.lst", {});
  await ctx.call("data.nope.get", {});
}
`;
/** A file whose name holds what URIs and workflow commands escape (a fixture header takes no space). */
const ODD = "co/workflows/odd, name: #1 50%.ts";

const dirs: string[] = [];
after(() => { for (const d of dirs) removeFixture(d); });
function company(extra = ""): string {
  const dir = writeFixture(COMPANY + extra, "sanoma-ci-");
  dirs.push(dir);
  writeFileSync(join(dir, ODD), `import { x } from "../apps/a/x";\nexport const odd = x;\n`);
  return dir;
}

test("--format sarif: valid SARIF 2.1.0 (the schema, with ajv): one run, every rule in the driver with its page and summary, related locations, certain fixes, paths relative to the working folder", () => {
  assert.deepEqual([...keywords(SCHEMA)].filter((k) => !DRAFT7.has(k)), [], "the schema uses draft-07's keywords only");
  const dir = company();
  const r = run(["co", "--format", "sarif"], dir);
  assert.equal(r.status, 1, r.stderr);
  const log = JSON.parse(r.stdout);
  assert.equal(validateSarif(log), true, JSON.stringify(validateSarif.errors, null, 2));
  // The validator does fail on a log that breaks the schema.
  assert.equal(validateSarif({ ...log, runs: [{ ...log.runs[0], results: [{ ...log.runs[0].results[0], level: "fatal" }] }] }), false);
  assert.equal(log.version, "2.1.0");
  assert.equal(log.runs.length, 1);
  const [sarifRun] = log.runs;
  const driver = sarifRun.tool.driver;
  assert.equal(driver.name, "sanoma-check");
  assert.deepEqual(driver.rules.map((x: any) => x.id), RULES.map((x) => x.id), "every rule, in the registry's order");
  for (const [i, rule] of RULES.entries()) {
    assert.equal(driver.rules[i].helpUri, ruleDocsUrl(rule.id));
    assert.equal(driver.rules[i].shortDescription.text, rule.doc.summary);
  }
  // The same problems as --format json, in the same places.
  const json = JSON.parse(run(["co", "--format", "json"], dir).stdout);
  const base = sarifRun.originalUriBaseIds.SRCROOT.uri;
  assert.equal(base, `file://${dir}/`);
  const place = (l: any) => `${decodeURIComponent(l.physicalLocation.artifactLocation.uri)}:${l.physicalLocation.region.startLine}:${l.physicalLocation.region.startColumn}-${l.physicalLocation.region.endLine}:${l.physicalLocation.region.endColumn}`;
  assert.deepEqual(sarifRun.results.map((x: any) => `${x.ruleId} ${x.level} ${place(x.locations[0])} ${x.message.text}`),
    json.problems.map((p: any) => `${p.rule} ${p.severity === "info" || p.severity === "hint" ? "note" : p.severity} ${p.file}:${p.line}:${p.column}-${p.endLine}:${p.endColumn} ${p.message}`));
  for (const x of sarifRun.results) {
    assert.equal(driver.rules[x.ruleIndex].id, x.ruleId);
    assert.equal(x.locations[0].physicalLocation.artifactLocation.uriBaseId, "SRCROOT");
  }
  // The odd file name is a relative URI reference, escaped.
  const odd = sarifRun.results.find((x: any) => x.ruleId === "no-app-import-from-root");
  assert.equal(odd.locations[0].physicalLocation.artifactLocation.uri, "co/workflows/odd%2C%20name%3A%20%231%2050%25.ts");
  // Related locations: the collection of an unknown operation.
  const typo = sarifRun.results.find((x: any) => x.message.text.includes("`lst`"));
  assert.deepEqual(typo.relatedLocations.map((l: any) => [l.id, place(l), l.message.text]), [[1, "co/resources/data.ts:2:14-2:20", "`orders` is declared here"]]);
  // A certain fix: the did-you-mean replacement, inside the quotes.
  assert.deepEqual(typo.fixes, [{
    description: { text: "Change to data.orders.list" },
    artifactChanges: [{ artifactLocation: { uri: "co/workflows/nightly.ts", uriBaseId: "SRCROOT" }, replacements: [{ deletedRegion: { startLine: 2, startColumn: 19, endLine: 2, endColumn: 34 }, insertedContent: { text: "data.orders.list" } }] }],
  }]);
  const nightly = readFileSync(join(dir, "co/workflows/nightly.ts"), "utf8").split("\n")[1];
  assert.equal(nightly.slice(18, 33), "data.orders.lst");
  assert.equal(sarifRun.results.find((x: any) => x.message.text.includes("`nope`")).fixes, undefined, "no fix where none is certain");
  assert.equal(sarifRun.columnKind, "utf16CodeUnits");
});

test("--format sarif: a company outside the working folder has relative URIs (`../`) that resolve against SRCROOT to its files; the settings file's problems are configuration notifications; skipped files execution notifications", () => {
  const dir = company(`
//- /co/.sanomarc.json
{ "rules": { "colection-op": "off" } }
//- /co/lib/blob.ts
\u0000\u0001binary
`);
  const r = run([join(dir, "co"), "--format", "sarif"], REPO);
  const log = JSON.parse(r.stdout);
  assert.equal(validateSarif(log), true, JSON.stringify(validateSarif.errors, null, 2));
  const [sarifRun] = log.runs;
  // As a SARIF reader resolves them (RFC 3986), against the working folder's URI.
  const base = sarifRun.originalUriBaseIds.SRCROOT.uri;
  assert.equal(base, pathToFileURL(REPO).href + "/");
  const resolved = (loc: any) => { assert.equal(loc.uriBaseId, "SRCROOT"); assert.match(loc.uri, /^\.\.\//); return new URL(loc.uri, base).href; };
  assert.ok(sarifRun.results.length > 0);
  for (const x of sarifRun.results) assert.ok(resolved(x.locations[0].physicalLocation.artifactLocation).startsWith(pathToFileURL(join(dir, "co")).href + "/"));
  const [invocation] = sarifRun.invocations;
  assert.deepEqual(invocation.toolConfigurationNotifications.map((n: any) => [n.level, n.message.text, n.locations[0].physicalLocation.region.startLine]),
    [["error", `No rule named "colection-op"; did you mean "collection-op"?`, 1]]);
  assert.deepEqual(invocation.toolExecutionNotifications.map((n: any) => [n.message.text, resolved(n.locations[0].physicalLocation.artifactLocation)]),
    [["Skipped: a binary file, not read", pathToFileURL(join(dir, "co/lib/blob.ts")).href]]);
});

/** GitHub's reading of a workflow command (`::level props::message`): properties and message unescaped. */
function readCommand(line: string): { level: string; props: Record<string, string>; message: string } {
  const m = /^::(\w+) ([^:]*)::(.*)$/.exec(line);
  assert.ok(m, line);
  const un = (s: string) => s.replace(/%0D/g, "\r").replace(/%0A/g, "\n").replace(/%3A/g, ":").replace(/%2C/g, ",").replace(/%25/g, "%");
  const props = Object.fromEntries(m[2].split(",").map((kv) => { const i = kv.indexOf("="); return [kv.slice(0, i), un(kv.slice(i + 1))]; }));
  return { level: m[1], props, message: un(m[3]) };
}

test("--format github: one annotation per problem, at its place, its properties and message escaped as GitHub reads them", () => {
  const dir = company(`
//- /co/workflows/multi.ts
import { y } from "../apps/b/y\\n  %0A,:";
`);
  const r = run(["co", "--format", "github", "--rule", "secret-bindings=info"], dir);
  const json = JSON.parse(run(["co", "--format", "json", "--rule", "secret-bindings=info"], dir).stdout);
  const lines = r.stdout.split("\n").filter(Boolean);
  assert.equal(lines.length, json.problems.length, r.stdout);
  const read = lines.map(readCommand);
  assert.deepEqual(read.map((a) => [a.level, a.props.file, Number(a.props.line), Number(a.props.col), Number(a.props.endLine), Number(a.props.endColumn), a.props.title, a.message]),
    json.problems.map((p: any) => [p.severity === "info" ? "notice" : p.severity, p.file, p.line, p.column, p.endLine, p.endColumn, `sanoma(${p.rule})`, `${p.message}\n${p.docs}`]));
  assert.ok(read.some((a) => a.props.file === "co/workflows/odd, name: #1 50%.ts"), "a path with a comma, a colon and a percent sign");
  assert.ok(read.some((a) => a.message.includes("\n  %0A,:")), "a message with a line break and a literal %0A");
  assert.ok(read.some((a) => a.level === "notice"), "info is a notice");
  assert.equal(r.status, 1);
});

test("text and github: a control character in a path or a message (ESC, BEL, NUL) is written as an escape, never as itself; JSON keeps it as JSON does", () => {
  const dir = company();
  // A file whose name starts a terminal sequence (red, then a window title with BEL), and a
  // specifier holding ESC and NUL.
  const odd = "co/workflows/\x1b[31mred\x1b]0;pwned\x07.ts";
  writeFileSync(join(dir, odd), `import { x } from "../apps/a/\\u001b[2J\\u0000x";\nexport const odd = x;\n`);
  for (const format of ["text", "github"]) {
    const r = run(["co", "--format", format], dir);
    assert.equal(r.status, 1, r.stderr);
    // eslint-disable-next-line no-control-regex -- looking for control characters is the point
    assert.doesNotMatch(r.stdout, /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/, `${format}: no control character as itself`);
    assert.ok(r.stdout.includes("co/workflows/\\u001b[31mred\\u001b]0;pwned\\u0007.ts"), `${format}: the path with its controls escaped`);
    assert.ok(r.stdout.includes("\\u001b[2J\\u0000x"), `${format}: the message with its controls escaped`);
  }
  const json = JSON.parse(run(["co", "--format", "json"], dir).stdout);
  assert.ok(json.problems.some((p: any) => p.file === odd), "JSON: the path as it is");
});

test("--quiet prints errors only, in every format; the summary still counts every severity", () => {
  const dir = company();
  const all = run(["co"], dir);
  assert.ok(all.stdout.includes("  warning  secret-bindings  "));
  const q = run(["co", "--quiet"], dir);
  assert.equal(q.status, 1);
  const lines = q.stdout.trim().split("\n");
  assert.equal(lines.length, all.stdout.trim().split("\n").length - 1);
  for (const l of lines) assert.match(l, /  error  /);
  assert.match(q.stderr, /^3 errors, 1 warning, 0 info, 0 hints in 1 company \(errors shown only: --quiet\)\n$/);
  const json = JSON.parse(run(["co", "--format", "json", "-q"], dir).stdout);
  assert.deepEqual(json.problems.map((p: any) => p.severity), ["error", "error", "error"]);
  const sarif = JSON.parse(run(["co", "--format", "sarif", "-q"], dir).stdout);
  assert.deepEqual(sarif.runs[0].results.map((x: any) => x.level), ["error", "error", "error"]);
  assert.equal(sarif.runs[0].tool.driver.rules.length, RULES.length, "every rule still in the driver");
  const gh = run(["co", "--format", "github", "-q"], dir).stdout.trim().split("\n");
  assert.deepEqual(gh.map((l) => l.slice(0, l.indexOf(" "))), ["::error", "::error", "::error"]);
  // Warnings alone, quiet: nothing printed, exit 0.
  const warn = run(["--quiet", join(REPO, "test/check/fixtures/warnings-only")], dir);
  assert.deepEqual([warn.status, warn.stdout], [0, ""]);
});

test("--max-warnings N: exit 1 past N warnings (errors aside), said in the summary; a bad N is a usage error", () => {
  const dir = join(REPO, "test/check/fixtures/warnings-only");
  assert.equal(run([dir], REPO).status, 0);
  assert.equal(run([dir, "--max-warnings", "1"], REPO).status, 0);
  const over = run([dir, "--max-warnings=0"], REPO);
  assert.equal(over.status, 1);
  assert.match(over.stderr, /1 warning, .*; more warnings than --max-warnings 0\n$/);
  // Warnings hidden by --quiet still count.
  assert.equal(run([dir, "--max-warnings", "0", "--quiet"], REPO).status, 1);
  for (const bad of ["-1", "many", "1.5"]) {
    const r = run([dir, "--max-warnings", bad], REPO);
    assert.equal(r.status, 2, bad);
    assert.match(r.stderr, /--max-warnings takes a number of warnings/);
  }
  assert.equal(run([dir, "--max-warnings"], REPO).status, 2, "no value");
});

test("colours: never in a pipe; on a terminal; NO_COLOR turns them off, FORCE_COLOR on (and FORCE_COLOR=0 off); never in json, sarif or github", () => {
  const dir = company();
  const ESC = "\u001b[";
  const piped = run(["co"], dir);
  assert.ok(!piped.stdout.includes(ESC) && !piped.stderr.includes(ESC));
  const forced = run(["co"], dir, { FORCE_COLOR: "1" });
  assert.ok(forced.stdout.includes(`${ESC}31merror${ESC}39m`), forced.stdout);
  assert.ok(forced.stderr.includes(`${ESC}31m3 errors${ESC}39m`), forced.stderr);
  assert.ok(!run(["co"], dir, { FORCE_COLOR: "1", NO_COLOR: "" }).stdout.includes(ESC) === false, "an empty NO_COLOR says nothing");
  for (const format of ["json", "sarif", "github"]) assert.ok(!run(["co", "--format", format], dir, { FORCE_COLOR: "1" }).stdout.includes(ESC), format);
  // A terminal: `script` gives the command one (stdout and stderr both).
  const tty = (env: Record<string, string>) => spawnSync("script", ["-qec", `${JSON.stringify(process.execPath)} ${JSON.stringify(CHECK)} co`, "/dev/null"], { cwd: dir, encoding: "utf8", env: { ...BASE_ENV, TERM: "xterm", ...env } }).stdout;
  const onTty = tty({});
  assert.ok(onTty.includes(`${ESC}31merror${ESC}39m`), onTty);
  assert.ok(!tty({ NO_COLOR: "1" }).includes(ESC));
  assert.ok(!tty({ FORCE_COLOR: "0" }).includes(ESC));
  assert.ok(!tty({ TERM: "dumb" }).includes(ESC));
  // On a terminal, where stdout and stderr meet, the summary is the last line.
  const shown = onTty.trim().split(/\r?\n/);
  assert.match(shown[shown.length - 1], /3 errors.*1 warning.*in 1 company/);
  assert.equal(shown.length, 5, onTty);
});

test("the summary comes last and says which files were skipped and why (over 2 MB, binary, unreadable), without --verbose; --verbose lists them", () => {
  // (Binary library files: a small binary file the framework loads is read, and does not parse.)
  const dir = company(`
//- /co/lib/blob.ts
\u0000\u0001binary
//- /co/lib/blob2.ts
\u0000\u0002binary
`);
  writeFileSync(join(dir, "co/workflows/huge.ts"), `export const big = "${"x".repeat(2_100_000)}";\n`);
  writeFileSync(join(dir, "co/lib/secret.ts"), "export const s = 1;\n", { mode: 0o000 });
  const unreadable = process.getuid?.() !== 0; // root reads any file
  const r = run(["co"], dir);
  const summary = r.stderr.trim().split("\n").pop()!;
  assert.equal(summary, `3 errors, 1 warning, 0 info, 0 hints in 1 company; ${unreadable ? 4 : 3} files skipped (2 binary files, ${unreadable ? "1 file that cannot be read, " : ""}1 larger than 2 MB): --verbose lists them`);
  const verbose = run(["co", "-v"], dir);
  assert.match(verbose.stderr, /skipped co\/lib\/blob\.ts: a binary file, not read\n/);
  assert.match(verbose.stderr, /skipped co\/workflows\/huge\.ts: larger than 2 MB, not read\n/);
  const json = JSON.parse(run(["co", "--format", "json"], dir).stdout);
  assert.deepEqual(json.skipped.filter((s: { file: string }) => s.file !== "co/lib/secret.ts"), [
    { file: "co/lib/blob.ts", reason: "a binary file, not read" },
    { file: "co/lib/blob2.ts", reason: "a binary file, not read" },
    { file: "co/workflows/huge.ts", reason: "larger than 2 MB, not read" },
  ]);
});

test("paths relative to the working folder in every format (JSON too); JSON carries each problem's page, related places and fixes", () => {
  const dir = company();
  const json = JSON.parse(run(["co", "--format", "json"], join(dir)).stdout);
  assert.deepEqual(json.companies, ["co"]);
  const typo = json.problems.find((p: any) => p.message.includes("`lst`"));
  assert.deepEqual(typo, {
    file: "co/workflows/nightly.ts", line: 2, column: 18, endLine: 2, endColumn: 35, severity: "error", rule: "collection-op",
    message: typo.message, docs: ruleDocsUrl("collection-op"),
    related: [{ file: "co/resources/data.ts", line: 2, column: 14, endLine: 2, endColumn: 20, message: "`orders` is declared here" }],
    fixes: [{ title: "Change to data.orders.list", preferred: true, edits: [{ file: "co/workflows/nightly.ts", line: 2, column: 19, endLine: 2, endColumn: 34, newText: "data.orders.list" }] }],
  });
  // From inside the company: paths from there, `../` for what lies outside that folder (B2: relative in every format).
  const inside = JSON.parse(run([".", "--format", "json"], join(dir, "co/workflows")).stdout);
  assert.deepEqual(inside.companies, [".."]);
  assert.ok(inside.problems.some((p: any) => p.file === "nightly.ts"), JSON.stringify(inside.problems.map((p: any) => p.file)));
  assert.ok(inside.problems.some((p: any) => p.file === "../resources/keys.ts"), JSON.stringify(inside.problems.map((p: any) => p.file)));
  assert.ok(inside.problems.every((p: any) => !p.file.startsWith("/")), JSON.stringify(inside.problems.map((p: any) => p.file)));
  const text = run(["."], join(dir, "co/workflows")).stdout;
  assert.ok(text.split("\n").some((l) => l.startsWith("nightly.ts:2:18  error  collection-op  ")), text);
  assert.ok(text.split("\n").some((l) => l.startsWith("../resources/keys.ts:")), text);
  const gh = run([".", "--format", "github"], join(dir, "co/workflows")).stdout;
  assert.ok(gh.includes("file=nightly.ts,"), gh);
  assert.ok(gh.includes("file=../resources/keys.ts,"), gh);
  const sarif = JSON.parse(run([".", "--format", "sarif"], join(dir, "co/workflows")).stdout);
  assert.equal(validateSarif(sarif), true, JSON.stringify(validateSarif.errors, null, 2));
  const uris = sarif.runs[0].results.map((x: any) => x.locations[0].physicalLocation.artifactLocation);
  assert.ok(uris.some((u: any) => u.uri === "../resources/keys.ts" && u.uriBaseId === "SRCROOT"), JSON.stringify(uris));
  // Another company beside the folder a check runs in: `../` too, from a folder that holds none.
  mkdirSync(join(dir, "empty-beside"));
  const beside = JSON.parse(run(["../co", "--format", "json"], join(dir, "empty-beside")).stdout);
  assert.deepEqual(beside.companies, ["../co"]);
  assert.ok(beside.problems.some((p: any) => p.file === "../co/workflows/nightly.ts"));
});

test("usage errors exit 2: a path that does not exist, a file, a folder with no company, an unknown format; --fix with --fix-dry-run", () => {
  const dir = company();
  mkdirSync(join(dir, "empty"));
  for (const [args, said] of [
    [["nope"], /sanoma-check: nope does not exist/],
    [["co/workflows/nightly.ts"], /is a file: sanoma-check takes folders/],
    [["empty"], /no company \(no sanoma\.config\.ts\) in, under or above empty/],
    [["co", "empty"], /no company .* empty/],
    [["co", "--format", "yaml"], /--format takes text, json, sarif or github, not "yaml"/],
    [["co", "--fix", "--fix-dry-run"], /give one of them/],
    [["co", "--fix-dry-run", "--format", "json"], /--fix-dry-run prints a diff: it takes no --format/],
  ] as [string[], RegExp][]) {
    const r = run(args, dir);
    assert.equal(r.status, 2, args.join(" "));
    assert.match(r.stderr, said);
    assert.equal(r.stdout, "", args.join(" "));
  }
  // The current folder, given by default, is a path too.
  assert.equal(run([], join(dir, "empty")).status, 2);
});
