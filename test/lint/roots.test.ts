/**
 * The plugin's company roots (`lint-plugin/src/roots.ts`, `context.ts`): the disk is asked once
 * per folder per observation, and a new observation asks again, ending on a microtask (ESLint),
 * the next turn (`oxlint --lsp`) or an idle second (oxlint's one-shot runs).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { setImmediate as turn } from "node:timers/promises";
import { RootCache } from "../../lint-plugin/src/roots.ts";
import { FileContexts } from "../../lint-plugin/src/context.ts";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { removeFixture, writeFixture } from "../support/fixture.ts";
import { checkFound, runEslint, runOxlint } from "./hosts.ts";

/** A disk of configs in memory, counting the questions asked of it. */
function disk(...roots: string[]) {
  const configs = new Set(roots);
  const asked: string[] = [];
  return { configs, asked, hasConfig: (dir: string) => { asked.push(dir); return configs.has(dir); } };
}

test("RootCache: the nearest folder with a config, none inside node_modules or without one", () => {
  const d = disk("/w/co", "/w/co/apps/a", "/w/co/node_modules/tmpl");
  const cache = new RootCache(d.hasConfig);
  assert.equal(cache.rootOf("/w/co/apps/a/workflows/x.ts", "task"), "/w/co/apps/a");
  assert.equal(cache.rootOf("/w/co/apps/b/workflows/x.ts", "task"), "/w/co");
  assert.equal(cache.rootOf("/w/co/node_modules/pkg/index.js", "task"), undefined);
  // A package that holds a config of its own is still inside node_modules (A1).
  assert.equal(cache.rootOf("/w/co/node_modules/tmpl/workflows/x.ts", "task"), undefined);
  assert.equal(cache.rootOf("/elsewhere/x.ts", "task"), undefined);
});

test("RootCache: one question per folder per observation", () => {
  const d = disk("/w/co");
  const cache = new RootCache(d.hasConfig);
  for (let i = 0; i < 50; i++) cache.rootOf(`/w/co/apps/a/workflows/f${i}.ts`, "run");
  cache.rootOf("/w/co/apps/b/lib/x.ts", "run");
  assert.deepEqual(d.asked, ["/w/co/apps/a/workflows", "/w/co/apps/a", "/w/co/apps", "/w/co", "/w/co/apps/b/lib", "/w/co/apps/b"]);
});

test("RootCache: `task` observations end on a microtask (ESLint: each file)", async () => {
  const d = disk("/w/co");
  const cache = new RootCache(d.hasConfig);
  assert.equal(cache.rootOf("/w/co/apps/a/x.ts", "task"), "/w/co");
  d.configs.add("/w/co/apps/a");
  assert.equal(cache.rootOf("/w/co/apps/a/y.ts", "task"), "/w/co", "the same observation");
  await Promise.resolve();
  assert.equal(cache.rootOf("/w/co/apps/a/y.ts", "task"), "/w/co/apps/a");
});

test("RootCache: `turn` observations end on the next turn of the event loop (oxlint --lsp)", async () => {
  const d = disk("/w/co");
  const cache = new RootCache(d.hasConfig);
  assert.equal(cache.rootOf("/w/co/apps/a/x.ts", "turn"), "/w/co");
  d.configs.delete("/w/co");
  await Promise.resolve();
  assert.equal(cache.rootOf("/w/co/apps/a/x.ts", "turn"), "/w/co", "microtasks do not end a turn");
  await turn();
  assert.equal(cache.rootOf("/w/co/apps/a/x.ts", "turn"), undefined);
});

test("RootCache: `run` observations span a run and end after an idle second", async () => {
  const d = disk("/w/co");
  const cache = new RootCache(d.hasConfig);
  assert.equal(cache.rootOf("/w/co/x.ts", "run"), "/w/co");
  d.configs.delete("/w/co");
  await turn();
  assert.equal(cache.rootOf("/w/co/x.ts", "run"), "/w/co", "one run, one observation");
  await new Promise((r) => setTimeout(r, 1300));
  assert.equal(cache.rootOf("/w/co/x.ts", "run"), undefined);
});

test("FileContexts: what the core never reads has no context", () => {
  const contexts = new FileContexts(new RootCache(disk("/w/co").hasConfig));
  assert.equal(contexts.of("<input>", "task"), null);
  assert.equal(contexts.of("relative/x.ts", "task"), null);
  assert.equal(contexts.of("/w/co/apps/a/styles.css", "task"), null);
  assert.equal(contexts.of("/w/co/.cache/x.ts", "task"), null);
  assert.equal(contexts.of("/w/co/apps/.hidden/workflows/x.ts", "task"), null);
  assert.equal(contexts.of("/w/co/node_modules/p/x.ts", "task"), null);
  assert.equal(contexts.of("/w/elsewhere/x.ts", "task"), null);
  const ctx = contexts.of("/w/co/apps/a/resources/data.ts", "task");
  assert.equal(ctx?.rel, "apps/a/resources/data.ts");
  assert.equal(ctx?.role.scope, "a");
  assert.equal(ctx?.role.isCollectionsFile, true);
  assert.equal(contexts.of("/w/co/.x.ts", "task")?.rel, ".x.ts", "a dot file (not folder) is read");
});

test("oxlint and ESLint judge no file under a link to a folder inside a company, as the check reads none by such a path (its real path's findings are the check's)", async () => {
  const dir = writeFixture(`
//- /co/sanoma.config.ts
export default {};
//- /co/workflows/w.ts
export const w = 1;
//- /co/apps/b/lib/y.ts
import { w } from "../../../workflows/w";
import { x } from "../../a/x";
export const y = [w, x];
//- /co/apps/a/x.ts
export const x = 1;
`, "sanoma-lint-links-");
  try {
    // An app's folder linked into another app, a library linked under workflows/.
    symlinkSync("../b", join(dir, "co/apps/a/blink"));
    symlinkSync("../apps/b/lib", join(dir, "co/workflows/wlink"));
    const want = checkFound(join(dir, "co")).map((f) => ({ ...f, file: `co/${f.file}` }));
    assert.deepEqual(want.map((f) => `${f.file} ${f.rule}`), ["co/apps/b/lib/y.ts no-cross-app-import"]);
    assert.deepEqual(runOxlint(dir).found, want, "oxlint follows the links, and judges nothing under them");
    const linked = ["co/apps/a/blink/lib/y.ts", "co/workflows/wlink/y.ts"];
    assert.deepEqual((await runEslint(dir, { paths: [".", ...linked] })).found, want, "ESLint, given the linked paths");
  } finally {
    removeFixture(dir);
  }
});
