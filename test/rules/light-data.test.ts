/**
 * A data file's facts read from vouch's tokens (core/light-data.ts) must be the facts read from its
 * syntax tree (`readFacts`), field for field, wherever the token reading answers; and it must
 * answer for the data files a company is made of, or it buys nothing. Held on tables of small data
 * files (each shape it reads, each it must leave to the tree), on every data file of the example
 * companies, the test fixtures and a generated company, and on seeded mutations of all of them.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { test } from "node:test";
import { readFacts, type FileFacts } from "../../server/src/core/facts.ts";
import { readDataFacts, readDataFactsFromTokens } from "../../server/src/core/light-data.ts";
import { mutants } from "./mutants.ts";
// @ts-expect-error the benchmark's generator is plain JavaScript
import { generateCompany, rng } from "../../bench/generate.mjs";

const REPO = join(import.meta.dirname, "..", "..");
const FILE = "/company/resources/infra.ts";

/** Every field, as a consumer reads it. */
const fields = (f: FileFacts) => ({
  syntaxErrors: f.syntaxErrors, firstSyntaxError: f.firstSyntaxError, unread: f.unread, imports: f.imports, bindings: f.bindings, locals: f.locals,
  exports: f.exports, starExports: f.starExports, specs: f.specs, declarations: f.declarations, collections: f.collections,
  opRefs: f.opRefs, secretCalls: f.secretCalls, workflows: f.workflows, config: f.config,
});

/** The token reading of `text`, held to the tree's: undefined where it refuses. */
function readBoth(file: string, text: string, where: string): FileFacts | undefined {
  const light = readDataFactsFromTokens(file, text);
  if (light !== undefined) assert.deepStrictEqual(fields(light), fields(readFacts(file, text)), `${where}:\n${text}`);
  return light;
}

/** Data files of each shape read from tokens; each must be read so, with the tree's facts. */
const READ = [
  "",
  "const first = \"data.orders.get\";\n",
  "// nothing but a comment\n",
  `import { vm, bucket } from "@hooli/cloud";\nimport { secret } from "@sanoma-ai/workflows/resources";\n\nconst prefix = "order1-145";\n\n/** A machine. */\nexport const web = vm({ name: \`\${prefix}-web\`, zone: "eu-2", disk: 20 });\n\nexport const key = secret("CLOUD_KEY");\n`,
  `import { collection } from "@sanoma-ai/workflows/data";\n\n/** Jobs. */\nexport const jobs = collection({\n  key: "id",\n  fields: { id: "string", status: "string", total: "number" },\n});\n`,
  // A collection named by a literal, by a name, by shorthand; one not exported; one with no options or no fields object.
  `import { collection } from "@sanoma-ai/workflows/data";\nconst NAME = "x";\nexport const a = collection({ name: "alpha", key: 'id', fields: { id: "string", "quoted": "number", done } });\nexport const b = collection({ name: NAME, fields: {} });\nexport const c = collection({ name });\nconst d = collection({ key: "k" });\nexport const e = collection();\nexport const f = collection({});\nexport const g = collection({ fields: shape });\n`,
  // A key written twice: the last one counts, as JavaScript keeps it.
  `import { collection } from "@sanoma-ai/workflows/data";\nexport const a = collection({ name: "a1", key: "k1", name: "a2", fields: { x: "string" }, key: "k2", fields: { y: "number" } });\n`,
  // `collection` from elsewhere is no collection; a renamed import is.
  `import { collection } from "./mine";\nexport const a = collection({ key: "id" });\n`,
  `import { collection as define } from "@sanoma-ai/workflows/data";\nexport const a = define({ key: "id" });\n`,
  // Secrets: a template, a renamed import, one from any module; an argument that is no string.
  "import { secret as s } from \"@hooli/cloud\";\nexport const a = s(`KEY_A`);\nconst b = s('KEY_B');\nexport const c = s({ name: \"KEY_C\" });\nexport const d = s();\n",
  // Desired keys: a shorthand (the key a variable's name), a quoted one, a plain one.
  `import { vm } from "@hooli/cloud";\nconst name = "n";\nexport const a = vm({ name, "max-size": 1, zone: "z" });\n`,
  // Callees: a member, a chain (`via`), a reserved word as a member; no argument; a string argument.
  `import * as cloud from "@hooli/cloud";\nimport fly from "@hooli/fly";\nexport const a = cloud.vm({ disk: 1 });\nexport const b = cloud.fly.machine();\nexport const c = fly.default.new("x");\nexport const d = fly();\n`,
  // Calls in values: secrets (in text order, the outer call's callee first), a collection in an
  // array, a name's value that is a call; several arguments, a trailing comma.
  `import { vm, size } from "@hooli/cloud";\nimport { secret } from "@sanoma-ai/workflows/resources";\nimport { collection } from "@sanoma-ai/workflows/data";\nexport const a = secret(secret("INNER"));\nexport const b = vm({ key: secret("K1"), disk: size(1, "data.a.b"), more: [secret(\`K2\`)] }, { c: secret("K3") },);\nconst c = vm([collection({ name: secret("N"), key: "id" })]);\nexport const d = collection({ name: size("x") }, secret("K4"));\n`,
  // A const that names another (a local, a member chain: what the tree's `refOf` reads), and `void`
  // statements, which keep an import used.
  `import { nightly } from "../workflows/nightly";\nimport * as ns from "m";\nexport const later = nightly;\nconst deep = ns.a.default\nvoid nightly; void ns.b\nvoid deep;\n`,
  // Every import form: default and named, type-only ones, a namespace, a side effect, an empty clause.
  `import def, { a, b as c, type d, type e as f, } from "m1";\nimport type { g } from "m2";\nimport type h from "m3";\nimport type * as i from "m4";\nimport * as j from 'm5';\nimport "m6";\nimport {} from "m7";\nimport k, * as l from "m8";\n`,
  // Values: nested objects and arrays, negatives, booleans, null, members, templates, keywords as keys, operation ids.
  `import { vm } from "@hooli/cloud";\nexport const a = vm({ tags: ["x", { y: [1, -2.5, null] }], on: true, off: false, zone: zones.east.primary, default: 1, new: \`t\`, "data.orders.get": "data.users.list", note: \`data.a.b\` });\nconst op = "data.jobs.save";\nexport const n = 1e3;\n`,
  // No semicolons (line breaks end the statements), comments between tokens, CRLF outside literals.
  "import { vm } from \"@hooli/cloud\"\r\nexport const a = vm({ /* c */ disk: 1 }) // end\r\nexport const b = vm()\r\nconst c = 'x'\r\n",
  // Exported `let` declares nothing, and is refused; a top-level const of each literal kind is read.
  `const a = 1;\nconst b = "s";\nconst c = \`t\`;\nconst d = true;\nconst e = null;\nconst f = -1;\nconst g = [1, "data.a.b"];\nexport const h = \`\${a}-\${b}\`;\n`,
];

/** Data files the token reading leaves to the tree (each a shape it does not read). */
const REFUSED = [
  `import { defineResource } from "@sanoma-ai/workflows";\nexport const t = defineResource({ vendor: "v", type: "t" });\n`,
  `import { vm } from "@hooli/cloud";\nexport const a = vm({ ...base, disk: 1 });\n`,
  `export const config = { a: 1 };\n`,
  `import { vm } from "@hooli/cloud";\nexport const a = vm({ disk: 1 }) as const;\n`,
  `import * as d from "@sanoma-ai/workflows/data";\nexport const a = d.collection({ key: "id" });\n`,
  `import * as h from "@hooli/cloud";\nexport const a = h.secret("K");\n`,
  `const cloud = require("@hooli/cloud");\nexport const a = cloud.vm({});\n`,
  `import { vm } from "@hooli/cloud";\nexport const a = vm({ name: "a\\u0062" });\n`,
  `import { vm } from "@hooli/cloud";\nconst a = vm({}), b = vm({});\n`,
  `import { vm } from "@hooli/cloud";\nexport let a = vm({});\n`,
  `import { vm } from "@hooli/cloud";\nconst a = vm({});\nexport { a };\n`,
  `import { vm } from "@hooli/cloud";\nexport const a: Machine = vm({});\n`,
  `import { vm } from "@hooli/cloud";\nexport const a = vm({ 1: "x" });\n`,
  `import { vm } from "@hooli/cloud";\nexport const a = vm({ run() {} });\n`,
  `import { type } from "m";\n`,
  `import x = require("m");\n`,
  `export * from "m";\n`,
  `import { run } from "m";\nvoid run();\n`,
  `void 0;\n`,
  `const a = b\n\`tagged\`;\n`,
  `export function f() {}\n`,
  // Without a semicolon, a line starting with \`(\` goes on with the expression before it.
  `import { vm } from "@hooli/cloud";\nexport const a = vm({})\n(0, 1);\n`,
  // Not TypeScript's own syntax, or not a text vouch is sure of.
  `export const a = 1 +;\n`,
];

test("light data facts: each shape read from tokens, with the tree's facts; the rest left to the tree", () => {
  const r: () => number = rng(977);
  READ.forEach((text, i) => {
    assert.ok(readBoth(FILE, text, `READ[${i}]`) !== undefined, `READ[${i}] was left to the tree:\n${text}`);
    // Each shape mutated, a few hundred ways: whatever is still read from tokens is the tree's.
    for (let round = 0; round < 10; round++) mutants(text, r).forEach((m, j) => readBoth(FILE, m, `READ[${i}], round ${round}, mutant ${j}`));
  });
  REFUSED.forEach((text, i) => {
    assert.equal(readDataFactsFromTokens(FILE, text), undefined, `REFUSED[${i}] was read from tokens:\n${text}`);
    // ...and `readDataFacts` reads it from the tree.
    assert.deepStrictEqual(fields(readDataFacts(FILE, text)), fields(readFacts(FILE, text)), `REFUSED[${i}]`);
  });
  // Not TypeScript's own syntax: a JavaScript or TSX data file is the tree's.
  assert.equal(readDataFactsFromTokens("/company/resources/infra.tsx", READ[2]), undefined);
  assert.equal(readDataFactsFromTokens("/company/resources/infra.js", READ[2]), undefined);
});

function dataFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) { if (e.name !== "node_modules" && e.name !== ".git") dataFiles(p, out); }
    else if (/[/\\]resources[/\\][^/\\]+\.[cm]?ts$/.test(p) && statSync(p).size < 1_000_000) out.push(p);
  }
  return out;
}

test("light data facts: the tree's facts on every data file of the examples, the fixtures and a generated company, and on their mutants (seeded)", (t) => {
  const gen = mkdtempSync(join(tmpdir(), "sanoma-light-data-"));
  try {
    generateCompany(gen, { files: 2000, hot: true });
    const corpora = { examples: dataFiles(join(REPO, "examples")), fixtures: dataFiles(join(REPO, "test")), generated: dataFiles(gen) };
    const r: () => number = rng(4243);
    let mutated = 0, mutatedRead = 0;
    for (const [name, files] of Object.entries(corpora)) {
      assert.ok(files.length > 5, `${name}: ${files.length} data files`);
      let read = 0;
      for (const file of files) {
        const text = readFileSync(file, "utf8");
        if (readBoth(file, text, relative(REPO, file)) !== undefined) read++;
        // Mutants of a few: enough to reach every branch, in seconds.
        if (r() < (name === "generated" ? 0.1 : 0.5)) {
          mutants(text, r).forEach((m, i) => {
            mutated++;
            if (readBoth(file, m, `${relative(REPO, file)}, mutant ${i}`) !== undefined) mutatedRead++;
          });
        }
      }
      t.diagnostic(`${name}: ${read} of ${files.length} data files read from tokens`);
      // A company's own data files are of the shapes read here: else the reading buys nothing.
      if (name === "generated") assert.ok(read >= 0.95 * files.length, `generated: ${read} of ${files.length} read from tokens`);
    }
    t.diagnostic(`mutants: ${mutatedRead} of ${mutated} read from tokens`);
    // Else the mutants prove nothing: a reading that refuses every mutant passes.
    assert.ok(mutatedRead >= 0.2 * mutated, `${mutatedRead} of ${mutated} mutants read from tokens`);
  } finally {
    rmSync(gen, { recursive: true, force: true });
  }
});
