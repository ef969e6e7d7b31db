/**
 * For `test/rules/intern.test.ts`, in a process of its own (run with `--expose-gc`): reads the
 * facts of 40 texts of a megabyte each (half read lightly, half from their syntax tree), lets the
 * texts go, and prints how much the heap grew once collected: the facts' strings being slices of
 * their texts would keep all 40 MB.
 */
import { readFacts, readFactsLightly } from "../../server/src/core/facts.ts";

const gc = (globalThis as { gc?: () => void }).gc!;
const filler = () => `// ${"x".repeat(1 << 20)}\n`;
const text = (i: number) => `import { thing${i} } from "./a-specifier-long-enough-to-slice-${i}";\nexport const w${i} = async (ctx: any) => ctx.call("data.ordersWithALongName${i}.get", thing${i});\n${filler()}`;
gc();
const before = process.memoryUsage().heapUsed;
const kept = [];
for (let i = 0; i < 40; i++) {
  kept.push(i % 2 ? readFacts(`/co/resources/d${i}.ts`, text(i)) : readFactsLightly(`/co/workflows/w${i}.ts`, text(i), { text: () => undefined, syntaxAsked: false }));
}
/x/.test("x"); // V8 keeps the last subject of a regular expression: one text, not the facts' doing
gc();
const grewMb = (process.memoryUsage().heapUsed - before) / 1e6;
console.log(JSON.stringify({ grewMb, specifiers: kept.map((f) => f.imports[0]?.specifier), light: kept.filter((f) => f.constructor.name === "LightFacts").length }));
