import * as fly from "@acme-vendors/fly";
import neon from "@acme-vendors/neon";
import { secret } from "@sanoma-ai/workflows/resources";
import { nightly } from "../workflows/nightly"; // expect: data-file-imports

export const web = fly.machine({ name: "web", region: "ams", sise: "shared-cpu-1x" }); // expect: resource-fields
export const worker = fly.machine({ name: "worker" }); // expect: resource-fields
export const db = neon.database({ name: "acme", branch: "main" }, { connection: "prod" }); // expect: lockfile
export const hooks = fly.webhook({ path: "/hooks/acme", signingKey: secret("SIGNING_KEYS") }); // expect: one-wakeup, secret-bindings
export const agents = fly.sandbox({ image: "ghcr.io/acme/agent:1" }); // expect: one-sandbox
export const cache = fly.machin({ name: "cache", region: "ams" }); // expect: resource-type
export const later = nightly;
