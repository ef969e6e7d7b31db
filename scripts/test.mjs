// The one gate command behind `npm test`: sets up what the tests need, typechecks, builds, lints
// the examples with our own plugin, then runs every test file with node's test runner.
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

function run(cmd, args, opts = {}) {
  console.log(`\n$ ${cmd} ${args.join(" ")}`);
  const r = spawnSync(cmd, args, { stdio: "inherit", ...opts });
  if (r.status !== 0) { console.error(`failed: ${cmd} ${args.join(" ")} (exit ${r.status ?? r.signal})`); process.exit(r.status || 1); }
}
function testFiles(dir, out = []) {
  for (const e of readdirSync(dir)) {
    if (e === "fixtures" || e === "node_modules" || e.startsWith(".")) continue;
    const p = join(dir, e);
    if (statSync(p).isDirectory()) testFiles(p, out);
    else if (e.endsWith(".test.ts")) out.push(p);
  }
  return out;
}

const only = process.argv.slice(2);
if (!process.env.SANOMA_SKIP_SETUP) run("bash", ["scripts/setup-test-env.sh"]);
run("npx", ["tsc", "-p", "tsconfig.json", "--noEmit"]);
// (Not the fixture companies under test/fixtures: their mistakes are what the tests look for.)
run("npx", ["oxlint", "--deny-warnings", "--ignore-pattern", "**/fixtures/**", "server/src", "client/src", "lint-plugin/src", "ts-plugin/src", "scripts", "test", "bench"]);
run("node", ["scripts/build.mjs"]);
// Our own plugin on our own example companies, in the real oxlint, compared with sanoma-check.
run("node", ["scripts/lint-examples.mjs"]);
const files = only.length ? only : testFiles("test").sort();
run(process.execPath, ["--import", "tsx", "--test", "--test-reporter=spec", "--test-concurrency=1", ...files]);
