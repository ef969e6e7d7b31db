/** `one-wakeup` (SPEC A5): across a company, one declaration of a type that meets the wakeup contract. */
import { makeOneRule } from "./one-instance.ts";

const connector = `
//- /node_modules/@hooli/cloud/package.json
{ "name": "@hooli/cloud", "exports": { ".": "./index.js" } }
//- /node_modules/@hooli/cloud/index.js
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const trigger = defineResource({ vendor: "cloud", type: "trigger", title: "Trigger", schema: z.object({ path: z.string() }), fields: {}, writable: true, wakeup: { verify: "hmac" } });
`;

export const rule = makeOneRule("wakeup", {
  summary: "More than one declaration in a company has a type that wakes the instance.",
  why: "An instance is woken by exactly one wakeup resource; with two, the framework cannot tell which one routes events, so it refuses to start. The root scope and every app count together.",
  wrong: `
//- /sanoma.config.ts
export default {};
//- /resources/events.ts
import { trigger } from "@hooli/cloud";
export const wakeup = trigger({ path: "/wake" });
//           ^^^^^^ one-wakeup
//- /apps/search/resources/wake.ts
import { trigger } from "@hooli/cloud";
export const searchWake = trigger({ path: "/search" });
//           ^^^^^^^^^^ one-wakeup
${connector}`,
  right: `
//- /sanoma.config.ts
export default {};
//- /resources/events.ts
import { trigger } from "@hooli/cloud";
export const wakeup = trigger({ path: "/wake" });
${connector}`,
});
