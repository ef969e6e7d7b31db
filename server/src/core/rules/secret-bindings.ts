/**
 * `secret-bindings` (SPEC A7): the config's secret bindings are well formed, and every
 * `secret("NAME")` of a data file has a binding (a warning: the store may still hold it).
 */
import { didYouMean, insideQuotes, suggestion } from "../text.ts";
import type { Analysis } from "../analysis.ts";
import type { Range } from "../types.ts";
import type { SecretBindingFact } from "../facts.ts";
import type { Rule, RuleCase } from "./rule.ts";
import { loadFailure } from "../model.ts";

export const rule: Rule = {
  id: "secret-bindings",
  severity: "error",
  doc: {
    summary: "A secret binding gives a host a secret without `env`, two host bindings read one variable, or a data file uses a secret that has no binding.",
    why: "Secrets reach hosts only from environment variables, so `host: true` takes an `{ env }` binding; two host bindings from one variable would hand the same value out under two names. A `secret(\"NAME\")` with no binding of that name is resolved from the secret store at apply time: a warning, since the store may hold it, but usually a typo.",
    wrong: `
//- /sanoma.config.ts
export default {
  secrets: {
    bindings: {
      CLOUD_KEY: { env: "CLOUD_KEY", host: true },
      PUSH: { host: true },
//    ^^^^ secret-bindings
    },
  },
};
//- /resources/events.ts
import { secret } from "@sanoma-ai/workflows/resources";
export const image = secret("RUNNER_IMAGE");
//                          ^^^^^^^^^^^^^^ secret-bindings
`,
    right: `
//- /sanoma.config.ts
export default {
  secrets: {
    bindings: {
      CLOUD_KEY: { env: "CLOUD_KEY", host: true },
      PUSH: { env: "PUSH_TOKEN", host: true },
      RUNNER_IMAGE: { bootstrap: true },
    },
  },
};
//- /resources/events.ts
import { secret } from "@sanoma-ai/workflows/resources";
export const image = secret("RUNNER_IMAGE");
`,
  },
  companyInputs: (a) => [a.company.configFile],
  checkCompany(a, report) {
    const config = a.company.configFile;
    const bindings = a.secretBindings;
    if (!config || !bindings) return;
    const hostByEnv = new Map<string, typeof bindings>();
    for (const b of bindings) {
      if (b.host === true && !b.env && !b.envUnknown) {
        report({ file: config.path, range: b.nameRange, message: `Secret binding \`${b.name}\` has \`host: true\` but no \`env\`: a secret reaches hosts only from an environment variable; add \`env: "VAR"\` or drop \`host\`` });
      }
      if (b.host === true && b.env) {
        const list = hostByEnv.get(b.env.value);
        if (list) list.push(b); else hostByEnv.set(b.env.value, [b]);
      }
    }
    for (const [env, list] of hostByEnv) {
      if (list.length < 2) continue;
      for (const b of list) {
        const others = list.filter((o) => o !== b);
        report({
          file: config.path, range: b.nameRange,
          message: `Secret bindings ${andList(list.map((o) => `\`${o.name}\``))} ${list.length === 2 ? "both" : "all"} give the hosts the variable ${env}; bind it once`,
          related: others.map((o) => ({ file: config.path, range: o.nameRange, message: `also gives ${env} to the hosts` })),
        });
      }
    }
  },
  // A data file's `secret()` calls are judged against the binding names alone, so editing a
  // binding's options re-judges no data file.
  fileInputs: (a) => [bindingNames(a)?.key],
  checkFileIn(file, a, report) {
    const names = bindingNames(a);
    // (A data file that fails to load calls nothing: A11.)
    if (!names || !file.role.isDataFile || !file.facts || file.facts.secretCalls.length === 0 || loadFailure(file)) return;
    const config = a.company.configFile;
    for (const s of file.facts.secretCalls) {
      if (names.at.has(s.name)) continue;
      const hint = suggestion(s.name, names.at.keys());
      const near = hint ? didYouMean(s.name, names.at.keys()) : undefined;
      // (The fix edits the literal's text, so its quotes stay as written. It is offered, never
      // preferred: the call may be right, its secret held in the store, so `--fix` and an editor's
      // "fix all" leave it to the person.)
      const text = insideQuotes(s.range);
      report({
        file: file.path, range: s.range, severity: "warning",
        message: `No secret binding named \`${s.name}\` in sanoma.config.ts; apply will look for it in the secret store${hint}`,
        fixes: near ? [{ title: `Change to "${near}"`, edits: [{ file: file.path, range: text, newText: near }] }] : undefined,
        // The binding it likely means, else the config's bindings (their first name), else the config.
        related: !config ? undefined : near !== undefined ? [{ file: config.path, range: names.at.get(near)!, message: `\`${near}\` is bound here` }]
          : [{ file: config.path, range: names.first ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, message: "the config's secret bindings" }],
      });
    }
  },
};

/** The binding names with where each is written (the last of a name written twice: the one that holds), the first binding's place, and a key that changes with any of them. */
interface BindingNames { at: Map<string, Range>; first: Range | undefined; key: string }
const namesMemo = new WeakMap<object, BindingNames>();
const NO_BINDINGS: SecretBindingFact[] = [];

/**
 * The config's secret binding names, or undefined when nothing is known of them (no readable
 * config, or bindings that cannot be read statically): then nothing is said rather than guessed.
 */
function bindingNames(a: Analysis): BindingNames | undefined {
  // (Bindings that cannot all be read: any name may be bound, no call is judged.)
  if (!a.hasConfigFacts || a.secretBindings === null || a.secretBindingsOpen) return undefined;
  const bindings = a.secretBindings ?? NO_BINDINGS;
  let names = namesMemo.get(bindings);
  if (!names) {
    const at = new Map<string, Range>();
    for (const b of bindings) at.set(b.name, b.nameRange);
    // (Where the names are written is in the key: a problem's related place moves with them.)
    const key = [...at].map(([n, r]) => `${n}@${r.start.line}:${r.start.character}`).sort().join("\n");
    names = { at, first: bindings[0]?.nameRange, key };
    namesMemo.set(bindings, names);
  }
  return names;
}

/** `a`, `a and b`, `a, b and c`. */
function andList(items: string[]): string {
  return items.length <= 2 ? items.join(" and ") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/** Beyond the doc's examples: companies where the rule fires or stays silent, every problem drawn under the text (test/rules/rule-cases.test.ts). */
export const cases = (): RuleCase[] => [
  {
    name: "secret bindings after a spread or an unreadable computed name are still judged; those before it may be overridden, and any name may be bound (A7)",
    company: `
//- /sanoma.config.ts
import { shared, KEY_NAME } from "./lib/secrets";
export default {
  secrets: {
    bindings: {
      EARLY: { host: true },
      [KEY_NAME]: { env: "K" },
      MIDDLE: { host: true },
      ...shared,
      PUSH: { host: true },
//    ^^^^ secret-bindings
      A: { env: "SAME", host: true },
//    ^ secret-bindings
      B: { env: "SAME", host: true },
//    ^ secret-bindings
    },
  },
};
//- /lib/secrets.ts
export const shared = {};
export const KEY_NAME = "K";
//- /resources/infra.ts
import { secret } from "@sanoma-ai/workflows/resources";
export const k = secret("WHATEVER_THE_SPREAD_HOLDS");
`,
  },
  {
    name: "a config read through top-level consts, with shorthand and computed binding names (A3, A7)",
    company: `
//- /sanoma.config.ts
import { defineConfig } from "@sanoma-ai/workflows";
const CLOUD_KEY = { env: "CLOUD_KEY" };
const bindings = { CLOUD_KEY, ["SIGNING"]: { bootstrap: true }, PUSH: { host: true } };
//                                                              ^^^^ secret-bindings
const config = defineConfig({ name: "acme", secrets: { bindings } });
export default config;
//- /resources/infra.ts
import { secret } from "@sanoma-ai/workflows/resources";
export const k = secret("CLOUD_KEY");
export const s = secret("SIGNING");
export const m = secret("MISSING");
//                      ^^^^^^^^^ secret-bindings
`,
  },
  {
    name: "a binding name computed from anything but a literal makes the bindings unknown: no call is said to lack one",
    company: `
//- /sanoma.config.ts
const NAME = process.env.N!;
export default { secrets: { bindings: { [NAME]: { env: "X" } } } };
//- /resources/infra.ts
import { secret } from "@sanoma-ai/workflows/resources";
export const m = secret("ANYTHING");
`,
  },
  {
    name: "collection() and secret() on a framework namespace count, secret() on any namespace too (A7: wherever it was imported from); a local that shadows the import does not (A7, A8)",
    company: `
//- /sanoma.config.ts
export default { secrets: { bindings: { TOKEN: { env: "TOKEN" } } } };
//- /resources/data.ts
import * as d from "@sanoma-ai/workflows/data";
export const orders = d.collection({ key: "sku", fields: { id: "string" } });
//                                        ^^^^^ collection-key
//- /resources/infra.ts
import { secret } from "@sanoma-ai/workflows/resources";
import * as res from "@sanoma-ai/workflows/resources";
export const k = secret("TOKEN");
export const n = res.secret("MISSING_NS");
//                          ^^^^^^^^^^^^ secret-bindings
export const hooks = [1].map(() => { const secret = (x: string) => x; return secret("not-a-secret"); });
export const more = (secret: (x: string) => string) => secret("param");
export const last = secret("MISSING");
//                         ^^^^^^^^^ secret-bindings
//- /resources/more.ts
import * as helpers from "../lib/helpers";
export const viaHelpers = helpers.secret("MISSING_HELPER");
//                                       ^^^^^^^^^^^^^^^^ secret-bindings
export const other = helpers.collection({ key: "id", fields: { id: "string" } });
//- /lib/helpers.ts
export { secret } from "@sanoma-ai/workflows/resources";
export const collection = (x: unknown) => x;
//- /workflows/w.ts
import * as data from "@sanoma-ai/workflows/data";
export const cache = data.collection({ key: "id", fields: { id: "string" } });
//                   ^^^^^^^^^^^^^^^ collection-file
export async function w(ctx: any) { await ctx.call("data.orders.get", {}); }
`,
  },
  {
    name: "secret bindings: a name written twice is one binding, the last; env: null or undefined is no env (A7)",
    company: `
//- /sanoma.config.ts
export default { secrets: { bindings: { A: { env: "X", host: true }, A: { env: "X", host: true }, D: { bootstrap: true, host: true, env: undefined }, N: { env: null, host: true } } } };
//                                                                                                ^ secret-bindings
//                                                                                                                                                    ^ secret-bindings
`,
  },
  {
    name: "a data file that does not parse calls no secret(): nothing is said of its calls while the config's bindings are still judged (A11)",
    company: `
//- /sanoma.config.ts
export default { secrets: { bindings: { PUSH: { host: true } } } };
//                                      ^^^^ secret-bindings
//- /resources/infra.ts
import { secret } from "@sanoma-ai/workflows/resources";
export const key = secret("NOT_BOUND") +;
//                                      ^ syntax-error
//- /resources/ok.ts
import { secret } from "@sanoma-ai/workflows/resources";
export const key = secret("ALSO_NOT_BOUND");
//                        ^^^^^^^^^^^^^^^^ secret-bindings
`,
  },
  {
    name: "every secret() bound, each host variable given once: nothing to say",
    company: `
//- /sanoma.config.ts
export default { secrets: { bindings: { A: { env: "A", host: true }, B: { env: "B", host: true }, C: { bootstrap: true } } } };
//- /resources/infra.ts
import { secret } from "@sanoma-ai/workflows/resources";
export const a = secret("A");
export const b = secret("B");
export const c = secret("C");
`,
  },
];
