/**
 * Packages that the rules' cases install in their companies' `node_modules`: the framework's
 * entry points alone (`FRAMEWORK_PACKAGE`), or with a small connector package beside them
 * (`CLOUD_PACKAGE`), a fake of what the framework's connectors provide. Test text only: imported
 * by the rules' `cases` functions, which no bundle keeps.
 */

export const FRAMEWORK_PACKAGE = `
//- /node_modules/@sanoma-ai/workflows/package.json
{ "name": "@sanoma-ai/workflows", "exports": { ".": "./index.js", "./resources": "./resources.js", "./data": "./data.js" } }
//- /node_modules/@sanoma-ai/workflows/index.js
export const defineResource = (s) => s;
`;

/**
 * The framework and a connector package (`@hooli/cloud`: vm, bucket, a wakeup trigger, a sandbox
 * runner): the tests' fixtures take it from here, and `bench/generate.mjs` reads it as text.
 */
export const CLOUD_PACKAGE = `
//- /node_modules/@sanoma-ai/workflows/package.json
{ "name": "@sanoma-ai/workflows", "version": "0.11.18", "type": "module", "main": "index.js", "exports": { ".": "./index.js", "./resources": "./resources.js", "./data": "./data.js" } }
//- /node_modules/@sanoma-ai/workflows/index.js
export const defineConfig = (c) => c;
export const defineResource = (spec) => spec;
//- /node_modules/@sanoma-ai/workflows/resources.js
export const secret = (name) => ({ $secret: name });
export const sanoma = {};
//- /node_modules/@sanoma-ai/workflows/data.js
export const collection = (c) => c;
//- /node_modules/@hooli/cloud/package.json
{ "name": "@hooli/cloud", "version": "2.0.0", "type": "module", "exports": { ".": { "types": "./types.d.ts", "import": "./src/index.js" } } }
//- /node_modules/@hooli/cloud/src/index.js
export { vm, bucket } from "./compute.js";
export * from "./events.js";
import { vm, bucket } from "./compute.js";
import { trigger, runner } from "./events.js";
export const cloud = { vm, bucket, trigger, runner };
//- /node_modules/@hooli/cloud/src/compute.js
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const vm = defineResource({ vendor: "cloud", type: "vm", title: "Virtual machine", schema: z.strictObject({ name: z.string(), zone: z.string().default("us-1"), disk: z.number().nullish() }), fields: {}, writable: true, host: { derives: false } });
export const bucket = defineResource({ vendor: "cloud", type: "bucket", title: "Bucket", schema: z.object({ name: z.string(), public: z.boolean().optional() }), fields: {}, writable: true });
//- /node_modules/@hooli/cloud/src/events.js
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const trigger = defineResource({ vendor: "cloud", type: "trigger", title: "Wakeup trigger", schema: z.object({ path: z.string() }), fields: {}, writable: true, wakeup: { verify: "hmac" } });
export const runner = defineResource({ vendor: "cloud", type: "runner", title: "Agent runner", schema: z.object({ image: z.string() }), fields: {}, writable: true, sandbox: { image: "ubuntu" } });
`;

/**
 * Connector packages whose modules `export *` each other in cycles, as Node loads them: `@acme/conn`
 * (its index re-exports `a.js` and `b.js`, and `a.js` re-exports the index back: `trigger`, a
 * wakeup, is in `b.js`), and `mesh0`, `mesh1`, `mesh2`, each re-exporting the other two (each
 * looks back first: a cycle is met before the type is).
 */
export const CYCLIC_PACKAGES = `
//- /node_modules/@acme/conn/package.json
{ "name": "@acme/conn", "type": "module", "main": "index.js" }
//- /node_modules/@acme/conn/index.js
export * from "./a.js";
export * from "./b.js";
//- /node_modules/@acme/conn/a.js
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const vm = defineResource({ vendor: "acme", type: "vm", title: "VM", schema: z.object({ name: z.string() }), fields: {}, writable: true });
export * from "./index.js";
//- /node_modules/@acme/conn/b.js
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const trigger = defineResource({ vendor: "acme", type: "trigger", title: "Trigger", schema: z.object({ path: z.string() }), fields: {}, writable: true, wakeup: { verify: "hmac" } });
//- /node_modules/mesh0/package.json
{ "name": "mesh0", "main": "index.js" }
//- /node_modules/mesh0/index.js
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const queue = defineResource({ vendor: "mesh", type: "queue", title: "Queue", schema: z.object({ name: z.string() }), fields: {}, writable: true });
export * from "mesh1";
export * from "mesh2";
//- /node_modules/mesh1/package.json
{ "name": "mesh1", "main": "index.js" }
//- /node_modules/mesh1/index.js
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const store = defineResource({ vendor: "mesh", type: "store", title: "Store", schema: z.object({ name: z.string() }), fields: {}, writable: true });
export * from "mesh0";
export * from "mesh2";
//- /node_modules/mesh2/package.json
{ "name": "mesh2", "main": "index.js" }
//- /node_modules/mesh2/index.js
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const hook = defineResource({ vendor: "mesh", type: "hook", title: "Hook", schema: z.object({ path: z.string() }), fields: {}, writable: true, wakeup: { verify: "hmac" } });
export * from "mesh1";
export * from "mesh0";
`;

/**
 * `@acme/ring`: twelve modules, `h1.js` (its main) to `h11.js` each re-exporting the one before it
 * (h1: h11) and then the one after it, `h12.js` none: `far` is in h12, 3 hops from a data file
 * (r → h1 → h11 → h12), and `near` in h2, 2 hops; a depth-first walk of h1's re-exports goes round
 * the long way first (h11, h10, …, h3, h2: 11 hops to near).
 */
export const RING_PACKAGE = `
//- /node_modules/@acme/ring/package.json
{ "name": "@acme/ring", "type": "module", "main": "h1.js" }
//- /node_modules/@acme/ring/h1.js
export * from "./h11.js";
export * from "./h2.js";
//- /node_modules/@acme/ring/h2.js
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const near = defineResource({ vendor: "ring", type: "near", title: "Near", schema: z.object({ name: z.string() }), fields: {}, writable: true });
export * from "./h1.js";
export * from "./h3.js";
//- /node_modules/@acme/ring/h3.js
export * from "./h2.js";
export * from "./h4.js";
//- /node_modules/@acme/ring/h4.js
export * from "./h3.js";
export * from "./h5.js";
//- /node_modules/@acme/ring/h5.js
export * from "./h4.js";
export * from "./h6.js";
//- /node_modules/@acme/ring/h6.js
export * from "./h5.js";
export * from "./h7.js";
//- /node_modules/@acme/ring/h7.js
export * from "./h6.js";
export * from "./h8.js";
//- /node_modules/@acme/ring/h8.js
export * from "./h7.js";
export * from "./h9.js";
//- /node_modules/@acme/ring/h9.js
export * from "./h8.js";
export * from "./h10.js";
//- /node_modules/@acme/ring/h10.js
export * from "./h9.js";
export * from "./h11.js";
//- /node_modules/@acme/ring/h11.js
export * from "./h10.js";
export * from "./h12.js";
//- /node_modules/@acme/ring/h12.js
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const far = defineResource({ vendor: "ring", type: "far", title: "Far", schema: z.object({ name: z.string() }), fields: {}, writable: true });
`;
