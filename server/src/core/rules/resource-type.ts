/** `resource-type` (SPEC A5): a declaration's callee names a module that defines resource types, but no type there. */
import { isIdentifierName, propertyName, suggestion } from "../text.ts";
import type { DeclarationFact } from "../fact-types.ts";
import type { CompanyFile } from "../model.ts";
import type { Fix, Range } from "../types.ts";
import { declarationsOf } from "../analysis.ts";
import type { Rule, RuleCase } from "./rule.ts";
import { CYCLIC_PACKAGES, FRAMEWORK_PACKAGE } from "./case-packages.ts";

export const rule: Rule = {
  id: "resource-type",
  severity: "error",
  doc: {
    summary: "A declaration calls a resource type that its connector does not define.",
    why: "A declaration's callee is looked up in the connector it is imported from. When the connector defines resource types but none by that name, apply cannot create the resource: usually a typo, or a type that a newer version of the connector added.",
    wrong: `
//- /sanoma.config.ts
export default {};
//- /resources/events.ts
import { cloud } from "@hooli/cloud";
export const two = cloud.vmm({ name: "two" });
//                       ^^^ resource-type
//- /node_modules/@hooli/cloud/package.json
{ "name": "@hooli/cloud", "main": "index.js" }
//- /node_modules/@hooli/cloud/index.js
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
const vm = defineResource({ vendor: "cloud", type: "vm", title: "VM", schema: z.object({ name: z.string() }), fields: {}, writable: true });
export const cloud = { vm };
`,
    right: `
//- /sanoma.config.ts
export default {};
//- /resources/events.ts
import { cloud } from "@hooli/cloud";
export const two = cloud.vm({ name: "two" });
//- /node_modules/@hooli/cloud/package.json
{ "name": "@hooli/cloud", "main": "index.js" }
//- /node_modules/@hooli/cloud/index.js
import { defineResource } from "@sanoma-ai/workflows";
import { z } from "zod";
const vm = defineResource({ vendor: "cloud", type: "vm", title: "VM", schema: z.object({ name: z.string() }), fields: {}, writable: true });
export const cloud = { vm };
`,
  },
  checkFileIn(file, a, report) {
    for (const d of declarationsOf(a, file)) {
      const r = d.resolution;
      if (r.kind !== "missing") continue;
      const fix = suggestion(r.name, r.available);
      const s = fix ? fix.replace(/^; did you mean `(.*)`\?$/, "$1") : undefined;
      const range = d.fact.callee.memberRange ?? d.fact.callee.range;
      report({
        file: d.file.path, range,
        message: `\`${r.module}\` has no resource type \`${r.name}\`${fix || (r.available.length ? `; it defines ${r.available.map((t) => `\`${t}\``).join(", ")}` : "")}`,
        fixes: s ? [fixOf(d.file, d.fact, r.name, s, range)] : undefined,
      });
    }
  },
};

/**
 * The did-you-mean fix, certain only where the code stays right. A member (`cloud.vmm`, `ns["vmm"]`)
 * is changed where it is written. A name imported by name (`import { vmm }`) is changed in the
 * import, the local name kept (`{ vm as vmm }`, `{ vmm as machine }` → `{ vm as machine }`), so
 * every use of it stays right; changing the call alone would call a name nothing binds. Anything
 * else (a default import, a `require`, a member that is no identifier) is offered, not preferred.
 */
function fixOf(file: CompanyFile, fact: DeclarationFact, name: string, s: string, range: Range): Fix {
  const title = `Change to \`${s}\``;
  const { member, memberQuoted, base } = fact.callee;
  if (member !== undefined) {
    if (memberQuoted) return { title, preferred: true, edits: [{ file: file.path, range, newText: JSON.stringify(s) }] };
    return { title, preferred: isIdentifierName(s), edits: [{ file: file.path, range, newText: s }] };
  }
  const binding = file.facts?.bindings.get(base);
  if (binding?.element && binding.imported === name && !binding.typeOnly) {
    return { title, preferred: true, edits: [{ file: file.path, range: binding.element, newText: `${propertyName(s)} as ${base}` }] };
  }
  return { title, preferred: false, edits: [{ file: file.path, range, newText: s }] };
}

/** Beyond the doc's examples: companies where the rule fires or stays silent, every problem drawn under the text (test/rules/rule-cases.test.ts). */
export const cases = (): RuleCase[] => [
  {
    name: "what is not a declaration says nothing — helpers, framework calls, unreadable modules, more than 8 hops",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { helper } from "./helpers";
import { far } from "@x/far";
import { gone } from "@x/not-installed";
import { secret } from "@sanoma-ai/workflows/resources";
export const a = helper({ anything: 1 });
export const b = gone({ anything: 1 });
export const c = far({ anything: 1 });
export const d = secret("NOPE");
//                      ^^^^^^ secret-bindings
const local = helper({ x: 1 });
export const e = local;
//- /resources/helpers.ts
export const helper = (x: unknown) => x;
//- /node_modules/@x/far/package.json
{ "name": "@x/far", "main": "h1.js" }
//- /node_modules/@x/far/h1.js
export * from "./h2.js";
//- /node_modules/@x/far/h2.js
export * from "./h3.js";
//- /node_modules/@x/far/h3.js
export * from "./h4.js";
//- /node_modules/@x/far/h4.js
export * from "./h5.js";
//- /node_modules/@x/far/h5.js
export * from "./h6.js";
//- /node_modules/@x/far/h6.js
export * from "./h7.js";
//- /node_modules/@x/far/h7.js
export * from "./h8.js";
//- /node_modules/@x/far/h8.js
export * from "./h9.js";
//- /node_modules/@x/far/h9.js
export * from "./h10.js";
//- /node_modules/@x/far/h10.js
import { defineResource } from "@sanoma-ai/workflows";
export const far = defineResource({ vendor: "x", type: "far", title: "Far", schema: z.object({ name: z.string() }), fields: {}, writable: true });
${FRAMEWORK_PACKAGE}`,
  },
  {
    name: "a member or export this reading cannot see (a spread, an export * of a module that cannot be read) is unknown, not missing (A5)",
    company: `
//- /sanoma.config.ts
export default { secrets: { bindings: { KEY: { env: "KEY" } } } };
//- /resources/infra.ts
import { fly } from "../conn/index";
import { secret, vm } from "../lib/sanoma";
export const a = fly.vm({ name: "a" });
export const b = fly.machine({ name: "b", bogus: 1 });
//                                        ^^^^^ resource-fields
export const c = fly.nope({ name: "c" });
//                   ^^^^ resource-type
export const key = secret("KEY");
export const web = vm({ name: "web" });
//- /lib/sanoma.ts
export * from "@sanoma-ai/workflows/resources";
export * from "../conn/compute";
//- /conn/index.ts
import * as compute from "./compute";
import { machine } from "./machine";
export const fly = { ...compute, machine };
export const other = { machine };
//- /conn/compute.ts
export const vm = defineResource({ vendor: "fly", type: "vm", schema: z.object({ name: z.string() }) });
//- /conn/machine.ts
export const machine = defineResource({ vendor: "fly", type: "machine", schema: z.object({ name: z.string() }) });
//- /resources/more.ts
import { other } from "../conn/index";
export const d = other.vm({ name: "d" });
//                     ^^ resource-type
`,
  },
  {
    name: "a type reached through members of members, a bracketed member or a parenthesized callee is a type (A4: a namespace import and a member, an object whose property is a type)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import * as conn from "../conn/index";
import { fly, machine } from "../conn/index";
export const a = conn.fly.machine({ name: "a", bogus: 1 });
//                                             ^^^^^ resource-fields
export const b = fly["machine"]({ name: "b", bogus: 1 });
//                                           ^^^^^ resource-fields
export const c = (machine)({ name: "c", bogus: 1 });
//                                      ^^^^^ resource-fields
export const d = (conn.fly as any).machine({ name: "d", bogus: 1 });
//                                                      ^^^^^ resource-fields
export const e = conn.fly.nope({ name: "e" });
//                        ^^^^ resource-type
export const f = conn.helpers.format({ name: "f" });
export const g = conn.fly.machine.name({});
//- /conn/index.ts
import { machine } from "./machine";
export { machine };
export const fly = { machine };
export const helpers = { format: (x: unknown) => x };
//- /conn/machine.ts
export const machine = defineResource({ vendor: "fly", type: "machine", schema: z.object({ name: z.string() }) });
`,
  },
  {
    name: "a module with syntax errors, or a package whose package.json is not JSON, is not said to lack a type (A5)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { cc } from "../conn/broken";
import { vm } from "bad-pj";
export const x = cc({ name: "x" });
export const y = vm({ name: "y" });
//- /conn/broken.ts
export const aa = defineResource({ vendor: "c", type: "aa", schema: z.object({}) });
export const bb = defineResource({ vendor: "c", type: "bb", schema: z.object({} );
//- /node_modules/bad-pj/package.json
{ "name": "bad-pj", "main": "lib.js", }
//- /node_modules/bad-pj/index.js
export const other = defineResource({ vendor: "b", type: "other", schema: z.object({}) });
`,
  },
  {
    name: "a name no module of a cycle of export * exports is missing, and every type the cycle gives is listed (A4, A5)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { nothing, vm } from "@acme/conn";
import { zip, queue } from "mesh0";
import * as m1 from "mesh1";
export const a = nothing({ path: "/a" });
//               ^^^^^^^ resource-type \`@acme/conn\` has no resource type \`nothing\`; it defines \`trigger\`, \`vm\`
export const b = zip({ name: "b" });
//               ^^^ resource-type \`mesh0\` has no resource type \`zip\`; it defines \`hook\`, \`queue\`, \`store\`
export const c = m1.nope({ name: "c" });
//                  ^^^^ resource-type \`mesh1\` has no resource type \`nope\`; it defines \`store\`, \`queue\`, \`hook\`
export const d = vm({ name: "d" });
export const e = queue({ name: "e" });
export const f = m1.hook({ path: "/f" });
${CYCLIC_PACKAGES}`,
  },
  {
    name: "connector packages compiled to CommonJS by esbuild (tsup's default; minified too), SWC and Babel are read as tsc's: their export getters, named re-exports and export * (A4)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import * as esb from "@x/esb";
import { machine, volume, queue } from "@x/swc";
import * as babel from "@x/babel";
export const a = esb.machine({ name: "a", bogus: 1 });
//                                        ^^^^^ resource-fields
export const b = esb.volume({ size: 1, nope: 2 });
//           ^ lockfile bound as esb.machine but declared as esb.volume
//                                     ^^^^ resource-fields
export const c = esb.queue({ name: "c", nope: 2 });
//                                      ^^^^ resource-fields
export const d = esb.machin({ name: "d" });
//                   ^^^^^^ resource-type \`@x/esb\` has no resource type \`machin\`; did you mean \`machine\`?
export const e = machine({ name: "e", bogus: 1 });
//                                    ^^^^^ resource-fields
export const f = volume({ size: 1, nope: 2 });
//                                 ^^^^ resource-fields
export const g = queue({ name: "g", nope: 2 });
//                                  ^^^^ resource-fields
export const h = babel.machine({ name: "h", bogus: 1 });
//                                          ^^^^^ resource-fields
export const i = babel.volume({ size: 1, nope: 2 });
//                                       ^^^^ resource-fields
export const j = babel.queue({ name: "j", nope: 2 });
//                                        ^^^^ resource-fields
export const k = babel.queues({ name: "k" });
//                     ^^^^^^ resource-type
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/infra.ts#a": { "type": "esb.machine", "object": "o:1" },
  "resources/infra.ts#b": { "type": "esb.machine", "object": "o:2" },
//^^^^^^^^^^^^^^^^^^^^^^ lockfile bound as esb.machine but declared as esb.volume
  "resources/infra.ts#g": { "type": "swc.queue", "object": "o:3" },
  "resources/infra.ts#j": { "type": "babel.queue", "object": "o:4" }
} }
//- /node_modules/@x/esb/package.json
{ "name": "@x/esb", "main": "./dist/index.js", "exports": { ".": { "types": "./dist/index.d.ts", "require": "./dist/index.js" } } }
//- /node_modules/@x/esb/dist/index.js
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __hasOwnProp = Object.prototype.hasOwnProperty;
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};
var __copyProps = (to, from, except, desc) => {
  if (from && typeof from === "object" || typeof from === "function") {
    for (let key of __getOwnPropNames(from))
      if (!__hasOwnProp.call(to, key) && key !== except)
        __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
  }
  return to;
};
var __reExport = (target, mod, secondTarget) => (__copyProps(target, mod, "default"), secondTarget && __copyProps(secondTarget, mod, "default"));
var __toCommonJS = (mod) => __copyProps(__defProp({}, "__esModule", { value: true }), mod);
var stdin_exports = {};
__export(stdin_exports, {
  machine: () => machine,
  volume: () => import_volume.volume
});
module.exports = __toCommonJS(stdin_exports);
var import_workflows = require("@sanoma-ai/workflows");
var import_zod = require("zod");
var import_volume = require("./volume");
__reExport(stdin_exports, require("./more"), module.exports);
const machine = (0, import_workflows.defineResource)({ vendor: "esb", type: "machine", schema: import_zod.z.object({ name: import_zod.z.string() }) });
// Annotate the CommonJS export names for ESM import in node:
0 && (module.exports = {
  machine,
  volume,
  ...require("./more")
});
//- /node_modules/@x/esb/dist/volume.js
var t=Object.defineProperty;var c=Object.getOwnPropertyDescriptor;var p=Object.getOwnPropertyNames;var u=Object.prototype.hasOwnProperty;var b=(o,e)=>{for(var r in e)t(o,r,{get:e[r],enumerable:!0})},f=(o,e,r,n)=>{if(e&&typeof e=="object"||typeof e=="function")for(let m of p(e))!u.call(o,m)&&m!==r&&t(o,m,{get:()=>e[m],enumerable:!(n=c(e,m))||n.enumerable});return o};var v=o=>f(t({},"__esModule",{value:!0}),o);var l={};b(l,{volume:()=>d});module.exports=v(l);var s=require("@sanoma-ai/workflows"),i=require("zod");const d=(0,s.defineResource)({vendor:"esb",type:"volume",schema:i.z.object({size:i.z.number()})});0&&(module.exports={volume});
//- /node_modules/@x/esb/dist/more.js
var t=Object.defineProperty;var u=Object.getOwnPropertyDescriptor;var c=Object.getOwnPropertyNames;var p=Object.prototype.hasOwnProperty;var f=(o,e)=>{for(var m in e)t(o,m,{get:e[m],enumerable:!0})},a=(o,e,m,i)=>{if(e&&typeof e=="object"||typeof e=="function")for(let r of c(e))!p.call(o,r)&&r!==m&&t(o,r,{get:()=>e[r],enumerable:!(i=u(e,r))||i.enumerable});return o};var b=o=>a(t({},"__esModule",{value:!0}),o);var q={};f(q,{queue:()=>d});module.exports=b(q);var s=require("@sanoma-ai/workflows"),n=require("zod");const d=(0,s.defineResource)({vendor:"esb",type:"queue",schema:n.z.object({name:n.z.string()})});0&&(module.exports={queue});
//- /node_modules/@x/swc/package.json
{ "name": "@x/swc", "main": "dist/index.js" }
//- /node_modules/@x/swc/dist/index.js
"use strict";
Object.defineProperty(exports, "__esModule", {
    value: true
});
function _export(target, all) {
    for(var name in all)Object.defineProperty(target, name, {
        enumerable: true,
        get: Object.getOwnPropertyDescriptor(all, name).get
    });
}
_export(exports, {
    get machine () {
        return machine;
    },
    get volume () {
        return _volume.volume;
    }
});
const _workflows = require("@sanoma-ai/workflows");
const _zod = require("zod");
const _volume = require("./volume");
_export_star(require("./more"), exports);
function _export_star(from, to) {
    Object.keys(from).forEach(function(k) {
        if (k !== "default" && !Object.prototype.hasOwnProperty.call(to, k)) {
            Object.defineProperty(to, k, {
                enumerable: true,
                get: function() {
                    return from[k];
                }
            });
        }
    });
    return from;
}
const machine = (0, _workflows.defineResource)({ vendor: "swc", type: "machine", schema: _zod.z.object({ name: _zod.z.string() }) });
//- /node_modules/@x/swc/dist/volume.js
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
function _export(target, all) {
    for(var name in all)Object.defineProperty(target, name, { enumerable: true, get: all[name] });
}
_export(exports, {
    volume: function() { return volume; },
    helper: function() { return helper; }
});
const _workflows = require("@sanoma-ai/workflows");
const _zod = require("zod");
const volume = (0, _workflows.defineResource)({ vendor: "swc", type: "volume", schema: _zod.z.object({ size: _zod.z.number() }) });
const helper = (x) => x;
//- /node_modules/@x/swc/dist/more.js
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
Object.defineProperty(exports, "queue", { enumerable: true, get: function() { return queue; } });
const _workflows = require("@sanoma-ai/workflows");
const _zod = require("zod");
const queue = (0, _workflows.defineResource)({ vendor: "swc", type: "queue", schema: _zod.z.object({ name: _zod.z.string() }) });
//- /node_modules/@x/babel/package.json
{ "name": "@x/babel", "main": "dist/index.js" }
//- /node_modules/@x/babel/dist/index.js
"use strict";
Object.defineProperty(exports, "__esModule", {
  value: true
});
var _exportNames = {
  machine: true,
  volume: true
};
exports.machine = void 0;
Object.defineProperty(exports, "volume", {
  enumerable: true,
  get: function () {
    return _volume.volume;
  }
});
var _workflows = require("@sanoma-ai/workflows");
var _zod = require("zod");
var _volume = require("./volume");
var _more = require("./more");
Object.keys(_more).forEach(function (key) {
  if (key === "default" || key === "__esModule") return;
  if (Object.prototype.hasOwnProperty.call(_exportNames, key)) return;
  if (key in exports && exports[key] === _more[key]) return;
  Object.defineProperty(exports, key, {
    enumerable: true,
    get: function () {
      return _more[key];
    }
  });
});
const machine = exports.machine = (0, _workflows.defineResource)({ vendor: "babel", type: "machine", schema: _zod.z.object({ name: _zod.z.string() }) });
//- /node_modules/@x/babel/dist/volume.js
"use strict";
Object.defineProperty(exports, "__esModule", {
  value: true
});
exports.volume = void 0;
var _workflows = require("@sanoma-ai/workflows");
var _zod = require("zod");
const volume = exports.volume = (0, _workflows.defineResource)({ vendor: "babel", type: "volume", schema: _zod.z.object({ size: _zod.z.number() }) });
//- /node_modules/@x/babel/dist/more.js
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.queue = void 0;
var _workflows = require("@sanoma-ai/workflows");
var _zod = require("zod");
const queue = (0, _workflows.defineResource)({ vendor: "babel", type: "queue", schema: _zod.z.object({ name: _zod.z.string() }) });
exports.queue = queue;
${FRAMEWORK_PACKAGE}`,
  },
  {
    name: "a CommonJS connector whose modules import each other by namespace or by default, through the helper its compiler wraps require in (tsc's __importStar and __importDefault, esbuild's __toESM, Babel's interop), is followed (A4)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { volume as ev, disk as ed } from "@x/esb";
import { volume as tv, disk as td } from "@x/tsc";
import { volume as bv, disk as bd } from "@x/babel";
export const a = ev({ size: 1, nope: 2 });
//                             ^^^^ resource-fields
export const b = ed({ size: 1, nope: 2 });
//                             ^^^^ resource-fields
export const c = tv({ size: 1, nope: 2 });
//                             ^^^^ resource-fields
export const d = td({ size: 1, nope: 2 });
//                             ^^^^ resource-fields
export const e = bv({ size: 1, nope: 2 });
//                             ^^^^ resource-fields
export const f = bd({ size: 1, nope: 2 });
//                             ^^^^ resource-fields
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/infra.ts#a": { "type": "esb.volume", "object": "o:1" },
  "resources/infra.ts#b": { "type": "esb.disk", "object": "o:2" },
  "resources/infra.ts#d": { "type": "tsc.disk", "object": "o:3" },
  "resources/infra.ts#f": { "type": "babel.disk", "object": "o:4" }
} }
//- /node_modules/@x/esb/package.json
{ "name": "@x/esb", "main": "dist/index.js" }
//- /node_modules/@x/esb/dist/index.js
var v=Object.create;var s=Object.defineProperty;var c=Object.getOwnPropertyDescriptor;var f=Object.getOwnPropertyNames;var k=Object.getPrototypeOf,l=Object.prototype.hasOwnProperty;var n=(o,m)=>{for(var r in m)s(o,r,{get:m[r],enumerable:!0})},i=(o,m,r,e)=>{if(m&&typeof m=="object"||typeof m=="function")for(let t of f(m))!l.call(o,t)&&t!==r&&s(o,t,{get:()=>m[t],enumerable:!(e=c(m,t))||e.enumerable});return o};var p=(o,m,r)=>(r=o!=null?v(k(o)):{},i(m||!o||!o.__esModule?s(r,"default",{value:o,enumerable:!0}):r,o)),u=o=>i(s({},"__esModule",{value:!0}),o);var g={};n(g,{disk:()=>b,volume:()=>a});module.exports=u(g);var x=p(require("./volume")),d=p(require("./disk"));const a=x.volume,b=d.default.disk;0&&(module.exports={disk,volume});
//- /node_modules/@x/esb/dist/volume.js
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const workflows_1 = require("@sanoma-ai/workflows");
exports.volume = (0, workflows_1.defineResource)({ vendor: "esb", type: "volume", schema: z.object({ size: z.number() }) });
//- /node_modules/@x/esb/dist/disk.js
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const workflows_1 = require("@sanoma-ai/workflows");
exports.default = { disk: (0, workflows_1.defineResource)({ vendor: "esb", type: "disk", schema: z.object({ size: z.number() }) }) };
//- /node_modules/@x/tsc/package.json
{ "name": "@x/tsc", "main": "dist/index.js" }
//- /node_modules/@x/tsc/dist/index.js
"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.disk = exports.volume = void 0;
const v = __importStar(require("./volume"));
const disk_1 = __importDefault(require("./disk"));
exports.volume = v.volume;
exports.disk = disk_1.default.disk;

//- /node_modules/@x/tsc/dist/volume.js
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const workflows_1 = require("@sanoma-ai/workflows");
exports.volume = (0, workflows_1.defineResource)({ vendor: "tsc", type: "volume", schema: z.object({ size: z.number() }) });
//- /node_modules/@x/tsc/dist/disk.js
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const workflows_1 = require("@sanoma-ai/workflows");
exports.default = { disk: (0, workflows_1.defineResource)({ vendor: "tsc", type: "disk", schema: z.object({ size: z.number() }) }) };
//- /node_modules/@x/babel/package.json
{ "name": "@x/babel", "main": "dist/index.js" }
//- /node_modules/@x/babel/dist/index.js
"use strict";
Object.defineProperty(exports, "__esModule", {
  value: true
});
exports.volume = exports.disk = void 0;
var v = _interopRequireWildcard(require("./volume"));
var _disk = _interopRequireDefault(require("./disk"));
function _interopRequireDefault(e) { return e && e.__esModule ? e : { default: e }; }
var cache;
function _interopRequireWildcard(e, t) { if (!t && e && e.__esModule) return e; var r, c, a = Object.defineProperty, n = { __proto__: null, default: e }; if (Object(e) !== e) return n; if (cache || "function" != typeof WeakMap || (cache = new WeakMap()), cache) { if (cache.has(e)) return cache.get(e); cache.set(e, n); } for (c in e) "default" !== c && {}.hasOwnProperty.call(e, c) && ((r = a && Object.getOwnPropertyDescriptor(e, c)) && (r.get || r.set) ? a(n, c, r) : n[c] = e[c]); return n; }
const volume = exports.volume = v.volume;
const disk = exports.disk = _disk.default.disk;
//- /node_modules/@x/babel/dist/volume.js
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const workflows_1 = require("@sanoma-ai/workflows");
exports.volume = (0, workflows_1.defineResource)({ vendor: "babel", type: "volume", schema: z.object({ size: z.number() }) });
//- /node_modules/@x/babel/dist/disk.js
"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const workflows_1 = require("@sanoma-ai/workflows");
exports.default = { disk: (0, workflows_1.defineResource)({ vendor: "babel", type: "disk", schema: z.object({ size: z.number() }) }) };
`,
  },
  {
    name: "a CommonJS connector that fills its exports with Object.assign(exports, { … }) or Object.assign(module.exports, …) is read as module.exports = { … } is: names, members and requires given, a require's exports, and a call's unknown (A4, A5)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { machine, volume, queue, nope } from "@x/assign";
import * as mod from "@x/assign-mod";
import * as made from "@x/assign-made";
export const a = machine({ name: "a", bogus: 1 });
//                                    ^^^^^ resource-fields
export const b = volume({ size: 1, nope: 2 });
//                                 ^^^^ resource-fields
export const c = queue({ name: "c", bogus: 1 });
//                                  ^^^^^ resource-fields
export const d = nope({ name: "d" });
//               ^^^^ resource-type \`@x/assign\` has no resource type \`nope\`; it defines \`machine\`, \`queue\`, \`volume\`
export const e = mod.disk({ size: 1, nope: 2 });
//                                   ^^^^ resource-fields
export const f = mod.extra({ name: "f", bogus: 1 });
//                                      ^^^^^ resource-fields
export const g = mod.disc({ size: 1 });
//                   ^^^^ resource-type
export const h = made.machine({ name: "h", bogus: 1 });
//                                         ^^^^^ resource-fields
export const i = made.other({ anything: 1 });
//- /node_modules/@x/assign/package.json
{ "name": "@x/assign", "main": "index.js", "peerDependencies": { "@sanoma-ai/workflows": "*" } }
//- /node_modules/@x/assign/index.js
"use strict";
const { defineResource } = require("@sanoma-ai/workflows");
const compute = require("./compute");
const queue = defineResource({ vendor: "x", type: "queue", schema: z.object({ name: z.string() }) });
Object.assign(exports, { machine: compute.machine, volume: require("./volume"), queue });
//- /node_modules/@x/assign/compute.js
const { defineResource } = require("@sanoma-ai/workflows");
exports.machine = defineResource({ vendor: "x", type: "machine", schema: z.object({ name: z.string() }) });
//- /node_modules/@x/assign/volume.js
const { defineResource } = require("@sanoma-ai/workflows");
module.exports = defineResource({ vendor: "x", type: "volume", schema: z.object({ size: z.number() }) });
//- /node_modules/@x/assign-mod/package.json
{ "name": "@x/assign-mod", "main": "index.js", "peerDependencies": { "@sanoma-ai/workflows": "*" } }
//- /node_modules/@x/assign-mod/index.js
const { defineResource } = require("@sanoma-ai/workflows");
const extra = defineResource({ vendor: "x", type: "extra", schema: z.object({ name: z.string() }) });
Object.assign(module.exports, require("./disk"), { extra });
//- /node_modules/@x/assign-mod/disk.js
const { defineResource } = require("@sanoma-ai/workflows");
exports.disk = defineResource({ vendor: "x", type: "disk", schema: z.object({ size: z.number() }) });
//- /node_modules/@x/assign-made/package.json
{ "name": "@x/assign-made", "main": "index.js", "peerDependencies": { "@sanoma-ai/workflows": "*" } }
//- /node_modules/@x/assign-made/index.js
const { defineResource } = require("@sanoma-ai/workflows");
const machine = defineResource({ vendor: "x", type: "machine", schema: z.object({ name: z.string() }) });
Object.assign(exports, { machine }, makeMore());
${FRAMEWORK_PACKAGE}`,
  },
  {
    name: "TypeScript's export = in a connector is read as module.exports = is: an object literal's names, a namespace or an object named (or filled), and a call or a value declared only (a .d.ts) unknown (A4, A5)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import * as lit from "../conn/literal";
import * as ns from "../conn/ns";
import * as api from "../conn/api";
import * as made from "../conn/made";
import * as typed from "@x/typed";
import * as filled from "../conn/filled";
export const a = lit.machine({ name: "a", bogus: 1 });
//                                        ^^^^^ resource-fields
export const b = lit.machin({ name: "b" });
//                   ^^^^^^ resource-type
export const c = ns.machine({ name: "c", bogus: 1 });
//                                       ^^^^^ resource-fields
export const d = api.machine({ name: "d", bogus: 1 });
//                                        ^^^^^ resource-fields
export const e = api.nope({ name: "e" });
//                   ^^^^ resource-type
export const f = made.machine({ name: "f", bogus: 1 });
export const g = typed.machine({ name: "g", bogus: 1 });
export const h = filled.machine({ name: "h", bogus: 1 });
//                                           ^^^^^ resource-fields
//- /sanoma.lock.json
{ "version": 1, "bindings": {
  "resources/infra.ts#f": { "type": "x.machine", "object": "o:1" },
  "resources/infra.ts#g": { "type": "x.machine", "object": "o:2" }
} }
//- /conn/machine.ts
import { defineResource } from "@sanoma-ai/workflows";
export const machine = defineResource({ vendor: "x", type: "machine", schema: z.object({ name: z.string() }) });
//- /conn/literal.ts
import { machine } from "./machine";
export = { machine };
//- /conn/ns.ts
import * as compute from "./machine";
export = compute;
//- /conn/api.ts
import { machine } from "./machine";
const api = { machine };
export = api;
//- /conn/filled.ts
import { machine } from "./machine";
const api: any = {};
api.machine = machine;
export = api;
//- /conn/made.ts
import { defineResource } from "@sanoma-ai/workflows";
export = makeConnector(defineResource);
//- /node_modules/@x/typed/package.json
{ "name": "@x/typed", "main": "index.d.ts", "peerDependencies": { "@sanoma-ai/workflows": "*" } }
//- /node_modules/@x/typed/index.d.ts
declare const connector: { machine: unknown };
export = connector;
${FRAMEWORK_PACKAGE}`,
  },
  {
    name: "require cycles in a CommonJS connector are cut where they come back round (Node gives the exports filled so far, which no reading knows): the names each module gives are read, a name only the cycle could give is unknown, and nothing runs out of stack (A4)",
    company: `
//- /sanoma.config.ts
export default {};
//- /resources/infra.ts
import { machine, volume } from "@x/assign-cycle";
import { disk, box } from "@x/spread-cycle";
import { anything } from "@x/require-cycle";
import { x } from "@x/member-cycle";
export const a = machine({ name: "a", bogus: 1 });
//                                    ^^^^^ resource-fields
export const b = volume({ size: 1, nope: 2 });
//                                 ^^^^ resource-fields
export const c = disk({ size: 1, nope: 2 });
//                               ^^^^ resource-fields
export const d = box({ name: "d", bogus: 1 });
//                                ^^^^^ resource-fields
export const e = anything({ whatever: 1 });
export const f = x({ whatever: 1 });
//- /node_modules/@x/assign-cycle/package.json
{ "name": "@x/assign-cycle", "main": "a.js", "peerDependencies": { "@sanoma-ai/workflows": "*" } }
//- /node_modules/@x/assign-cycle/a.js
const { defineResource } = require("@sanoma-ai/workflows");
const machine = defineResource({ vendor: "x", type: "machine", schema: z.object({ name: z.string() }) });
Object.assign(exports, { machine }, require("./b"));
//- /node_modules/@x/assign-cycle/b.js
const { defineResource } = require("@sanoma-ai/workflows");
const volume = defineResource({ vendor: "x", type: "volume", schema: z.object({ size: z.number() }) });
Object.assign(exports, { volume }, require("./a"));
//- /node_modules/@x/spread-cycle/package.json
{ "name": "@x/spread-cycle", "main": "index.js", "peerDependencies": { "@sanoma-ai/workflows": "*" } }
//- /node_modules/@x/spread-cycle/index.js
const { defineResource } = require("@sanoma-ai/workflows");
const box = defineResource({ vendor: "x", type: "box", schema: z.object({ name: z.string() }) });
module.exports = { ...require("./more"), box };
//- /node_modules/@x/spread-cycle/more.js
const { defineResource } = require("@sanoma-ai/workflows");
const disk = defineResource({ vendor: "x", type: "disk", schema: z.object({ size: z.number() }) });
module.exports = { ...require("./index"), disk };
//- /node_modules/@x/require-cycle/package.json
{ "name": "@x/require-cycle", "main": "index.js", "peerDependencies": { "@sanoma-ai/workflows": "*" } }
//- /node_modules/@x/require-cycle/index.js
require("@sanoma-ai/workflows");
module.exports = require("./other");
//- /node_modules/@x/require-cycle/other.js
require("@sanoma-ai/workflows");
module.exports = require("./index");
//- /node_modules/@x/member-cycle/package.json
{ "name": "@x/member-cycle", "main": "a.js", "peerDependencies": { "@sanoma-ai/workflows": "*" } }
//- /node_modules/@x/member-cycle/a.js
require("@sanoma-ai/workflows");
exports.x = require("./b").x;
//- /node_modules/@x/member-cycle/b.js
require("@sanoma-ai/workflows");
exports.x = require("./a").x;
${FRAMEWORK_PACKAGE}`,
  },
];
