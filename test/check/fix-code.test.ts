/**
 * The certain fixes keep the code right: what `sanoma-check --fix` writes (the fixes the editor
 * marks preferred) parses, means what it meant, and has the problems gone. A fix that cannot be
 * made exactly is offered, not preferred, and `--fix` leaves it.
 */
import { after, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";
import { CLOUD_PACKAGE } from "../../server/src/core/rules/case-packages.ts";
import { removeFixture, writeFixture } from "../support/fixture.ts";

const REPO = resolve(import.meta.dirname, "..", "..");
const CHECK = join(REPO, "dist", "check.js");
const run = (args: string[], cwd: string) => spawnSync(process.execPath, [CHECK, ...args], { cwd, encoding: "utf8", timeout: 60000 });

const dirs: string[] = [];
after(() => { for (const d of dirs) removeFixture(d); });

/** The company written, `--fix` run over it: the files' texts after, what the JSON output said before and after. */
function fix(company: string) {
  const root = writeFixture(company);
  dirs.push(root);
  const before = JSON.parse(run([".", "--format", "json"], root).stdout).problems as any[];
  run([".", "--fix"], root);
  const after = JSON.parse(run([".", "--format", "json"], root).stdout).problems as any[];
  const text = (rel: string) => readFileSync(join(root, rel), "utf8");
  return { before, after, text };
}

/** The syntax errors TypeScript's parser finds in a text. */
function syntaxErrors(name: string, text: string): string[] {
  const sf = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  return (sf as unknown as { parseDiagnostics: ts.Diagnostic[] }).parseDiagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

test("resource-type: a type imported by name is changed in the import (its local name kept), a member where it is written; a name no import names exactly is offered, not preferred", () => {
  const { before, after, text } = fix(`
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { vmm, bukket as store, cloud } from "@hooli/cloud";
import * as ns from "@hooli/cloud";
export const web = vmm({ name: "w" });
export const web2 = vmm({ name: "w2" });
export const assets = store({ name: "a" });
export const a = cloud.vmm({ name: "a" });
export const b = ns["bukket"]({ name: "b" });
//- /resources/other.ts
const { vmm } = require("@hooli/cloud");
export const c = vmm({ name: "c" });
${CLOUD_PACKAGE}`);
  const typeFixes = before.filter((p) => p.rule === "resource-type").map((p) => `${p.file}:${p.line} ${p.fixes.map((f: any) => `${f.title}${f.preferred ? " (preferred)" : ""}`).join()}`);
  assert.deepEqual(typeFixes, [
    "resources/infra.ts:3 Change to `vm` (preferred)",
    "resources/infra.ts:4 Change to `vm` (preferred)",
    "resources/infra.ts:5 Change to `bucket` (preferred)",
    "resources/infra.ts:6 Change to `vm` (preferred)",
    "resources/infra.ts:7 Change to `bucket` (preferred)",
    "resources/other.ts:2 Change to `vm`",
  ]);
  assert.equal(text("resources/infra.ts"), `import { vm as vmm, bucket as store, cloud } from "@hooli/cloud";
import * as ns from "@hooli/cloud";
export const web = vmm({ name: "w" });
export const web2 = vmm({ name: "w2" });
export const assets = store({ name: "a" });
export const a = cloud.vm({ name: "a" });
export const b = ns["bucket"]({ name: "b" });
`);
  assert.deepEqual(syntaxErrors("infra.ts", text("resources/infra.ts")), []);
  assert.match(text("resources/other.ts"), /export const c = vmm\(/, "the require's is left");
  assert.deepEqual(after.map((p) => `${p.file}:${p.line} ${p.rule}`), ["resources/other.ts:2 resource-type"]);
});

const GATEWAY_PACKAGE = `
//- /node_modules/@acme/http/package.json
{ "name": "@acme/http", "main": "index.js" }
//- /node_modules/@acme/http/index.js
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const gateway = defineResource({ vendor: "acme", type: "gateway", title: "Gateway", schema: z.object({ "max-size": z.number().optional(), name: z.string().optional() }), fields: {}, writable: true });
`;

test("resource-fields: a shorthand key keeps its value ({ nam } → { name: nam }), a field that is no identifier is written quoted; the result parses and the problems are gone", () => {
  const { before, after, text } = fix(`
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { bucket } from "@hooli/cloud";
import { gateway } from "@acme/http";
const nam = "assets";
const maxsize = 5;
export const assets = bucket({ nam });
export const gw = gateway({ maxsize: 3 });
export const gw2 = gateway({ maxsize, "nme": "g" });
${GATEWAY_PACKAGE}${CLOUD_PACKAGE}`);
  assert.equal(before.filter((p) => p.rule === "resource-fields" && p.fixes.some((f: any) => f.preferred)).length, 4);
  assert.equal(text("resources/infra.ts"), `import { bucket } from "@hooli/cloud";
import { gateway } from "@acme/http";
const nam = "assets";
const maxsize = 5;
export const assets = bucket({ name: nam });
export const gw = gateway({ "max-size": 3 });
export const gw2 = gateway({ "max-size": maxsize, name: "g" });
`);
  assert.deepEqual(syntaxErrors("infra.ts", text("resources/infra.ts")), []);
  assert.deepEqual(after, []);
});
