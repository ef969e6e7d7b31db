/** Fixture companies shared by the server, check and parity tests, with their problems marked. */

/** A small connector package, as a fake of what the framework's connectors provide. */
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

/** A clean company: two apps, collections, declarations, a lockfile. Nothing to report. */
export const CLEAN = `
//- /sanoma.config.ts
import { defineConfig } from "@sanoma-ai/workflows";
export default defineConfig({ name: "acme", secrets: { bindings: { CLOUD_KEY: { env: "ACME_CLOUD_KEY", host: true } } } });
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const orders = collection({ key: "id", fields: { id: "string", total: "number" } });
//- /resources/infra.ts
import { vm, trigger } from "@hooli/cloud";
import { secret } from "@sanoma-ai/workflows/resources";
export const web = vm({ name: "web", zone: "eu-1" });
export const wake = trigger({ path: "/wake" });
export const key = secret("CLOUD_KEY");
//- /workflows/nightly.ts
export async function nightly(ctx: any) {
  await ctx.call("data.orders.save", { id: "1", total: 2 });
}
//- /apps/billing/resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const invoices = collection({ key: "id", fields: { id: "string" } });
//- /apps/billing/workflows/bill.ts
export const bill = async (ctx: any) => ctx.call("data.invoices.list", {}) && ctx.call("data.orders.count", {});
//- /sanoma.lock.json
{ "version": 1, "bindings": { "resources/infra.ts#web": { "type": "cloud.vm", "object": "cloud:vm/1" } } }
${CLOUD_PACKAGE}`;
