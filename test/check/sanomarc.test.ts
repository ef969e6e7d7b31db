/**
 * `.sanomarc.json`, the settings a team commits: the core's reading (every problem at its place,
 * an unknown rule id with a did-you-mean, `warn` read as `warning`, the rest of the file still
 * holding), its JSON reader held to `JSON.parse`, the nearest file winning, `exclude` from the
 * file's folder, a person's choices laid over it; `sanoma-check` reading it as a process; and the
 * schema the extension contributes, made from the rule registry.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import Ajv from "ajv";
import { absoluteInCompanies, excludeFor, findSanomaRc, layer, leftOutWholeBy, parseSanomaRc, personalBases, personalExclude, personalExcludeFor, readJson, readSanomaRc } from "../../server/src/core/sanomarc.ts";
import type { FileSystem } from "../../server/src/core/types.ts";
import { RULE_IDS } from "../../server/src/core/rules/index.ts";
import { parseSettings } from "../../server/src/lsp/settings.ts";
import { NESTED_FIXTURE_COMPANIES } from "../support/companies.ts";
import { nodeFileSystem } from "../../server/src/node/fs.ts";
import { sanomarcSchema } from "../../scripts/sanomarc-schema.ts";
import { removeFixture, writeFixture } from "../support/fixture.ts";
import { expectedOf, RC_CASES, spot } from "../support/sanomarc-cases.ts";

const REPO = resolve(import.meta.dirname, "..", "..");
const CHECK = join(REPO, "dist", "check.js");
const run = (args: string[], cwd: string) => spawnSync(process.execPath, [CHECK, ...args], { cwd, encoding: "utf8", timeout: 60000 });

const dirs: string[] = [];
after(() => { for (const d of dirs) removeFixture(d); });

/** Where each problem of a text is, drawn as `line:col-col message`. */
function problemsOf(text: string): string[] {
  return parseSanomaRc("/co/.sanomarc.json", text, RULE_IDS).problems.map((p) => {
    const line = text.split("\n")[p.range.start.line];
    return `${p.severity} ${JSON.stringify(line.slice(p.range.start.character, p.range.end.line === p.range.start.line ? p.range.end.character : undefined))} ${p.message}`;
  });
}

test("parseSanomaRc: rules and exclude; warn is warning; $schema is allowed", () => {
  const { settings, problems } = parseSanomaRc("/co/.sanomarc.json", `{
  "$schema": "./node_modules/x/schema.json",
  "rules": { "collection-op": "warn", "one-wakeup": "off", "lockfile": "hint", "secret-bindings": "error", "collection-key": "info" },
  "exclude": ["generated", "./apps/legacy/", "apps\\\\old", "././gen//"]
}`, RULE_IDS);
  assert.deepEqual(problems, []);
  assert.deepEqual(settings, {
    rules: { "collection-op": "warning", "one-wakeup": "off", lockfile: "hint", "secret-bindings": "error", "collection-key": "info" },
    exclude: ["generated", "apps/legacy", "apps/old", "gen"],
  });
  // (Read as a flag's or the editor's setting is, `personalExclude`: every leading `./` dropped.)
  assert.deepEqual(settings.exclude, ["generated", "./apps/legacy/", "apps\\old", "././gen//"].map((e) => (personalExclude(e) as { folder: string }).folder));
});

test("parseSanomaRc: each bad value is a problem at its place, with a did-you-mean; the good values still hold", () => {
  const text = `{
  "rules": {
    "colection-op": "off",
    "one-wakeup": "loud",
    "one-sandbox": "eror",
    "lockfile": 2,
    "no-cross-app-import": "warning",
    "no-cross-app-import": "off",
    "totally-unknown": "off"
  },
  "exlude": ["generated"],
  "exclude": ["ok", 3, "", "../up", "**/gen"]
}`;
  assert.deepEqual(problemsOf(text), [
    `error "\\"colection-op\\"" No rule named "colection-op"; did you mean "collection-op"?`,
    `error "\\"loud\\"" "loud" is no level (a rule's level is "off", "error", "warning" or "warn", "info" or "hint")`,
    `error "\\"eror\\"" "eror" is no level; did you mean "error"? (a rule's level is "off", "error", "warning" or "warn", "info" or "hint")`,
    `error "2" 2 is no level (a rule's level is "off", "error", "warning" or "warn", "info" or "hint")`,
    `warning "\\"no-cross-app-import\\"" Rule "no-cross-app-import" is given again below: the last one holds`,
    `error "\\"totally-unknown\\"" No rule named "totally-unknown"`,
    `warning "\\"exlude\\"" Unknown setting "exlude"; did you mean "exclude"? (.sanomarc.json holds "rules" and "exclude")`,
    `error "3" An excluded folder is a string: a name ("generated") or a path from this file's folder ("apps/legacy")`,
    `error "\\"\\"" "" is no folder under this file's folder`,
    `error "\\"../up\\"" "../up" is no folder under this file's folder`,
    `warning "\\"**/gen\\"" "**/gen" is read as a folder's name or path, not as a pattern: no folder is named so ("generated", "apps/legacy")`,
  ]);
  assert.deepEqual(parseSanomaRc("/co/.sanomarc.json", text, RULE_IDS).settings, { rules: { "no-cross-app-import": "off" }, exclude: ["ok", "**/gen"] });
});

test("parseSanomaRc: a key given again, at the top or in rules, twice or three times, among others: a warning at each one but the last, in the file's order, and the last one holds", () => {
  const text = `{
  "exclude": ["a"],
  "rules": { "lockfile": "off", "one-wakeup": "warn", "lockfile": "hint", "one-sandbox": "info", "lockfile": "error", "one-wakeup": "off" },
  "bogus": 1,
  "exclude": ["b"],
  "bogus": 2,
  "exclude": ["c"],
  "rules": { "collection-op": "warn", "collection-op": "off" }
}`;
  assert.deepEqual(problemsOf(text), [
    `warning "\\"exclude\\"" "exclude" is given again below: the last one holds`,
    `warning "\\"rules\\"" "rules" is given again below: the last one holds`,
    `warning "\\"bogus\\"" "bogus" is given again below: the last one holds`,
    `warning "\\"exclude\\"" "exclude" is given again below: the last one holds`,
    `warning "\\"bogus\\"" Unknown setting "bogus" (.sanomarc.json holds "rules" and "exclude")`,
    `warning "\\"collection-op\\"" Rule "collection-op" is given again below: the last one holds`,
  ]);
  assert.deepEqual(parseSanomaRc("/co/.sanomarc.json", text, RULE_IDS).settings, { rules: { "collection-op": "off" }, exclude: ["c"] });
  // Inside the rules given first (passed over whole), nothing is judged: its own repeats are not said.
  const rules = `{ "rules": { "lockfile": "off", "one-wakeup": "warn", "lockfile": "hint", "one-sandbox": "info", "lockfile": "error", "one-wakeup": "off" } }`;
  const places = parseSanomaRc("/co/.sanomarc.json", rules, RULE_IDS).problems.map((p) => `${p.range.start.character} ${p.message}`);
  assert.deepEqual(places, [
    `13 Rule "lockfile" is given again below: the last one holds`,
    `32 Rule "one-wakeup" is given again below: the last one holds`,
    `54 Rule "lockfile" is given again below: the last one holds`,
  ]);
  assert.deepEqual(parseSanomaRc("/co/.sanomarc.json", rules, RULE_IDS).settings.rules, { "one-sandbox": "info", lockfile: "error", "one-wakeup": "off" });
});

test("parseSanomaRc: a file that is not JSON, or not an object, is one problem at the offending place, and nothing of it is applied", () => {
  assert.deepEqual(problemsOf(`{\n  "rules": { "one-wakeup": "off" }\n  "exclude": []\n}`), [`error "\\"" .sanomarc.json is not JSON (expected a comma or a closing brace, found "\\""): its settings are not applied`]);
  assert.deepEqual(problemsOf(`{ "rules": { "one-wakeup": "off", } }`), [`error "}" .sanomarc.json is not JSON (expected a key in double quotes, found "}"): its settings are not applied`]);
  assert.deepEqual(problemsOf(``), [`error "" .sanomarc.json is not JSON (expected a value, found the end of the file): its settings are not applied`]);
  assert.deepEqual(problemsOf(`["rules"]`), [`error "[\\"rules\\"]" .sanomarc.json holds an object: { "rules": { "<rule id>": "<level>" }, "exclude": ["<folder>"] }`]);
  assert.deepEqual(problemsOf(`{ "rules": ["one-wakeup"] }`).length, 1);
  assert.deepEqual(parseSanomaRc("/f", `{ "rules": { "one-wakeup": "off" } } x`, RULE_IDS).settings, { rules: {}, exclude: [] });
  assert.deepEqual(problemsOf("\u0000\u0001\u0002").length, 1, "binary");
  assert.equal(problemsOf("[".repeat(100_000)).length, 1, "nested past any stack: one problem, no throw");
});

test("readJson: accepts what JSON.parse accepts, with the same values, and refuses what it refuses (random values, half of them broken a character)", () => {
  let seed = 11;
  const rand = (n: number) => { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return (seed >>> 8) % n; };
  const strings = ["", "a", "warn", "é\u2028", "q\"uote", "back\\slash", "\n\t", "\u0001"];
  const value = (depth: number): unknown => {
    const k = rand(depth > 3 ? 4 : 6);
    if (k === 0) return strings[rand(strings.length)];
    if (k === 1) return [0, -1, 1.5, -2e-7, 1e21, 123456789][rand(6)];
    if (k === 2) return [true, false, null][rand(3)];
    if (k === 3) return strings[rand(strings.length)];
    if (k === 4) return Array.from({ length: rand(4) }, () => value(depth + 1));
    return Object.fromEntries(Array.from({ length: rand(4) }, () => [strings[rand(strings.length)], value(depth + 1)]));
  };
  const noise = ["", " ", "\n", "\t", ",", "}", "]", "\"", "\\", "x", "0", "{", ":", "\u0000"];
  const toValue = (j: any): unknown => j.kind === "object" ? Object.fromEntries(j.members.map((m: any) => [m.key, toValue(m.value)])) : j.kind === "array" ? j.items.map(toValue) : j.value;
  let accepted = 0;
  for (let i = 0; i < 5000; i++) {
    let text = JSON.stringify(value(0), null, rand(3));
    if (rand(2)) { const at = rand(text.length + 1); text = text.slice(0, at) + noise[rand(noise.length)] + text.slice(at + rand(2)); }
    let expected: unknown, ok = true;
    try { expected = JSON.parse(text); } catch { ok = false; }
    const got = readJson(text);
    assert.equal("value" in got, ok, text);
    if (ok && "value" in got) { accepted++; assert.deepEqual(toValue(got.value), expected, text); }
  }
  assert.ok(accepted > 2000 && accepted < 4500, `${accepted} valid texts among them`);
});

test("readSanomaRc: the nearest file at or above the company root wins, whole (no merging); none is no settings", () => {
  const dir = writeFixture(`
//- /.sanomarc.json
{ "rules": { "one-wakeup": "off" }, "exclude": ["generated"] }
//- /mono/a/sanoma.config.ts
export default {};
//- /mono/b/sanoma.config.ts
export default {};
//- /mono/b/.sanomarc.json
{ "rules": { "collection-op": "warn" } }
`, "sanoma-rc-near-");
  dirs.push(dir);
  const a = readSanomaRc(nodeFileSystem, join(dir, "mono/a"), RULE_IDS);
  assert.equal(a.file, join(dir, ".sanomarc.json"));
  assert.deepEqual(a.settings.rules, { "one-wakeup": "off" });
  const b = readSanomaRc(nodeFileSystem, join(dir, "mono/b"), RULE_IDS);
  assert.equal(b.file, join(dir, "mono/b/.sanomarc.json"));
  assert.deepEqual(b.settings, { rules: { "collection-op": "warning" }, exclude: [] });
  // An editor's unsaved text of the file wins over the disk's.
  assert.deepEqual(readSanomaRc(nodeFileSystem, join(dir, "mono/b"), RULE_IDS, (f) => (f === b.file ? `{ "rules": { "lockfile": "off" } }` : undefined)).settings.rules, { lockfile: "off" });
  // A folder of that name is the nearest all the same: said so, and nothing applied (the farther
  // file neither), as with a file that cannot be read (before, it was passed over in silence).
  mkdirSync(join(dir, "mono/c/.sanomarc.json"), { recursive: true });
  const c = readSanomaRc(nodeFileSystem, join(dir, "mono/c"), RULE_IDS);
  assert.equal(c.file, join(dir, "mono/c/.sanomarc.json"));
  assert.deepEqual(c.settings, { rules: {}, exclude: [] });
  assert.deepEqual(c.problems.map((p) => `${p.severity} ${p.message}`), ["error .sanomarc.json is a folder, not a file: no settings are applied (a farther .sanomarc.json neither: the nearest is the one that counts)"]);
  // So is a link that leads nowhere, and a FIFO (never read: it would block): they were passed
  // over, and the farther file's settings applied in silence.
  mkdirSync(join(dir, "mono/d"));
  symlinkSync("gone.json", join(dir, "mono/d/.sanomarc.json"));
  mkdirSync(join(dir, "mono/e"));
  assert.equal(spawnSync("mkfifo", [join(dir, "mono/e/.sanomarc.json")]).status, 0);
  // A link that leads to a device leads somewhere: to no regular file, as a FIFO is.
  mkdirSync(join(dir, "mono/f"));
  symlinkSync("/dev/null", join(dir, "mono/f/.sanomarc.json"));
  for (const [sub, what] of [["d", "is a link that leads to no file"], ["e", "is no regular file (a FIFO, a socket or a device)"], ["f", "is a link to no regular file (a FIFO, a socket or a device)"]]) {
    const rc = readSanomaRc(nodeFileSystem, join(dir, "mono", sub), RULE_IDS);
    assert.equal(rc.file, join(dir, "mono", sub, ".sanomarc.json"), sub);
    assert.deepEqual(rc.settings, { rules: {}, exclude: [] }, sub);
    assert.deepEqual(rc.problems.map((p) => `${p.severity} ${p.message}`), [`error .sanomarc.json ${what}: no settings are applied (a farther .sanomarc.json neither: the nearest is the one that counts)`], sub);
  }
});

test("findSanomaRc: a folder on the way up is listed only where something bears the name, and the answer is the same as listing every folder's (a file, a folder, a link to nothing, a FIFO, nothing)", () => {
  const dir = writeFixture(`
//- /mono/companies/co0/sanoma.config.ts
export default {};
//- /mono/companies/co1/sanoma.config.ts
export default {};
//- /mono/companies/co2/sanoma.config.ts
export default {};
//- /mono/file/.sanomarc.json
{}
//- /mono/file/co/sanoma.config.ts
export default {};
`, "sanoma-rc-lookup-");
  dirs.push(dir);
  const mono = join(dir, "mono");
  mkdirSync(join(mono, "folder/.sanomarc.json/x"), { recursive: true });
  mkdirSync(join(mono, "dangling/co"), { recursive: true });
  symlinkSync("gone.json", join(mono, "dangling/.sanomarc.json"));
  mkdirSync(join(mono, "fifo/co"), { recursive: true });
  assert.equal(spawnSync("mkfifo", [join(mono, "fifo/.sanomarc.json")]).status, 0);
  // (The search goes on above the fixture, up to /: nothing there bears the name on a test machine.)
  const listed: string[] = [];
  const counting: FileSystem = { ...nodeFileSystem, readDir: (d) => { listed.push(d); return nodeFileSystem.readDir(d); } };
  // A file system that cannot tell whether a path may exist: every folder on the way is listed, as before.
  const { mayExist, ...listing } = nodeFileSystem;
  assert.ok(mayExist);
  const expected: [string, string | undefined][] = [
    ["companies/co0", undefined], ["companies/co2", undefined], ["file/co", "file"], ["folder/.sanomarc.json/x", "folder"],
    ["dangling/co", "dangling"], ["fifo/co", "fifo"],
  ];
  for (const [start, found] of expected) {
    listed.length = 0;
    const file = findSanomaRc(counting, join(mono, start));
    assert.equal(file, found && join(mono, found, ".sanomarc.json"), start);
    assert.equal(findSanomaRc(listing, join(mono, start)), file, `${start}: the answer of a lookup that lists every folder`);
    // Only a folder where something bears the name but is neither file nor folder is listed (to tell that very name).
    assert.deepEqual(listed, found === "dangling" || found === "fifo" ? [join(mono, found)] : [], `${start}: the folders listed`);
  }
  // What the lookup asks of the disk: nothing there, or a path under a file, is a no; a link to nothing or a FIFO is there.
  assert.equal(mayExist(join(mono, "companies/.sanomarc.json")), false);
  assert.equal(mayExist(join(mono, "file/.sanomarc.json/x")), false);
  assert.equal(mayExist(join(mono, "dangling/.sanomarc.json")), true);
  assert.equal(mayExist(join(mono, "fifo/.sanomarc.json")), true);
});

test("personalExclude: a flag's or a setting's folder is read as .sanomarc.json's entries are (`workflows/`, `./apps/legacy`, `a\\b`); `.`, a climb out, and nothing are refused", () => {
  for (const [given, folder] of [["workflows/", "workflows"], ["./apps/legacy", "apps/legacy"], ["././gen//", "gen"], ["apps\\legacy", "apps/legacy"], ["generated", "generated"]]) {
    assert.deepEqual(personalExclude(given), { folder }, given);
  }
  for (const given of [".", "./", "", "/", "../x", "apps/../..", "a/../b"]) assert.ok("error" in personalExclude(given), given);
  assert.match((personalExclude(".") as { error: string }).error, /would leave out every company/);
  // The editor's setting alike: each entry read so, one that names no folder said and left out.
  const editor = parseSettings({ exclude: ["gen/", ".", "./apps/legacy"] });
  assert.deepEqual(editor.settings.exclude, ["gen", "apps/legacy"]);
  assert.deepEqual(editor.problems, [`sanoma.exclude: "." would leave out every company: nothing would be judged`]);
});

test("an absolute excluded folder: in .sanomarc.json (shared, committed) one of the file's own folder or in it, or a Windows one, is an error at the entry, saying how to write it from the file's folder, and not applied (any other `/x` is a path from the file's folder, as .gitignore reads it); a person's (a flag, a setting) is the folder it names, read as a path of each company it lies in, or leaves out whole a company it holds, and else a path from each company root", () => {
  const text = `{ "exclude": ["/co/apps/legacy/", "/elsewhere/x", "/apps/legacy", "C:\\\\work\\\\co", "C:/work", "\\\\\\\\srv\\\\share", "/", "gen"] }`;
  assert.deepEqual(problemsOf(text), [
    `error "\\"/co/apps/legacy/\\"" "/co/apps/legacy/" is an absolute path: an excluded folder is written from this file's folder, as "apps/legacy", which holds on every machine (not applied)`,
    `error "\\"C:\\\\\\\\work\\\\\\\\co\\"" "C:\\work\\co" is an absolute path: an excluded folder is written from this file's folder ("apps/legacy"), which holds on every machine (not applied)`,
    `error "\\"C:/work\\"" "C:/work" is an absolute path: an excluded folder is written from this file's folder ("apps/legacy"), which holds on every machine (not applied)`,
    `error "\\"\\\\\\\\\\\\\\\\srv\\\\\\\\share\\"" "\\\\srv\\share" is an absolute path: an excluded folder is written from this file's folder ("apps/legacy"), which holds on every machine (not applied)`,
    `error "\\"/\\"" "/" is no folder under this file's folder`,
  ]);
  // `/elsewhere/x` and `/apps/legacy` lie outside the file's folder: paths from it, as they always were.
  assert.deepEqual(parseSanomaRc("/co/.sanomarc.json", text, RULE_IDS).settings.exclude, ["/elsewhere/x", "/apps/legacy", "gen"]);
  assert.deepEqual(excludeFor("/co/.sanomarc.json", ["/apps/legacy"], "/co"), ["apps/legacy"]);
  // A person's: kept as the folder it names, normalised; one of another system names none here.
  assert.deepEqual(personalExclude("/co/apps//legacy/"), { folder: "/co/apps/legacy" });
  assert.deepEqual(personalExclude("/co/apps/../gen"), { folder: "/co/gen" });
  assert.deepEqual(personalExclude("C:\\work\\co"), { error: `"C:\\work\\co" is an absolute path of another system: it names no folder here` });
  assert.ok("error" in personalExclude("/"), "the root of the disk names nothing, as before");
  // Read as the walk of each company reads it: a path under its root, or the company left out whole.
  const bases = ["/m/acme", "/m"];
  assert.deepEqual(personalExcludeFor(["/m/acme/apps/legacy", "gen"], "/m/acme", bases), { exclude: ["apps/legacy", "gen"], whole: undefined });
  assert.deepEqual(personalExcludeFor(["/m/acme"], "/m/acme", bases), { exclude: ["."], whole: "/m/acme" });
  assert.deepEqual(personalExcludeFor(["/m"], "/m/acme", bases), { exclude: ["."], whole: "/m" });
  // Lying in no company and holding none: a path from each root, as `/apps/legacy` always was (here it names nothing).
  assert.deepEqual(personalExcludeFor(["/apps/legacy"], "/m/acme", bases), { exclude: ["apps/legacy"], whole: undefined });
  assert.deepEqual(personalExcludeFor(["/m/other/apps"], "/m/acme", bases), { exclude: ["m/other/apps"], whole: undefined });
  assert.equal(absoluteInCompanies("/m/acme/apps/x", ["/m/b", "/m/acme"]), true);
  assert.equal(absoluteInCompanies("/m", ["/m/b"]), true, "it holds a company");
  assert.equal(absoluteInCompanies("/m/docs", ["/m/b", "/m/acme"]), false);
});

test("excludeFor: a name holds everywhere; a path is from the file's folder, reaching a company below it by its path there; layer: a person's levels win, their folders add", () => {
  assert.deepEqual(excludeFor("/m/.sanomarc.json", ["gen", "a/legacy", "b/old", "/a/x"], "/m/a"), ["gen", "legacy", "x"]);
  assert.deepEqual(excludeFor("/m/a/.sanomarc.json", ["gen", "apps/old"], "/m/a"), ["gen", "apps/old"]);
  assert.deepEqual(excludeFor(undefined, ["gen"], "/m/a"), []);
  assert.deepEqual(layer({ rules: { "one-wakeup": "off", lockfile: "hint" }, exclude: ["gen"] }, { rules: { lockfile: "error" }, exclude: ["gen", "tmp"] }), { rules: { "one-wakeup": "off", lockfile: "error" }, exclude: ["gen", "tmp"] });
});

test("personalBases, personalExcludeFor: a person's folder is read from each company root around a company, and from a folder searched that lies in no company; a company whose root lies in a folder so named is left out whole, by that entry", () => {
  const roots = new Set(["/m/acme", "/m/acme/test/fixtures/broken-co", "/m/acme/test/fixtures/broken-co/deeper/co"]);
  const isRoot = (d: string) => roots.has(d);
  assert.deepEqual(personalBases("/m/acme/test/fixtures/broken-co", ["/m"], isRoot), ["/m/acme/test/fixtures/broken-co", "/m/acme", "/m"]);
  assert.deepEqual(personalBases("/m/acme/test/fixtures/broken-co", ["/m/acme/test"], isRoot), ["/m/acme/test/fixtures/broken-co", "/m/acme"], "a folder searched inside a company is none");
  assert.deepEqual(personalBases("/m/other", ["/m", "/elsewhere"], isRoot), ["/m"], "not a company: only what holds it");
  const broken = "/m/acme/test/fixtures/broken-co";
  const bases = personalBases(broken, ["/m"], isRoot);
  // [given, the walk's entries, the entry that leaves the company out whole]
  const cases: [string[], string[], string | undefined][] = [
    [["test/fixtures"], ["test/fixtures", "."], "test/fixtures"],
    [["fixtures"], ["fixtures", "."], "fixtures"],
    [["acme/test/fixtures"], ["acme/test/fixtures", "."], "acme/test/fixtures"],
    [["test/fixtures/broken-co/workflows"], ["test/fixtures/broken-co/workflows", "workflows"], undefined],
    [["gen", "apps/legacy"], ["gen", "apps/legacy"], undefined],
    [["test"], ["test", "."], "test"],
    [["fixtures/broken-co"], ["fixtures/broken-co"], undefined],
  ];
  for (const [given, exclude, whole] of cases) assert.deepEqual(personalExcludeFor(given, broken, bases), { exclude, whole }, given.join(" "));
  // The company's own root alone: as the walk reads it, nothing left out whole.
  assert.deepEqual(personalExcludeFor(["test/fixtures"], "/m/acme", personalBases("/m/acme", ["/m"], isRoot)), { exclude: ["test/fixtures"], whole: undefined });
  // A .sanomarc.json's entry that leaves a company out whole, as written there.
  assert.equal(leftOutWholeBy("/m/.sanomarc.json", ["gen", "fixtures"], broken), "fixtures");
  assert.equal(leftOutWholeBy("/m/.sanomarc.json", ["acme/test"], broken), "acme/test");
  assert.equal(leftOutWholeBy("/m/.sanomarc.json", ["acme/apps"], broken), undefined);
});

const COMPANY = `
//- /co/sanoma.config.ts
export default { secrets: { bindings: {} } };
//- /co/workflows/w.ts
export const w = (ctx: any) => ctx.call("data.nope.get", {});
//- /co/generated/g.ts
export const g = (ctx: any) => ctx.call("data.nope.list", {});
//- /co/apps/legacy/workflows/l.ts
export const l = (ctx: any) => ctx.call("data.gone.list", {});
//- /co/resources/keys.ts
import { secret } from "@sanoma-ai/workflows/resources";
export const token = secret("MISSING");
`;

function company(rc: string | undefined, where = "co"): string {
  const dir = writeFixture(COMPANY, "sanoma-rc-");
  dirs.push(dir);
  if (rc !== undefined) writeFileSync(join(dir, where, ".sanomarc.json"), rc);
  return dir;
}
const found = (dir: string, args: string[] = []) => {
  const r = run(["co", "--format", "json", ...args], dir);
  const out = JSON.parse(r.stdout);
  return { status: r.status, problems: out.problems.map((p: any) => `${p.file} ${p.rule} ${p.severity}`).sort(), settings: out.settings.map((p: any) => `${p.file}:${p.line}:${p.column} ${p.severity} ${p.message}`) };
};

test("sanoma-check reads .sanomarc.json: rule levels (warn too) and excluded folders, from the company root or a folder above it", () => {
  const none = company(undefined);
  assert.deepEqual(found(none).problems, ["co/apps/legacy/workflows/l.ts collection-op error", "co/generated/g.ts collection-op error", "co/resources/keys.ts secret-bindings warning", "co/workflows/w.ts collection-op error"]);
  const rc = `{ "rules": { "collection-op": "warn", "secret-bindings": "off" }, "exclude": ["generated", "apps/legacy"] }`;
  const inRoot = found(company(rc));
  assert.deepEqual(inRoot, { status: 0, problems: ["co/workflows/w.ts collection-op warning"], settings: [] });
  // Above the root, a path is from the file's folder: "co/apps/legacy" there.
  const above = found(company(`{ "rules": { "collection-op": "warn", "secret-bindings": "off" }, "exclude": ["generated", "co/apps/legacy"] }`, "."));
  assert.deepEqual(above, inRoot);
});

test("sanoma-check: --rule and --exclude are laid over .sanomarc.json (a flag's level wins, its folders add)", () => {
  const dir = company(`{ "rules": { "collection-op": "warn", "secret-bindings": "off" }, "exclude": ["generated"] }`);
  assert.deepEqual(found(dir, ["--rule", "collection-op=error", "--exclude", "apps"]).problems, ["co/workflows/w.ts collection-op error"]);
  assert.deepEqual(found(dir, ["--rule=secret-bindings=warn"]).problems, ["co/apps/legacy/workflows/l.ts collection-op warning", "co/resources/keys.ts secret-bindings warning", "co/workflows/w.ts collection-op warning"]);
});

test("sanoma-check: an absolute --exclude (what a shell makes of $PWD/generated) is the folder it names; a folder in no company checked, nor holding one, is a usage error (exit 2); one that is no folder (/apps/legacy) is a path from each company root; an absolute path of the company in .sanomarc.json is a settings error at its place, not applied", () => {
  const dir = company(undefined);
  const relative = found(dir, ["--exclude", "generated", "--exclude", "apps/legacy"]);
  assert.deepEqual(relative.problems, ["co/resources/keys.ts secret-bindings warning", "co/workflows/w.ts collection-op error"]);
  assert.deepEqual(found(dir, ["--exclude", `${join(dir, "co", "generated")}/`, "--exclude", join(dir, "co", "apps", "legacy")]), relative);
  // The company's own folder, or one above it: left out whole, as a path from a folder given would.
  const whole = JSON.parse(run(["co", "--format", "json", "--exclude", dir], dir).stdout);
  assert.deepEqual(whole.leftOut, [{ company: "co", by: "--exclude", exclude: dir }]);
  // An absolute path that is no folder (`/apps/legacy`): a path from each company root, as it always was.
  assert.deepEqual(found(dir, ["--exclude", "generated", "--exclude", "/apps/legacy"]), relative);
  // A folder there, in no company checked and holding none: it names nothing of theirs.
  mkdirSync(join(dir, "elsewhere"));
  const stray = run(["co", "--exclude", join(dir, "elsewhere")], dir);
  assert.equal(stray.status, 2);
  assert.equal(stray.stderr, `sanoma-check: --exclude takes a folder's name or its path in the company: "${join(dir, "elsewhere")}" lies in no company checked here, nor holds one: it names no folder of theirs\n`);
  assert.equal(stray.stdout, "");
  const abs = join(dir, "co", "generated");
  writeFileSync(join(dir, "co", ".sanomarc.json"), `{ "exclude": [${JSON.stringify(abs)}] }`);
  const rc = found(dir);
  assert.equal(rc.status, 1, "a settings error");
  assert.deepEqual(rc.settings, [`co/.sanomarc.json:1:15 error "${abs}" is an absolute path: an excluded folder is written from this file's folder, as "generated", which holds on every machine (not applied)`]);
  assert.ok(rc.problems.includes("co/generated/g.ts collection-op error"), "not applied");
});

// A person's folder (--exclude) leaves out the folder it names, and a company whose root lies in it
// (a fixture company under a company's test/fixtures): by name or by path, from each company root
// around it, or from a folder given that lies in no company (the monorepo's top).
const NESTED_CASES: { args: string[]; companies: string[]; problems: string[] }[] = [
  { args: ["mono/acme", "--exclude", "test/fixtures"], companies: ["mono/acme"], problems: ["mono/acme/workflows/w.ts"] },
  { args: ["mono/acme", "--exclude", "./test/fixtures/"], companies: ["mono/acme"], problems: ["mono/acme/workflows/w.ts"] },
  { args: ["mono/acme", "--exclude", "fixtures"], companies: ["mono/acme"], problems: ["mono/acme/workflows/w.ts"] },
  // A folder given inside the company: the path is still from its root.
  { args: ["mono/acme/test", "--exclude", "test/fixtures"], companies: ["mono/acme"], problems: ["mono/acme/workflows/w.ts"] },
  { args: ["mono", "--exclude", "test/fixtures"], companies: ["mono/acme", "mono/legacy/old"], problems: ["mono/acme/workflows/w.ts", "mono/legacy/old/workflows/o.ts"] },
  // From the folder given, which lies in no company: into a company, and over one.
  { args: ["mono", "--exclude", "acme/test/fixtures"], companies: ["mono/acme", "mono/legacy/old"], problems: ["mono/acme/workflows/w.ts", "mono/legacy/old/workflows/o.ts"] },
  { args: ["mono", "--exclude", "legacy/old"], companies: ["mono/acme", "mono/acme/test/fixtures/broken-co"], problems: ["mono/acme/test/fixtures/broken-co/workflows/b.ts", "mono/acme/test/fixtures/loose.ts", "mono/acme/workflows/w.ts"] },
  // A path from the company around it into the nested company: that folder of it.
  { args: ["mono/acme", "--exclude", "test/fixtures/broken-co/workflows"], companies: ["mono/acme", "mono/acme/test/fixtures/broken-co"], problems: ["mono/acme/test/fixtures/loose.ts", "mono/acme/workflows/w.ts"] },
  // The nested company asked for by its own folder: found, and left out whole (nothing judged).
  { args: ["mono/acme/test/fixtures/broken-co", "--exclude", "test/fixtures"], companies: ["mono/acme/test/fixtures/broken-co"], problems: [] },
  // Nothing left out: all of them.
  { args: ["mono"], companies: ["mono/acme", "mono/acme/test/fixtures/broken-co", "mono/legacy/old"], problems: ["mono/acme/test/fixtures/broken-co/workflows/b.ts", "mono/acme/test/fixtures/loose.ts", "mono/acme/workflows/w.ts", "mono/legacy/old/workflows/o.ts"] },
];

test("sanoma-check --exclude: a path leaves out the folder it names and a company whose root lies in it (a fixture company under test/fixtures), as a name does, from each company root around it or a folder given in no company", () => {
  const dir = writeFixture(NESTED_FIXTURE_COMPANIES, "sanoma-exclude-nested-");
  dirs.push(dir);
  for (const c of NESTED_CASES) {
    const r = run([...c.args, "--format", "json"], dir);
    assert.ok(r.status === 0 || r.status === 1, `${c.args.join(" ")}: exit ${r.status}: ${r.stderr}`);
    const out = JSON.parse(r.stdout);
    assert.deepEqual({ args: c.args, companies: out.companies, problems: [...new Set(out.problems.map((p: any) => p.file))].sort() }, { args: c.args, companies: c.companies, problems: c.problems });
    assert.equal(r.status, c.problems.length > 0 ? 1 : 0, c.args.join(" "));
  }
});

// Every company under the folder given hidden from the search by --exclude (a monorepo whose
// companies all lie under the `companies` it names): it said "no company (no sanoma.config.ts)",
// and the user looked for a missing config. Still a usage error (nothing would be judged), that
// says the companies found and what left them out, as a run says a company left out whole.
test("sanoma-check --exclude: a folder whose companies --exclude all leaves out is a usage error that names them and the entry, not \"no sanoma.config.ts\"", () => {
  const dir = writeFixture(NESTED_FIXTURE_COMPANIES, "sanoma-exclude-all-");
  dirs.push(dir);
  const both = run(["mono", "--exclude", "acme", "--exclude", "legacy/old"], dir);
  assert.equal(both.status, 2);
  assert.equal(both.stdout, "");
  assert.equal(both.stderr, `sanoma-check: no company to check in or under mono: the 3 found there lie in folders --exclude leaves out (mono/acme: left out whole by --exclude "acme"; mono/acme/test/fixtures/broken-co: left out whole by --exclude "acme"; mono/legacy/old: left out whole by --exclude "legacy/old")\n`);
  const one = run(["mono/legacy", "--exclude", "old", "--format", "json"], dir);
  assert.equal(one.status, 2);
  assert.equal(one.stderr, `sanoma-check: no company to check in or under mono/legacy: the one found there lies in a folder --exclude leaves out (mono/legacy/old: left out whole by --exclude "old")\n`);
  // Where there is none, left out or not, it still says so.
  mkdirSync(join(dir, "empty"));
  const empty = run(["empty", "--exclude", "acme"], dir);
  assert.equal(empty.status, 2);
  assert.equal(empty.stderr, "sanoma-check: no company (no sanoma.config.ts) in, under or above empty\n");
});

// A company found but left out whole (its own folder given, or a folder at or above the one given
// left out) was listed as a company with no problem: "0 errors … in 1 company", exit 0, and
// --verbose said only "0 files". The run now says which, and by what, in every format.
const LEFT_OUT = `
//- /top/.sanomarc.json
{ "exclude": ["fixtures"] }
//- /top/co/sanoma.config.ts
export default {};
//- /top/co/workflows/w.ts
export const w = (ctx: any) => ctx.call("data.nope.get", {});
//- /top/co/test/fixtures/broken-co/sanoma.config.ts
export default {};
//- /top/co/test/fixtures/broken-co/workflows/b.ts
export const b = (ctx: any) => ctx.call("data.nope.get", {});
//- /plain/co/sanoma.config.ts
export default {};
//- /plain/co/test/fixtures/broken-co/sanoma.config.ts
export default {};
//- /plain/co/test/fixtures/broken-co/workflows/b.ts
export const b = (ctx: any) => ctx.call("data.nope.get", {});
`;
const LEFT_OUT_CASES: { cwd?: string; args: string[]; status: number; summary: string; leftOut: { company: string; by: string; exclude: string }[] }[] = [
  {
    args: ["top/co/test/fixtures/broken-co"], status: 0,
    summary: `0 errors, 0 warnings, 0 info, 0 hints in 1 company (top/co/test/fixtures/broken-co: left out whole by top/.sanomarc.json's exclude "fixtures": nothing judged)`,
    leftOut: [{ company: "top/co/test/fixtures/broken-co", by: "top/.sanomarc.json", exclude: "fixtures" }],
  },
  {
    cwd: "top/co/test/fixtures/broken-co", args: [], status: 0,
    summary: `0 errors, 0 warnings, 0 info, 0 hints in 1 company (.: left out whole by ../../../../.sanomarc.json's exclude "fixtures": nothing judged)`,
    leftOut: [{ company: ".", by: "../../../../.sanomarc.json", exclude: "fixtures" }],
  },
  {
    args: ["top/co/test/fixtures"], status: 1,
    summary: `1 error, 0 warnings, 0 info, 0 hints in 2 companies (top/co/test/fixtures/broken-co: left out whole by top/.sanomarc.json's exclude "fixtures")`,
    leftOut: [{ company: "top/co/test/fixtures/broken-co", by: "top/.sanomarc.json", exclude: "fixtures" }],
  },
  {
    args: ["plain/co/test/fixtures/broken-co", "--exclude", "test/fixtures"], status: 0,
    summary: `0 errors, 0 warnings, 0 info, 0 hints in 1 company (plain/co/test/fixtures/broken-co: left out whole by --exclude "test/fixtures": nothing judged)`,
    leftOut: [{ company: "plain/co/test/fixtures/broken-co", by: "--exclude", exclude: "test/fixtures" }],
  },
  // Below the folder given: passed over, not listed (as before).
  { args: ["top"], status: 1, summary: "1 error, 0 warnings, 0 info, 0 hints in 1 company", leftOut: [] },
];

test("sanoma-check: a company found but left out whole is said so, and by what (the .sanomarc.json and its entry, or --exclude): in the summary, in JSON (leftOut), in SARIF (a notification) and in GitHub's format (a notice); the exit status is what was judged", () => {
  const dir = writeFixture(LEFT_OUT, "sanoma-left-out-");
  dirs.push(dir);
  for (const c of LEFT_OUT_CASES) {
    const cwd = join(dir, c.cwd ?? ".");
    const what = `${c.cwd ?? "."}: ${c.args.join(" ")}`;
    const text = run(c.args, cwd);
    assert.equal(text.stderr, c.summary + "\n", what);
    assert.equal(text.status, c.status, what);
    const json = run([...c.args, "--format", "json"], cwd);
    assert.deepEqual(JSON.parse(json.stdout).leftOut, c.leftOut, what);
    const said = c.leftOut.map((l) => `${l.company}: left out whole by ${l.by === "--exclude" ? "--exclude" : `${l.by}'s exclude`} "${l.exclude}": none of its files is judged`);
    const sarif = JSON.parse(run([...c.args, "--format", "sarif"], cwd).stdout);
    assert.deepEqual(sarif.runs[0].invocations[0].toolExecutionNotifications.filter((n: any) => n.message.text.includes("left out whole")).map((n: any) => `${n.level} ${n.message.text}`), said.map((t) => `note ${t}`), what);
    const github = run([...c.args, "--format", "github"], cwd).stdout.split("\n").filter((l) => l.startsWith("::notice"));
    assert.deepEqual(github, said.map((t) => `::notice title=sanoma::${t}`), what);
  }
  // --verbose says it too, where it said "0 files".
  const verbose = run(["top/co/test/fixtures/broken-co", "--verbose"], dir);
  assert.match(verbose.stderr, /^top\/co\/test\/fixtures\/broken-co: left out whole by top\/\.sanomarc\.json's exclude "fixtures"$/m);
});

test("sanoma-check: a bad .sanomarc.json is a line at its place (exit 1), the rest of it still applied; one that is not JSON applies nothing; never a crash", () => {
  const dir = company(`{\n  "rules": {\n    "collection-op": "warn",\n    "secret-binding": "off"\n  }\n}\n`);
  const r = run(["co"], dir);
  assert.equal(r.status, 1, "a problem of the settings is an error");
  assert.equal(r.stdout.split("\n")[0], `co/.sanomarc.json:4:5  error  settings  No rule named "secret-binding"; did you mean "secret-bindings"?`);
  assert.ok(r.stdout.includes("co/workflows/w.ts:1:41  warning  collection-op"), "the good level still holds");
  assert.match(r.stderr, /^1 error, 4 warnings, 0 info, 0 hints in 1 company\n$/);
  const json = found(dir);
  assert.deepEqual(json.settings, [`co/.sanomarc.json:4:5 error No rule named "secret-binding"; did you mean "secret-bindings"?`]);
  // Not JSON: said at its place; every rule at its default.
  const broken = company(`{ "rules": { "collection-op": "off" `);
  const b = found(broken);
  assert.deepEqual(b.settings, [`co/.sanomarc.json:1:37 error .sanomarc.json is not JSON (expected a comma or a closing brace, found the end of the file): its settings are not applied`]);
  assert.equal(b.problems.length, 4);
  // Binary, a folder of that name, unreadable: no crash.
  for (const bad of ["\u0000\u00ff\u0001", "{".repeat(50_000)]) {
    const d = company(bad);
    const x = run(["co"], d);
    assert.equal(x.status, 1, bad.slice(0, 5));
    assert.match(x.stdout, /^co\/\.sanomarc\.json:1:\d+  error  settings  \.sanomarc\.json is not JSON/);
  }
  const asFolder = company(undefined);
  mkdirSync(join(asFolder, "co", ".sanomarc.json"));
  const f = run(["co"], asFolder);
  assert.equal(f.status, 1, "a folder of that name is an error");
  assert.equal(f.stdout.split("\n")[0], "co/.sanomarc.json:1:1  error  settings  .sanomarc.json is a folder, not a file: no settings are applied (a farther .sanomarc.json neither: the nearest is the one that counts)");
  assert.equal(found(asFolder).problems.length, 4, "every rule at its default");
});

test("sanoma-check: a folder name .sanomarc.json excludes is left out of the search for companies too", () => {
  const dir = company(undefined);
  writeFileSync(join(dir, ".sanomarc.json"), `{ "exclude": ["templates"] }`);
  mkdirSync(join(dir, "templates/t/workflows"), { recursive: true });
  writeFileSync(join(dir, "templates/t/sanoma.config.ts"), "export default {};\n");
  writeFileSync(join(dir, "templates/t/workflows/x.ts"), `export const x = "data.nope.get";\n`);
  const r = JSON.parse(run([".", "--format", "json"], dir).stdout);
  assert.deepEqual(r.companies, ["co"]);
  // With no other company there, a usage error that says why (it said "no sanoma.config.ts").
  removeFixture(join(dir, "co"));
  const none = run(["."], dir);
  assert.equal(none.status, 2);
  assert.equal(none.stderr, "sanoma-check: no company to check in or under .: templates/t lies in a folder .sanomarc.json leaves out\n");
});

// Each company goes by the file nearest its root, whichever folder the check is given: the search
// for companies left out what the file nearest the folder given left out (a company with a file
// of its own below went unjudged, or "no company"), and that file's problems, or those of a file
// below a company root, were said (and failed the run) though they held for no company.
for (const c of RC_CASES) {
  test(`sanoma-check judges each company by the .sanomarc.json nearest its root, whichever folder it is given: ${c.name}`, () => {
    const dir = writeFixture(c.source, "sanoma-rc-case-");
    dirs.push(dir);
    for (const folder of Object.keys(c.runs)) {
      const r = run([folder, "--format", "json"], dir);
      assert.ok(r.status === 0 || r.status === 1, `${folder}: exit ${r.status}: ${r.stderr}`);
      const out = JSON.parse(r.stdout);
      const messages = new Map<string, string>();
      for (const p of out.problems) messages.set(spot(p.file, p.line - 1, p.column - 1, p.endColumn - 1, p.rule), p.message);
      for (const p of out.settings) messages.set(spot(p.file, p.line - 1, p.column - 1, p.endColumn - 1, "settings"), p.message);
      const { spots, words } = expectedOf(c, folder);
      assert.deepEqual({ folder, companies: out.companies, found: [...messages.keys()].sort() }, { folder, companies: c.runs[folder], found: spots });
      for (const [at, text] of words) assert.ok(messages.get(at)!.includes(text), `${folder}: ${at}: ${messages.get(at)} (expected "${text}")`);
      assert.equal(r.status, spots.length > 0 ? 1 : 0, `${folder}: the exit status`);
    }
  });
}

test("the schema the extension contributes for .sanomarc.json is the one made from the rule registry (run `node --import tsx scripts/sanomarc-schema.ts`), and it takes what the server takes", () => {
  const onDisk: any = JSON.parse(readFileSync(join(REPO, "schemas", "sanomarc.schema.json"), "utf8"));
  assert.deepEqual(Object.keys(onDisk.properties.rules.properties), [...RULE_IDS]);
  assert.deepEqual(onDisk, sanomarcSchema());
  const manifest = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8"));
  const entry = manifest.contributes.jsonValidation.find((v: { fileMatch: string }) => v.fileMatch === ".sanomarc.json");
  assert.equal(relative(REPO, join(REPO, entry.url)), "schemas/sanomarc.schema.json");
  const validate = new Ajv().compile(onDisk);
  assert.equal(validate({ $schema: "x", rules: { "collection-op": "warn", "one-wakeup": "off" }, exclude: ["generated"] }), true);
  assert.equal(validate({ rules: ["collection-op"] }), false);
  assert.equal(validate({ exclude: "generated" }), false);
});
