/**
 * Holds the boxes module's architecture invariants: no editor or LSP import anywhere under
 * `server/src/boxes/`, and no file there hands `process.env` to a command (the one read of it,
 * in `tiers.ts`, only looks for `bash` and `bwrap`; `service.ts` reads `XDG_CACHE_HOME`;
 * `container.ts` hands the engine's CLI the few variables that find its configuration).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";

const dir = path.resolve(__dirname, "../../server/src/boxes");
const sources = fs.readdirSync(dir).filter((f) => f.endsWith(".ts")).map((f) => ({ file: f, text: fs.readFileSync(path.join(dir, f), "utf8") }));

test("server/src/boxes imports no editor or LSP module", () => {
  assert.ok(sources.length >= 10);
  for (const { file, text } of sources) {
    const specifiers = [...text.matchAll(/\bfrom\s+"([^"]+)"|\bimport\(\s*"([^"]+)"\s*\)|\brequire\(\s*"([^"]+)"\s*\)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
    for (const specifier of specifiers) {
      assert.ok(!/^(vscode|vscode-languageserver|vscode-languageclient|vscode-jsonrpc)(\/|$)/.test(specifier!), `${file} imports ${specifier}`);
      if (specifier!.startsWith(".")) assert.ok(specifier!.startsWith("./") || specifier === "../protocol.ts", `${file} imports ${specifier}: only its own folder and the protocol's types`);
    }
  }
});

test("only the documented places read the server's environment", () => {
  const readers = sources.filter(({ text }) => /process\.env\b/.test(text)).map(({ file }) => file).sort();
  assert.deepEqual(readers, ["container.ts", "service.ts", "tiers.ts"]);
  for (const { file, text } of sources) assert.ok(!/env:\s*process\.env|\.\.\.process\.env/.test(text), `${file} passes process.env on`);
});
