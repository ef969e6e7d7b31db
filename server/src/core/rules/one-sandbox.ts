/** `one-sandbox` (SPEC A5): across a company, one declaration of a type that meets the sandbox contract. */
import { makeOneRule } from "./one-instance.ts";
import type { RuleCase } from "./rule.ts";
import { CLOUD_PACKAGE } from "./case-packages.ts";

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

/** Beyond the doc's examples: companies where the rule fires or stays silent, every problem drawn under the text (test/rules/rule-cases.test.ts). */
export const cases = (): RuleCase[] => [
  {
    name: "two sandboxes in one file: each is said",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/box.ts
import { runner } from "@hooli/cloud";
export const agents = runner({ image: "agents" });
//           ^^^^^^ one-sandbox
export const tools = runner({ image: "tools" });
//           ^^^^^ one-sandbox
${CLOUD_PACKAGE}`,
  },
  {
    name: "a sandbox type reached through an object of the package counts as well",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/box.ts
import { runner } from "@hooli/cloud";
export const agents = runner({ image: "agents" });
//           ^^^^^^ one-sandbox
//- /apps/maps/resources/box.ts
import { cloud } from "@hooli/cloud";
export const maps = cloud.runner({ image: "maps" });
//           ^^^^ one-sandbox
${CLOUD_PACKAGE}`,
  },
  {
    name: "one sandbox beside a wakeup and machines: nothing to say",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { vm, trigger, runner } from "@hooli/cloud";
export const web = vm({ name: "web" });
export const wake = trigger({ path: "/wake" });
export const agents = runner({ image: "agents" });
${CLOUD_PACKAGE}`,
  },
  {
    name: "a sandbox in a test file is no declaration: the one in the data file is alone",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/box.ts
import { runner } from "@hooli/cloud";
export const agents = runner({ image: "agents" });
//- /resources/box.test.ts
import { runner } from "@hooli/cloud";
export const testAgents = runner({ image: "test" });
${CLOUD_PACKAGE}`,
  },
];
