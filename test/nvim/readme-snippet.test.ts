/**
 * The Neovim snippet of the language server's README (server/README.md, "Editors"), run as a user
 * pastes it: headless Neovim (`readme-snippet.lua` beside this file), started from a folder outside
 * the company's repository, opens a workflow source of a company in a subfolder of the repository
 * (a monorepo), the package's command installed at the repository's top (`node_modules/.bin`, as
 * npm links it). The server it starts is that one, for that company, and the file's problem
 * arrives. Without the package installed, it says so and starts nothing: no `npx`, which outside
 * the repository would fetch whatever the registry holds under that name.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { SERVER } from "../support/lsp.ts";
import { parseFixture } from "../support/fixture.ts";

const REPO = join(dirname(SERVER), "..");
const LUA = join(REPO, "test", "nvim", "readme-snippet.lua");
const PACKAGE_SERVER = join(REPO, "server", "bin", "sanoma-language-server.js");

const COMPANY = `
//- /sanoma.config.ts
import { defineConfig } from "@sanoma-ai/workflows";
export default defineConfig({ name: "acme" });
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const orders = collection({ key: "id", fields: { id: "string" } });
//- /workflows/nightly.ts
export async function nightly(ctx: any) {
  await ctx.call("data.ordrs.get", {});
}
`;

interface Out {
  notifications: { message: string; level: number }[];
  clients: { name: string; cmd: string[]; root_dir: string }[];
  diagnostics: { lnum: number; col: number; code: string; source: string }[];
  errors: string[];
  filetype?: string;
}

const hasNvim = spawnSync("nvim", ["--version"], { stdio: "ignore" }).status === 0;

describe("the README's Neovim snippet", { skip: hasNvim ? false : "nvim is not installed (scripts/setup-test-env.sh installs it)" }, () => {
  let top = "";
  let snippet = "";
  before(() => {
    assert.ok(existsSync(join(REPO, "server", "dist", "sanoma.js")), "the package's bundle is missing: run node scripts/build.mjs first");
    top = realpathSync(mkdtempSync(join(tmpdir(), "sanoma-nvim-readme-")));
    const readme = readFileSync(join(REPO, "server", "README.md"), "utf8");
    const m = /Neovim \(0\.8 or later\):\n\n```lua\n([\s\S]*?)```/.exec(readme);
    assert.ok(m, "server/README.md has a Neovim snippet");
    snippet = join(top, "snippet.lua");
    writeFileSync(snippet, m[1]);
  });
  after(() => { if (top) rmSync(top, { recursive: true, force: true }); });

  /** A repository with the company at `acme/`, and the package's command installed at its top when `installed`; Neovim run from elsewhere on its workflow source. */
  async function run(name: string, installed: boolean): Promise<{ out: Out; repo: string; log: string }> {
    const repo = join(top, name);
    for (const [rel, text] of Object.entries(parseFixture(COMPANY).files)) {
      mkdirSync(dirname(join(repo, "acme", rel)), { recursive: true });
      writeFileSync(join(repo, "acme", rel), text);
    }
    writeFileSync(join(repo, "package.json"), JSON.stringify({ name, private: true }));
    if (installed) {
      mkdirSync(join(repo, "node_modules", ".bin"), { recursive: true });
      symlinkSync(PACKAGE_SERVER, join(repo, "node_modules", ".bin", "sanoma-language-server"));
    }
    const home = join(top, `${name}-home`);
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const k of ["CONFIG", "DATA", "STATE", "CACHE"]) { env[`XDG_${k}_HOME`] = join(home, k.toLowerCase()); mkdirSync(env[`XDG_${k}_HOME`]!, { recursive: true }); }
    // Neither npm's nor npx's: a PATH where `npx` would fail loudly were it started.
    env.PATH = `${dirname(process.execPath)}:/usr/bin:/bin`;
    const elsewhere = join(top, `${name}-elsewhere`);
    mkdirSync(elsewhere);
    const config = { snippet, file: join(repo, "acme", "workflows", "nightly.ts"), out: join(home, "out.json"), expectDiagnostics: installed, waitMs: 30_000, quietMs: 1_500 };
    writeFileSync(join(home, "config.json"), JSON.stringify(config));
    const nvim = spawn("nvim", ["--headless", "-n", "-i", "NONE", "--noplugin", "-u", LUA], { cwd: elsewhere, env: { ...env, SANOMA_NVIM_CONFIG: join(home, "config.json") }, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    nvim.stdout.on("data", () => undefined);
    nvim.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => {
      const t = setTimeout(() => nvim.kill("SIGKILL"), 60_000);
      nvim.on("exit", (c) => { clearTimeout(t); resolve(c); });
    });
    const lspLog = join(env.XDG_CACHE_HOME!, "nvim", "lsp.log");
    const log = `nvim exited ${code}\nstderr: ${stderr.slice(-2000)}\nlsp.log: ${existsSync(lspLog) ? readFileSync(lspLog, "utf8").slice(-3000) : "(none)"}`;
    assert.ok(existsSync(config.out), log);
    return { out: JSON.parse(readFileSync(config.out, "utf8")), repo, log };
  }

  test("Neovim started outside the repository: the server installed at the repository's top runs, for the company, and the file's problem arrives", async () => {
    const { out, repo, log } = await run("installed", true);
    assert.deepEqual(out.errors, [], log);
    assert.equal(out.filetype, "typescript");
    assert.deepEqual(out.clients, [{ name: "sanoma", cmd: [join(repo, "node_modules", ".bin", "sanoma-language-server"), "--stdio"], root_dir: join(repo, "acme") }], log);
    assert.deepEqual(out.diagnostics.map((d) => [d.lnum, d.code, d.source]), [[1, "collection-op", "sanoma"]], log);
    assert.deepEqual(out.notifications, []);
  });

  test("without the package installed: it says what to install, and starts nothing (no npx)", async () => {
    const { out, repo, log } = await run("bare", false);
    assert.deepEqual(out.errors, [], log);
    assert.deepEqual(out.clients, [], "no server started");
    assert.equal(out.notifications.length, 1, log);
    assert.equal(out.notifications[0].message, `sanoma: no node_modules/.bin/sanoma-language-server in ${join(repo, "acme")} or above it (npm install --save-dev @sanoma-ai/language-server)`);
    assert.equal(out.notifications[0].level, 3, "a warning (vim.log.levels.WARN)");
  });
});
