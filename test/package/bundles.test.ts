/**
 * The bundles as the runtime holds them: every one is ASCII, since a single non-ASCII character
 * (a `→` in a comment) makes V8 keep the whole source, 11 MB for the server, two bytes a character.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";

const repo = join(__dirname, "..", "..");
const BUNDLES = ["dist/server.js", "dist/check.js", "dist/client.js", "server/dist/sanoma.js", "server/dist/read-ahead.js", "ts-plugin/dist/index.js", "lint-plugin/dist/index.mjs"];

test("every bundle is ASCII, so V8 holds its source one byte a character", () => {
  for (const bundle of BUNDLES) {
    const bytes = readFileSync(join(repo, bundle));
    const first = bytes.findIndex((b) => b > 0x7f);
    assert.equal(first, -1, `${bundle}: a non-ASCII byte at offset ${first}: ${bytes.subarray(Math.max(0, first - 40), first + 10).toString("utf8")}`);
  }
});
