/**
 * The editor against CI, at random: the built server over stdio takes a seeded run of what an
 * editor and the disk do to a company (buffers opened, typed in and closed, files written and
 * deleted on disk and reported through `workspace/didChangeWatchedFiles`, folders deleted and
 * checked out again, the config, the lockfile and a connector package edited, a nested company
 * made and dissolved), and at checkpoints, once it is idle, what it has published (the last
 * diagnostics per file) must be exactly what `sanoma-check` prints for the effective company: the
 * disk with every open buffer's text in place of its file. Guards "stale diagnostics" and "the
 * editor says something else than CI".
 *
 * A buffer of a file that is not on disk (a new, unsaved file) counts, as the server has it (an
 * editor's text wins over disk, even over no file); in the effective company it is a file. Left
 * out on purpose, as differences the server means to have (docs/decisions.md): buffers of files
 * under `node_modules` (an open package file changes nothing) and a buffer of a nested
 * `sanoma.config.ts` not on disk (company roots are found on disk): those are changed on disk only.
 *
 * A failure names the seed and the operations; replay one with
 *   SANOMA_SEED=<seed> [SANOMA_OPS=<n>] node --import tsx --test test/server/random-edits.test.ts
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { LspClient } from "../support/lsp.ts";
import { withServer } from "../support/server.ts";
// @ts-expect-error the benchmark's generator is plain JavaScript
import { rng } from "../../bench/generate.mjs";

const REPO = resolve(import.meta.dirname, "..", "..");
const NAME = "acme-broken";
const EXAMPLE = join(REPO, "examples", NAME);
const SEVERITY = ["", "error", "warning", "info", "hint"];

const CONFIG = "sanoma.config.ts";
const LOCK = "sanoma.lock.json";
const PACKAGE_FILE = "node_modules/@acme-vendors/fly/dist/extras.js";
/** A company inside the company: made and dissolved on disk only (a config in a buffer makes no company). */
const NESTED_CONFIG = "apps/newapp/sanoma.config.ts";

/** Files that are not there at the start: new files, a new app, a deeper folder, a dot folder the walk skips. */
const NEW_FILES = [
  "resources/new.ts", "apps/support/resources/extra.ts", "workflows/new.ts", "apps/newapp/resources/data.ts",
  "apps/newapp/workflows/w.ts", "resources/sub/deep.ts", "scenarios/new.ts", "workflows/.draft/x.ts",
];
/** Folders deleted whole (one watcher event for the folder) and checked out again. */
const FOLDERS = ["apps/support", "apps/billing/resources", "workflows", "apps/newapp", "resources/sub"];

/** Lines that cause (or cure) problems of every rule, inserted and removed whole. */
const SNIPPETS = [
  `import * as fly2 from "@acme-vendors/fly";\nexport const extraHook = fly2.webhook({ path: "/x", signingKey: null });\n`,
  `import * as fly3 from "@acme-vendors/fly";\nexport const extraBox = fly3.sandbox({ image: "x" });\n`,
  `import { machine as m2 } from "@acme-vendors/fly";\nexport const api = m2({ nmae: "api", region: "ams" });\n`,
  `import * as fly4 from "@acme-vendors/fly";\nexport const typo = fly4.machne({ name: "t" });\n`,
  `import neon2 from "@acme-vendors/neon";\nexport const db2 = neon2.database({ name: "two" });\n`,
  `import { collection as c2 } from "@sanoma-ai/workflows/data";\nexport const invoices = c2({ key: "idd", fields: { id: "string" } });\n`,
  `import { collection as c3 } from "@sanoma-ai/workflows/data";\nexport const tickets = c3({ key: "id", fields: { id: "string" } });\n`,
  `import { collection as c4 } from "@sanoma-ai/workflows/data";\nexport const notes = c4({ name: "orders", key: "id", fields: { id: "string" } });\n`,
  `export const f1 = (ctx: any) => ctx.call("data.orders.sav", {}) && ctx.call("data.tickets.get", {}) && ctx.call("data.invoices.list", {});\n`,
  `export const f2 = ["data.customers.count", \`data.notes.get\`, "data.orders.saveMany"];\n`,
  `import { secret as s2 } from "@sanoma-ai/workflows/resources";\nexport const k = s2("NOPE_KEY");\n`,
  `import { secret as s3 } from "@sanoma-ai/workflows";\nexport const k3 = s3("SIGNING_KEY");\n`,
  `export const broken = ;\n`,
  `import { invoiceNumber as n2 } from "../../billing/lib/numbers";\n`,
  `import { charge as ch } from "../apps/billing/workflows/charge";\n`,
  `import { far } from "../../../../../outside/far";\n`,
  `import "../workflows/nightly";\nimport "../scenarios/nightly";\n`,
  `export { formatCents } from "../lib/money";\n`,
];
/** Small fixes and their undoing: each applied one way or the other. */
const FLIPS: [string, string][] = [
  ["data.orders.lst", "data.orders.list"],
  ["sise:", "size:"],
  ["fly.machin(", "fly.machine("],
  ["SIGNING_KEYS", "SIGNING_KEY"],
  [`key: "orderID"`, `key: "orderId"`],
  ["../../billing/lib/numbers", "../lib/numbers"],
  ["export const orders = collection({ key", "export const payments = collection({ key"],
  ["data.tickets.count", "data.customers.count"],
  ["stateless: true,", "stateless: false,"],
  ["vendorless: true", "vendorless: false"],
  ["export const db =", "export const dbx ="],
  [`import { collection } from "@sanoma-ai/workflows/data"; // expect`, `import { collection } from "@sanoma-ai/workflows"; // expect`],
];
const CONFIG_VARIANTS = [
  `export default { name: "acme-broken" };\n`,
  `import { defineConfig } from "@sanoma-ai/workflows";\nexport default defineConfig({ name: "acme-broken", secrets: { bindings: { SIGNING_KEYS: { env: "SK" }, NOPE_KEY: { host: true }, A: { env: "X", host: true }, B: { env: "X", host: true } } } });\n`,
  `export default { name: "acme-broken", secrets: { bindings: cond ? {} : { SIGNING_KEY: { env: "A" } } } };\n`,
  `export default defineConfig({ name: "acme-broken", secrets: { bindings: { \n`,
];
/** The connector package: as shipped, without the webhook's wakeup, without the sandbox type, a type renamed. */
const PACKAGE_VARIANTS: ((text: string) => string)[] = [
  (t) => t,
  (t) => t.replace(`wakeup: { verify: "hmac" },`, ""),
  (t) => t.replace("export const sandbox = ", "const sandbox = "),
  (t) => t.replace(`type: "queue"`, `type: "fifo"`),
];

const pick = <T>(r: () => number, list: readonly T[]): T => list[Math.floor(r() * list.length)];

function listFiles(dir: string, under = ""): string[] {
  const out: string[] = [];
  for (const e of readdirSync(join(dir, under), { withFileTypes: true })) {
    const rel = under ? `${under}/${e.name}` : e.name;
    if (e.name === "node_modules") continue;
    if (e.isDirectory()) out.push(...listFiles(dir, rel));
    else out.push(rel);
  }
  return out;
}

function mutateCode(text: string, original: string | undefined, r: () => number): string {
  const roll = r();
  if (roll < 0.1) return original ?? "";
  if (roll < 0.3) {
    const flips = FLIPS.filter(([a, b]) => text.includes(a) || text.includes(b));
    if (flips.length) {
      const [a, b] = pick(r, flips);
      return text.includes(a) ? text.replace(a, b) : text.replace(b, a);
    }
  }
  if (roll < 0.45) {
    const present = SNIPPETS.filter((s) => text.includes(s));
    if (present.length) return text.replace(pick(r, present), "");
  }
  if (roll < 0.5 && text.length > 0) return text.slice(0, Math.floor(r() * text.length)); // half typed
  // A snippet at a line boundary: the problems below it move down.
  const lines = text.split("\n");
  const at = Math.floor(r() * lines.length);
  return [...lines.slice(0, at), pick(r, SNIPPETS).replace(/\n$/, ""), ...lines.slice(at)].join("\n");
}

function mutateLock(text: string, original: string, r: () => number): string {
  const roll = r();
  if (roll < 0.2) return original;
  const lines = text.split("\n");
  const i = Math.floor(r() * lines.length);
  if (roll < 0.35 && text.includes(`"bindings": {`)) {
    const key = pick(r, ["resources/new.ts#extraHook", "resources/infra.ts#api", "apps/newapp/resources/data.ts#x", "workflows/new.ts#f1"]);
    return text.replace(`"bindings": {`, `"bindings": {\n    "${key}": { "type": "fly.machine", "object": "fly:machine/${Math.floor(r() * 3)}" },`);
  }
  if (roll < 0.5 && lines[i].includes(`"type"`)) lines[i] = lines[i].replace(/"type": "[^"]*"/, `"type": "fly.webhook"`);
  else if (roll < 0.65 && lines[i].includes(`"object"`)) lines[i] = lines[i].replace(/"object": "[^"]*"/, `"object": "fly:queue/billing"`);
  else if (roll < 0.72) return text.slice(0, Math.floor(text.length / 2)); // not JSON any more
  else if (roll < 0.76) return `{ "version": 2, "bindings": {} }\n`;
  else lines.splice(i, 1);
  return lines.join("\n");
}

/** `file:line:col-endLine:endCol severity rule message`, file relative to the company folder. */
function fromCheck(root: string): string[] {
  const r = spawnSync(process.execPath, [join(REPO, "dist/check.js"), root, "--format", "json"], { encoding: "utf8", timeout: 60000 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`sanoma-check exited ${r.status}: ${r.stderr}`);
  return JSON.parse(r.stdout).problems.map((p: any) => `${relative(root, p.file)}:${p.line}:${p.column}-${p.endLine}:${p.endColumn} ${p.severity} ${p.rule} ${p.message}`).sort();
}

function fromServer(c: LspClient, root: string): string[] {
  const out: string[] = [];
  for (const [u, diags] of c.diagnostics) {
    const file = relative(root, fileURLToPath(u));
    for (const d of diags) out.push(`${file}:${d.range.start.line + 1}:${d.range.start.character + 1}-${d.range.end.line + 1}:${d.range.end.character + 1} ${SEVERITY[d.severity!]} ${d.code} ${d.message}`);
  }
  return out.sort();
}

function difference(server: string[], cli: string[]): string {
  const missing = cli.filter((x) => !server.includes(x));
  const extra = server.filter((x) => !cli.includes(x));
  return [...missing.map((x) => `  only in sanoma-check: ${x}`), ...extra.map((x) => `  only in the server:   ${x}`)].join("\n") ||
    `  the same problems, different counts:\n    server ${server.length}, sanoma-check ${cli.length}`;
}

async function run(seed: number, operations: number): Promise<{ checkpoints: number; problems: Set<string> }> {
  const r: () => number = rng(seed);
  const base = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-random-edits-")));
  const root = join(base, "editor", NAME);
  const effective = join(base, "ci", NAME);
  cpSync(EXAMPLE, root, { recursive: true });
  const original = new Map<string, string>();
  for (const rel of listFiles(root)) original.set(rel, readFileSync(join(root, rel), "utf8"));
  const packageOriginal = readFileSync(join(root, PACKAGE_FILE), "utf8");
  const paths = [...[...original.keys()].filter((p) => p.endsWith(".ts") || p === LOCK), ...NEW_FILES];

  const open = new Map<string, string>(); // rel → the buffer's text
  const requests: Promise<unknown>[] = [];
  const log: string[] = [];
  const seen = new Set<string>();
  let checkpoints = 0;
  const abs = (rel: string) => join(root, rel);
  const onDisk = (rel: string) => existsSync(abs(rel)) && statSync(abs(rel)).isFile();
  const disk = (rel: string) => (onDisk(rel) ? readFileSync(abs(rel), "utf8") : undefined);
  const write = (rel: string, text: string) => { mkdirSync(dirname(abs(rel)), { recursive: true }); writeFileSync(abs(rel), text); };

  /** What the file's text becomes when edited, by its kind. */
  const edit = (rel: string, text: string | undefined): string => {
    if (rel === CONFIG) return r() < 0.3 ? original.get(CONFIG)! : pick(r, [...CONFIG_VARIANTS, original.get(CONFIG)!.replace("SIGNING_KEY:", "SIGNING_KEYS:")]);
    if (rel === LOCK) return mutateLock(text ?? original.get(LOCK)!, original.get(LOCK)!, r);
    return mutateCode(text ?? "", original.get(rel), r);
  };

  const replay = (i: number) => `seed ${seed}, after operation ${i} of ${operations} (replay: SANOMA_SEED=${seed} SANOMA_OPS=${i} node --import tsx --test test/server/random-edits.test.ts)`;

  return withServer({ path: base }, async ({ c }) => {
    const checkpoint = async (i: number) => {
      await Promise.all(requests.splice(0));
      await c.waitIdle();
      rmSync(effective, { recursive: true, force: true });
      cpSync(root, effective, { recursive: true });
      for (const [rel, text] of open) { mkdirSync(dirname(join(effective, rel)), { recursive: true }); writeFileSync(join(effective, rel), text); }
      const cli = fromCheck(effective);
      const server = fromServer(c, root);
      checkpoints++;
      for (const p of cli) seen.add(p.replace(/^(\S+?):.*? (error|warning|info|hint) (\S+) .*$/, "$3"));
      if (JSON.stringify(server) !== JSON.stringify(cli)) {
        assert.fail(`the server's diagnostics differ from sanoma-check's, ${replay(i)}\n${difference(server, cli)}\n` +
          `open buffers: ${[...open.keys()].join(", ") || "none"}\noperations:\n${log.map((l) => `  ${l}`).join("\n")}`);
      }
      const failures = c.notifications.filter((n) => n.method === "window/logMessage" && /failed/.test((n.params as { message: string }).message));
      assert.deepEqual(failures, [], `the server logged failures, ${replay(i)}`);
    };

    // An editor restoring its tabs opens some at once, before the first index ends.
    for (let n = Math.floor(r() * 3); n > 0; n--) {
      const rel = pick(r, paths.filter((p) => !open.has(p)));
      const text = disk(rel) ?? edit(rel, undefined);
      open.set(rel, text);
      c.open(abs(rel), text, rel.endsWith(".json") ? "json" : "typescript");
      log.push(`0. open ${rel} while indexing${onDisk(rel) ? "" : " (not on disk)"}`);
    }
    await checkpoint(0);
    let nextCheckpoint = 6 + Math.floor(r() * 8);
    for (let i = 1; i <= operations; i++) {
      const roll = r();
      const closed = paths.filter((p) => !open.has(p));
      if ((roll < 0.18 && closed.length > 0) || (roll < 0.5 && open.size === 0)) {
        // Open a file: its disk text, or a new unsaved file's.
        const rel = pick(r, closed);
        let text = disk(rel);
        const note = text === undefined ? " (not on disk)" : "";
        text ??= edit(rel, undefined);
        open.set(rel, text);
        c.open(abs(rel), text, rel.endsWith(".json") ? "json" : "typescript");
        log.push(`${i}. open ${rel}${note}`);
      } else if (roll < 0.45) {
        // Type in an open buffer.
        const rel = pick(r, [...open.keys()]);
        const text = edit(rel, open.get(rel));
        open.set(rel, text);
        c.change(abs(rel), text);
        log.push(`${i}. change ${rel} (buffer, ${text.length} chars)`);
      } else if (roll < 0.53 && open.size > 0) {
        // Close a buffer: the disk's text counts again.
        const rel = pick(r, [...open.keys()]);
        open.delete(rel);
        c.close(abs(rel));
        log.push(`${i}. close ${rel}`);
      } else if (roll < 0.57 && open.size > 0) {
        // Save a buffer: its text on disk, reported by the watcher.
        const rel = pick(r, [...open.keys()]);
        const existed = onDisk(rel);
        write(rel, open.get(rel)!);
        c.watched([{ file: abs(rel), type: existed ? 2 : 1 }]);
        log.push(`${i}. save ${rel}`);
      } else if (roll < 0.72) {
        // Written on disk by something else (a generator, git), open in the editor or not.
        const rel = pick(r, paths);
        const existed = onDisk(rel);
        write(rel, edit(rel, disk(rel)));
        c.watched([{ file: abs(rel), type: existed ? 2 : 1 }]);
        log.push(`${i}. write ${rel} on disk${existed ? "" : " (created)"}${open.has(rel) ? " (open)" : ""}`);
      } else if (roll < 0.79 && paths.some((p) => p !== CONFIG && onDisk(p))) {
        const rel = pick(r, paths.filter((p) => p !== CONFIG && onDisk(p)));
        rmSync(abs(rel));
        c.watched([{ file: abs(rel), type: 3 }]);
        log.push(`${i}. delete ${rel} on disk${open.has(rel) ? " (open)" : ""}`);
      } else if (roll < 0.86) {
        // A folder deleted (one event for the folder, as VS Code reports it), or checked out again.
        const folder = pick(r, FOLDERS);
        if (existsSync(abs(folder)) && r() < 0.6) {
          const each = r() < 0.4 ? listFiles(root, folder) : [];
          rmSync(abs(folder), { recursive: true });
          c.watched([{ file: abs(folder), type: 3 }, ...each.map((f) => ({ file: abs(f), type: 3 as const }))]);
          log.push(`${i}. delete folder ${folder} on disk${each.length ? " (and each file reported)" : ""}`);
        } else {
          const existed = existsSync(abs(folder));
          for (const [rel, text] of original) if (rel.startsWith(folder + "/") && !onDisk(rel)) write(rel, text);
          mkdirSync(abs(folder), { recursive: true });
          c.watched([{ file: abs(folder), type: existed ? 2 : 1 }]);
          log.push(`${i}. check out folder ${folder} on disk${existed ? " (was there)" : ""}`);
        }
      } else if (roll < 0.9) {
        const variant = Math.floor(r() * PACKAGE_VARIANTS.length);
        writeFileSync(abs(PACKAGE_FILE), PACKAGE_VARIANTS[variant](packageOriginal));
        c.watched([{ file: abs(PACKAGE_FILE), type: 2 }]);
        log.push(`${i}. write ${PACKAGE_FILE} (variant ${variant})`);
      } else if (roll < 0.96) {
        // A company inside the company, made or dissolved.
        if (onDisk(NESTED_CONFIG)) {
          rmSync(abs(NESTED_CONFIG));
          c.watched([{ file: abs(NESTED_CONFIG), type: 3 }]);
          log.push(`${i}. delete ${NESTED_CONFIG} on disk`);
        } else {
          write(NESTED_CONFIG, `export default { name: "nested" };\n`);
          c.watched([{ file: abs(NESTED_CONFIG), type: 1 }]);
          log.push(`${i}. write ${NESTED_CONFIG} on disk (created)`);
        }
      } else if (r() < 0.5) {
        // "Check Workspace Now": every company read again from disk (open buffers still win).
        requests.push(c.request("workspace/executeCommand", { command: "sanoma.checkWorkspace", arguments: [] }));
        log.push(`${i}. check workspace now`);
      } else {
        c.notify("workspace/didChangeConfiguration", { settings: null });
        log.push(`${i}. settings changed (to the same)`);
      }
      // Now and then the server gets a moment before the next operation: checks start mid-burst.
      if (r() < 0.15) await new Promise((res) => setTimeout(res, Math.floor(r() * 30)));
      if (i === nextCheckpoint || i === operations) {
        await checkpoint(i);
        log.push(`-- checkpoint ${checkpoints}: the same problems`);
        nextCheckpoint = i + 6 + Math.floor(r() * 8);
      }
    }
    return { checkpoints, problems: seen };
  }, { folders: [root], idle: false });
}

const SEEDS = process.env.SANOMA_SEED ? [Number(process.env.SANOMA_SEED)] : [1, 2, 3];
const OPERATIONS = process.env.SANOMA_OPS ? Number(process.env.SANOMA_OPS) : 60;

for (const seed of SEEDS) {
  test(`random edits: after ${OPERATIONS} seeded editor and disk operations (seed ${seed}), the server publishes what sanoma-check prints for the effective company`, async (t) => {
    const { checkpoints, problems } = await run(seed, OPERATIONS);
    t.diagnostic(`${checkpoints} checkpoints agreed; rules seen: ${[...problems].sort().join(", ")}`);
    assert.ok(checkpoints >= 2);
  });
}
