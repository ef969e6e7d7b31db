/**
 * The text scanner (`server/src/core/scan.ts`) must find exactly the import sites that `sites.ts`
 * finds in oxc's syntax tree, or say it cannot vouch for the text. Held here three ways:
 *   - small texts with the sites (or the refusal) written out, for the tricky cases by name;
 *   - in the real oxlint: a test plugin built from the same sources reads each file's tree with
 *     `siteVisitor` and its text with `scanSites`, and reports any difference, over the
 *     repository's own TypeScript, the `.d.ts` files of `@types` (ambient modules full of imports)
 *     and thousands of generated files made of the constructs a tokenizer trips on (comments and
 *     strings holding imports, templates with substitutions, regular expressions with quotes and
 *     slashes, division, ambient modules, namespaces, every import form with comments between its
 *     words, non-ASCII text before a site, CRLF);
 *   - the scanner must vouch for most of those files, or the tests above would pass vacuously.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { buildSync } from "esbuild";
import { scanSites, scannable, type TextSite } from "../../server/src/core/scan.ts";
import { OXLINT, REPO } from "./hosts.ts";

type Row = [specifier: string, at: string, names: string[]];
/** Sites as short rows: the specifier, where its literal is, and each name with where it is. */
function rows(text: string): Row[] | "unsure" {
  const sites = scanSites(text);
  if (sites === undefined) return "unsure";
  const at = (r: [number, number]) => text.slice(r[0], r[1]);
  return sites.map((s: TextSite) => [s.specifier, at(s.specifierRange.range), s.names.map((n) => `${n.imported}@${at(n.range.range)}`)]);
}

describe("scanSites on written-out cases", () => {
  const cases: [string, string, Row[] | "unsure"][] = [
    ["every clause", `import d, { a as b, "x-y" as z, type T, type U as V, default as w } from "./m";`,
      [["./m", `"./m"`, ["default@d", "a@a", `x-y@"x-y"`, "T@T", "U@U", "default@default"]]]],
    ["namespace and side effect", `import d, * as ns from '../n';\nimport "./side";\nimport {} from "./none";`,
      [["../n", "'../n'", ["default@d", "*@ns"]], ["./side", `"./side"`, []], ["./none", `"./none"`, []]]],
    ["type-only forms", `import type D from "./d"; import type * as N from "./n"; import type { A } from "./a";`,
      [["./d", `"./d"`, ["default@D"]], ["./n", `"./n"`, ["*@N"]], ["./a", `"./a"`, ["A@A"]]]],
    ["re-exports", `export * from "./a";\nexport * as b from "./b"\nexport { c as d, "e" as f, type g } from "./c";\nexport type * from "./t";\nexport * as "s" from "./s";`,
      [["./a", `"./a"`, [`*@export * from "./a";`]], ["./b", `"./b"`, ["*@b"]], ["./c", `"./c"`, ["c@c", `e@"e"`, "g@g"]], ["./t", `"./t"`, [`*@export type * from "./t";`]], ["./s", `"./s"`, [`*@"s"`]]]],
    ["a re-export's range takes its attributes and semicolon", `export * from "./j" with { type: "json" } ;`, [["./j", `"./j"`, [`*@export * from "./j" with { type: "json" } ;`]]]],
    ["local export lists are no sites", `const a = 1; export { a, a as b }; export default a;`, []],
    ["dynamic, require, import types", "const a = await import(\"./a\", { with: {} }); const b = require(`./b`); type C = typeof import('./c').X;",
      [["./a", `"./a"`, [`*@"./a"`]], ["./b", "`./b`", ["*@`./b`"]], ["./c", "'./c'", ["*@'./c'"]]]],
    ["import equals at the top level only", `import a = require("./a");\nexport import b = require("./b");\nimport C = D.E;\nnamespace N { import c = require("./c"); }`,
      [["./a", `"./a"`, ["*@a"]], ["./b", `"./b"`, ["*@b"]]]],
    ["ambient modules declare, but import types and requires in them count", `declare module "m" {\n  import x from "./no";\n  export * from "./no";\n  export type T = import("./yes").T;\n}`,
      [["./yes", `"./yes"`, [`*@"./yes"`]]]],
    ["comments, strings, templates and regular expressions hold no sites", [
      `// import "./no1"`, `/* require("./no2") */`, `const s = "import './no3'" + 'require("./no4")';`,
      "const t = `import(\"./no5\") ${require(\"./yes1\")} ${`nested ${import(\"./yes2\")}`} export * from \"./no6\"`;",
      `const r = /import("\\.\\/no7")['"\`]/g.test(s), d = 10 / 2 / 5;`, `import "./yes3";`].join("\n"),
      [["./yes1", `"./yes1"`, [`*@"./yes1"`]], ["./yes2", `"./yes2"`, [`*@"./yes2"`]], ["./yes3", `"./yes3"`, []]]],
    ["not calls of require", `new require("./a"); (require)("./b"); x.require("./c"); x?.require("./d"); require("./e" + f); require(g); const require2 = 1;`, []],
    ["members and keys named like keywords", `a.import("./a"); a.export; const o = { import: "./b", require: "./c" }; class K { import(x: string) {} require(y: string) {} }`, []],
    ["escapes are decoded", `import "\\u002e/\\x61"; export { "\\u0061" as b } from "./c";`, [["./a", `"\\u002e/\\x61"`, []], ["./c", `"./c"`, [`a@"\\u0061"`]]]],
    ["a regular expression after a control header", `if (ok) /'/.test(s); while (x) /"/g.exec(t); const y = require("./y");`, [["./y", `"./y"`, [`*@"./y"`]]]],
    ["non-null assertions divide", `const z = x! / 2 / y!; const w = require("./w");`, [["./w", `"./w"`, [`*@"./w"`]]]],
    ["a prefix ! starts a regular expression", `const ok = !/'/.test(s) && require("./q");`, [["./q", `"./q"`, [`*@"./q"`]]]],
    ["a hashbang", `#!/usr/bin/env node\nimport "./after";`, [["./after", `"./after"`, []]]],
    ["non-ASCII text in literals and comments only", `const e = "héllo 😀"; // ünïcode\n/* ✓ */ import "./after";`, [["./after", `"./after"`, []]]],
    ["CRLF", `import {\r\n  a,\r\n} from "./a";\r\nconst b = require(\`./b\r\nc\`);`, [["./a", `"./a"`, ["a@a"]], ["./b\nc", "`./b\r\nc`", ["*@`./b\r\nc`"]]]],
    // The tokens stop a little past the last `import`, `require`, `from` or `\u`: what follows cannot hold a site.
    ["past the last site, a / after } does not matter", `import "./a";\nconst x = [1, 2, 3, 4, 5, 6, 7, 8];\nfunction f() {}\n/./.test(s); a++ / 2;`, [["./a", `"./a"`, []]]],
    ["an escaped require far below is read, and refused", `import "./a";\nconst x = [1, 2, 3, 4, 5, 6, 7, 8];\nconst b = \\u0072equire("./b");`, "unsure"],
    ["an escape in a string far below is read", `import "./a";\nconst b = "\\u0041"; const c = 1 / 2;`, [["./a", `"./a"`, []]]],
    ["a re-export's attributes past the last word", `export * from "./j" with { type: { deep: { deeper: "json" } } };\n/x/;`, [["./j", `"./j"`, [`*@export * from "./j" with { type: { deep: { deeper: "json" } } };`]]]],
    ["no word of a site at all", `const s = "./not-an-import"; x = /[/]/;`, []],
    // Where a tokenizer cannot tell, or a form is read by lookahead: the tree decides.
    ["a non-ASCII word", `const é = require("./a");`, "unsure"],
    ["a / after }", `function f() {}\n/./.test(s); import "./z";`, "unsure"],
    ["a / after >", `const a = b as Array<number> / 2; import "./z";`, "unsure"],
    ["a / after ++", `a++ / 2; import "./z";`, "unsure"],
    ["a / after of", `for (const x of /a/.exec(s)!) {} import "./z";`, "unsure"],
    ["a ! across a line break", `a\n!/x/.test(s); import "./z";`, "unsure"],
    ["the v flag", `const r = /[[a]/]/v; import "./z";`, "unsure"],
    ["an escape in a word", `const \\u0061 = require("./a");`, "unsure"],
    ["import type as a name", `import type from "./t";`, "unsure"],
    ["import( and a template: an expression (oxc rejects a template in an import type)", "const t = import(`./t`);", [["./t", "`./t`", ["*@`./t`"]]]],
    ["require with type arguments", `const x = require<X>("./x");`, "unsure"],
    ["optional require", `const x = require?.("./x");`, "unsure"],
    ["require with two arguments", `const x = require("./x", y);`, "unsure"],
    ["import.source", `const x = import.source("./x");`, "unsure"],
    ["a parenthesized argument", `const x = require(("./x"));`, "unsure"],
    ["a parenthesized import argument", `const x = import(("./x"));`, "unsure"],
    ["import defer", `import defer * as x from "./x";`, "unsure"],
    ["import source", `import source x from "./x";`, "unsure"],
    ["assert", `export * from "./x" assert { type: "json" };`, "unsure"],
    ["a specifier naming as", `import { type as } from "./x";`, "unsure"],
    ["HTML-like comments", `x = y --> 0; import "./z";`, "unsure"],
    ["an unbalanced bracket", `f(a] + require("./z")`, "unsure"],
    ["an unterminated string", `import "./z"; const s = "abc`, "unsure"],
  ];
  for (const [name, text, expected] of cases) test(name, () => assert.deepEqual(rows(text), expected));

  test("reads TypeScript without JSX only", () => {
    for (const f of ["a.ts", "a.d.ts", "a.mts", "a.cts"]) assert.ok(scannable(f), f);
    for (const f of ["a.tsx", "a.js", "a.jsx", "a.mjs", "a.cjs"]) assert.ok(!scannable(f), f);
  });
});

// ---- Against oxc's tree, in the real oxlint ------------------------------------------------------

/** The checking plugin: tree sites and text sites of each file, one diagnostic per file saying how they compare. */
const CHECKER = `
const { scanSites } = require(${JSON.stringify(join(REPO, "server/src/core/scan.ts"))});
const { siteVisitor } = require(${JSON.stringify(join(REPO, "lint-plugin/src/sites.ts"))});
const { namesOf, readHeader } = require(${JSON.stringify(join(REPO, "lint-plugin/src/header.ts"))});
let tree = [];
const row = (s) => [s.specifier, s.specifierRange.range, s.names.map((n) => [n.imported, n.range.range])];
const order = (a, b) => a[1][0] - b[1][0] || a[1][1] - b[1][1];
const visitor = siteVisitor((s) => tree.push(row(s)));
module.exports = { meta: { name: "scan-check" }, rules: { agree: { meta: { schema: [] }, createOnce(context) {
  return {
    before() { tree = []; return true; },
    ...visitor,
    "Program:exit"() {
      const text = scanSites(context.sourceCode.text);
      let message;
      if (text === undefined) message = "unsure";
      else {
        const a = JSON.stringify(tree.sort(order)), b = JSON.stringify(text.map(row).sort(order));
        message = a === b ? "agree " + tree.length : "DIFF tree " + a + " text " + b;
      }
      context.report({ node: { range: [0, 0] }, message });
      // The header: its sites are the tree's sites before its end, read whole and by its shape.
      const src = context.sourceCode.text;
      const whole = readHeader(src);
      const before = JSON.stringify(tree.filter((s) => s[1][0] < whole.end).sort(order));
      const read = JSON.stringify(whole.sites.map(row).sort(order));
      // As the prefilter reads it: by its shape, the tree's sites before its end (specifiers and places),
      // and where namesOf reads a site's names, the tree's names of that site.
      const shape = readHeader(src, "shape");
      const places = (rows) => JSON.stringify(rows.map((r) => [r[0], r[1]]).sort(order));
      const shapeTree = places(tree.filter((s) => s[1][0] < shape.end)), shapeRead = places(shape.sites.map(row));
      const namesDiffer = shape.sites.filter((s) => {
        const names = namesOf(src, s);
        const t = tree.find((r) => r[1][0] === s.specifierRange.range[0]);
        return names !== undefined && (t === undefined || JSON.stringify(t[2]) !== JSON.stringify(row({ ...s, names })[2]));
      });
      const ok = before === read && shapeTree === shapeRead && namesDiffer.length === 0 && shape.end >= whole.end;
      context.report({ node: { range: [0, 0] }, message: ok ? "header " + whole.sites.length + " " + (whole.end === src.length ? "whole" : "part") : "HEADER DIFF tree " + before + " header " + read + " | by shape: tree " + shapeTree + " header " + shapeRead + " names differ at " + JSON.stringify(namesDiffer.map(row)) });
    },
  };
} } } };
`;

/** Generated files: import forms with gaps, among the constructs a tokenizer can misread. */
function* generated(count: number): Generator<string> {
  let seed = 7;
  const rnd = (n: number) => { seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff; return (seed >>> 12) % n; }; // high bits: the low ones cycle
  const pick = <T>(xs: T[]): T => xs[rnd(xs.length)];
  const spec = () => pick(["'./a'", '"../b"', '"@sanoma-ai/workflows"', '"zod"', "'../../c/d'", '"./e\\x2ef"', '"./é"', '"/abs"']);
  const dq = () => spec().replace(/'/g, '"');
  const word = () => pick(["a", "secret", "collection", "default", "import", "from", "as", "type", "x1", "$y", "_z"]);
  let unique = 0;
  const id = () => pick(["a", "b", "x", "$y", "_z", "q"]) + unique++; // no name declared twice
  const gap = () => pick([" ", " ", "  ", "\n", " /* c */ ", " // x\n", "\t", " /* it's */ ", " /*\n*/ "]);
  const forms = [
    () => `import${gap()}${id()}${gap()}from${gap()}${spec()};`,
    () => `import${gap()}{${gap()}${word()} as ${id()},${gap()}${id()}${gap()}}${gap()}from ${spec()};`,
    () => `import ${id()}, { ${id()}, } from ${spec()}`,
    () => `import * as${gap()}${id()} from ${spec()};`,
    () => `import type { ${id()} } from ${spec()};`,
    () => `import { type ${id()}, type ${word()} as ${id()} } from ${spec()};`,
    () => `import${gap()}${spec()};`,
    () => `import ${id()} = require(${spec()});`,
    () => `export { ${word()} as ${id()} } from ${spec()};`,
    () => `export *${gap()}from ${spec()}${pick([";", "", " ;", " with { type: 'json' };"])}`,
    () => `export * as ${pick(["ns", "import", "from", '"str"'])} from ${spec()};`,
    () => `export type * from ${spec()};`,
    () => `const ${id()} = require(${spec()});`,
    () => `const ${id()} = await import(${gap()}${spec()}${gap()});`,
    () => `type T${unique++} = import(${spec()}).X;`,
    () => `let v${unique++}: typeof import(${spec()}) | undefined;`,
    () => `const ${id()} = require(\`./t${rnd(9)}\`);`,
    () => `const ${id()} = import(\`./t${rnd(9)}\`, {});`,
  ];
  const noise = [
    () => `const s${unique++} = "import ${spec().replace(/"/g, "'")}; it's \\"quoted\\" require('./x')";`,
    () => `const t${unique++} = \`a \${require(${spec()})} b \${\`c \${import(${spec()})} \`} import "./no" \\\` \`;`,
    () => `// import ${spec()} from ${spec()}`,
    () => `/* export * from ${spec()} */`,
    () => `const r${unique++} = /['"\`/]import\\(["']x["']\\)[/]/gi.test("s");`,
    () => `const d${unique++} = ${id()} / 2 / (${id()} + 1) / 3;`,
    () => `if (${id()}) /import "x"/.test(s);`,
    () => `const n${unique++} = !/require\\("x"\\)/.test(s);`,
    () => `const m${unique++} = ${id()}! / 2;`,
    () => `const o${unique++} = { import: ${spec()}, require: ${spec()}, export: 1 };`,
    () => `class C${unique++} { import(x: string) { return x; } require(y: string) { return y; } #p = 1; m() { return this.#p / 2; } }`,
    () => `${id()}.import(${spec()}); ${id()}?.require(${spec()});`,
    () => `new require(${spec()}); (require)(${spec()});`,
    () => `const p${unique++} = require(${spec()} as string) + require(<any>${spec()}) + require(${spec()}!) + require /* c */ (${spec()});`,
    () => `const p${unique++} = <any>require(${spec()}); @dec(require(${spec()})) class D${unique++} {}`,
    () => `const u${unique++} = import.meta.url;`,
    () => `declare module ${spec()} {\n  import { x } from ${spec()};\n  export * from ${spec()};\n  export type Q = import(${spec()}).Q;\n}`,
    () => `namespace N${unique++} {\n  export const z = require(${spec()});\n  import Q = N.Z;\n}`,
    () => `function f${unique++}<T>(x: Array<T>): Record<string, T> { return x.length > 1 ? {} : { a: x[0] }; }`,
    () => `const e${unique++} = 1e-5 / .5 + 0x1e / 2 + 1_000n;`,
    () => `const h${unique++} = "héllo 😀 ✓"; // ünïcode ✓`,
    () => `type L${unique++} = \`\${"a" | "b"}-\${number}\`;`,
    () => `const g${unique++} = a?.b / 2 + a?.[0] / 3;`,
    () => `switch (x) { case /a/.source: break; default: }`,
    // Misreading a division as a regular expression, or the reverse, would hide a site here.
    () => `const k${unique++} = (${id()}) / 2 + require(${spec()}) / (1);`,
    () => `const k${unique++} = ${id()}[0] / 2 + require(${spec()}) / ${id()}.length;`,
    () => `const k${unique++} = ${id()} / 2 + require(${spec()}) / ${id()}! / 3;`,
    () => `if (${id()}) /'/.test("s"); const k${unique++} = require(${dq()}); // '`,
    () => `const k${unique++} = !/'/.test("s") || require(${dq()}); // '`,
    () => `const k${unique++} = typeof /'/ + require(${dq()}); // '`,
    () => `const k${unique++} = ${id()} / 2 + require(${dq()}) / 1; // /`,
    () => `function* y${unique++}() { yield 1; return /x/; }`,
    // What a tokenizer cannot tell: refused before the last site, of no matter after it.
    () => `function w${unique++}() {}\n/'/.test("s"); // '`,
    () => `let i${unique++} = 0; i${unique - 1}++ / 2;`,
  ];
  for (let i = 0; i < count; i++) {
    const lines = Array.from({ length: 2 + rnd(10) }, () => (rnd(2) ? pick(forms) : pick(noise))());
    // Imports anywhere is fine for a checker: the tree and the text are what is compared.
    const text = lines.join(pick(["\n", "\n", "\n\n", "\r\n"])) + "\n";
    yield text;
  }
}

/**
 * Generated headers: files that open with lines of imports of every form the header reads, with
 * the spacing, comments and names it must read or refuse, then a body that may import more.
 */
function* generatedHeaders(count: number): Generator<string> {
  let seed = 11;
  const rnd = (n: number) => { seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff; return (seed >>> 12) % n; }; // (imul: a product past 2^53 loses the low bits, and the sequence cycles)
  const pick = <T>(xs: T[]): T => xs[rnd(xs.length)];
  let unique = 0;
  // Now and then a literal the header does not read (an escape, the other quote inside).
  const spec = () => (rnd(10) ? pick(["'./a'", '"../b"', '"@sanoma-ai/workflows"', '"zod"', "'../../c/d'", '"/abs"', '"./f"', "'../g/h'"]) : pick(['"./e\\x2ef"', `"./it's"`, `'./q"'`]));
  // Local names are new each time (a name bound twice does not parse); now and then one a parser reads two ways.
  const id = () => (rnd(12) ? pick(["a", "b", "x", "$y", "_z", "q"]) + unique++ : pick(["from", "type", "as", `é${unique++}`]));
  const name = () => pick(["a", "secret", "collection", "default", "type", "as", "from", "x"]);
  const sp = () => pick([" ", " ", " ", "  ", "\t"]);
  const nl = () => pick(["\n", "\n", "\n", "\r\n", "\n\n"]);
  const end = () => pick([";", ";", "", " ;", "; // c", " // it's", ";\t", "; /* c */"]);
  const spec1 = () => pick([`${name()} as ${id()}`, `${name()} as ${id()}`, id(), `type ${name()} as ${id()}`, `type ${id()}`]);
  const specs = () => Array.from({ length: rnd(4) }, spec1).join(pick([", ", ", ", ",", ",\n  "])) + pick(["", "", ",", " "]);
  const forms = [
    () => `import${sp()}${id()}${sp()}from${sp()}${spec()}${end()}`,
    () => `import${sp()}{${sp()}${specs()}${sp()}}${sp()}from${pick([" ", ""])}${spec()}${end()}`,
    () => `import ${id()}, { ${specs()} } from ${spec()}${end()}`,
    () => `import ${id()},${sp()}*${sp()}as${sp()}${id()} from ${spec()}${end()}`,
    () => `import * as ${id()} from ${spec()}${end()}`,
    () => `import${pick([" ", ""])}${spec()}${end()}`,
    () => `import type ${pick([id(), `{ ${specs()} }`, `* as ${id()}`])} from ${spec()}${end()}`,
    () => `import ${id()} = require(${spec()})${end()}`,
    () => `export ${pick(["", "type "])}{ ${specs()} } from ${spec()}${end()}`,
    () => `export ${pick(["", "type "])}*${pick(["", ` as ${id()}`])} from ${spec()}${end()}`,
    () => `${pick(["const", "let", "var"])} ${pick([id(), `{ ${Array.from({ length: 1 + rnd(3) }, () => pick([id(), `${name()}: ${id()}`])).join(", ")} }`])} = ${pick(["require", "await import", "import"])}(${spec()})${end()}`,
    () => `// import ${id()} from ${spec()}`,
    () => `/* export * from ${spec()} */`,
    () => `/**${nl()} * it's "a" licence: import x from "./no"${nl()} */`,
    () => ``,
    () => `import /* c */ ${id()} from ${spec()};`,
    () => `import ${id()} from ${spec()}; import ${id()} from ${spec()};`,
    () => `export * from ${spec()} with { type: "json" };`,
  ];
  const body = [
    () => `export const v${unique++} = 1;`,
    () => `const d${unique++} = await import(${spec()});`,
    () => `const r${unique++} = require(${spec()});`,
    () => `import late${unique++} from ${spec()};`,
    () => `type T${unique++} = import(${spec()}).X;`,
  ];
  for (let i = 0; i < count; i++) {
    // Mostly the forms read whole (the first eleven), some of what ends a header.
    const head = Array.from({ length: 1 + rnd(8) }, () => (rnd(5) ? forms[rnd(11)] : pick(forms))());
    const rest = Array.from({ length: rnd(3) }, () => pick(body)());
    yield (rnd(20) === 0 ? "#!/usr/bin/env node\n" : "") + [...head, ...rest].join(nl()) + (rnd(4) ? nl() : "");
  }
}

function tsFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir)) {
    if (e === "node_modules" || e.startsWith(".")) continue;
    const p = join(dir, e);
    if (statSync(p).isDirectory()) tsFiles(p, out);
    else if (e.endsWith(".ts")) out.push(p);
  }
  return out;
}

describe("scanSites against oxc's tree, in oxlint", () => {
  let dir = "";
  const verdicts = new Map<string, string>(); // file (relative) → message
  const headers = new Map<string, string>(); // file (relative) → the header's message
  const corpora: Record<string, string[]> = { repo: [], types: [], generated: [], headers: [] };

  before(() => {
    dir = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-scan-")));
    const plugin = join(dir, "checker.cjs");
    writeFileSync(join(dir, "checker.js"), CHECKER);
    buildSync({ entryPoints: [join(dir, "checker.js")], outfile: plugin, bundle: true, platform: "node", format: "cjs", logLevel: "error" });
    const write = (corpus: string, rel: string, text: string) => {
      const p = join(dir, "files", corpus, rel);
      mkdirSync(join(p, ".."), { recursive: true });
      writeFileSync(p, text);
      corpora[corpus].push(relative(dir, p));
    };
    for (const root of ["server/src", "client/src", "lint-plugin/src", "test", "scripts"]) {
      for (const f of tsFiles(join(REPO, root))) write("repo", relative(REPO, f), readFileSync(f, "utf8"));
    }
    for (const f of tsFiles(join(REPO, "node_modules/@types"))) write("types", relative(join(REPO, "node_modules/@types"), f), readFileSync(f, "utf8"));
    let i = 0;
    for (const text of generated(3000)) write("generated", `g${i++}.ts`, text);
    i = 0;
    for (const text of generatedHeaders(3000)) write("headers", `h${i++}.ts`, text);
    writeFileSync(join(dir, ".oxlintrc.json"), JSON.stringify({ jsPlugins: [plugin], categories: { correctness: "off" }, rules: { "scan-check/agree": "error" } }));
    const r = spawnSync(OXLINT, ["-c", ".oxlintrc.json", "-f", "json", "files"], { cwd: dir, encoding: "utf8", maxBuffer: 256 << 20 });
    if (!r.stdout.startsWith("{")) throw new Error(`oxlint: ${r.stdout}\n${r.stderr}`);
    for (const d of JSON.parse(r.stdout).diagnostics as { code?: string; message: string; filename: string }[]) {
      if (d.code === "scan-check(agree)") (d.message.startsWith("header ") || d.message.startsWith("HEADER") ? headers : verdicts).set(d.filename, d.message);
    }
  });
  after(() => { if (dir) rmSync(dir, { recursive: true, force: true }); });

  for (const corpus of ["repo", "types", "generated", "headers"]) {
    test(`${corpus}: the header's sites are the tree's sites before its end (\`readHeader\`)`, (t) => {
      const files = corpora[corpus];
      let read = 0, whole = 0, sites = 0;
      for (const f of files) {
        const v = headers.get(f);
        if (v === undefined) continue; // not parsed by oxc (counted below)
        assert.ok(!v.startsWith("HEADER DIFF"), `${f}: ${v}\n${readFileSync(join(dir, f), "utf8").slice(0, 3000)}`);
        read++;
        const [, n, how] = v.split(" ");
        sites += Number(n);
        if (how === "whole") whole++;
      }
      t.diagnostic(`${read} files: ${sites} header sites, all as in the tree; ${whole} files all header`);
      if (corpus === "headers") assert.ok(read > 2000 && sites > 2500 && whole > 250, `the generated headers parse and are read (${read} files, ${sites} sites, ${whole} whole)`);
      if (corpus === "repo") assert.ok(sites > 500, `the repository's headers are read (${sites} sites)`);
    });
  }

  for (const corpus of ["repo", "types", "generated"]) {
    test(`${corpus}: where the text is vouched for, its sites are the tree's`, (t) => {
      const files = corpora[corpus];
      let agree = 0, unsure = 0, unparsed = 0, sites = 0;
      for (const f of files) {
        const v = verdicts.get(f);
        if (v === undefined) { unparsed++; continue; }
        assert.ok(!v.startsWith("DIFF"), `${f}: ${v}\n${readFileSync(join(dir, f), "utf8").slice(0, 3000)}`);
        if (v === "unsure") unsure++;
        else { agree++; sites += Number(v.slice("agree ".length)); }
      }
      t.diagnostic(`${files.length} files: ${agree} vouched for (${sites} sites, all as in the tree), ${unsure} left to the tree, ${unparsed} not parsed by oxc`);
      // Not vacuous: the files parse, and the scanner vouches for most of them.
      assert.ok(unparsed <= files.length * (corpus === "generated" ? 0.2 : 0.05), `${unparsed} of ${files.length} not parsed`);
      assert.ok(agree >= (agree + unsure) * (corpus === "generated" ? 0.5 : 0.6), `only ${agree} of ${agree + unsure} vouched for`);
      assert.ok(sites > (corpus === "types" ? 50 : 500), `${sites} sites compared`);
    });
  }
});

test("scan: a huge text's tokens are not kept for the texts after it, read or refused", () => {
  const script = `
    const core = await import(${JSON.stringify(join(REPO, "server", "src", "core", "scan.ts"))});
    const { scanText, scanSites } = core.scanText ? core : core.default;
    // An array buffer's memory is given back after a collection, by a sweeper: wait for it.
    const settle = async () => { gc(); await new Promise((r) => setTimeout(r, 50)); gc(); };
    const small = "import { a } from \\"./a\\";\\n";
    scanText(small, "data.");
    await settle();
    const before = process.memoryUsage().arrayBuffers;
    const read = scanText("import { a } from \\"./a\\";\\nexport const x = [" + "1, ".repeat(1_000_000) + "];\\n", "data.");
    scanText(small, "data.");
    await settle();
    const afterRead = process.memoryUsage().arrayBuffers - before;
    const refused = scanSites("export const x = [" + "1, ".repeat(1_000_000) + "]; import { a } from \\"./a\\"; \`");
    await settle();
    console.log(JSON.stringify({ read: read?.sites.length, afterRead, refused: refused === undefined, afterRefused: process.memoryUsage().arrayBuffers - before }));
  `;
  const run = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 60_000 });
  assert.equal(run.status, 0, run.stderr);
  const r = JSON.parse(run.stdout) as { read: number; afterRead: number; refused: boolean; afterRefused: number };
  assert.equal(r.read, 1, "the huge text is read (else its tokens were never all made)");
  assert.ok(r.refused, "the huge text with an open template is refused");
  // Two million tokens take 36 MB in the tokenizer's arrays.
  assert.ok(r.afterRead < 2_000_000 && r.afterRefused < 2_000_000, `array buffers kept: ${r.afterRead} bytes after a huge text read, ${r.afterRefused} after one refused`);
});
