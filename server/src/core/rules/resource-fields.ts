/** `resource-fields` (SPEC A4, A5): a desired object's keys are the type's fields, and its required fields are there. */
import { didYouMean, propertyName } from "../text.ts";
import { declarationsOf } from "../analysis.ts";
import type { Rule, RuleCase } from "./rule.ts";
import { FRAMEWORK_PACKAGE } from "./case-packages.ts";
import { CLOUD_PACKAGE, CYCLIC_PACKAGES, RING_PACKAGE } from "./case-packages.ts";

export const rule: Rule = {
  id: "resource-fields",
  severity: "error",
  doc: {
    summary: "A declaration's desired object has a key that is not a field of its type, or lacks a required field.",
    why: "Apply validates the desired object against the type's schema and refuses unknown keys, strict schema or not; a missing required field fails the same way. The type's fields are the keys of its `z.object({...})` schema; `.optional()`, `.nullish()` and `.default(...)` make one optional.",
    wrong: `
//- /sanoma.config.ts
export default {};
//- /resources/compute.ts
import { vm } from "@hooli/cloud";
export const batch = vm({ nmae: "batch" });
//           ^^^^^ resource-fields
//                        ^^^^ resource-fields
//- /node_modules/@hooli/cloud/package.json
{ "name": "@hooli/cloud", "exports": { ".": "./index.js" } }
//- /node_modules/@hooli/cloud/index.js
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const vm = defineResource({ vendor: "cloud", type: "vm", title: "VM", schema: z.strictObject({ name: z.string(), zone: z.string().default("us-1") }), fields: {}, writable: true });
`,
    right: `
//- /sanoma.config.ts
export default {};
//- /resources/compute.ts
import { vm } from "@hooli/cloud";
export const batch = vm({ name: "batch" });
//- /node_modules/@hooli/cloud/package.json
{ "name": "@hooli/cloud", "exports": { ".": "./index.js" } }
//- /node_modules/@hooli/cloud/index.js
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const vm = defineResource({ vendor: "cloud", type: "vm", title: "VM", schema: z.strictObject({ name: z.string(), zone: z.string().default("us-1") }), fields: {}, writable: true });
`,
  },
  checkFileIn(file, a, report) {
    for (const d of declarationsOf(a, file)) {
      const fields = d.type?.spec.fields;
      const desired = d.fact.desired;
      if (!d.type || !fields || !desired) continue;
      const names = Object.keys(fields);
      for (const k of desired.keys) {
        if (Object.hasOwn(fields, k.name)) continue;
        const s = didYouMean(k.name, names.filter((n) => !desired.keys.some((x) => x.name === n)));
        report({
          file: d.file.path, range: k.range,
          message: `\`${k.name}\` is not a field of ${d.type.id}${s ? `; did you mean \`${s}\`?` : ""} (its fields: ${names.map((n) => `\`${n}\``).join(", ") || "none"})`,
          // The key as code writes it (quoted when no identifier: `"max-size"`); a shorthand keeps its value (`{ nam }` → `{ name: nam }`).
          fixes: s ? [{ title: `Change to \`${s}\``, preferred: true, edits: [{ file: d.file.path, range: k.range, newText: k.shorthand ? `${propertyName(s)}: ${k.name}` : propertyName(s) }] }] : undefined,
        });
      }
      if (desired.hasSpread) continue;
      const missing = names.filter((n) => !fields[n] && !desired.keys.some((k) => k.name === n));
      if (missing.length) {
        report({ file: d.file.path, range: d.fact.nameRange, message: `\`${d.fact.exportName}\` lacks the required field${missing.length > 1 ? "s" : ""} ${missing.map((n) => `\`${n}\``).join(", ")} of ${d.type.id}` });
      }
    }
  },
};

/** Beyond the doc's examples: companies where the rule fires or stays silent, every problem drawn under the text (test/rules/rule-cases.test.ts). */
export const cases = (): RuleCase[] => [
  {
    name: "a connector module with syntax errors (a linked workspace connector mid-edit) gives types of unknown fields: its schema, read from what the parser made of the broken text, is not held against declarations (A5, A11)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/compute.ts
import { vm } from "../conn/cloud";
import { queue } from "../conn/queues";
export const batch = vm({ name: "batch", zone: "eu-1" });
export const jobs = queue({ nmae: "jobs" });
//                          ^^^^ resource-fields
//           ^^^^ resource-fields
//- /conn/cloud.ts
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const vm = defineResource({
  vendor: "cloud",
  type: "vm",
  title: "VM",
  schema: z.strictObject({ name: z.string(), zone: z
  fields: {},
  writable: true,
  host: { derives: false },
});
//- /conn/queues.ts
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const queue = defineResource({ vendor: "cloud", type: "queue", title: "Queue", schema: z.strictObject({ name: z.string() }), fields: {}, writable: true });
`,
  },
  {
    name: "resource types through aliases, namespaces, objects, export *, CommonJS and package exports conditions",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { vm as machine, cloud } from "@x/esm";
import * as ns from "@x/esm";
import cjs from "@x/cjs";
import { queue } from "@x/cjs";
import { db } from "@x/conditions";
import { sub } from "@x/esm/sub";
export const a = machine({ name: "a" });
export const b = cloud.machine({ nam: "b" });
//                               ^^^ resource-fields
//           ^ resource-fields
export const c = ns.vm({ name: "c", extra: 1 });
//                                  ^^^^^ resource-fields
export const d = cjs.queue({ name: "d" });
export const e = queue({ size: 2 });
//           ^ resource-fields
export const f = db({ name: "f" });
export const g = sub({ name: "g" });
export const h = ns.deep({ name: "h" });
export const i = ns.vmm({ name: "i" });
//                  ^^^ resource-type
//- /node_modules/@x/esm/package.json
{ "name": "@x/esm", "type": "module", "exports": { ".": "./lib/index.js", "./sub": { "types": "./sub.d.ts", "default": "./lib/sub.js" } } }
//- /node_modules/@x/esm/lib/index.js
export { machine as vm } from "./machine.js";
export * from "./deep.js";
import { machine } from "./machine.js";
export const cloud = { machine };
//- /node_modules/@x/esm/lib/machine.js
import { defineResource } from "@sanoma-ai/workflows";
export const machine = defineResource({ vendor: "x", type: "vm", title: "VM", schema: z.object({ name: z.string() }), fields: {}, writable: true });
//- /node_modules/@x/esm/lib/deep.js
export * from "./deeper.js";
//- /node_modules/@x/esm/lib/deeper.js
import { defineResource } from "@sanoma-ai/workflows";
export const deep = defineResource({ vendor: "x", type: "deep", title: "Deep", schema: z.object({ name: z.string() }), fields: {}, writable: true });
//- /node_modules/@x/esm/lib/sub.js
import { defineResource } from "@sanoma-ai/workflows";
export const sub = defineResource({ vendor: "x", type: "sub", title: "Sub", schema: z.object({ name: z.string() }), fields: {}, writable: true });
//- /node_modules/@x/cjs/package.json
{ "name": "@x/cjs", "main": "main.cjs" }
//- /node_modules/@x/cjs/main.cjs
const { defineResource } = require("@sanoma-ai/workflows");
const queue = defineResource({ vendor: "x", type: "queue", title: "Q", schema: z.object({ name: z.string(), size: z.number().optional() }), fields: {}, writable: true });
module.exports = { queue };
//- /node_modules/@x/conditions/package.json
{ "name": "@x/conditions", "exports": { ".": { "types": "./types.d.ts", "node": "./node.cjs", "import": "./esm.mjs", "default": "./missing.js" } } }
//- /node_modules/@x/conditions/esm.mjs
import { defineResource } from "@sanoma-ai/workflows";
export const db = defineResource({ vendor: "x", type: "db", title: "DB", schema: z.object({ name: z.string() }), fields: {}, writable: true, database: {} });
//- /node_modules/@x/conditions/node.cjs
exports.db = require("@sanoma-ai/workflows").defineResource({ vendor: "x", type: "db-node", title: "DB", schema: z.object({ other: z.string() }), fields: {}, writable: true });
${FRAMEWORK_PACKAGE}`,
  },
  {
    name: "objects wrapped in as const, parentheses or satisfies are read as they are; a key named like an Object member is no field (A4, A5, A8)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { vm } from "@x/cloud";
export const a = vm({ name: "a", bogus: 1 } as const);
//                               ^^^^^ resource-fields
export const b = vm(({ bogus: 1 }));
//           ^ resource-fields lacks the required field
//                     ^^^^^ resource-fields
export const c = vm({ zone: "x" } satisfies object);
//           ^ resource-fields lacks the required field
export const d = vm({ name: "d", constructor: 1, toString: "x" });
//                               ^^^^^^^^^^^ resource-fields
//                                               ^^^^^^^^ resource-fields
//- /resources/data.ts
import { collection } from "@sanoma-ai/workflows/data";
export const people = collection({ name: "users", key: "token", fields: { id: "string" } } as const);
//                                                     ^^^^^^^ collection-key
//- /workflows/w.ts
export const ops = ["data.users.get", "data.people.get"];
//                                    ^^^^^^^^^^^^^^^^^ collection-op
//- /node_modules/@x/cloud/package.json
{ "name": "@x/cloud", "main": "index.js" }
//- /node_modules/@x/cloud/index.js
export const vm = defineResource({ vendor: "x", type: "vm", schema: z.object({ name: z.string(), zone: z.string().optional() } as const) } as const);
`,
  },
  {
    // From a spec audit: a computed key written as a string literal is that key (A4: "a key of a
    // desired object that is not a field"), as the config's secret bindings read one; any other
    // computed key may be any field, as a spread may.
    name: "a computed key that is a string literal is its key; one of an expression is unknown, as a spread is (A4)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { vm } from "@x/cloud";
export const a = vm({ name: "a", ["bogus"]: 1 });
//                               ^^^^^^^^^ resource-fields
export const b = vm({ ["nmae"]: "b" });
//           ^ resource-fields lacks the required field
//                    ^^^^^^^^ resource-fields
export const c = vm({ [\`name\`]: "c", [("zone")]: "x" });
const k = "bogus";
export const d = vm({ name: "d", [k]: 1 });
//- /node_modules/@x/cloud/package.json
{ "name": "@x/cloud", "main": "index.js" }
//- /node_modules/@x/cloud/index.js
export const vm = defineResource({ vendor: "x", type: "vm", schema: z.object({ name: z.string(), zone: z.string().optional() }) });
`,
  },
  {
    name: "defineResource imported under another name, and called as tsc compiles it to CommonJS, defines a type (A4)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { vm } from "@acme/alias";
import { job } from "@acme/cjs";
export const web = vm({ name: "web", bogus: 1 });
//                                   ^^^^^ resource-fields
export const j = job({ name: "j", bogus: 1 });
//                                ^^^^^ resource-fields
//- /node_modules/@acme/alias/package.json
{ "name": "@acme/alias", "main": "index.js" }
//- /node_modules/@acme/alias/index.js
import { defineResource as define } from "@sanoma-ai/workflows";
import { z } from "zod";
export const vm = define({ vendor: "alias", type: "vm", schema: z.object({ name: z.string() }) });
//- /node_modules/@acme/cjs/package.json
{ "name": "@acme/cjs", "main": "dist/index.js" }
//- /node_modules/@acme/cjs/dist/index.js
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.job = void 0;
const workflows_1 = require("@sanoma-ai/workflows");
const zod_1 = require("zod");
exports.job = (0, workflows_1.defineResource)({ vendor: "cjs", type: "job", schema: zod_1.z.object({ name: zod_1.z.string() }) });
`,
  },
  {
    name: "a CommonJS module whose module.exports is a type is that type when required or imported by default (A4)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { vm } from "cjs-b";
import single from "cjs-single";
export const x3 = vm({ name: "x", bogus: 1 });
//                                ^^^^^ resource-fields
export const x5 = single({ name: "x", bogus: 1 });
//                                    ^^^^^ resource-fields
//- /node_modules/cjs-b/package.json
{ "name": "cjs-b", "main": "index.js" }
//- /node_modules/cjs-b/index.js
module.exports = { vm: require("./vm") };
//- /node_modules/cjs-b/vm.js
const { defineResource } = require("@sanoma-ai/workflows");
const { z } = require("zod");
module.exports = defineResource({ vendor: "cb", type: "vm", schema: z.object({ name: z.string() }) });
//- /node_modules/cjs-single/package.json
{ "name": "cjs-single", "main": "index.js" }
//- /node_modules/cjs-single/index.js
const { defineResource } = require("@sanoma-ai/workflows");
const { z } = require("zod");
module.exports = defineResource({ vendor: "cs", type: "one", schema: z.object({ name: z.string() }) });
`,
  },
  {
    name: "a package's imports (#name) are resolved as Node resolves them, patterns too (A4)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { d, e } from "p-imports";
export const x = d({ bogus: 1 });
//                   ^^^^^ resource-fields
export const y = e({ bogus: 1 });
//                   ^^^^^ resource-fields
//- /node_modules/p-imports/package.json
{ "name": "p-imports", "type": "module", "main": "index.js", "imports": { "#defs": "./lib/defs.js", "#more/*": { "import": "./lib/*.js" } } }
//- /node_modules/p-imports/index.js
export { d } from "#defs";
export { e } from "#more/e";
//- /node_modules/p-imports/lib/defs.js
export const d = defineResource({ vendor: "p", type: "d", schema: z.object({}) });
//- /node_modules/p-imports/lib/e.js
export const e = defineResource({ vendor: "p", type: "e", schema: z.object({}) });
`,
  },
  {
    name: "a call without a desired object lacks every required field; a lock binding into any file with syntax errors is not an orphan; a copy of the bindings elsewhere in the lockfile does not move where problems land (A4, A6)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { vm } from "@x/cloud";
export const a = vm();
//           ^ resource-fields lacks the required field
//           ^ lockfile bound as x.bucket
//- /workflows/broken.ts
export const w = (;
//                ^ syntax-error workflows/broken.ts does not parse (Expression expected.)
//- /sanoma.lock.json
{ "previous": { "bindings": { "resources/infra.ts#a": { "type": "x.bucket", "object": "o:1" } } },
  "version": 1, "bindings": {
  "resources/infra.ts#a": { "type": "x.bucket", "object": "o:1" },
//^^^^^^^^^^^^^^^^^^^^^^ lockfile bound as x.bucket
  "workflows/broken.ts#w": { "type": "x.vm", "object": "o:2" }
} }
//- /node_modules/@x/cloud/package.json
{ "name": "@x/cloud", "main": "index.js" }
//- /node_modules/@x/cloud/index.js
export const vm = defineResource({ vendor: "x", type: "vm", schema: z.object({ name: z.string() }) });
`,
  },
  {
    name: "every required field given, optional ones left out or given (null where the schema allows it): nothing to say",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { vm, bucket } from "@hooli/cloud";
export const web = vm({ name: "web" });
export const db = vm({ name: "db", zone: "eu-1", disk: null });
export const files = bucket({ name: "files", public: true });
${CLOUD_PACKAGE}`,
  },
  {
    name: "a const that is not exported declares nothing: its desired object is not judged",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { vm } from "@hooli/cloud";
const draft = vm({ nmae: "draft" });
export const web = vm({ name: "web" });
export const drafts = [draft];
${CLOUD_PACKAGE}`,
  },
  {
    name: "types reached through cycles of export * have their fields checked, whichever module of the cycle they are imported from (A4)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { trigger } from "@acme/conn";
import { trigger as viaA } from "@acme/conn/a.js";
import { store } from "mesh0";
import * as m2 from "mesh2";
export const a = trigger({ path: "/a", bogus: 1 });
//                                     ^^^^^ resource-fields \`bogus\` is not a field of acme.trigger
//           ^ one-wakeup resources/infra.ts#b
export const b = viaA({ pth: "/b" });
//                      ^^^ resource-fields \`pth\` is not a field of acme.trigger
//           ^ resource-fields lacks the required field \`path\`
//           ^ one-wakeup resources/infra.ts#a
export const c = store({ nme: "c" });
//                       ^^^ resource-fields \`nme\` is not a field of mesh.store
//           ^ resource-fields lacks the required field \`name\`
export const d = m2.queue({ name: "d", size: 1 });
//                                     ^^^^ resource-fields \`size\` is not a field of mesh.queue
${CYCLIC_PACKAGES}`,
  },
  {
    name: "a type reached through a cycle of export * is found at its fewest hops, asked by name before its namespace (it was no declaration through the namespace then, or either way when a depth-first walk went round the long way) (A4)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { far, near } from "@acme/ring";
import * as ring from "@acme/ring";
export const a = far({ name: "a", bogus: 1 });
//                                ^^^^^ resource-fields \`bogus\` is not a field of ring.far
export const b = ring.far({ name: "b", bogus: 1 });
//                                     ^^^^^ resource-fields \`bogus\` is not a field of ring.far
export const c = near({ name: "c", bogus: 1 });
//                                 ^^^^^ resource-fields \`bogus\` is not a field of ring.near
export const d = ring.near({ name: "d", bogus: 1 });
//                                      ^^^^^ resource-fields \`bogus\` is not a field of ring.near
${RING_PACKAGE}`,
  },
  {
    name: "a type reached through a cycle of export * is found at its fewest hops, asked through its namespace before its name (A4)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import * as ring from "@acme/ring";
import { far, near } from "@acme/ring";
export const b = ring.far({ name: "b", bogus: 1 });
//                                     ^^^^^ resource-fields \`bogus\` is not a field of ring.far
export const a = far({ name: "a", bogus: 1 });
//                                ^^^^^ resource-fields \`bogus\` is not a field of ring.far
export const d = ring.near({ name: "d", bogus: 1 });
//                                      ^^^^^ resource-fields \`bogus\` is not a field of ring.near
export const c = near({ name: "c", bogus: 1 });
//                                 ^^^^^ resource-fields \`bogus\` is not a field of ring.near
${RING_PACKAGE}`,
  },
];
