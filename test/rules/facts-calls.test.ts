/**
 * `facts-calls.ts` reads a tree at the places its text search finds, descending to each with
 * `chainFinder` (which keeps the last chain and searches a list of children by halves). Held here:
 * the chain at every offset is the one a plain descent from the root gives, whatever order the
 * offsets come in; a big generated file's operation references, secret calls and collections are
 * those a visit of every node reads (and, without the words that need a tree, those the text
 * scanner reads); and the descent's work grows with the file, not with its square (counted, never
 * timed).
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import ts from "../../server/src/core/typescript.ts";
import { chainFinder } from "../../server/src/core/facts-calls.ts";
import { parseOpId } from "../../server/src/core/fact-types.ts";
import { readFacts, readFactsLightly } from "../../server/src/core/facts.ts";
import { isModuleName, PARSE_OPTIONS, scriptKind } from "../../server/src/core/ts-nodes.ts";
import { LineMap } from "../../server/src/core/text.ts";
import type { Range } from "../../server/src/core/types.ts";
// @ts-expect-error the benchmark's generator is plain JavaScript
import { rng } from "../../bench/generate.mjs";
import { brokenShapes, callShapes, HEADER } from "./call-shapes.ts";
import { mutants } from "./mutants.ts";

const REPO = join(import.meta.dirname, "..", "..");
const parse = (name: string, text: string) => ts.createSourceFile(name, text, PARSE_OPTIONS, false, scriptKind(name));

/** The deepest node containing `offset`, with its ancestors: each level searched from its first child. */
function descent(root: ts.Node, offset: number): ts.Node[] {
  const chain = [root];
  for (let node = root; ;) {
    const next: ts.Node | undefined = ts.forEachChild(node, (c) => (c.pos <= offset && offset < c.end ? c : undefined));
    if (!next) return chain;
    chain.push(next);
    node = next;
  }
}

/** Asks `chainFinder` for each offset in turn and holds each chain to `descent`'s. */
function sameChains(name: string, text: string, offsets: number[]): void {
  const sf = parse(name, text);
  const finder = chainFinder(sf);
  for (const offset of offsets) {
    const got = finder.chainAt(offset);
    const want = descent(sf, offset);
    if (got.length !== want.length || got.some((n, i) => n !== want[i])) {
      assert.fail(`${name} at ${offset}: ${got.map((n) => ts.SyntaxKind[n.kind]).join(" > ")} instead of ${want.map((n) => ts.SyntaxKind[n.kind]).join(" > ")}\n${text.slice(Math.max(0, offset - 40), offset + 40)}`);
    }
  }
}

test("chainFinder: the chain at each offset is a plain descent's, offsets in order, twice, and out of order; on generated shapes, broken ones, their mutants and the repository's core", () => {
  const r = rng(7);
  const texts: { name: string; text: string }[] = [];
  for (let seed = 1; seed <= 40; seed++) {
    const g = rng(seed);
    const text = callShapes(g, 1 + Math.floor(g() * 10), 1 + Math.floor(g() * 4));
    for (const name of ["a.ts", "a.js", "a.tsx"]) texts.push({ name, text });
    if (seed % 8 === 0) for (const m of mutants(text, g)) texts.push({ name: "a.ts", text: m });
  }
  for (const text of brokenShapes) texts.push({ name: "a.ts", text }, { name: "a.js", text });
  for (const { name, text } of texts) {
    const every = Array.from({ length: text.length }, (_, i) => i);
    const shuffled = [...every];
    for (let i = shuffled.length - 1; i > 0; i--) { const j = Math.floor(r() * (i + 1)); [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]]; }
    sameChains(name, text, [...every, ...every, ...shuffled]);
  }
  const core = join(REPO, "server", "src", "core");
  let files = 0;
  for (const file of readdirSync(core, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"))) {
    const text = readFileSync(join(core, file), "utf8");
    const stride = Array.from({ length: Math.ceil(text.length / 11) }, (_, i) => i * 11);
    sameChains(file, text, [...stride, ...stride.filter(() => r() < 0.1).sort(() => r() - 0.5)]);
    files++;
  }
  assert.ok(files >= 40, `${files} files of the core`);
});

/** The facts `readCalls` reads, by a visit of every node with its ancestors. */
function visited(name: string, text: string) {
  const sf = parse(name, text);
  const lines = new LineMap(text);
  const r = (node: ts.Node): Range => lines.range(node.getStart(sf), node.end);
  const opRefs: { collection: string; op: string; range: Range }[] = [];
  const secretCalls: { name: string; range: Range }[] = [];
  const collections: Range[] = [];
  /** As `shadowed` in facts-calls.ts read it before it kept what each scope declares: every scope up, each searched whole. */
  const shadowed = (ancestors: ts.Node[], local: string): boolean => {
    const declares = (n: ts.BindingName | undefined): boolean =>
      n !== undefined && (ts.isIdentifier(n) ? n.text === local : n.elements.some((e) => !ts.isOmittedExpression(e) && declares(e.name)));
    return ancestors.some((n) =>
      (ts.isFunctionLike(n) && (n.parameters.some((p) => declares(p.name)) || (ts.isFunctionExpression(n) && n.name?.text === local))) ||
      ((ts.isBlock(n) || ts.isModuleBlock(n) || ts.isCaseClause(n) || ts.isDefaultClause(n)) && n.statements.some((st) =>
        (ts.isVariableStatement(st) && st.declarationList.declarations.some((d) => declares(d.name))) ||
        ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) && st.name?.text === local))) ||
      ((ts.isForStatement(n) || ts.isForOfStatement(n) || ts.isForInStatement(n)) && n.initializer !== undefined && ts.isVariableDeclarationList(n.initializer) && n.initializer.declarations.some((d) => declares(d.name))) ||
      (ts.isCatchClause(n) && declares(n.variableDeclaration?.name)));
  };
  const importSite = (node: ts.Node, parent: ts.Node): boolean =>
    ts.isCallExpression(parent) && parent.arguments[0] === node &&
    (parent.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(parent.expression) && parent.expression.text === "require" && parent.arguments.length === 1));
  const visit = (node: ts.Node, ancestors: ts.Node[]): void => {
    const parent = ancestors[ancestors.length - 1];
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      const op = parseOpId(node.text);
      if (op && !importSite(node, parent) && !isModuleName(node, parent, ancestors[ancestors.length - 2])) opRefs.push({ ...op, range: r(node) });
    }
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const scopes = ancestors.slice(1);
      const first = node.arguments[0];
      const secret = () => { if (first && ts.isStringLiteralLike(first)) secretCalls.push({ name: first.text, range: r(first) }); };
      if (ts.isIdentifier(callee) && callee.text === "secret" && !shadowed([...scopes, node], "secret")) secret();
      if (ts.isIdentifier(callee) && callee.text === "collection" && !shadowed([...scopes, node], "collection")) collections.push(r(callee));
      if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression) && !shadowed([...scopes, node, callee], callee.expression.text)) {
        if (callee.name.text === "secret" && ["d", "h"].includes(callee.expression.text)) secret();
        if (callee.name.text === "collection" && callee.expression.text === "d") collections.push(r(callee));
      }
    }
    ancestors.push(node);
    ts.forEachChild(node, (c) => visit(c, ancestors));
    ancestors.pop();
  };
  visit(sf, []);
  return { opRefs, secretCalls, collections };
}

const byPlace = <T extends { range: Range }>(xs: T[]): T[] =>
  [...xs].sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);

test("readFacts of a big generated file (op strings in nested calls, arrow bodies, objects, templates, chains; secret and collection calls, shadowed or not): what a visit of every node reads", () => {
  const text = callShapes(rng(2024), 1500, 4);
  assert.ok(text.length > 500_000, `${text.length} characters`);
  // The same statements in one function of a `.js` file (a bundler's wrapper; `import type` is a syntax error there).
  const iife = `${HEADER}(()=>{${text.slice(HEADER.length)}})();`;
  for (const [name, body] of [["big.ts", text], ["big.js", iife]] as const) {
    const facts = readFacts(name, body);
    const want = visited(name, body);
    assert.ok(want.opRefs.length > 10_000 && want.secretCalls.length > 500 && want.collections.length > 500, JSON.stringify([want.opRefs.length, want.secretCalls.length, want.collections.length]));
    assert.deepEqual(facts.opRefs, want.opRefs, name);
    assert.deepEqual(byPlace(facts.secretCalls), byPlace(want.secretCalls), name);
    assert.deepEqual(facts.collections.map((c) => c.callRange).sort((a, b) => a.start.line - b.start.line || a.start.character - b.start.character), want.collections, name);
  }
  // Without the words only a tree can read, the text scanner reads the same file: the same operation references.
  const plain = text.replaceAll("secret", "sekret").replaceAll("collection", "kollection").replaceAll("defineResource", "defineRes").replaceAll("= require(\"./m", "= f(\"./m");
  const light = readFactsLightly("plain.ts", plain);
  assert.equal(light.constructor.name, "LightFacts");
  assert.ok(light.opRefs.length > 10_000);
  assert.deepEqual(light.opRefs, readFacts("plain.ts", plain).opRefs);
});

test("chainFinder's work grows with the file: a bundle 4 times bigger, its thousands of op strings in statements, a call's arguments or an object's properties, costs at most 5 times the children looked at", () => {
  const chunk = "var a=function(e){return e.call(\"data.orders.get\",{id:e.id})},b=`t${a}`;function d(e,t){return e+t>>1?e:t}";
  const work = (text: string): number => {
    const finder = chainFinder(parse("dist/bundle.js", text));
    for (let i = text.indexOf("data."); i >= 0; i = text.indexOf("data.", i + 5)) finder.chainAt(i);
    return finder.visited;
  };
  const shapes: Record<string, (n: number) => string> = {
    top: (n) => chunk.repeat(n),
    iife: (n) => `(()=>{${chunk.repeat(n)}})();`,
    arguments: (n) => `f(${"e.call(\"data.orders.get\",{id:e.id}).then((r)=>[r,`data.users.get`]),".repeat(n)}0);`,
    object: (n) => `x={${Array.from({ length: n }, (_, i) => `k${i}:{a:"data.orders.get",b:()=>"data.orders.list"}`).join(",")}};`,
  };
  for (const [shape, make] of Object.entries(shapes)) {
    const small = work(make(500));
    const big = work(make(2000));
    // Linear: 4 times (by halves, 4.35); the square (each offset searched from the list's first child): 16 times.
    assert.ok(big <= 5 * small, `${shape}: ${small} children looked at for 500 chunks, ${big} for 2,000`);
  }
});
