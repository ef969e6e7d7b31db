/** readLock finds each binding's key, type and object, by its scan and by the syntax tree alike. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readLock } from "../../server/src/core/lockfile.ts";

function at(text: string, needle: string) {
  const i = text.indexOf(needle);
  const before = text.slice(0, i).split("\n");
  return { line: before.length - 1, character: before[before.length - 1].length };
}

for (const [name, text] of [
  ["written by apply (the scan)", `{\n  "version": 1,\n  "bindings": {\n    "resources/a.ts#x": { "type": "t.a", "object": "o:1" },\n    "resources/b.ts#y": {\n      "object": "o:2",\n      "type": "t.b"\n    }\n  }\n}\n`],
  ["with a key JSON.parse reorders (the syntax tree)", `{ "version": 1, "bindings": {\n  "resources/a.ts#x": { "type": "t.a", "object": "o:1" },\n  "7": { "type": "t.c", "object": "o:3" },\n  "resources/b.ts#y": { "object": "o:2", "type": "t.b" } } }`],
  ["with escapes in its strings (the syntax tree)", `{ "version": 1, "bindings": {\n  "resources/a.ts#x": { "type": "t.\\u0061", "object": "o:1" },\n  "resources/b.ts#y": { "object": "o:2", "type": "t.b" } } }`],
] as const) {
  test(`readLock: positions of a lockfile ${name}`, () => {
    const lock = readLock(text);
    assert.equal(lock.error, undefined);
    const x = lock.bindings.find((b) => b.key === "resources/a.ts#x")!;
    assert.deepEqual(x.keyRange.start, at(text, `"resources/a.ts#x"`));
    assert.deepEqual(x.objectRange.start, at(text, `"o:1"`));
    const y = lock.bindings.find((b) => b.key === "resources/b.ts#y")!;
    assert.deepEqual(y.typeRange.start, at(text, `"t.b"`));
    assert.deepEqual(y.objectRange.start, at(text, `"o:2"`));
    assert.equal(y.typeRange.end.character - y.typeRange.start.character, `"t.b"`.length);
  });
}

test("readLock: a lockfile nested a thousand deep is one problem at its first line, not a stack overflow", () => {
  // JSON.parse reads it; TypeScript's parser, which places problems, overflowed the stack and
  // took sanoma-check down with every company of the run (found by a spec sweep).
  const deep = "[".repeat(1000) + "]".repeat(1000);
  for (const text of [`{"version": 1, "bindings": ${deep}}`, `{"version": 2, "extra": ${deep}, "bindings": {}}`]) {
    const lock = readLock(text);
    assert.match(lock.error!.message, /not a lockfile at `bindings`|has version 2/);
    assert.deepEqual(lock.error!.range.start, { line: 0, character: 0 });
    assert.deepEqual(lock.bindings, []);
  }
});

test("readLock: a binding key written twice is one problem at the second, naming the first's line; two versions are judged by the last, there", () => {
  const text = `{\n  "version": 1,\n  "bindings": {\n    "resources/infra.ts#web": { "type": "cloud.vm", "object": "o/1" },\n    "resources/infra.ts#api": { "type": "cloud.vm", "object": "o/2" },\n    "resources/infra.ts#web": { "type": "cloud.vm", "object": "o/2" }\n  }\n}\n`;
  const lock = readLock(text);
  assert.match(lock.error!.message, /binds resources\/infra\.ts#web twice \(first on line 4\)/);
  assert.deepEqual(lock.error!.range.start, { line: 5, character: 4 });
  assert.deepEqual(lock.bindings, []);
  const versions = `{ "version": 1,\n  "version": 2, "bindings": {} }`;
  const v = readLock(versions);
  assert.match(v.error!.message, /has version 2/);
  assert.deepEqual(v.error!.range.start, { line: 1, character: 13 });
});

test("readLock: a lockfile that starts with a byte order mark is read past it", () => {
  const lock = readLock(`\ufeff{ "version": 1, "bindings": { "resources/a.ts#x": { "type": "t.a", "object": "o:1" } } }`);
  assert.equal(lock.error, undefined);
  assert.deepEqual(lock.bindings.map((b) => b.key), ["resources/a.ts#x"]);
});
