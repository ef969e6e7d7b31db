/**
 * The server reads `.sanomarc.json` as `sanoma-check` does (one core function): the team's rule
 * levels and folders, the editor's `sanoma` settings laid over them, its problems as diagnostics
 * in the file itself (an unknown rule id with a did-you-mean), and every change to it (on disk,
 * through the client's watcher or the server's own, or unsaved in the editor) re-checks.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { LspClient } from "../support/lsp.ts";
import { parseFixture, removeFixture, writeFixture } from "../support/fixture.ts";
import { expectedOf, RC_CASES, spot } from "../support/sanomarc-cases.ts";
import { publishedByServer } from "../support/surfaces.ts";
import { withServer, type ServerOptions, type ServerRun } from "../support/server.ts";

const COMPANY = `
//- /sanoma.config.ts
export default { secrets: { bindings: {} } };
//- /workflows/w.ts
export const w = (ctx: any) => ctx.call("data.nope.get", {});
//- /generated/g.ts
export const g = (ctx: any) => ctx.call("data.nope.list", {});
//- /resources/keys.ts
import { secret } from "@sanoma-ai/workflows/resources";
export const token = secret("MISSING");
`;

/** The company, with `rc` as its .sanomarc.json (if any), under a server. */
function withRc(rc: string | undefined, run: (server: ServerRun) => Promise<void>, options: ServerOptions = {}): Promise<void> {
  const fixture = parseFixture(COMPANY);
  if (rc !== undefined) fixture.files[".sanomarc.json"] = rc;
  return withServer({ path: writeFixture(fixture, "sanoma-server-rc-") }, run, options);
}

const shown = (c: LspClient, root: string, file: string) => c.diagnosticsFor(join(root, file)).map((d) => `${d.code} ${d.severity}`);

test("server: .sanomarc.json's levels and folders apply; its problems are diagnostics in it, at their place, with a did-you-mean", async () => {
  const rules = `  "rules": { "collection-op": "warn", "secret-binding": "off" },`;
  await withRc(`{\n${rules}\n  "exclude": ["generated"]\n}\n`, async ({ root, c }) => {
    await c.waitFor(() => shown(c, root, "workflows/w.ts").join() === "collection-op 2", "collection-op as a warning");
    assert.deepEqual(shown(c, root, "generated/g.ts"), [], "an excluded folder");
    assert.deepEqual(shown(c, root, "resources/keys.ts"), ["secret-bindings 2"], "the unknown id turned nothing off");
    const [d] = c.diagnosticsFor(join(root, ".sanomarc.json"));
    assert.deepEqual({ ...d, codeDescription: undefined }, {
      range: { start: { line: 1, character: rules.indexOf(`"secret-binding"`) }, end: { line: 1, character: rules.indexOf(`"secret-binding"`) + 16 } }, severity: 1, source: "sanoma", code: "settings", codeDescription: undefined,
      message: `No rule named "secret-binding"; did you mean "secret-bindings"?`,
    });
    assert.match(d.codeDescription!.href, /docs\/settings\.md$/);
    // The watcher registered asks for the file's changes.
    const registration = c.serverRequests.find((r) => r.method === "client/registerCapability") as { params: { registrations: { registerOptions: { watchers: { globPattern: string }[] } }[] } } | undefined;
    assert.ok(registration?.params.registrations[0].registerOptions.watchers.some((w) => w.globPattern === "**/.sanomarc.json"));
  });
});

test("server: the editor's sanoma settings are laid over .sanomarc.json (its levels win, its folders add)", async () => {
  await withRc(`{ "rules": { "collection-op": "off", "secret-bindings": "hint" } }`, async ({ root, c }) => {
    await c.waitFor(() => shown(c, root, "workflows/w.ts").join() === "collection-op 3", "the editor's level");
    assert.deepEqual(shown(c, root, "resources/keys.ts"), ["secret-bindings 4"], "the team's level where the editor says nothing");
    assert.deepEqual(shown(c, root, "generated/g.ts"), []);
  }, { settings: { rules: { "collection-op": "info" }, exclude: ["generated"] } });
});

for (const dynamicWatch of [true, false]) {
  test(`server: .sanomarc.json written, fixed and deleted on disk re-checks (${dynamicWatch ? "client's didChangeWatchedFiles" : "server's own watcher"})`, async () => {
    await withRc(undefined, async ({ root, c }) => {
      const rc = join(root, ".sanomarc.json");
      await c.waitFor(() => shown(c, root, "workflows/w.ts").join() === "collection-op 1", "the default level");
      writeFileSync(rc, `{ "rules": { "collection-op": "off", "one-wakeup": "loud" }, "exclude": ["generated"] }`);
      if (dynamicWatch) c.watched([{ file: rc, type: 1 }]);
      await c.waitFor(() => shown(c, root, "workflows/w.ts").length === 0 && shown(c, root, "generated/g.ts").length === 0, "the rule off, the folder left out");
      await c.waitFor(() => c.diagnosticsFor(rc).length === 1, "the bad level said");
      assert.match(c.diagnosticsFor(rc)[0].message, /"loud" is no level/);
      writeFileSync(rc, `{ "rules": { "collection-op": "hint" } }`);
      if (dynamicWatch) c.watched([{ file: rc, type: 2 }]);
      await c.waitFor(() => shown(c, root, "workflows/w.ts").join() === "collection-op 4" && shown(c, root, "generated/g.ts").join() === "collection-op 4", "the new level, the folder back");
      await c.waitFor(() => c.diagnosticsFor(rc).length === 0, "the problem gone");
      unlinkSync(rc);
      if (dynamicWatch) c.watched([{ file: rc, type: 3 }]);
      await c.waitFor(() => shown(c, root, "workflows/w.ts").join() === "collection-op 1", "the default again");
    }, { dynamicWatch });
  });
}

test("server: a .sanomarc.json above the company root counts, a nearer one wins; the editor's unsaved text of it wins over the disk until it closes", async () => {
  const top = writeFixture(`
//- /.sanomarc.json
{ "rules": { "collection-op": "warning" } }
//- /co/sanoma.config.ts
export default {};
//- /co/workflows/w.ts
export const w = (ctx: any) => ctx.call("data.nope.get", {});
`, "sanoma-server-rc-above-");
  const root = join(top, "co");
  await withServer({ path: top }, async ({ c }) => {
    await c.waitFor(() => shown(c, root, "workflows/w.ts").join() === "collection-op 2", "the level from above");
    const near = join(root, ".sanomarc.json");
    writeFileSync(near, `{ "rules": {} }`);
    c.watched([{ file: near, type: 1 }]);
    await c.waitFor(() => shown(c, root, "workflows/w.ts").join() === "collection-op 1", "the nearer file, whole");
    c.open(near, `{ "rules": { "collection-op": "info", "colection-key": "off" } }`, "json");
    await c.waitFor(() => shown(c, root, "workflows/w.ts").join() === "collection-op 3", "the unsaved text");
    await c.waitFor(() => c.diagnosticsFor(near).length === 1, "its problem, as typed");
    c.change(near, `{ "rules": { "collection-op": "off" } }`);
    await c.waitFor(() => shown(c, root, "workflows/w.ts").length === 0 && c.diagnosticsFor(near).length === 0, "each keystroke");
    c.close(near);
    await c.waitFor(() => shown(c, root, "workflows/w.ts").join() === "collection-op 1", "the disk's text again");
  }, { folders: [root] });
});

test("server: a .sanomarc.json opened in the editor before it is saved (no file on disk: Neovim's :e) counts as typed, nearer than the one on disk above; closed unsaved, the one above holds again", async () => {
  const top = writeFixture(`
//- /.sanomarc.json
{ "rules": { "collection-op": "warning" } }
//- /co/sanoma.config.ts
export default {};
//- /co/workflows/w.ts
export const w = (ctx: any) => ctx.call("data.nope.get", {});
`, "sanoma-server-rc-unsaved-");
  const root = join(top, "co");
  const near = join(root, ".sanomarc.json");
  await withServer({ path: top }, async ({ c }) => {
    await c.waitFor(() => shown(c, root, "workflows/w.ts").join() === "collection-op 2", "the level from above");
    c.open(near, `{ "rules": { "collection-op": "info" } }`, "json");
    await c.waitFor(() => shown(c, root, "workflows/w.ts").join() === "collection-op 3", "the unsaved buffer, nearer");
    c.change(near, `{ "rules": { "collection-op": "info" `);
    await c.waitFor(() => c.diagnosticsFor(near).length === 1 && shown(c, root, "workflows/w.ts").join() === "collection-op 1", "a state that is no JSON, as typed: its problem, and no level of it (as sanoma-check reads such a file)");
    c.close(near);
    await c.waitFor(() => shown(c, root, "workflows/w.ts").join() === "collection-op 2", "closed unsaved: the one on disk above");
  }, { folders: [root] });
});

for (const dynamicWatch of [true, false]) {
  test(`server: a .sanomarc.json above the workspace folder (a monorepo's top, the editor opened on one company) made, changed and deleted counts at once, watched by the server (${dynamicWatch ? "the client watches the folder" : "the server watches it too"})`, async () => {
    const top = writeFixture(`
//- /co/sanoma.config.ts
export default {};
//- /co/workflows/w.ts
export const w = (ctx: any) => ctx.call("data.nope.get", {});
`, "sanoma-server-rc-top-");
    const root = join(top, "co");
    const rc = join(top, ".sanomarc.json");
    await withServer({ path: top }, async ({ c }) => {
      await c.waitFor(() => shown(c, root, "workflows/w.ts").join() === "collection-op 1", "the default level");
      // No event is sent: no client watches above its folders.
      writeFileSync(rc, `{ "rules": { "collection-op": "warn" } }`);
      await c.waitFor(() => shown(c, root, "workflows/w.ts").join() === "collection-op 2", "the file made");
      writeFileSync(rc, `{ "rules": { "collection-op": "off" } }`);
      await c.waitFor(() => shown(c, root, "workflows/w.ts").length === 0, "the file changed");
      unlinkSync(rc);
      await c.waitFor(() => shown(c, root, "workflows/w.ts").join() === "collection-op 1", "the file deleted");
    }, { folders: [root], dynamicWatch });
  });
}

// An open file of a company left out whole showed nothing, as a clean file does: it now has one
// Information diagnostic at its start that says so, and by what (any LSP client shows it).
test("server: a company inside a folder the .sanomarc.json above it leaves out is left out whole, its files opened or not, an open one noted as such; without the file, it is checked", async () => {
  const top = writeFixture(`
//- /co/.sanomarc.json
{ "exclude": ["templates"] }
//- /co/sanoma.config.ts
export default {};
//- /co/workflows/w.ts
export const w = (ctx: any) => ctx.call("data.nope.get", {});
//- /co/templates/starter/sanoma.config.ts
export default {};
//- /co/templates/starter/workflows/t.ts
export const t = (ctx: any) => ctx.call("data.nope.get", {});
`, "sanoma-server-rc-whole-");
  const root = join(top, "co");
  const starter = join(root, "templates/starter/workflows/t.ts");
  await withServer({ path: top }, async ({ c }) => {
    await c.waitFor(() => shown(c, root, "workflows/w.ts").join() === "collection-op 1", "the company's own problem");
    c.open(starter, `export const t = (ctx: any) => ctx.call("data.nope.list", {});\n`);
    await c.waitIdle();
    await c.waitIdle();
    // Nothing of it judged; opened, the one sign that says why.
    assert.deepEqual(c.diagnosticsFor(starter).map((d) => ({ code: d.code, severity: d.severity, source: d.source, range: d.range, message: d.message, href: d.codeDescription?.href, related: d.relatedInformation?.map((r) => r.location.uri) })), [{
      code: "left-out", severity: 3, source: "sanoma", range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      message: `This file's company (starter) is left out whole by ../../.sanomarc.json's exclude "templates": Sanoma judges none of its files, this one included`,
      href: "https://github.com/sanoma-ai/sanoma-tooling/blob/main/docs/settings.md#a-company-left-out-whole",
      related: [pathToFileURL(join(root, ".sanomarc.json")).href],
    }]);
    assert.deepEqual(c.diagnosticsFor(join(root, "templates/starter/workflows/other.ts")), [], "(a file not open: nothing)");
    // Listed, and said to be left out, so that a client's list does not take it for an empty company.
    const listed = async () => Object.fromEntries((await c.request("sanoma/companies", null)).companies.map((co: any) => [relative(top, co.root), co.leftOut ?? null]));
    assert.deepEqual(await listed(), { "co": null, "co/templates/starter": `../../.sanomarc.json's exclude "templates"` });
    // Closed: the note goes; opened again, it is back.
    c.close(starter);
    await c.waitFor(() => c.diagnosticsFor(starter).length === 0, "the note gone with the file");
    c.open(starter, `export const t = (ctx: any) => ctx.call("data.nope.list", {});\n`);
    await c.waitFor(() => c.diagnosticsFor(starter).map((d) => d.code).join() === "left-out", "the note back");
    // The folder no longer left out: the company is checked, the note gone.
    writeFileSync(join(root, ".sanomarc.json"), `{ "exclude": [] }`);
    c.watched([{ file: join(root, ".sanomarc.json"), type: 2 }]);
    await c.waitFor(() => c.diagnosticsFor(starter).map((d) => d.code).join() === "collection-op", "checked once no longer left out");
    assert.deepEqual(await listed(), { "co": null, "co/templates/starter": null }, "no longer said to be left out");
    // Left out again: the note replaces its problems.
    writeFileSync(join(root, ".sanomarc.json"), `{ "exclude": ["starter"] }`);
    c.watched([{ file: join(root, ".sanomarc.json"), type: 2 }]);
    await c.waitFor(() => c.diagnosticsFor(starter).map((d) => d.code).join() === "left-out", "noted again");
    assert.match(c.diagnosticsFor(starter)[0].message, /left out whole by \.\.\/\.\.\/\.sanomarc\.json's exclude "starter"/);
  }, { folders: [root] });
});

// A file in a folder its company's walk leaves out (`generated/` by the team's .sanomarc.json, or
// `legacy/` by the editor's sanoma.exclude) showed nothing, as a clean file does, while the rest of
// its company was judged: opened, it now has the same kind of note, saying which folder and who
// leaves it out; a file the company judges has none.
test("server: an open file in a folder its company leaves out (.sanomarc.json's exclude, sanoma.exclude) is noted as such, by which folder and who; a judged file is not; closed, or the folder let back in, the note goes", async () => {
  const root = writeFixture(`
//- /.sanomarc.json
{ "exclude": ["generated"] }
//- /sanoma.config.ts
export default {};
//- /workflows/w.ts
export const w = (ctx: any) => ctx.call("data.nope.get", {});
//- /generated/workflows/g.ts
export const g = (ctx: any) => ctx.call("data.nope.get", {});
//- /legacy/workflows/l.ts
export const l = (ctx: any) => ctx.call("data.nope.get", {});
`, "sanoma-server-rc-folder-");
  const generated = join(root, "generated/workflows/g.ts");
  const legacy = join(root, "legacy/workflows/l.ts");
  const judged = join(root, "workflows/w.ts");
  await withServer({ path: root }, async ({ c }) => {
    await c.waitFor(() => shown(c, root, "workflows/w.ts").join() === "collection-op 1", "the company's own problem");
    for (const f of [generated, legacy, judged]) c.open(f, readFileSync(f, "utf8"));
    await c.waitIdle();
    await c.waitIdle();
    assert.deepEqual(c.diagnosticsFor(generated).map((d) => ({ code: d.code, severity: d.severity, range: d.range, message: d.message, href: d.codeDescription?.href, related: d.relatedInformation?.map((r) => r.location.uri) })), [{
      code: "left-out", severity: 3, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      message: `This file lies in "generated", a folder of ${basename(root)} that .sanomarc.json's exclude leaves out: Sanoma judges none of the files there, this one included`,
      href: "https://github.com/sanoma-ai/sanoma-tooling/blob/main/docs/settings.md#a-file-in-a-folder-left-out",
      related: [pathToFileURL(join(root, ".sanomarc.json")).href],
    }]);
    assert.deepEqual(c.diagnosticsFor(judged).map((d) => d.code), ["collection-op"], "(a judged file: its problems, no note)");
    assert.deepEqual(c.diagnosticsFor(legacy).map((d) => d.code), ["collection-op"], "(legacy/ is judged: no setting leaves it out yet)");
    // The editor's setting leaves legacy/ out too: its file is noted, by sanoma.exclude.
    c.settings = { exclude: ["legacy"] };
    c.notify("workspace/didChangeConfiguration", { settings: null });
    await c.waitFor(() => c.diagnosticsFor(legacy).map((d) => d.code).join() === "left-out", "noted once sanoma.exclude leaves legacy/ out");
    assert.match(c.diagnosticsFor(legacy)[0].message, /lies in "legacy", a folder of .* that sanoma\.exclude leaves out/);
    // Closed: the note goes.
    c.close(generated);
    await c.waitFor(() => c.diagnosticsFor(generated).length === 0, "the note gone with the file");
    // generated/ let back in: its open file is judged, no note.
    c.open(generated, readFileSync(generated, "utf8"));
    await c.waitFor(() => c.diagnosticsFor(generated).map((d) => d.code).join() === "left-out", "the note back on open");
    writeFileSync(join(root, ".sanomarc.json"), `{ "exclude": [] }`);
    c.watched([{ file: join(root, ".sanomarc.json"), type: 2 }]);
    await c.waitFor(() => c.diagnosticsFor(generated).map((d) => d.code).join() === "collection-op", "judged once let back in");
  }, { folders: [root] });
});

// The cases sanoma-check runs (test/check/sanomarc.test.ts), over the first folder it is given
// there as the workspace folder: the server publishes what the check prints, each company
// judged by the .sanomarc.json nearest its root, and the problems of those files alone.
for (const c of RC_CASES) {
  test(`server: each company judged by the .sanomarc.json nearest its root, as sanoma-check judges it: ${c.name}`, async () => {
    const dir = writeFixture(c.source, "sanoma-server-rc-case-");
    try {
      const [folder] = Object.keys(c.runs);
      const messages = new Map<string, string>();
      for (const { file, diagnostic: d } of await publishedByServer(join(dir, folder))) {
        messages.set(spot(relative(dir, file), d.range.start.line, d.range.start.character, d.range.end.character, String(d.code)), d.message);
      }
      const { spots, words } = expectedOf(c, folder);
      assert.deepEqual([...messages.keys()].sort(), spots);
      for (const [at, text] of words) assert.ok(messages.get(at)!.includes(text), `${at}: ${messages.get(at)} (expected "${text}")`);
    } finally { removeFixture(dir); }
  });
}

test("server: an absolute folder of sanoma.exclude is the folder it names (a path of the company it lies in); a folder in no company, nor holding one, is said as a folder that names nothing is, and left out; one that is no folder (/resources) is a path from the company root, as it always was", async () => {
  const fixture = parseFixture(COMPANY);
  const dir = writeFixture(fixture, "sanoma-server-abs-exclude-");
  const elsewhere = mkdtempSync(join(tmpdir(), "sanoma-server-elsewhere-"));
  try {
    await withServer({ path: dir }, async ({ root, c }) => {
      await c.waitFor(() => shown(c, root, "workflows/w.ts").join() === "collection-op 1", "the company checked");
      assert.deepEqual(shown(c, root, "generated/g.ts"), [], "the absolute path left its folder out");
      assert.deepEqual(shown(c, root, "resources/keys.ts"), [], "so did /resources, read from the company root");
      const warnings = c.notifications.filter((n) => n.method === "window/showMessage").map((n) => (n.params as { message: string }).message);
      assert.deepEqual(warnings, [`Sanoma: sanoma.exclude: "${elsewhere}" lies in no company of the workspace, nor holds one: it names no folder of theirs`]);
    }, ([root]) => ({ settings: { exclude: [join(root, "generated"), elsewhere, "/resources"] } }));
  } finally {
    removeFixture(dir);
    rmSync(elsewhere, { recursive: true, force: true });
  }
});
