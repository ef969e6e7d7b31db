/**
 * The package's language server in a real LSP client: headless Neovim 0.7 (`init.lua` beside this
 * file) starts `server/bin/sanoma-language-server.js --stdio` (as `npx sanoma-language-server
 * --stdio` does: the server in a worker thread of that process) on a fixture company, opens a file with a known problem and gets its
 * diagnostics, asks for a completion inside a `"data.` string and a hover on a resource
 * declaration, then writes a new file on disk behind Neovim's back: 0.7 has no
 * `didChangeWatchedFiles` registration, so only the server's own watcher can see it. Neovim writes
 * what it got as JSON; the assertions are here.
 *
 *   node --import tsx --test test/nvim/nvim.test.ts    (after `node scripts/build.mjs`)
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { SERVER } from "../support/lsp.ts";
import { parseFixture, removeFixture, writeFixture } from "../support/fixture.ts";
import { CLOUD_PACKAGE } from "../support/companies.ts";

/** Found from the built server's path (the repository root's dist/), so this file needs no import.meta. */
const INIT = join(dirname(SERVER), "..", "test", "nvim", "init.lua");
/** The package's command, as a Neovim user's `cmd` starts it. */
const PACKAGE_SERVER = join(dirname(SERVER), "..", "server", "bin", "sanoma-language-server.js");
/** How long Neovim may run in all, and each wait inside it (the Lua side exits on its own bound). */
const BOUND_MS = 60_000;
const WAIT_MS = 20_000;

const COMPANY = `
//- /sanoma.config.ts
import { defineConfig } from "@sanoma-ai/workflows";
export default defineConfig({ name: "acme" });
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const orders = collection({ key: "id", fields: { id: "string", total: "number" } });
//- /resources/infra.ts
import { vm } from "@hooli/cloud";
export const web = vm({ name: "web", zone: "eu-1" });
//- /apps/billing/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const invoices = collection({ key: "id", fields: { id: "string" } });
//- /workflows/nightly.ts
export async function nightly(ctx: any) {
  await ctx.call("data.ordrs.get", {});
//               ^^^^^^^^^^^^^^^^ collection-op
  const op = "data.$0";
  return op;
}
//- /sanoma.lock.json
{ "version": 1, "bindings": { "resources/infra.ts#web": { "type": "cloud.vm", "object": "cloud:vm/1" } } }
${CLOUD_PACKAGE}`;

const LATE = `export async function late(ctx: any) {
  await ctx.call("data.ordrs.list", {});
}
`;

interface NvimDiag { lnum: number; col: number; end_lnum: number; end_col: number; severity: number; message: string; source?: string; code?: string }
interface NvimOut {
  steps: Record<string, boolean>;
  errors: Record<string, string>;
  publishes: { uri: string; count: number }[];
  stopped_after_init?: boolean;
  capabilities?: { completion: boolean; hover: boolean };
  diagnostics?: NvimDiag[];
  completion?: { label: string; detail?: string }[];
  hover?: string;
  late?: NvimDiag[];
  nvim?: { major: number; minor: number };
}

const hasNvim = spawnSync("nvim", ["--version"], { stdio: "ignore" }).status === 0;

describe("Neovim 0.7 as the LSP client", { skip: hasNvim ? false : "nvim is not installed (scripts/setup-test-env.sh installs it)" }, () => {
  const fx = parseFixture(COMPANY);
  let root = "";
  let home = "";
  let out: NvimOut = { steps: {}, errors: {}, publishes: [] };
  let log = "";

  before(async () => {
    assert.ok(existsSync(join(dirname(PACKAGE_SERVER), "..", "dist", "sanoma.js")), "the package's bundle is missing: run node scripts/build.mjs first");
    root = writeFixture(fx, "sanoma-nvim-");
    // Neovim's own state goes to private folders: no user config, shada, swap or logs leak in or out.
    home = mkdtempSync(join(tmpdir(), "sanoma-nvim-home-"));
    const xdg: Record<string, string> = {};
    for (const k of ["CONFIG", "DATA", "STATE", "CACHE", "RUNTIME"]) { xdg[`XDG_${k}_HOME`] = join(home, k.toLowerCase()); mkdirSync(xdg[`XDG_${k}_HOME`], { recursive: true }); }
    xdg.XDG_RUNTIME_DIR = xdg.XDG_RUNTIME_HOME;
    delete xdg.XDG_RUNTIME_HOME;
    const cursor = fx.cursor!;
    const infra = fx.files["resources/infra.ts"].split("\n");
    const hoverLine = infra.findIndex((l) => l.startsWith("export const web"));
    const config = {
      node: process.execPath,
      server: PACKAGE_SERVER,
      root,
      out: join(home, "out.json"),
      boundMs: BOUND_MS,
      waitMs: WAIT_MS,
      requestMs: 10_000,
      problemFile: join(root, "workflows/nightly.ts"),
      completion: { file: join(root, cursor.file), line: cursor.line, character: cursor.character },
      hover: { file: join(root, "resources/infra.ts"), line: hoverLine, character: infra[hoverLine].indexOf("web") + 1 },
      late: { file: join(root, "workflows/late.ts"), text: LATE },
    };
    writeFileSync(join(home, "config.json"), JSON.stringify(config));
    const nvim = spawn("nvim", ["--headless", "-n", "-i", "NONE", "--noplugin", "-u", INIT], {
      cwd: root,
      env: { ...process.env, ...xdg, SANOMA_NVIM_CONFIG: join(home, "config.json") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    nvim.stdout.on("data", () => undefined);
    nvim.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => {
      // Past the Lua bound, something is badly stuck: kill it.
      const t = setTimeout(() => nvim.kill("SIGKILL"), BOUND_MS + 15_000);
      nvim.on("exit", (c) => { clearTimeout(t); resolve(c); });
    });
    const lspLog = join(xdg.XDG_CACHE_HOME, "nvim", "lsp.log");
    log = `nvim exited ${code}\nstderr: ${stderr.slice(-2000)}\nlsp.log: ${existsSync(lspLog) ? readFileSync(lspLog, "utf8").slice(-3000) : "(none)"}`;
    if (existsSync(config.out)) out = JSON.parse(readFileSync(config.out, "utf8"));
    out.errors ??= {};
  });

  after(() => {
    if (root) removeFixture(root);
    if (home) rmSync(home, { recursive: true, force: true });
  });

  test("nvim: the server starts with start_client, and a problem file's diagnostics arrive as the fixture marks them", () => {
    assert.equal(out.errors.init ?? out.errors.fatal ?? out.errors.bound, undefined, log);
    assert.ok(out.nvim && out.nvim.major === 0 && out.nvim.minor >= 7, `Neovim 0.7 or later, not ${JSON.stringify(out.nvim)}`);
    assert.equal(out.steps.start, true, `${out.errors.start}\n${log}`);
    assert.deepEqual(out.capabilities, { completion: true, hover: true });
    assert.equal(out.steps.diagnostics, true, `${out.errors.diagnostics}\n${log}`);
    const diags = out.diagnostics!;
    assert.deepEqual(diags.map((d) => ({ line: d.lnum, startCol: d.col, endCol: d.end_col, rule: d.code })),
      fx.expected.map((e) => ({ line: e.line, startCol: e.startCol, endCol: e.endCol, rule: e.rule })));
    assert.equal(diags[0].source, "sanoma");
    assert.equal(diags[0].severity, 1, "an error");
    assert.match(diags[0].message, /did you mean `orders`/);
  });

  test("nvim: completion inside a \"data. string offers the ops of the collections the file's scope sees", () => {
    assert.equal(out.steps.completion, true, `${out.errors.completion}\n${log}`);
    const labels = (out.completion ?? []).map((c) => c.label).sort();
    assert.deepEqual(labels, ["count", "delete", "get", "list", "save", "saveMany"].map((op) => `data.orders.${op}`).sort());
    assert.match(out.completion!.find((c) => c.label === "data.orders.saveMany")!.detail ?? "", /batch/);
  });

  test("nvim: hover on a resource declaration shows its type, contracts, fields and lock binding", () => {
    assert.equal(out.steps.hover, true, `${out.errors.hover}\n${log}`);
    const md = out.hover ?? "";
    assert.match(md, /resources\/infra\.ts#web/);
    assert.match(md, /cloud\.vm/);
    assert.match(md, /Contracts: `host`/);
    assert.match(md, /`zone` \(optional\)/);
    assert.match(md, /cloud:vm\/1/);
  });

  test("nvim: a file written on disk while Neovim runs gets its diagnostics through the server's own watcher", () => {
    assert.equal(out.steps.watcher, true, `${out.errors.watcher}\n${log}`);
    const late = out.late ?? [];
    assert.deepEqual(late.map((d) => [d.lnum, d.code]), [[1, "collection-op"]]);
    assert.ok(out.publishes.some((p) => p.uri.endsWith("/workflows/late.ts") && p.count === 1), "published for the new file");
    // Every step passed, so Neovim exited cleanly (an empty Lua table encodes as [] or {}).
    assert.deepEqual(Object.keys(out.errors), [], log);
  });
});
