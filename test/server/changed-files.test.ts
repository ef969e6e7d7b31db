/**
 * Files changed on disk, many and big, in one `didChangeWatchedFiles` (a build rewriting a
 * company's compiled bundles, an `npm install` of a connector whose modules are bundles): the
 * server read them all in the notification's handler (a company's own files) or in one step of
 * the next check (a connector's files), and answered no request, on any company, until the last
 * was read (8 bundles of 1.5 MB: 8–20 s). It now reads them between requests (session.ts's
 * `readChanged`), and says so in its status: the files not read yet are not counted as indexed.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeFixture } from "../support/fixture.ts";
import { uri } from "../support/lsp.ts";
import { withServer } from "../support/server.ts";

/** About a megabyte of minified code (a bundler's output in one function; `chunks` of 113 characters), holding `extra` once: a parse of a good fraction of a second. */
const bundle = (extra: string, chunks = 9_000) => {
  const chunk = "var a=function(e){return e.call(\"data.orders.get\",{id:e.id})},b=/x\\/y/g,c=`t${a}`;function d(e,t){return e+t>>1?e:t}";
  return `(()=>{${chunk.repeat(chunks)}${extra}})();\n`;
};
/** A connector's module: a bundle that defines the type `name`. */
const connectorChunk = (name: string) => `import { defineResource } from "@sanoma-ai/workflows";\n${bundle("")}export const ${name} = defineResource({ vendor: "big", type: "${name}", title: "T", schema: {}, fields: {}, writable: true });\n`;

const N = 3;
const company = (name: string) => `
//- /${name}/sanoma.config.ts
export default {};
//- /${name}/node_modules/@sanoma-ai/workflows/package.json
{ "name": "@sanoma-ai/workflows", "type": "module", "main": "index.js" }
//- /${name}/node_modules/@sanoma-ai/workflows/index.js
export const defineConfig = (c) => c;
export const defineResource = (s) => s;
//- /${name}/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const orders = collection({ key: "id", fields: { id: "string" } });
//- /${name}/workflows/w.ts
export const w = (ctx: any) => ctx.call("data.orders.get", {});
`;
const TOP = `${company("a")}${company("b")}
//- /a/node_modules/@big/cloud/package.json
{ "name": "@big/cloud", "type": "module", "main": "index.js", "peerDependencies": { "@sanoma-ai/workflows": "*" } }
//- /a/node_modules/@big/cloud/index.js
${Array.from({ length: N }, (_, i) => `export * from "./chunk-${i}.js";`).join("\n")}
//- /a/resources/infra.ts
import { ${Array.from({ length: N }, (_, i) => `t${i}`).join(", ")} } from "@big/cloud";
${Array.from({ length: N }, (_, i) => `export const r${i} = t${i}({});`).join("\n")}
`;

test("server: a batch of big files changed on disk (a company's bundles, a connector's) is read between requests: a request on another company, sent with it, is answered while the batch is still being read, and the batch is then judged whole", async () => {
  const top = writeFixture(TOP, "sanoma-changed-batch-");
  const bundles = Array.from({ length: N }, (_, i) => join(top, `a/dist/assets/chunk-${i}.js`));
  const chunks = Array.from({ length: N }, (_, i) => join(top, `a/node_modules/@big/cloud/chunk-${i}.js`));
  mkdirSync(join(top, "a/dist/assets"), { recursive: true });
  for (const f of bundles) writeFileSync(f, bundle(""));
  chunks.forEach((f, i) => writeFileSync(f, connectorChunk(`t${i}`)));
  await withServer({ path: top }, async ({ c }) => {
    const infra = join(top, "a/resources/infra.ts");
    assert.deepEqual(c.diagnosticsFor(infra), [], "the connector's types read");
    const w = join(top, "b/workflows/w.ts");
    const text = `export const w = (ctx: any) => ctx.call("data.orders.get", {});\n`;
    c.open(w, text);
    await c.waitIdle();
    /** The batch sent, and with it a hover on b's file and the status: both answered, and what they said. */
    const sendWith = async (files: string[]) => {
      c.watched(files.map((file) => ({ file, type: 2 as const })));
      const [hover, status] = await Promise.all([
        c.request<{ contents: { value: string } } | null>("textDocument/hover", { textDocument: { uri: uri(w) }, position: { line: 0, character: text.indexOf("orders") } }),
        c.request<{ state: string; files: number; indexedFiles: number }>("sanoma/status", null),
      ]);
      return { hover, status };
    };

    // A company's own bundles rewritten, each now with an unknown collection.
    bundles.forEach((f) => writeFileSync(f, bundle(`;e.call("data.nope.get")`)));
    const own = await sendWith(bundles);
    assert.match(own.hover?.contents.value ?? "", /orders/, "b's hover answered");
    assert.equal(own.status.state, "indexing");
    assert.ok(own.status.indexedFiles < own.status.files, `answered before the batch was read: ${JSON.stringify(own.status)}`);
    for (const f of bundles) await c.waitFor(() => c.diagnosticsFor(f).some((d) => d.code === "collection-op"), `${f}'s new problem`, 120_000);

    // A connector's modules rewritten, each type renamed: the declarations of the old names are problems.
    chunks.forEach((f, i) => writeFileSync(f, connectorChunk(`u${i}`)));
    const pkg = await sendWith(chunks);
    assert.match(pkg.hover?.contents.value ?? "", /orders/, "b's hover answered");
    assert.equal(pkg.status.state, "indexing");
    assert.ok(pkg.status.indexedFiles < pkg.status.files, `answered before the connector's files were read again: ${JSON.stringify(pkg.status)}`);
    await c.waitFor(() => c.diagnosticsFor(infra).filter((d) => d.code === "resource-type").length === N, "a resource-type problem per declaration", 120_000);
    await c.waitIdle(120_000);
    const after = await c.request<{ files: number; indexedFiles: number }>("sanoma/status", null);
    assert.equal(after.indexedFiles, after.files, "all read");
  }, { folders: [top], idle: 180_000 });
});

test("server: a build rewriting a company's bundles faster than they are read, each change reported, holds the company's checks up one round of reads at most: an error typed meanwhile, and the bundles' own new problems, are published while it still writes", async () => {
  const top = writeFixture(company("a"), "sanoma-changed-starve-");
  const bundles = [0, 1].map((i) => join(top, `a/dist/app${i}.js`));
  /** 1.8 MB (a company's file is read up to 2 MB): a parse of a second or two on a loaded machine, a few tenths on a fast one. */
  const big = (extra: string) => bundle(extra, 16_000);
  await withServer({ path: top }, async ({ c }) => {
    const w = join(top, "a/workflows/w.ts");
    c.open(w, `export const w = (ctx: any) => ctx.call("data.orders.get", {});\n`);
    await c.waitIdle();
    // A watch build: the bundles written (once, with a problem each), then reported changed every
    // 150 ms, oftener than a bundle is parsed: the queue of files to read again is never empty. (A
    // company's check waited for its queue to empty: it never ran.)
    mkdirSync(join(top, "a/dist"), { recursive: true });
    for (const f of bundles) writeFileSync(f, big(`;e.call("data.nope.get")`));
    c.watched(bundles.map((file) => ({ file, type: 1 as const })));
    let reports = 0;
    const build = setInterval(() => { c.watched(bundles.map((file) => ({ file, type: 2 as const }))); reports++; }, 150);
    try {
      await c.waitFor(() => reports >= 3, "the build under way");
      c.change(w, `export const w = (ctx: any) => ctx.call("data.nope.get", {});\n`);
      const published = () => [w, ...bundles].every((f) => c.diagnosticsFor(f).some((d) => d.code === "collection-op"));
      await c.waitFor(published, "the typed error and the bundles' problems, published while the build writes", 60_000);
    } finally {
      clearInterval(build);
    }
    await c.waitIdle(120_000);
    for (const f of [w, ...bundles]) assert.ok(c.diagnosticsFor(f).some((d) => d.code === "collection-op"), `${f}'s problem at idle`);
    const after = await c.request<{ files: number; indexedFiles: number }>("sanoma/status", null);
    assert.equal(after.indexedFiles, after.files, "all read");
  }, { folders: [top], idle: 120_000 });
});

test("server: a connector package of many modules, hoisted for several companies, changed on disk (an npm install) is read again in a time linear in its files: not in the square of them, every read listing every company's files to read", async () => {
  // Three companies sharing one package of F small modules, each company's declaration reaching the
  // last through the index's `export *`s: every module is read by every company's connectors.
  const C = 3, F = 8_000;
  const top = writeFixture(`
//- /node_modules/@sanoma-ai/workflows/package.json
{ "name": "@sanoma-ai/workflows", "type": "module", "main": "index.js" }
//- /node_modules/@sanoma-ai/workflows/index.js
export const defineResource = (s) => s;
//- /node_modules/@x/big/package.json
{ "name": "@x/big", "type": "module", "main": "index.js", "peerDependencies": { "@sanoma-ai/workflows": "*" } }
//- /node_modules/@x/big/index.js
${Array.from({ length: F }, (_, i) => `export * from "./m${i}.js";`).join("\n")}
${Array.from({ length: C }, (_, i) => `//- /c${i}/sanoma.config.ts
export default {};
//- /c${i}/resources/infra.ts
import { t${F - 1} } from "@x/big";
export const a = t${F - 1}({ name: "a" });
`).join("")}`, "sanoma-changed-many-");
  for (let i = 0; i < F; i++) writeFileSync(join(top, `node_modules/@x/big/m${i}.js`), `export const t${i} = ${i};\n`);
  const started = performance.now();
  await withServer({ path: top }, async ({ c }) => {
    // The first indexing read every module once per company: the yardstick, taken on this machine under its load now.
    const indexing = performance.now() - started;
    const before = await c.request<{ companies: number; files: number; indexedFiles: number }>("sanoma/status", null);
    assert.equal(before.companies, C);
    const t0 = performance.now();
    c.watched([{ file: join(top, "node_modules/@x/big"), type: 3 }, { file: join(top, "node_modules/@x/big"), type: 1 }]);
    const during = await c.request<{ state: string; files: number; indexedFiles: number }>("sanoma/status", null);
    assert.equal(during.state, "indexing");
    // Each of the package's files to read counted once, however many companies read it (F modules and the index).
    const toRead = during.files - during.indexedFiles;
    assert.ok(toRead > 0 && toRead <= F + 1, `the package's files to read, once each: ${JSON.stringify(during)}`);
    await c.waitIdle(300_000);
    const rereading = performance.now() - t0;
    const after = await c.request<{ files: number; indexedFiles: number }>("sanoma/status", null);
    assert.equal(after.files, before.files, "nothing left to read");
    assert.equal(after.indexedFiles, after.files);
    // Read once for all three companies, it takes less than the first indexing, which read it three
    // times: about a third of it on a loaded 2-core machine (1.5 s of 4.2–5.8 s); listing every
    // company's files at each read, 3.4 times it (14.7 s of 4.3 s).
    assert.ok(rereading < indexing, `read again in ${Math.round(rereading)} ms, the first indexing ${Math.round(indexing)} ms`);
  }, { folders: [top], idle: 300_000 });
});
