/**
 * The TypeScript plugin never harms TypeScript, in a real tsserver with the plugin installed from
 * its tarball: with a failure injected in every hook (`SANOMA_TS_PLUGIN_FAIL=*`, which makes each
 * hook throw once its answer is made), every answer is exactly what tsserver gives without the
 * plugin, and the failures are in tsserver's log; in the partial-semantic server it answers what
 * it can (op ids, definitions, a secret's binding) from the few files that needs, and what
 * TypeScript refuses there stays TypeScript's refusal; in a project that is no company it loads
 * nothing.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseFixture } from "../support/fixture.ts";
import { CLOUD_PACKAGE } from "../support/companies.ts";
import { copyInto, installProject, locationOf, REPO, TsServer, writeTsconfig } from "../support/tsserver.ts";

const COMPANY = `
//- /sanoma.config.ts
import { defineConfig } from "@sanoma-ai/workflows";
export default defineConfig({ name: "acme", secrets: { bindings: { CLOUD_KEY: { env: "K" } } } });
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const orders = collection({ key: "id", fields: { id: "string" } });
//- /apps/billing/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const invoices = collection({ key: "id", fields: { id: "string" } });
//- /resources/infra.ts
import { vm } from "@hooli/cloud";
import { secret } from "@sanoma-ai/workflows/resources";
export const web = vm({ name: "web" });
export const key = secret("CLOUD_KEY");
//- /apps/billing/workflows/bill.ts
export const bill = (ctx: { call(id: string): void }) => { ctx.call("data.invoices.get"); ctx.call("data."); const n: number = "x"; return n; };
//- /sanoma.lock.json
{ "version": 1, "bindings": { "resources/infra.ts#web": { "type": "cloud.vm", "object": "cloud:vm/1" } } }
${CLOUD_PACKAGE}`;

const servers: TsServer[] = [];
after(async () => { for (const s of servers) await s.close(); });
function start(cwd: string, options: { env?: NodeJS.ProcessEnv; args?: string[]; log?: string } = {}): TsServer {
  const s = new TsServer({ cwd, env: options.env, args: options.args, logFile: options.log });
  servers.push(s);
  return s;
}

function writeCompany(project: string, name: string, source: string): string {
  const dir = join(project, name);
  rmSync(dir, { recursive: true, force: true });
  for (const [rel, content] of Object.entries(parseFixture(source).files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
  return dir;
}

/** Everything a client asks of a file, as tsserver answers it (errors included, as answers). */
async function answers(s: TsServer, dir: string, files: string[]): Promise<unknown> {
  const out: Record<string, unknown> = {};
  s.open(join(dir, files[0]));
  for (const rel of files) {
    const file = join(dir, rel);
    const text = readFileSync(file, "utf8");
    const ask = (command: string, args: unknown) => s.request(command, args).catch((e: Error) => `refused: ${e.message}`);
    const { byFile } = await s.geterr([file]);
    out[`${rel} geterr`] = byFile.get(file);
    out[`${rel} semanticDiagnosticsSync`] = await ask("semanticDiagnosticsSync", { file, includeLinePosition: true });
    // At each op id, each `secret(`, each exported name: what an editor asks there.
    const spots = [...text.matchAll(/"data\.[\w.]*"|secret\("|export const (\w+)/g)].map((m) => m.index! + (m[1] ? m[0].length - 1 : 3));
    for (const offset of spots) {
      const lines = text.slice(0, offset).split("\n");
      const loc = { file, line: lines.length, offset: lines[lines.length - 1].length + 1 };
      const key = `${rel}:${loc.line}:${loc.offset}`;
      out[`${key} completionInfo`] = await ask("completionInfo", { ...loc, prefix: "" });
      out[`${key} definition`] = await ask("definition", loc);
      out[`${key} definitionAndBoundSpan`] = await ask("definitionAndBoundSpan", loc);
      out[`${key} quickinfo`] = await ask("quickinfo", loc);
      out[`${key} rename`] = await ask("rename", { ...loc, findInStrings: false, findInComments: false });
    }
    const diags = (byFile.get(file)?.semantic ?? []);
    if (diags[0]) out[`${rel} getCodeFixes`] = await ask("getCodeFixes", { file, startLine: diags[0].start.line, startOffset: diags[0].start.offset, endLine: diags[0].end.line, endOffset: diags[0].end.offset, errorCodes: [diags[0].code] });
  }
  return out;
}

test("a failure in every hook leaves every answer exactly as tsserver gives it without the plugin, and is logged", { timeout: 300_000 }, async () => {
  const project = installProject();
  const files = ["resources/infra.ts", "apps/billing/workflows/bill.ts", "resources/data.ts"];
  const withPlugin = writeCompany(project, "failing", COMPANY);
  writeTsconfig(withPlugin);
  const bare = writeCompany(project, "bare", COMPANY);
  writeTsconfig(bare, false);
  // The same company, the same questions; paths differ by the folder's name only.
  const same = (x: unknown, dir: string) => JSON.parse(JSON.stringify(x).replaceAll(dir, "<dir>"));
  const log = join(project, "failing.log");
  const failing = same(await answers(start(project, { env: { ...process.env, SANOMA_TS_PLUGIN_FAIL: "*" }, log }), withPlugin, files), withPlugin);
  const without = same(await answers(start(project), bare, files), bare);
  assert.deepEqual(failing, without);
  assert.ok(JSON.stringify(without).includes('"code":2322'), "TypeScript's own errors are among the answers");
  const text = readFileSync(log, "utf8");
  for (const hook of ["getSemanticDiagnostics", "getCompletionsAtPosition", "getDefinitionAndBoundSpan", "getQuickInfoAtPosition", "findRenameLocations"]) {
    assert.match(text, new RegExp(`\\[sanoma\\] ${hook} failed; TypeScript's answer is left as it was: Error: a failure injected`), hook);
  }
  // And without the failure, the plugin does answer (this is no test of a plugin that does nothing).
  const working = same(await answers(start(project), withPlugin, files), withPlugin);
  assert.notDeepEqual(working, without);
});

test("the partial-semantic server: op ids, definitions and a secret's binding from a few files; TypeScript's refusals stay its own", { timeout: 120_000 }, async () => {
  const project = installProject();
  const dir = writeCompany(project, "partial", COMPANY);
  writeTsconfig(dir);
  const log = join(project, "partial.log");
  // (That server makes inferred projects only, which take no tsconfig's plugins: an editor gives it
  // the plugin as a global one, as VS Code does with its extensions' `typescriptServerPlugins`.)
  const s = start(project, { args: ["--serverMode", "partialSemantic", "--globalPlugins", "@sanoma-ai/typescript-plugin"], log });
  const bill = join(dir, "apps/billing/workflows/bill.ts");
  const billText = readFileSync(bill, "utf8");
  s.open(bill);
  const info = await s.request("completionInfo", { file: bill, ...locationOf(billText, `"data."`, 6), prefix: "" });
  const names = info.entries.map((e: { name: string }) => e.name);
  assert.ok(names.includes("data.invoices.get") && names.includes("data.orders.save"), names.join(", "));
  const def = await s.request("definition", { file: bill, ...locationOf(billText, "data.invoices.get", 3) });
  assert.deepEqual(def.map((d: { file: string }) => d.file), [join(dir, "apps/billing/resources/data.ts")]);
  const infra = join(dir, "resources/infra.ts");
  s.open(infra);
  const hover = await s.request("quickinfo", { file: infra, ...locationOf(readFileSync(infra, "utf8"), `"CLOUD_KEY"`, 2) });
  assert.match(hover.documentation, /Secret \*\*CLOUD_KEY\*\*: bound in/);
  // Semantic diagnostics are refused by TypeScript itself in this server: that refusal is the answer.
  await assert.rejects(s.request("semanticDiagnosticsSync", { file: bill }), /not allowed in LanguageServiceMode\.PartialSemantic/);
  const text = s.log();
  assert.match(text, /\[sanoma\] partial-semantic server/);
  assert.match(text, /\[sanoma\] read \d+ files of the company .* \(slim\)/);
  assert.doesNotMatch(text, /\[sanoma\].*failed/);
  assert.doesNotMatch(text, /\(full\)/, "nothing of a whole company is read there");
});

test("a project that is no Sanoma company: the plugin loads nothing and reads nothing of ours", { timeout: 120_000 }, async () => {
  const project = installProject();
  const dir = join(project, "plain");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  writeFileSync(join(dir, "a.ts"), `export const a = (ctx: { call(id: string): void }) => ctx.call("data.");\nconst n: number = "x";\n`);
  writeTsconfig(dir);
  const log = join(project, "plain.log");
  const s = start(project, { log });
  const file = join(dir, "a.ts");
  s.open(file);
  const { byFile } = await s.geterr([file]);
  assert.ok(byFile.get(file)?.semantic.some((d) => d.code === 2322));
  await s.request("completionInfo", { file, ...locationOf(readFileSync(file, "utf8"), `"data."`, 6), prefix: "" }).catch(() => undefined);
  await s.request("quickinfo", { file, line: 1, offset: 14 });
  const text = s.log();
  assert.match(text, /Plugin validation succeeded/, "the plugin is installed and enabled");
  assert.doesNotMatch(text, /\[sanoma\]/, "and never got past the walk up for a sanoma.config.ts");
});

test("the conformance companies lose none of TypeScript's own diagnostics to the plugin", { timeout: 300_000 }, async () => {
  // A big one: every file's TypeScript diagnostics with the plugin equal those without it.
  const project = installProject();
  const from = join(REPO, "test", "fixtures", "conformance", "pied-piper");
  const withPlugin = copyInto(project, from, "pp-plugin");
  writeTsconfig(withPlugin);
  const bare = copyInto(project, from, "pp-bare");
  writeTsconfig(bare, false);
  const tsOnly = async (dir: string) => {
    const s = start(project);
    const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => /\.[cm]?tsx?$/.test(f) && !f.includes("node_modules")).sort();
    s.open(join(dir, files[0]));
    const out: Record<string, unknown> = {};
    for (const f of files) out[f] = (await s.semantic(join(dir, f))).filter((d) => d.source !== "sanoma");
    return JSON.parse(JSON.stringify(out).replaceAll(dir, "<dir>"));
  };
  const a = await tsOnly(withPlugin);
  assert.deepEqual(a, await tsOnly(bare));
  assert.ok(Object.values(a).some((ds) => (ds as unknown[]).length > 0), "TypeScript has something to say");
});
