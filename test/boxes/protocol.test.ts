/**
 * Keeps the boxes' part of the custom protocol in step: every `sanoma/boxes/*` message declared in
 * `server/src/protocol.ts` is documented in `docs/protocol.md` (and nothing undeclared is), and
 * every request has the `BoxService` method the server connects it to.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as protocol from "../../server/src/protocol.ts";
import { BoxService, boxRequestHandlers } from "../../server/src/boxes/service.ts";
import { tempDir, cleanupTempDirs } from "./helpers.ts";

const root = path.resolve(__dirname, "../..");

test("every sanoma/boxes message is declared once and documented in docs/protocol.md", () => {
  const declared: string[] = (Object.values(protocol) as unknown[]).filter((v): v is string => typeof v === "string" && v.startsWith("sanoma/boxes/"));
  assert.ok(declared.length >= 11);
  assert.equal(new Set(declared).size, declared.length, "declared once");
  const docs = fs.readFileSync(path.join(root, "docs/protocol.md"), "utf8");
  const section = docs.slice(docs.indexOf("## Boxes and previews"));
  assert.ok(docs.startsWith("# Custom protocol"));
  for (const method of declared) assert.ok(section.includes(`\`${method}\``), `${method} is documented`);
  const documented = new Set(section.match(/sanoma\/boxes\/[a-zA-Z]+/g));
  for (const method of documented) assert.ok(declared.includes(method), `${method} is declared in protocol.ts`);
});

test("boxRequestHandlers answers every sanoma/boxes request, a refused name with the B4 sentence", async () => {
  const requests = (Object.entries(protocol) as [string, unknown][]).filter(([key, v]) => key.endsWith("Request") && typeof v === "string" && v.startsWith("sanoma/boxes/")).map(([, v]) => v as string);
  const service = new BoxService({ boxesDir: tempDir(), tier: "process" });
  try {
    const handlers = new Map(boxRequestHandlers(service));
    assert.deepEqual([...handlers.keys()].sort(), requests.sort());
    const open = handlers.get(protocol.BoxesOpenRequest)! as (p: unknown) => Promise<unknown>;
    await assert.rejects(open({ name: "../x" }), { message: "../x is no box's name" });
    const list = handlers.get(protocol.BoxesListRequest)! as (p: unknown) => Promise<{ boxes: unknown[] }>;
    assert.deepEqual((await list(undefined)).boxes, []);
  } finally {
    await service.dispose();
    cleanupTempDirs();
  }
});

test("every sanoma/boxes request has its BoxService method", () => {
  const requests = Object.entries(protocol).filter(([key, v]) => key.endsWith("Request") && typeof v === "string" && v.startsWith("sanoma/boxes/"));
  for (const [, method] of requests) {
    const name = (method as string).slice("sanoma/boxes/".length);
    assert.equal(typeof (BoxService.prototype as unknown as Record<string, unknown>)[name], "function", `BoxService.${name}`);
  }
});
