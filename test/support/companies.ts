/** Fixture companies shared by the server, check and parity tests, with their problems marked. */

import { CLOUD_PACKAGE } from "../../server/src/core/rules/case-packages.ts";

/** The connector package the rules' cases install (one text: the benchmark reads it too). */
export { CLOUD_PACKAGE };

/**
 * `@hooli/cloud`'s `src/compute.js` (CLOUD_PACKAGE) as its next version has it: the vm's `zone`
 * renamed `region` and made required, so a declaration that sets `zone` has an unknown field and
 * misses one (two `resource-fields` problems), and one without it misses one.
 */
export const CLOUD_NEXT_VERSION = (computeJs: string): string => computeJs.replace(`zone: z.string().default("us-1")`, `region: z.string()`);

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
