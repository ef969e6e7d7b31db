// `npm start`: the extension in a real VS Code. Packages the .vsix, installs it into a local
// code-server (installed on first run, a few minutes), opens examples/acme and prints the URL to
// open in a browser. Runs until Ctrl+C, then stops code-server and everything it started.
//
//   SANOMA_PORT=8080 npm start     a fixed port (default: 8080 when free, else any free port)
//   SANOMA_FOLDER=path npm start   open another folder than examples/acme
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { e2eDir, ensureCodeServer, freePort, installExtension, makeProfile, startCodeServer } from "./code-server.mjs";

const repo = join(dirname(fileURLToPath(import.meta.url)), "..");
const folder = resolve(process.env.SANOMA_FOLDER || join(repo, "examples", "acme"));
if (!existsSync(folder)) {
  console.error(`${folder} does not exist: nothing to open (set SANOMA_FOLDER to open another folder)`);
  process.exit(1);
}

console.log("packaging the extension (npm run package)…");
const pkg = spawnSync("npm", ["run", "--silent", "package"], { cwd: repo, stdio: ["ignore", "ignore", "inherit"] });
if (pkg.status !== 0) process.exit(pkg.status || 1);
const vsix = join(repo, "sanoma.vsix");

ensureCodeServer();
// One profile kept across runs, so the editor remembers its layout; the extension is reinstalled.
const profile = makeProfile(join(e2eDir, "start-profile"), {
  "editor.minimap.enabled": false,
  // The examples import a framework that is not installed: TypeScript's own errors would bury ours.
  "typescript.validate.enable": false,
  "javascript.validate.enable": false,
});
installExtension(profile, vsix);

async function pickPort() {
  if (process.env.SANOMA_PORT) return Number(process.env.SANOMA_PORT);
  const probe = await import("node:net").then(({ createServer }) => new Promise((res) => {
    const s = createServer().once("error", () => res(false)).listen(8080, "127.0.0.1", () => s.close(() => res(true)));
  }));
  return probe ? 8080 : freePort();
}

const server = await startCodeServer({ profile, folder, port: await pickPort(), stdio: "inherit" });
console.log(`\nSanoma in VS Code: ${server.url}\n(opened ${folder}; Ctrl+C to stop)\n`);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  server.stop();
  setTimeout(() => process.exit(0), 500);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
server.child.on("exit", (code) => {
  if (!stopping) {
    console.error(`code-server exited (${code})`);
    process.exit(code || 1);
  }
});
