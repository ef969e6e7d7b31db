/**
 * The extension manifest (the root package.json) kept in step with the code: the settings it
 * contributes are the ones the server parses (same keys, defaults and values), every rule id is
 * listed, every command is registered by the client and has the `Sanoma` category, every menu names
 * a contributed command, and the lockfile schema accepts the example companies' lockfiles.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { RULE_IDS } from "../../server/src/core/rules/index.ts";
import { DEFAULT_SETTINGS, parseSettings } from "../../server/src/lsp/settings.ts";
import Ajv from "ajv";

const repo = join(__dirname, "..", "..");
const manifest = JSON.parse(readFileSync(join(repo, "package.json"), "utf8"));
const contributes = manifest.contributes;
const properties: Record<string, { default?: unknown; enum?: string[]; properties?: Record<string, { enum?: string[] }>; additionalProperties?: { enum?: string[] } }> =
  contributes.configuration.properties;

test("manifest settings are the server's: keys, defaults and values", () => {
  const levels = ["off", "error", "warning", "warn", "info", "hint"];
  const rules = properties["sanoma.rules"]!;
  // Every level the manifest offers is one the server takes (`warn` as `warning`, as .sanomarc.json and --rule read it).
  for (const level of levels) assert.deepEqual(parseSettings({ rules: { "one-wakeup": level } }).settings.rules, { "one-wakeup": level === "warn" ? "warning" : level }, level);
  assert.deepEqual(Object.keys(rules.properties ?? {}).sort(), [...RULE_IDS].sort(), "sanoma.rules lists every rule id");
  for (const [id, schema] of Object.entries(rules.properties ?? {})) assert.deepEqual(schema.enum, levels, `levels of ${id}`);
  assert.deepEqual(rules.additionalProperties?.enum, levels);

  // What VS Code sends when nothing is set: the manifest's defaults, which the server must read as its own.
  const fromManifest: Record<string, unknown> = {};
  for (const [key, schema] of Object.entries(properties)) {
    if (key === "sanoma.trace.server") continue; // the client's own
    const path = key.slice("sanoma.".length).split(".");
    let at = fromManifest;
    for (const part of path.slice(0, -1)) at = (at[part] ??= {}) as Record<string, unknown>;
    at[path[path.length - 1]!] = schema.default;
  }
  const parsed = parseSettings(fromManifest);
  assert.deepEqual(parsed.problems, []);
  assert.deepEqual(parsed.settings, DEFAULT_SETTINGS, "the manifest's defaults are the server's defaults");

  assert.deepEqual(properties["sanoma.boxes.isolation"]!.enum, ["auto", "process", "namespace", "container"]);
  for (const tier of ["auto", "process", "namespace", "container"]) assert.deepEqual(parseSettings({ boxes: { isolation: tier } }).problems, []);
});

test("settings: one bad value falls back to its own default, said, and takes no other setting with it", () => {
  const { settings, problems } = parseSettings({
    rules: { "one-wakeup": "warnings", "collection-op": "off", "colection-scope": "error" },
    exclude: ["generated"],
    companyRoots: ["../co"],
    preview: { command: "echo hi" },
    boxes: { isolation: "vm" },
  });
  assert.deepEqual(settings.rules, { "collection-op": "off" }, "the bad level and the unknown rule are left out, the good one kept");
  assert.deepEqual([settings.exclude, settings.companyRoots, settings.preview.command], [["generated"], ["../co"], "echo hi"]);
  assert.equal(settings.boxes.isolation, DEFAULT_SETTINGS.boxes.isolation);
  assert.equal(problems.length, 3, problems.join("\n"));
  assert.ok(problems.some((p) => p.startsWith("sanoma.rules.one-wakeup:")) && problems.includes('sanoma.rules: no rule named "colection-scope"; did you mean "collection-scope"?') && problems.some((p) => p.startsWith("sanoma.boxes.isolation:")), problems.join("\n"));
  assert.deepEqual(parseSettings({ exclude: "generated", rules: { "collection-op": "off" } }).settings.rules, { "collection-op": "off" });
  assert.deepEqual(parseSettings([]).settings, DEFAULT_SETTINGS);
});

test("manifest commands are registered by the client, with the Sanoma category", () => {
  const source = readdirSync(join(repo, "client", "src")).map((f) => readFileSync(join(repo, "client", "src", f), "utf8")).join("\n");
  const ids: string[] = contributes.commands.map((c: { command: string }) => c.command);
  for (const c of contributes.commands as { command: string; category?: string; title: string }[]) {
    assert.equal(c.category, "Sanoma", `${c.command} has the Sanoma category`);
    assert.ok(source.includes(`"${c.command}"`), `${c.command} is registered in client/src`);
  }
  const menus = Object.values(contributes.menus as Record<string, { command: string }[]>).flat();
  for (const m of menus) assert.ok(ids.includes(m.command), `menu item ${m.command} is a contributed command`);
  assert.ok(manifest.activationEvents.includes("workspaceContains:**/sanoma.config.ts"));
  assert.ok(manifest.activationEvents.includes("onLanguage:typescript"));
});

test("lockfile schema accepts what the server reads (the examples', extra fields, any export name) and refuses what it cannot read", () => {
  const validation = contributes.jsonValidation.find((v: { fileMatch: string }) => v.fileMatch === "sanoma.lock.json");
  const schema = JSON.parse(readFileSync(join(repo, validation.url), "utf8"));
  assert.deepEqual(schema.required, ["version", "bindings"]);
  const validate = new Ajv({ allErrors: true }).compile(schema);
  const valid = (lock: unknown) => { const ok = validate(lock) as boolean; return ok || (validate.errors ?? []).map((e) => `${e.dataPath} ${e.message}`).join("; "); };
  for (const example of ["acme", "acme-broken"]) assert.equal(valid(JSON.parse(readFileSync(join(repo, "examples", example, "sanoma.lock.json"), "utf8"))), true, example);
  // Fields a newer apply may write, and an export named past ASCII: the server reads them, so may the editor.
  assert.equal(valid(JSON.parse(readFileSync(join(repo, "test/fixtures/conformance/kramerica/extra-key/sanoma.lock.json"), "utf8"))), true, "extra fields");
  assert.equal(valid({ version: 1, bindings: { "resources/infra.ts#café": { type: "fly.machine", object: "fly:m/1" } } }), true, "a Unicode export name");
  // What the server cannot read as a lockfile, or as a binding.
  for (const bad of [{ version: 2, bindings: {} }, { version: 1 }, { version: 1, bindings: [] }, { version: 1, bindings: { "a.ts#b": { type: 5, object: "o" } } }, { version: 1, bindings: { "a.ts#b": "o" } }, { version: 1, bindings: { "a.ts#b": { type: "x.y" } } }]) {
    assert.notEqual(valid(bad), true, JSON.stringify(bad));
  }
});
