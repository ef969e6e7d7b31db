/**
 * Shared by the box tests: temporary folders that clean up after themselves, a company tree written
 * from one inline string, polling instead of fixed sleeps (the machine may be loaded), and finding
 * a test's own processes by a token in their command line, from outside any namespace.
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Supervisor } from "../../server/src/boxes/supervisor.ts";
import { chooseTier, SETPRIV_ARGS, type TierChoice } from "../../server/src/boxes/tiers.ts";
import { Box, type BoxContext } from "../../server/src/boxes/box.ts";
import type { BoxEvent, BoxTier } from "../../server/src/protocol.ts";

/** Both tiers, always: bubblewrap is installed by scripts/setup-test-env.sh, so none is skipped. */
export const TIERS: BoxTier[] = ["process", "namespace"];

/** The tier choice for a test, failing loudly when the namespace tier is not available. */
export function tierFor(tier: BoxTier): TierChoice {
  const choice = chooseTier(tier);
  if (choice.tier !== tier) throw new Error(`the ${tier} tier is not available here: ${choice.reason} (run scripts/setup-test-env.sh)`);
  return choice;
}

/** A fresh folder under the system's temporary folder; `cleanup()` removes every one made. */
const made: string[] = [];
export function tempDir(prefix = "sanoma-boxes-"): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  made.push(dir);
  return dir;
}
export function cleanupTempDirs(): void {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

/** A box with its own supervisor and an event recorder, for tests of `Box` itself. */
export function makeBox(tier: BoxTier, name = "box", boxesDir = tempDir()): { box: Box; events: BoxEvent[]; ctx: BoxContext } {
  const events: BoxEvent[] = [];
  const ctx: BoxContext = { boxesDir, tier: tierFor(tier), supervisor: new Supervisor(), onEvent: (e) => events.push(e), onStateChange: () => {} };
  return { box: new Box(ctx, name), events, ctx };
}

/**
 * Writes a tree given as `//- /path` headers, each followed by the file's text:
 *   //- /sanoma.config.ts
 *   export default {};
 */
export function writeTree(root: string, fixture: string): void {
  const parts = fixture.split(/^\/\/- /m).slice(1);
  for (const part of parts) {
    const newline = part.indexOf("\n");
    const rel = (newline < 0 ? part : part.slice(0, newline)).trim().replace(/^\//, "");
    const text = newline < 0 ? "" : part.slice(newline + 1);
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }
}

/** Polls `condition` every 25 ms until it holds or `ms` pass (generous by default: loaded machines). */
export async function waitFor(condition: () => boolean | Promise<boolean>, ms = 15_000, what = "the condition"): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A token unique to this test run, for `exec -a <token> sleep ...`. */
let counter = 0;
export function token(label: string): string {
  return `sanomatest-${label}-${process.pid}-${++counter}-${Date.now().toString(36)}`;
}

/** Live (not zombie) processes whose command line holds `needle`, seen from this namespace. */
export function processesWith(needle: string): number[] {
  return liveProcesses((cmdline) => cmdline.includes(needle));
}

/**
 * Live processes whose argv[0] is `name` (an `exec -a name` sleep): not the shells or wrappers
 * whose command lines merely mention it, whose number depends on the machine (script(1) runs
 * its command through `$SHELL -c`, and a dash there forks where bash execs).
 */
export function processesNamed(name: string): number[] {
  return liveProcesses((cmdline) => cmdline.split("\0", 1)[0] === name);
}

function liveProcesses(matches: (cmdline: string) => boolean): number[] {
  const pids: number[] = [];
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, "latin1");
      if (!matches(cmdline)) continue;
      const stat = fs.readFileSync(`/proc/${entry}/stat`, "latin1");
      const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
      if (state !== "Z" && state !== "X") pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** SIGKILL to every process holding `needle` (a test's cleanup of what it deliberately let escape). */
export function killAllWith(needle: string): void {
  for (const pid of processesWith(needle)) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
}

/**
 * Runs `code` (CommonJS: it may `require` the project's TypeScript, reads its input from
 * `process.argv[1]` as JSON and prints its answer as JSON) in a Node of its own, without root's
 * power over files: root reads every file whatever its mode, so when the tests run as root the
 * step runs as root with every capability dropped (`setpriv`, as the process tier runs a command),
 * which the mode bits of root's own files then bind. (Not as another user: the checkout may lie
 * in a folder only root can enter.)
 */
export function unprivileged(code: string, input: unknown): unknown {
  const node = [process.execPath, "--import", "tsx", "-e", code, JSON.stringify(input)];
  const command = process.getuid?.() === 0 ? ["setpriv", ...SETPRIV_ARGS, ...node] : node;
  const done = spawnSync(command[0]!, command.slice(1), { cwd: path.resolve(__dirname, "../.."), encoding: "utf8", env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, timeout: 60_000 });
  if (done.status !== 0) throw new Error(`the unprivileged step failed (${done.status ?? done.signal}): ${done.stderr}`);
  return JSON.parse(done.stdout);
}
