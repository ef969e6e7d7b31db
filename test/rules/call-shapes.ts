/**
 * Seeded texts of the shapes `facts-calls.ts` reads from the tree, nested at random: operation-id
 * strings (`"data.x.y"`, quoted three ways, escaped, malformed) in calls, arrow and function
 * bodies, objects, arrays, template literals, chains (`ctx.call(…).then(…)`), conditions; and the
 * calls it reads beside them: `require`, `import()`, `defineResource`, `collection` and `secret`
 * (imported, through a namespace, shadowed by a parameter or a local). For `facts-calls.test.ts`;
 * the texts parse, but for a few broken on purpose (`brokenShapes`).
 */

/** The header every generated text opens with: the imports that make `collection`, `secret`, `d.` and `h.` calls count. */
export const HEADER = [
  `import { collection, secret } from "@sanoma-ai/workflows/data";`,
  `import * as d from "@sanoma-ai/workflows/data";`,
  `import * as h from "./helpers";`,
  `import type { T } from "data.not.op";`,
  "",
].join("\n");

const OPS = ["data.orders.get", "data.orders.list", "data.users.save", "data.é.ü", "data.a.b"];

/**
 * Strings written with escapes: operation references whose value only says so (an escape at their
 * start, or after `d`, `da`, `dat`, `data`; a line continuation), and others (escapes after
 * `data.`, which the text search sees; no op id; the escape of a quote).
 */
const ESCAPED = [
  `"\\x64ata.esc.aped"`, `'d\\u0061ta.esc.aped'`, `"da\\u{74}a.esc.aped"`, `"dat\\x61.esc.aped"`, "`data\\x2eesc.aped`",
  `"da\\\nta.esc.aped"`, `"data.\\x61.b"`, `"\\n"`, `'\\'data.a.b'`, `"d\\"ata.a.b"`, `"\\x64ata.not an op"`, "`\\u0064ata.a.b`",
];

/** An expression `depth` levels deep at most. */
export function expression(r: () => number, depth: number): string {
  const at = (n: number) => Math.floor(r() * n);
  const op = () => OPS[at(OPS.length)];
  const e = () => expression(r, depth - 1);
  if (depth <= 0) {
    switch (at(12)) {
      case 0: return `'${op()}'`;
      case 1: return `\`${op()}\``;
      case 2: return ESCAPED[at(ESCAPED.length)];
      case 3: return `"data.not an op"`;
      case 4: return "e.id";
      case 5: return String(at(100));
      case 6: return `/"\\d'\\/"/g`;
      default: return `"${op()}"`;
    }
  }
  switch (at(24)) {
    case 0: return `ctx.call(${e()}, { id: ${e()} })`;
    case 1: return `(e) => ${e()}`;
    case 2: return `function (e) { return ${e()}; }`;
    case 3: return `async (ctx) => { const x = await (${e()}); return x; }`;
    case 4: return `({ a: ${e()}, [${e()}]: ${e()}, ...${e()} })`;
    case 5: return `\`t\${${e()}}u\${${e()}}\``;
    case 6: return `ctx.call(${e()}).then((r) => ${e()})`;
    case 7: return `[${e()}, ${e()}, ${e()}]`;
    case 8: return `require("${op()}")`;
    case 9: return `import("./x").then(() => ${e()})`;
    case 10: return `secret("${op()}")`;
    case 11: return `((secret) => secret(${e()}))(${e()})`;
    case 12: return `collection({ name: ${e()}, key: "k", fields: { a: ${e()} } })`;
    case 13: return `d.collection({ name: "c${at(9)}" })`;
    case 14: return `h.secret(${e()})`;
    case 15: return `x.defineResource({ kind: ${e()} })`;
    case 16: return `defineResource({ id: ${e()} })`;
    case 17: return `(${e()}) ? (${e()}) : ${e()}`;
    case 18: return `(${e()}) + (${e()})`;
    case 19: return `a.b[${e()}]`;
    case 20: return `(${e()})`;
    case 21: return `new Map([[${e()}, ${e()}]])`;
    case 22: return `ctx.call(${e()}).then((r) => r.map((x) => ({ y: ${e()} }))).catch(() => ${e()})`;
    default: return e();
  }
}

/** A statement `depth` levels deep at most. */
export function statement(r: () => number, depth: number): string {
  const at = (n: number) => Math.floor(r() * n);
  const e = () => expression(r, depth);
  const s = () => statement(r, depth - 1);
  if (depth <= 0) return `f(${e()});`;
  switch (at(14)) {
    case 0: return `var a${at(99)} = ${e()};`;
    case 1: return `function f${at(99)}(e, t) { ${s()} return ${e()}; }`;
    case 2: return `if (${e()}) { ${s()} ${s()} } else { ${s()} }`;
    case 3: return `for (const secret of ${e()}) { secret(${e()}); ${s()} }`;
    case 4: return `class C${at(99)} { m() { return ${e()}; } static p = ${e()}; }`;
    case 5: return `let col${at(99)} = collection({ name: "c", key: ${e()} });`;
    case 6: return `{ const collection = ${e()}; collection(${e()}); ${s()} }`;
    case 7: return `switch (${e()}) { case 1: ${s()} default: ${s()} }`;
    case 8: return `try { ${s()} } catch (secret) { secret(${e()}); }`;
    case 9: return `(() => { ${s()} ${s()} ${s()} })();`;
    case 10: return `const { secret: s${at(99)}, ...rest } = require("./m${at(9)}");`;
    case 11: return `ctx.call(${e()}).then((r) => { ${s()} });`;
    default: return `(${e()});`;
  }
}

/** A text of `statements` top-level statements, nested up to `depth`. */
export function callShapes(r: () => number, statements: number, depth: number): string {
  const out = [HEADER];
  for (let i = 0; i < statements; i++) out.push(r() < 0.1 ? `export const col${i} = collection({ name: "c${i}", key: ${expression(r, depth)} });` : statement(r, depth));
  return out.join(r() < 0.5 ? "\n" : "");
}

/** Texts that do not parse, with operation references and calls after the error. */
export const brokenShapes = [
  `${HEADER}ctx.call("data.a.b", { id: ; ctx.call("data.c.d");`,
  `${HEADER}function f( { return "data.a.b" } secret("data.x.y"); require("m")`,
  `${HEADER}const x = \`data.a.\${ "data.b.c" ; collection({ name: "data.c.d" })`,
  `${HEADER}class { m() { "data.a.b" }}} "data.e.f"; import("x"`,
];
