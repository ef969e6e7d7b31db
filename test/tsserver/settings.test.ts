/**
 * The TypeScript plugin's reading of the settings that leave folders out and set levels, held to
 * what `sanoma-check` and the language server do with the same settings, in a real tsserver with
 * the plugin installed from its tarball (`test/support/tsserver.ts`):
 * - the `exclude` option's paths are read from each company root around a company and from the
 *   project's folder where it lies in no company (a tsconfig.json's folder; the root folder an
 *   editor gives a file in no tsconfig), as the check reads `--exclude` from a folder given and
 *   the server reads `sanoma.exclude` from a workspace folder: a monorepo's top with a fixture
 *   company under `acme/test/fixtures` and a company at `legacy/old` (`NESTED_FIXTURE_COMPANIES`),
 *   each file's problems compared with `sanoma-check`'s, case by case;
 * - a `.sanomarc.json` open in tsserver (an editor that opens it there) is read from its unsaved
 *   text, as the language server reads an open document's.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { parseFixture } from "../support/fixture.ts";
import { NESTED_FIXTURE_COMPANIES } from "../support/companies.ts";
import { installProject, locationOf, PLUGIN, REPO, TsServer, writeTsconfig, type ProtocolDiagnostic } from "../support/tsserver.ts";
import { RULE_CODES } from "../../ts-plugin/src/codes.ts";

const servers: TsServer[] = [];
after(async () => { for (const s of servers) await s.close(); });

const sanoma = (ds: ProtocolDiagnostic[]) => ds.filter((d) => d.source === "sanoma");

/** Writes a fixture's files under `dir` (emptied first). */
function write(dir: string, fixture: string): void {
  rmSync(dir, { recursive: true, force: true });
  for (const [rel, content] of Object.entries(parseFixture(fixture).files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
}

/** The files (relative to `dir`) with problems in `sanoma-check <dir> --exclude <each>`'s JSON report. */
function judgedByCheck(dir: string, exclude: readonly string[]): string[] {
  const r = spawnSync(process.execPath, [join(REPO, "dist", "check.js"), dir, ...exclude.flatMap((e) => ["--exclude", e]), "--format", "json"], { encoding: "utf8", timeout: 60_000 });
  assert.ok(r.status === 0 || r.status === 1, `sanoma-check exited ${r.status}: ${r.stderr}`);
  return [...new Set((JSON.parse(r.stdout).problems as { file: string }[]).map((p) => relative(dir, p.file)))].sort();
}

/** The files (relative to `dir`) of `files` that have Sanoma problems in tsserver. */
async function judgedByTsserver(s: TsServer, dir: string, files: readonly string[]): Promise<string[]> {
  const abs = files.map((f) => join(dir, f));
  const { byFile } = await s.geterr(abs);
  return abs.filter((f) => sanoma(byFile.get(f)?.semantic ?? []).length > 0).map((f) => relative(dir, f)).sort();
}

/** `get()` again until it gives `want` or 20 s pass (a change on disk is seen by watchers, a little later); its last answer. */
async function eventually<T>(get: () => Promise<T>, want: T): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const got = await get();
    if (JSON.stringify(got) === JSON.stringify(want) || Date.now() > deadline) return got;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The monorepo's four files that each hold one `collection-op` problem when nothing leaves them out. */
const NESTED_FILES = ["acme/workflows/w.ts", "acme/test/fixtures/loose.ts", "acme/test/fixtures/broken-co/workflows/b.ts", "legacy/old/workflows/o.ts"];

/** `--exclude` folders, as the plugin's `exclude` option holds them too: paths from a company root, and from the monorepo's top (in no company). */
const EXCLUDES: string[][] = [
  [],
  ["test/fixtures"],
  ["acme/test/fixtures"],
  ["legacy/old"],
  ["test/fixtures", "legacy/old"],
  ["./acme/test/fixtures/", "fixtures"],
];

test("the exclude option's paths are read from the tsconfig's folder where it lies in no company (a monorepo's top), as sanoma-check --exclude reads them from the folder given: each file's problems are the check's", { timeout: 180_000 }, async () => {
  const project = installProject();
  const top = join(project, "exclude-top");
  write(top, NESTED_FIXTURE_COMPANIES);
  const mono = join(top, "mono");
  writeTsconfig(mono);
  const s = new TsServer({ cwd: project, logFile: join(project, "exclude-top.log") });
  servers.push(s);
  for (const f of NESTED_FILES) s.open(join(mono, f));
  for (const exclude of EXCLUDES) {
    await s.request("configurePlugin", { pluginName: PLUGIN, configuration: { exclude } });
    assert.deepEqual({ exclude, judged: await judgedByTsserver(s, mono, NESTED_FILES) }, { exclude, judged: judgedByCheck(mono, exclude) });
  }
  // (The cases hold something: the check leaves out a company by a path from the top.)
  assert.deepEqual(judgedByCheck(mono, ["legacy/old"]), ["acme/test/fixtures/broken-co/workflows/b.ts", "acme/test/fixtures/loose.ts", "acme/workflows/w.ts"]);
});

test("the exclude option in a tsconfig entry at a monorepo's top leaves out a company at a path from there; a tsconfig inside a company reads no path from its folder", { timeout: 180_000 }, async () => {
  const project = installProject();
  const top = join(project, "exclude-entry");
  write(top, NESTED_FIXTURE_COMPANIES);
  const mono = join(top, "mono");
  writeTsconfig(mono, { exclude: ["legacy/old", "acme/test/fixtures"] });
  const s = new TsServer({ cwd: project });
  servers.push(s);
  for (const f of NESTED_FILES) s.open(join(mono, f));
  assert.deepEqual(await judgedByTsserver(s, mono, NESTED_FILES), judgedByCheck(mono, ["legacy/old", "acme/test/fixtures"]));
  assert.deepEqual(await judgedByTsserver(s, mono, NESTED_FILES), ["acme/workflows/w.ts"]);
  // A project of its own for the legacy company, its entry's path leading nowhere from its root:
  // as `sanoma-check mono/legacy/old --exclude legacy/old`, judged.
  writeTsconfig(join(mono, "legacy/old"), { exclude: ["legacy/old"] });
  const o = join(mono, "legacy/old/workflows/o.ts");
  s.send("close", { file: o });
  s.open(o);
  const info = await s.request("projectInfo", { file: o, needFileNameList: false });
  assert.equal(info.configFileName, join(mono, "legacy/old/tsconfig.json"));
  assert.deepEqual(await judgedByTsserver(s, mono, ["legacy/old/workflows/o.ts"]), judgedByCheck(join(mono, "legacy/old"), ["legacy/old"]).map((f) => join("legacy/old", f)));
  assert.deepEqual(await judgedByTsserver(s, mono, ["legacy/old/workflows/o.ts"]), ["legacy/old/workflows/o.ts"]);
});

test("a file in no tsconfig: the exclude option's paths are read from the root folder the editor gives with it (its workspace folder), as the language server reads sanoma.exclude from its workspace folder", { timeout: 180_000 }, async () => {
  const project = installProject();
  const top = join(project, "exclude-inferred");
  write(top, NESTED_FIXTURE_COMPANIES);
  const mono = join(top, "mono");
  // (Inferred projects take global plugins only, as an editor's extension gives them; one per root folder, as VS Code asks.)
  const s = new TsServer({ cwd: project, args: ["--globalPlugins", PLUGIN, "--useInferredProjectPerProjectRoot"] });
  servers.push(s);
  for (const f of NESTED_FILES) s.send("open", { file: join(mono, f), projectRootPath: mono });
  const info = await s.request("projectInfo", { file: join(mono, NESTED_FILES[0]), needFileNameList: false });
  assert.match(info.configFileName, /inferredProject/, "an inferred project");
  for (const exclude of EXCLUDES) {
    await s.request("configurePlugin", { pluginName: PLUGIN, configuration: { exclude } });
    assert.deepEqual({ exclude, judged: await judgedByTsserver(s, mono, NESTED_FILES) }, { exclude, judged: judgedByCheck(mono, exclude) });
  }
});

test("a .sanomarc.json at a monorepo's top that is no company: its paths leave out what sanoma-check leaves out", { timeout: 180_000 }, async () => {
  const project = installProject();
  const top = join(project, "sanomarc-top");
  write(top, NESTED_FIXTURE_COMPANIES);
  const mono = join(top, "mono");
  writeTsconfig(mono);
  const s = new TsServer({ cwd: project });
  servers.push(s);
  for (const f of NESTED_FILES) s.open(join(mono, f));
  for (const exclude of [["acme/test/fixtures", "legacy/old"], ["test/fixtures"], ["fixtures"], []]) {
    writeFileSync(join(mono, ".sanomarc.json"), JSON.stringify({ exclude }));
    const want = judgedByCheck(mono, []);
    assert.deepEqual({ exclude, judged: await eventually(() => judgedByTsserver(s, mono, NESTED_FILES), want) }, { exclude, judged: want });
  }
});

test("a .sanomarc.json open in tsserver is read from the editor's unsaved text, made, edited and closed unsaved, as the language server reads an open document", { timeout: 180_000 }, async () => {
  const project = installProject();
  const dir = join(project, "sanomarc-open");
  write(dir, `
//- /co/sanoma.config.ts
export default {};
//- /co/workflows/w.ts
export const w = (ctx: any) => ctx.call("data.nope.get", {});
//- /co/generated/g.ts
export const g = (ctx: any) => ctx.call("data.nope.get", {});
`);
  const co = join(dir, "co");
  writeTsconfig(co);
  const s = new TsServer({ cwd: project });
  servers.push(s);
  const w = join(co, "workflows/w.ts");
  const g = join(co, "generated/g.ts");
  s.open(w);
  s.open(g);
  const problems = async () => {
    const { byFile } = await s.geterr([w, g]);
    return Object.fromEntries([["w", w], ["g", g]].map(([k, f]) => [k, sanoma(byFile.get(f)?.semantic ?? []).map((d) => `${d.code === RULE_CODES["collection-op"] ? "collection-op" : d.code} ${d.category}`)]));
  };
  assert.deepEqual(await problems(), { w: ["collection-op error"], g: ["collection-op error"] }, "no settings");
  // A file made in the editor, not saved: its text counts.
  const rc = join(co, ".sanomarc.json");
  const first = `{ "rules": { "collection-op": "warning" }, "exclude": ["generated"] }`;
  s.open(rc, first);
  assert.deepEqual(await problems(), { w: ["collection-op warning"], g: [] }, "the unsaved file's level and folder");
  // Edited, still unsaved.
  const at = locationOf(first, `"warning"`, 1);
  s.change(rc, at, { line: at.line, offset: at.offset + "warning".length }, "info");
  assert.deepEqual(await problems(), { w: ["collection-op message"], g: [] }, "the edit's level");
  const open = locationOf(first.replace(`"warning"`, `"info"`), `["generated"]`, 1);
  s.change(rc, open, { line: open.line, offset: open.offset + `"generated"`.length }, "");
  assert.deepEqual(await problems(), { w: ["collection-op message"], g: ["collection-op message"] }, "no folder left out any more");
  // Closed unsaved: the disk's (none), as the server reads it.
  s.send("close", { file: rc });
  assert.deepEqual(await problems(), { w: ["collection-op error"], g: ["collection-op error"] }, "closed unsaved: no file");
  // On disk, then open and edited: the editor's text wins over the disk's.
  writeFileSync(rc, `{ "rules": { "collection-op": "off" } }\n`);
  assert.deepEqual(await eventually(problems, { w: [], g: [] }), { w: [], g: [] }, "the disk's file");
  s.open(rc);
  const off = locationOf(`{ "rules": { "collection-op": "off" } }`, `"off"`, 1);
  s.change(rc, off, { line: off.line, offset: off.offset + "off".length }, "warning");
  assert.deepEqual(await problems(), { w: ["collection-op warning"], g: ["collection-op warning"] }, "the open file's unsaved level");
  s.send("close", { file: rc });
  assert.deepEqual(await problems(), { w: [], g: [] }, "closed unsaved: the disk's again");
});
