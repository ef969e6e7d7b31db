/** `one-wakeup` (SPEC A5): across a company, one declaration of a type that meets the wakeup contract. */
import { makeOneRule } from "./one-instance.ts";
import type { RuleCase } from "./rule.ts";
import { CLOUD_PACKAGE, CYCLIC_PACKAGES } from "./case-packages.ts";

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

/** Beyond the doc's examples: companies where the rule fires or stays silent, every problem drawn under the text (test/rules/rule-cases.test.ts). */
export const cases = (): RuleCase[] => [
  {
    name: "a wakeup given through a spread of a top-level const counts; one a spread of anything else might give does not (A4)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { hook, maybe } from "../conn/t";
export const a = hook({}); export const b = hook({}); export const c = maybe({});
//           ^ one-wakeup
//                                      ^ one-wakeup
//- /conn/t.ts
import { extra } from "./extra";
const hookBase = { writable: true, fields: {}, wakeup: { verify: "hmac" } };
export const hook = defineResource({ ...hookBase, vendor: "c", type: "hook", schema: z.object({}) });
export const maybe = defineResource({ ...extra, vendor: "c", type: "maybe", schema: z.object({}) });
//- /conn/extra.ts
export const extra = { wakeup: { verify: "hmac" } };
`,
  },
  {
    name: "a connector package compiled by tsc to CommonJS: its re-exports (a getter on exports) and its export * (__exportStar) are followed (A4)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { trigger, hook } from "tcloud";
export const a = trigger({ path: "/a" });
//           ^ one-wakeup
export const b = hook({ path: "/b", bogus: 1 });
//           ^ one-wakeup
//                                  ^^^^^ resource-fields
//- /node_modules/tcloud/package.json
{ "name": "tcloud", "main": "out/index.js" }
//- /node_modules/tcloud/out/index.js
"use strict";
var __exportStar = (this && this.__exportStar) || function (m, exports) { for (var p in m) if (p !== "default") exports[p] = m[p]; };
Object.defineProperty(exports, "__esModule", { value: true });
exports.trigger = void 0;
var triggers_1 = require("./triggers");
Object.defineProperty(exports, "trigger", { enumerable: true, get: function () { return triggers_1.trigger; } });
__exportStar(require("./hooks"), exports);
//- /node_modules/tcloud/out/triggers.js
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.trigger = void 0;
const workflows_1 = require("@sanoma-ai/workflows");
const zod_1 = require("zod");
exports.trigger = (0, workflows_1.defineResource)({ vendor: "t", type: "trigger", schema: zod_1.z.object({ path: zod_1.z.string() }), wakeup: { verify: "hmac" } });
//- /node_modules/tcloud/out/hooks.js
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const tslib_1 = require("tslib");
tslib_1.__exportStar(require("./hook-impl"), exports);
//- /node_modules/tcloud/out/hook-impl.js
"use strict";
const workflows_1 = require("@sanoma-ai/workflows");
const zod_1 = require("zod");
Object.defineProperty(exports, "hook", { enumerable: true, value: (0, workflows_1.defineResource)({ vendor: "t", type: "hook", schema: zod_1.z.object({ path: zod_1.z.string() }), wakeup: {} }) });
`,
  },
  {
    name: "contracts: a property that is null is present, one that is void 0 is undefined (A4)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { tvoid, tnull, tzero } from "../conn/t";
export const a = tvoid({}); export const b = tnull({}); export const c = tzero({});
//                                       ^ one-wakeup
//                                                                   ^ one-wakeup
//- /conn/t.ts
export const tvoid = defineResource({ vendor: "c", type: "tvoid", schema: z.object({}), wakeup: void 0 });
export const tnull = defineResource({ vendor: "c", type: "tnull", schema: z.object({}), wakeup: null });
export const tzero = defineResource({ vendor: "c", type: "tzero", schema: z.object({}), wakeup: 0 });
`,
  },
  {
    name: "a resource declared by a const and exported by name is a declaration of the export's name (A5)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { trigger } from "@x/cloud";
const hidden = trigger({ path: "/a" });
const other = trigger({ path: "/b", bogus: 1 });
//                                  ^^^^^ resource-fields
export { hidden, other as api };
//       ^^^^^^ one-wakeup
//                        ^^^ one-wakeup
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/infra.ts#hidden": { "type": "x.trigger", "object": "o:1" },
  "resources/infra.ts#api": { "type": "x.trigger", "object": "o:2" }
} }
//- /node_modules/@x/cloud/package.json
{ "name": "@x/cloud", "main": "index.js" }
//- /node_modules/@x/cloud/index.js
export const trigger = defineResource({ vendor: "x", type: "trigger", schema: z.object({ path: z.string() }), wakeup: { verify: "hmac" } });
`,
  },
  {
    name: "a declaration in a file that does not parse holds no wakeup or sandbox: the pair it made goes (A11)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/a.ts
import { trigger, runner } from "@hooli/cloud";
export const wake = trigger({ path: "/a" });
export const run = runner({ image: "a" });
//- /resources/b.ts
import { trigger, runner } from "@hooli/cloud";
export const wake = trigger({ path: "/b" });
export const run = runner({ image: "b" }) }
//                                        ^ syntax-error
${CLOUD_PACKAGE}`,
  },
  {
    name: "one wakeup beside declarations of types without the contract: nothing to say",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { vm, bucket, trigger } from "@hooli/cloud";
export const web = vm({ name: "web" });
export const api = vm({ name: "api" });
export const files = bucket({ name: "files" });
export const wake = trigger({ path: "/wake" });
${CLOUD_PACKAGE}`,
  },
  {
    name: "wakeups whose types are reached through cycles of export * (a module re-exporting the package's index; three packages re-exporting each other) count (A4)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/hooks.ts
import { trigger } from "@acme/conn";
import { hook } from "mesh0";
export const a = trigger({ path: "/a" });
//           ^ one-wakeup resources/hooks.ts#b
export const b = hook({ path: "/b" });
//           ^ one-wakeup resources/hooks.ts#a
${CYCLIC_PACKAGES}`,
  },
];
