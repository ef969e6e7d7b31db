/**
 * A file's role read in two steps (what its folder says, then its name: how the lint plugin reads
 * it, once per folder) is the role the one-step reading of the whole path gave; and a walk's paths
 * made without `path.join` are its.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { KINDS, childPath, folderRoleOf, isFrameworkModule, realChild, roleIn, roleOf, type FileRole, type Kind } from "../../server/src/core/company.ts";

/** The one-step reading this replaced, kept as the reference. */
function referenceRole(rel: string): FileRole {
  const parts = rel.split("/");
  let scope: string | null = null;
  let rest = parts;
  if (parts[0] === "apps" && parts.length > 2 && !parts[1].startsWith(".")) {
    scope = parts[1];
    rest = parts.slice(2);
  }
  const kind = rest.length > 1 && (KINDS as readonly string[]).includes(rest[0]) ? (rest[0] as Kind) : null;
  const name = parts[parts.length - 1];
  const isTs = name.endsWith(".ts") && ![".test.ts", ".spec.ts", ".d.ts"].some((e) => name.endsWith(e));
  return {
    scope,
    kind,
    isConfig: rel === "sanoma.config.ts",
    isWorkflowSource: kind === "workflows" && isTs,
    isDataFile: kind === "resources" && isTs,
    isCollectionsFile: kind === "resources" && rest.length === 2 && rest[1] === "data.ts",
    isScenario: kind === "scenarios",
    isTest: /\.(test|spec)\.[cm]?[jt]sx?$/.test(name),
  };
}

const SEGMENTS = ["apps", "a", ".x", "", "workflows", "resources", "scenarios", "lib", "data.ts", "sanoma.config.ts", "w.ts", "w.test.ts", "w.spec.mjs", "t.d.ts", "x.test.", "r.tsx", "y.spec.cts"];

test("roleOf, and a folder's role then a name's, read a path as the one-step reading did", () => {
  let seed = 11;
  const rnd = (n: number) => { seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff; return (seed >>> 12) % n; };
  const seen = new Set<string>();
  for (let i = 0; i < 30_000; i++) {
    const rel = Array.from({ length: 1 + rnd(5) }, () => SEGMENTS[rnd(SEGMENTS.length)]).join("/");
    if (rel.startsWith("/")) continue; // a company-relative path never does
    const want = referenceRole(rel);
    assert.deepEqual(roleOf(rel), want, rel);
    const cut = rel.lastIndexOf("/");
    assert.deepEqual(roleIn(folderRoleOf(cut < 0 ? "" : rel.slice(0, cut)), rel.slice(cut + 1)), want, rel);
    seen.add(JSON.stringify(want));
  }
  // The paths reach every kind of role, so the comparison covers each field both ways.
  for (const field of ["isConfig", "isWorkflowSource", "isDataFile", "isCollectionsFile", "isScenario", "isTest"] as const) {
    assert.ok([...seen].some((r) => JSON.parse(r)[field]), `some path is ${field}`);
  }
  assert.ok([...seen].some((r) => JSON.parse(r).scope === "a"), "some path is in an app");
});

test("a folder's files of one role share one frozen role; other roles, other folders, other objects", () => {
  const folder = folderRoleOf("apps/a/resources");
  const infra = roleIn(folder, "infra.ts");
  assert.equal(roleIn(folder, "queues.ts"), infra, "two data files of one folder");
  assert.ok(Object.isFrozen(infra), "a shared role cannot be changed for one file");
  const data = roleIn(folder, "data.ts");
  assert.notEqual(data, infra);
  assert.equal(data.isCollectionsFile, true);
  assert.equal(infra.isCollectionsFile, false);
  assert.equal(roleIn(folder, "x.test.ts").isTest, true);
  assert.equal(roleIn(folder, "x.test.ts"), roleIn(folder, "y.test.ts"));
  // Another folder's role is another object, even where the fields are alike.
  assert.notEqual(roleIn(folderRoleOf("apps/a/resources"), "infra.ts"), infra);
  assert.deepEqual(roleIn(folderRoleOf("apps/a/resources"), "infra.ts"), infra);
  // roleOf keeps the last folder's: a walk's files in one folder share it.
  assert.equal(roleOf("workflows/a.ts"), roleOf("workflows/b.ts"));
  assert.notEqual(roleOf("workflows/a.ts"), roleOf("apps/a/workflows/a.ts"));
});

test("isFrameworkModule: the framework's package and its subpaths, nothing else", () => {
  const yes = ["@sanoma-ai/workflows", "@sanoma-ai/workflows/", "@sanoma-ai/workflows/data", "@sanoma-ai/workflows/resources/x"];
  const no = ["", "@sanoma-ai", "@sanoma-ai/", "@sanoma-ai/workflowsx", "@sanoma-ai/workflows-x/data", "@sanoma-ai/other", "./@sanoma-ai/workflows", "sanoma", "@sanoma-ai/Workflows"];
  for (const s of yes) assert.equal(isFrameworkModule(s), true, s);
  for (const s of no) assert.equal(isFrameworkModule(s), false, s);
});

test("childPath: a walk's path of a folder's entry is path.join's, from starts written any way and below them", () => {
  const starts = ["/", "/co", "/co/", "/co/./apps", "/co/apps/../resources/", "co", "./co", "co//x", "/tmp/a b/ü"];
  // Entry names as a folder gives them: any character but the separator, never `.` or `..`.
  const names = ["a", "sanoma.config.ts", ".hidden", "...", "..x", "a b", "ü.ts", "x\\y", "-", "node_modules"];
  let checked = 0;
  for (const start of starts) {
    for (const first of names) {
      const dir = childPath(start, start, first);
      assert.equal(dir, path.join(start, first), `${start} + ${first}`);
      for (const name of names) {
        assert.equal(childPath(start, dir, name), path.join(dir, name), `${dir} + ${name}`);
        // And a level further down, as the walk goes.
        const deeper = childPath(start, dir, name);
        assert.equal(childPath(start, deeper, first), path.join(deeper, first), `${deeper} + ${first}`);
        checked += 2;
      }
    }
  }
  assert.ok(checked > 1000);
});

test("realChild: a folder's real path from its parent's and its name is the disk's, below a start reached through links", () => {
  const top = fs.mkdtempSync(path.join(os.tmpdir(), "sanoma-real-child-"));
  try {
    fs.mkdirSync(path.join(top, "real", "apps", "a b", "workflows"), { recursive: true });
    fs.mkdirSync(path.join(top, "real", ".x", "ü"), { recursive: true });
    fs.symlinkSync(path.join(top, "real"), path.join(top, "link"));
    fs.symlinkSync("../real", path.join(top, "real", "apps", "up"));
    let checked = 0;
    const walk = (dir: string, real: string) => {
      assert.equal(real, fs.realpathSync.native(dir), dir);
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        if (!e.isDirectory()) continue; // a link is no folder of the walk's
        walk(path.join(dir, e.name), realChild(real, e.name));
        checked++;
      }
    };
    walk(path.join(top, "link"), fs.realpathSync.native(path.join(top, "link")));
    assert.equal(checked, 5);
    assert.equal(realChild("/", "a"), "/a");
    assert.equal(realChild("/co", "a"), "/co/a");
  } finally {
    fs.rmSync(top, { recursive: true, force: true });
  }
});
