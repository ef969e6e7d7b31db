/**
 * The `container` tier (SPEC B4): each box a container of a real OCI engine, podman (or docker,
 * whose CLI takes the same words), driven through its command line.
 *
 * - **The image needs no registry.** By default the tier makes `localhost/sanoma-box:<v>` once
 *   (`import` of a small tar: the top folders, the `/bin -> usr/bin` links, `/etc/passwd`) and
 *   mounts the machine's own `/usr` read-only into every container: its bash, Node and tools
 *   run inside. `sanoma.boxes.image` names another image instead (it must hold `bash`).
 * - **The box's container**: `sanoma-box-<tag>`, labelled with the boxes folder and the server
 *   that made it, started with an init that only waits and reaps; the home and the box's
 *   temporary folder bind-mounted read-write at their own paths, the company's `node_modules`
 *   (the one the preview's sync links the home to, worked out from the company root) read-only; no network (`--network none`); every capability
 *   dropped, no-new-privileges; memory and process limits from the settings; `nofile`/`nproc`
 *   ulimits within the server's own hard limits (an engine's defaults can exceed them, and the
 *   runtime then fails to start anything).
 * - **Runs** are `exec`s into it, each through a wrapper that marks the command's start on
 *   stderr (`STARTED_MARK`): the engine's own failure before it is the run's `error`.
 * - **Stop and discard** remove the container (`rm -f`): no process of it outlives them.
 *   Containers left by a server that was killed are removed by the next server that opens the
 *   boxes folder (`reapOrphans`).
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { readProc } from "./procfs.ts";
import { STARTED_MARK } from "./run.ts";
import { BASE_PATH, bash, type ContainerEngine, type SpawnPlan } from "./tiers.ts";

/** The default image: made here from a skeleton, `/usr` mounted from the machine. */
export const DEFAULT_IMAGE = "localhost/sanoma-box:1";

export interface ContainerSettings {
  /** An image to use instead of the default one made here. */
  image?: string;
  /** Memory limit in MiB. */
  memoryMiB?: number;
  /** Process (pids) limit. */
  processes?: number;
}

export const DEFAULT_MEMORY_MIB = 2048;
export const DEFAULT_PROCESSES = 1024;


/**
 * The environment the engine's CLI runs with: what it needs to find its configuration and its
 * service, never the server's whole environment (a box's command gets only `--env` flags).
 */
export function engineEnv(): Record<string, string> {
  const env: Record<string, string> = { PATH: BASE_PATH, HOME: os.homedir() };
  for (const key of ["XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "CONTAINERS_CONF", "CONTAINERS_STORAGE_CONF", "CONTAINER_HOST", "DOCKER_HOST", "TMPDIR"]) {
    const value = process.env[key];
    if (value) env[key] = value;
  }
  return env;
}

/** A failed engine command: its own words. */
export class EngineError extends Error {}

/** Runs the engine's CLI; resolves with its stdout, rejects with its stderr as an `EngineError`. */
export function engine(e: ContainerEngine, args: string[], input?: Buffer | NodeJS.ReadableStream, cwd?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(e.file, args, { env: engineEnv(), cwd, stdio: [input ? "pipe" : "ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr?.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", (error) => reject(new EngineError(`${e.name} could not be started: ${error.message}`)));
    child.on("close", (code) => {
      if (code === 0) resolve(out);
      else reject(new EngineError(`${e.name} ${args[0]} failed: ${(err.trim() || `exit ${code}`).split("\n").slice(-3).join(" ")}`));
    });
    if (input && child.stdin) {
      child.stdin.on("error", () => {});
      if (Buffer.isBuffer(input)) child.stdin.end(input);
      else input.pipe(child.stdin);
    }
  });
}

/** The server's hard limits of open files and processes (`ulimit -Hn`, `-Hu`), which a container's may not pass. */
let hardLimits: { nofile: number; nproc: number } | undefined;
function limits(): { nofile: number; nproc: number } {
  if (hardLimits) return hardLimits;
  const r = spawnSync(bash(), ["-c", "ulimit -Hn; ulimit -Hu"], { encoding: "utf8", env: { PATH: BASE_PATH } });
  const [n, u] = (r.stdout ?? "").trim().split("\n").map((x) => (x === "unlimited" ? Infinity : Number(x)));
  return (hardLimits = { nofile: Number.isFinite(n) && n! > 0 ? Math.min(n!, 65536) : 1024, nproc: Number.isFinite(u) && u! > 0 ? Math.min(u!, 65536) : 4096 });
}

const images = new Map<string, Promise<void>>();

/** Makes the default image, once per engine and process (and never when it is there). */
export function ensureDefaultImage(e: ContainerEngine): Promise<void> {
  let made = images.get(e.file);
  if (!made) {
    made = (async () => {
      const exists = await engine(e, ["image", "inspect", "--format", "{{.Id}}", DEFAULT_IMAGE]).then(() => true, () => false);
      if (exists) return;
      await engine(e, ["import", "--message", "sanoma box: the machine's /usr is mounted read-only at run", "-", DEFAULT_IMAGE], skeletonTar());
    })();
    made.catch(() => images.delete(e.file)); // tried again next time
    images.set(e.file, made);
  }
  return made;
}

/**
 * The default image's files, as a tar made in memory: the top folders, the machine's own links of
 * `/bin`, `/lib`, ... into `/usr` (merged /usr), and a passwd file naming root.
 */
function skeletonTar(): Buffer {
  const entries: Array<{ name: string; type: "dir" | "link" | "file"; target?: string; text?: string }> = [];
  for (const dir of ["dev", "proc", "sys", "tmp", "etc", "home", "root", "run", "usr", "var", "var/tmp", "mnt"]) entries.push({ name: dir, type: "dir" });
  for (const name of ["bin", "sbin", "lib", "lib32", "lib64", "libx32"]) {
    try {
      const target = fs.readlinkSync(`/${name}`);
      entries.push({ name, type: "link", target });
    } catch {
      // not a link here (no merged /usr): mounted from the machine instead, see `mounts`
    }
  }
  entries.push({ name: "etc/passwd", type: "file", text: "root:x:0:0:root:/root:/bin/bash\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n" });
  entries.push({ name: "etc/group", type: "file", text: "root:x:0:\nnogroup:x:65534:\n" });
  const blocks: Buffer[] = [];
  for (const entry of entries) {
    const body = entry.text !== undefined ? Buffer.from(entry.text) : Buffer.alloc(0);
    blocks.push(tarHeader(entry.name + (entry.type === "dir" ? "/" : ""), entry.type, body.length, entry.target));
    if (body.length > 0) blocks.push(body, Buffer.alloc((512 - (body.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

/** One ustar header. */
function tarHeader(name: string, type: "dir" | "link" | "file", size: number, target?: string): Buffer {
  const h = Buffer.alloc(512);
  const put = (text: string, at: number, len: number) => h.write(text.slice(0, len), at, "latin1");
  const octal = (n: number, len: number) => n.toString(8).padStart(len - 1, "0");
  put(name, 0, 100);
  put(octal(type === "file" ? 0o644 : 0o755, 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(size, 12), 124, 12);
  put(octal(Math.floor(Date.now() / 1000), 12), 136, 12);
  h.fill(" ", 148, 156);
  put(type === "dir" ? "5" : type === "link" ? "2" : "0", 156, 1);
  if (target) put(target, 157, 100);
  put("ustar\u000000", 257, 8);
  let sum = 0;
  for (const byte of h) sum += byte;
  put(`${sum.toString(8).padStart(6, "0")}\u0000 `, 148, 8);
  return h;
}

/** What a box's container is made from. */
export interface BoxContainer {
  /** The box's tag (`Box`): names the container. */
  tag: string;
  home: string;
  tmp: string;
  /** A hash of the boxes folder: the containers of one boxes folder, for the reaping. */
  boxesLabel: string;
  /**
   * The company's `node_modules`, mounted read-only at its own path (the box's home links to it):
   * worked out by the server from the company the box was last synced from, never read from the
   * box's link, which a run can point anywhere.
   */
  nodeModules?: string;
}

/** A boxes folder's tag: its containers' label (`sanoma.boxes=<tag>`), found again by the next server. */
export function boxesLabel(boxesDir: string): string {
  return createHash("sha256").update(path.resolve(boxesDir)).digest("hex").slice(0, 16);
}

export function containerName(tag: string): string {
  return `sanoma-box-${tag}`;
}

/** This server, as a label: its pid and start time (a later process with the pid is another server). */
export function serverLabel(): string {
  return `${process.pid}-${readProc(process.pid)?.startTicks ?? 0}`;
}

/** Read-only mounts a container needs beyond its image: the machine's /usr (default image), Node when it lives elsewhere, the company's node_modules. */
function mounts(box: BoxContainer, settings: ContainerSettings): string[] {
  const ro: string[] = [];
  if (!settings.image) {
    ro.push("/usr");
    for (const name of ["bin", "sbin", "lib", "lib64"]) {
      try {
        if (fs.lstatSync(`/${name}`).isDirectory()) ro.push(`/${name}`); // no merged /usr here
      } catch { /* none */ }
    }
    const nodeHome = path.dirname(path.dirname(process.execPath));
    if (!ro.some((m) => nodeHome === m || nodeHome.startsWith(`${m}/`))) ro.push(nodeHome);
  }
  if (box.nodeModules && fs.statSync(box.nodeModules, { throwIfNoEntry: false })?.isDirectory()) ro.push(box.nodeModules);
  const args: string[] = [];
  for (const m of ro) args.push("-v", `${m}:${m}:ro`);
  for (const rw of [box.home, box.tmp]) args.push("-v", `${rw}:${rw}:rw`);
  return args;
}

/**
 * Makes the box's container ready: running already, or made now (the image first). Rejects with
 * the engine's words (`EngineError`) when it cannot be.
 */
export async function ensureContainer(e: ContainerEngine, box: BoxContainer, settings: ContainerSettings): Promise<void> {
  const name = containerName(box.tag);
  const state = await engine(e, ["container", "inspect", "--format", "{{.State.Running}}", name]).then((s) => s.trim(), () => undefined);
  if (state === "true") return;
  if (state !== undefined) await engine(e, ["rm", "-f", name]).catch(() => undefined); // stopped: made anew
  const image = settings.image || DEFAULT_IMAGE;
  if (!settings.image) await ensureDefaultImage(e);
  const { nofile, nproc } = limits();
  const processes = settings.processes ?? DEFAULT_PROCESSES;
  const init = !settings.image && fs.existsSync("/usr/bin/catatonit") ? ["/usr/bin/catatonit", "-P"] : ["bash", "-c", "trap 'exit 0' TERM; while :; do sleep 86400 & wait $!; done"];
  markContainers(box);
  await engine(e, [
    "run", "--detach", "--rm", "--pull", "never", "--name", name,
    "--label", `sanoma.box=${box.tag}`, "--label", `sanoma.boxes=${box.boxesLabel}`, "--label", `sanoma.server=${serverLabel()}`,
    "--network", "none", "--cap-drop", "all", "--security-opt", "no-new-privileges",
    "--memory", `${settings.memoryMiB ?? DEFAULT_MEMORY_MIB}m`, "--pids-limit", String(processes),
    "--ulimit", `nofile=${nofile}:${nofile}`, "--ulimit", `nproc=${Math.min(nproc, Math.max(processes, 64))}:${Math.min(nproc, Math.max(processes, 64))}`,
    ...mounts(box, settings),
    "--workdir", box.home,
    image, ...init,
    // In the box's temporary folder: the engine's monitor (conmon) writes files where it starts
    // (an `oom` mark when the memory limit ends a process), which must land in no one's folder.
  ], undefined, box.tmp);
}

/** The `exec` of a command into the box's container: the wrapper marks its start on stderr. */
export function execPlan(e: ContainerEngine, box: BoxContainer, settings: ContainerSettings, where: { cwd: string; env: Record<string, string>; stdin: boolean }, command: string): SpawnPlan {
  const shell = settings.image ? "bash" : bash();
  const args = ["exec", ...(where.stdin ? ["--interactive"] : []), "--workdir", where.cwd];
  for (const [key, value] of Object.entries(where.env)) args.push("--env", `${key}=${value}`);
  args.push(containerName(box.tag), shell, "-c", `printf '${STARTED_MARK}' >&2; SHLVL=0 exec "$0" -c "$1"`, shell, command);
  return { file: e.file, args, statusFd: false, started: "stderr" };
}

/** `rm` of containers at once, with their anonymous volumes (docker's `rm` takes no `--time`). */
function rmArgs(e: ContainerEngine, names: string[]): string[] {
  return ["rm", "--force", ...(e.name === "podman" ? ["--time", "0"] : []), "--volumes", ...names];
}

/** Removes the box's container, and with it every process it ran. */
export async function removeContainer(e: ContainerEngine, tag: string): Promise<void> {
  await engine(e, rmArgs(e, [containerName(tag)])).catch(() => undefined);
}

/** The same, synchronously (a server that is exiting). */
export function removeContainersNow(e: ContainerEngine, tags: string[]): void {
  if (tags.length === 0) return;
  spawnSync(e.file, rmArgs(e, tags.map(containerName)), { env: engineEnv(), stdio: "ignore", timeout: 20_000 });
}

/** A file beside the boxes that says containers were made here: only then does a server start look for orphans. */
function markerOf(box: { home: string }): string {
  return path.join(path.dirname(box.home), ".runs", ".containers");
}
function markContainers(box: BoxContainer): void {
  try { fs.writeFileSync(markerOf(box), ""); } catch { /* the next start looks anyway when it can */ }
}

/**
 * Removes the containers of this boxes folder whose server is gone (killed outright: it ran no
 * code to remove them). Containers of a live server (another editor window) are left alone.
 */
export async function reapOrphans(e: ContainerEngine, boxesDir: string, boxesLabel: string): Promise<string[]> {
  if (!fs.existsSync(path.join(boxesDir, ".runs", ".containers"))) return [];
  const listed = await engine(e, ["ps", "--all", "--filter", `label=sanoma.boxes=${boxesLabel}`, "--format", "{{.Names}} {{.Labels}}"]).catch(() => "");
  const orphans: string[] = [];
  for (const line of listed.split("\n")) {
    const name = line.split(" ")[0];
    const server = /sanoma\.server[:=]([0-9]+)-([0-9]+)/.exec(line);
    if (!name || !server) continue;
    const info = readProc(Number(server[1]));
    if (info && String(info.startTicks) === server[2]) continue; // its server lives
    orphans.push(name);
  }
  if (orphans.length > 0) await engine(e, rmArgs(e, orphans)).catch(() => undefined);
  return orphans;
}

/**
 * The helper a bridge runs in the container: a unix socket (in a folder of the shared temporary
 * folder) piped to the port on its loopback. Each connection it takes first says the bridge's
 * token, which this server waits for before it sends anything.
 */
const BRIDGE_SCRIPT = [
  'const net = require("net"); const [dir, name, port, token] = process.argv.slice(1);',
  "process.chdir(dir);",
  'net.createServer((c) => { c.write(token); const u = net.connect(Number(port), "127.0.0.1"); c.pipe(u).pipe(c); u.on("error", () => c.destroy()); c.on("error", () => u.destroy()); }).listen(name);',
].join(" ");

/** How long a bridge's connection waits for the helper's token. */
const TOKEN_WAIT_MS = 5_000;

/** A box's port reachable from this machine: `url`, until `close()`. */
export interface PortBridge {
  url: string;
  close(): void;
}

/**
 * Makes a port a process of the box's container listens on (in the container's own network: it has
 * no other) reachable at `http://127.0.0.1:<port>` on this machine (another free port when that
 * one is taken): a helper in the container listens on a unix socket in the box's temporary folder,
 * which both sides see, and this server forwards its loopback port's connections to it.
 *
 * That folder is the box's to write: this server makes a new one of its own naming for each bridge
 * (never reusing, removing or following one the box made: a link there could aim a removal or a
 * connection at this machine's files), and a connection is piped only once the helper has said the
 * bridge's token: a socket the box swapped in, or a link to one of this machine's sockets, says
 * nothing of it, and is dropped before a byte of the client's reaches it.
 */
export async function bridgePort(e: ContainerEngine, box: BoxContainer, settings: ContainerSettings, port: number): Promise<PortBridge> {
  const dir = fs.mkdtempSync(path.join(box.tmp, ".port-"));
  const name = `${port}.sock`;
  const socket = path.join(dir, name);
  const token = Buffer.from(randomBytes(16).toString("hex"));
  await engine(e, ["exec", "--detach", "--workdir", "/", containerName(box.tag), settings.image ? "node" : process.execPath, "-e", BRIDGE_SCRIPT, dir, name, String(port), token.toString()]);
  for (let waited = 0; !fs.existsSync(socket); waited += 20) {
    if (waited > 10_000) throw new EngineError(`the port bridge of ${port} did not start in the box's container`);
    await new Promise((r) => setTimeout(r, 20));
  }
  // A unix socket's path is short (108 bytes): a long one is reached through a short link.
  let reach = socket;
  let link: string | undefined;
  if (Buffer.byteLength(socket) > 100) {
    link = fs.mkdtempSync(path.join(os.tmpdir(), "sb-"));
    fs.symlinkSync(dir, path.join(link, "p"));
    reach = path.join(link, "p", name);
  }
  const server = net.createServer((client) => {
    // Not even a connection to what is no socket (a link the box put in the socket's place).
    if (!fs.lstatSync(reach, { throwIfNoEntry: false })?.isSocket()) return client.destroy();
    client.pause();
    const upstream = net.connect(reach);
    const drop = () => { upstream.destroy(); client.destroy(); };
    upstream.on("error", drop);
    client.on("error", drop);
    const timer = setTimeout(drop, TOKEN_WAIT_MS);
    let said = Buffer.alloc(0);
    let piped = false;
    const onData = (chunk: Buffer) => {
      said = Buffer.concat([said, chunk]);
      if (said.length < token.length) return;
      clearTimeout(timer);
      upstream.pause();
      upstream.off("data", onData);
      if (!said.subarray(0, token.length).equals(token)) return drop();
      piped = true;
      if (said.length > token.length) client.write(said.subarray(token.length));
      client.pipe(upstream).pipe(client);
    };
    upstream.on("data", onData);
    upstream.on("close", () => {
      clearTimeout(timer);
      if (!piped) client.destroy();
    });
  });
  const listen = (at: number) => new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(at, "127.0.0.1", () => resolve((server.address() as net.AddressInfo).port));
  });
  const local = await listen(port).catch(() => listen(0));
  server.unref();
  return {
    url: `http://127.0.0.1:${local}`,
    close: () => {
      server.close();
      if (link) fs.rmSync(link, { recursive: true, force: true });
    },
  };
}
