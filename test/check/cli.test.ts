/**
 * `sanoma-check` run as a process, as CI runs it: on the example companies (the clean one says
 * nothing and exits 0, the broken one reports exactly its marked problems and exits 1), both
 * output formats, several folders, and bad usage.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { compareExpectations } from "../support/expect-comments.ts";
import { removeFixture, writeFixture } from "../support/fixture.ts";
import { caseNamed, casesOf } from "../support/rule-cases.ts";
import { RULE_IDS } from "../../server/src/core/rules/ids.ts";
import { Workspace } from "../../server/src/core/workspace.ts";
import { nodeFileSystem } from "../../server/src/node/fs.ts";

const REPO = resolve(import.meta.dirname, "..", "..");
const CHECK = join(REPO, "dist", "check.js");
/** The lockfile rule's case of a pnpm phantom dependency (server/src/core/rules/lockfile.ts). */
const PHANTOM_CASE = "a connector whose export * names a package not installed where Node looks (a phantom dependency under pnpm) declares types unknown, in that package: no binding is an orphan, no name is said to be missing (A5, A6)";
const run = (args: string[], cwd = REPO) => spawnSync(process.execPath, [CHECK, ...args], { cwd, encoding: "utf8", timeout: 60000 });

function copyExample(name: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-example-")));
  cpSync(join(REPO, "examples", name), join(dir, name), { recursive: true });
  return join(dir, name);
}

test("sanoma-check: the clean example prints no problem and exits 0", () => {
  const r = run(["examples/acme"]);
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /^0 errors, 0 warnings, 0 info, 0 hints in 1 company\n$/);
});

test("sanoma-check: the clean example's declarations all resolve to their types (nothing is silently skipped)", () => {
  const ws = new Workspace(nodeFileSystem);
  const root = join(REPO, "examples/acme");
  ws.loadCompany(root);
  const { analysis } = ws.check(root);
  assert.deepEqual(analysis.declarations.map((d) => `${d.id} ${d.type?.id}`).sort(), [
    "apps/billing/resources/queue.ts#billingQueue fly.queue",
    "resources/infra.ts#agents fly.sandbox",
    "resources/infra.ts#db neon.database",
    "resources/infra.ts#hooks fly.webhook",
    "resources/infra.ts#web fly.machine",
    "resources/infra.ts#worker fly.machine",
  ]);
  assert.deepEqual(analysis.collections.map((c) => `${c.scope ?? "root"}:${c.name}`).sort(), ["billing:invoices", "root:customers", "root:orders", "support:tickets"]);
});

test("sanoma-check: the clean example before its packages are installed (a CI step run too early) says which are missing and how many declarations went unchecked; no binding is an orphan", () => {
  const root = copyExample("acme");
  try {
    rmSync(join(root, "node_modules"), { recursive: true, force: true });
    const r = run([root]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, "", "no problem: not an orphan binding among them");
    assert.match(r.stderr, /^0 errors, 0 warnings, 0 info, 0 hints in 1 company; 6 declarations not checked: `@acme-vendors\/fly`, `@acme-vendors\/neon` are not installed \(install the company's packages first\)\n$/);
    // What a script or a code-scanning step reads says it too.
    const json = JSON.parse(run([root, "--format", "json"]).stdout);
    assert.deepEqual(json.notInstalled, [{ package: "@acme-vendors/fly", declarations: 5, reason: "not-installed" }, { package: "@acme-vendors/neon", declarations: 1, reason: "not-installed" }]);
    const sarif = JSON.parse(run([root, "--format", "sarif"]).stdout);
    assert.deepEqual(sarif.runs[0].invocations[0].toolExecutionNotifications.map((n: { level: string; message: { text: string } }) => `${n.level} ${n.message.text}`), [
      "warning 5 declarations not checked: the package `@acme-vendors/fly` is not installed (install the company's packages first)",
      "warning 1 declaration not checked: the package `@acme-vendors/neon` is not installed (install the company's packages first)",
    ]);
  } finally {
    rmSync(resolve(root, ".."), { recursive: true, force: true });
  }
});

test("sanoma-check: a connector whose export * names a package not installed where Node looks (a phantom dependency in pnpm's layout) names that package as not installed, and counts the declarations it leaves unchecked", () => {
  const root = writeFixture(caseNamed(casesOf("lockfile"), PHANTOM_CASE));
  try {
    // pnpm's layout: the connector's real folder in .pnpm, linked into node_modules; no @x/base beside it nor above.
    const real = join(root, "node_modules/.pnpm/@x+conn@1.0.0/node_modules/@x");
    mkdirSync(real, { recursive: true });
    renameSync(join(root, "node_modules/@x/conn"), join(real, "conn"));
    symlinkSync(join(real, "conn"), join(root, "node_modules/@x/conn"), "dir");
    const r = run([root, "--format", "json"]);
    assert.equal(r.status, 1, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.deepEqual(json.problems.map((p: { rule: string; message: string }) => `${p.rule} ${p.message}`), [
      "resource-fields `bogus` is not a field of x.machine (its fields: `name`, `region`)",
      "lockfile Orphan binding: resources/infra.ts declares no `gone`; apply will ask to delete o:4",
    ]);
    assert.deepEqual(json.notInstalled, [{ package: "@x/base", declarations: 3, reason: "not-installed" }]);
    assert.match(r.stderr, /; 3 declarations not checked: `@x\/base` is not installed \(install the company's packages first\)\n$/);
  } finally {
    removeFixture(root);
  }
});

test("sanoma-check: a package both a pnpm phantom (a connector's export * of it, Node finds nothing from the connector's real folder) and not built (the company's own import of it) is one entry, with the reason that holds first: not built", () => {
  const peer = `"peerDependencies": { "@sanoma-ai/workflows": "*" }`;
  const dir = writeFixture(`
//- /mono/co/sanoma.config.ts
export default {};
//- /mono/co/resources/infra.ts
import * as x from "@x/conn";
import { hook } from "@x/base";
export const h1 = x.hook({ path: "/a" });
export const h2 = x.queue({ name: "b" });
export const h3 = hook({ path: "/c" });
export const web = x.machine({ name: "web", bogus: 1 });
//- /mono/co/node_modules/@x/base/package.json
{ "name": "@x/base", "exports": { ".": "./dist/index.js" }, ${peer} }
//- /mono/co/node_modules/@x/conn/package.json
{ "name": "@x/conn", "type": "module", "main": "index.js", ${peer} }
//- /mono/co/node_modules/@x/conn/index.js
export * from "@x/base";
export { machine } from "./machine.js";
//- /mono/co/node_modules/@x/conn/machine.js
import { defineResource } from "@sanoma-ai/workflows";
export const machine = defineResource({ vendor: "x", type: "machine", schema: z.object({ name: z.string() }) });
`, "sanoma-phantom-unbuilt-");
  try {
    // pnpm's store at the monorepo's root: @x/conn's real folder there, and no @x/base beside it or above it.
    const real = join(dir, "mono/node_modules/.pnpm/@x+conn@1.0.0/node_modules/@x");
    mkdirSync(real, { recursive: true });
    renameSync(join(dir, "mono/co/node_modules/@x/conn"), join(real, "conn"));
    symlinkSync(join(real, "conn"), join(dir, "mono/co/node_modules/@x/conn"), "dir");
    const json = JSON.parse(run(["mono/co", "--format", "json"], dir).stdout);
    assert.deepEqual(json.problems.map((p: { rule: string }) => p.rule), ["resource-fields"]);
    assert.deepEqual(json.notInstalled, [{ package: "@x/base", declarations: 3, reason: "not-built", entry: "./dist/index.js" }]);
    const text = run(["mono/co"], dir);
    assert.match(text.stderr, /; 3 declarations not checked: the package `@x\/base` is there, but not its entry `\.\/dist\/index\.js` \(build it first\)\n$/);
    // Built, the company's own import resolves; the connector's export * still finds nothing: not installed, said alone.
    mkdirSync(join(dir, "mono/co/node_modules/@x/base/dist"));
    writeFileSync(join(dir, "mono/co/node_modules/@x/base/dist/index.js"), `import { defineResource } from "@sanoma-ai/workflows";\nexport const hook = defineResource({ vendor: "x", type: "hook", schema: z.object({ path: z.string() }) });\n`);
    assert.deepEqual(JSON.parse(run(["mono/co", "--format", "json"], dir).stdout).notInstalled, [{ package: "@x/base", declarations: 2, reason: "not-installed" }]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("sanoma-check --format json: the broken example reports exactly its marked problems, with files relative to the working folder and 1-based positions", () => {
  const root = copyExample("acme-broken");
  const cwd = resolve(root, "..");
  try {
    const r = run([root, "--format", "json"], cwd);
    assert.equal(r.status, 1, r.stderr);
    const { problems } = JSON.parse(r.stdout);
    assert.deepEqual(compareExpectations(root, problems.map((p: any) => ({ file: relative(root, join(cwd, p.file)), line: p.line, rule: p.rule, message: p.message }))), []);
    for (const p of problems) {
      assert.ok(p.file.startsWith("acme-broken/"), `relative to the working folder: ${p.file}`);
      assert.deepEqual(Object.keys(p).sort(), ["column", "docs", "endColumn", "endLine", "file", "fixes", "line", "message", "related", "rule", "severity"]);
      assert.ok(p.line >= 1 && p.column >= 1);
    }
    const rules = new Set(problems.map((p: any) => p.rule));
    assert.deepEqual([...rules].sort(), [...RULE_IDS].sort(), "every rule fires in the broken example (syntax-error too)");
  } finally { rmSync(resolve(root, ".."), { recursive: true, force: true }); }
});

test("sanoma-check: text lines are file:line:col  severity  rule  message, relative to the current folder", () => {
  const r = run(["examples/acme-broken"]);
  assert.equal(r.status, 1);
  const lines = r.stdout.trim().split("\n");
  assert.ok(lines.length >= 29);
  for (const l of lines) assert.match(l, /^examples\/acme-broken\/[^:]+:\d+:\d+  (error|warning)  [a-z-]+  .+$/);
  assert.ok(lines.includes("examples/acme-broken/workflows/nightly.ts:7:33  error  collection-op  Collection `orders` has no operation `lst`; did you mean `list`? (its operations: get, list, count, save, saveMany, delete)"));
});

test("sanoma-check: several folders, and a folder above companies finds them all", () => {
  const r = run(["examples", "--format", "json"]);
  const files = new Set(JSON.parse(r.stdout).problems.map((p: any) => relative(REPO, p.file).split("/").slice(0, 2).join("/")));
  assert.deepEqual([...files], ["examples/acme-broken"]);
  const both = run(["examples/acme", "examples/acme-broken", "--format=json"]);
  assert.equal(both.status, 1);
});

test("sanoma-check: a folder above a company whose config is a symlink to a file finds it", () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-linked-config-")));
  try {
    mkdirSync(join(dir, "co", "workflows"), { recursive: true });
    writeFileSync(join(dir, "shared-config.ts"), "export default {};\n");
    symlinkSync(join(dir, "shared-config.ts"), join(dir, "co", "sanoma.config.ts"));
    writeFileSync(join(dir, "co", "workflows", "a.ts"), 'import x from "../apps/b/x";\nexport const a = x;\n');
    const r = run([dir, "--format", "json"]);
    assert.deepEqual(JSON.parse(r.stdout).problems.map((p: any) => `${relative(dir, p.file)} ${p.rule}`), ["co/workflows/a.ts no-app-import-from-root"]);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test("sanoma-check: one company given twice, by a symlink too, is checked once; -- ends the options; a folder without a company is a usage error in JSON too", () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-twice-")));
  try {
    mkdirSync(join(dir, "-co", "workflows"), { recursive: true });
    writeFileSync(join(dir, "-co", "sanoma.config.ts"), "export default {};\n");
    writeFileSync(join(dir, "-co", "workflows", "a.ts"), 'import x from "../apps/b/x";\nexport const a = x;\n');
    symlinkSync(join(dir, "-co"), join(dir, "link"));
    const r = run(["--format", "json", "--", "-co", "link"], dir);
    assert.equal(r.status, 1, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout).problems.map((p: any) => p.rule), ["no-app-import-from-root"]);
    mkdirSync(join(dir, "empty"));
    const none = run(["empty", "--format", "json"], dir);
    assert.deepEqual([none.status, none.stdout], [2, ""]);
    assert.match(none.stderr, /no company \(no sanoma\.config\.ts\) in, under or above empty/);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test("sanoma-check: a folder holding a company and a link to it finds the company by its real path, whatever the order (the link's path was printed when it came first)", () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-link-order-")));
  try {
    // "a-link" sorts before "co" and after it ("z-link"): both orders of the walk.
    mkdirSync(join(dir, "co", "workflows"), { recursive: true });
    writeFileSync(join(dir, "co", "sanoma.config.ts"), "export default {};\n");
    writeFileSync(join(dir, "co", "workflows", "a.ts"), 'import x from "../apps/b/x";\nexport const a = x;\n');
    symlinkSync("co", join(dir, "a-link"));
    symlinkSync("co", join(dir, "z-link"));
    const r = run([dir, "--format", "json"]);
    const out = JSON.parse(r.stdout);
    // (Printed relative to the working folder, as every path is: B2.)
    assert.deepEqual(out.companies, [relative(REPO, join(dir, "co"))]);
    assert.deepEqual(out.problems.map((p: any) => relative(dir, p.file)), ["co/workflows/a.ts"]);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test("sanoma-check: a company's check that throws outside any rule (SANOMA_FAILPOINTS=check:1, the first company's) exits 2 with its stack and the company named, and reports nothing, in any format: never a clean report", () => {
  for (const format of ["text", "json", "sarif", "github"]) {
    const r = spawnSync(process.execPath, [CHECK, "examples/acme", "examples/acme-broken", "--format", format], { cwd: REPO, encoding: "utf8", timeout: 60000, env: { ...process.env, SANOMA_FAILPOINTS: "check:1" } });
    assert.equal(r.status, 2, `${format}: ${r.stderr}`);
    assert.equal(r.stdout, "", `${format}: no report, not even the other company's`);
    assert.match(r.stderr, /^sanoma-check: internal error: Error: failpoint check: a fault made on purpose \(SANOMA_FAILPOINTS, for tests only\)\n\s+at /, format);
    assert.match(r.stderr, /\nsanoma-check: the check of examples\/acme did not finish, so no problem of any company is reported\. This is a fault of sanoma-check's, not a finding in your code: please report it with the stack above\.\n$/, format);
    assert.doesNotMatch(r.stderr, /\d+ errors?, \d+ warnings?/, `${format}: no summary`);
  }
});

test("sanoma-check: warnings alone exit 0", () => {
  const r = run(["--format", "json", "test/check/fixtures/warnings-only"]);
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.deepEqual(JSON.parse(r.stdout).problems.map((p: any) => p.severity), ["warning"]);
});

test("sanoma-check: bad usage exits 2 with the usage; --help exits 0", () => {
  const bad = run(["--format", "xml"]);
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--format takes text, json, sarif or github, not "xml"/);
  assert.match(bad.stderr, /Usage: sanoma-check/);
  assert.equal(run(["--frobnicate"]).status, 2);
  assert.equal(run(["no/such/folder"]).status, 2);
  const help = run(["--help"]);
  assert.equal(help.status, 0);
  assert.match(help.stdout, /Usage: sanoma-check/);
});

test("sanoma-check: --rule and --exclude do what the editor's sanoma.rules and sanoma.exclude settings do; --version; an empty path is refused plainly", () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-options-")));
  try {
    mkdirSync(join(dir, "workflows"), { recursive: true });
    mkdirSync(join(dir, "generated"), { recursive: true });
    writeFileSync(join(dir, "sanoma.config.ts"), "export default {};\n");
    writeFileSync(join(dir, "workflows", "w.ts"), `export const w = (ctx: any) => ctx.call("data.nope.get", {});\n`);
    writeFileSync(join(dir, "generated", "g.ts"), `export const g = (ctx: any) => ctx.call("data.nope.list", {});\n`);
    const rules = (args: string[]) => JSON.parse(run([dir, "--format", "json", ...args]).stdout).problems.map((p: any) => `${relative(dir, p.file)} ${p.severity}`).sort();
    assert.deepEqual(rules([]), ["generated/g.ts error", "workflows/w.ts error"]);
    assert.deepEqual(rules(["--exclude", "generated"]), ["workflows/w.ts error"]);
    assert.deepEqual(rules(["--exclude=generated", "--rule", "collection-op=warning"]), ["workflows/w.ts warning"]);
    const off = run([dir, "--rule=collection-op=off"]);
    assert.equal(off.status, 0, "a rule turned off finds nothing");
    assert.equal(off.stdout, "");
    assert.equal(run([dir, "--rule", "collection-op=warning"]).status, 0, "warnings alone exit 0");
    const unknown = run([dir, "--rule", "no-such-rule=off"]);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /no rule named "no-such-rule"\n/);
    assert.match(run([dir, "--rule", "colection-op=off"]).stderr, /there is no rule named "colection-op"; did you mean "collection-op"\?/);
    assert.match(run([dir, "--rule", "collection-op=loud"]).stderr, /takes off, error, warning, info, hint, not "loud"/);
    // The level is all after the first "=" (the rest was dropped: `=off=error` turned the rule off).
    const twice = run([dir, "--rule", "collection-op=off=error"]);
    assert.equal(twice.status, 2);
    assert.match(twice.stderr, /takes off, error, warning, info, hint, not "off=error"/);
    // A folder as a shell completes it, or from here, is the folder (they excluded nothing).
    for (const spelled of ["generated/", "./generated", "./generated/"]) assert.deepEqual(rules(["--exclude", spelled]), ["workflows/w.ts error"], spelled);
    // A folder that would leave out every company, or none of it, is bad usage, not a check that judges nothing.
    for (const [spelled, why] of [[".", /would leave out every company: nothing would be judged/], ["../x", /climbs out of the company/]] as const) {
      const bad = run([dir, "--exclude", spelled]);
      assert.equal(bad.status, 2, spelled);
      assert.match(bad.stderr, why, spelled);
    }
    assert.deepEqual(JSON.parse(run([dir, "--format", "json"]).stdout).companies, [relative(REPO, dir)], "the companies checked are listed");
  } finally { rmSync(dir, { recursive: true, force: true }); }
  const version = run(["--version"]);
  assert.equal(version.status, 0);
  assert.match(version.stdout, /^sanoma-check \d+\.\d+\.\d+\n$/);
  const empty = run([""]);
  assert.equal(empty.status, 2);
  assert.match(empty.stderr, /an empty path is no folder/);
});

test("sanoma-check: a line break in a message or a path is escaped in text output: one problem, one line", () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-lines-")));
  try {
    mkdirSync(join(dir, "workflows"), { recursive: true });
    writeFileSync(join(dir, "sanoma.config.ts"), "export default {};\n");
    writeFileSync(join(dir, "workflows", "w.ts"), `import { x } from "../apps/a/x\\n  error  fake-rule  injected";\n`);
    const r = run([], dir);
    assert.equal(r.status, 1);
    const lines = r.stdout.split("\n").filter(Boolean);
    assert.equal(lines.length, 1, r.stdout);
    assert.match(lines[0], /^workflows\/w\.ts:1:19  error  no-app-import-from-root  .*\\n  error  fake-rule  injected/);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test("sanoma-check --version says the package's version", () => {
  const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8"));
  assert.equal(run(["--version"]).stdout.trim(), `sanoma-check ${pkg.version}`);
});

test("sanoma-check: a folder with no company says so and is a usage error (exit 2)", () => {
  const dir = mkdtempSync(join(tmpdir(), "sanoma-empty-"));
  try {
    const r = run([dir]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /no company/);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

/** A small company with one error and one warning, in a new folder: the folder. */
function smallCompany(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-cli-")));
  mkdirSync(join(dir, "real", "co", "workflows"), { recursive: true });
  mkdirSync(join(dir, "real", "co", "resources"), { recursive: true });
  writeFileSync(join(dir, "real", "co", "sanoma.config.ts"), "export default { secrets: { bindings: {} } };\n");
  writeFileSync(join(dir, "real", "co", "resources", "keys.ts"), `import { secret } from "@sanoma-ai/workflows/resources";\nexport const token = secret("MISSING");\n`);
  writeFileSync(join(dir, "real", "co", "workflows", "w.ts"), `export const w = (ctx: any) => ctx.call("data.nope.get", {});\n`);
  return dir;
}

test("sanoma-check: a working folder reached through a link shows paths from it as the shell names it ($PWD), in text, github and SARIF; a folder given by a path through a link to a place inside the working folder, from there too", () => {
  const dir = smallCompany();
  try {
    symlinkSync("real", join(dir, "link"));
    const from = (cwd: string, pwd: string, args: string[]) => spawnSync(process.execPath, [CHECK, ...args], { cwd, encoding: "utf8", timeout: 60000, env: { ...process.env, PWD: pwd } });
    const link = join(dir, "link");
    const text = from(link, link, [join(link, "co")]);
    assert.equal(text.stdout.split("\n")[0], "co/resources/keys.ts:2:29  warning  secret-bindings  No secret binding named `MISSING` in sanoma.config.ts; apply will look for it in the secret store");
    assert.match(from(link, link, [join(link, "co"), "--format", "github"]).stdout, /^::warning file=co\/resources\/keys\.ts,/);
    const sarif = JSON.parse(from(link, link, [join(link, "co"), "--format", "sarif"]).stdout);
    assert.equal(sarif.runs[0].originalUriBaseIds.SRCROOT.uri, `file://${link}/`);
    assert.deepEqual(sarif.runs[0].results.map((r: any) => r.locations[0].physicalLocation.artifactLocation.uri).sort(), ["co/resources/keys.ts", "co/workflows/w.ts"]);
    // In the real folder, the company named through the link.
    const real = join(dir, "real");
    assert.equal(from(real, real, [join(link, "co")]).stdout.split("\n")[0].split(":")[0], "co/resources/keys.ts");
    // A $PWD that is not this folder is not taken.
    assert.equal(from(real, "/tmp", ["co"]).stdout.split("\n")[0].split(":")[0], "co/resources/keys.ts");
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test("sanoma-check: a report stdout cannot take (a full disk: /dev/full) is said, and the exit code is 2, not the findings' 0", () => {
  const dir = smallCompany();
  try {
    writeFileSync(join(dir, "real", "co", "workflows", "w.ts"), "export const w = 1;\n"); // a warning alone: exit 0 when all is written
    for (const command of [CHECK, join(REPO, "server", "bin", "sanoma-check.js")]) {
      const r = spawnSync("sh", ["-c", `"${process.execPath}" "${command}" co --format sarif > /dev/full`], { cwd: join(dir, "real"), encoding: "utf8", timeout: 60000 });
      assert.equal(r.status, 2, `${command}: ${r.stderr}`);
      assert.match(r.stderr, /sanoma-check: the report could not be written to stdout \(ENOSPC\): it is not whole\n$/);
    }
    // A reader gone (`| head -c 1`) is no failure of ours: the findings' exit code.
    const piped = spawnSync("sh", ["-c", `"${process.execPath}" "${CHECK}" co --format sarif | head -c 1 > /dev/null`], { cwd: join(dir, "real"), encoding: "utf8", timeout: 60000 });
    assert.doesNotMatch(piped.stderr, /could not be written/);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test("sanoma-check: a path that is there but no folder nor file (a FIFO, a device) is a usage error that says so", () => {
  const dir = smallCompany();
  try {
    spawnSync("mkfifo", [join(dir, "pipe")]);
    const r = run(["pipe"], dir);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /^sanoma-check: pipe is no folder \(a FIFO, a device\?\): sanoma-check takes folders\n/);
    assert.match(run(["missing"], dir).stderr, /^sanoma-check: missing does not exist\n/);
  } finally { rmSync(dir, { recursive: true, force: true }); }
});

test("sanoma-check: a package found otherwise than installed says what was found: Yarn's Plug'n'Play, a workspace package not built (Node stops at it), and a company importing itself by its package name resolves", async () => {
  const { writeFixture } = await import("../support/fixture.ts");
  const { CLOUD_PACKAGE } = await import("../../server/src/core/rules/case-packages.ts");
  const infra = (from: string) => `import { cloud } from "${from}";\nexport const web = cloud.vmm({ name: "web" });\n`;
  const dir = writeFixture(`
//- /pnp/.pnp.cjs
module.exports = {};
//- /pnp/co/sanoma.config.ts
export default {};
//- /pnp/co/resources/infra.ts
${infra("@hooli/cloud")}
//- /stray/.pnp.cjs
module.exports = {};
//- /stray/home/co/sanoma.config.ts
export default {};
//- /stray/home/co/resources/infra.ts
${infra("@hooli/cloud")}
//- /stray/home/co/node_modules/left-pad/package.json
{ "name": "left-pad" }
//- /unbuilt/co/sanoma.config.ts
export default {};
//- /unbuilt/co/resources/infra.ts
${infra("@hooli/cloud")}
//- /unbuilt/co/node_modules/@hooli/cloud/package.json
{ "name": "@hooli/cloud", "exports": { ".": "./dist/index.js" } }
${CLOUD_PACKAGE.replaceAll("//- /node_modules/", "//- /unbuilt/node_modules/")}
//- /self/co/sanoma.config.ts
export default {};
//- /self/co/package.json
{ "name": "acme", "exports": { "./connectors": "./connectors/index.js" } }
//- /self/co/connectors/index.js
export { cloud } from "@hooli/cloud";
//- /self/co/resources/infra.ts
${infra("acme/connectors")}
${CLOUD_PACKAGE.replaceAll("//- /node_modules/", "//- /self/co/node_modules/")}
`, "sanoma-unfound-");
  try {
    const json = JSON.parse(run(["pnp", "unbuilt", "self", "--format", "json"], dir).stdout);
    assert.deepEqual(json.notInstalled, [
      { package: "@hooli/cloud", declarations: 1, reason: "not-built", entry: "./dist/index.js" },
      { package: "@hooli/cloud", declarations: 1, reason: "plug-n-play", file: "pnp/.pnp.cjs" },
    ], "one entry per package and what was found of it");
    const each = (folder: string) => JSON.parse(run([folder, "--format", "json"], dir).stdout);
    assert.deepEqual(each("unbuilt").notInstalled, [{ package: "@hooli/cloud", declarations: 1, reason: "not-built", entry: "./dist/index.js" }],
      "the package of the company's own node_modules, not built: Node stops there, the built copy above is not reached");
    assert.deepEqual(each("pnp").notInstalled, [{ package: "@hooli/cloud", declarations: 1, reason: "plug-n-play", file: "pnp/.pnp.cjs" }]);
    // A company installed otherwise (a node_modules of its own), under a .pnp.cjs left above it: not installed, simply.
    assert.deepEqual(each("stray").notInstalled, [{ package: "@hooli/cloud", declarations: 1, reason: "not-installed" }]);
    // Importing itself by its name, through its exports: the type is found, and its typo reported.
    const self = each("self");
    assert.deepEqual(self.notInstalled, []);
    assert.deepEqual(self.problems.map((p: { rule: string; file: string }) => `${p.rule} ${p.file}`), ["resource-type self/co/resources/infra.ts"]);
    // What a person reads (the summary), and a GitHub run (an annotation of the run).
    const text = run(["unbuilt"], dir);
    assert.match(text.stderr, /; 1 declaration not checked: the package `@hooli\/cloud` is there, but not its entry `\.\/dist\/index\.js` \(build it first\)\n$/);
    const pnp = run(["pnp"], dir);
    assert.match(pnp.stderr, /; 1 declaration not checked: the package `@hooli\/cloud` is installed by Yarn Plug'n'Play \(pnp\/\.pnp\.cjs\), whose packages cannot be read here: set `nodeLinker: node-modules` in \.yarnrc\.yml\n$/);
    assert.equal(pnp.status, 0, "nothing else found: the run passes, and says why it judged less");
    const github = run(["pnp", "--format", "github"], dir);
    assert.equal(github.stdout, "::warning title=sanoma%3A not checked::1 declaration not checked: the package `@hooli/cloud` is installed by Yarn Plug'n'Play (pnp/.pnp.cjs), whose packages cannot be read here: set `nodeLinker: node-modules` in .yarnrc.yml\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("sanoma-check: declarations of a connector whose exports cannot be read as far as their names are counted as not checked, and say why (they passed in silence); a helper package that cannot be read holds no type, and hides no connector's typo", async () => {
  const { writeFixture } = await import("../support/fixture.ts");
  const dir = writeFixture(`
//- /co/sanoma.config.ts
export default {};
//- /co/resources/infra.ts
import { cloud } from "@x/made";
export const web = cloud.vm({ name: "web" });
export const api = cloud.vmm({ name: "api" });
//- /co/sanoma.lock.json
{ "version": 1, "bindings": { "resources/infra.ts#web": { "type": "cloud.vm", "object": "o:1" } } }
//- /co/node_modules/@x/made/package.json
{ "name": "@x/made", "main": "index.js", "peerDependencies": { "@sanoma-ai/workflows": "*" } }
//- /co/node_modules/@x/made/index.js
module.exports = makeConnectors(require("./impl"));
//- /helper/sanoma.config.ts
export default {};
//- /helper/resources/infra.ts
import Handlebars from "handlebars";
export const greeting = Handlebars.compile("hello");
//- /helper/sanoma.lock.json
{ "version": 1, "bindings": { "resources/infra.ts#greeting": { "type": "cloud.vm", "object": "o:2" } } }
//- /helper/node_modules/handlebars/package.json
{ "name": "handlebars", "main": "index.js" }
//- /helper/node_modules/handlebars/index.js
module.exports = create();
//- /esm/sanoma.config.ts
export default {};
//- /esm/resources/infra.ts
import { fly } from "@x/fly";
export const web = fly.machin({ name: "web" });
//- /esm/node_modules/@x/fly/package.json
{ "name": "@x/fly", "type": "module", "main": "index.js", "peerDependencies": { "@sanoma-ai/workflows": "*" } }
//- /esm/node_modules/@x/fly/index.js
import { defineResource } from "@sanoma-ai/workflows";
const machine = defineResource({ vendor: "fly", type: "machine" });
export const fly = { machine };
export * from "fly-sdk";
//- /esm/node_modules/fly-sdk/package.json
{ "name": "fly-sdk", "main": "index.js" }
//- /esm/node_modules/fly-sdk/index.js
module.exports = createClient();
`, "sanoma-unreadable-");
  try {
    const r = run(["co", "--format", "json"], dir);
    assert.equal(r.status, 0, r.stderr);
    const json = JSON.parse(r.stdout);
    assert.deepEqual(json.problems, [], "no orphan, no type said to be missing");
    assert.deepEqual(json.notInstalled, [{ package: "@x/made", declarations: 2, reason: "unreadable" }]);
    assert.match(r.stderr, /; 2 declarations not checked: `@x\/made` cannot be read as far as their types \(its CommonJS exports, a module it re-exports, or one with syntax errors\)\n$/);
    // A helper package (no dependency on the framework) that cannot be read holds no type: a call
    // of it is no declaration (A5), and the stale binding is an orphan, as it always was.
    const helper = JSON.parse(run(["helper", "--format", "json"], dir).stdout);
    assert.deepEqual(helper.problems.map((p: { rule: string; message: string }) => `${p.rule} ${p.message}`), ["lockfile Orphan binding: resources/infra.ts declares no `greeting`; apply will ask to delete o:2"]);
    assert.deepEqual(helper.notInstalled, []);
    // A connector's `export *` of a helper's CommonJS module it cannot read adds no unknown names:
    // the typo is still said (Node passes on none of such a module's names through `export *`).
    const esm = JSON.parse(run(["esm", "--format", "json"], dir).stdout);
    assert.deepEqual(esm.problems.map((p: { rule: string }) => p.rule), ["resource-type"]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
