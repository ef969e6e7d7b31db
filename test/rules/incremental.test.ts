/**
 * The incremental check (core/check.ts, core/analysis.ts): a check after edits must say exactly
 * what a first check of the edited company says (read with every file parsed, so light facts are
 * held to the syntax tree too), must name every file whose problems changed
 * (the server publishes only those), and must cost what the edit changes, not what the company
 * holds.
 */
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { test } from "node:test";
import { Workspace } from "../../server/src/core/workspace.ts";
import { nodeFileSystem } from "../../server/src/node/fs.ts";
import { WALK_STEP } from "../../server/src/core/steps.ts";
import type { Problem } from "../../server/src/core/types.ts";
// @ts-expect-error the benchmark's generator is plain JavaScript
import { generateCompany, HOT, rng } from "../../bench/generate.mjs"; // rng: seeded, so a failure replays

const EXAMPLE = join(import.meta.dirname, "..", "..", "examples", "acme-broken");

const show = (root: string, p: Problem) =>
  `${relative(root, p.file)}:${p.range.start.line}:${p.range.start.character}-${p.range.end.line}:${p.range.end.character} ${p.severity} ${p.rule} ${p.message}` +
  (p.related?.length ? ` [${p.related.map((r) => `${relative(root, r.file)}:${r.range.start.line}:${r.range.start.character} ${r.message}`).join("; ")}]` : "") +
  (p.fixes?.length ? ` {${p.fixes.map((f) => f.title).join("; ")}}` : "");

/** What a first check of the company on disk says, file by file, every file's facts read from its syntax tree. */
function firstCheck(root: string): Map<string, string> {
  const ws = new Workspace(nodeFileSystem, { lightFacts: false });
  ws.loadCompany(root);
  return byFile(root, ws.check(root).problems);
}

function byFile(root: string, problems: readonly Problem[]): Map<string, string> {
  const out = new Map<string, string[]>();
  for (const p of problems) out.set(p.file, [...(out.get(p.file) ?? []), show(root, p)]);
  return new Map([...out].map(([f, list]) => [f, list.join("\n")]));
}

/** Edits that reach every company-wide input: declarations, contracts, collections, op ids, secrets, the lockfile, files coming and going. */
const SNIPPETS = [
  `\nimport { trigger as t2 } from "@hooli/cloud";\nexport const extraWake = t2({ path: "/x" });\n`,
  `\nimport { runner as r2 } from "@hooli/cloud";\nexport const extraBox = r2({ image: "x" });\n`,
  `\nimport { vm as v2 } from "@hooli/cloud";\nexport const extraVm = v2({ nmae: "x" });\n`,
  `\nimport { collection as c2 } from "@sanoma-ai/workflows/data";\nexport const invoices = c2({ key: "idd", fields: { id: "string" } });\n`,
  `\nimport { collection as c3 } from "@sanoma-ai/workflows/data";\nexport const tickets = c3({ key: "id", fields: { id: "string" } });\n`,
  `\nexport const f = (ctx: any) => ctx.call("data.orders.sav", {}) && ctx.call("data.tickets.get", {}) && ctx.call("data.invoices.list", {});\n`,
  `\nimport { secret as s2 } from "@sanoma-ai/workflows/resources";\nexport const k = s2("NOPE_KEY");\n`,
  `\nexport const broken = ;\n`,
  `\nimport { total } from "../../billing/lib/numbers";\n`,
];
const CONFIG_VARIANTS = [
  `export default { name: "acme", secrets: { bindings: { CLOUD_KEY: { env: "CLOUD_KEY", host: true }, NOPE_KEY: { host: true } } } };\n`,
  `export default { name: "acme" };\n`,
  `export default { name: "acme", secrets: { bindings: cond ? {} : { A: { env: "A" } } } };\n`,
];

function mutateLock(text: string, r: () => number): string {
  const lines = text.split("\n");
  const i = Math.floor(r() * lines.length);
  const choice = r();
  if (choice < 0.4 && lines[i].includes('"type"')) lines[i] = lines[i].replace(/"type": "[^"]*"/, '"type": "cloud.bucket"');
  else if (choice < 0.7 && lines[i].includes('"object"')) lines[i] = lines[i].replace(/"object": "[^"]*"/, '"object": "cloud:vm/1"');
  else if (choice < 0.8) return text.slice(0, Math.floor(text.length / 2)); // not JSON any more
  else lines.splice(i, 1);
  return lines.join("\n");
}

test("incremental checks over 120 random edits say what a first check says, and name every file whose problems changed", () => {
  const dir = mkdtempSync(join(tmpdir(), "sanoma-incremental-"));
  try {
    cpSync(EXAMPLE, dir, { recursive: true });
    const ws = new Workspace(nodeFileSystem);
    const company = ws.loadCompany(dir);
    const original = new Map<string, string>();
    for (const f of company.files.keys()) original.set(f, readFileSync(f, "utf8"));
    const lockPath = company.lockPath;
    original.set(lockPath, readFileSync(lockPath, "utf8"));
    const paths = [...original.keys(), join(dir, "resources", "new.ts"), join(dir, "apps", "support", "resources", "extra.ts"), join(dir, "workflows", "new.ts")];

    let before = byFile(dir, ws.check(dir).problems);
    assert.deepEqual(before, firstCheck(dir));
    const r: () => number = rng(7);
    for (let step = 0; step < 120; step++) {
      const file = paths[Math.floor(r() * paths.length)];
      const current = existsSync(file) ? readFileSync(file, "utf8") : undefined;
      const roll = r();
      let next: string | undefined;
      if (file === lockPath) next = roll < 0.3 ? original.get(file) : mutateLock(current ?? original.get(file)!, r);
      else if (file.endsWith("sanoma.config.ts")) next = roll < 0.3 ? original.get(file) : CONFIG_VARIANTS[Math.floor(r() * CONFIG_VARIANTS.length)];
      else if (roll < 0.2) next = original.get(file); // back as it was (or gone, for a new file)
      else if (roll < 0.3) next = undefined; // deleted
      else next = (current ?? "") + SNIPPETS[Math.floor(r() * SNIPPETS.length)];
      const what = `step ${step}: ${relative(dir, file)} ${next === undefined ? "deleted" : "changed"}`;
      if (next === undefined) rmSync(file, { force: true });
      else { mkdirSync(dirname(file), { recursive: true }); writeFileSync(file, next); }
      ws.setFile(company, file, next);

      const result = ws.check(dir);
      const after = byFile(dir, result.problems);
      assert.deepEqual(after, firstCheck(dir), what);
      for (const f of new Set([...before.keys(), ...after.keys()])) {
        if (before.get(f) !== after.get(f)) assert.ok(result.changedFiles.has(f), `${what}: ${relative(dir, f)} changed but was not named`);
      }
      assert.deepEqual(byFile(dir, [...result.problemsByFile.values()].flat()), after, `${what}: problemsByFile and problems agree`);
      before = after;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("an edit re-judges the edited file and re-runs only the company-wide rules whose inputs it changed", () => {
  const dir = mkdtempSync(join(tmpdir(), "sanoma-incremental-"));
  try {
    generateCompany(dir, { files: 400, hot: true });
    const ws = new Workspace(nodeFileSystem);
    const company = ws.loadCompany(dir);
    const first = ws.check(dir);
    assert.equal(first.stats.filesJudged, company.files.size, "a first check judges every file");

    const workflow = join(dir, HOT.workflowFile);
    ws.setFile(company, workflow, HOT.workflowText(true));
    const typo = ws.check(dir);
    assert.deepEqual(typo.stats, { filesJudged: 1, companyRulesRun: 0 });
    assert.deepEqual([...typo.changedFiles], [workflow]);
    assert.ok(typo.problemsByFile.get(workflow)?.some((p) => p.rule === "collection-op"));

    const data = join(dir, HOT.dataFile);
    ws.setFile(company, data, HOT.dataText(true));
    const wakeups = ws.check(dir);
    assert.equal(wakeups.stats.filesJudged, 1);
    assert.equal(wakeups.stats.companyRulesRun, 1, "one-wakeup only: its holders changed");
    assert.ok(wakeups.problemsByFile.get(join(dir, HOT.otherFile))?.some((p) => p.rule === "one-wakeup"), "the other wakeup's file is flagged");
    assert.ok(wakeups.changedFiles.has(join(dir, HOT.otherFile)));

    // Renaming a collection changes what every op reference is judged against: each file with
    // op references is re-judged, and the ones naming it are flagged.
    const collections = join(dir, "resources", "data.ts");
    const text = readFileSync(collections, "utf8");
    ws.setFile(company, collections, text.replace(/export const orders\b/, "export const orderz"));
    const renamed = ws.check(dir);
    assert.ok(renamed.stats.filesJudged > 1);
    assert.ok(renamed.problemsByFile.get(workflow)?.some((p) => p.rule === "collection-op" && p.message.includes("`orders`")));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a file coming or going directly in apps/ re-judges the imports that may reach it; other files coming re-judge only themselves", () => {
  const dir = mkdtempSync(join(tmpdir(), "sanoma-incremental-"));
  try {
    mkdirSync(join(dir, "apps", "a", "workflows"), { recursive: true });
    writeFileSync(join(dir, "sanoma.config.ts"), "export default {};\n");
    const importer = join(dir, "apps", "a", "workflows", "w.ts");
    writeFileSync(importer, `import { s } from "../../shared";\nexport const w = s;\n`);
    for (let i = 0; i < 5; i++) writeFileSync(join(dir, "apps", "a", "workflows", `other${i}.ts`), `export const o${i} = ${i};\n`);
    const ws = new Workspace(nodeFileSystem);
    const company = ws.loadCompany(dir);
    const crossApp = (r: ReturnType<typeof ws.check>) => (r.problemsByFile.get(importer) ?? []).filter((p) => p.rule === "no-cross-app-import").length;
    assert.equal(crossApp(ws.check(dir)), 1, "apps/shared is taken for an app while no file apps/shared.ts exists");

    const shared = join(dir, "apps", "shared.ts");
    ws.setFile(company, shared, "export const s = 1;\n");
    const added = ws.check(dir);
    assert.equal(crossApp(added), 0, "now it reaches the file apps/shared.ts");
    assert.ok(added.changedFiles.has(importer));

    ws.setFile(company, shared, undefined);
    assert.equal(crossApp(ws.check(dir)), 1, "and again once the file is gone");

    ws.setFile(company, join(dir, "apps", "a", "workflows", "new.ts"), "export const n = 1;\n");
    assert.equal(ws.check(dir).stats.filesJudged, 1, "a file deeper in an app re-judges no other file");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a data file that stops loading takes its bindings out of the lockfile's shared objects, and gives them back once it loads", () => {
  const dir = mkdtempSync(join(tmpdir(), "sanoma-incremental-"));
  try {
    mkdirSync(join(dir, "resources"), { recursive: true });
    mkdirSync(join(dir, "node_modules", "@x", "cloud"), { recursive: true });
    writeFileSync(join(dir, "sanoma.config.ts"), "export default {};\n");
    writeFileSync(join(dir, "node_modules", "@x", "cloud", "package.json"), `{ "name": "@x/cloud", "main": "index.js" }`);
    writeFileSync(join(dir, "node_modules", "@x", "cloud", "index.js"), `export const vm = defineResource({ vendor: "x", type: "vm", schema: z.object({ name: z.string() }) });\n`);
    writeFileSync(join(dir, "resources", "a.ts"), `import { vm } from "@x/cloud";\nexport const a = vm({ name: "a" });\n`);
    const b = join(dir, "resources", "b.ts");
    const loads = `import { vm } from "@x/cloud";\nexport const b = vm({ name: "b" });\n`;
    writeFileSync(b, loads);
    writeFileSync(join(dir, "sanoma.lock.json"), `{ "version": 1, "bindings": {\n  "resources/a.ts#a": { "type": "x.vm", "object": "o:1" },\n  "resources/b.ts#b": { "type": "x.vm", "object": "o:1" }\n} }\n`);
    const ws = new Workspace(nodeFileSystem);
    const company = ws.loadCompany(dir);
    const shared = (r: ReturnType<typeof ws.check>) => (r.problemsByFile.get(join(dir, "sanoma.lock.json")) ?? []).filter((p) => /bound 2 times/.test(p.message)).length;
    assert.equal(shared(ws.check(dir)), 2, "both bindings of o:1");
    const fails = loads.replace("});", "};");
    ws.setFile(company, b, fails);
    const broken = ws.check(dir);
    assert.equal(shared(broken), 0, "b.ts fails to load: nothing is said of its binding");
    writeFileSync(b, fails);
    assert.deepEqual(byFile(dir, broken.problems), firstCheck(dir), "as a first check says");
    ws.setFile(company, b, loads);
    assert.equal(shared(ws.check(dir)), 2, "it loads again");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a cycle of export * answers the same whatever was looked up through it before: what a lookup found with the cycle cut is not kept for others", () => {
  const dir = mkdtempSync(join(tmpdir(), "sanoma-incremental-"));
  try {
    const write = (rel: string, text: string) => { mkdirSync(dirname(join(dir, rel)), { recursive: true }); writeFileSync(join(dir, rel), text); };
    write("sanoma.config.ts", "export default {};\n");
    write("conn/index.ts", `export * from "./a";\nexport * from "./b";\n`);
    write("conn/a.ts", `export const vm = defineResource({ vendor: "c", type: "vm", schema: z.object({ name: z.string() }) });\nexport * from "./index";\n`);
    write("conn/b.ts", `export const trigger = defineResource({ vendor: "c", type: "trigger", schema: z.object({ path: z.string() }) });\n`);
    const data = join(dir, "resources", "infra.ts");
    // Through the index first: trigger is looked up in a.ts with the index's lookup under way, which cuts the cycle there.
    const viaIndex = `import { trigger } from "../conn/index";\nexport const a = trigger({ path: "/a", bogus: 1 });\n`;
    const viaA = `import { trigger } from "../conn/a";\nexport const a = trigger({ path: "/a", bogus: 1 });\n`;
    write("resources/infra.ts", viaIndex);
    const ws = new Workspace(nodeFileSystem);
    const company = ws.loadCompany(dir);
    const bogus = (r: ReturnType<typeof ws.check>) => (r.problemsByFile.get(data) ?? []).filter((p) => p.rule === "resource-fields" && /`bogus`/.test(p.message)).length;
    assert.equal(bogus(ws.check(dir)), 1, "trigger through the index is a type");
    for (const [text, what] of [[viaA, "through a.ts, after the index"], [viaIndex, "through the index again"], [viaA, "through a.ts again"]]) {
      ws.setFile(company, data, text);
      const again = ws.check(dir);
      assert.equal(bogus(again), 1, what);
      writeFileSync(data, text);
      assert.deepEqual(byFile(dir, again.problems), firstCheck(dir), `${what}: as a first check says`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a settings change re-sorts every file's problems without re-judging any", () => {
  const dir = mkdtempSync(join(tmpdir(), "sanoma-incremental-"));
  try {
    cpSync(EXAMPLE, dir, { recursive: true });
    const ws = new Workspace(nodeFileSystem);
    ws.loadCompany(dir);
    const all = ws.check(dir);
    const count = all.problems.filter((p) => p.rule === "collection-op").length;
    assert.ok(count > 0);
    const off = ws.check(dir, { rules: { "collection-op": "off", "lockfile": "warning" } });
    assert.deepEqual(off.stats, { filesJudged: 0, companyRulesRun: 0 });
    assert.equal(off.problems.filter((p) => p.rule === "collection-op").length, 0);
    assert.ok(off.problems.filter((p) => p.rule === "lockfile").every((p) => p.severity === "warning"));
    const back = ws.check(dir);
    assert.equal(back.problems.filter((p) => p.rule === "collection-op").length, count);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a check and the walks in steps yield every few dozen files or folders and find what they find run through", () => {
  const dir = mkdtempSync(join(tmpdir(), "sanoma-incremental-"));
  try {
    generateCompany(dir, { files: 1000, hot: true });
    const ws = new Workspace(nodeFileSystem);
    const count = <T>(steps: Generator<void, T, void>): { yields: number; value: T } => {
      let yields = 0;
      let r = steps.next();
      for (; !r.done; r = steps.next()) yields++;
      return { yields, value: r.value };
    };
    // A walk yields every WALK_STEP folders it reads.
    const folders = 1 + readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isDirectory() && !/(^|\/)(node_modules|\.)/.test(relative(dir, join(e.parentPath, e.name)))).length;
    const roots = count(ws.discoverRootsSteps([dir]));
    assert.ok(roots.yields >= Math.floor(folders / WALK_STEP) && roots.yields >= 1, `discoverRoots: ${roots.yields} yields over ${folders} folders`);
    assert.deepEqual(roots.value, ws.discoverRoots([dir]));
    const files = count(ws.listFilesSteps(dir));
    assert.ok(files.yields >= Math.floor(folders / WALK_STEP) && files.yields >= 1, `listFiles: ${files.yields} yields over ${folders} folders`);
    assert.deepEqual(files.value, ws.listFiles(dir));
    assert.ok(files.value.length >= 1000, `${files.value.length} files`);

    ws.loadCompany(dir);
    const check = count(ws.checkSteps(dir));
    // The analysis and the judging each visit every file: 2 × 1,000 / STEP (64) yields at least.
    assert.ok(check.yields >= 30, `check: ${check.yields} yields`);
    assert.deepEqual(byFile(dir, check.value.problems), firstCheck(dir));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("incremental: analysing a company between two checks takes none of their changes (each reader keeps its own record of them)", () => {
  const work = mkdtempSync(join(tmpdir(), "sanoma-readers-"));
  try {
    const root = join(work, "co");
    mkdirSync(join(root, "workflows"), { recursive: true });
    writeFileSync(join(root, "sanoma.config.ts"), "export default {};\n");
    const file = join(root, "workflows/w.ts");
    writeFileSync(file, `export const w = (ctx: any) => ctx.call("data.a.get", {});\n`);
    const ws = new Workspace(nodeFileSystem);
    ws.loadCompany(root);
    assert.deepEqual(ws.check(root).problems.map((p) => p.rule), ["collection-op"]);
    ws.setFile(ws.companies.get(root)!, file, `export const w = 1;\n`);
    ws.analyse(root); // a navigating host, between two checks
    const again = ws.check(root);
    assert.deepEqual(again.problems.map((p) => p.rule), [], "the edit the analysis saw is the check's too");
    assert.ok(again.changedFiles.has(file));
  } finally { rmSync(work, { recursive: true, force: true }); }
});

test("incremental: a check that throws (a host's failpoint, inside the check) leaves the next one to say what a first check says, the edits it took included", () => {
  const work = mkdtempSync(join(tmpdir(), "sanoma-thrown-"));
  try {
    const root = join(work, "co");
    mkdirSync(join(root, "workflows"), { recursive: true });
    writeFileSync(join(root, "sanoma.config.ts"), "export default {};\n");
    const w = join(root, "workflows/w.ts");
    const v = join(root, "workflows/v.ts");
    writeFileSync(w, `export const w = (ctx: any) => ctx.call("data.a.get", {});\n`);
    writeFileSync(v, `export const v = (ctx: any) => ctx.call("data.b.get", {});\n`);
    const ws = new Workspace(nodeFileSystem);
    ws.loadCompany(root);
    assert.deepEqual(ws.check(root).problems.map((p) => relative(root, p.file)), ["workflows/v.ts", "workflows/w.ts"]);
    writeFileSync(w, `export const w = 1;\n`);
    ws.setFile(ws.companies.get(root)!, w, readFileSync(w, "utf8"));
    assert.throws(() => ws.check(root, { failpoint: () => { throw new Error("a fault of ours"); } }), /a fault of ours/);
    const again = ws.check(root);
    assert.deepEqual(byFile(root, again.problems), firstCheck(root), "the edit the check that threw took is judged");
    assert.deepEqual([...again.problemsByFile.keys()].map((f) => relative(root, f)), ["workflows/v.ts"]);
  } finally { rmSync(work, { recursive: true, force: true }); }
});
