/** Every custom message of `server/src/protocol.ts` is documented in `docs/protocol.md`, and the docs name nothing undeclared. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as protocol from "../../server/src/protocol.ts";

test("protocol: every sanoma/* message declared in protocol.ts is documented, and only those", () => {
  const declared = (Object.values(protocol) as unknown[]).filter((v): v is string => typeof v === "string" && v.startsWith("sanoma/"));
  assert.ok(declared.length >= 15);
  const docs = readFileSync(join(import.meta.dirname, "..", "..", "docs", "protocol.md"), "utf8");
  for (const m of declared) assert.ok(docs.includes(`\`${m}\``), `${m} is documented`);
  for (const [, m] of docs.matchAll(/`(sanoma\/[A-Za-z]+(?:\/[A-Za-z]+)?)`/g)) assert.ok(declared.includes(m), `${m} is declared in protocol.ts`);
});
