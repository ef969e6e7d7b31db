/**
 * The lint plugin reads `.sanomarc.json` with the core's own reading, as `sanoma-check` does: a
 * rule turned off reports nothing in that company, the folders left out are not judged, and in
 * oxlint (each way it reads a file) and ESLint the findings are `sanoma-check`'s own, the file
 * applied. A bad file is said once on stderr, never a crash, and its good parts still hold.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { removeFixture, writeFixture, type Found } from "../support/fixture.ts";
import { IMPORT_RULE_IDS, REPO, key, runEslint, runOxlint, sort } from "./hosts.ts";
import { expectedOf, RC_CASES, spot } from "../support/sanomarc-cases.ts";

const COMPANY = `
//- /co/sanoma.config.ts
export default {};
//- /co/apps/maps/lib/one.ts
import { x } from "../../search/lib/x";
//- /co/apps/search/lib/two.ts
import { y } from "../../../../outside/y";
//- /co/workflows/three.ts
import { z } from "../apps/maps/lib/z";
//- /co/generated/four.ts
import { w } from "../apps/maps/lib/w";
//- /co/resources/data.ts
import { collection } from "@sanoma-ai/workflows";
export const things = collection({ key: "id", fields: { id: "string" } });
//- /other/sanoma.config.ts
export default {};
//- /other/apps/a/lib/five.ts
import { v } from "../../b/lib/v";
`;

const dirs: string[] = [];
after(() => { for (const d of dirs) removeFixture(d); });

/** What `sanoma-check` (the process, which reads .sanomarc.json) finds of the import rules under `dir`. */
function checkFound(dir: string): Found[] {
  const r = spawnSync(process.execPath, [join(REPO, "dist", "check.js"), ".", "--format", "json"], { cwd: dir, encoding: "utf8" });
  const { problems } = JSON.parse(r.stdout);
  return sort(problems.filter((p: any) => IMPORT_RULE_IDS.has(p.rule)).map((p: any) => ({ file: p.file, line: p.line - 1, startCol: p.column - 1, endCol: p.endLine === p.line ? p.endColumn - 1 : p.column, rule: p.rule, message: p.message })));
}

const show = (xs: Found[]) => xs.map(key).join("\n");

test("oxlint (every way it reads files) and ESLint find what sanoma-check finds with .sanomarc.json applied: a rule off, a folder left out, in that company only", async () => {
  const dir = writeFixture(COMPANY, "sanoma-lint-rc-");
  dirs.push(dir);
  const before = checkFound(dir);
  assert.deepEqual(before.map((f) => f.rule).sort(), ["collection-import", "no-app-import-from-root", "no-app-import-from-root", "no-cross-app-import", "no-cross-app-import", "no-import-outside-company"]);
  writeFileSync(join(dir, "co", ".sanomarc.json"), `{ "rules": { "no-cross-app-import": "off", "collection-import": "warn" }, "exclude": ["generated"] }`);
  const want = checkFound(dir);
  assert.deepEqual(want.map((f) => `${f.file} ${f.rule}`), [
    "co/apps/search/lib/two.ts no-import-outside-company",
    "co/resources/data.ts collection-import",
    "co/workflows/three.ts no-app-import-from-root",
    "other/apps/a/lib/five.ts no-cross-app-import",
  ]);
  for (const settings of [undefined, { sanoma: { header: false } }, { sanoma: { scan: false } }, { sanoma: { prefilter: false } }]) {
    const ox = runOxlint(dir, { settings });
    assert.equal(show(ox.found), show(want), JSON.stringify(settings));
  }
  const { found } = await runEslint(dir);
  assert.equal(show(found), show(want), "ESLint");
});

test("a bad .sanomarc.json: its problems said once on stderr, its good parts applied, no crash in either host", async () => {
  const dir = writeFixture(COMPANY, "sanoma-lint-rc-bad-");
  dirs.push(dir);
  const rc = `{ "rules": { "no-cross-app-import": "off", "no-app-import-from-root": "loud" } }`;
  writeFileSync(join(dir, "co", ".sanomarc.json"), rc);
  const want = checkFound(dir);
  assert.ok(!want.some((f) => f.file.startsWith("co/") && f.rule === "no-cross-app-import"));
  const ox = runOxlint(dir);
  assert.equal(show(ox.found), show(want));
  const lines = ox.result.stderr.split("\n").filter((l) => l.startsWith("sanoma: "));
  assert.deepEqual(lines, [`sanoma: ${join(dir, "co", ".sanomarc.json")}:1:${rc.indexOf(`"loud"`) + 1}: "loud" is no level (a rule's level is "off", "error", "warning" or "warn", "info" or "hint")`]);
  // Not JSON at all: nothing of it applied, the rules at their defaults.
  writeFileSync(join(dir, "co", ".sanomarc.json"), "\u0000{{");
  const all = checkFound(dir);
  assert.equal(all.length, 6);
  assert.equal(show(runOxlint(dir).found), show(all));
  assert.equal(show((await runEslint(dir)).found), show(all));
});

test("a .sanomarc.json's problems on oxlint's stderr are one line each, control characters written as escapes, as sanoma-check writes them: a key's terminal sequences and a value's line break (a forged line) reach the terminal as text", () => {
  const dir = writeFixture(COMPANY, "sanoma-lint-rc-controls-");
  dirs.push(dir);
  // An unknown key holding ESC ] 0 ; … BEL (a window title) and ESC [ 31m (red); a level whose value holds a line break.
  const rc = `{ "\\u001b]0;PWNED\\u0007\\u001b[31mred": 1, "rules": { "no-cross-app-import": "x\\nsanoma: /repo/co/.sanomarc.json:1:1: forged line" } }`;
  writeFileSync(join(dir, "co", ".sanomarc.json"), rc);
  const stderr = runOxlint(dir).result.stderr;
  // eslint-disable-next-line no-control-regex -- no control character may reach the terminal
  assert.doesNotMatch(stderr, /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/);
  const lines = stderr.split("\n").filter((l) => l.startsWith("sanoma: "));
  const file = join(dir, "co", ".sanomarc.json");
  assert.deepEqual(lines, [
    `sanoma: ${file}:1:3: Unknown setting "\\u001b]0;PWNED\\u0007\\u001b[31mred" (.sanomarc.json holds "rules" and "exclude")`,
    `sanoma: ${file}:1:${rc.indexOf(`"x`) + 1}: "x\\nsanoma: /repo/co/.sanomarc.json:1:1: forged line" is no level (a rule's level is "off", "error", "warning" or "warn", "info" or "hint")`,
  ]);
  // The very text sanoma-check prints for them.
  const check = spawnSync(process.execPath, [join(REPO, "dist", "check.js"), "co"], { cwd: dir, encoding: "utf8" }).stdout;
  for (const l of lines) assert.ok(check.includes(l.slice(l.indexOf(": ", `sanoma: ${file}`.length) + 2)), l);
});

test("a company inside a folder .sanomarc.json leaves out (by name, or by a path that holds it) is left out whole by sanoma-check, oxlint and ESLint alike", async () => {
  const dir = writeFixture(COMPANY + `
//- /co/templates/starter/sanoma.config.ts
export default {};
//- /co/templates/starter/apps/a/lib/t.ts
import { t } from "../../b/lib/t";
//- /co/kits/one/sanoma.config.ts
export default {};
//- /co/kits/one/workflows/k.ts
import { k } from "../apps/a/k";
//- /co/kits/two/sanoma.config.ts
export default {};
//- /co/kits/two/workflows/k.ts
import { k } from "../apps/a/k";
`, "sanoma-lint-rc-whole-");
  dirs.push(dir);
  const before = checkFound(dir).map((f) => f.file);
  for (const f of ["co/templates/starter/apps/a/lib/t.ts", "co/kits/one/workflows/k.ts", "co/kits/two/workflows/k.ts"]) assert.ok(before.includes(f), f);
  writeFileSync(join(dir, "co", ".sanomarc.json"), `{ "exclude": ["templates", "kits/one"] }`);
  const want = checkFound(dir);
  assert.deepEqual(want.filter((f) => /templates|kits/.test(f.file)).map((f) => f.file), ["co/kits/two/workflows/k.ts"]);
  assert.equal(show(runOxlint(dir).found), show(want), "oxlint");
  assert.equal(show((await runEslint(dir)).found), show(want), "ESLint");
  // Asked for by its own folder, it is still left out (its settings say so).
  const r = spawnSync(process.execPath, [join(REPO, "dist", "check.js"), "co/templates/starter", "--format", "json"], { cwd: dir, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout).problems, []);
});

// The cases sanoma-check runs (test/check/sanomarc.test.ts), linted from the first folder it is
// given there: oxlint finds the import rules' marks, each company judged by the .sanomarc.json
// nearest its root (the plugin says a file's problems on stderr, not as findings).
test("oxlint judges each company by the .sanomarc.json nearest its root, as sanoma-check judges it, on every case of test/support/sanomarc-cases.ts", () => {
  for (const c of RC_CASES) {
    const dir = writeFixture(c.source, "sanoma-lint-rc-case-");
    dirs.push(dir);
    const [folder] = Object.keys(c.runs);
    const found = runOxlint(join(dir, folder)).found.map((f) => spot(join(folder, f.file), f.line, f.startCol, f.endCol, f.rule)).sort();
    assert.deepEqual(found, expectedOf(c, folder).spots.filter((s) => IMPORT_RULE_IDS.has(s.slice(s.lastIndexOf(" ") + 1))), c.name);
  }
});
