import { defineConfig } from "@sanoma-ai/workflows";
import * as fly from "@acme-vendors/fly";
import neon from "@acme-vendors/neon";

export default defineConfig({
  name: "acme-broken",
  connectors: [fly, neon],
  secrets: {
    bindings: {
      FLY_TOKEN: { env: "ACME_FLY_TOKEN", host: true }, // expect: secret-bindings
      NEON_URL: { env: "ACME_NEON_URL" },
      STRIPE_KEY: { env: "ACME_FLY_TOKEN", host: true }, // expect: secret-bindings
      PUSH_TOKEN: { host: true }, // expect: secret-bindings
      SIGNING_KEY: { bootstrap: true },
    },
  },
});
