/** readLock finds each binding's key, type and object, by its scan and by the syntax tree alike. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { jsonErrorAt, readLock } from "../../server/src/core/lockfile-read.ts";
import { MAX_READ_BYTES } from "../../server/src/core/types.ts";

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

test("readLock: a binding key written twice is one problem at each later copy, naming the first's line; the bindings are read as JSON.parse reads them (the last copy), identical copies too; two versions are judged by the last, there", () => {
  const text = `{\n  "version": 1,\n  "bindings": {\n    "resources/infra.ts#web": { "type": "cloud.vm", "object": "o/1" },\n    "resources/infra.ts#api": { "type": "cloud.vm", "object": "o/2" },\n    "resources/infra.ts#web": { "type": "cloud.vm", "object": "o/3" }\n  }\n}\n`;
  const lock = readLock(text);
  assert.equal(lock.error, undefined);
  assert.equal(lock.duplicates?.length, 1);
  assert.match(lock.duplicates![0].message, /binds resources\/infra\.ts#web twice \(first on line 4\)/);
  assert.deepEqual(lock.duplicates![0].range.start, { line: 5, character: 4 });
  assert.deepEqual(lock.duplicates![0].first.start, { line: 3, character: 4 }, "the first copy, for the problem's related location");
  assert.deepEqual(lock.bindings.map((b) => `${b.key} ${b.object} ${b.keyRange.start.line}`).sort(), ["resources/infra.ts#api o/2 4", "resources/infra.ts#web o/3 5"]);
  // The same binding written twice, alike to the letter: still said (the scan that reads a lockfile apply wrote passes over nothing).
  const same = readLock(`{ "version": 1, "bindings": {\n  "r/a.ts#x": { "type": "t.a", "object": "o:1" },\n  "r/a.ts#x": { "type": "t.a", "object": "o:1" }\n} }`);
  assert.equal(same.duplicates?.length, 1);
  assert.deepEqual(same.duplicates![0].range.start, { line: 2, character: 2 });
  assert.deepEqual(same.bindings.map((b) => b.key), ["r/a.ts#x"]);
  const versions = `{ "version": 1,\n  "version": 2, "bindings": {} }`;
  const v = readLock(versions);
  assert.match(v.error!.message, /has version 2/);
  assert.deepEqual(v.error!.range.start, { line: 1, character: 13 });
});

test("readLock: a lockfile that is not JSON is placed at its first syntax error, also where the runtime's message gives no position", () => {
  for (const [bad, line] of [
    [`{\n  "version": 1,\n  "bindings": {\n    "r/a.ts#x": { "type": "cloud.vm", "object": cloud:vm/1 }\n  }\n}\n`, 3],
    [`{\n  "version": 1,\n  "bindings": {\n    "r/a.ts#x": { "type": 'cloud.vm', "object": "o" }\n  }\n}\n`, 3],
    [`{\n  "version": 1,\n  "bindings": {\n    "r/a.ts#x": { "type": "cloud.vm" "object": "o" }\n  }\n}\n`, 3],
  ] as const) {
    const lock = readLock(bad);
    assert.match(lock.error!.message, /is not JSON/);
    assert.equal(lock.error!.range.start.line, line, bad);
  }
});

test("jsonErrorAt: a strict JSON reading accepts exactly what JSON.parse accepts, over thousands of mutated texts", () => {
  const base = `{"version": 1, "bindings": {"r/a.ts#x": {"type": "t.a", "object": "o:1", "n": [-0.5e+3, 12, true, false, null, "\\u00e9\\n"]}}}`;
  const alphabet = ` \t\n{}[],:"'\\-+.0123456789eEtrufalsn\u0001x`;
  let seed = 7;
  const rand = (n: number) => { seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff; return seed % n; };
  let rejected = 0;
  for (let k = 0; k < 4000; k++) {
    let t = base;
    for (let e = 1 + rand(3); e > 0; e--) {
      const at = rand(t.length + 1);
      const op = rand(3);
      const ch = alphabet[rand(alphabet.length)];
      t = op === 0 ? t.slice(0, at) + t.slice(at + 1) : op === 1 ? t.slice(0, at) + ch + t.slice(at) : t.slice(0, at) + ch + t.slice(at + 1);
    }
    let parses = true;
    try { JSON.parse(t); } catch { parses = false; }
    if (!parses) rejected++;
    assert.equal(jsonErrorAt(t) === -1, parses, `seed text: ${JSON.stringify(t)}`);
  }
  assert.ok(rejected > 1000, "the mutations reach both sides");
});

test("readLock: a lockfile that starts with a byte order mark is read past it", () => {
  const lock = readLock(`\ufeff{ "version": 1, "bindings": { "resources/a.ts#x": { "type": "t.a", "object": "o:1" } } }`);
  assert.equal(lock.error, undefined);
  assert.deepEqual(lock.bindings.map((b) => b.key), ["resources/a.ts#x"]);
});

/** What a reading of a lockfile says, as plain data: every binding with its places, and every problem. */
function reading(lock: ReturnType<typeof readLock>) {
  return {
    error: lock.error,
    bindings: lock.bindings.map((b) => ({ key: b.key, type: b.type, object: b.object, keyRange: b.keyRange, typeRange: b.typeRange, objectRange: b.objectRange })),
    byRel: [...lock.byRel].map(([rel, list]) => [rel, list.map((b) => b.key)]),
    duplicates: lock.duplicates, malformed: lock.malformed,
  };
}

/** The text cut into pieces after line ends, as the server reads a big lockfile from disk (`readFileSteps`): each line end cuts with odds `1/every`. */
function cutAtLineEnds(text: string, rand: (n: number) => number, every: number): string[] {
  const pieces: string[] = [];
  let from = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) {
    if (rand(every) === 0) { pieces.push(text.slice(from, i + 1)); from = i + 1; }
  }
  pieces.push(text.slice(from));
  return pieces;
}

test("readLock: a lockfile in pieces cut at line ends is read as the one string, places and problems alike, over hundreds of mutated lockfiles", () => {
  const lines = [
    `{`, `  "version": 1,`, `  "other": [1, {"a": null}],`, `  "bindings": {`,
    `    "resources/a.ts#x": { "type": "t.a", "object": "o:1" },`,
    `    "resources/b.ts#y": {`, `      "object": "o:2",`, `      "type": "t.b"`, `    },`,
    `    "resources/a.ts#z": { "type": "t.\\u0061", "object": "o:1", "note": "x" }`,
    `  }`, `}`, ``,
  ];
  const alphabet = ` \n\r{}[],:"\\0123456789x`;
  let seed = 11;
  const rand = (n: number) => { seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff; return seed % n; };
  const seen = { scanned: 0, problems: 0 };
  for (let k = 0; k < 600; k++) {
    let t = lines.join(rand(4) === 0 ? "\r\n" : "\n");
    if (k % 5 === 1) t = "\ufeff" + t;
    for (let e = k % 3 === 0 ? 0 : rand(3); e > 0; e--) {
      const at = rand(t.length + 1);
      const ch = alphabet[rand(alphabet.length)];
      t = rand(2) === 0 ? t.slice(0, at) + t.slice(at + 1) : t.slice(0, at) + ch + t.slice(at);
    }
    const whole = reading(readLock(t));
    if (whole.error || whole.duplicates || whole.malformed) seen.problems++; else seen.scanned++;
    for (const every of [1, 3]) {
      const pieces = cutAtLineEnds(t, rand, every);
      assert.deepEqual(reading(readLock(pieces)), whole, `${JSON.stringify(pieces)}`);
    }
  }
  assert.ok(seen.scanned > 150 && seen.problems > 150, `both kinds of lockfile are reached: ${JSON.stringify(seen)}`);
});

test("readLock: keys named like Object.prototype's own (toString, constructor, __proto__, hasOwnProperty) are bindings like any other: one in another shape is said so, one well made is read", () => {
  for (const key of ["toString", "constructor", "__proto__", "hasOwnProperty"]) {
    const bad = readLock(`{"version":1,"bindings":{${JSON.stringify(key)}:5}}`);
    assert.equal(bad.error, undefined, key);
    assert.deepEqual(bad.bindings, [], `${key}: no binding of another shape is read`);
    assert.equal(bad.malformed?.length, 1, `${key}: said to be in another shape`);
    assert.match(bad.malformed![0].message, new RegExp(`binds ${key} in another shape`));
    const good = readLock(`{"version":1,"bindings":{${JSON.stringify(key)}:{"type":"t.a","object":"o:1"},"resources/a.ts#x":{"type":"t.b","object":5}}}`);
    assert.deepEqual(good.bindings.map((b) => [b.key, b.type, b.object]), [[key, "t.a", "o:1"]], key);
    assert.equal(good.malformed?.length, 1, `${key}: the other binding is said to be in another shape`);
  }
});

test("readLock: a lockfile past what is read of a file (its text cut there) is said to be too large, not \"not JSON\"", () => {
  const binding = `    "resources/a.ts#x": { "type": "t.a", "object": "o:1" },\n`;
  const pieces: string[] = ["{\n  \"version\": 1,\n  \"bindings\": {\n"];
  // As the file system hands over a big file: in pieces, cut at line ends, one byte past the cap.
  let length = pieces[0].length;
  const piece = binding.repeat(Math.floor((1024 * 1024) / binding.length));
  while (length + piece.length <= MAX_READ_BYTES) { pieces.push(piece); length += piece.length; }
  const rest = (n: number) => binding.repeat(Math.ceil(n / binding.length)).slice(0, n);
  pieces.push(rest(MAX_READ_BYTES + 1 - length));
  const lock = readLock(pieces);
  assert.match(lock.error?.message ?? "", /^sanoma\.lock\.json is larger than 64 MB, more than this tool reads of a file: not read/);
  assert.deepEqual(lock.bindings, []);
  // At the cap itself it is read (and here, cut in a binding, it is no JSON).
  assert.match(readLock(pieces.slice(0, -1).concat(rest(MAX_READ_BYTES - length))).error?.message ?? "", /not JSON/);
});
