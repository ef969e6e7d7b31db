/**
 * `lockfile` (SPEC A6): the lockfile can be read; each binding's key is declared (else an orphan,
 * a warning); its type is its declaration's; no two bindings share one vendor object.
 */
import * as path from "node:path";
import type { Analysis } from "../analysis.ts";
import type { LockBinding, LockFacts } from "../lockfile-read.ts";
import type { Problem } from "../types.ts";
import type { Report, Rule } from "./rule.ts";

export const rule: Rule = {
  id: "lockfile",
  severity: "error",
  doc: {
    summary: "`sanoma.lock.json` cannot be read, binds a declaration that does not exist, binds one of another type, or binds one object twice.",
    why: "Apply uses the lockfile to know which vendor object each declaration owns. An orphan binding (its declaration was removed or renamed) makes apply offer to delete the object: a warning, since that may be what you want. A binding whose type differs from its declaration's, or two bindings of one object, would make apply change the wrong object.",
    wrong: `
//- /sanoma.config.ts
export default {};
//- /resources/compute.ts
import { vm } from "@hooli/cloud";
export const api = vm({ name: "api" });
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/compute.ts#api": { "type": "cloud.vm", "object": "cloud:vm/7" },
  "resources/compute.ts#removed": { "type": "cloud.vm", "object": "cloud:vm/9" }
//^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ lockfile
} }
//- /node_modules/@hooli/cloud/package.json
{ "name": "@hooli/cloud", "exports": { ".": "./index.js" } }
//- /node_modules/@hooli/cloud/index.js
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const vm = defineResource({ vendor: "cloud", type: "vm", title: "VM", schema: z.object({ name: z.string() }), fields: {}, writable: true });
`,
    right: `
//- /sanoma.config.ts
export default {};
//- /resources/compute.ts
import { vm } from "@hooli/cloud";
export const api = vm({ name: "api" });
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/compute.ts#api": { "type": "cloud.vm", "object": "cloud:vm/7" }
} }
//- /node_modules/@hooli/cloud/package.json
{ "name": "@hooli/cloud", "exports": { ".": "./index.js" } }
//- /node_modules/@hooli/cloud/index.js
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const vm = defineResource({ vendor: "cloud", type: "vm", title: "VM", schema: z.object({ name: z.string() }), fields: {}, writable: true });
`,
    fix: "Run apply to rewrite the lockfile, or remove the stale binding by hand once its object is dealt with.",
  },
  // A binding is judged with the file its key names (an edit there re-judges its bindings only);
  // the rest (a lockfile that cannot be read, bindings of files that do not exist, one object
  // bound twice) depends on the lockfile and the list of files alone.
  fileInputs: (a) => [a.lock],
  checkFileIn(file, a, report) {
    const lock = a.lock;
    if (!lock || lock.error) return;
    const bindings = bindingsByRel(lock).get(file.rel);
    if (!bindings) return;
    const rel = relFacts(file.rel, a);
    for (const b of bindings) judgeBinding(b, rel, a, report);
  },
  // (A data file that fails to load takes its bindings out of the shared-object count: its list is an input.)
  companyInputs: (a) => [a.lock, a.company.membershipVersion, a.failedFiles.size === 0 ? "" : [...a.failedFiles].sort().join("\n")],
  // In steps: a lockfile may hold hundreds of thousands of bindings, and the server keeps answering meanwhile.
  *checkCompany(a, report) {
    const lock = a.lock;
    if (!lock) return;
    const file = a.company.lockPath;
    if (lock.error) { report({ file, range: lock.error.range, message: lock.error.message }); return; }
    // A key written twice: said where, and the bindings are judged as JSON.parse reads them.
    for (const d of lock.duplicates ?? []) report({ file, range: d.range, message: d.message, related: [{ file, range: d.first, message: `${d.key} first bound here` }] });
    for (const m of lock.malformed ?? []) report({ file, range: m.range, message: m.message });
    let n = 0;
    for (const [rel, bindings] of bindingsByRel(lock)) {
      if (a.company.files.get(path.join(a.company.root, rel))?.rel === rel) continue; // judged with its file
      const facts = relFacts(rel, a);
      for (const b of bindings) {
        judgeBinding(b, facts, a, report);
        if (++n % STEP === 0) yield;
      }
    }
    // Each object's first binding, and a list only for an object bound more than once.
    const byObject = new Map<string, LockBinding | LockBinding[]>();
    for (const b of lock.bindings) {
      // Its file failed to load: nothing is said of its bindings (A6), so it shares nothing either.
      if (a.failedFiles.size > 0 && a.failedFiles.has(relOf(b.key))) continue;
      const seen = byObject.get(b.object);
      if (seen === undefined) byObject.set(b.object, b);
      else if (Array.isArray(seen)) seen.push(b);
      else byObject.set(b.object, [seen, b]);
      if (++n % STEP === 0) yield;
    }
    for (const [object, list] of byObject) {
      if (!Array.isArray(list)) continue;
      for (const b of list) {
        const others = list.filter((o) => o !== b);
        report({
          // At the binding (A6), i.e. its key (B1: "the property key"), each of them.
          file, range: b.keyRange,
          message: `${object} is bound ${list.length} times (by ${others.map((o) => o.key).join(", ")} too); an object belongs to one declaration`,
          related: others.map((o) => ({ file, range: o.keyRange, message: `also bound by ${o.key}` })),
        });
      }
    }
  },
};

/** The tag of an orphan binding's problem: one array for all of them (a lockfile may hold 500,000). */
const UNNECESSARY: Problem["tags"] = Object.freeze(["unnecessary"]) as unknown as Problem["tags"];

/** Bindings judged between two yields of the company-wide part. */
const STEP = 1024;

function relOf(key: string): string {
  const hash = key.lastIndexOf("#");
  return hash > 0 ? key.slice(0, hash) : key;
}

const byRelMemo = new WeakMap<LockFacts, Map<string, LockBinding[]>>();

/** The lockfile's bindings by the company-relative path their key names, once per lockfile text. */
function bindingsByRel(lock: LockFacts): Map<string, LockBinding[]> {
  let out = byRelMemo.get(lock);
  if (!out) {
    out = new Map();
    for (const b of lock.bindings) {
      const rel = relOf(b.key);
      const list = out.get(rel);
      if (list) list.push(b); else out.set(rel, [b]);
    }
    byRelMemo.set(lock, out);
  }
  return out;
}

/** What a binding's judgement asks of the file its key names: the same for all its bindings. */
interface RelFacts {
  rel: string;
  /** It exists but failed to load (syntax errors): nothing is said of its bindings. */
  silent: boolean;
  /** A declaration id's file part as A3 writes it: company-relative, `/` separators, normalised. */
  wellFormed: boolean;
  exists: boolean;
  /** Whether the file has syntax errors, whatever its kind (asked once, and only of a binding with no declaration). */
  broken(): boolean;
}

function relFacts(rel: string, a: Analysis): RelFacts {
  const entry = a.company.files.get(path.join(a.company.root, rel));
  const exists = entry?.rel === rel;
  let broken: boolean | undefined;
  return {
    rel, exists,
    broken: () => (broken ??= (entry?.facts?.syntaxErrors ?? 0) > 0),
    // (Any file of the company, not only a data file: A6 says "its file". Its syntax is asked only
    // where it matters: a file whose bindings are all declared is never parsed for it.)
    silent: a.failedFiles.has(rel),
    wellFormed: !rel.includes("\\") && path.posix.normalize(rel) === rel && !rel.startsWith("/") && !rel.startsWith("../"),
  };
}

function judgeBinding(b: LockBinding, rel: RelFacts, a: Analysis, report: Report): void {
  const file = a.company.lockPath;
  // Its file failed to load (syntax errors): nothing is said of its bindings, of what they are
  // bound as either (what the file declares was only partly read).
  if (rel.silent) return;
  const decl = a.declarationsById.get(b.key);
  if (!decl && rel.broken()) return;
  if (!decl) {
    const hash = b.key.lastIndexOf("#");
    // A declaration id is `<file>#<export>`, the file by its company-relative path with `/` separators (A3).
    const wellFormed = hash > 0 && hash < b.key.length - 1 && rel.wellFormed;
    const deleting = `apply will ask to delete ${b.object}`;
    report({
      file, range: b.keyRange, severity: "warning", tags: UNNECESSARY,
      message: !wellFormed
        ? `Orphan binding: \`${b.key}\` is no declaration id (\`<file>#<export>\`, the file's path from the company root with / separators); ${deleting}`
        : rel.exists
          ? `Orphan binding: ${rel.rel} declares no \`${b.key.slice(hash + 1)}\`; ${deleting}`
          : `Orphan binding: ${rel.rel} is no file of this company; ${deleting}`,
    });
    return;
  }
  // A type whose vendor or type name is not a literal (`vendor: VENDOR`, a spread) has an id
  // that cannot be read: unknown, not different.
  if (decl.type && decl.type.vendor !== undefined && decl.type.type !== undefined && decl.type.id !== b.type) {
    const message = `${b.key} is bound as ${b.type} but declared as ${decl.type.id}`;
    // At the binding's key (A6, B1), and at the declaration; at both, the fix edits the type it replaces.
    const fixes = [{ title: `Change to "${decl.type.id}"`, edits: [{ file, range: b.typeRange, newText: JSON.stringify(decl.type.id) }] }];
    report({ file, range: b.keyRange, message, related: [{ file: decl.file.path, range: decl.fact.nameRange, message: `declared here as ${decl.type.id}` }], fixes });
    report({ file: decl.file.path, range: decl.fact.nameRange, message, related: [{ file, range: b.keyRange, message: `bound here as ${b.type}` }], fixes });
  }
}

