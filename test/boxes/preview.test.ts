/**
 * SPEC B5 previews through `BoxService`, in both tiers: the company copied into `<scope>-<export>`
 * (not `node_modules`, `.git`, dot folders or ignored folders; `node_modules` linked), the preview
 * command run there, its changes shown as a diff against the workspace and applied back file by
 * file, a re-sync that keeps the box's changes unless asked, and the message for a missing CLI.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { IgnoreRules, parseGitignore } from "../../server/src/boxes/ignore.ts";
import { previewBoxName } from "../../server/src/boxes/names.ts";
import { DEFAULT_PREVIEW_COMMAND, MISSING_CLI_MESSAGE, explainPreviewExit, previewCommand, scopeOf } from "../../server/src/boxes/preview.ts";
import { BoxService } from "../../server/src/boxes/service.ts";
import { TIERS, cleanupTempDirs, killAllWith, processesNamed, tempDir, token, writeTree } from "./helpers.ts";

after(cleanupTempDirs);

const COMPANY = `
//- /sanoma.config.ts
export default defineConfig({ name: "acme" });
//- /README.md
read me
//- /.gitignore
dist/
*.log
//- /apps/billing/workflows/invoice.ts
export const invoice = defineWorkflow({});
//- /apps/billing/.gitignore
generated
//- /apps/billing/generated/out.ts
ignored by the app's .gitignore
//- /resources/data.ts
export const orders = collection({ key: "id" });
//- /node_modules/fake-connector/index.js
module.exports = { fake: true };
//- /.git/HEAD
ref: refs/heads/main
//- /.cache/state.json
{}
//- /dist/bundle.js
built
//- /debug.log
noise
`;

/** Every file under `dir` (relative, sorted), not following symlinks, skipping dot folders. */
function listFiles(dir: string, rel = ""): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!entry.name.startsWith(".")) out.push(...listFiles(dir, child));
    } else out.push(entry.isSymbolicLink() ? `${child} -> link` : child);
  }
  return out.sort();
}

for (const tier of TIERS) {
  describe(`previews, ${tier} tier`, () => {
    const services: BoxService[] = [];
    const setup = () => {
      const root = path.join(tempDir(), "acme");
      writeTree(root, COMPANY);
      const boxes = new BoxService({ boxesDir: tempDir(), tier });
      services.push(boxes);
      return { root, boxes };
    };
    after(async () => {
      for (const s of services) await s.dispose();
    });

    test("a shutdown while a preview copies the company: its command never starts (it started after the answer to the shutdown, and a command it detached outlived the server)", async () => {
      const { root, boxes } = setup();
      fs.mkdirSync(path.join(root, "lib"));
      for (let i = 0; i < 2000; i++) fs.writeFileSync(path.join(root, "lib", `f${i}.ts`), `export const f${i} = ${i};\n`);
      const sleeper = token("preview-after-shutdown");
      const command = `touch started; exec -a ${sleeper} sleep 30`;
      // The preview's copy is under way when the shutdown comes (the same tick: it is queued).
      const preview = boxes.preview({ root, file: "apps/billing/workflows/invoice.ts", export: "invoice", command, wait: true }).then((r) => r, (e: Error) => e);
      await boxes.dispose();
      const answer = await preview;
      await new Promise((r) => setTimeout(r, 500));
      assert.deepEqual(processesNamed(sleeper), [], "no command of the preview runs");
      const home = path.join(boxes.boxesDir, previewBoxName("billing", "invoice"));
      assert.equal(fs.existsSync(path.join(home, "started")), false, "the command never ran");
      if (!(answer instanceof Error)) assert.match(answer.result?.error ?? "", /^not started: the box service stopped while the box was being made ready/);
      killAllWith(sleeper);
    });

    test("copy, run, diff, apply, re-sync and reset: the round trip", async () => {
      const { root, boxes } = setup();
      const workspaceBefore = listFiles(root);
      const command = [
        "cat apps/billing/workflows/invoice.ts",
        "cat node_modules/fake-connector/index.js",
        "echo 'export const orders = collection({ key: \"ref\" });' > resources/data.ts",
        "mkdir -p apps/billing/notes && echo new > apps/billing/notes/new.txt",
        "rm README.md",
        "mkdir -p dist && echo built > dist/bundle.js",
        "mkdir -p .scratch && echo x > .scratch/tmp",
        "echo $PWD",
      ].join(" && ");
      const first = await boxes.preview({ root, file: path.join(root, "apps/billing/workflows/invoice.ts"), export: "invoice", command, wait: true });
      assert.equal(first.name, "billing-invoice");
      assert.equal(first.tier, tier);
      assert.equal(first.result?.exitCode, 0, first.result?.stderr);
      assert.equal(first.sync.copied, 6);
      const home = path.join(boxes.boxesDir, "billing-invoice");
      assert.equal(first.result?.stdout, `export const invoice = defineWorkflow({});\nmodule.exports = { fake: true };\n${home}\n`);

      // The workspace is untouched; the box holds the copy plus the preview's changes.
      assert.deepEqual(listFiles(root), workspaceBefore);
      assert.equal(fs.readFileSync(path.join(root, "resources/data.ts"), "utf8"), 'export const orders = collection({ key: "id" });\n');
      assert.deepEqual(listFiles(home), [
        ".gitignore", "apps/billing/.gitignore", "apps/billing/notes/new.txt", "apps/billing/workflows/invoice.ts",
        "dist/bundle.js", "node_modules -> link", "resources/data.ts", "sanoma.config.ts",
      ]);
      assert.equal(fs.readlinkSync(path.join(home, "node_modules")), path.join(root, "node_modules"));

      const diff = await boxes.diff({ name: "billing-invoice" });
      assert.equal(diff.root, root);
      assert.deepEqual(diff.files.map((f) => [f.path, f.change, f.workspaceChanged]), [
        ["README.md", "deleted", false],
        ["apps/billing/notes/new.txt", "added", false],
        ["resources/data.ts", "modified", false],
      ]);
      const modified = diff.files.find((f) => f.path === "resources/data.ts")!;
      assert.equal(modified.boxFile, path.join(home, "resources/data.ts"));
      assert.equal(modified.workspaceFile, path.join(root, "resources/data.ts"));

      // The user edits the workspace meanwhile: the next sync brings that in and keeps the box's changes.
      fs.writeFileSync(path.join(root, "sanoma.config.ts"), 'export default defineConfig({ name: "acme2" });\n');
      fs.writeFileSync(path.join(root, "apps/billing/workflows/refund.ts"), "export const refund = 1;\n");
      const second = await boxes.preview({ root, file: "apps/billing/workflows/invoice.ts", export: "invoice", command: "cat sanoma.config.ts resources/data.ts", wait: true });
      assert.equal(second.result?.stdout, 'export default defineConfig({ name: "acme2" });\nexport const orders = collection({ key: "ref" });\n');
      assert.deepEqual(second.sync.kept, ["README.md", "resources/data.ts"]);
      assert.equal(second.sync.updated, 1);
      assert.equal(second.sync.copied, 1);
      assert.ok(fs.existsSync(path.join(home, "apps/billing/notes/new.txt")), "a file the box made is kept");
      assert.deepEqual((await boxes.diff({ name: "billing-invoice" })).files.map((f) => f.path), ["README.md", "apps/billing/notes/new.txt", "resources/data.ts"]);

      // Apply two of the three; the third stays in the diff, and nothing else in the workspace moves.
      const applied = await boxes.apply({ name: "billing-invoice", files: ["resources/data.ts", "README.md", "sanoma.config.ts"] });
      assert.deepEqual(applied.applied, ["resources/data.ts", "README.md"]);
      assert.deepEqual(applied.skipped, [{ path: "sanoma.config.ts", reason: "the box did not change it" }]);
      assert.equal(fs.readFileSync(path.join(root, "resources/data.ts"), "utf8"), 'export const orders = collection({ key: "ref" });\n');
      assert.equal(fs.existsSync(path.join(root, "README.md")), false);
      assert.equal(fs.existsSync(path.join(root, "apps/billing/notes/new.txt")), false);
      assert.deepEqual((await boxes.diff({ name: "billing-invoice" })).files.map((f) => [f.path, f.change]), [["apps/billing/notes/new.txt", "added"]]);
      const applyAgain = await boxes.apply({ name: "billing-invoice", files: ["apps/billing/notes/new.txt", "../escape"] });
      assert.deepEqual(applyAgain.applied, ["apps/billing/notes/new.txt"]);
      assert.equal(fs.readFileSync(path.join(root, "apps/billing/notes/new.txt"), "utf8"), "new\n");
      assert.deepEqual(applyAgain.skipped.map((s) => s.path), ["../escape"]);
      assert.deepEqual((await boxes.diff({ name: "billing-invoice" })).files, []);

      // Both sides change one file: the diff says so.
      fs.writeFileSync(path.join(root, "sanoma.config.ts"), "workspace edit\n");
      await boxes.run({ name: "billing-invoice", command: "echo box edit > sanoma.config.ts", wait: true });
      assert.deepEqual((await boxes.diff({ name: "billing-invoice" })).files.map((f) => [f.path, f.change, f.workspaceChanged]), [["sanoma.config.ts", "modified", true]]);

      // reset: the box is an exact copy again (its dot folders aside).
      await boxes.run({ name: "billing-invoice", command: "echo mine > mine.txt", wait: true });
      const reset = await boxes.preview({ root, file: "apps/billing/workflows/invoice.ts", export: "invoice", command: "true", reset: true, wait: true });
      assert.deepEqual(reset.sync.kept, []);
      assert.equal(fs.existsSync(path.join(home, "mine.txt")), false);
      assert.equal(fs.readFileSync(path.join(home, "sanoma.config.ts"), "utf8"), "workspace edit\n");
      assert.deepEqual((await boxes.diff({ name: "billing-invoice" })).files, []);
    });

    test("a missing preview command exits 127 with the message naming the setting", async () => {
      const { root, boxes } = setup();
      const events: string[] = [];
      boxes.onEvent((e) => {
        if (e.kind === "exit") events.push(e.message ?? "");
      });
      const result = await boxes.preview({ root, file: "resources/data.ts", export: "orders", command: "sanoma-cli-that-is-not-installed preview ${file}#${export}", wait: true });
      assert.equal(result.name, "root-orders");
      assert.equal(result.command, "sanoma-cli-that-is-not-installed preview resources/data.ts#orders");
      assert.equal(result.result?.exitCode, 127);
      assert.equal(result.result?.message, MISSING_CLI_MESSAGE);
      assert.deepEqual(events, [MISSING_CLI_MESSAGE]);
      const recorded = (await boxes.events({ name: "root-orders" })).events.at(-1)!;
      assert.ok(recorded.kind === "exit" && recorded.message === MISSING_CLI_MESSAGE);
    });

    test("a preview stops what its box still runs before running again", async () => {
      const { root, boxes } = setup();
      const first = await boxes.preview({ root, file: "apps/billing/workflows/invoice.ts", export: "invoice", command: "sleep 600" });
      const runs = () => boxes.runs({ name: first.name });
      assert.equal((await runs()).runs[0]!.state, "running");
      await boxes.preview({ root, file: "apps/billing/workflows/invoice.ts", export: "invoice", command: "true", wait: true });
      const listed = (await runs()).runs;
      assert.deepEqual(listed.map((r) => r.state), ["exited", "exited"]);
      assert.equal(listed[1]!.signal, "SIGTERM");
    });

    test("a command run in a box while a preview syncs into it starts once the copy is whole", async () => {
      const { root, boxes } = setup();
      // Enough files that the sync copies them in several chunks, yielding in between.
      const files = 4000;
      for (let i = 0; i < files; i++) {
        const dir = path.join(root, "lib", `d${i % 40}`);
        if (i < 40) fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(path.join(dir, `f${i}.ts`), `export const f${i} = ${i};\n`);
      }
      const name = previewBoxName("root", "orders");
      const home = path.join(boxes.boxesDir, name);
      const preview = boxes.preview({ root, file: "resources/data.ts", export: "orders", command: "true" });
      // Wait until the copy has begun, then ask for a run in the same box.
      while (!fs.existsSync(path.join(home, "lib"))) await new Promise((r) => setImmediate(r));
      const counted = await boxes.run({ name, command: "find lib -name '*.ts' | wc -l", wait: true });
      assert.equal(counted.result?.stdout.trim(), String(files));
      const started = await preview;
      assert.equal(started.sync.copied, files + 6); // and the 6 files of COMPANY
      const starts = (await boxes.events({ name })).events.filter((e) => e.kind === "start").map((e) => e.runId);
      assert.deepEqual(starts, [started.runId, counted.runId], "the preview's command started first");
    });

    test("diff of a box whose folder was deleted by hand is reported, not a crash", async () => {
      const { root, boxes } = setup();
      const { name } = await boxes.preview({ root, file: "resources/data.ts", export: "orders", command: "true", wait: true });
      fs.rmSync(path.join(boxes.boxesDir, name), { recursive: true });
      await assert.rejects(boxes.diff({ name }), /is gone/);
      assert.equal((await boxes.list()).boxes.find((b) => b.name === name)?.state, "missing");
      const again = await boxes.preview({ root, file: "resources/data.ts", export: "orders", command: "cat resources/data.ts", wait: true });
      assert.match(again.result!.stdout, /collection/);
    });
  });
}

describe("preview pieces", () => {
  test("previewBoxName makes <scope>-<export> safe", () => {
    assert.equal(previewBoxName("billing", "invoice"), "billing-invoice");
    assert.equal(previewBoxName(null, "daily"), "root-daily");
    assert.equal(previewBoxName("a/b", "../x y"), "a_b-.._x_y");
    assert.equal(previewBoxName(".hidden", "x"), "hidden-x");
  });

  test("scopeOf finds the app of a file", () => {
    assert.equal(scopeOf("/c", "/c/apps/billing/workflows/x.ts"), "billing");
    assert.equal(scopeOf("/c", "workflows/x.ts"), null);
    assert.equal(scopeOf("/c", "apps/.hidden/workflows/x.ts"), null);
  });

  test("previewCommand fills the template, quoting what needs it", () => {
    assert.equal(previewCommand(DEFAULT_PREVIEW_COMMAND, { file: "apps/a/workflows/x.ts", export: "run", scope: "a", root: "/b", sanoma: "/c/node_modules/.bin/sanoma" }), "/c/node_modules/.bin/sanoma preview apps/a/workflows/x.ts#run");
    assert.equal(previewCommand("p ${file} ${scope} ${root} ${other}", { file: "work flows/it's.ts", export: "e", scope: null, root: "/b" }), "p 'work flows/it'\\''s.ts' '' /b ${other}");
  });

  test("explainPreviewExit recognises a missing CLI, from bash or from npx", () => {
    assert.equal(explainPreviewExit(127, ""), MISSING_CLI_MESSAGE);
    assert.equal(explainPreviewExit(127, "bwrap: Can't find source path /boxes/x: No such file or directory\n"), undefined, "bubblewrap's own failure");
    assert.equal(explainPreviewExit(1, "npm error 404 Not Found - GET https://registry.npmjs.org/sanoma - Not found"), MISSING_CLI_MESSAGE);
    assert.equal(explainPreviewExit(1, "npm ERR! npx canceled due to missing packages and no YES option"), MISSING_CLI_MESSAGE);
    assert.equal(explainPreviewExit(1, "TypeError: x is not a function"), undefined);
    assert.equal(explainPreviewExit(0, ""), undefined);
  });

  test(".gitignore patterns: anchors, folders only, negation, globs and parent folders", () => {
    const match = (text: string, rel: string, folder = false) => {
      const patterns = parseGitignore(text, "");
      let ignored = false;
      for (const p of patterns) if ((!p.folderOnly || folder) && p.regex.test(rel)) ignored = !p.negated;
      return ignored;
    };
    assert.equal(match("dist/", "dist", true), true);
    assert.equal(match("dist/", "dist", false), false);
    assert.equal(match("dist/", "apps/a/dist", true), true);
    assert.equal(match("/dist", "apps/a/dist", true), false);
    assert.equal(match("*.log", "a/b/c.log"), true);
    assert.equal(match("*.log\n!keep.log", "keep.log"), false);
    assert.equal(match("apps/*/tmp", "apps/a/tmp", true), true);
    assert.equal(match("apps/*/tmp", "x/apps/a/tmp", true), false);
    assert.equal(match("**/cache", "a/b/cache", true), true);
    assert.equal(match("a/**/z", "a/z"), true);
    assert.equal(match("a/**/z", "a/b/c/z"), true);
    assert.equal(match("file[0-9].txt", "file7.txt"), true);
    assert.equal(match("# comment\n\n", "# comment"), false);

    // A repository's .gitignore above the company applies to the company's paths.
    const repo = tempDir();
    fs.mkdirSync(path.join(repo, ".git"));
    fs.writeFileSync(path.join(repo, ".gitignore"), "company/secret-dir/\ncoverage\n");
    fs.mkdirSync(path.join(repo, "company"));
    const rules = IgnoreRules.above(path.join(repo, "company"));
    assert.equal(rules.ignores("secret-dir", true), true);
    assert.equal(rules.ignores("apps/a/coverage", true), true);
    assert.equal(rules.ignores("apps/a/src", true), false);
  });
});
