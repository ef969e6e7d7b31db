/**
 * What is under the cursor, in terms of facts: an operation reference, a declaration (its name or
 * its callee), a desired-object key, a collection's name, a lockfile binding, a `secret("NAME")`
 * call. Every navigation feature of every surface (the language server's, the TypeScript
 * plugin's) starts here, so they agree on what a position means.
 */
import path from "node:path";
import type { Analysis, Collection, Declaration } from "./analysis.ts";
import { visibleCollections } from "./analysis.ts";
import type { OpRefFact, SecretBindingFact, SecretCallFact } from "./facts.ts";
import type { LockBinding } from "./lockfile-read.ts";
import type { CompanyFile } from "./model.ts";
import { containsPosition } from "./text.ts";
import type { Position, Range } from "./types.ts";

export type Target =
  | { kind: "opRef"; ref: OpRefFact; collections: Collection[] }
  | { kind: "declaration"; decl: Declaration; on: "name" | "callee" }
  | { kind: "desiredKey"; decl: Declaration; key: string }
  | { kind: "collection"; collection: Collection }
  | { kind: "lockBinding"; binding: LockBinding; decl?: Declaration }
  /** `binding`: the config's binding of that name; `bindings`: what is known of them (see `secretBindingsOf`). */
  | { kind: "secret"; call: SecretCallFact; binding?: SecretBindingFact; bindings: SecretBindingsKnown };

/** What is known of the config's secret bindings: read, absent (no config, or no `secrets` section), or not readable statically. */
export type SecretBindingsKnown = "read" | "none" | "unknown";

/** A file of a company, with the company's analysis: where a target is looked for. */
export interface Located {
  analysis: Analysis;
  file?: CompanyFile;
  path: string;
  root: string;
}

export function targetAt(loc: Located, pos: Position): Target | undefined {
  const a = loc.analysis;
  if (path.basename(loc.path) === "sanoma.lock.json" && a.company.lockText !== undefined) {
    const lock = a.company.lock()!; // (parsed once per text, shared with the check)
    const b = lock.bindings.find((x) => containsPosition(x.keyRange, pos) || containsPosition(x.typeRange, pos) || containsPosition(x.objectRange, pos));
    return b ? { kind: "lockBinding", binding: b, decl: a.declarationsById.get(b.key) } : undefined;
  }
  const file = loc.file;
  const facts = file?.facts;
  if (!file || !facts) return undefined;
  for (const ref of facts.opRefs) {
    if (containsPosition(ref.range, pos)) {
      const visible = visibleCollections(a, file.role.scope).get(ref.collection) ?? a.collections.filter((c) => c.name === ref.collection);
      return { kind: "opRef", ref, collections: visible };
    }
  }
  // (A data file's: A5 says what `secret("NAME")` refers to there.)
  if (file.role.isDataFile) {
    for (const call of facts.secretCalls) {
      if (!containsPosition(call.range, pos)) continue;
      const bindings = secretBindingsOf(a);
      // (Bindings read past a spread are bound for sure: one of them is shown even when others cannot be read.)
      return { kind: "secret", call, bindings, binding: a.hasConfigFacts && a.secretBindings ? lastBinding(a.secretBindings, call.name) : undefined };
    }
  }
  for (const d of a.declarations) {
    if (d.file !== file) continue;
    if (containsPosition(d.fact.nameRange, pos)) return { kind: "declaration", decl: d, on: "name" };
    if (containsPosition(d.fact.callee.range, pos)) return { kind: "declaration", decl: d, on: "callee" };
    const key = d.fact.desired?.keys.find((k) => containsPosition(k.range, pos));
    if (key) return { kind: "desiredKey", decl: d, key: key.name };
  }
  for (const c of a.collections) {
    if (c.file !== file) continue;
    if (containsPosition(c.nameRange, pos) || (c.fact.nameRange && containsPosition(c.fact.nameRange, pos))) return { kind: "collection", collection: c };
  }
  return undefined;
}

/**
 * What is known of the config's secret bindings, as `secret-bindings` reads them: `unknown` when
 * the config failed to load or its bindings cannot all be read statically (a spread, a computed
 * name: then a name may be bound without being written), `none` when there is no `secrets`
 * section, else `read`.
 */
export function secretBindingsOf(a: Analysis): SecretBindingsKnown {
  if (!a.hasConfigFacts || a.secretBindings === null || a.secretBindingsOpen) return "unknown";
  return a.secretBindings === undefined ? "none" : "read";
}

/** The binding of a name (the last written, as an object literal's later key wins). */
function lastBinding(bindings: readonly SecretBindingFact[], name: string): SecretBindingFact | undefined {
  for (let i = bindings.length - 1; i >= 0; i--) if (bindings[i].name === name) return bindings[i];
  return undefined;
}

/** Where a secret's binding is written: its name in the config. */
export function secretBindingLocation(a: Analysis, binding: SecretBindingFact): { file: string; range: Range } | undefined {
  const config = a.company.configFile;
  return config ? { file: config.path, range: binding.nameRange } : undefined;
}

/** Every op reference to a collection, across the files whose scope sees it. */
export function referencesTo(a: Analysis, c: Collection): { file: CompanyFile; ref: OpRefFact }[] {
  const out: { file: CompanyFile; ref: OpRefFact }[] = [];
  for (const file of a.files) {
    const refs = file.facts?.opRefs;
    if (!refs?.length) continue;
    if (c.scope !== null && file.role.scope !== c.scope) continue;
    for (const ref of refs) if (ref.collection === c.name) out.push({ file, ref });
  }
  return out;
}
