/** Fixture companies shared by the server, check and parity tests, with their problems marked. */

import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { CLOUD_PACKAGE } from "../../server/src/core/rules/case-packages.ts";
import { writeFixture } from "./fixture.ts";

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

/** `@acme/shared`'s `index.ts` (see `writeLinkedMonorepo`): a machine type and a wakeup type, `hook`. */
export const SHARED_CONNECTOR = `import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const machine = defineResource({ vendor: "acme", type: "machine", title: "Machine", schema: z.object({ name: z.string() }), fields: {}, writable: true });
export const hook = defineResource({ vendor: "acme", type: "hook", title: "Hook", schema: z.object({ path: z.string() }), fields: {}, writable: true, wakeup: { on: "call" } });
`;

/** `SHARED_CONNECTOR` without `hook`: each company's declaration of one is then a `resource-type` problem. */
export const SHARED_WITHOUT_HOOK = SHARED_CONNECTOR.split("\n").filter((l) => !l.includes("hook")).join("\n");

/**
 * A monorepo of npm, pnpm or yarn workspaces, written to a new temporary folder (its real path,
 * returned): two companies, `packages/b` and `packages/c`, read their types from the workspace
 * connector `@acme/shared`, written in TypeScript at `packages/shared` (`SHARED_CONNECTOR`) and
 * linked into each company's `node_modules` as a workspace manager links it
 * (`packages/b/node_modules/@acme/shared` → `../../../shared`). The framework is hoisted to the
 * top's `node_modules`. Clean as written.
 */
export function writeLinkedMonorepo(): string {
  const company = (name: string) => `
//- /packages/${name}/package.json
{ "name": "${name}", "version": "1.0.0", "private": true, "type": "module", "dependencies": { "@acme/shared": "workspace:*" } }
//- /packages/${name}/sanoma.config.ts
import { defineConfig } from "@sanoma-ai/workflows";
export default defineConfig({ name: "${name}" });
//- /packages/${name}/resources/infra.ts
import { machine, hook } from "@acme/shared";
export const web = machine({ name: "web" });
export const wake = hook({ path: "/wake" });
`;
  const top = writeFixture(`
//- /package.json
{ "name": "mono", "private": true, "workspaces": ["packages/*"] }
//- /packages/shared/package.json
{ "name": "@acme/shared", "version": "1.0.0", "type": "module", "main": "index.ts" }
//- /packages/shared/index.ts
${SHARED_CONNECTOR}${company("b")}${company("c")}${CLOUD_PACKAGE}`, "sanoma-monorepo-");
  for (const name of ["b", "c"]) {
    mkdirSync(join(top, "packages", name, "node_modules/@acme"), { recursive: true });
    symlinkSync("../../../shared", join(top, "packages", name, "node_modules/@acme/shared"));
  }
  return top;
}

/**
 * A monorepo's top that is no company, holding a company with a fixture company under its
 * `test/fixtures` (and a loose file there) and a legacy company: what `exclude` paths and names
 * leave out, in the check and in the server alike.
 */
export const NESTED_FIXTURE_COMPANIES = `
//- /mono/acme/sanoma.config.ts
export default {};
//- /mono/acme/workflows/w.ts
export const w = (ctx: any) => ctx.call("data.nope.get", {});
//- /mono/acme/test/fixtures/loose.ts
export const l = (ctx: any) => ctx.call("data.nope.get", {});
//- /mono/acme/test/fixtures/broken-co/sanoma.config.ts
export default {};
//- /mono/acme/test/fixtures/broken-co/workflows/b.ts
export const b = (ctx: any) => ctx.call("data.nope.get", {});
//- /mono/legacy/old/sanoma.config.ts
export default {};
//- /mono/legacy/old/workflows/o.ts
export const o = (ctx: any) => ctx.call("data.nope.get", {});
`;
