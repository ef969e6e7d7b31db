import * as fly from "@acme-vendors/fly";
import neon from "@acme-vendors/neon";
import { secret } from "@sanoma-ai/workflows/resources";

export const web = fly.machine({ name: "web", region: "ams", size: "shared-cpu-1x" });
export const worker = fly.machine({ name: "worker", region: "ams" });
export const db = neon.database({ name: "acme", branch: "main" }, { connection: "prod" });
export const hooks = fly.webhook({ path: "/hooks/acme", signingKey: secret("SIGNING_KEY") });
export const agents = fly.sandbox({ image: "ghcr.io/acme/agent:1" });
