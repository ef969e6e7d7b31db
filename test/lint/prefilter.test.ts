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
import type { ImportContext } from "../../server/src/core/sites.ts";
import { Prefilter, candidates } from "../../lint-plugin/src/prefilter.ts";
import { bareVerdictKey, importTarget, sharesVerdict, verdictFolder } from "../../server/src/core/reach.ts";
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
/** A text's candidates without their places (`at`, checked on its own below). */
function cands(text: string, frameworkNames?: boolean): { specifier: string; names: string[] }[] | "all" {
  const found = candidates(text, frameworkNames);
  return found === "all" ? found : found.map(({ specifier, names }) => ({ specifier, names }));
}
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

// ---- Verdicts shared (reach.ts's verdictFolder and bareVerdictKey) -----------------------------

/** Folders of importing files, and for each some files of two roles or more. */
const FOLDER_FILES = [
  ["lib/x.ts", "lib/y.ts", "lib/z.test.ts"], ["x.ts", "y.ts", "sanoma.config.ts"], ["workflows/w.ts", "workflows/w.test.ts", "workflows/w.d.ts"],
  ["resources/r.ts", "resources/s.ts", "resources/r.d.ts", "resources/r.test.ts"], ["resources/deep/r.ts", "resources/deep/x.json.ts"],
  ["scenarios/s.ts", "scenarios/t.ts"], ["apps/readme.ts", "apps/other.ts"], ["apps/a/app.ts", "apps/a/b.ts"], ["apps/a/workflows/w.ts", "apps/a/workflows/v.ts"],
  ["apps/a/resources/r.ts", "apps/a/resources/q.ts", "apps/a/resources/r.spec.ts"], ["apps/a/lib/l.ts", "apps/a/lib/m.ts"], ["apps/a/lib/deep/l.ts"], ["apps/.x/lib/l.ts"],
];
/** Folder parts of specifiers: every kind of place a target can land (the root, apps/ itself, an app, kind folders, dot folders, outside). */
const SPEC_FOLDERS = [".", "..", "../..", "../../..", "../../../..", "./lib", "./apps", "../apps", "../../apps", "./apps/a", "../apps/b", "../../b", "../../a", "../../b/lib",
  "./workflows", "../workflows", "../../workflows", "./scenarios", "../scenarios", "./resources", "../resources", "./.hidden", "./node_modules/x", "../apps/.x", "./a/../../apps"];
const PLAIN = ["a", "b", "index", "node_modules", "Workflows", "x-y", "apps2", "$z"];
const NOT_PLAIN = ["a.ts", "a.test", "apps", "workflows", "scenarios", "", ".", "..", "a.d"];

test("core assumption: from files of one folder and one data-file role, path specifiers of one verdictFolder get one verdict from every rule, but where the target lies directly in apps/", () => {
  let shared = 0, unshared = 0;
  for (const files of FOLDER_FILES) {
    for (const data of [true, false]) {
      const ctxs = files.map(ctxOf).filter((c) => c.role.isDataFile === data && !c.role.isCollectionsFile);
      if (ctxs.length === 0) continue;
      for (const folder of SPEC_FOLDERS) {
        const specs = PLAIN.map((n) => `${folder}/${n}`);
        for (const spec of specs) assert.equal(verdictFolder(spec), folder, spec);
        const first = ctxs[0];
        if (!sharesVerdict(importTarget(first, specs[0]))) {
          // Directly in apps/: each name is an app's, judged on its own.
          for (const spec of specs) assert.ok(!sharesVerdict(importTarget(first, spec)), spec);
          unshared++;
          continue;
        }
        const verdict = firing(specs[0], [], first);
        for (const ctx of ctxs) for (const spec of specs) assert.deepEqual(firing(spec, [], ctx), verdict, `${ctx.rel}: ${spec} against ${first.rel}: ${specs[0]}`);
        shared++;
      }
    }
  }
  assert.ok(shared > 200 && unshared > 5, `${shared} folders shared, ${unshared} not`);
});

test("verdictFolder: a last segment that is no plain name (an extension, a kind's or apps' name, a dot) and every other specifier are judged on their own", () => {
  for (const folder of SPEC_FOLDERS) for (const name of NOT_PLAIN) assert.equal(verdictFolder(`${folder}/${name}`), undefined, `${folder}/${name}`);
  for (const spec of [...FRAMEWORK, ...BARE, "/abs/x", ".hidden/x", "./", "../", ".", "..", "./a\\b"]) assert.equal(verdictFolder(spec), undefined, spec);
});

test("core assumption: a specifier that is no path gets one verdict for one bareVerdictKey (its names and the file's role), wherever the file is", () => {
  const byKey = new Map<string, { verdict: string[]; at: string }>();
  let compared = 0;
  for (const rel of FILES) {
    const ctx = ctxOf(rel);
    for (const spec of [...FRAMEWORK, ...BARE]) {
      for (const names of subsets(NAMES)) {
        const key = bareVerdictKey(spec, names, ctx.role);
        const verdict = firing(spec, names, ctx);
        const known = byKey.get(key);
        if (known === undefined) byKey.set(key, { verdict, at: rel });
        else { compared++; assert.deepEqual(verdict, known.verdict, `${rel} and ${known.at}: ${spec} {${names}}`); }
      }
    }
  }
  assert.ok(compared > 10_000, `${compared} verdicts compared`);
});

test("prefilter: with verdicts shared per folder record, every file gets the verdict it gets alone, on 3,000 generated files", () => {
  const alone = new Prefilter(IMPORT_RULES);
  const sharing = new Prefilter(IMPORT_RULES);
  const records = new Map<string, object>(); // one record per folder, as the plugin's FileContexts keeps
  let firingFiles = 0;
  const texts = [...generated(3000)];
  for (const files of FOLDER_FILES) {
    const record = {};
    for (const rel of files) records.set(rel, record);
  }
  for (const text of texts) {
    for (const files of FOLDER_FILES) {
      for (const rel of files) {
        const ctx = ctxOf(rel);
        const want = alone.verdict(ctx, text);
        const got = sharing.verdict(ctx, text, records.get(rel));
        assert.deepEqual([...got.fire].sort(), [...want.fire].sort(), `${rel}:\n${text}`);
        assert.deepEqual(got.firing, want.firing, `${rel}:\n${text}`);
        if (got.fire.size > 0) firingFiles++;
      }
    }
  }
  assert.ok(firingFiles > 10_000, `${firingFiles} files with a rule firing`);
});

test("prefilter: a verdict names each firing literal at its opening quote, with the rules that fire on it", () => {
  const text = `import { a } from "../../b/lib/a";\nimport { c } from "./c";\nconst o = require('../../../../out');\n`;
  const v = new Prefilter(IMPORT_RULES).verdict(ctxOf("apps/a/lib/l.ts"), text);
  const ids = (bits: number) => IMPORT_RULES.filter((_, i) => bits & (1 << i)).map((r) => r.id);
  assert.deepEqual(v.firing?.map((f) => [text.slice(f.at, f.at + 2), ids(f.rules)]), [[`".`, ["no-cross-app-import"]], ["'.", ["no-import-outside-company"]]]);
  assert.deepEqual([...v.fire].sort(), ["no-cross-app-import", "no-import-outside-company"]);
  // A collections file, or a literal that cannot be read: every rule, at no known place.
  assert.equal(new Prefilter(IMPORT_RULES).verdict(ctxOf("resources/data.ts"), text).firing, undefined);
  assert.equal(new Prefilter(IMPORT_RULES).verdict(ctxOf("lib/x.ts"), `import "./a\\"b";`).firing, undefined);
});

test("candidates: where collection may be written, a literal passed to a call of another name than require or import is judged as no site's", () => {
  const text = `import { collection } from "@sanoma-ai/workflows/data";\nawait ctx.call("./x", { a: 1 });\nconst y = require("./y");\nf (  '../z');\n`;
  const found = cands(text);
  assert.ok(found !== "all");
  assert.deepEqual(found.map((c) => c.specifier), ["@sanoma-ai/workflows/data", "./x", "./y", "../z"]);
  assert.deepEqual(found[0].names, ["*", "default", "collection"]);
  assert.deepEqual(found[1].names, ["*", "default"], "ctx.call(…): no site");
  assert.deepEqual(found[3].names, ["*", "default"], "f (…): no site");
  // Of require (and where what is called cannot be read simply): every word of the text.
  assert.ok(found[2].names.includes("collection") && found[2].names.includes("ctx"), "require(…): every word");
  const odd = cands(`import { collection } from "x";\n(require)("./a"); a?.("./b");`);
  assert.ok(odd !== "all");
  // (Every quote may open a literal there, the one closing "./a" too.)
  assert.deepEqual(odd.filter((c) => c.specifier.startsWith("./")).map((c) => [c.specifier, c.names.includes("collection")]), [["./a", true], ["./b", true]], "`)(` and `?.(` are unsure: every word");
  // A called name written with an escape may be require: with a `\u` in the text, every rule.
  assert.equal(cands(`import { collection } from "x";\n\\u0072equire("./c");`), "all");
});

test("candidates: path and framework specifiers, with the names their clause can take, in the text's order, at their opening quotes", () => {
  const text = `import { defineWorkflow } from "@sanoma-ai/workflows";
import x, { a as b } from '../lib/x';
import * as ns from "./ns";
const z = require("zod"), y = require(\`../y\`);
export * from "/abs";
`;
  assert.deepEqual(cands(text), [
    { specifier: "@sanoma-ai/workflows", names: ["*", "default", "defineWorkflow"] },
    { specifier: "../lib/x", names: [] },
    { specifier: "./ns", names: [] },
    { specifier: "../y", names: [] },
    { specifier: "/abs", names: [] },
  ]);
  const found = candidates(text);
  assert.ok(found !== "all");
  assert.deepEqual(found.map((c) => text.slice(c.at, c.at + c.specifier.length + 2)), [`"@sanoma-ai/workflows"`, "'../lib/x'", `"./ns"`, "`../y`", `"/abs"`]);
});

test("candidates: the framework's modules are candidates only where their names can matter (a data file), or where `collection` may be written", () => {
  const text = `import { defineWorkflow } from "@sanoma-ai/workflows";\nimport { a } from "./a";\n`;
  assert.deepEqual(cands(text, false), [{ specifier: "./a", names: [] }]);
  assert.deepEqual(cands(text, true), [{ specifier: "@sanoma-ai/workflows", names: ["*", "default", "defineWorkflow"] }, { specifier: "./a", names: [] }]);
  const withCollection = `import { collection } from "@sanoma-ai/workflows";\n`;
  assert.deepEqual(cands(withCollection, false), [{ specifier: "@sanoma-ai/workflows", names: ["*", "default", "collection"] }]);
  // Through the prefilter: a workflow's framework import is passed over, a data file's is judged.
  const secretText = `import { secret } from "@sanoma-ai/workflows";\n`;
  const prefilter = new Prefilter(IMPORT_RULES);
  assert.deepEqual(IMPORT_RULES.filter((r) => prefilter.mayFire(r.id, ctxOf("workflows/w.ts"), secretText)).map((r) => r.id), []);
  assert.deepEqual(IMPORT_RULES.filter((r) => prefilter.mayFire(r.id, ctxOf("resources/r.ts"), secretText)).map((r) => r.id), ["data-file-imports"]);
});

test("candidates: escapes are decoded, and a literal that cannot be read makes every rule a candidate", () => {
  // (A `\\u` may spell `collection`: the path is judged with the names its clause takes.)
  assert.deepEqual(cands(`import "\\u002e\\x2e/a";`), [{ specifier: "../a", names: ["*", "default"] }]);
  assert.deepEqual(cands(`import "\\x2e./a";`), [{ specifier: "../a", names: [] }]);
  assert.equal(candidates(`import "./a\\"b";`), "all", "an escaped quote");
  assert.equal(candidates(`const s = "./a\\\nb";`), "all", "a line continuation");
  assert.equal(candidates(`import "./\\u{110000}";`), "all", "an escape that is no character");
  assert.equal(candidates(`import "\\1./a";`), "all", "a legacy octal escape");
  assert.deepEqual(candidates("import(`../a${x}`);"), [], "a template with a substitution is no specifier");
  assert.deepEqual(candidates(`import "zod"; const s = "it's ./x";`), []);
  assert.equal(unescape("a\\u{1F600}\\tb\\\r\nc"), "a\u{1F600}\tbc");
});

test("candidates: where the text holds the word collection, every literal is a candidate with its clause's names (collection is judged from any module)", () => {
  assert.deepEqual(cands(`import { collection, doc } from "firebase/firestore";\nimport { a } from "./a";`), [
    { specifier: "firebase/firestore", names: ["*", "default", "collection", "doc"] },
    { specifier: "./a", names: ["*", "default", "a"] },
  ]);
  assert.deepEqual(cands(`import { doc } from "firebase/firestore";\nimport { a } from "./a";`), [{ specifier: "./a", names: [] }]);
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
  const rnd = (n: number) => { seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff; return seed % n; };
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


test("prefilter: the verdicts shared company-wide (specifiers that are no path) stay bounded in a host that lints for days", () => {
  const prefilter = new Prefilter(IMPORT_RULES);
  const ctx = ctxOf("resources/r.ts");
  const bare = (prefilter as unknown as { bare: Map<string, number> }).bare;
  let most = 0;
  for (let i = 0; i < 12_000; i++) {
    prefilter.verdict(ctx, `import { secret, name${i} } from "@sanoma-ai/workflows";\n`, {});
    most = Math.max(most, bare.size);
  }
  assert.ok(most >= 9_000 && most <= 10_000, `at most ${most} kept`);
  // Still right after the table was emptied.
  assert.deepEqual([...prefilter.verdict(ctx, `import { secret } from "@sanoma-ai/workflows";\n`, {}).fire], ["data-file-imports"]);
});
