/**
 * `resource-type-spec` (SPEC A4): the definition rules of a resource type whose connector is in
 * the company's own tree. A sandbox is writable; a vendorless type is neither writable nor a host;
 * a database is writable and not stateless.
 */
import type { ResourceSpecFact } from "../facts.ts";
import type { Rule, RuleCase } from "./rule.ts";

export const rule: Rule = {
  id: "resource-type-spec",
  severity: "error",
  doc: {
    summary: "A resource type defined in the company breaks a contract's definition rule.",
    why: "The framework relies on these when it plans: a sandbox holds state the agent changes, so it must be `writable`; a `vendorless` type has no vendor object, so there is nothing to write or to host on; a `database` keeps data, so it is `writable` and not `stateless`. A connector that breaks them fails at apply time, far from the mistake.",
    wrong: `
//- /sanoma.config.ts
export default {};
//- /connectors/internal.ts
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const pg = defineResource({
  vendor: "internal", type: "pg", title: "Postgres", schema: z.object({ name: z.string() }), fields: {},
  writable: true,
  stateless: true,
  database: { storeUrl: "saveUrl" },
//^^^^^^^^ resource-type-spec
});
`,
    right: `
//- /sanoma.config.ts
export default {};
//- /connectors/internal.ts
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const pg = defineResource({
  vendor: "internal", type: "pg", title: "Postgres", schema: z.object({ name: z.string() }), fields: {},
  writable: true,
  database: { storeUrl: "saveUrl" },
});
`,
  },
  checkFile(file, _root, report) {
    for (const spec of file.facts?.specs ?? []) {
      for (const p of specProblems(spec)) report({ file: file.path, range: p.range, message: p.message });
    }
  },
};

export function typeIdOf(spec: ResourceSpecFact): string {
  return `${spec.vendor ?? "?"}.${spec.type ?? "?"}`;
}

function specProblems(spec: ResourceSpecFact) {
  const id = typeIdOf(spec);
  const out: { range: ResourceSpecFact["range"]; message: string }[] = [];
  const on = (f: ResourceSpecFact["writable"]) => f !== undefined && f.value === true;
  const off = (f: ResourceSpecFact["writable"]) => f === undefined || f.value === false;
  if (on(spec.sandbox) && off(spec.writable)) {
    out.push({ range: spec.sandbox!.keyRange, message: `${id}: a sandbox type is writable: add \`writable: true\`` });
  }
  if (on(spec.vendorless) && (on(spec.writable) || on(spec.host))) {
    out.push({ range: spec.vendorless!.keyRange, message: `${id}: a vendorless type has no object to change or host` });
  }
  if (on(spec.database) && (off(spec.writable) || on(spec.stateless))) {
    const why = off(spec.writable) ? "add `writable: true`" : "remove `stateless: true`";
    out.push({ range: spec.database!.keyRange, message: `${id}: a database type is writable and keeps state: ${why}` });
  }
  return out;
}

/** Beyond the doc's examples: companies where the rule fires or stays silent, every problem drawn under the text (test/rules/rule-cases.test.ts). */
export const cases = (): RuleCase[] => [
  {
    name: "a type's flags held in top-level consts are read as their values (A4: the definition rules and the contracts read the same flags)",
    company: `
//- /sanoma.config.ts
export default {};
//- /connectors/local.ts
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
const spec = { image: "ubuntu" };
const sandbox = { image: "debian" };
const OFF = false;
const YES = true;
export const box = defineResource({ vendor: "local", type: "box", title: "Box", schema: z.object({}), fields: {}, sandbox: spec });
//                                                                                                                ^^^^^^^ resource-type-spec a sandbox type is writable
export const box2 = defineResource({ vendor: "local", type: "box2", title: "Box", schema: z.object({}), fields: {}, sandbox });
//                                                                                                                  ^^^^^^^ resource-type-spec a sandbox type is writable
export const db = defineResource({ vendor: "local", type: "db", title: "DB", schema: z.object({}), fields: {}, database: OFF });
export const none = defineResource({ vendor: "local", type: "none", title: "None", schema: z.object({}), fields: {}, vendorless: YES, writable: true });
//                                                                                                                   ^^^^^^^^^^ resource-type-spec a vendorless type
`,
  },
  {
    name: "a vendorless type that hosts, and a database type that is not writable, are each said at their flag",
    company: `
//- /sanoma.config.ts
export default {};
//- /connectors/local.ts
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const dir = defineResource({ vendor: "local", type: "dir", title: "Dir", schema: z.object({}), fields: {}, vendorless: true, host: true });
//                                                                                                                ^^^^^^^^^^ resource-type-spec
export const kv = defineResource({ vendor: "local", type: "kv", title: "KV", schema: z.object({}), fields: {}, database: { storeUrl: "url" } });
//                                                                                                             ^^^^^^^^ resource-type-spec
`,
  },
  {
    name: "a writable sandbox type and a writable database type that keeps state: nothing to say",
    company: `
//- /sanoma.config.ts
export default {};
//- /connectors/local.ts
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const box = defineResource({ vendor: "local", type: "box", title: "Box", schema: z.object({}), fields: {}, writable: true, sandbox: { image: "debian" } });
export const pg = defineResource({ vendor: "local", type: "pg", title: "PG", schema: z.object({}), fields: {}, writable: true, database: { storeUrl: "url" } });
`,
  },
  {
    name: "flags written false are off: a type that is no sandbox and no database needs no writable, a vendorless one that neither writes nor hosts is fine",
    company: `
//- /sanoma.config.ts
export default {};
//- /connectors/local.ts
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const note = defineResource({ vendor: "local", type: "note", title: "Note", schema: z.object({}), fields: {}, sandbox: false, database: false });
export const tag = defineResource({ vendor: "local", type: "tag", title: "Tag", schema: z.object({}), fields: {}, vendorless: true });
`,
  },
  {
    name: "a spread of a top-level const's object is read in its place, a later key over an earlier one; a spread of anything else leaves writable unknown (nothing said of it)",
    company: `
//- /sanoma.config.ts
export default {};
//- /connectors/local.ts
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
import { shared } from "./shared";
const base = { writable: true, fields: {} };
const readOnly = { ...base, writable: false };
export const runner = defineResource({ ...base, vendor: "local", type: "runner", title: "R", schema: z.object({}), sandbox: { image: "u" } });
export const pg = defineResource({ ...base, vendor: "local", type: "pg", title: "PG", schema: z.object({}), database: {} });
export const flat = defineResource({ vendor: "local", type: "flat", title: "F", schema: z.object({}), fields: {}, vendorless: true, ...base });
//                                                                                                                ^^^^^^^^^^ resource-type-spec a vendorless type has no object to change or host
export const ro = defineResource({ ...readOnly, vendor: "local", type: "ro", title: "RO", schema: z.object({}), sandbox: {} });
//                                                                                                              ^^^^^^^ resource-type-spec a sandbox type is writable
export const late = defineResource({ ...base, vendor: "local", type: "late", title: "L", schema: z.object({}), writable: false, database: {} });
//                                                                                                                              ^^^^^^^^ resource-type-spec add \`writable: true\`
export const other = defineResource({ ...shared, vendor: "local", type: "other", title: "O", schema: z.object({}), sandbox: {} });
export const called = defineResource({ ...makeBase(), vendor: "local", type: "called", title: "C", schema: z.object({}), database: {} });
function makeBase() { return { writable: true, fields: {} }; }
//- /connectors/shared.ts
export const shared = { writable: true, fields: {} };
`,
  },
];
