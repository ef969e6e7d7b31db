/**
 * Facts read without a syntax tree (`readFactsLightly` in core/facts.ts) must be the facts read
 * from it: the same import sites (the text scanner, core/scan.ts, vouches for them or refuses),
 * none of what a text without `defineResource`, `secret`, `collection` or a `"data.` string can
 * hold, and the rest read from the tree on first use. Held on the repository's own TypeScript,
 * the `.d.ts` files of `@types`, the example companies and a generated company; then whole checks
 * with and without light facts must say the same.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { test } from "node:test";
import { readFacts, readFactsLightly, readWorkflowSourceJudged, syntaxAndWorkflows, textAwaitingSyntax, workflowsRead, type FileFacts, type ImportFact } from "../../server/src/core/facts.ts";
import { Workspace } from "../../server/src/core/workspace.ts";
import { nodeFileSystem } from "../../server/src/node/fs.ts";
import type { Problem } from "../../server/src/core/types.ts";
// @ts-expect-error the benchmark's generator is plain JavaScript
import { generateCompany, rng } from "../../bench/generate.mjs";
import { mutants } from "./mutants.ts";

const REPO = join(import.meta.dirname, "..", "..");

function tsFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) { if (e.name !== ".git" && e.name !== "dist") tsFiles(p, out); }
    else if (/\.[cm]?ts$/.test(e.name) && statSync(p).size < 2_000_000) out.push(p);
  }
  return out;
}

/** Sites in text order, so that the two readings' orders (declarations first, or text) compare. */
const inOrder = (imports: ImportFact[]) =>
  [...imports].sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);

/** Every field, read the way a consumer reads it (through the light facts' getters). */
const fields = (f: FileFacts) => ({
  syntaxErrors: f.syntaxErrors, firstSyntaxError: f.firstSyntaxError, imports: inOrder(f.imports), bindings: f.bindings, locals: f.locals,
  exports: f.exports, starExports: f.starExports, specs: f.specs, declarations: f.declarations, collections: f.collections,
  opRefs: f.opRefs, secretCalls: f.secretCalls, workflows: f.workflows, config: f.config,
});

test("light facts: the same facts as the syntax tree's, on the repository, @types and a generated company", () => {
  const gen = mkdtempSync(join(tmpdir(), "sanoma-light-"));
  try {
    generateCompany(gen, { files: 2000, hot: true });
    const corpora = {
      repository: [...tsFiles(join(REPO, "server")), ...tsFiles(join(REPO, "lint-plugin", "src")), ...tsFiles(join(REPO, "client")), ...tsFiles(join(REPO, "test")), ...tsFiles(join(REPO, "bench")), ...tsFiles(join(REPO, "examples"))],
      types: tsFiles(join(REPO, "node_modules", "@types")),
      generated: tsFiles(gen).filter((f) => !f.includes("/node_modules/")),
    };
    for (const [name, files] of Object.entries(corpora)) {
      let light = 0;
      let withOpRefs = 0;
      let workflowFiles = 0;
      for (const file of files) {
        const text = readFileSync(file, "utf8");
        const full = readFacts(file, text);
        const read = readFactsLightly(file, text);
        if (read.constructor.name === "LightFacts") {
          light++;
          if (read.opRefs.length > 0) withOpRefs++;
          // Its own fields first, before any getter reads the tree.
          assert.deepEqual({ specs: read.specs, collections: read.collections, opRefs: read.opRefs, secretCalls: read.secretCalls, imports: inOrder(read.imports) },
            { specs: full.specs, collections: full.collections, opRefs: full.opRefs, secretCalls: full.secretCalls, imports: inOrder(full.imports) }, relative(REPO, file));
        }
        assert.deepEqual(fields(read), fields(full), relative(REPO, file));
        judgedSameAs(file, text, full, relative(REPO, file));
        // One parse for the verdict and the workflows (a server's workflow sources): the full reading's.
        const lean = syntaxAndWorkflows(file, text);
        assert.deepEqual(lean, { verdict: full.firstSyntaxError ? { errors: full.syntaxErrors, first: full.firstSyntaxError } : { errors: full.syntaxErrors }, workflows: full.workflows }, relative(REPO, file));
        if (full.workflows.length > 0) workflowFiles++;
      }
      // Light reading must be the common case where it can be, or this test proves little.
      assert.ok(light >= files.length / 5, `${name}: ${light} of ${files.length} files read lightly`);
      // A company's workflows are read lightly too, their operation references from the text.
      if (name === "generated") assert.ok(withOpRefs >= files.length / 4, `${withOpRefs} files read lightly with operation references`);
      if (name !== "types") assert.ok(workflowFiles >= 20, `${name}: ${workflowFiles} files with workflows`);
    }
  } finally {
    rmSync(gen, { recursive: true, force: true });
  }
});

/**
 * Holds `readWorkflowSourceJudged` (sanoma-check's reading of a workflow source: vouched for, its
 * strings from vouch's tokens) to the tree's facts, its own fields first (before any getter reads
 * the tree); true when it read the text lightly with its verdict known (nothing left to parse).
 */
function judgedSameAs(file: string, text: string, full: FileFacts, what: string): boolean {
  const judged = readWorkflowSourceJudged(file, text);
  const light = judged.constructor.name === "LightFacts";
  if (light) {
    assert.deepEqual({ specs: judged.specs, collections: judged.collections, opRefs: judged.opRefs, secretCalls: judged.secretCalls, imports: inOrder(judged.imports) },
      { specs: full.specs, collections: full.collections, opRefs: full.opRefs, secretCalls: full.secretCalls, imports: inOrder(full.imports) }, `${what} (judged)`);
  }
  const known = light && textAwaitingSyntax(judged) === undefined && !workflowsRead(judged);
  assert.deepEqual(fields(judged), fields(full), `${what} (judged)`);
  return known;
}

const show = (root: string, p: Problem) =>
  `${relative(root, p.file)}:${p.range.start.line}:${p.range.start.character} ${p.severity} ${p.rule} ${p.message}` +
  (p.related?.length ? ` [${p.related.map((r) => `${relative(root, r.file)}:${r.range.start.line}:${r.range.start.character}`).join("; ")}]` : "") +
  (p.fixes?.length ? ` {${p.fixes.map((f) => `${f.title} ${JSON.stringify(f.edits)}`).join("; ")}}` : "");

/**
 * `textOf`: facts read without a tree let their texts go and read them again (as sanoma-check and
 * the server do); `syntax`: how `loadCompany` is told the workflow sources' syntax will be asked.
 */
function checkWith(root: string, lightFacts: boolean, textOf?: (file: string) => string | undefined, syntax?: "now" | "unasked"): string[] {
  const ws = new Workspace(nodeFileSystem, { lightFacts, textOf });
  ws.loadCompany(root, { syntaxNow: syntax === "now", syntaxUnasked: syntax === "unasked" });
  const result = ws.check(root);
  return [...result.problems.map((p) => show(root, p)), `declarations: ${result.analysis.declarations.map((d) => `${d.id} ${d.type?.id}`).join(", ")}`];
}

test("a workflow source judged as it is read (sanoma-check's way): vouched for, its strings read from vouch's tokens, the same facts as the tree's, on a generated company and its seeded mutants", (t) => {
  const gen = mkdtempSync(join(tmpdir(), "sanoma-light-"));
  try {
    generateCompany(gen, { files: 1500, hot: true });
    const sources = tsFiles(gen).filter((f) => !f.includes("/node_modules/") && f.includes("/workflows/"));
    assert.ok(sources.length > 300, `${sources.length} workflow sources`);
    const r: () => number = rng(4242);
    let texts = 0;
    let judged = 0;
    for (const file of sources) {
      const text = readFileSync(file, "utf8");
      for (const m of [text, ...mutants(text, r).slice(0, 6)]) {
        texts++;
        if (judgedSameAs(file, m, readFacts(file, m), `${relative(gen, file)}: ${JSON.stringify(m.slice(0, 80))}`)) judged++;
      }
    }
    t.diagnostic(`${judged} of ${texts} texts judged as read, with their verdict`);
    // Else this test proves little: most of a company's sources are vouched for.
    assert.ok(judged >= sources.length * 0.9, `${judged} of ${texts} texts judged as read`);
  } finally {
    rmSync(gen, { recursive: true, force: true });
  }
});

test("a workflow source judged as it is read: the strings and import sites of tricky texts, as the tree reads them", () => {
  const file = "/co/workflows/w.ts";
  const cases: { text: string; opRefs: string[]; imports: string[] }[] = [
    // Escapes that write the prefix; a template without substitutions; one with (no literal).
    { text: `export const w = (ctx: any) => [ctx.call("\\x64ata.orders.get"), ctx.call(\`data.orders.list\`), \`data.\${ctx}.x\`];\n`, opRefs: ["orders.get", "orders.list"], imports: [] },
    // A quote and the prefix inside another literal, a regular expression, a comment: none.
    { text: `export const s = 'say "data.orders.get"';\nexport const re = /"data.orders.get"\\d/;\n// "data.orders.get"\n`, opRefs: [], imports: [] },
    // Module names where they stand are no references; a \`from\` after a dot is a property (ASI).
    { text: `import a from "data.orders.get";\nexport { b } from "data.orders.list";\nconst c = require("data.orders.put");\nconst d = import("data.orders.del");\nconst e = a.from\n"data.orders.count";\nexport const f = [b, c, d, e];\n`, opRefs: ["orders.count"], imports: ["data.orders.get", "data.orders.list", "data.orders.put", "data.orders.del"] },
    // Words that hold \`import\`, \`from\` or \`require\` (importAmount): the last site is a real one, after them.
    { text: `const importAmount = (x: number) => x;\nconst fromDate = importAmount(1);\nconst requireAll = fromDate;\nexport { requireAll };\nexport { z } from "./z";\nconst later = require("./later");\nexport const y = later("data.orders.get");\n`, opRefs: ["orders.get"], imports: ["./z", "./later"] },
    // A \`/\` after \`++\`, which the scanner cannot tell (it gives up): vouch reads it.
    { text: `import { a } from "./a";\nexport function w(ctx: any) {\n  let i = a;\n  const n = i++ / 2;\n  ctx.call("data.orders.get", n);\n  return "data.orders.list";\n}\n`, opRefs: ["orders.get", "orders.list"], imports: ["./a"] },
  ];
  for (const { text, opRefs, imports } of cases) {
    const full = readFacts(file, text);
    assert.equal(full.syntaxErrors, 0, text);
    assert.deepEqual(full.opRefs.map((o) => `${o.collection}.${o.op}`), opRefs, text);
    assert.deepEqual(inOrder(full.imports).map((i) => i.specifier), imports, text);
    assert.ok(judgedSameAs(file, text, full, text), `judged as read: ${text}`);
  }
  // The last: the scanner alone refuses it, and the tree is read; judged, it is read lightly.
  const last = cases.at(-1)!.text;
  assert.notEqual(readFactsLightly(file, last).constructor.name, "LightFacts");
  // Where vouch is not sure (a class), the text is read as readFactsLightly reads it, and parsed
  // for its verdict at once (not vouched for a second time when it is asked); with an error too.
  for (const unsure of [
    `import { a } from "./a";\nexport class W { run(ctx: any) { return ctx.call("data.orders.get", a); } }\n`,
    `import { a } from "./a";\nexport class W { run(ctx: any) { return ctx.call("data.orders.get", a) } ; ; }\nconst x = ;\n`,
  ]) {
    const judged = readWorkflowSourceJudged(file, unsure, { text: () => unsure, syntaxAsked: true });
    assert.equal(judged.constructor.name, "LightFacts", unsure);
    assert.equal(textAwaitingSyntax(judged), undefined, unsure);
    assert.deepEqual(fields(judged), fields(readFacts(file, unsure)), unsure);
  }
});

test("light facts: a whole check says the same with and without them", () => {
  const gen = mkdtempSync(join(tmpdir(), "sanoma-light-"));
  try {
    generateCompany(gen, { files: 2000, hot: true });
    for (const root of [join(REPO, "examples", "acme"), join(REPO, "examples", "acme-broken"), gen]) {
      const full = checkWith(root, false);
      // Declarations resolved in every company; problems in the broken ones.
      assert.match(full.at(-1)!, /declarations: \S/, root);
      if (root !== join(REPO, "examples", "acme")) assert.ok(full.length > 10, root);
      assert.deepEqual(checkWith(root, true), full, root);
      assert.deepEqual(checkWith(root, true, (file) => nodeFileSystem.readFile(file)), full, `${root}, the texts let go`);
      assert.deepEqual(checkWith(root, true, (file) => nodeFileSystem.readFile(file), "now"), full, `${root}, the syntax judged as read (sanoma-check's way)`);
      // Told nothing asks, and asked after all (the check's rules are all on): the texts read again.
      assert.deepEqual(checkWith(root, true, (file) => nodeFileSystem.readFile(file), "unasked"), full, `${root}, the syntax unasked`);
    }
  } finally {
    rmSync(gen, { recursive: true, force: true });
  }
});

test("loadCompany with syntaxNow (sanoma-check's way): no text is left awaiting its syntax, each judged as read; with syntaxUnasked (the rule off), none held; with neither, the workflow sources read lightly hold theirs until asked", () => {
  const gen = mkdtempSync(join(tmpdir(), "sanoma-light-"));
  try {
    generateCompany(gen, { files: 300 });
    const awaiting = (options: { syntaxNow?: boolean; syntaxUnasked?: boolean }) => {
      const ws = new Workspace(nodeFileSystem, { textOf: (file) => nodeFileSystem.readFile(file) });
      const company = ws.loadCompany(gen, options);
      return [...company.files.values()].filter((f) => f.facts && textAwaitingSyntax(f.facts) !== undefined).length;
    };
    const held = awaiting({});
    assert.ok(held > 20, `workflow sources read lightly hold their texts (${held})`);
    assert.equal(awaiting({ syntaxNow: true }), 0);
    assert.equal(awaiting({ syntaxUnasked: true }), 0);
  } finally {
    rmSync(gen, { recursive: true, force: true });
  }
});

test("light facts let their text go: at once when nothing asks if it parses, else once a verdict is known; read again for the workflows (only they kept) and for the tree, the same facts", () => {
  const text = `import { a } from "./a";\nexport const w = async (ctx: any) => ctx.call("data.orders.get", a);\nexport const n = 1;\n`;
  const full = readFacts("/co/workflows/w.ts", text);
  for (const syntaxAsked of [false, true]) {
    let reads = 0;
    const light = readFactsLightly("/co/workflows/w.ts", text, { text: () => { reads++; return text; }, syntaxAsked });
    assert.equal(light.constructor.name, "LightFacts");
    assert.equal(textAwaitingSyntax(light), syntaxAsked ? text : undefined, "a text nothing will parse for its syntax is let go at once");
    assert.equal(light.syntaxErrors, 0);
    assert.equal(textAwaitingSyntax(light), undefined, "let go once the verdict is known");
    assert.equal(reads, syntaxAsked ? 0 : 1, "the verdict parsed the text kept, or one read again");
    assert.equal(workflowsRead(light), false);
    assert.deepEqual(light.workflows, full.workflows);
    assert.equal(workflowsRead(light), true);
    assert.equal(reads, syntaxAsked ? 1 : 2, "read again for the workflows, of which only they are kept");
    void light.workflows;
    assert.equal(reads, syntaxAsked ? 1 : 2, "the workflows are kept");
    assert.deepEqual(fields(light), fields(full));
    assert.equal(reads, syntaxAsked ? 2 : 3, "read again once for the rest of the tree");
  }
  // A host that lists workflows (the server): the parse for the verdict reads them too, once.
  for (const t of [text, `export const w = async (ctx: any) => ctx.call("data.orders.get");\nconst = 2;\nconst run = () => 1;\nexport { run as nightly };\nasync function go() {}\nexport { go };\n`]) {
    const fullOfT = readFacts("/co/workflows/w.ts", t);
    let reads = 0;
    const light = readFactsLightly("/co/workflows/w.ts", t, { text: () => { reads++; return t; }, syntaxAsked: true, workflowsAsked: true });
    assert.equal(workflowsRead(light), false);
    assert.equal(light.syntaxErrors, fullOfT.syntaxErrors);
    assert.equal(workflowsRead(light), true, "the verdict's parse read the workflows");
    assert.equal(textAwaitingSyntax(light), undefined, "and let the text go");
    assert.deepEqual(light.workflows, fullOfT.workflows);
    assert.equal(reads, 0, "no second parse for them");
    assert.deepEqual(fields(light), fields(fullOfT));
  }
  // A file gone before its tree is read: an empty text's facts, until its removal reaches the index.
  const gone = readFactsLightly("/co/workflows/w.ts", text, { text: () => undefined, syntaxAsked: false });
  assert.deepEqual(gone.workflows, []);
  assert.equal(gone.imports.length, 1, "what was read from the text stays");
});

test("a workspace that lists workflows (the server) reads them with each workflow source's verdict: nothing left to read ahead, the same workflows; one that does not (the check) keeps none", () => {
  const gen = mkdtempSync(join(tmpdir(), "sanoma-light-"));
  try {
    generateCompany(gen, { files: 300 });
    const textOf = (file: string) => nodeFileSystem.readFile(file);
    const workflowsOf = (ws: Workspace) => [...ws.companies.get(gen)!.files.values()].filter((f) => f.role.isWorkflowSource).map((f) => [f.path, f.facts?.workflows]);
    const lists = new Workspace(nodeFileSystem, { textOf, listsWorkflows: true });
    lists.loadCompany(gen);
    lists.check(gen);
    assert.deepEqual([...lists.readUnreadWorkflows(gen)], [], "every workflow source's workflows read by its verdict's parse");
    const not = new Workspace(nodeFileSystem, { textOf });
    not.loadCompany(gen);
    not.check(gen);
    const ahead = [...not.readUnreadWorkflows(gen)].length;
    assert.ok(ahead > 20, `without, the workflow sources' workflows wait to be read (${ahead})`);
    const parsed = new Workspace(nodeFileSystem, { lightFacts: false });
    parsed.loadCompany(gen);
    assert.deepEqual(workflowsOf(lists), workflowsOf(parsed));
    const withWorkflows = workflowsOf(parsed).filter(([, w]) => (w as unknown[]).length > 0).length;
    assert.ok(withWorkflows > 20, `${withWorkflows} workflow sources with workflows`);
  } finally {
    rmSync(gen, { recursive: true, force: true });
  }
});

test("light facts of text being typed: unbalanced brackets and open literals go to the parser; other syntax errors are read by the scanner", () => {
  const file = "/co/workflows/w.ts";
  const typing = [
    `(import { a } from "./a";\nimport b from "./b";\nexport const w = (ctx: any) => ctx.call("data.orders.get", {});\n`,
    `import { a } from "./a";\nim(port b from "./b";\n`,
    `import { a } from "./a";\nconst s = "data.orders.get;\nexport const w = 1;\n`,
    `import { a } from "./a";\nexport const w = (ctx: any) => { ctx.call("data.orders.get", {});\n`,
  ];
  for (const text of typing) {
    assert.notEqual(readFactsLightly(file, text).constructor.name, "LightFacts", text); // the parser read it
    assert.deepEqual(fields(readFactsLightly(file, text)), fields(readFacts(file, text)), text);
  }
  // FIXME: a syntax error the tokenizer does not see is read by the scanner, and the parser's
  // recovery may then see less: here it loses the operation references after a broken template
  // substitution, which the scanner still finds. Both are readings of broken code; they differ.
  const broken = `export const w = async (ctx: any) => {\n  throw new Error(\`no record \${in=put.id}\`);\n  await ctx.call("data.orders.get", {});\n  await ctx.call("data.orders.list", {});\n};\n`;
  const light = readFactsLightly(file, broken);
  assert.equal(light.constructor.name, "LightFacts");
  assert.deepEqual(light.opRefs.map((r) => `${r.collection}.${r.op}`), ["orders.get", "orders.list"]);
  const parsed = readFacts(file, broken);
  assert.ok(parsed.syntaxErrors > 0);
  assert.notDeepEqual(parsed.opRefs.map((r) => `${r.collection}.${r.op}`), ["orders.get", "orders.list"]);
});

test("a file the parser runs out of stack on: nested LOAD_DEPTH deep, one that the framework loads does not load (one syntax error at its start), a library is skipped; nested less, nothing is known and each is skipped, a workflow source judged as read too", () => {
  const dir = mkdtempSync(join(tmpdir(), "sanoma-light-deep-"));
  try {
    // 2,500 arrays deep: past TypeScript's parser on this thread's stack (some 1,400), short of
    // LOAD_DEPTH. 5,000: past both.
    const at = (n: number) => `export const w = async () => ${"[".repeat(n)}1 2${"]".repeat(n)};\n`;
    const files: Record<string, string> = {
      "sanoma.config.ts": "export default {};\n",
      "workflows/less.ts": at(2500), "workflows/more.ts": at(5000),
      "resources/less.ts": at(2500), "resources/more.ts": at(5000),
      "lib/less.ts": `import { secret } from "x";\n${at(2500)}`, "lib/more.ts": `import { secret } from "x";\n${at(5000)}`,
    };
    for (const [rel, text] of Object.entries(files)) { mkdirSync(join(dir, rel, ".."), { recursive: true }); writeFileSync(join(dir, rel), text); }
    for (const mode of [{ syntaxNow: true }, {}, { lightFacts: false }]) {
      const skipped: string[] = [];
      const ws = new Workspace(nodeFileSystem, { onSkip: (s) => skipped.push(relative(dir, s.path)), ...("lightFacts" in mode ? { lightFacts: false } : {}) });
      ws.loadCompany(dir, "syntaxNow" in mode ? { syntaxNow: true } : {});
      const problems = ws.check(dir).problems.map((p) => `${relative(dir, p.file)}:${p.range.start.line}:${p.range.start.character} ${p.rule} ${p.message}`);
      const what = JSON.stringify(mode);
      assert.deepEqual(problems.sort(), [
        "resources/more.ts:0:0 syntax-error resources/more.ts does not parse (nested 5,000 brackets deep: Node's parser runs out of stack on code nested 3,000 deep): Sanoma cannot load it",
        "workflows/more.ts:0:0 syntax-error workflows/more.ts does not parse (nested 5,000 brackets deep: Node's parser runs out of stack on code nested 3,000 deep): Sanoma cannot load it",
      ], what);
      // The server's index reads a workflow source lightly, and skips nothing it has not parsed.
      const expectSkipped = "syntaxNow" in mode || "lightFacts" in mode ? ["lib/less.ts", "lib/more.ts", "resources/less.ts", "workflows/less.ts"] : ["lib/less.ts", "lib/more.ts", "resources/less.ts"];
      assert.deepEqual(skipped.sort(), expectSkipped, what);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
