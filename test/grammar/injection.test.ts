/**
 * Tokenization tests for `syntaxes/sanoma.injection.tmLanguage.json`, run through the same engine
 * VS Code uses (vscode-textmate + vscode-oniguruma) over the TypeScript, TSX and JavaScript
 * grammars that VS Code ships (taken from the `tm-grammars` package).
 *
 * Two checks: each sample line says what it must (or must not) mark, and the scopes of every
 * string on every sample line are compared with `injection.snapshot.txt`, a readable file beside
 * this one. After a deliberate change, rewrite it with `UPDATE_SNAPSHOTS=1`.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import * as oniguruma from "vscode-oniguruma";
import * as textmate from "vscode-textmate";

const here = __dirname;
const repo = join(here, "..", "..");
const snapshotPath = join(here, "injection.snapshot.txt");
const injectionScope = "sanoma.injection";

/** The grammars of package.json's injectTo, by scope name. */
const hostGrammars: Record<string, string> = {
  "source.ts": "typescript.json",
  "source.tsx": "tsx.json",
  "source.js": "javascript.json",
};

type Expect = "op" | "decl" | "none";
interface Sample { scope: keyof typeof hostGrammars; line: string; expect: Expect; why: string }

const samples: Sample[] = [
  { scope: "source.ts", line: `await ctx.call("data.orders.save", { id: "1" });`, expect: "op", why: "a call's op id" },
  { scope: "source.ts", line: `export const reader = { ops: ['data.orders.get', 'data.orders.list'] };`, expect: "op", why: "single quotes" },
  { scope: "source.ts", line: "const op = `data.orders.saveMany`;", expect: "op", why: "a backtick string without substitutions" },
  { scope: "source.ts", line: `export default defineWorkflow(async (ctx) => ctx.call("data.$cache_2.count"));`, expect: "op", why: "identifiers with $, _ and digits" },
  { scope: "source.tsx", line: `const el = <Op id="data.orders.delete" />;`, expect: "op", why: "a JSX attribute" },
  { scope: "source.js", line: `module.exports = { op: "data.outbound.save" };`, expect: "op", why: "JavaScript" },
  { scope: "source.ts", line: `const id = "resources/infra.ts#web";`, expect: "decl", why: "a root-scope declaration id" },
  { scope: "source.ts", line: `expect(lock.bindings['apps/billing/resources/x.ts#y']).toBeDefined();`, expect: "decl", why: "an app's declaration id" },
  { scope: "source.ts", line: "const id = `apps/web-2/resources/data.ts#$orders`;", expect: "decl", why: "a backtick declaration id" },
  { scope: "source.ts", line: "const op = `data.${name}.save`;", expect: "none", why: "a template with a substitution" },
  { scope: "source.ts", line: `import { orders } from "data.orders.save";`, expect: "none", why: "a module specifier" },
  { scope: "source.ts", line: `export * from "data.orders.save";`, expect: "none", why: "a re-export's module specifier" },
  { scope: "source.ts", line: `const a = "data.orders.save.now", b = "xdata.orders.save", c = "data.orders";`, expect: "none", why: "not the whole text, or not three parts" },
  { scope: "source.ts", line: `const a = " data.orders.save", b = "data.orders.save ";`, expect: "none", why: "spaces around" },
  { scope: "source.ts", line: `// ctx.call("data.orders.save")`, expect: "none", why: "a comment" },
  { scope: "source.ts", line: `const a = "../resources/x.ts#y", b = "resources/x.ts#", c = "resources/x.js#y";`, expect: "none", why: "not a company-relative .ts id" },
  { scope: "source.ts", line: `const m = await import("data.orders.save"), r = require("data.orders.save");`, expect: "none", why: "import() and require() specifiers (A8: module specifiers are not references)" },
  { scope: "source.ts", line: `import x = require("data.orders.save");`, expect: "none", why: "an import-equals specifier" },
  { scope: "source.ts", line: `declare module "data.orders.save" { }`, expect: "none", why: "an ambient module's name" },
  { scope: "source.ts", line: `const s = "say 'data.orders.save' now", d = 'the "resources/x.ts#y" id';`, expect: "none", why: "a quoted word inside another string" },
  { scope: "source.ts", line: "const t = `call \"data.orders.save\" ${x}`;", expect: "none", why: "quoted text inside a template with a substitution" },
  { scope: "source.ts", line: `const a = "data.x².get";`, expect: "none", why: "a digit that is no decimal digit, as the server reads ids" },
];

async function loadRegistry(): Promise<textmate.Registry> {
  const wasm = readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  return new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
      createOnigString: (text) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async (scopeName) => {
      if (scopeName === injectionScope) {
        return JSON.parse(readFileSync(join(repo, "syntaxes", "sanoma.injection.tmLanguage.json"), "utf8"));
      }
      const file = hostGrammars[scopeName];
      return file ? JSON.parse(readFileSync(require.resolve(`tm-grammars/grammars/${file}`), "utf8")) : null;
    },
    // What VS Code does with package.json's `injectTo`.
    getInjections: (scopeName) => (scopeName in hostGrammars ? [injectionScope] : undefined),
  });
}

interface Token { text: string; start: number; end: number; scopes: string[] }

async function tokenize(registry: textmate.Registry, scope: string, line: string): Promise<Token[]> {
  const grammar = await registry.loadGrammar(scope);
  assert.ok(grammar, `grammar ${scope} loads`);
  return grammar.tokenizeLine(line, textmate.INITIAL).tokens.map((t) => ({
    text: line.slice(t.startIndex, t.endIndex), start: t.startIndex, end: t.endIndex, scopes: t.scopes,
  }));
}

/** Adjacent tokens merged into runs of text. */
function runs(tokens: Token[]): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (const t of tokens) {
    const last = out[out.length - 1];
    if (last && last.end === t.start) last.end = t.end;
    else out.push({ start: t.start, end: t.end });
  }
  return out;
}

const inString = (t: Token) => t.scopes.some((s) => s.startsWith("string.")) && !t.scopes.some((s) => s.startsWith("punctuation.definition.string"));
const sanomaScopes = (t: Token) => t.scopes.filter((s) => s.endsWith(".sanoma"));

/** One sample as text: the line, then a caret line under each piece of string text with its Sanoma scopes. */
function render(sample: Sample, tokens: Token[]): string {
  const out = [`[${sample.scope}] ${sample.why}`, `  ${sample.line}`];
  for (const t of tokens.filter(inString)) {
    const scopes = sanomaScopes(t);
    out.push(`  ${" ".repeat(t.start)}${"^".repeat(t.end - t.start)} ${scopes.length ? scopes.join(" ") : "(unmarked)"}`);
  }
  return out.join("\n");
}

test("injection grammar marks op ids and declaration ids as whole strings", async () => {
  const registry = await loadRegistry();
  for (const sample of samples) {
    const tokens = await tokenize(registry, sample.scope, sample.line);
    const marked = tokens.filter((t) => sanomaScopes(t).length > 0);
    const kinds = new Set(marked.map((t) => (t.scopes.includes("meta.operation-id.sanoma") ? "op" : "decl")));
    if (sample.expect === "none") {
      assert.deepEqual(marked.map((t) => t.text), [], `${sample.why}: nothing marked in ${sample.line}`);
      continue;
    }
    assert.deepEqual([...kinds], [sample.expect], `${sample.why}: ${sample.expect} marked in ${sample.line}`);
    // Each run of marked tokens is a whole string's text: a quote right before it and right after it.
    for (const run of runs(marked)) {
      assert.match(sample.line[run.start - 1] ?? "", /["'`]/, `${sample.why}: the mark starts at a quote`);
      assert.match(sample.line[run.end] ?? "", /["'`]/, `${sample.why}: the mark ends at a quote`);
    }
    const ids = new Set(marked.map((t) => t.scopes.find((s) => s.startsWith("meta.") && s.endsWith(".sanoma"))));
    assert.equal(ids.size, 1, `${sample.why}: one kind of id scope`);
  }
});

test("injection grammar scopes match the snapshot", async () => {
  const registry = await loadRegistry();
  const parts: string[] = [
    "# How sample lines are scoped by syntaxes/sanoma.injection.tmLanguage.json.\n" +
    "# Each caret line is a piece of string text and its Sanoma scopes. Regenerate: UPDATE_SNAPSHOTS=1.",
  ];
  for (const sample of samples) parts.push(render(sample, await tokenize(registry, sample.scope, sample.line)));
  const actual = parts.join("\n\n") + "\n";
  if (process.env.UPDATE_SNAPSHOTS || !existsSync(snapshotPath)) writeFileSync(snapshotPath, actual);
  assert.equal(actual, readFileSync(snapshotPath, "utf8"));
});

test("injection grammar is contributed for the languages it names", () => {
  const manifest = JSON.parse(readFileSync(join(repo, "package.json"), "utf8"));
  const contribution = (manifest.contributes?.grammars ?? []).find((g: { scopeName?: string }) => g.scopeName === injectionScope);
  assert.ok(contribution, "package.json contributes the injection grammar");
  assert.equal(contribution.path, "./syntaxes/sanoma.injection.tmLanguage.json");
  for (const scope of Object.keys(hostGrammars)) assert.ok(contribution.injectTo.includes(scope), `injected into ${scope}`);
});
