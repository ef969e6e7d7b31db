/**
 * The prefilter (`lint-plugin/src/prefilter.ts`) may say "a rule could fire" too often, never too
 * rarely. Three things it assumes of the core's import rules are held here against IMPORT_RULES
 * themselves, so a change to a rule that breaks one fails this file rather than the plugin
 * quietly; then its reading of texts is tried on tricky cases and on thousands of generated files,
 * each compared with what the core's own facts (TypeScript's parser) make the rules find.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { roleOf } from "../../server/src/core/company.ts";
import { readFacts } from "../../server/src/core/facts.ts";
import { IMPORT_RULES } from "../../server/src/core/rules/imports.ts";
import type { ImportContext } from "../../server/src/core/rules/rule.ts";
import { Prefilter, candidates } from "../../lint-plugin/src/prefilter.ts";
import { unescape } from "../../server/src/core/scan.ts";

const ROOT = "/co";
const ctxOf = (rel: string): ImportContext => ({ root: ROOT, file: `${ROOT}/${rel}`, rel, role: roleOf(rel) });
const FILES = [
  "sanoma.config.ts", "lib/x.ts", "workflows/w.ts", "workflows/w.test.ts", "workflows/sub/w.ts", "resources/r.ts", "resources/data.ts",
  "resources/deep/r.ts", "resources/r.d.ts", "scenarios/s.ts", "apps/readme.ts", "apps/a/app.ts", "apps/a/workflows/w.ts", "apps/a/resources/data.ts",
  "apps/a/resources/r.ts", "apps/a/lib/l.ts", "apps/a.b/lib/l.js", "apps/.x/lib/l.ts", "x.mjs",
];
const PATHS = [".", "..", "./x", "../x", "../../x", "../../../x", "../../../../x", "../apps/a/x", "../apps/b/x", "../../b/lib/x", "../../a/lib/x", "../workflows/w",
  "../../workflows/w", "../scenarios/s", "./scenarios/s", "../workflows/w.test", "/abs/x", `${ROOT}/apps/b/x`, "../lib/../workflows/w", "./apps/a"];
const FRAMEWORK = ["@sanoma-ai/workflows", "@sanoma-ai/workflows/resources", "@sanoma-ai/workflows/data", "@sanoma-ai/workflows/runtime"];
const BARE = ["zod", "node:path", "@acme/x", "@sanoma-ai/workflowsx", "@sanoma-ai/other", "sanoma", "secret", "collection", "workflows", "apps/b/x", "~/x", ""];
const NAMES = ["*", "default", "secret", "sanoma", "collection", "other", "import"];
const subsets = <T>(xs: T[]): T[][] => xs.reduce<T[][]>((acc, x) => acc.concat(acc.map((s) => [...s, x])), [[]]);
const firing = (specifier: string, names: string[], ctx: ImportContext) =>
  IMPORT_RULES.filter((r) => r.judgeImport({ specifier, specifierRange: 0, names: names.map((imported) => ({ imported, range: 0 })) }, ctx).length > 0).map((r) => r.id);

test("core assumption: a bare specifier that is not the framework's fires only in a collections file, or when it takes `collection`", () => {
  for (const rel of FILES) {
    const ctx = ctxOf(rel);
    if (ctx.role.isCollectionsFile) continue;
    for (const spec of BARE) for (const names of subsets(NAMES)) if (!names.includes("collection")) assert.deepEqual(firing(spec, names, ctx), [], `${rel}: ${spec} {${names}}`);
  }
});

test("core assumption: outside a data file, the framework's modules are bare specifiers like any other (they fire only in a collections file, or when taking `collection`)", () => {
  let judged = 0;
  for (const rel of FILES) {
    const ctx = ctxOf(rel);
    if (ctx.role.isCollectionsFile || ctx.role.isDataFile) continue;
    for (const spec of FRAMEWORK) for (const names of subsets(NAMES)) if (!names.includes("collection")) { judged++; assert.deepEqual(firing(spec, names, ctx), [], `${rel}: ${spec} {${names}}`); }
  }
  assert.ok(judged > 500, "most of the files are neither data nor collections files");
});

test("core assumption: outside a collections file, names matter only when taken from the framework, or when one is `collection`", () => {
  for (const rel of FILES) {
    const ctx = ctxOf(rel);
    if (ctx.role.isCollectionsFile) continue;
    for (const spec of [...PATHS, ...BARE]) {
      const none = firing(spec, [], ctx);
      for (const names of subsets(NAMES)) if (!names.includes("collection")) assert.deepEqual(firing(spec, names, ctx), none, `${rel}: ${spec} {${names}}`);
    }
  }
});

test("core assumption: more names never make a rule stop firing", () => {
  for (const rel of FILES) {
    const ctx = ctxOf(rel);
    for (const spec of [...PATHS, ...FRAMEWORK, ...BARE]) {
      for (const names of subsets(NAMES)) {
        const fewer = firing(spec, names, ctx);
        for (const more of NAMES.filter((n) => !names.includes(n))) {
          const all = firing(spec, [...names, more], ctx);
          for (const id of fewer) assert.ok(all.includes(id), `${rel}: ${spec} {${names}} fires ${id}, {${names},${more}} does not`);
        }
      }
    }
  }
});

test("candidates: path and framework specifiers, with the names their clause can take", () => {
  const found = candidates(`import { defineWorkflow } from "@sanoma-ai/workflows";
import x, { a as b } from '../lib/x';
import * as ns from "./ns";
const z = require("zod"), y = require(\`../y\`);
export * from "/abs";
`);
  assert.deepEqual(found, [
    { specifier: "../lib/x", names: [] },
    { specifier: "@sanoma-ai/workflows", names: ["*", "default", "defineWorkflow"] },
    { specifier: "./ns", names: [] },
    { specifier: "/abs", names: [] },
    { specifier: "../y", names: [] },
  ]);
});

test("candidates: the framework's modules are candidates only where their names can matter (a data file), or where `collection` may be written", () => {
  const text = `import { defineWorkflow } from "@sanoma-ai/workflows";\nimport { a } from "./a";\n`;
  assert.deepEqual(candidates(text, false), [{ specifier: "./a", names: [] }]);
  assert.deepEqual(candidates(text, true), [{ specifier: "@sanoma-ai/workflows", names: ["*", "default", "defineWorkflow"] }, { specifier: "./a", names: [] }]);
  const withCollection = `import { collection } from "@sanoma-ai/workflows";\n`;
  assert.deepEqual(candidates(withCollection, false), [{ specifier: "@sanoma-ai/workflows", names: ["*", "default", "collection"] }]);
  // Through the prefilter: a workflow's framework import is passed over, a data file's is judged.
  const secretText = `import { secret } from "@sanoma-ai/workflows";\n`;
  const prefilter = new Prefilter(IMPORT_RULES);
  assert.deepEqual(IMPORT_RULES.filter((r) => prefilter.mayFire(r.id, ctxOf("workflows/w.ts"), secretText)).map((r) => r.id), []);
  assert.deepEqual(IMPORT_RULES.filter((r) => prefilter.mayFire(r.id, ctxOf("resources/r.ts"), secretText)).map((r) => r.id), ["data-file-imports"]);
});

test("candidates: escapes are decoded, and a literal that cannot be read makes every rule a candidate", () => {
  // (A `\\u` may spell `collection`: the path is judged with the names its clause takes.)
  assert.deepEqual(candidates(`import "\\u002e\\x2e/a";`), [{ specifier: "../a", names: ["*", "default"] }]);
  assert.deepEqual(candidates(`import "\\x2e./a";`), [{ specifier: "../a", names: [] }]);
  assert.equal(candidates(`import "./a\\"b";`), "all", "an escaped quote");
  assert.equal(candidates(`const s = "./a\\\nb";`), "all", "a line continuation");
  assert.equal(candidates(`import "./\\u{110000}";`), "all", "an escape that is no character");
  assert.equal(candidates(`import "\\1./a";`), "all", "a legacy octal escape");
  assert.deepEqual(candidates("import(`../a${x}`);"), [], "a template with a substitution is no specifier");
  assert.deepEqual(candidates(`import "zod"; const s = "it's ./x";`), []);
  assert.equal(unescape("a\\u{1F600}\\tb\\\r\nc"), "a\u{1F600}\tbc");
});

test("candidates: where the text holds the word collection, every literal is a candidate with its clause's names (collection is judged from any module)", () => {
  assert.deepEqual(candidates(`import { collection, doc } from "firebase/firestore";\nimport { a } from "./a";`), [
    { specifier: "firebase/firestore", names: ["*", "default", "collection", "doc"] },
    { specifier: "./a", names: ["*", "default", "a"] },
  ]);
  assert.deepEqual(candidates(`import { doc } from "firebase/firestore";\nimport { a } from "./a";`), [{ specifier: "./a", names: [] }]);
});

test("candidates: a clause that cannot be read simply takes every word of the file", () => {
  const words = (text: string) => {
    const found = candidates(text);
    assert.ok(found !== "all" && found.length === 1, text);
    return (found as { names: string[] }[])[0].names;
  };
  // A reserved word named in braces, a comment, a string name: `secret` must be among the names.
  assert.ok(words(`import { secret, import as i } from "@sanoma-ai/workflows";`).includes("secret"));
  assert.ok(words(`import { secret, /* import */ x } from "@sanoma-ai/workflows";`).includes("secret"));
  assert.ok(words(`import {\n  secret, // export\n  x } from "@sanoma-ai/workflows";`).includes("secret"));
  assert.ok(words(`import { "secret" as s } from "@sanoma-ai/workflows";`).includes("secret"));
  assert.ok(words(`export { secret, export } from "@sanoma-ai/workflows";`).includes("secret"));
  assert.ok(words(`import { secret } from /* from */ "@sanoma-ai/workflows";`).includes("secret"));
  assert.ok(words(`export * as import from "@sanoma-ai/workflows";`).includes("*"));
  assert.ok(words(`import { sécret, secret } from "@sanoma-ai/workflows";`).includes("sécret"));
  // A line comment before the specifier, or one holding a keyword; a space past ASCII by `from`.
  assert.ok(words(`import { secret } from // helpers\n  "@sanoma-ai/workflows";`).includes("secret"));
  assert.ok(words(`import { secret, // export {\n  x } from "@sanoma-ai/workflows";`).includes("secret"));
  assert.ok(words(`import { secret, // see. export {\n  x } from "@sanoma-ai/workflows";`).includes("secret"));
  assert.ok(words(`import { secret }\u00a0from "@sanoma-ai/workflows";`).includes("secret"));
  assert.ok(words(`import { secret } from\u3000"@sanoma-ai/workflows";`).includes("secret"));
  // A name written with an escape is no word of the file: every rule is a candidate.
  assert.equal(candidates(`import { c\\u006fllection } from "@sanoma-ai/workflows/data";`), "all");
});

/** A small deterministic generator of import-heavy files, with the tricks a reader can trip on. */
function* generated(count: number): Generator<string> {
  let seed = 42;
  const rnd = (n: number) => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed % n; };
  const pick = <T>(xs: T[]): T => xs[rnd(xs.length)];
  const spec = () => {
    const s = pick([...PATHS, ...FRAMEWORK, ...BARE.filter(Boolean)]);
    const q = pick(['"', "'", '"']);
    // Sometimes escape a character of it.
    if (s.length > 1 && rnd(6) === 0) { const i = rnd(s.length); return q + s.slice(0, i) + `\\x${s.charCodeAt(i).toString(16).padStart(2, "0")}` + s.slice(i + 1) + q; }
    return q + s + q;
  };
  const name = () => pick(["secret", "sanoma", "collection", "a", "b", "import", "export", "default", "from", "c\\u006fllection", "s\\u{65}cret"]);
  const gap = () => pick([" ", " ", "  ", "\n  ", " /* c */ ", " // x\n ", "\u00a0", " \u3000", " // export {\n ", " // see. import {\n "]);
  const forms = [
    () => `import {${gap()}${name()}${gap()}as x${rnd(99)},${gap()}${name()} as y${rnd(99)} } from${gap()}${spec()};`,
    () => `import { ${name()} } from ${spec()};`,
    () => `import d${rnd(99)}, { ${name()} as e${rnd(99)} } from ${spec()};`,
    () => `import * as n${rnd(99)} from ${spec()};`,
    () => `import type { ${name()} as t${rnd(99)} } from ${spec()};`,
    () => `import ${spec()};`,
    () => `export { ${name()} as f${rnd(99)} } from ${spec()};`,
    () => `export * from ${spec()};`,
    () => `export * as ${pick(["ns", "import", "from"])} from ${spec()};`,
    () => `const r${rnd(99)} = require(${spec()});`,
    () => `const m${rnd(99)} = await import(${spec()});`,
    () => `import q${rnd(99)} = require(${spec()});`,
    () => `type T${rnd(99)} = import(${spec()}).X;`,
    () => `const s${rnd(99)} = ${spec()}; // not an import`,
    () => `const t${rnd(99)} = "it's ${name()}";`,
  ];
  for (let i = 0; i < count; i++) yield Array.from({ length: 1 + rnd(6) }, () => pick(forms)()).join("\n") + "\n";
}

test("prefilter: on 3,000 generated files, every rule the core's facts make fire is let through", (t) => {
  const prefilter = new Prefilter(IMPORT_RULES);
  let fired = 0, skipped = 0, broken = 0;
  for (const text of generated(3000)) {
    for (const rel of ["apps/a/workflows/w.ts", "resources/r.ts", "resources/data.ts", "workflows/w.ts"]) {
      const ctx = ctxOf(rel);
      const facts = readFacts(ctx.file, text);
      if (facts.syntaxErrors > 0) { broken++; continue; }
      const real = new Set<string>();
      for (const imp of facts.imports) {
        for (const r of IMPORT_RULES) if (r.judgeImport({ specifier: imp.specifier, specifierRange: 0, names: imp.names.map((n) => ({ imported: n.imported, range: 0 })) }, ctx).length > 0) real.add(r.id);
      }
      for (const id of real) assert.ok(prefilter.mayFire(id, ctx, text), `${rel}: ${id} fires but the prefilter skips it in:\n${text}`);
      fired += real.size;
      if (real.size === 0 && !IMPORT_RULES.some((r) => prefilter.mayFire(r.id, ctx, text))) skipped++;
    }
  }
  t.diagnostic(`${fired} rule firings let through, ${skipped} clean files skipped, ${broken} with syntax errors left out`);
  assert.ok(broken < 1200, "most generated files parse");
  assert.ok(fired > 1000, `the generator makes rules fire (${fired})`);
  assert.ok(skipped > 1000, `and the prefilter skips clean files (${skipped})`);
});

test("prefilter: files of one folder with other roles are judged by their own role", () => {
  // resources/r.d.ts declares types (no data file); resources/r.ts is a data file: same folder, other roles.
  const text = `import type { W } from "../workflows/w";\n`;
  const fires = (prefilter: Prefilter, rel: string) => IMPORT_RULES.filter((r) => prefilter.mayFire(r.id, ctxOf(rel), text)).map((r) => r.id);
  for (const order of [["resources/r.d.ts", "resources/r.ts"], ["resources/r.ts", "resources/r.d.ts"]]) {
    const prefilter = new Prefilter(IMPORT_RULES);
    for (const rel of order) assert.deepEqual(fires(prefilter, rel), rel === "resources/r.ts" ? ["data-file-imports"] : [], `${order}: ${rel}`);
  }
});

