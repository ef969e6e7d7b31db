/**
 * `secret-bindings` (SPEC A7): the config's secret bindings are well formed, and every
 * `secret("NAME")` of a data file has a binding (a warning: the store may still hold it).
 */
import { didYouMean, suggestion } from "../text.ts";
import type { Analysis } from "../analysis.ts";
import type { SecretBindingFact } from "../facts.ts";
import type { Rule } from "./rule.ts";
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
      if (names.set.has(s.name)) continue;
      const hint = suggestion(s.name, names.set);
      const near = hint ? didYouMean(s.name, names.set) : undefined;
      // (The fix edits the literal's text, so its quotes stay as written.)
      const text = { start: { line: s.range.start.line, character: s.range.start.character + 1 }, end: { line: s.range.end.line, character: s.range.end.character - 1 } };
      report({
        file: file.path, range: s.range, severity: "warning",
        message: `No secret binding named \`${s.name}\` in sanoma.config.ts; apply will look for it in the secret store${hint}`,
        fixes: near ? [{ title: `Change to "${near}"`, preferred: true, edits: [{ file: file.path, range: text, newText: near }] }] : undefined,
        related: config ? [{ file: config.path, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, message: "the config's secret bindings" }] : undefined,
      });
    }
  },
};

const namesMemo = new WeakMap<object, { set: Set<string>; key: string }>();
const NO_BINDINGS: SecretBindingFact[] = [];

/**
 * The config's secret binding names, or undefined when nothing is known of them (no readable
 * config, or bindings that cannot be read statically): then nothing is said rather than guessed.
 */
function bindingNames(a: Analysis): { set: Set<string>; key: string } | undefined {
  // (Bindings that cannot all be read: any name may be bound, no call is judged.)
  if (!a.hasConfigFacts || a.secretBindings === null || a.secretBindingsOpen) return undefined;
  const bindings = a.secretBindings ?? NO_BINDINGS;
  let names = namesMemo.get(bindings);
  if (!names) {
    const set = new Set(bindings.map((b) => b.name));
    names = { set, key: [...set].sort().join("\n") };
    namesMemo.set(bindings, names);
  }
  return names;
}

/** `a`, `a and b`, `a, b and c`. */
function andList(items: string[]): string {
  return items.length <= 2 ? items.join(" and ") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}
