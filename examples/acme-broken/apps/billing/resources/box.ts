import * as fly from "@acme-vendors/fly";

export const billingBox = fly.sandbox({ image: "ghcr.io/acme/billing:1" }); // expect: one-sandbox
export const billingHook = fly.webhook({ path: "/hooks/billing", signingKey: null }); // expect: one-wakeup
