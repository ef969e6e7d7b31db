/**
 * A11 as you type, over stdio: the keystroke that breaks a data file brings its one `syntax-error`
 * and takes away what its declarations caused elsewhere (a wakeup pair, a shared lock object), and
 * the keystroke that mends it brings them back. A workflow source being typed keeps its import and
 * operation-id problems while it does not parse.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Diag } from "../support/lsp.ts";
import { withServer } from "../support/server.ts";
import { CLOUD_PACKAGE } from "../support/companies.ts";

const COMPANY = `
//- /sanoma.config.ts
export default { secrets: { bindings: { KEY: { env: "KEY" } } } };
//- /resources/a.ts
import { trigger } from "@hooli/cloud";
export const wake = trigger({ path: "/a" });
//- /resources/b.ts
import { trigger } from "@hooli/cloud";
import { secret } from "@sanoma-ai/workflows/resources";
export const other = trigger({ path: "/b" });
export const key = secret("NOT_BOUND");
//- /workflows/w.ts
import { x } from "../apps/m/lib/x";
export const w = async (ctx: any) => {
  await ctx.call("data.nope.get", {});
};
//- /apps/m/lib/x.ts
export const x = 1;
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/a.ts#wake": { "type": "cloud.trigger", "object": "cloud:trigger/1" },
  "resources/b.ts#other": { "type": "cloud.trigger", "object": "cloud:trigger/1" }
} }
${CLOUD_PACKAGE}`;

const codes = (ds: Diag[]) => ds.map((d) => String(d.code)).sort();

test("server: a data file broken by a keystroke is one syntax-error, and what its declarations caused elsewhere goes; mended, it all comes back (A11)", async () => {
  await withServer(COMPANY, async ({ c, root }) => {
    const a = join(root, "resources/a.ts");
    const b = join(root, "resources/b.ts");
    const lock = join(root, "sanoma.lock.json");
    await c.waitFor(() => codes(c.diagnosticsFor(b)).join() === "one-wakeup,secret-bindings", "the pair and the unbound secret in b.ts");
    assert.deepEqual(codes(c.diagnosticsFor(a)), ["one-wakeup"]);
    assert.deepEqual(codes(c.diagnosticsFor(lock)), ["lockfile", "lockfile"], "one object bound twice, at each binding");

    const text = readFileSync(b, "utf8");
    const broken = text.replace(`trigger({ path: "/b" });`, `trigger({ path: "/b" ;`);
    c.open(b, text);
    c.change(b, broken);
    await c.waitFor(() => codes(c.diagnosticsFor(b)).join() === "syntax-error", "b.ts: only its syntax-error");
    await c.waitFor(() => c.diagnosticsFor(a).length === 0 && c.diagnosticsFor(lock).length === 0, "the pair and the shared object gone with it");
    const d = c.diagnosticsFor(b)[0];
    assert.equal(d.severity, 1);
    assert.equal(d.message, "resources/b.ts does not parse (',' expected.): Sanoma cannot load it");
    const at = broken.split("\n")[2].indexOf(";");
    assert.deepEqual(d.range, { start: { line: 2, character: at }, end: { line: 2, character: at + 1 } }, "at the first syntax error");

    c.change(b, text);
    await c.waitFor(() => codes(c.diagnosticsFor(b)).join() === "one-wakeup,secret-bindings", "b.ts mended: its problems back");
    await c.waitFor(() => codes(c.diagnosticsFor(a)).join() === "one-wakeup" && c.diagnosticsFor(lock).length === 2, "the pair and the shared object back");
  });
});

test("server: a workflow source being typed is a syntax-error that keeps its import and operation-id problems, and a broken config judges no secret() call (A11)", async () => {
  await withServer(COMPANY, async ({ c, root }) => {
    const w = join(root, "workflows/w.ts");
    const config = join(root, "sanoma.config.ts");
    const b = join(root, "resources/b.ts");
    await c.waitFor(() => codes(c.diagnosticsFor(w)).join() === "collection-op,no-app-import-from-root", "w.ts's problems");
    const text = readFileSync(w, "utf8");
    c.open(w, text);
    c.change(w, text.replace(`{});\n};`, `{});\n  ctx.\n};`));
    await c.waitFor(() => codes(c.diagnosticsFor(w)).join() === "collection-op,no-app-import-from-root,syntax-error", "w.ts: its syntax-error beside its other problems");
    c.change(w, text);
    await c.waitFor(() => codes(c.diagnosticsFor(w)).join() === "collection-op,no-app-import-from-root", "w.ts mended");

    const configText = readFileSync(config, "utf8");
    c.open(config, configText);
    c.change(config, configText.replace(`env: "KEY" }`, `env: "KEY" `));
    await c.waitFor(() => codes(c.diagnosticsFor(config)).join() === "syntax-error", "the config's syntax-error");
    await c.waitFor(() => codes(c.diagnosticsFor(b)).join() === "one-wakeup", "b.ts: its secret() call no longer judged");
    c.change(config, configText);
    await c.waitFor(() => codes(c.diagnosticsFor(b)).join() === "one-wakeup,secret-bindings" && c.diagnosticsFor(config).length === 0, "the config mended");
  });
});
