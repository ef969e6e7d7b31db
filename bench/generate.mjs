/**
 * Generates a realistic Sanoma company of N files for the benchmarks, deterministically (seeded):
 * apps with workflows, data files declaring resources of the fake `@hooli/cloud` connector package
 * (the rules' cases' CLOUD_PACKAGE, copied into the company's `node_modules`), a collections file
 * per scope, operation ids in workflow code, helper modules, some tests and scenarios, a lockfile
 * binding most declarations, and a sprinkle of real problems (typo'd op ids, cross-app imports),
 * as in a company in the middle of work. With `hot`, it adds the files the edit benchmarks toggle.
 *
 *   node bench/generate.mjs <dir> [--files 10000] [--seed 1] [--hot] [--no-lock]
 *
 * `--no-lock` leaves the lockfile out (a diagnosis aid: how much of a check is the lockfile's).
 *
 * N counts the company's own files (code files and the lockfile), not `node_modules`.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));

/** Small, fast, seeded PRNG (mulberry32): the same seed gives the same company. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The connector package files, read from the fixture source so the benchmark and the tests use one
 * fake. (A plain-node script cannot import the `.ts` module, so its template literal is read as text.)
 */
export function cloudPackageFiles() {
  const src = readFileSync(join(HERE, "..", "server", "src", "core", "rules", "case-packages.ts"), "utf8");
  const m = /export const CLOUD_PACKAGE = `([\s\S]*?)`;/.exec(src);
  if (!m) throw new Error("CLOUD_PACKAGE not found in server/src/core/rules/case-packages.ts");
  const files = {};
  let current;
  let lines = [];
  const flush = () => { if (current) files[current] = lines.join("\n").replace(/\n+$/, "") + "\n"; };
  for (const line of m[1].split("\n")) {
    const h = /^\/\/- \/(\S+)\s*$/.exec(line);
    if (h) { flush(); current = h[1]; lines = []; } else if (current) lines.push(line);
  }
  flush();
  return files;
}

const VERBS = ["sync", "reconcile", "notify", "import", "export", "audit", "refresh", "archive", "score", "route", "bill", "ship", "index", "rank", "merge"];
const NOUNS = ["orders", "invoices", "customers", "leads", "tickets", "shipments", "payments", "reports", "events", "accounts", "carts", "quotes"];
const ZONES = ["us-1", "eu-1", "eu-2", "ap-1"];
const OPS = ["get", "list", "count", "save", "saveMany", "delete"];
const ROOT_COLLECTIONS = ["orders", "customers", "invoices", "payments", "events", "accounts"];

const pick = (r, xs) => xs[Math.floor(r() * xs.length)];
const hex = (r) => Math.floor(r() * 0xffffffff).toString(16).padStart(8, "0");

function config() {
  return `import { defineConfig } from "@sanoma-ai/workflows";

/** The benchmark company: generated, deterministic, and big. */
export default defineConfig({
  name: "bench",
  description: "A generated company for the Sanoma tooling benchmarks",
  secrets: {
    bindings: {
      CLOUD_KEY: { env: "BENCH_CLOUD_KEY", host: true },
      DB_PASSWORD: { bootstrap: true },
      WEBHOOK_SECRET: { env: "BENCH_WEBHOOK_SECRET" },
    },
  },
});
`;
}

function collectionsFile(names) {
  const out = [`import { collection } from "@sanoma-ai/workflows/data";`, ""];
  for (const n of names) {
    out.push(`/** ${n}: what the workflows of this scope keep. */`);
    out.push(`export const ${n} = collection({`);
    out.push(`  key: "id",`);
    out.push(`  fields: { id: "string", status: "string", total: "number", createdAt: "date", owner: "string" },`);
    out.push(`});`, "");
  }
  return out.join("\n");
}

function appFile(app) {
  return `import { defineApp } from "@sanoma-ai/workflows";

/** The ${app} app. */
export default defineApp({
  name: "${app}",
  description: "Everything ${app} does, generated for the benchmarks",
});
`;
}

/** A data file: a few declarations, named or namespace-style, and sometimes a secret. */
function dataFile(r, scopeName, idx, decls) {
  const ns = r() < 0.3;
  const lines = [ns ? `import { cloud } from "@hooli/cloud";` : `import { vm, bucket } from "@hooli/cloud";`];
  const withSecret = r() < 0.25;
  if (withSecret) lines.push(`import { secret } from "@sanoma-ai/workflows/resources";`);
  lines.push("", `const prefix = "${scopeName}-${idx}";`, "");
  const n = 2 + Math.floor(r() * 3);
  for (let i = 0; i < n; i++) {
    const isVm = r() < 0.5;
    const name = `${isVm ? "web" : "store"}${idx}_${i}`;
    const callee = ns ? `cloud.${isVm ? "vm" : "bucket"}` : isVm ? "vm" : "bucket";
    lines.push(`/** ${isVm ? "A machine" : "A bucket"} for ${scopeName} (${i + 1} of ${n}). */`);
    if (isVm) lines.push(`export const ${name} = ${callee}({ name: \`\${prefix}-${name}\`, zone: "${pick(r, ZONES)}", disk: ${10 * (1 + Math.floor(r() * 8))} });`);
    else lines.push(`export const ${name} = ${callee}({ name: \`\${prefix}-${name}\`, public: ${r() < 0.2} });`);
    lines.push("");
    decls.push({ name, type: isVm ? "cloud.vm" : "cloud.bucket" });
  }
  if (withSecret) lines.push(`export const key${idx} = secret("${r() < 0.5 ? "CLOUD_KEY" : "WEBHOOK_SECRET"}");`, "");
  return lines.join("\n");
}

/** A workflow source: typed input, a few steps calling operations, a helper import, an exported meta. */
function workflowFile(r, name, visible, helper, badOp) {
  const a = pick(r, visible);
  const b = pick(r, visible);
  const ops = [`data.${a}.get`, `data.${b}.${pick(r, OPS)}`, `data.${pick(r, visible)}.${pick(r, OPS)}`];
  if (badOp) ops[1] = `data.${a.slice(0, -1)}.get`; // a typo: a collection-op problem
  const steps = 2 + Math.floor(r() * 4);
  const body = [];
  for (let i = 0; i < steps; i++) {
    body.push(`  // Step ${i + 1}: ${pick(r, VERBS)} the ${pick(r, NOUNS)}.`);
    body.push(`  const step${i} = await ctx.step("${pick(r, VERBS)}-${i}", async () => {`);
    body.push(`    const items = (await ctx.call("${ops[i % ops.length]}", { where: { status: "${pick(r, ["open", "paid", "late", "new"])}" }, limit: ${10 * (i + 1)} })) as Item[];`);
    body.push(`    return items.filter((x) => x.total > ${Math.floor(r() * 100)}).map((x) => ({ ...x, total: ${helper ? `${helper.fn}(x.total)` : "Math.round(x.total)"} }));`);
    body.push(`  });`);
    body.push(`  if (step${i}.length === 0) ctx.log.info("nothing to do at step ${i + 1}");`);
  }
  return `${helper ? `import { ${helper.fn} } from "${helper.spec}";\n` : ""}import type { WorkflowContext } from "@sanoma-ai/workflows";

interface Item { id: string; status: string; total: number; owner?: string }

export interface ${cap(name)}Input {
  id: string;
  since?: Date;
  dryRun?: boolean;
}

/** ${cap(pick(r, VERBS))}s ${pick(r, NOUNS)} and keeps what changed. */
export async function ${name}(ctx: WorkflowContext, input: ${cap(name)}Input): Promise<{ changed: number }> {
  const first = await ctx.call("${ops[0]}", { id: input.id });
  if (!first) throw new Error(\`no record \${input.id}\`);
${body.join("\n")}
  const changed = ${Array.from({ length: steps }, (_, i) => `step${i}.length`).join(" + ")};
  if (!input.dryRun) await ctx.call("${ops[2]}", { id: input.id, total: changed });
  return { changed };
}

export const ${name}Meta = {
  schedule: "${Math.floor(r() * 60)} ${Math.floor(r() * 24)} * * *",
  ops: ["${ops[0]}", "${ops[2]}"],
  retries: ${1 + Math.floor(r() * 4)},
};
`;
}

function libFile(r, fn, crossApp) {
  return `${crossApp ? `import { ${crossApp.fn} } from "${crossApp.spec}";\n` : ""}
/** Rounds and clamps an amount the way ${pick(r, NOUNS)} are shown. */
export function ${fn}(amount: number, digits = ${Math.floor(r() * 3)}): number {
  const f = 10 ** digits;
  const v = Math.round(amount * f) / f;
  return Math.max(0, Math.min(${1000 * (1 + Math.floor(r() * 9))}, v))${crossApp ? ` + ${crossApp.fn}(0)` : ""};
}

export const ${fn}Labels: Record<string, string> = {
  open: "Open",
  paid: "Paid",
  late: "${pick(r, ["Late", "Overdue"])}",
};

export type ${cap(fn)}Key = keyof typeof ${fn}Labels;
`;
}

function testFile(name, spec) {
  return `import { test } from "node:test";
import assert from "node:assert/strict";
import { ${name} } from "${spec}";

test("${name}: does nothing in a dry run", async () => {
  const calls: string[] = [];
  const ctx: any = { call: async (op: string) => { calls.push(op); return [{ id: "1", status: "open", total: 5 }]; }, step: (_: string, f: () => unknown) => f(), log: { info() {} } };
  const out = await ${name}(ctx, { id: "1", dryRun: true });
  assert.ok(out.changed >= 0);
  assert.ok(calls.length > 0);
});
`;
}

function scenarioFile(r, name, spec) {
  return `import { ${name} } from "${spec}";

/** A scenario: ${pick(r, NOUNS)} arriving ${pick(r, ["late", "twice", "out of order"])}. */
export const scenario = {
  workflow: ${name},
  input: { id: "${hex(r)}" },
  fakes: { "data.orders.get": [{ id: "1", status: "open", total: ${Math.floor(r() * 100)} }] },
};
`;
}

const cap = (s) => s[0].toUpperCase() + s.slice(1);

/** The root files the edit benchmarks change: a data file that may declare a second wakeup, and a workflow that may name a wrong op. */
export const HOT = {
  dataFile: "resources/hot.ts",
  /** The file whose diagnostics change too when the data file declares a second wakeup. */
  otherFile: "resources/infra.ts",
  workflowFile: "workflows/hot.ts",
  dataText(secondWakeup) {
    return `import { bucket, trigger } from "@hooli/cloud";

/** The file the cross-file edit benchmark types into. */
export const hotStore = bucket({ name: "hot-store", public: false });
${secondWakeup ? `export const wake2 = trigger({ path: "/two" });\n` : ""}`;
  },
  workflowText(badOp) {
    return `import type { WorkflowContext } from "@sanoma-ai/workflows";

/** The file the workflow edit benchmark types into. */
export async function hot(ctx: WorkflowContext, input: { id: string }) {
  const order = await ctx.call("${badOp ? "data.ordrs.get" : "data.orders.get"}", { id: input.id });
  await ctx.call("data.orders.save", { ...order, status: "seen" });
}
`;
  },
};

/**
 * Writes the company under `dir` (emptied first). Returns a manifest: the file count, how many
 * problems were planted, and the hot files' paths.
 */
export function generateCompany(dir, { files = 10_000, seed = 1, hot = false, lockfile = true } = {}) {
  const r = rng(seed);
  rmSync(dir, { recursive: true, force: true });
  const out = new Map();
  const put = (rel, text) => out.set(rel, text);

  put("sanoma.config.ts", config());
  put("resources/data.ts", collectionsFile(ROOT_COLLECTIONS));
  put("resources/infra.ts", `import { vm, trigger, runner } from "@hooli/cloud";
import { secret } from "@sanoma-ai/workflows/resources";

/** The company's one wakeup and one sandbox, and its front machine. */
export const wake = trigger({ path: "/wake" });
export const sandbox = runner({ image: "ubuntu:24.04" });
export const front = vm({ name: "front", zone: "eu-1" });
export const cloudKey = secret("CLOUD_KEY");
`);
  const decls = [{ rel: "resources/infra.ts", name: "wake", type: "cloud.trigger" }, { rel: "resources/infra.ts", name: "sandbox", type: "cloud.runner" }, { rel: "resources/infra.ts", name: "front", type: "cloud.vm" }];
  if (hot) {
    put(HOT.dataFile, HOT.dataText(false));
    put(HOT.workflowFile, HOT.workflowText(false));
    decls.push({ rel: HOT.dataFile, name: "hotStore", type: "cloud.bucket" });
  }
  const reserved = 1; // the lockfile, written last

  // Scopes: the root and one app per ~200 files, each with its collections.
  const appCount = Math.max(2, Math.round(files / 200));
  const scopes = [{ prefix: "", name: "root", collections: ROOT_COLLECTIONS, visible: ROOT_COLLECTIONS, lib: [], workflows: [], n: 0 }];
  for (let i = 0; i < appCount; i++) {
    const name = `${pick(r, NOUNS).replace(/s$/, "")}${i}`;
    const collections = [`${name}Jobs`, `${name}Notes`, `${name}Runs`];
    scopes.push({ prefix: `apps/${name}/`, name, collections, visible: [...ROOT_COLLECTIONS, ...collections], lib: [], workflows: [], n: 0 });
  }
  for (const s of scopes.slice(1)) {
    if (out.size + reserved + 2 > files) break;
    put(`${s.prefix}app.ts`, appFile(s.name));
    put(`${s.prefix}resources/data.ts`, collectionsFile(s.collections));
  }

  // Then the bulk, round-robin over scopes, by weight: workflows, data files, helpers, tests, scenarios.
  const planted = { collectionOp: 0, crossApp: 0 };
  let k = 0;
  while (out.size + reserved < files) {
    const s = scopes[k++ % scopes.length];
    const idx = s.n++;
    const roll = r();
    if (s.lib.length === 0 || (roll >= 0.55 && roll < 0.75)) {
      // Helpers (20%, and the first file of each scope). Now and then one reaches into another app:
      // a no-cross-app-import problem.
      const fn = `${pick(r, VERBS)}Amount${idx}`;
      const other = s.prefix && idx % 211 === 7 ? scopes[1 + (scopes.indexOf(s) % (scopes.length - 1))] : undefined;
      const cross = other && other !== s && other.lib[0] ? { fn: other.lib[0].fn, spec: `../../${other.name}/lib/${other.lib[0].file}` } : undefined;
      if (cross) planted.crossApp++;
      put(`${s.prefix}lib/${fn}.ts`, libFile(r, fn, cross));
      s.lib.push({ fn, file: fn });
    } else if (roll < 0.4) {
      // Workflow sources (40%); one in 97 names an op with a typo: a collection-op problem.
      const name = `${pick(r, VERBS)}${cap(pick(r, NOUNS))}${idx}`;
      const helper = pick(r, s.lib);
      const bad = idx % 97 === 13;
      if (bad) planted.collectionOp++;
      put(`${s.prefix}workflows/${name}.ts`, workflowFile(r, name, s.visible, { fn: helper.fn, spec: `../lib/${helper.file}` }, bad));
      s.workflows.push(name);
    } else if (roll < 0.55) {
      // Data files (15%).
      const file = `${s.prefix}resources/${pick(r, NOUNS)}${idx}.ts`;
      const here = [];
      put(file, dataFile(r, s.name, idx, here));
      for (const d of here) decls.push({ rel: file, ...d });
    } else if (roll < 0.9 && s.workflows.length) {
      // Tests beside the workflows (15%).
      const w = pick(r, s.workflows);
      put(`${s.prefix}workflows/${w}.${idx}.test.ts`, testFile(w, `./${w}`));
    } else if (s.workflows.length) {
      // Scenarios (10%).
      const w = pick(r, s.workflows);
      put(`${s.prefix}scenarios/${w}-${idx}.ts`, scenarioFile(r, w, `../workflows/${w}`));
    }
  }

  // The lockfile binds most declarations (those not yet applied have none).
  const bindings = {};
  for (const d of decls) if (r() < 0.85 || d.rel === "resources/infra.ts") bindings[`${d.rel}#${d.name}`] = { type: d.type, object: `${d.type.replace(".", ":")}/${hex(r)}` };
  const lock = JSON.stringify({ version: 1, bindings }, null, 2) + "\n";
  if (lockfile) put("sanoma.lock.json", lock);
  else put(`lib/padding.ts`, "export const padding = 1;\n"); // keeps the count at N

  for (const [rel, text] of out) {
    const p = join(dir, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
  }
  for (const [rel, text] of Object.entries(cloudPackageFiles())) {
    const p = join(dir, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
  }
  return { dir, files: out.size, apps: scopes.length - 1, declarations: decls.length, bindings: lockfile ? Object.keys(bindings).length : 0, lockBytes: lockfile ? lock.length : 0, planted, hot: hot ? HOT : undefined };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const dir = args.find((a, i) => !a.startsWith("--") && !/^--(files|seed)$/.test(args[i - 1] ?? ""));
  if (!dir) { console.error("usage: node bench/generate.mjs <dir> [--files N] [--seed S] [--hot] [--no-lock]"); process.exit(2); }
  const opt = (name, def) => { const i = args.indexOf(name); return i >= 0 ? Number(args[i + 1]) : def; };
  const m = generateCompany(dir, { files: opt("--files", 10_000), seed: opt("--seed", 1), hot: args.includes("--hot"), lockfile: !args.includes("--no-lock") });
  console.log(JSON.stringify({ ...m, hot: m.hot ? { dataFile: HOT.dataFile, otherFile: HOT.otherFile, workflowFile: HOT.workflowFile } : undefined }));
}
