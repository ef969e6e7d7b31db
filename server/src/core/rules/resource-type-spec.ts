/**
 * `resource-type-spec` (SPEC A4): the definition rules of a resource type whose connector is in
 * the company's own tree. A sandbox is writable; a vendorless type is neither writable nor a host;
 * a database is writable and not stateless.
 */
import type { ResourceSpecFact } from "../facts.ts";
import type { Rule } from "./rule.ts";
import type { RuleCase } from "./rule.ts";

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
];
