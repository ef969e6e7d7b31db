/** `one-sandbox` (SPEC A5): across a company, one declaration of a type that meets the sandbox contract. */
import { makeOneRule } from "./one-instance.ts";

const connector = `
//- /node_modules/@hooli/cloud/package.json
{ "name": "@hooli/cloud", "exports": { ".": "./index.js" } }
//- /node_modules/@hooli/cloud/index.js
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const runner = defineResource({ vendor: "cloud", type: "runner", title: "Runner", schema: z.object({ image: z.string() }), fields: {}, writable: true, sandbox: { image: "ubuntu" } });
`;

export const rule = makeOneRule("sandbox", {
  summary: "More than one declaration in a company has a type that is the instance's sandbox.",
  why: "Agents of an instance run in its one sandbox; with two, the framework cannot tell where a preview or a run goes, so it refuses to start. The root scope and every app count together.",
  wrong: `
//- /sanoma.config.ts
export default {};
//- /resources/box.ts
import { runner } from "@hooli/cloud";
export const agents = runner({ image: "agents" });
//           ^^^^^^ one-sandbox
//- /apps/maps/resources/box.ts
import { runner } from "@hooli/cloud";
export const mapsRunner = runner({ image: "maps" });
//           ^^^^^^^^^^ one-sandbox
${connector}`,
  right: `
//- /sanoma.config.ts
export default {};
//- /resources/box.ts
import { runner } from "@hooli/cloud";
export const agents = runner({ image: "agents" });
${connector}`,
});
