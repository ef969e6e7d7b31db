/**
 * Names that macOS or Windows would take for one folder (`Demo` and `demo`, `café` in NFC and in
 * NFD): a second box of such a name is refused while the first exists, on this Linux disk too
 * (which keeps the two apart), through the requests the editor sends (`boxRequestHandlers`), with
 * real folders and real runs. Two that an earlier version made both stay listed, and their own.
 */
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as protocol from "../../server/src/protocol.ts";
import { BoxService, boxRequestHandlers } from "../../server/src/boxes/service.ts";
import { folderKey, sameFolder } from "../../server/src/boxes/names.ts";
import { cleanupTempDirs, tempDir } from "./helpers.ts";

after(cleanupTempDirs);

const NFC = "caf\u00e9";
const NFD = "cafe\u0301";

/** The requests as the server registers them: method → handler. */
function requests(service: BoxService): (method: string, params: unknown) => Promise<any> {
  const handlers = new Map(boxRequestHandlers(service));
  return (method, params) => (handlers.get(method)! as (p: unknown) => Promise<unknown>)(params);
}

/** A process-tier service on `boxesDir` (a new folder by default), `run` given its requests, the service disposed of whatever happens. */
async function withService(run: (request: (method: string, params: unknown) => Promise<any>, service: BoxService) => Promise<void>, boxesDir = tempDir()): Promise<void> {
  const service = new BoxService({ boxesDir, tier: "process" });
  try {
    await run(requests(service), service);
  } finally {
    await service.dispose();
  }
}

/** Every request that names a box, with the rest of its parameters. */
const NAMED: Array<[string, (name: string) => unknown]> = [
  [protocol.BoxesOpenRequest, (name) => ({ name })],
  [protocol.BoxesRunRequest, (name) => ({ name, command: "echo mine > mine.txt", wait: true })],
  [protocol.BoxesStopRequest, (name) => ({ name })],
  [protocol.BoxesDiscardRequest, (name) => ({ name })],
  [protocol.BoxesEventsRequest, (name) => ({ name })],
  [protocol.BoxesRunsRequest, (name) => ({ name })],
  [protocol.BoxesDiffRequest, (name) => ({ name })],
  [protocol.BoxesApplyRequest, (name) => ({ name, files: ["mine.txt"] })],
  [protocol.BoxesExposeRequest, (name) => ({ name, port: 3000 })],
];

/** A name as a test's title shows it: `"café" (NFD)` where NFC and NFD write it differently. */
function shown(name: string): string {
  return `${JSON.stringify(name)}${name.normalize("NFC") !== name ? " (NFD)" : name.normalize("NFD") !== name ? " (NFC)" : ""}`;
}

describe("names that would be one folder on macOS or Windows", () => {
  // [the box there is, the name asked for, the message]
  const cases: Array<[string, string, string]> = [
    ["demo", "Demo", "Demo is no new box's name: the box demo exists, and on macOS and Windows the two would be one folder"],
    ["Demo", "DEMO", "DEMO is no new box's name: the box Demo exists, and on macOS and Windows the two would be one folder"],
    [NFC, NFD, `${NFD} is no new box's name: the box ${NFC} (written in NFC) exists, and on macOS the two would be one folder`],
    [NFD, NFC, `${NFC} is no new box's name: the box ${NFD} (written in NFD) exists, and on macOS the two would be one folder`],
    [NFD, "Caf\u00e9", `Caf\u00e9 is no new box's name: the box ${NFD} (written in NFD) exists, and on macOS the two would be one folder`],
    [NFD, "Cafe\u0301", "Cafe\u0301 is no new box's name: the box cafe\u0301 exists, and on macOS and Windows the two would be one folder"],
  ];
  for (const [existing, asked, message] of cases) {
    test(`${shown(asked)} beside the box ${shown(existing)}: every request naming it is refused, and nothing of the box there changes`, async () => {
      await withService(async (request, service) => {
        const first = await request(protocol.BoxesRunRequest, { name: existing, command: "echo theirs > theirs.txt", wait: true });
        assert.equal(first.result.exitCode, 0);
        for (const [method, params] of NAMED) {
          await assert.rejects(request(method, params(asked)), (e: Error) => e.message === message, `${method} of ${JSON.stringify(asked)}`);
        }
        // Nothing of the asked name was made (on this disk it would be a folder of its own), and
        // the box there is as it was: listed alone, its home, its one run.
        assert.equal(fs.existsSync(path.join(service.boxesDir, asked)), false, "no home made");
        assert.equal(fs.existsSync(path.join(service.boxesDir, ".runs", asked)), false, "no record made");
        const listed = (await request(protocol.BoxesListRequest, {})).boxes;
        assert.deepEqual(listed.map((b: { name: string; state: string }) => [b.name, b.state]), [[existing, "idle"]]);
        assert.deepEqual(fs.readdirSync(path.join(service.boxesDir, existing)), ["theirs.txt"]);
        assert.deepEqual((await request(protocol.BoxesRunsRequest, { name: existing })).runs.map((r: { runId: string }) => r.runId), [first.runId]);
        // Once the box there is discarded, the name is a new box's like any other.
        await request(protocol.BoxesDiscardRequest, { name: existing });
        assert.equal((await request(protocol.BoxesOpenRequest, { name: asked })).created, true);
        assert.deepEqual((await request(protocol.BoxesListRequest, {})).boxes.map((b: { name: string }) => b.name), [asked]);
      });
    });
  }

  test("a box whose home is gone (its record left) still holds its name, and so does one only this server runs in", async () => {
    await withService(async (request, service) => {
      await request(protocol.BoxesRunRequest, { name: "kept", command: "true", wait: true });
      fs.rmSync(path.join(service.boxesDir, "kept"), { recursive: true });
      await assert.rejects(request(protocol.BoxesOpenRequest, { name: "KEPT" }), { message: "KEPT is no new box's name: the box kept exists, and on macOS and Windows the two would be one folder" });
      // A run whose home and record were deleted by hand while it runs: the box is this server's still.
      const running = await request(protocol.BoxesRunRequest, { name: "busy", command: "sleep 30" });
      fs.rmSync(path.join(service.boxesDir, "busy"), { recursive: true, force: true });
      fs.rmSync(path.join(service.boxesDir, ".runs", "busy"), { recursive: true, force: true });
      await assert.rejects(request(protocol.BoxesRunRequest, { name: "Busy", command: "true" }), { message: "Busy is no new box's name: the box busy exists, and on macOS and Windows the two would be one folder" });
      await request(protocol.BoxesStopRequest, { name: "busy", runId: running.runId });
    });
  });

  test("two boxes an earlier version made on Linux (Demo and demo) are both listed and both their own; a third of their name is refused, naming both", async () => {
    const boxesDir = tempDir();
    // As an earlier version left them: two homes, two records.
    for (const name of ["Demo", "demo"]) {
      fs.mkdirSync(path.join(boxesDir, name, "inside"), { recursive: true });
      fs.writeFileSync(path.join(boxesDir, name, "inside", "who"), name);
      fs.mkdirSync(path.join(boxesDir, ".runs", name), { recursive: true });
    }
    await withService(async (request) => {
      assert.deepEqual((await request(protocol.BoxesListRequest, {})).boxes.map((b: { name: string; state: string }) => [b.name, b.state]), [["Demo", "idle"], ["demo", "idle"]]);
      for (const name of ["Demo", "demo"]) {
        const run = await request(protocol.BoxesRunRequest, { name, command: "cat inside/who", wait: true });
        assert.equal(run.result.stdout, name, `${name} runs in its own home`);
      }
      assert.deepEqual((await request(protocol.BoxesRunsRequest, {})).runs.map((r: { box: string }) => r.box).sort(), ["Demo", "demo"]);
      await assert.rejects(request(protocol.BoxesOpenRequest, { name: "DEMO" }), { message: "DEMO is no new box's name: the boxes Demo and demo exist, and on macOS and Windows they would all be one folder" });
      await request(protocol.BoxesDiscardRequest, { name: "demo" });
      assert.deepEqual((await request(protocol.BoxesListRequest, {})).boxes.map((b: { name: string }) => b.name), ["Demo"]);
      assert.equal(fs.readFileSync(path.join(boxesDir, "Demo", "inside", "who"), "utf8"), "Demo", "the other one's home is untouched");
    }, boxesDir);
  });

  test("a name that differs in more than case and form is no one else's", async () => {
    await withService(async (request) => {
      for (const name of ["demo", "demo-2", "cafe", NFC, "\u0130stanbul", "istanbul"]) await request(protocol.BoxesOpenRequest, { name });
      assert.equal((await request(protocol.BoxesListRequest, {})).boxes.length, 6);
    });
  });
});

describe("a preview of two exports whose names differ in case only", () => {
  /** A company whose workflows/x.ts exports Foo and foo: its root. */
  const fooAndFoo = (): string => {
    const root = path.join(tempDir(), "acme");
    fs.mkdirSync(path.join(root, "workflows"), { recursive: true });
    fs.writeFileSync(path.join(root, "sanoma.config.ts"), "export default {};\n");
    fs.writeFileSync(path.join(root, "workflows", "x.ts"), "export const Foo = 1;\nexport const foo = 2;\n");
    return root;
  };

  test("Foo, then foo in the same scope: the second is refused, naming the first's box, which keeps its changes; after a discard it runs in a box of its own", async () => {
    const root = fooAndFoo();
    await withService(async (request, service) => {
      const preview = (name: string, command: string) => request(protocol.BoxesPreviewRequest, { root, file: "workflows/x.ts", export: name, command, wait: true });
      const first = await preview("Foo", "echo Foo > out.txt");
      assert.equal(first.name, "root-Foo");
      await assert.rejects(preview("foo", "echo foo > out.txt"), { message: "root-foo is no new box's name: the box root-Foo exists, and on macOS and Windows the two would be one folder (root-Foo is the preview of Foo in workflows/x.ts: discard it to preview foo)" });
      assert.equal(fs.existsSync(path.join(service.boxesDir, "root-foo")), false, "nothing made for foo");
      assert.equal(fs.readFileSync(path.join(service.boxesDir, "root-Foo", "out.txt"), "utf8"), "Foo\n", "the first's change is kept");
      const diff = await request(protocol.BoxesDiffRequest, { name: "root-Foo" });
      assert.deepEqual(diff.files.map((f: { path: string }) => f.path), ["out.txt"]);
      const listed = (await request(protocol.BoxesListRequest, {})).boxes;
      assert.deepEqual(listed.map((b: { name: string; preview?: { export: string } }) => [b.name, b.preview?.export]), [["root-Foo", "Foo"]]);
      // From another company, the message says whose preview the box is.
      const other = path.join(tempDir(), "globex");
      fs.cpSync(root, other, { recursive: true });
      await assert.rejects(request(protocol.BoxesPreviewRequest, { root: other, file: "workflows/x.ts", export: "foo", command: "true" }), { message: `root-foo is no new box's name: the box root-Foo exists, and on macOS and Windows the two would be one folder (root-Foo is the preview of Foo in workflows/x.ts of the company at ${root}: discard it to preview foo)` });
      await request(protocol.BoxesDiscardRequest, { name: "root-Foo" });
      const second = await preview("foo", "cat out.txt 2>/dev/null; echo foo > out.txt");
      assert.equal(second.name, "root-foo");
      assert.equal(second.result.stdout, "", "a fresh copy, none of Foo's changes");
    });
  });

  test("Foo and foo sent together: one preview runs, the other is refused (the first's box is not made yet when the second arrives)", async () => {
    const root = fooAndFoo();
    await withService(async (request, service) => {
      const both = await Promise.allSettled(["Foo", "foo"].map((name) => request(protocol.BoxesPreviewRequest, { root, file: "workflows/x.ts", export: name, command: "true", wait: true })));
      assert.equal(both[0]!.status, "fulfilled");
      assert.equal(both[1]!.status, "rejected");
      // (The first's box is not made yet: what it previews is not written either.)
      assert.equal((both[1] as PromiseRejectedResult).reason.message, "root-foo is no new box's name: the box root-Foo exists, and on macOS and Windows the two would be one folder (discard root-Foo to preview foo)");
      assert.deepEqual(fs.readdirSync(service.boxesDir).filter((n) => !n.startsWith(".")), ["root-Foo"]);
    });
  });
});

describe("folderKey and sameFolder", () => {
  // [a, b, where the two would be one folder]
  const pairs: Array<[string, string, ReturnType<typeof sameFolder>]> = [
    ["Demo", "demo", "macOS and Windows"],
    [NFC, NFD, "macOS"],
    ["CAF\u00c9", NFD, "macOS"],
    ["\u039f\u0394\u039f\u03a3", "\u03bf\u03b4\u03bf\u03c2", "macOS and Windows"], // ΟΔΟΣ, οδος (final sigma)
    ["stra\u00dfe", "STRASSE", "macOS"], // ß is ss in Unicode's full folding; Windows keeps them apart
    ["\u1e9e", "\u00df", "macOS"], // ẞ, ß
    ["\u0131", "i", "macOS and Windows"], // dotless ı: wider than Unicode's folding (macOS keeps them apart), refused to be safe
    ["\u0130", "i", undefined], // İ is no i but in Turkish
    ["demo", "demo", undefined],
    ["demo", "dem0", undefined],
    ["\ufb01", "fi", "macOS"], // ﬁ is fi in Unicode's full folding too
    ["\uff46\uff49", "fi", undefined], // fullwidth ｆｉ: no compatibility forms
  ];
  for (const [a, b, where] of pairs) {
    test(`${JSON.stringify(a)} and ${JSON.stringify(b)}: ${where ?? "two folders"}`, () => {
      assert.equal(sameFolder(a, b), where);
      assert.equal(sameFolder(b, a), where);
      assert.equal(folderKey(a) === folderKey(b), a === b || where !== undefined);
    });
  }
});
