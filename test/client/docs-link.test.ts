/**
 * Where the "Show documentation for Sanoma rule" action opens a page (`client/src/docsLink.ts`):
 * the pages shipped in the extension (`file:`) in a VS Code tab, web pages in the browser. Handed to
 * the operating system, a `file:` page opened outside VS Code, or, in code-server, nowhere.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { docsOpenIn } from "../../client/src/docsLink.ts";

test("rule docs: a shipped page opens in a tab, a web page in the browser", () => {
  assert.equal(docsOpenIn("file:///home/u/.vscode/extensions/sanoma/docs/rules/lockfile.md"), "preview");
  assert.equal(docsOpenIn("FILE:///c:/x/docs/rules/lockfile.md"), "preview");
  assert.equal(docsOpenIn("https://github.com/sanoma-ai/tooling/blob/main/docs/rules/lockfile.md"), "browser");
});
