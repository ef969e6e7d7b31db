// Box speed (issue 6), figures only, no pass/fail:
//  1. open a box and run `true`, 200 times, against bare spawn("bash", ["-c", "true"]), interleaved
//     one by one so both see the same machine load; in the process and the namespace tier.
//     Goals: within 1.5x (process) and 6x (namespace). Run by root, the process tier starts each
//     command through setpriv (issue 18): that floor, `setpriv … bash -c true`, is printed beside.
//  2. syncing a generated 10,000-file company into a fresh box against `cp -r` of the same files,
//     each after `sync` so neither pays for the other's dirty pages, the order alternating, over
//     --rounds rounds (median, and the range of the rounds' own ratios). The company has a
//     typical .gitignore, so the sync pays for matching it, but ignores none of its files: both
//     sides copy the same files. Goal: within 2x.
//  3. the container tier (issue 21), against the engine's own floor measured side by side: run
//     `true` in an open container box against `podman exec` into a running container (goal 1.2x),
//     and open of a new box (its container made) against `podman run --rm IMAGE true` (goal 1.2x);
//     --container-runs rounds each (default 20).
// Run: node bench/boxes.mjs [--runs 200] [--files 10000] [--rounds 5] [--dir /dev/shm] [--only spawn|sync|container]
// (it loads the TypeScript sources through tsx; the default --dir is the system's temporary
// folder, a disk; --dir on a tmpfs keeps a busy disk out of it)
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");

// The box code is TypeScript: run again under tsx unless we already are.
if (!process.execArgv.some((a) => a.includes("tsx"))) {
  const r = spawnSync(process.execPath, ["--import", "tsx", ...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: "inherit", cwd: root });
  process.exit(r.status ?? 1);
}

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const RUNS = arg("runs", 200);
const FILES = arg("files", 10_000);
const ROUNDS = arg("rounds", 5);
const CONTAINER_RUNS = arg("container-runs", 20);
const dirArg = process.argv.indexOf("--dir");
const BASE = dirArg > 0 ? process.argv[dirArg + 1] : os.tmpdir();
const onlyArg = process.argv.indexOf("--only");
const ONLY = onlyArg > 0 ? process.argv[onlyArg + 1] : undefined;

const { BoxService } = await import(pathToFileURL(path.join(root, "server/src/boxes/service.ts")).href);
const { syncIntoBox } = await import(pathToFileURL(path.join(root, "server/src/boxes/sync.ts")).href);
const { chooseTier, SETPRIV_ARGS } = await import(pathToFileURL(path.join(root, "server/src/boxes/tiers.ts")).href);

/** What a company's .gitignore typically holds; none of it matches a file the bench makes. */
const GITIGNORE = `# dependencies and builds
node_modules/
dist/
build/
out/
coverage/
*.tsbuildinfo
.turbo/

# logs and editors
*.log
npm-debug.log*
.DS_Store
*.swp
.idea/

# local settings
.env
.env.*
!.env.example
tmp/
/generated/
`;

const work = fs.mkdtempSync(path.join(BASE, "sanoma-bench-boxes-"));
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (x) => x.toFixed(2);

function bare(file = "bash", args = ["-c", "true"]) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args);
    child.on("error", reject);
    child.on("close", resolve);
  });
}

try {
  console.log(`boxes bench: ${os.cpus().length} cores, load ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}, node ${process.version}`);
  if (ONLY === undefined || ONLY === "spawn") await spawnBench();
  if (ONLY === undefined || ONLY === "sync") await syncBench();
  if (ONLY === undefined || ONLY === "container") await containerBench();
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}

async function spawnBench() {
  console.log(`\n1. open + run \`true\`, ${RUNS}x, against bare spawn("bash", ["-c", "true"]), interleaved`);
  for (const tier of ["process", "namespace"]) {
    const choice = chooseTier(tier);
    if (choice.tier !== tier) {
      console.log(`  ${tier}: not available (${choice.reason})`);
      continue;
    }
    const service = new BoxService({ boxesDir: path.join(work, `boxes-${tier}`), tier });
    // Warm both paths (first spawns load code and fill caches).
    for (let i = 0; i < 5; i++) {
      await bare();
      await service.open({ name: "bench" });
      await service.run({ name: "bench", command: "true", wait: true });
    }
    // Run by root, the process tier starts each command through setpriv (every capability
    // dropped): its own floor is `setpriv … bash -c true`, measured alongside.
    const floor = choice.setpriv ? () => bare(choice.setpriv, [...SETPRIV_ARGS, "bash", "-c", "true"]) : undefined;
    let bareTotal = 0;
    let floorTotal = 0;
    let boxTotal = 0;
    for (let i = 0; i < RUNS; i++) {
      let t0 = process.hrtime.bigint();
      await bare();
      bareTotal += ms(t0);
      if (floor) {
        t0 = process.hrtime.bigint();
        await floor();
        floorTotal += ms(t0);
      }
      t0 = process.hrtime.bigint();
      await service.open({ name: "bench" });
      const { result } = await service.run({ name: "bench", command: "true", wait: true });
      boxTotal += ms(t0);
      if (result.exitCode !== 0) throw new Error(`true exited ${result.exitCode}: ${result.stderr}`);
    }
    await service.dispose();
    const goal = tier === "process" ? 1.5 : 6;
    console.log(`  ${tier.padEnd(9)}  bare ${fmt(bareTotal / RUNS)} ms/run   box ${fmt(boxTotal / RUNS)} ms/run   ratio ${fmt(boxTotal / bareTotal)}x   (goal ${goal}x)`);
    if (floor) console.log(`             as root, through setpriv: its floor ${fmt(floorTotal / RUNS)} ms/run   box against it ${fmt(boxTotal / floorTotal)}x`);
  }
}

async function syncBench() {
  console.log(`\n2. sync a ${FILES}-file company into a fresh box, against cp -r (median of ${ROUNDS}), in ${BASE}`);
  const company = path.join(work, "company");
  const apps = 20;
  const perFolder = 50;
  let made = 0;
  fs.mkdirSync(company, { recursive: true });
  fs.writeFileSync(path.join(company, ".gitignore"), GITIGNORE);
  fs.writeFileSync(path.join(company, "sanoma.config.ts"), "export default defineConfig({});\n");
  made += 2;
  for (let a = 0; made < FILES; a = (a + 1) % apps) {
    for (const kind of ["workflows", "resources", "scenarios", "lib/util"]) {
      const dir = path.join(company, "apps", `app${a}`, kind, `f${Math.floor(made / 1000)}`);
      fs.mkdirSync(dir, { recursive: true });
      for (let f = 0; f < perFolder && made < FILES; f++, made++) {
        fs.writeFileSync(path.join(dir, `file${made}.ts`), `export const v${made} = ${JSON.stringify("x".repeat(200 + (made % 700)))};\n`);
      }
    }
  }
  const cpTimes = [];
  const syncTimes = [];
  const timeCp = (round) => {
    spawnSync("sync");
    const t0 = process.hrtime.bigint();
    const cp = spawnSync("cp", ["-r", company, path.join(work, `cp-${round}`)]);
    cpTimes.push(ms(t0));
    if (cp.status !== 0) throw new Error(`cp failed: ${cp.stderr}`);
  };
  const timeSync = async (round) => {
    spawnSync("sync");
    const t0 = process.hrtime.bigint();
    const report = await syncIntoBox({ root: company, home: path.join(work, `box-${round}`), runsDir: path.join(work, `.runs-${round}`) });
    syncTimes.push(ms(t0));
    if (report.copied !== FILES) throw new Error(`sync copied ${report.copied} files, not ${FILES}`);
  };
  const last = ROUNDS - 1;
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 0) {
      timeCp(round);
      await timeSync(round);
    } else {
      await timeSync(round);
      timeCp(round);
    }
  }
  // The copies are removed only at the end: ext4 steps over the inodes freed in the last minute(s)
  // when it allocates new ones (perf: __ext4_new_inode → find_inode_bit → recently_deleted), so
  // deleting a round's 20,000 files made the next round's file creations, on either side, up to
  // 20 times slower. (The same holds after any large deletion on that file system: see
  // docs/bench.md.)
  for (let round = 0; round < ROUNDS; round++) {
    fs.rmSync(path.join(work, `cp-${round}`), { recursive: true, force: true });
    if (round < last) fs.rmSync(path.join(work, `box-${round}`), { recursive: true, force: true });
  }
  const ratios = syncTimes.map((t, i) => t / cpTimes[i]).sort((a, b) => a - b);
  console.log(`  cp -r ${fmt(median(cpTimes))} ms   sync ${fmt(median(syncTimes))} ms   ratio ${fmt(median(syncTimes) / median(cpTimes))}x   (goal 2x; rounds ${fmt(ratios[0])}-${fmt(ratios.at(-1))}x)`);
  const t0 = process.hrtime.bigint();
  const again = await syncIntoBox({ root: company, home: path.join(work, `box-${last}`), runsDir: path.join(work, `.runs-${last}`) });
  console.log(`  re-sync with nothing changed: ${fmt(ms(t0))} ms (${again.unchanged} unchanged)`);
}

async function containerBench() {
  console.log(`\n3. the container tier, ${CONTAINER_RUNS}x each, against the engine's own floor, interleaved`);
  const choice = chooseTier("container");
  if (!choice.engine) {
    console.log(`  container: not available (${choice.reason})`);
    return;
  }
  const { DEFAULT_IMAGE } = await import(pathToFileURL(path.join(root, "server/src/boxes/container.ts")).href);
  const engine = choice.engine.file;
  // The engine's default ulimits may pass this machine's hard limits (runc then starts nothing).
  const [nofile, nproc] = spawnSync("bash", ["-c", "ulimit -Hn; ulimit -Hu"], { encoding: "utf8" }).stdout.trim().split("\n").map((x) => (x === "unlimited" ? 65536 : Math.min(Number(x), 65536)));
  const ulimits = ["--ulimit", `nofile=${nofile}:${nofile}`, "--ulimit", `nproc=${Math.min(nproc, 1024)}:${Math.min(nproc, 1024)}`];
  const service = new BoxService({ boxesDir: path.join(work, "boxes-container"), tier: "container" });
  try {
    await service.open({ name: "bench" }); // makes the image once, and the box's container
    // The floor's container: the same image and mounts, waiting as a box's does.
    const floorName = `sanoma-bench-floor-${process.pid}`;
    const made = spawnSync(engine, ["run", "--detach", "--rm", "--name", floorName, "--network", "none", ...ulimits, "-v", "/usr:/usr:ro", DEFAULT_IMAGE, "/usr/bin/catatonit", "-P"], { encoding: "utf8" });
    if (made.status !== 0) throw new Error(`the floor's container: ${made.stderr}`);
    try {
      for (let i = 0; i < 3; i++) {
        await bare(engine, ["exec", floorName, "true"]);
        await service.run({ name: "bench", command: "true", wait: true });
      }
      let floor = 0;
      let box = 0;
      for (let i = 0; i < CONTAINER_RUNS; i++) {
        let t0 = process.hrtime.bigint();
        await bare(engine, ["exec", floorName, "true"]);
        floor += ms(t0);
        t0 = process.hrtime.bigint();
        const { result } = await service.run({ name: "bench", command: "true", wait: true });
        box += ms(t0);
        if (result.exitCode !== 0) throw new Error(`true exited ${result.exitCode}: ${result.error ?? result.stderr}`);
      }
      console.log(`  run true    podman exec ${fmt(floor / CONTAINER_RUNS)} ms   box ${fmt(box / CONTAINER_RUNS)} ms   ratio ${fmt(box / floor)}x   (goal 1.2x)`);
    } finally {
      spawnSync(engine, ["rm", "--force", "--time", "0", floorName]);
    }
    let floor = 0;
    let open = 0;
    for (let i = 0; i < CONTAINER_RUNS; i++) {
      let t0 = process.hrtime.bigint();
      await bare(engine, ["run", "--rm", "--network", "none", ...ulimits, "-v", "/usr:/usr:ro", DEFAULT_IMAGE, "true"]);
      floor += ms(t0);
      t0 = process.hrtime.bigint();
      await service.open({ name: `new-${i}` });
      open += ms(t0);
      await service.discard({ name: `new-${i}` });
    }
    console.log(`  open        podman run --rm ${fmt(floor / CONTAINER_RUNS)} ms   open of a new box ${fmt(open / CONTAINER_RUNS)} ms   ratio ${fmt(open / floor)}x   (goal 1.2x)`);
  } finally {
    await service.dispose();
  }
}
