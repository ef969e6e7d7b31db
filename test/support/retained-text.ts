/**
 * For `test/rules/intern.test.ts`, in a process of its own (run with `--expose-gc`): reads the
 * facts of 60 texts of a megabyte each (a third read lightly, a third from their syntax tree, a
 * third data files read from vouch's tokens), lets the texts go, and prints how much the heap
 * grew once collected: the facts' strings being slices of their texts would keep all 60 MB.
 */
import { readFacts, readFactsLightly } from "../../server/src/core/facts.ts";
import { readDataFactsFromTokens } from "../../server/src/core/light-data.ts";

const gc = (globalThis as { gc?: () => void }).gc!;
const filler = () => `// ${"x".repeat(1 << 20)}\n`;
const text = (i: number) => `import { thing${i} } from "./a-specifier-long-enough-to-slice-${i}";\nexport const w${i} = async (ctx: any) => ctx.call("data.ordersWithALongName${i}.get", thing${i});\n${filler()}`;
gc();
const before = process.memoryUsage().heapUsed;
/** A data file of the shape read from tokens: its names, strings and operation ids long enough to be slices. */
const dataText = (i: number) => `import { thing${i}, secret } from "./a-specifier-long-enough-to-slice-${i}";\nexport const aDeclarationWithALongName${i} = thing${i}({ aKeyWithALongName: "data.ordersWithALongName${i}.get", key: secret("A_SECRET_WITH_A_LONG_NAME") });\n${filler()}`;
const kept = [];
let fromTokens = 0;
for (let i = 0; i < 60; i++) {
  if (i % 3 === 0) kept.push(readFactsLightly(`/co/workflows/w${i}.ts`, text(i), { text: () => undefined, syntaxAsked: false }));
  else if (i % 3 === 1) kept.push(readFacts(`/co/resources/d${i}.ts`, text(i)));
  else {
    const facts = readDataFactsFromTokens(`/co/resources/d${i}.ts`, dataText(i));
    if (facts) { fromTokens++; kept.push(facts); }
  }
}
/x/.test("x"); // V8 keeps the last subject of a regular expression: one text, not the facts' doing
gc();
const grewMb = (process.memoryUsage().heapUsed - before) / 1e6;
console.log(JSON.stringify({ grewMb, specifiers: kept.map((f) => f.imports[0]?.specifier), light: kept.filter((f) => f.constructor.name === "LightFacts").length, fromTokens }));
