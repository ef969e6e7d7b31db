/**
 * `lockfile` (SPEC A6): the lockfile can be read; each binding's key is declared (else an orphan,
 * a warning); its type is its declaration's; no two bindings share one vendor object.
 */
import * as path from "node:path";
import type { Analysis } from "../analysis.ts";
import { relOfKey, type LockBinding } from "../lockfile-read.ts";
import { ShardedMap } from "../sharded-map.ts";
import type { Problem } from "../types.ts";
import type { Report, Rule, RuleCase } from "./rule.ts";
import { CLOUD_PACKAGE } from "./case-packages.ts";

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
    const bindings = lock.byRel.get(file.rel);
    if (!bindings) return;
    const rel = relFacts(file.rel, a);
    for (const b of bindings) judgeBinding(b, rel, a, report);
  },
  // (A data file that fails to load takes its bindings out of the shared-object count: its list is an input.)
  // (And the folders the walk leaves out: a binding of a file there is not judged.)
  companyInputs: (a) => [a.lock, a.company.membershipVersion, a.failedFiles.size === 0 ? "" : [...a.failedFiles].sort().join("\n"), a.company.walkExcludeKey],
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
    for (const [rel, bindings] of lock.byRel) {
      if (++n % STEP === 0) yield; // (a step every so many files too: most are judged with their file, and skipped here)
      if (a.company.files.get(path.join(a.company.root, rel))?.rel === rel) continue; // judged with its file
      const facts = relFacts(rel, a);
      for (const b of bindings) {
        judgeBinding(b, facts, a, report);
        if (++n % STEP === 0) yield;
      }
    }
    // Each object's first binding, and a list only for an object bound more than once.
    const byObject = new ShardedMap<LockBinding | LockBinding[]>(); // (one Map of 500,000 objects grows in long pauses)
    for (const b of lock.bindings) {
      // Its file failed to load: nothing is said of its bindings (A6), so it shares nothing either.
      if (a.failedFiles.size > 0 && a.failedFiles.has(relOfKey(b.key))) continue;
      const seen = byObject.get(b.object);
      if (seen === undefined) byObject.set(b.object, b);
      else if (Array.isArray(seen)) seen.push(b);
      else byObject.set(b.object, [seen, b]);
      if (++n % STEP === 0) yield;
    }
    for (const [object, list] of byObject.entries()) {
      if (++n % STEP === 0) yield;
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

/**
 * Bindings judged between two yields of the company-wide part. Small: each step's allocations pay
 * for V8's marking of the whole heap as they go, so a step of 1,024 took 30–70 ms in all with
 * half a million bindings (and a request waited through three of them).
 */
const STEP = 256;


/** What a binding's judgement asks of the file its key names: the same for all its bindings. */
interface RelFacts {
  rel: string;
  /**
   * It exists but failed to load (syntax errors), or it lies in a folder the company's walk leaves
   * out (`exclude`): the framework loads it, we did not read it. Nothing is said of its bindings.
   */
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
  const wellFormed = isWellFormedRel(rel);
  return {
    rel, exists, wellFormed,
    broken: () => (broken ??= (entry?.facts?.syntaxErrors ?? 0) > 0),
    // (Any file of the company, not only a data file: A6 says "its file". Its syntax is asked only
    // where it matters: a file whose bindings are all declared is never parsed for it.)
    silent: unreadFile(rel, a, exists, wellFormed) !== undefined,
  };
}

/** A declaration id's file part as A3 writes it: company-relative, `/` separators, normalised. */
function isWellFormedRel(rel: string): boolean {
  return !rel.includes("\\") && path.posix.normalize(rel) === rel && !rel.startsWith("/") && !rel.startsWith("../");
}

/**
 * Why what the file at `rel` declares is unknown, so that nothing is said of its bindings (the
 * rule's silence, and hover's words for it): it failed to load (syntax errors), or it lies in a
 * folder the company's walk leaves out (`exclude`), which the framework loads but we did not read,
 * as a skipped file's is. Its bindings still count in the shared-object check, which reads the
 * lockfile alone. Undefined when its declarations are known.
 */
export function unreadFile(rel: string, a: Analysis, exists = a.company.files.get(path.join(a.company.root, rel))?.rel === rel, wellFormed = isWellFormedRel(rel)): "fails to load" | "left out" | undefined {
  if (a.failedFiles.has(rel)) return "fails to load";
  if (!exists && wellFormed && a.company.inExcludedFolder(rel)) return "left out";
  return undefined;
}

function judgeBinding(b: LockBinding, rel: RelFacts, a: Analysis, report: Report): void {
  const file = a.company.lockPath;
  // Its file failed to load (syntax errors), or lies in a folder left out (not read): nothing is
  // said of its bindings, of what they are bound as either (what the file declares was only partly
  // read, or not at all).
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

/** Beyond the doc's examples: companies where the rule fires or stays silent, every problem drawn under the text (test/rules/rule-cases.test.ts). */
export const cases = (): RuleCase[] => [
  {
    name: "a binding whose object id is empty names no object: said at the id, as the lockfile's schema says in the editor; the other bindings are judged as usual",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/ok.ts
import { vm } from "@x/cloud";
export const a = vm({ name: "a" });
export const b = vm({ name: "b" });
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/ok.ts#a": { "type": "x.vm", "object": "" },
//                                                 ^^ lockfile sanoma.lock.json binds resources/ok.ts#a in another shape at \`object\`: the object id is empty
  "resources/ok.ts#b": { "type": "x.vm", "object": "o:2" },
  "resources/gone.ts#c": { "type": "x.vm", "object": "o:3" }
//^^^^^^^^^^^^^^^^^^^^^ lockfile resources/gone.ts is no file of this company
} }
//- /node_modules/@x/cloud/package.json
{ "name": "@x/cloud", "main": "index.js" }
//- /node_modules/@x/cloud/index.js
export const vm = defineResource({ vendor: "x", type: "vm", schema: z.object({ name: z.string() }) });
`,
  },
  {
    name: "a lockfile binding into a data file with syntax errors is not an orphan; into a missing file it is",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/broken.ts
export const web = vm({ name: "web" ;;;
//                                  ^ syntax-error resources/broken.ts does not parse (',' expected.): Sanoma cannot load it
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/broken.ts#web": { "type": "x.vm", "object": "x:1" },
  "resources/gone.ts#web": { "type": "x.vm", "object": "x:2" }
//^^^^^^^^^^^^^^^^^^^^^^^ lockfile is no file of this company
} }
`,
  },
  {
    name: "a binding into a data file with syntax errors shares no object: nothing is said of its bindings (A6)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/broken.ts
export const x = vm({ name: "x" ;
//                              ^ syntax-error
//- /resources/ok.ts
import { vm } from "@x/cloud";
export const a = vm({ name: "a" });
export const b = vm({ name: "b" });
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/ok.ts#a": { "type": "x.vm", "object": "o:1" },
  "resources/broken.ts#x": { "type": "x.vm", "object": "o:1" },
  "resources/ok.ts#b": { "type": "x.vm", "object": "o:2" },
//^^^^^^^^^^^^^^^^^^^ lockfile is bound 2 times
  "resources/gone.ts#c": { "type": "x.vm", "object": "o:2" }
//^^^^^^^^^^^^^^^^^^^^^ lockfile is no file of this company
//^^^^^^^^^^^^^^^^^^^^^ lockfile is bound 2 times
} }
//- /node_modules/@x/cloud/package.json
{ "name": "@x/cloud", "main": "index.js" }
//- /node_modules/@x/cloud/index.js
export const vm = defineResource({ vendor: "x", type: "vm", schema: z.object({ name: z.string() }) });
`,
  },
  {
    name: "an orphan binding's message says what is wrong with its key: not a declaration id, no such file, or no such export (A3, A6)",
    company: `
//- /sanoma.config.ts
export default { secrets: { bindings: { A: { env: "A", host: true }, B: { env: "A", host: true }, C: { env: "A", host: true } } } };
//                                      ^ secret-bindings \`A\`, \`B\` and \`C\` all give the hosts the variable A
//                                                                   ^ secret-bindings all give
//                                                                                                ^ secret-bindings all give
//- /resources/wake.ts
import { vm } from "@x/cloud";
export const a = vm({ name: "a" });
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/wake.ts#a": { "type": "x.vm", "object": "o:1" },
  "resources/wake.ts": { "type": "x.vm", "object": "o:2" },
//^^^^^^^^^^^^^^^^^^^ lockfile \`resources/wake.ts\` is no declaration id
  "/resources/wake.ts#a": { "type": "x.vm", "object": "o:3" },
//^^^^^^^^^^^^^^^^^^^^^^ lockfile \`/resources/wake.ts#a\` is no declaration id
  "resources/./wake.ts#a": { "type": "x.vm", "object": "o:4" },
//^^^^^^^^^^^^^^^^^^^^^^^ lockfile is no declaration id
  "resources\\\\wake.ts#a": { "type": "x.vm", "object": "o:5" },
//^^^^^^^^^^^^^^^^^^^^^^ lockfile is no declaration id
  "resources/wake.ts#b": { "type": "x.vm", "object": "o:6" },
//^^^^^^^^^^^^^^^^^^^^^ lockfile resources/wake.ts declares no \`b\`
  "resources/gone.ts#a": { "type": "x.vm", "object": "o:7" }
//^^^^^^^^^^^^^^^^^^^^^ lockfile resources/gone.ts is no file of this company
} }
//- /node_modules/@x/cloud/package.json
{ "name": "@x/cloud", "main": "index.js" }
//- /node_modules/@x/cloud/index.js
export const vm = defineResource({ vendor: "x", type: "vm", schema: z.object({ name: z.string() }) });
`,
  },
  {
    name: "a binding of another shape is said where it goes wrong, each of them; the other bindings are still judged (A6: at the offending place)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { vm } from "@x/cloud";
export const a = vm({ name: "a" });
export const b = vm({ name: "b" });
export const c = vm({ name: "c" });
export const d = vm({ name: "d" });
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/infra.ts#a": { "type": "x.vm", "object": "o:1" },
//^^^^^^^^^^^^^^^^^^^^^^ lockfile is bound 2 times
  "resources/infra.ts#b": { "type": 5, "object": "o:2" },
//                                  ^ lockfile binds resources/infra.ts#b in another shape at \`type\`
  "resources/infra.ts#c": { "type": "x.vm", "object": ["o:3"] },
//                                                    ^^^^^^^ lockfile in another shape at \`object\`
  "resources/infra.ts#d": "o:4",
//                        ^^^^^ lockfile in another shape
  "resources/infra.ts#e": { "type": "x.vm", "object": "o:1" }
//^^^^^^^^^^^^^^^^^^^^^^ lockfile declares no \`e\`
//^^^^^^^^^^^^^^^^^^^^^^ lockfile is bound 2 times
} }
//- /node_modules/@x/cloud/package.json
{ "name": "@x/cloud", "main": "index.js" }
//- /node_modules/@x/cloud/index.js
export const vm = defineResource({ vendor: "x", type: "vm", schema: z.object({ name: z.string() }) });
`,
  },
  {
    name: "a lockfile binding into a data file with syntax errors is not judged for its type either; a type id that is not literal is unknown, not different (A6)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/broken.ts
import { box } from "@x/cloud";
export const web = box({ name: "web" });
export const oops = box({ name: "x" }
  export const after = 1;
//^^^^^^ syntax-error ',' expected
//- /resources/ok.ts
import { vm, box } from "@x/cloud";
export const api = vm({ name: "api" });
export const bin = box({ name: "bin" });
//           ^^^ lockfile bound as x.vm
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/broken.ts#web": { "type": "x.bucket", "object": "o:1" },
  "resources/ok.ts#api": { "type": "x.vm", "object": "o:2" },
  "resources/ok.ts#bin": { "type": "x.vm", "object": "o:3" }
//^^^^^^^^^^^^^^^^^^^^^ lockfile bound as x.vm
} }
//- /node_modules/@x/cloud/package.json
{ "name": "@x/cloud", "main": "index.js" }
//- /node_modules/@x/cloud/index.js
const VENDOR = "x";
export const vm = defineResource({ vendor: VENDOR, type: "vm", schema: z.object({ name: z.string() }) });
export const box = defineResource({ vendor: "x", type: "box", schema: z.object({ name: z.string() }) });
`,
  },
  {
    name: "in a lockfile written one field a line, every binding problem is at the binding's key; a key written twice is said and hides no other problem (A6, B1)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { vm, box } from "@x/cloud";
export const web = vm({ name: "web" });
export const api = vm({ name: "api" });
export const bin = box({ name: "bin" });
//           ^^^ lockfile bound as x.vm
//- /sanoma.lock.json
{
  "version": 1,
  "bindings": {
    "resources/infra.ts#web": {
//  ^^^^^^^^^^^^^^^^^^^^^^^^ lockfile is bound 2 times
      "type": "x.vm",
      "object": "o:1"
    },
    "resources/infra.ts#api": {
      "type": "x.vm",
      "object": "o:2"
    },
    "resources/infra.ts#api": {
//  ^^^^^^^^^^^^^^^^^^^^^^^^ lockfile binds resources/infra.ts#api twice (first on line 8)
//  ^^^^^^^^^^^^^^^^^^^^^^^^ lockfile is bound 2 times
      "type": "x.vm",
      "object": "o:1"
    },
    "resources/infra.ts#bin": {
//  ^^^^^^^^^^^^^^^^^^^^^^^^ lockfile bound as x.vm
      "type": "x.vm",
      "object": "o:3"
    },
    "resources/infra.ts#gone": {
//  ^^^^^^^^^^^^^^^^^^^^^^^^^ lockfile declares no
      "type": "x.vm",
      "object": "o:4"
    }
  }
}
//- /node_modules/@x/cloud/package.json
{ "name": "@x/cloud", "main": "index.js" }
//- /node_modules/@x/cloud/index.js
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const vm = defineResource({ vendor: "x", type: "vm", schema: z.object({ name: z.string() }) });
export const box = defineResource({ vendor: "x", type: "box", schema: z.object({ name: z.string() }) });
`,
  },
  {
    name: "a declaration is an exported const; an exported let or var calling a resource type declares nothing, and its lock binding is an orphan (A5, A6)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { vm } from "@x/cloud";
export let web = vm({ nmae: "web" });
export var api = vm({ nmae: "api" });
export const db = vm({ nmae: "db" });
//                     ^^^^ resource-fields is not a field
//           ^^ resource-fields lacks the required field
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/infra.ts#web": { "type": "x.vm", "object": "o:1" },
//^^^^^^^^^^^^^^^^^^^^^^^^ lockfile declares no
  "resources/infra.ts#db": { "type": "x.vm", "object": "o:2" }
} }
//- /node_modules/@x/cloud/package.json
{ "name": "@x/cloud", "main": "index.js" }
//- /node_modules/@x/cloud/index.js
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const vm = defineResource({ vendor: "x", type: "vm", schema: z.object({ name: z.string() }) });
`,
  },
  {
    name: "a declaration whose connector package is not installed (a fresh clone) is a declaration of an unknown type: its binding is no orphan; one calling a helper of a file that is not there is no declaration",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { vm } from "@not/installed";
import * as cloud from "@not/installed/sub";
import { helper } from "./helpers";
export const web = vm({ name: "web" });
export const api = cloud.vm({ name: "api" });
export const gone = helper({ name: "gone" });
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/infra.ts#web": { "type": "x.vm", "object": "o:1" },
  "resources/infra.ts#api": { "type": "x.other", "object": "o:2" },
  "resources/infra.ts#gone": { "type": "x.vm", "object": "o:3" }
//^^^^^^^^^^^^^^^^^^^^^^^^^ lockfile declares no
} }
`,
  },
  {
    name: "every binding names a declaration of the company, of the type it says: nothing to say",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { vm, bucket } from "@hooli/cloud";
export const web = vm({ name: "web" });
export const files = bucket({ name: "files" });
//- /apps/maps/resources/infra.ts
import { vm } from "@hooli/cloud";
export const tiles = vm({ name: "tiles" });
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/infra.ts#web": { "type": "cloud.vm", "object": "cloud:vm/1" },
  "resources/infra.ts#files": { "type": "cloud.bucket", "object": "cloud:bucket/1" },
  "apps/maps/resources/infra.ts#tiles": { "type": "cloud.vm", "object": "cloud:vm/2" }
} }
${CLOUD_PACKAGE}`,
  },
  {
    name: "a lockfile with no bindings yet, and declarations not applied: nothing to say",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { vm } from "@hooli/cloud";
export const web = vm({ name: "web" });
//- /sanoma.lock.json
{ "version": 1, "bindings": {} }
${CLOUD_PACKAGE}`,
  },
  {
    name: "a CommonJS connector whose module.exports this reading cannot follow (a call, a computed require, a condition) declares types unknown, not absent: no binding is an orphan, no name is said to be missing (A5, A6)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import * as made from "@x/made";
import { machine } from "@x/platform";
import * as cond from "@x/cond";
import * as fn from "@x/fn";
import * as plugins from "@x/plugins";
import * as api from "@x/api";
export const a = made.machine({ name: "a", bogus: 1 });
export const b = made.machin({ name: "b" });
export const c = machine({ name: "c", bogus: 1 });
export const d = cond.machine({ name: "d" });
export const e = fn.machine({ name: "e", bogus: 1 });
//                                       ^^^^^ resource-fields
export const f = fn.machin({ name: "f" });
//                  ^^^^^^ resource-type \`@x/fn\` has no resource type \`machin\`; did you mean \`machine\`?
export const g = plugins.machine({ name: "g", bogus: 1 });
//                                            ^^^^^ resource-fields
export const h = plugins.volume({ size: 1 });
export const i = plugins.machin({ name: "i" });
export const j = api.machine({ name: "j", bogus: 1 });
//                                        ^^^^^ resource-fields
export const k = api.disk({ size: 1 });
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/infra.ts#a": { "type": "x.machine", "object": "o:1" },
  "resources/infra.ts#b": { "type": "x.machine", "object": "o:2" },
  "resources/infra.ts#c": { "type": "x.machine", "object": "o:3" },
  "resources/infra.ts#d": { "type": "x.machine", "object": "o:4" },
  "resources/infra.ts#e": { "type": "x.machine", "object": "o:5" },
  "resources/infra.ts#h": { "type": "x.volume", "object": "o:7" },
  "resources/infra.ts#i": { "type": "x.machine", "object": "o:8" },
  "resources/infra.ts#k": { "type": "x.disk", "object": "o:9" },
  "resources/infra.ts#gone": { "type": "x.machine", "object": "o:6" }
//^^^^^^^^^^^^^^^^^^^^^^^^^ lockfile declares no
} }
//- /node_modules/@x/made/package.json
{ "name": "@x/made", "main": "dist/index.js", "peerDependencies": { "@sanoma-ai/workflows": "*" } }
//- /node_modules/@x/made/dist/index.js
var __toCommonJS = (mod) => mod;
var made_exports = makeExports();
module.exports = __toCommonJS(made_exports);
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  machine
});
//- /node_modules/@x/plugins/package.json
{ "name": "@x/plugins", "main": "dist/index.js", "peerDependencies": { "@sanoma-ai/workflows": "*" } }
//- /node_modules/@x/plugins/dist/index.js
var __defProp = Object.defineProperty;
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};
var __toCommonJS = (mod) => mod;
var plugins_exports = {};
__export(plugins_exports, {
  machine: () => machine
});
__addPlugins(plugins_exports, loadPlugins());
module.exports = __toCommonJS(plugins_exports);
var import_workflows = require("@sanoma-ai/workflows");
const machine = (0, import_workflows.defineResource)({ vendor: "x", type: "machine", schema: z.object({ name: z.string() }) });
0 && (module.exports = {
  machine,
  volume
});
//- /node_modules/@x/api/package.json
{ "name": "@x/api", "main": "index.js", "peerDependencies": { "@sanoma-ai/workflows": "*" } }
//- /node_modules/@x/api/index.js
const { defineResource } = require("@sanoma-ai/workflows");
const api = {};
api.machine = defineResource({ vendor: "x", type: "machine", schema: z.object({ name: z.string() }) });
Object.assign(api, require("./" + process.env.X_DRIVER));
module.exports = api;
//- /node_modules/@x/platform/package.json
{ "name": "@x/platform", "main": "index.js", "peerDependencies": { "@sanoma-ai/workflows": "*" } }
//- /node_modules/@x/platform/index.js
module.exports = require("./lib/" + process.platform + ".js");
//- /node_modules/@x/platform/lib/linux.js
exports.machine = require("@sanoma-ai/workflows").defineResource({ vendor: "x", type: "machine", schema: z.object({ name: z.string() }) });
//- /node_modules/@x/cond/package.json
{ "name": "@x/cond", "main": "index.js", "peerDependencies": { "@sanoma-ai/workflows": "*" } }
//- /node_modules/@x/cond/index.js
"use strict";
const impl = process.env.NODE_ENV === "production" ? require("./prod.js") : require("./dev.js");
module.exports = impl;
//- /node_modules/@x/fn/package.json
{ "name": "@x/fn", "main": "index.js", "peerDependencies": { "@sanoma-ai/workflows": "*" } }
//- /node_modules/@x/fn/index.js
const { defineResource } = require("@sanoma-ai/workflows");
const { z } = require("zod");
module.exports = function connect() {};
module.exports.machine = defineResource({ vendor: "x", type: "machine", schema: z.object({ name: z.string() }) });
`,
  },
  {
    name: "a connector whose export * names a package not installed where Node looks (a phantom dependency under pnpm) declares types unknown, in that package: no binding is an orphan, no name is said to be missing (A5, A6)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import * as x from "@x/conn";
import { hook } from "@x/conn";
export const web = x.machine({ name: "web", bogus: 1 });
//                                          ^^^^^ resource-fields
export const typo = x.machin({ name: "typo" });
export const h1 = hook({ path: "/a" });
export const h2 = x.hook({ path: "/b" });
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/infra.ts#web": { "type": "x.machine", "object": "o:1" },
  "resources/infra.ts#typo": { "type": "x.machine", "object": "o:2" },
  "resources/infra.ts#h1": { "type": "x.hook", "object": "o:3" },
  "resources/infra.ts#gone": { "type": "x.machine", "object": "o:4" }
//^^^^^^^^^^^^^^^^^^^^^^^^^ lockfile declares no
} }
//- /node_modules/@x/conn/package.json
{ "name": "@x/conn", "version": "1.0.0", "type": "module", "main": "index.js", "peerDependencies": { "@sanoma-ai/workflows": "*" } }
//- /node_modules/@x/conn/index.js
export * from "@x/base";
export { machine } from "./machine.js";
//- /node_modules/@x/conn/machine.js
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
export const machine = defineResource({ vendor: "x", type: "machine", schema: z.object({ name: z.string(), region: z.string().optional() }) });
`,
  },
];
