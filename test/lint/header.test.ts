/**
 * The header reader (`lint-plugin/src/header.ts`): the import lines a file opens with, read
 * exactly, and where they end. Written-out cases here, by form and by the ways a line must be
 * refused; `scan.test.ts` holds the reading to oxc's own tree in the real oxlint, on generated
 * headers, the repository's sources and the `@types` declarations.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { namesOf, readHeader } from "../../lint-plugin/src/header.ts";

type Row = [specifier: string, at: string, names: string[]];

/** The header's sites as short rows (specifier, its literal, each name with its text), and what follows the header. */
function read(text: string, how?: "shape"): { rows: Row[]; rest: string } {
  const h = readHeader(text, how);
  const at = (r: [number, number]) => text.slice(r[0], r[1]);
  return { rows: h.sites.map((s) => [s.specifier, at(s.specifierRange.range), s.names.map((n) => `${n.imported}@${at(n.range.range)}`)]), rest: text.slice(h.end) };
}

const cases: [name: string, text: string, rows: Row[], rest: string][] = [
  ["every import clause", `import d from "./a";\nimport * as ns from './b';\nimport d2, { a as b, c, default as e } from "./c";\nimport d3, * as n3 from "./d";\nimport "./e";\nimport {} from "./f";\n`,
    [["./a", `"./a"`, ["default@d"]], ["./b", "'./b'", ["*@ns"]], ["./c", `"./c"`, ["default@d2", "a@a", "c@c", "default@default"]], ["./d", `"./d"`, ["default@d3", "*@n3"]], ["./e", `"./e"`, []], ["./f", `"./f"`, []]], ""],
  ["type-only forms", `import type D from "./d";\nimport type * as N from "./n";\nimport type { A } from "./a";\nimport { type B, type C as CC } from "./b";\n`,
    [["./d", `"./d"`, ["default@D"]], ["./n", `"./n"`, ["*@N"]], ["./a", `"./a"`, ["A@A"]], ["./b", `"./b"`, ["B@B", "C@C"]]], ""],
  ["re-exports: the local side, or the whole statement for export *", `export * from "./a";\nexport * from "./a2"\nexport * as b from "./b";\nexport { c as d, type g, default } from "./c";\nexport type * from "./t";\nexport type { T } from "./t2";\n`,
    [["./a", `"./a"`, [`*@export * from "./a";`]], ["./a2", `"./a2"`, [`*@export * from "./a2"`]], ["./b", `"./b"`, ["*@b"]], ["./c", `"./c"`, ["c@c", "g@g", "default@default"]], ["./t", `"./t"`, [`*@export type * from "./t";`]], ["./t2", `"./t2"`, ["T@T"]]], ""],
  ["require, import(), import equals", `const r = require("./r");\nconst { a, b: c } = require("./p");\nlet m = await import("./m");\nvar n = import("./n");\nimport q = require("./q");\n`,
    [["./r", `"./r"`, [`*@"./r"`]], ["./p", `"./p"`, ["a@a", "b@b"]], ["./m", `"./m"`, [`*@"./m"`]], ["./n", `"./n"`, [`*@"./n"`]], ["./q", `"./q"`, ["*@q"]]], ""],
  ["comments, blank lines, a hashbang and a licence before the imports; braces over lines", `#!/usr/bin/env node\n/**\n * Licence: it's "quoted", import "./no".\n */\n\n// import x from "./no2"\n  import {\n  a,\n  b as bb,\n} from "./ab"; // trailing\n\timport "./tab"\r\nimport c from "./crlf"\r\n`,
    [["./ab", `"./ab"`, ["a@a", "b@b"]], ["./tab", `"./tab"`, []], ["./crlf", `"./crlf"`, ["default@c"]]], ""],
  ["the header ends at the first line it does not know", `import a from "./a";\nexport const x = 1;\nimport b from "./b";\n`,
    [["./a", `"./a"`, ["default@a"]]], `export const x = 1;\nimport b from "./b";\n`],
  ["the last line without a line break", `import a from "./a"`, [["./a", `"./a"`, ["default@a"]]], ""],
  // Refused: what a regular expression per line cannot read surely, or what is no import line.
  ["two statements on a line", `import a from "./a"; import b from "./b";\n`, [], `import a from "./a"; import b from "./b";\n`],
  ["a comment inside", `import /* c */ a from "./a";\n`, [], `import /* c */ a from "./a";\n`],
  ["a block comment that does not end its line", `/* c */ import a from "./a";\n`, [], `/* c */ import a from "./a";\n`],
  ["a line comment ended by U+2028", `// c\u2028import a from "./a";\n`, [], `// c\u2028import a from "./a";\n`],
  ["an escape in the specifier", `import a from "./\\x61";\n`, [], `import a from "./\\x61";\n`],
  ["a string name", `import { "a-b" as c } from "./a";\n`, [], `import { "a-b" as c } from "./a";\n`],
  ["import type as a name", `import type from "./t";\n`, [], `import type from "./t";\n`],
  ["a name read two ways", `import { type as } from "./t";\n`, [], `import { type as } from "./t";\n`],
  ["a name past ASCII", `import { é } from "./e";\n`, [], `import { é } from "./e";\n`],
  ["import attributes", `export * from "./j" with { type: "json" };\n`, [], `export * from "./j" with { type: "json" };\n`],
  ["a require without its semicolon (the next line may carry on the expression)", `const a = require("./a")\n.default;\n`, [], `const a = require("./a")\n.default;\n`],
  ["a require pattern with a rest, a default or a nested pattern", `const { ...a } = require("./a");\n`, [], `const { ...a } = require("./a");\n`],
  ["an awaited dynamic import destructured takes the names of its pattern, as a require does; not awaited (a promise destructured), `*`", `const { a, b: c } = await import("./a");\nconst { d } = import("./d");\n`, [["./a", `"./a"`, ["a@a", "b@b"]], ["./d", `"./d"`, [`*@"./d"`]]], ""],
  ["no names from require", `const {} = require("./a");\n`, [], `const {} = require("./a");\n`],
  ["a call of import, import.meta", `import("./a");\nimport.meta.url;\n`, [], `import("./a");\nimport.meta.url;\n`],
  ["a byte order mark is no line the header knows", `\ufeffimport a from "./a";\n`, [], `\ufeffimport a from "./a";\n`],
  ["export import equals", `export import a = require("./a");\n`, [], `export import a = require("./a");\n`],
  ["import type equals", `import type a = require("./a");\n`, [], `import type a = require("./a");\n`],
];

for (const [name, text, rows, rest] of cases) {
  test(`readHeader: ${name}`, () => assert.deepEqual(read(text), { rows, rest }));
}

test("readHeader by shape: every site, without names, past a line whose names cannot be read; namesOf reads them as the whole reading does", () => {
  const text = `import a from "./a";\nimport { type as } from "./odd";\nimport { b } from "./b";\nconst c = 1;\n`;
  // Read whole, the header ends before the line it cannot name.
  assert.deepEqual(read(text), { rows: [["./a", `"./a"`, ["default@a"]]], rest: text.slice(text.indexOf("import { type")) });
  // By its shape, the odd line is an import declaration all the same, and the header runs to `const`.
  assert.deepEqual(read(text, "shape"), { rows: [["./a", `"./a"`, []], ["./odd", `"./odd"`, []], ["./b", `"./b"`, []]], rest: "const c = 1;\n" });
  const sites = readHeader(text, "shape").sites;
  const at = (r: [number, number]) => text.slice(r[0], r[1]);
  assert.deepEqual(sites.map((s) => namesOf(text, s)?.map((n) => `${n.imported}@${at(n.range.range)}`)), [["default@a"], undefined, ["b@b"]]);
  assert.deepEqual(sites.map((s) => text.slice(s.line, s.line + 8)), ["import a", "import {", "import {"], "each site knows where its line starts");
});

test("readHeader: a huge header is read whole; texts that open with no import line end it at 0 (no search runs past a first quote, `;` or slash)", () => {
  const line = `import { a, b as c } from "../../apps/x/lib/y";\n`;
  const big = line.repeat(50_000);
  const h = readHeader(big);
  assert.equal(h.end, big.length);
  assert.equal(h.sites.length, 50_000);
  const none = "x".repeat(5_000_000);
  assert.equal(readHeader(none).end, 0);
  // A clause that never reaches `from`: the lazy scan for it stops at the first quote, `;` or slash.
  const open = "import " + "a, ".repeat(200_000) + ";\n";
  assert.equal(readHeader(open).end, 0);
});
