/**
 * One big compiled bundle's facts (`readFacts`: a `.js` file is always read from the tree), against
 * TypeScript's bare parse of the same text (`ts.createSourceFile`, the core's options): what a
 * company pays for a `dist/bundle.js` of its own code, thousands of `"data.x.y"` strings in it.
 * Four shapes of minified code, each at 250 KB, 1 MB and 2 MB: statements at the top level
 * (`top`), the same inside one function (`iife`: a bundler's wrapper), calls nested in calls
 * (`nested`: `ctx.call("data.…").then((r) => ctx.call("data.…", …))`), and the framework's
 * `secret("KEY")` called in one function (`secrets`: each call's name looked up in the scopes
 * around it). Prints, per file, the medians of `--runs` (3) of the main thread's CPU time in ms (it
 * varies less than the wall's on a busy machine; 10 ms resolution) and of the wall's, their
 * ratios, and the operation references read; a cost that grows with the file's size keeps the
 * ratios flat from 250 KB to 2 MB. `--shapes` picks some.
 *
 *   node --import tsx bench/bundle.ts [--runs 3] [--sizes 250,1000,2000] [--shapes top,iife,nested,secrets]
 */
import ts from "../server/src/core/typescript.ts";
import { readFacts } from "../server/src/core/facts-tree.ts";
import { PARSE_OPTIONS } from "../server/src/core/ts-nodes.ts";
// @ts-expect-error a plain CommonJS module of the benchmark, without declarations
import { mainThreadCpuMs } from "./usage.cjs";

const arg = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(name);
  return at > 0 ? process.argv[at + 1] : fallback;
};
const runs = Number(arg("--runs", "3"));
const sizes = arg("--sizes", "250,1000,2000").split(",").map(Number);
const shapes = arg("--shapes", "top,iife,nested,secrets").split(",");

/** The audit's chunk: an op reference in a call in a function, a regular expression, a template, a function declaration. */
const CHUNK = "var a=function(e){return e.call(\"data.orders.get\",{id:e.id})},b=/x\\/y/g,c=`t${a}`;function d(e,t){return e+t>>1?e:t}";
const SECRETS = "var a=secret(\"KEY\"),b=e.call(\"data.orders.get\");function d(e,t){return e+t>>1?e:t}";
const NESTED = "e.call(\"data.orders.list\",{n:1}).then(function(r){return e.call(\"data.orders.save\",{r:r,f:function(x){return[x,\"data.users.get\"]}})});";
const SHAPES: Record<string, (bytes: number) => string> = {
  top: (bytes) => "import{x as q}from\"./vendor.js\";" + CHUNK.repeat(Math.ceil(bytes / CHUNK.length)),
  iife: (bytes) => "(()=>{" + CHUNK.repeat(Math.ceil(bytes / CHUNK.length)) + "})();",
  nested: (bytes) => "export function run(e){" + NESTED.repeat(Math.ceil(bytes / NESTED.length)) + "}",
  secrets: (bytes) => "import{secret}from\"@sanoma-ai/workflows/data\";(()=>{" + SECRETS.repeat(Math.ceil(bytes / SECRETS.length)) + "})();",
};

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];
/** The main thread's CPU time and the wall's, in ms. */
const time = (f: () => unknown): { cpu: number; wall: number } => {
  const c: number = mainThreadCpuMs(), t = performance.now();
  f();
  return { cpu: mainThreadCpuMs() - c, wall: performance.now() - t };
};

// Warmed up first: the first text's figures would hold V8 compiling the parser and the readers.
for (const make of Object.values(SHAPES)) readFacts("dist/bundle.js", make(100_000));
console.log("shape   size     parse cpu  facts cpu   ratio | parse wall  facts wall   ratio | op refs");
for (const [shape, make] of Object.entries(SHAPES).filter(([name]) => shapes.includes(name))) {
  for (const kb of sizes) {
    const text = make(kb * 1000);
    const parse: { cpu: number; wall: number }[] = [];
    const facts: { cpu: number; wall: number }[] = [];
    let refs = 0;
    for (let i = 0; i < runs; i++) {
      parse.push(time(() => ts.createSourceFile("dist/bundle.js", text, PARSE_OPTIONS, false, ts.ScriptKind.JS)));
      facts.push(time(() => { refs = readFacts("dist/bundle.js", text).opRefs.length; }));
    }
    const pc = median(parse.map((x) => x.cpu)), fc = median(facts.map((x) => x.cpu));
    const pw = median(parse.map((x) => x.wall)), fw = median(facts.map((x) => x.wall));
    const n = (x: number, w: number) => x.toFixed(0).padStart(w);
    const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`.padStart(7);
    console.log(`${shape.padEnd(7)} ${`${(text.length / 1e6).toFixed(2)} MB`.padEnd(8)} ${n(pc, 9)} ${n(fc, 10)} ${ratio(fc, pc)} | ${n(pw, 10)} ${n(fw, 11)} ${ratio(fw, pw)} | ${n(refs, 7)}`);
  }
}
