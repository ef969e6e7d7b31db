/**
 * The sync into a box (SPEC B5) called directly: what the manifest records of each copy, that a
 * copy never writes through what the box put at a file's path (a symlink or hard link to the
 * user's files), that modes and symlinks are copied as they are, and that `.gitignore` patterns
 * answered by plain string tests agree with their regular expressions.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { isUtf8 } from "node:buffer";
import * as fs from "node:fs";
import * as path from "node:path";
import { applyToWorkspace, diffBox } from "../../server/src/boxes/diff.ts";
import { IgnoreRules, parseGitignore } from "../../server/src/boxes/ignore.ts";
import { readManifest } from "../../server/src/boxes/manifest.ts";
import { syncIntoBox } from "../../server/src/boxes/sync.ts";
import { statOf } from "../../server/src/boxes/tree.ts";
import { cleanupTempDirs, tempDir, writeTree } from "./helpers.ts";

after(cleanupTempDirs);

const COMPANY = `
//- /sanoma.config.ts
export default defineConfig({ name: "acme" });
//- /README.md
read me
//- /.gitignore
*.log
//- /resources/data.ts
export const orders = collection({ key: "id" });
//- /scripts/run.sh
#!/bin/sh
echo run
`;

function setup() {
  const base = tempDir();
  const root = path.join(base, "acme");
  writeTree(root, COMPANY);
  fs.chmodSync(path.join(root, "scripts/run.sh"), 0o755);
  fs.symlinkSync("../resources/data.ts", path.join(root, "scripts/data-link.ts"));
  const home = path.join(base, "boxes", "acme-box");
  const runsDir = path.join(base, "boxes", ".runs", "acme-box");
  // A file of the user's outside both the company and the box.
  const outside = path.join(base, "outside.txt");
  fs.writeFileSync(outside, "the user's own file\n");
  const sync = (reset = false) => syncIntoBox({ root, home, runsDir, reset });
  return { root, home, runsDir, outside, sync };
}

const read = (file: string) => fs.readFileSync(file, "utf8");

describe("syncing into a box", () => {
  test("the manifest records the workspace file and the box's own copy, as they are on disk", async () => {
    const { root, home, runsDir, sync } = setup();
    const report = await sync();
    assert.equal(report.copied, 6);
    const manifest = readManifest(runsDir, root);
    assert.deepEqual(Object.keys(manifest.files).sort(), [".gitignore", "README.md", "resources/data.ts", "sanoma.config.ts", "scripts/data-link.ts", "scripts/run.sh"]);
    for (const [rel, entry] of Object.entries(manifest.files)) {
      assert.deepEqual(entry.src, statOf(path.join(root, rel)), rel);
      assert.deepEqual(entry.box, statOf(path.join(home, rel)), rel);
    }
  });

  test("modes and symlinks are copied as they are", async () => {
    const { home, sync } = setup();
    await sync();
    assert.equal(fs.statSync(path.join(home, "scripts/run.sh")).mode & 0o777, 0o755);
    assert.equal(fs.readlinkSync(path.join(home, "scripts/data-link.ts")), "../resources/data.ts");
  });

  test("an edit in the box that keeps the file's size is still the box's change", async () => {
    const { root, home, runsDir, sync } = setup();
    await sync();
    const file = path.join(home, "resources/data.ts");
    const before = statOf(file)!;
    // Past the file system's timestamp granularity, so the edit's mtime is a later one.
    await new Promise((resolve) => setTimeout(resolve, 50));
    fs.writeFileSync(file, read(file).replace('"id"', '"no"'));
    assert.equal(statOf(file)!.size, before.size);
    assert.deepEqual((await diffBox({ root, home, runsDir })).map((c) => [c.path, c.change]), [["resources/data.ts", "modified"]]);
    const again = await sync();
    assert.deepEqual(again.kept, ["resources/data.ts"]);
    assert.match(read(file), /"no"/);
  });

  test("a reset replaces a symlink the box put in a file's place, never writing through it", async () => {
    const { root, home, outside, sync } = setup();
    await sync();
    const file = path.join(home, "resources/data.ts");
    fs.rmSync(file);
    fs.symlinkSync(outside, file);
    assert.deepEqual((await sync()).kept, ["resources/data.ts"]);
    await sync(true);
    assert.equal(read(outside), "the user's own file\n");
    assert.equal(fs.lstatSync(file).isFile(), true);
    assert.equal(read(file), read(path.join(root, "resources/data.ts")));
  });

  test("a reset deletes what the box made under names that are not UTF-8, files and folders (a string cannot name them); a sync keeps them", async () => {
    const { root, home, runsDir, sync } = setup();
    await sync();
    const named = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => Buffer.from(p)));
    fs.writeFileSync(named(home, "/resources/n", [0xff], ".ts"), "export const x = 1;\n"); // n\xff.ts
    fs.mkdirSync(named(home, "/", [0xc3, 0x28])); // \xc3( : no UTF-8
    fs.writeFileSync(named(home, "/", [0xc3, 0x28], "/inside", [0xfe]), "x\n");
    const unnamed = async () => (await diffBox({ root, home, runsDir })).filter((c) => c.path.includes("\uFFFD")).map((c) => c.path).sort();
    assert.deepEqual(await unnamed(), ["resources/n\uFFFD.ts", "\uFFFD("]);
    assert.equal((await sync()).deleted, 0, "a sync keeps the box's own files");
    assert.equal((await unnamed()).length, 2);
    const report = await sync(true);
    assert.equal(report.deleted, 2);
    assert.deepEqual(await diffBox({ root, home, runsDir }), [], "the box is the workspace's copy again");
    const notUtf8 = (dir: string) => fs.readdirSync(dir, { encoding: "buffer" }).filter((n) => !isUtf8(n));
    assert.deepEqual([...notUtf8(home), ...notUtf8(path.join(home, "resources"))], []);
    assert.deepEqual(fs.readdirSync(path.join(root, "resources")), ["data.ts"], "the workspace untouched");
  });

  test("a folder the box swaps for a link once the sync has looked at it (a process a stop could not find, in the process tier) is refused, never written or deleted through", async () => {
    const { root, home, runsDir, sync } = setup();
    await sync();
    fs.writeFileSync(path.join(home, "resources/made-by-box.ts"), "export const m = 1;\n");
    // Another user's folder, as a server run as root could reach it: its own data.ts, and a file of its own.
    const victim = path.join(path.dirname(root), "victim");
    fs.mkdirSync(victim);
    fs.writeFileSync(path.join(victim, "data.ts"), "the victim's\n");
    fs.writeFileSync(path.join(victim, "made-by-box.ts"), "the victim's too\n");
    const swap = () => {
      fs.renameSync(path.join(home, "resources"), path.join(home, "resources.real"));
      fs.symlinkSync(victim, path.join(home, "resources"));
    };
    await assert.rejects(syncIntoBox({ root, home, runsDir, reset: true, afterWalk: swap }), /resources in the box is no folder any more \(a link or a file was put in its place while the box was synced\): nothing was written through it/);
    assert.deepEqual(fs.readdirSync(victim).sort(), ["data.ts", "made-by-box.ts"], "nothing deleted there");
    assert.equal(read(path.join(victim, "data.ts")), "the victim's\n", "nothing written there");
    assert.equal(read(path.join(victim, "made-by-box.ts")), "the victim's too\n");
    // The link removed (by the box, or a discard), the next reset makes the box the workspace's copy.
    fs.rmSync(path.join(home, "resources"));
    await sync(true);
    assert.equal(read(path.join(home, "resources/data.ts")), read(path.join(root, "resources/data.ts")));
  });

  test("a name that is not UTF-8 and too long once read with U+FFFD (100 bytes of 0xff: 300 bytes) is listed, refused, and deleted by a reset; it failed every diff, apply and reset (ENAMETOOLONG)", async () => {
    const { root, home, runsDir, sync } = setup();
    await sync();
    fs.writeFileSync(Buffer.concat([Buffer.from(`${home}/resources/`), Buffer.alloc(100, 0xff)]), "x\n");
    const listed = (await diffBox({ root, home, runsDir })).filter((c) => c.path.includes("\uFFFD"));
    assert.equal(listed.length, 1);
    assert.match(listed[0]!.refused ?? "", /whose name is not UTF-8/);
    assert.equal((await sync(true)).deleted, 1);
    assert.deepEqual(await diffBox({ root, home, runsDir }), []);
  });

  test("a reset replaces a hard link the box made to a workspace file, never writing through it", async () => {
    const { root, home, sync } = setup();
    await sync();
    const workspaceData = path.join(root, "resources/data.ts");
    const before = read(workspaceData);
    const boxReadme = path.join(home, "README.md");
    fs.rmSync(boxReadme);
    fs.linkSync(workspaceData, boxReadme); // the process tier can: same file system, the user's uid
    await sync(true);
    assert.equal(read(workspaceData), before, "the user's file is untouched");
    assert.equal(read(boxReadme), "read me\n");
    assert.notEqual(fs.statSync(boxReadme).ino, fs.statSync(workspaceData).ino);
  });

  test("a file new in the workspace where the box put a symlink out: the box's until a reset replaces it, never written through", async () => {
    const { root, home, outside, sync } = setup();
    await sync();
    // The box's own .gitignore does not hide new.ts from the box's walk (the workspace's rules apply).
    fs.appendFileSync(path.join(home, ".gitignore"), "new.ts\n");
    fs.symlinkSync(outside, path.join(home, "new.ts"));
    fs.writeFileSync(path.join(root, "new.ts"), "export const added = 1;\n");
    const report = await sync();
    assert.ok(report.kept.includes("new.ts"), "both sides made it: the box's is kept");
    assert.equal(fs.lstatSync(path.join(home, "new.ts")).isSymbolicLink(), true);
    assert.equal(read(outside), "the user's own file\n");
    await sync(true);
    assert.equal(read(outside), "the user's own file\n");
    assert.equal(fs.lstatSync(path.join(home, "new.ts")).isFile(), true);
    assert.equal(read(path.join(home, "new.ts")), "export const added = 1;\n");
  });

  test("a folder where the workspace has a file is replaced by the file", async () => {
    const { home, sync } = setup();
    fs.mkdirSync(path.join(home, "README.md"), { recursive: true });
    fs.writeFileSync(path.join(home, "README.md", "inner.txt"), "x");
    const report = await sync();
    assert.equal(report.copied, 6);
    assert.equal(read(path.join(home, "README.md")), "read me\n");
  });
});

describe("what a box does to itself never reaches outside it (found by a sweep)", () => {
  test("a home the box replaced with a link is refused by the sync and the diff; the folder it points to is untouched", async () => {
    const { root, home, runsDir, outside, sync } = setup();
    await sync();
    const victim = path.join(path.dirname(outside), "victim");
    fs.mkdirSync(victim);
    fs.writeFileSync(path.join(victim, "precious.txt"), "mine\n");
    fs.rmSync(home, { recursive: true });
    fs.symlinkSync(victim, home);
    await assert.rejects(syncIntoBox({ root, home, runsDir, reset: true }), /is not a folder any more/);
    await assert.rejects(diffBox({ root, home, runsDir }), /is not a folder any more/);
    assert.deepEqual(fs.readdirSync(victim), ["precious.txt"]);
  });

  test("the box's own .gitignore neither hides its changes nor turns a changed file into a deletion", async () => {
    const { root, home, runsDir, sync } = setup();
    await sync();
    fs.writeFileSync(path.join(home, "README.md"), "changed by the preview\n");
    fs.writeFileSync(path.join(home, "secret.txt"), "added by the preview\n");
    fs.writeFileSync(path.join(home, ".gitignore"), "README.md\nsecret.txt\n*.log\n");
    const changes = (await diffBox({ root, home, runsDir })).map((c) => `${c.path} ${c.change}`);
    assert.deepEqual(changes, [".gitignore modified", "README.md modified", "secret.txt added"]);
    // The next sync keeps the box's changes and walks the box with the workspace's rules.
    const report = await sync();
    assert.deepEqual(report.kept, [".gitignore", "README.md"]);
    assert.equal(read(path.join(home, "README.md")), "changed by the preview\n");
  });

  test("a box last synced from another company is made an exact copy of this one, and its diff refused until then", async () => {
    const { root, home, runsDir, sync } = setup();
    await sync();
    fs.writeFileSync(path.join(home, "acme-only.md"), "acme's preview output\n");
    const beta = path.join(path.dirname(root), "beta");
    writeTree(beta, "\n//- /sanoma.config.ts\nexport default {};\n//- /README.md\nbeta\n");
    // (Naming the company the box holds, and the one asked for: each where it is.)
    await assert.rejects(diffBox({ root: beta, home, runsDir }), { message: `the box holds a copy of the company at ${root}, not of ${beta}: run a preview of ${beta} to make it that company's copy` });
    const report = await syncIntoBox({ root: beta, home, runsDir });
    assert.deepEqual(report.kept, []);
    const files = (fs.readdirSync(home, { recursive: true }) as string[]).filter((f) => fs.lstatSync(path.join(home, f)).isFile()).sort();
    assert.deepEqual(files, ["README.md", "sanoma.config.ts"]);
    assert.equal(read(path.join(home, "README.md")), "beta\n");
    assert.deepEqual(await diffBox({ root: beta, home, runsDir }), []);
  });

  test("apply carries a file's permission bits, never a setuid or setgid bit", async () => {
    const { root, home, runsDir, sync } = setup();
    await sync();
    fs.writeFileSync(path.join(home, "scripts/run.sh"), "#!/bin/sh\necho changed\n");
    fs.chmodSync(path.join(home, "scripts/run.sh"), 0o6755);
    const result = await applyToWorkspace({ root, home, runsDir }, ["scripts/run.sh"]);
    assert.deepEqual(result.applied, ["scripts/run.sh"]);
    assert.equal(fs.statSync(path.join(root, "scripts/run.sh")).mode & 0o7777, 0o755);
  });
});

describe(".gitignore name patterns", () => {
  const GITIGNORE = ["dist", "*.log", "npm-debug.log*", ".env.*", "!.env.example", "build/", "a[!b]c", "x?z", "*", "!*.ts", "!keep/", "\\#hash", "\\!bang"].join("\n");
  const SAMPLES: Array<[string, boolean]> = [
    ["dist", true], ["dist", false], ["apps/a/dist", true], ["apps/a/dist.ts", false], ["a.log", false], ["apps/x/a.log", false], [".log", false],
    ["logs/a.log/b.ts", false], ["npm-debug.log", false], ["npm-debug.log.1", false], ["x/npm-debug.logs", false], [".env.local", false],
    [".env.example", false], [".env", false], ["build", true], ["build", false], ["x/build", true], ["abc", false], ["a/c", false], ["adc", false],
    ["xyz", false], ["x/z", false], ["main.ts", false], ["a.log.bak", false], ["my.env.local", false], ["adist", true], ["distant", false], ["keep", true], ["#hash", false], ["!bang", false], ["src/index.ts", false],
  ];

  /** The answer from the regular expressions alone: the last matching pattern wins. */
  function byRegex(text: string, rel: string, isFolder: boolean): boolean {
    let ignored = false;
    for (const p of parseGitignore(text, "")) if ((!p.folderOnly || isFolder) && p.regex.test(rel)) ignored = !p.negated;
    return ignored;
  }

  test("each pattern without a slash gets a plain string test only when it is a name, *name or name*", () => {
    assert.deepEqual(parseGitignore(GITIGNORE, "").flatMap((p) => (p.name ? [p.name] : [])), [
      { equals: "dist" }, { endsWith: ".log" }, { startsWith: "npm-debug.log" }, { startsWith: ".env." }, { equals: ".env.example" },
      { equals: "build" }, { endsWith: ".ts" }, { equals: "keep" }, { equals: "#hash" }, { equals: "!bang" },
    ]);
  });

  test("the walk's answers equal the regular expressions' answers", () => {
    for (const text of [GITIGNORE, GITIGNORE.split("\n").filter((l) => l !== "*").join("\n")]) {
      const dir = tempDir();
      fs.writeFileSync(path.join(dir, ".gitignore"), text);
      const rules = IgnoreRules.empty().withFile(dir, "");
      for (const [rel, isFolder] of SAMPLES) assert.equal(rules.ignores(rel, isFolder), byRegex(text, rel, isFolder), `${rel}${isFolder ? "/" : ""}`);
    }
  });

  test("a folder's own .gitignore applies beneath it only; one above the company applies to its paths", () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, ".gitignore"), "*.gen.ts\ncache\n");
    const rules = IgnoreRules.empty().withFile(dir, "apps/billing");
    assert.equal(rules.ignores("apps/billing/x.gen.ts", false), true);
    assert.equal(rules.ignores("apps/billing/deep/cache", true), true);
    assert.equal(rules.ignores("apps/other/x.gen.ts", false), false);
    assert.equal(rules.ignores("apps/billing.gen.ts", false), false);
    assert.equal(rules.ignores("apps/billing", true), false);

    const repo = tempDir();
    fs.mkdirSync(path.join(repo, ".git"));
    fs.writeFileSync(path.join(repo, ".gitignore"), "*.secret\ncompany/private\n");
    fs.mkdirSync(path.join(repo, "company"));
    const above = IgnoreRules.above(path.join(repo, "company"));
    assert.equal(above.ignores("apps/a/key.secret", false), true);
    assert.equal(above.ignores("private", true), true);
    assert.equal(above.ignores("apps/private", true), false);
  });
});

describe("apply and names, at the edges (found by a sweep)", () => {
  test("a file the box put where a folder was never deletes the workspace's folder with files the diff does not list; once the chosen deletions empty it, the file takes its place", async () => {
    const { root, home, runsDir, sync } = setup();
    await sync();
    // The box: rm -rf scripts && echo … > scripts.
    fs.rmSync(path.join(home, "scripts"), { recursive: true });
    fs.writeFileSync(path.join(home, "scripts"), "now a file\n");
    // The workspace's folder also holds an ignored file and one made since: neither is in the diff.
    fs.writeFileSync(path.join(root, "scripts/build.log"), "ignored\n");
    fs.writeFileSync(path.join(root, "scripts/mine.ts"), "the user's new file\n");
    const listed = (await diffBox({ root, home, runsDir })).map((c) => `${c.change} ${c.path}`);
    assert.ok(listed.includes("added scripts") && listed.includes("deleted scripts/run.sh"), listed.join(", "));
    assert.ok(!listed.some((l) => l.includes("build.log") || l.includes("mine.ts")), listed.join(", "));
    // Only the new file chosen: the folder stays, whole.
    const only = await applyToWorkspace({ root, home, runsDir }, ["scripts"]);
    assert.deepEqual(only.applied, []);
    assert.match(only.skipped[0]?.reason ?? "", /folder there that holds files the diff does not list/);
    for (const f of ["run.sh", "build.log", "mine.ts"]) assert.ok(fs.existsSync(path.join(root, "scripts", f)), f);
    // Every listed change chosen, the new file named first: the listed deletions go, the folder still holds the others.
    const all = await applyToWorkspace({ root, home, runsDir }, ["scripts", ...listed.filter((l) => l.startsWith("deleted")).map((l) => l.slice(8))]);
    assert.ok(!all.applied.includes("scripts"));
    assert.ok(fs.existsSync(path.join(root, "scripts/build.log")) && fs.existsSync(path.join(root, "scripts/mine.ts")));
    assert.ok(!fs.existsSync(path.join(root, "scripts/run.sh")), "a listed deletion chosen is applied");
    // The user moves their files away: now the file takes the emptied folder's place.
    fs.rmSync(path.join(root, "scripts/build.log"));
    fs.renameSync(path.join(root, "scripts/mine.ts"), path.join(root, "mine.ts"));
    const last = await applyToWorkspace({ root, home, runsDir }, ["scripts"]);
    assert.deepEqual(last.applied, ["scripts"]);
    assert.equal(read(path.join(root, "scripts")), "now a file\n");
  });

  test("apply takes a file named with a backslash or a colon, and a file named twice once", async () => {
    const { root, home, runsDir, sync } = setup();
    await sync();
    fs.writeFileSync(path.join(home, "back\\slash.txt"), "one\n");
    fs.writeFileSync(path.join(home, "c:x.txt"), "two\n");
    fs.writeFileSync(path.join(home, "README.md"), "three\n");
    const result = await applyToWorkspace({ root, home, runsDir }, ["back\\slash.txt", "c:x.txt", "README.md", "./README.md", "README.md/"]);
    assert.deepEqual(result, { applied: ["back\\slash.txt", "c:x.txt", "README.md"], skipped: [] });
    assert.equal(read(path.join(root, "back\\slash.txt")), "one\n");
    assert.equal(read(path.join(root, "c:x.txt")), "two\n");
  });
});
