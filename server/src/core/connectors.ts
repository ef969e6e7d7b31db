/**
 * Resource types through a data file's imports (SPEC A4): module resolution as Node does it
 * (relative files, `node_modules` walking up past the company root, `package.json` `exports` with
 * the conditions import, module, node, require, default and never types, else `module`, else
 * `main`), then a name followed through re-exports, `export *`, objects of types and CommonJS
 * exports, up to 8 hops, to its `defineResource({...})` call. A module farther than that is not
 * read: no chain of re-exports, however long, is followed more than 8 modules deep.
 */
import { isBuiltin } from "node:module";
import * as path from "node:path";
import { CODE_EXTENSIONS, isFrameworkModule, isInNodeModules, TS_EXTENSIONS } from "./company.ts";
import { readFacts, type FileFacts, type Ref, type ResourceSpecFact } from "./facts.ts";
import type { FileSystem, Range } from "./types.ts";

export const MAX_HOPS = 8;
const EXTENSIONS = CODE_EXTENSIONS;
const CONDITIONS = ["import", "module", "node", "require", "default"];

/** A resource type, as its `defineResource` call says. */
export interface ResourceType {
  id: string;
  vendor?: string;
  type?: string;
  spec: ResourceSpecFact;
  /** The file that holds the `defineResource` call. */
  file: string;
  contracts: Contract[];
}

export type Contract = "host" | "database" | "wakeup" | "sandbox" | "source";

export type Resolution =
  | { kind: "type"; type: ResourceType }
  /** A module that defines resource types, but not this name: the `resource-type` problem. */
  | { kind: "missing"; name: string; module: string; available: string[] }
  /**
   * A package that is not installed (a fresh clone before `npm install`): a declaration of a type
   * unknown until it is. Its lock binding is no orphan: the declaration is there. `module` is the
   * package not installed: the data file's import, or one its connector re-exports (`export *
   * from "@x/base"` where Node finds no `@x/base`). `why`: what was found instead, when the
   * answer is not simply "nothing" (`Unfound`).
   */
  | { kind: "unresolved"; module: string; why?: Unfound }
  /**
   * A module this reading cannot see into as far as this name (a CommonJS `module.exports` it
   * cannot follow, an `export *` of a module that cannot be read, syntax errors): a declaration of
   * an unknown type, as for a package not installed, never "no such export". `module` is the
   * data file's import.
   */
  | { kind: "unknown"; module: string }
  /** Something else (a helper, a value), a file the data file imports that is not there, a type more than 8 hops away: no declaration. */
  | { kind: "none" };

/**
 * Why a package's module was not found, beyond "not installed": its install is Yarn's Plug'n'Play
 * (packages in zip archives, no `node_modules` to read: the `.pnp.cjs` that says so), or its
 * folder is there but not the file its `package.json` names (a workspace package not built yet).
 */
export type Unfound = { kind: "plug-n-play"; file: string } | { kind: "not-built"; entry: string };

/** What a user is told of a package whose module was not found (hover, `sanoma-check`'s summary and formats). */
export function unfoundText(module: string, why: Unfound | undefined, shownPath: (file: string) => string = (file) => file): string {
  if (why?.kind === "plug-n-play") return `the package \`${module}\` is installed by Yarn Plug'n'Play (${shownPath(why.file)}), whose packages cannot be read here: set \`nodeLinker: node-modules\` in .yarnrc.yml`;
  if (why?.kind === "not-built") return `the package \`${module}\` is there, but not its entry \`${why.entry}\` (build it first)`;
  return `the package \`${module}\` is not installed (install the company's packages first)`;
}

/** Facts of files by path, provided by whoever owns them (the index for company files, else the disk). */
export type FactsSource = (file: string) => FileFacts | undefined;

export function contractsOf(spec: ResourceSpecFact, hostSourceIds: ReadonlySet<string>, id: string): Contract[] {
  const out: Contract[] = [];
  for (const c of ["host", "database", "wakeup", "sandbox"] as const) if (spec[c] && spec[c]!.value !== false) out.push(c);
  if (hostSourceIds.has(id)) out.push("source");
  return out;
}

/**
 * What a name holds, as far as resolution can tell. `hops` is how many module-to-module steps
 * (an import, a re-export) lie between the module asking and the `defineResource` call: the answer
 * does not depend on the order in which names were asked, so it can be cached.
 */
type ModuleValue =
  | { kind: "type"; type: ResourceType; hops: number }
  /**
   * `open`: it may hold members not in `members` (a spread, an `export *` of a module that cannot
   * be read, a CommonJS `module.exports` that cannot be followed): none is said to be missing, each
   * is what `open` says (unknown, or in a package not installed; `other` where only the framework's
   * or Node's own modules were not read, which define no resource types).
   */
  | { kind: "object"; members: Map<string, () => ModuleValue>; definesTypes: () => boolean; open?: Open }
  | Unknown
  | Other;

/**
 * What cannot be read: a declaration calling it is of an unknown type. `notInstalled`: because that
 * package is not installed, and `why` what was found of it instead, if anything (`Unfound`).
 * `hops`: the steps between the module asking and the module that cannot be read (a package not
 * installed: one step beyond the module importing it), the fewest a type in it could lie: past
 * MAX_HOPS it is no more known than a type would be there (A4). `nearer`: an unknown fewer steps
 * away, what the value is where this one is out of reach (`moreOpen`, `withinReach`).
 */
type Unknown = { kind: "unknown"; hops: number; notInstalled?: string; why?: Unfound; nearer?: Unknown };
type Other = { kind: "other" };
type Open = Unknown | Other;

/**
 * What an object or module with two reasons to be open holds where it lists nothing: unknown over
 * other, the first unknown kept; of the second (and the nearer ones it keeps), those nearer than
 * every one the first keeps, as what holds where the first is out of reach.
 */
function moreOpen(a: Open | undefined, b: Open | undefined): Open | undefined {
  if (a?.kind !== "unknown") return b ?? a;
  if (b?.kind !== "unknown") return a;
  const kept = chainOf(a);
  const before = kept.length;
  for (const u of chainOf(b)) if (u.hops < kept[kept.length - 1].hops) kept.push(u);
  if (kept.length === before) return a;
  // Linked anew, from the nearest back; those out of reach before a nearer one left out (they
  // only get farther): a chain holds at most MAX_HOPS + 2.
  let first = 0;
  while (first < kept.length - 1 && kept[first].hops > MAX_HOPS) first++;
  let next: Unknown | undefined;
  for (let i = kept.length - 1; i >= first; i--) next = withNearer(kept[i], next);
  return next;
}

/** An unknown and the nearer ones it keeps, farthest first. */
function chainOf(u: Unknown): Unknown[] {
  const out: Unknown[] = [];
  for (let x: Unknown | undefined = u; x; x = x.nearer) out.push(x);
  return out;
}

/** `u`, with `nearer` (or none) as the nearer one it keeps. */
function withNearer(u: Unknown, nearer: Unknown | undefined): Unknown {
  const { nearer: _, ...own } = u;
  return nearer ? { ...own, nearer } : own;
}

/** An unknown seen from `steps` modules further away (one out of reach left out before a nearer one). */
function fartherBy(u: Unknown, steps: number): Unknown {
  if (steps === 0) return u;
  if (u.nearer && u.hops + steps > MAX_HOPS) return fartherBy(u.nearer, steps);
  return withNearer({ ...u, hops: u.hops + steps }, u.nearer && fartherBy(u.nearer, steps));
}

/** What an object is open to, seen from `steps` modules further away. */
function openFartherBy(o: Open | undefined, steps: number): Open | undefined {
  return o?.kind === "unknown" ? fartherBy(o, steps) : o;
}

const OTHER: Other = { kind: "other" };
/** What cannot be read, in the module asking. */
const UNKNOWN: Unknown = { kind: "unknown", hops: 0 };
/** What cannot be read, one module beyond the module asking (a file it imports that is not there). */
const BEYOND_UNKNOWN: Unknown = { kind: "unknown", hops: 1 };
/**
 * What lies past reach: the module one step beyond a module MAX_HOPS away, which is not read (A4:
 * farther, nothing is known), held as a module that cannot be read there is. Seen from the module
 * with no reach left, so always out of reach from a data file: it only keeps a name from being
 * said missing where a module it was not looked for in lies past reach.
 */
const PAST_REACH: Unknown = { kind: "unknown", hops: 1 };
/** A bound on steps inside one file (`const a = b`, members of members): cycles end here. */
const MAX_LOCAL_STEPS = 32;

/** A value seen from one module (or `steps` modules) further away. */
function further(v: ModuleValue, steps = 1): ModuleValue {
  if (steps === 0) return v;
  if (v.kind === "type") return { ...v, hops: v.hops + steps };
  if (v.kind === "object") {
    const members = new Map<string, () => ModuleValue>();
    for (const [k, m] of v.members) members.set(k, lazy(() => further(m(), steps)));
    return { kind: "object", members, definesTypes: v.definesTypes, open: openFartherBy(v.open, steps) };
  }
  if (v.kind === "unknown") return fartherBy(v, steps);
  return v;
}

/**
 * A type reached in more than MAX_HOPS steps is not known (A4), nor is what cannot be read that
 * far away (a type there would be farther): an unknown is the nearest it keeps within reach.
 */
function withinReach(v: ModuleValue | undefined): ModuleValue | undefined {
  if (v?.kind === "type") return v.hops > MAX_HOPS ? OTHER : v;
  if (v?.kind === "unknown") {
    for (let u: Unknown | undefined = v; u; u = u.nearer) if (u.hops <= MAX_HOPS) return u;
    return OTHER;
  }
  return v;
}

/**
 * Resolves modules and their exports to resource types, with caches cleared when a file they were
 * derived from changes (`fileChanged`), or when a file appears or goes (module resolution may
 * then find another file). Reads package files through the FileSystem.
 */
export class ConnectorResolver {
  private readonly moduleCache = new Map<string, string | null>();
  /** Why a package specifier of `moduleCache` found nothing, where more is known than "not installed" (same keys). */
  private readonly unfound = new Map<string, Unfound>();
  private readonly diskFacts = new Map<string, FileFacts | null>();
  private readonly exportCache = new Map<string, ModuleValue | undefined>();
  private readonly typesOfModuleCache = new Map<string, string[]>();
  /** A module's facts and the file each of its `export *`s names (`starsOf`). */
  private readonly starsCache = new Map<string, { facts: FileFacts | undefined; targets: (string | undefined)[] }>();
  /** The modules a module reaches through `export *` within a reach (`starSteps`), by module and reach. */
  private readonly starStepsCache = new Map<string, ReadonlyMap<string, number>>();
  /** Where names lie in those modules (`starIndex`), by module and reach. */
  private readonly starIndexCache = new Map<string, { order: [string, number][]; open: number[]; byName: Map<string, number[]> }>();

  constructor(
    private readonly fs: FileSystem,
    private readonly companyFacts: FactsSource,
    /** Told when a package file joins `forgotten` (true) or leaves it (false): the workspace counts them. */
    private readonly forgetting: (file: string, forgotten: boolean) => void = () => {},
  ) {}

  /** The files whose facts the caches were derived from. */
  private readonly consulted = new Set<string>();

  /**
   * Packages resolutions went into that are links (a monorepo's workspace package, linked into
   * `node_modules` by npm, pnpm or yarn): each one's real folder, and its path as resolved. Its
   * edits are reported at its real path, which names no `node_modules`: they were never taken.
   */
  private readonly linkedPackages = new Map<string, string>();

  /**
   * Package folders resolutions went into (`node_modules/@acme/cloud`), and, for a package no
   * resolution found, where it would be found once installed (`node_modules/@acme/cloud` in each
   * folder on the way up that holds a `node_modules`): what a host that watches for itself must
   * watch so that `npm install` is seen (`watchedPackageFolders`). Kept for the resolver's life:
   * a check that no longer asks for a package would otherwise let go of a watch it needs again.
   */
  private readonly packageFolders = new Set<string>();

  /** Bumped whenever the caches are dropped: what was derived from an older generation is stale. */
  generation = 0;

  /** Forget everything derived from files. */
  invalidate(): void {
    if (this.moduleCache.size === 0 && this.exportCache.size === 0) return;
    this.generation++;
    this.moduleCache.clear();
    this.unfound.clear();
    this.packageJsons.clear();
    this.aware.clear();
    this.exportCache.clear();
    this.typesOfModuleCache.clear();
    this.starsCache.clear();
    this.starStepsCache.clear();
    this.starIndexCache.clear();
    this.consulted.clear();
  }

  /**
   * A company file's text changed (`existed` both before and after) or it appeared or went. An edit
   * to a file no resolution read (a workflow, most data files) keeps every cache.
   */
  fileChanged(file: string, existedBefore: boolean, existsNow: boolean): void {
    if (!existedBefore || !existsNow || this.consulted.has(file)) this.invalidate();
  }

  /**
   * Forget a package file read from disk (a `node_modules` file changed), or, for a folder's path,
   * every file read under it: a client reports a package replaced (`npm install`) as its folder
   * deleted and created, and the files read of the old one were kept (their types judged on).
   * `change` is the host's number for this change (increasing), kept with each file forgotten.
   */
  forgetDiskFile(file: string, change = 0): void {
    const forget = (p: string) => {
      if (this.diskFacts.delete(p)) this.addForgotten(p, change);
      const under = p.endsWith(path.sep) ? p : p + path.sep;
      for (const known of this.diskFacts.keys()) if (known.startsWith(under)) { this.diskFacts.delete(known); this.addForgotten(known, change); }
    };
    forget(file);
    // By its real path: what was read of it by the linked path (a folder above the package: all of it).
    for (const [real, spelled] of this.linkedPackages) {
      if (file === real || file.startsWith(real + path.sep)) forget(spelled + file.slice(real.length));
      else if (real.startsWith(file.endsWith(path.sep) ? file : file + path.sep)) forget(spelled);
    }
    this.invalidate();
  }

  /** Whether `file` (a real path, outside `node_modules`) is in a linked package a resolution went into, or holds one. */
  readsLinkedPackageAt(file: string): boolean {
    for (const real of this.linkedPackages.keys()) {
      if (file === real || file.startsWith(real + path.sep) || real.startsWith(file + path.sep)) return true;
    }
    return false;
  }

  facts(file: string): FileFacts | undefined {
    this.consulted.add(file);
    const own = this.companyFacts(file);
    if (own) return own;
    let f = this.diskFacts.get(file);
    if (f === undefined) {
      f = this.readDiskFacts(file);
      this.diskFacts.set(file, f);
      this.removeForgotten(file);
    }
    return f ?? undefined;
  }

  /** A package file's facts as it is now (null: not there, too big, or binary). */
  readDiskFacts(file: string): FileFacts | null {
    const text = this.fs.readFile(file);
    return text === undefined || text.length > 2_000_000 || text.includes("\u0000") ? null : readFacts(file, text);
  }

  /**
   * Package files read before and forgotten since (`forgetDiskFile`), not read again yet, each with
   * the number of the change that made it forgotten, oldest first (a file is added only when it is
   * not there): the next check would read them all in one of its steps (8 compiled bundles of
   * 1.5 MB: seconds), so a server reads them ahead of it, a file at a time between requests
   * (`readAgain`), oldest first.
   */
  private readonly forgotten = new Map<string, number>();

  private addForgotten(file: string, change: number): void {
    if (this.forgotten.has(file)) return;
    this.forgotten.set(file, change);
    this.forgetting(file, true);
  }

  private removeForgotten(file: string): boolean {
    if (!this.forgotten.delete(file)) return false;
    this.forgetting(file, false);
    return true;
  }

  /** The package files forgotten and not read again yet (see `forgotten`), with their changes' numbers, oldest first. */
  forgottenFiles(): ReadonlyMap<string, number> {
    return this.forgotten;
  }

  /**
   * Reads a forgotten package file's facts again, ahead of the check that will ask for them, unless
   * it was not forgotten or a check read it meanwhile. `read` gives them (the workspace reads a file
   * once for every company's resolver that forgot it).
   */
  readAgain(file: string, read: () => FileFacts | null): void {
    if (!this.removeForgotten(file) || this.diskFacts.has(file)) return;
    this.diskFacts.set(file, read());
  }

  /** The file a specifier names from a file, or undefined. */
  resolveModule(fromFile: string, specifier: string): string | undefined {
    const key = path.dirname(fromFile) + "\0" + specifier;
    const cached = this.moduleCache.get(key);
    if (cached !== undefined) return cached ?? undefined;
    const miss: { why?: Unfound } = {};
    const found = this.resolveUncached(path.dirname(fromFile), specifier, miss) ?? null;
    this.moduleCache.set(key, found);
    if (found === null && isPackageSpecifier(specifier)) {
      const pnp = miss.why ? undefined : this.plugNPlayAbove(path.dirname(fromFile));
      const why = miss.why ?? (pnp !== undefined ? { kind: "plug-n-play" as const, file: pnp } : undefined);
      if (why) this.unfound.set(key, why);
    }
    return found ?? undefined;
  }

  /** Why a package specifier `resolveModule` found nothing for, when more is known than "not installed". */
  private unfoundFor(fromFile: string, specifier: string): Unfound | undefined {
    return this.unfound.get(path.dirname(fromFile) + "\0" + specifier);
  }

  /**
   * `miss.why`: set when a package's folder is there but not the file its `package.json` names
   * (`Unfound` "not-built"): Node stops at such a package when it has `exports`, as here.
   */
  private resolveUncached(dir: string, specifier: string, miss: { why?: Unfound } = {}): string | undefined {
    if (specifier.startsWith(".") || path.isAbsolute(specifier)) return this.resolveFile(path.resolve(dir, specifier));
    if (specifier.startsWith("#")) return this.resolvePackageImport(this.fs.realPath(dir) ?? dir, specifier);
    const m = /^((?:@[^/]+\/)?[^/]+)(\/.*)?$/.exec(specifier);
    if (!m) return undefined;
    const [, pkg, sub = ""] = m;
    const subpath = sub ? "." + sub : ".";
    const start = this.fs.realPath(dir) ?? dir;
    // A package importing itself by its own name, through its `exports` (Node resolves this before
    // any `node_modules`: a company whose package.json is named `acme` may import `acme/connectors`).
    const self = this.selfReference(start, pkg);
    if (self !== undefined) {
      const entry = { missing: undefined as string | undefined };
      const found = this.resolvePackage(self, subpath, entry);
      if (found === undefined && entry.missing !== undefined) miss.why = { kind: "not-built", entry: entry.missing };
      return found;
    }
    // Node walks up from the importing file's real path: in a pnpm install a package is a
    // symlink into `.pnpm/`, and its own dependencies sit beside its real folder there.
    const notThere: string[] = [];
    for (let d = start; ; ) {
      if (path.basename(d) !== "node_modules") {
        const pkgDir = path.join(d, "node_modules", pkg);
        if (this.fs.isDir(pkgDir)) {
          this.packageFolders.add(pkgDir);
          const real = this.fs.realPath(pkgDir);
          if (real !== undefined && real !== pkgDir && !isInNodeModules(real)) this.linkedPackages.set(real, pkgDir);
          const entry = { missing: undefined as string | undefined, exported: false };
          const found = this.resolvePackage(pkgDir, subpath, entry);
          if (found) return found;
          // (The first package found that names a file not there: a workspace package not built.)
          if (entry.missing !== undefined) miss.why ??= { kind: "not-built", entry: entry.missing };
          // A package with `exports` is where Node stops looking, found or not.
          if (entry.exported) return undefined;
        } else if (this.fs.isDir(path.join(d, "node_modules"))) notThere.push(pkgDir);
      }
      const up = path.dirname(d);
      if (up === d) break;
      d = up;
    }
    // Not installed (yet): where an install would put it.
    for (const p of notThere) this.packageFolders.add(p);
    return undefined;
  }

  /**
   * The folder of the package holding `dir` (the nearest `package.json` above it, as Node finds a
   * module's package, never above a `node_modules`) when it is named `pkg` and has `exports`: the
   * condition under which Node lets a package import itself by name. Undefined otherwise.
   */
  private selfReference(dir: string, pkg: string): string | undefined {
    const scope = this.packageScope(dir);
    return scope !== null && scope.name === pkg ? scope.dir : undefined;
  }

  private packageScope(dir: string): { dir: string; name: string } | null {
    const found = this.packageJsonAbove(dir);
    const pj = found?.json;
    return pj && typeof pj.name === "string" && pj.exports !== undefined && pj.exports !== null ? { dir: found.dir, name: pj.name } : null;
  }

  /** `packageJsonAbove`'s answers, by folder. */
  private readonly packageJsons = new Map<string, { dir: string; json: Record<string, unknown> | undefined } | null>();

  /**
   * The nearest `package.json` at or above a folder, never above a `node_modules` (the package a
   * module belongs to, as Node finds it), with its folder and what it holds (`json` undefined: it
   * is not a JSON object); null where there is none.
   */
  private packageJsonAbove(dir: string): { dir: string; json: Record<string, unknown> | undefined } | null {
    let found = this.packageJsons.get(dir);
    if (found !== undefined) return found;
    found = null;
    const text = path.basename(dir) === "node_modules" ? undefined : this.fs.readFile(path.join(dir, "package.json"));
    if (text !== undefined) {
      let json: unknown;
      try { json = JSON.parse(text); } catch {}
      found = { dir, json: json !== null && typeof json === "object" && !Array.isArray(json) ? json as Record<string, unknown> : undefined };
    } else if (path.basename(dir) !== "node_modules" && path.dirname(dir) !== dir) found = this.packageJsonAbove(path.dirname(dir));
    this.packageJsons.set(dir, found);
    return found;
  }

  /**
   * The `.pnp.cjs` (or `.pnp.js`) of Yarn's Plug'n'Play at or above `dir`'s real folder: an install
   * with no `node_modules` to read. A folder on the way that holds a `node_modules` is an install of
   * another kind: one left above it (`yarn` once run in a home folder) says nothing of it.
   */
  private plugNPlayAbove(dir: string): string | undefined {
    for (let d = this.fs.realPath(dir) ?? dir; ; ) {
      for (const name of [".pnp.cjs", ".pnp.js"]) if (this.fs.isFile(path.join(d, name))) return path.join(d, name);
      if (this.fs.isDir(path.join(d, "node_modules"))) return undefined;
      const up = path.dirname(d);
      if (up === d) return undefined;
      d = up;
    }
  }

  /** Where the packages this resolver read from, or looked for in vain, are (or would be): see `packageFolders`. */
  watchedPackageFolders(): ReadonlySet<string> {
    return this.packageFolders;
  }

  /** The linked packages resolutions went into: each one's real folder, and its path as resolved (see `linkedPackages`). */
  linkedPackageFolders(): ReadonlyMap<string, string> {
    return this.linkedPackages;
  }

  /** `#name`: the `imports` of the nearest package.json above the importing file, as Node reads them. */
  private resolvePackageImport(dir: string, specifier: string): string | undefined {
    for (let d = dir; ; ) {
      const pjText = path.basename(d) === "node_modules" ? undefined : this.fs.readFile(path.join(d, "package.json"));
      if (pjText !== undefined) {
        let pj: { imports?: unknown } | undefined;
        try { pj = JSON.parse(pjText); } catch { return undefined; }
        const target = pj && typeof pj.imports === "object" && pj.imports !== null ? subpathTarget(pj.imports as Record<string, unknown>, specifier) : undefined;
        // A target is a path in the package, or a package name (resolved from the package).
        if (!target) return undefined;
        return target.startsWith("./") ? this.resolveFile(path.join(d, target)) : this.resolveUncached(d, target);
      }
      const up = path.dirname(d);
      if (up === d) return undefined;
      d = up;
    }
  }

  /**
   * The file a package's subpath names, or undefined. `entry.missing`: the path its `package.json`
   * names for it (`exports`, else `module` or `main`), when that file is not there;
   * `entry.exported`: whether the package has `exports` (Node looks no further then).
   */
  private resolvePackage(pkgDir: string, subpath: string, entry: { missing?: string; exported?: boolean } = {}): string | undefined {
    const pjText = this.fs.readFile(path.join(pkgDir, "package.json"));
    let pj: Record<string, unknown> | undefined;
    // A package.json that is not JSON: Node refuses the package, so nothing is resolved in it.
    try { pj = pjText ? JSON.parse(pjText) : undefined; } catch { return undefined; }
    if (pj && pj.exports !== undefined && pj.exports !== null) {
      entry.exported = true;
      const target = exportsTarget(pj.exports, subpath);
      const found = target ? this.resolveFile(path.join(pkgDir, target)) : undefined;
      if (target && !found) entry.missing = target;
      return found;
    }
    if (subpath !== ".") return this.resolveFile(path.join(pkgDir, subpath));
    let named: string | undefined;
    for (const field of ["module", "main"]) {
      const v = pj?.[field];
      if (typeof v === "string") { const f = this.resolveFile(path.join(pkgDir, v)); if (f) return f; named ??= v; }
    }
    const index = this.resolveFile(path.join(pkgDir, "index"));
    if (!index && named !== undefined) entry.missing = named;
    return index;
  }

  private resolveFile(p: string): string | undefined {
    if (this.fs.isFile(p)) return p;
    for (const e of EXTENSIONS) if (this.fs.isFile(p + e)) return p + e;
    // TypeScript style: `./compute.js` written for `./compute.ts`.
    const js = /\.(m|c)?jsx?$/.exec(p);
    if (js) {
      const stem = p.slice(0, -js[0].length);
      for (const e of TS_EXTENSIONS) if (this.fs.isFile(stem + e)) return stem + e;
    }
    if (this.fs.isDir(p)) {
      for (const e of EXTENSIONS) if (this.fs.isFile(path.join(p, "index" + e))) return path.join(p, "index" + e);
    }
    return undefined;
  }

  /**
   * A module's export as the importing module sees it (one hop further), or undefined when not
   * exported. `reach`: the importing module's (see `exportOf`); a module imported from one with no
   * reach left is past reach, and not read.
   */
  private imported(file: string, imported: string, reach: number): ModuleValue | undefined {
    if (reach <= 0) return PAST_REACH;
    // `module.exports = defineResource(…)`: a require or a default import of the module is the type.
    if (imported === "*" || imported === "default") {
      const facts = this.facts(file);
      const cjs = facts?.exports.get("module.exports");
      if (facts && cjs && (imported === "*" || !facts.exports.has("default"))) {
        const whole = this.valueOf(file, facts, cjs, 0, reach - 1);
        if (whole.kind === "type") return further(whole);
      }
    }
    let value = imported === "*" ? this.namespaceOf(file, reach - 1) : this.exportOf(file, imported, reach - 1);
    // A default import of a CommonJS module takes the whole `module.exports`.
    if (value === undefined && imported === "default") value = this.namespaceOf(file, reach - 1);
    return value && further(value);
  }

  /** What an import of `imported` from `specifier` in `fromFile` is, or the member it reaches through `members` (`fly.machine`: `["machine"]`). */
  resolveImport(fromFile: string, specifier: string, imported: string, members: readonly string[] = []): Resolution {
    const file = this.resolveModule(fromFile, specifier);
    if (!file) {
      if (!isPackageSpecifier(specifier)) return { kind: "none" };
      const why = this.unfoundFor(fromFile, specifier);
      return { kind: "unresolved", module: specifier, ...(why ? { why } : {}) };
    }
    let value = this.imported(file, imported, MAX_HOPS);
    let missingIn: { name: string; module: string; available: string[] } | undefined;
    if (value === undefined) {
      // The name is not exported: unknown where the module cannot be read whole (an `export *`
      // of a module that cannot be read, syntax errors…), else a problem only when the module
      // defines resource types. (What the module is open to, seen from the data file.)
      value = openFartherBy(this.absent(file, MAX_HOPS - 1), 1);
      const available = value ? [] : this.typesOfModule(file);
      if (available.length > 0) missingIn = { name: imported, module: specifier, available };
    } else {
      let owner = imported === "*" ? specifier : imported;
      for (const member of members) {
        value = withinReach(value);
        if (value === undefined || value.kind === "unknown") break; // (a member of what is unknown is unknown)
        if (value.kind !== "object") { value = OTHER; break; }
        const next = value.members.get(member);
        if (next) { value = next(); owner = member; continue; }
        if (value.open) { value = value.open; break; }
        const known = value.members;
        const available = [...known.keys()].filter((k) => withinReach(known.get(k)!())?.kind === "type");
        if (value.definesTypes()) missingIn = { name: member, module: owner, available };
        value = undefined;
        break;
      }
    }
    if (missingIn) return { kind: "missing", ...missingIn };
    value = withinReach(value);
    if (value && value.kind === "type") return { kind: "type", type: value.type };
    if (value && value.kind === "unknown") return value.notInstalled !== undefined ? { kind: "unresolved", module: value.notInstalled, ...(value.why ? { why: value.why } : {}) } : { kind: "unknown", module: specifier };
    return { kind: "none" };
  }

  /**
   * What a name a module does not export is, where this reading cannot see the module whole: its
   * namespace's `open` (an `export *` of a module that cannot be read, a CommonJS `module.exports`
   * that cannot be followed), or unknown for a module that cannot be read or has syntax errors
   * (read in part). Undefined where the module is read whole: the name is not there.
   */
  private absent(file: string, reach: number): Open | undefined {
    const facts = this.facts(file);
    if (!facts || facts.syntaxErrors) return this.unknownIn(file);
    const ns = this.namespaceOf(file, reach);
    return ns.kind === "object" ? ns.open : undefined;
  }

  /**
   * What a module that cannot be resolved holds, imported from `from`: unknown (a package not
   * installed, named), or no type (Node's or the framework's own modules, or any import of a module
   * that is no connector's: `frameworkAware`).
   */
  private unresolvedValue(specifier: string, from: string): Open {
    if (isBuiltin(specifier) || isFrameworkModule(specifier) || !this.frameworkAware(from)) return OTHER;
    // (One step beyond `from`: where a type it holds would lie, once it is there.)
    if (!isPackageSpecifier(specifier)) return BEYOND_UNKNOWN;
    // (What `resolveModule` found of it from there: a package not built, Plug'n'Play.)
    const why = this.unfoundFor(from, specifier);
    return { kind: "unknown", hops: 1, notInstalled: specifier, ...(why ? { why } : {}) };
  }

  /**
   * What a module this reading cannot see into holds where it lists nothing: unknown in a
   * connector's module (`frameworkAware`), where it may hold resource types; elsewhere nothing of
   * the kind (a helper package's `module.exports = factory()`: A5, a helper call is no declaration).
   */
  private unknownIn(file: string): Open {
    return this.frameworkAware(file) ? UNKNOWN : OTHER;
  }

  /** Whether a module is a connector's, as far as can be told without reading it whole (`frameworkAware`), by file. */
  private readonly aware = new Map<string, boolean>();

  /**
   * Whether a module may define resource types: it imports the framework (A4: types are made by
   * its `defineResource`), or its package (the nearest `package.json` above it) names the framework
   * among its dependencies. A helper package (lodash, handlebars, chalk) does neither: what this
   * reading cannot see into there holds no type, and a call of it stays no declaration.
   */
  private frameworkAware(file: string): boolean {
    let known = this.aware.get(file);
    if (known !== undefined) return known;
    known = !!this.facts(file)?.imports.some((i) => isFrameworkModule(i.specifier));
    const pj = known ? undefined : this.packageJsonAbove(path.dirname(file))?.json;
    if (pj) {
      known = ["dependencies", "peerDependencies", "devDependencies", "optionalDependencies"].some((field) => {
        const deps = pj[field];
        return !!deps && typeof deps === "object" && Object.keys(deps).some((name) => isFrameworkModule(name));
      });
    }
    this.aware.set(file, known);
    return known;
  }

  /** The names of the resource types reachable as members of an import (`fly.` after `import * as fly` or `import { fly }`). */
  typeMembers(fromFile: string, specifier: string, imported: string): string[] {
    const file = this.resolveModule(fromFile, specifier);
    const value = file ? this.imported(file, imported, MAX_HOPS) : undefined;
    if (!value || value.kind !== "object") return [];
    return [...value.members.keys()].filter((k) => withinReach(value.members.get(k)!())?.kind === "type").sort();
  }

  /** The resource type names a module exports (for completion and did-you-mean). */
  typesOfModule(file: string): string[] {
    const cached = this.typesOfModuleCache.get(file);
    if (cached) return cached;
    const ns = further(this.namespaceOf(file, MAX_HOPS - 1));
    const names = ns.kind === "object" ? [...ns.members.keys()].filter((k) => withinReach(ns.members.get(k)!())?.kind === "type").sort() : [];
    this.typesOfModuleCache.set(file, names);
    return names;
  }

  /**
   * Every export of a module as an object value (hops counted from this module), each name's value
   * what a named import of it is (`exportOf`: the nearest module that has it). `reach`: as for
   * `exportOf`. One walk, depth first from the module through its `export *`s in their order, with
   * a stack of its own, each module within reach visited once and counted at its fewest steps
   * (`starSteps`): its names (a module's own first, then its `export *`s', then its
   * `module.exports` object's), and what it cannot be read as, the first found kept (`moreOpen`): a
   * module that cannot be read or resolved (a package not installed, named), a CommonJS
   * `module.exports` that cannot be followed, an `export *` of a module past reach (`PAST_REACH`).
   */
  private namespaceOf(file: string, reach: number): ModuleValue {
    const key = file + "\0*\0" + reach;
    const cached = this.exportCache.get(key);
    if (cached) return cached;
    const members = new Map<string, () => ModuleValue>();
    const value: ModuleValue = { kind: "object", members, definesTypes: () => definesTypes(members) };
    this.exportCache.set(key, value); // set first: asked again while it is built, it is found, not built twice
    const named = (name: string) => { if (!members.has(name)) members.set(name, lazy(() => this.exportOf(file, name, reach) ?? OTHER)); };
    const steps = this.starSteps(file, reach);
    const seen = new Set<string>();
    const stack: { module: string; facts: FileFacts; targets: (string | undefined)[]; at: number; next: number }[] = [];
    const enter = (module: string) => {
      seen.add(module);
      const at = steps.get(module)!;
      const { facts, targets } = this.starsOf(module);
      if (!facts) { value.open = moreOpen(value.open, openFartherBy(this.unknownIn(module), at)); return; }
      for (const name of facts.exports.keys()) if (name !== "default" && name !== "module.exports") named(name);
      stack.push({ module, facts, targets, at, next: 0 });
    };
    enter(file);
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (top.next < top.targets.length) {
        const i = top.next++;
        const target = top.targets[i];
        if (target === undefined) value.open = moreOpen(value.open, openFartherBy(this.unresolvedValue(top.facts.starExports[i], top.module), top.at));
        else if (!steps.has(target)) value.open = moreOpen(value.open, openFartherBy(PAST_REACH, top.at));
        else if (!seen.has(target)) enter(target);
        continue;
      }
      stack.pop();
      const cjs = top.facts.exports.get("module.exports");
      if (!cjs) continue;
      const v = this.valueOf(top.module, top.facts, cjs, 0, reach - top.at);
      // The module's own `module.exports`: every member this reading knows; another's: its object's names.
      if (top.module === file && v.kind === "object") { for (const [k, m] of v.members) if (!members.has(k)) members.set(k, m); }
      else if (cjs.kind === "object") for (const k of cjs.props.keys()) named(k);
      value.open = moreOpen(value.open, openFartherBy(v.kind === "unknown" ? v : v.kind === "object" ? v.open : undefined, top.at));
    }
    return value;
  }

  /** A module's facts, and the file each of its `export *`s names (undefined: none found), read once. */
  private starsOf(file: string): { facts: FileFacts | undefined; targets: (string | undefined)[] } {
    let known = this.starsCache.get(file);
    if (!known) {
      const facts = this.facts(file);
      known = { facts, targets: facts?.starExports.map((source) => this.resolveModule(file, source)) ?? [] };
      this.starsCache.set(file, known);
    }
    return known;
  }

  /**
   * The modules a module reaches through `export *` within `reach` steps, each at its fewest, in
   * the order a breadth-first walk meets them (the `export *`s of a module in their order): the
   * module itself first, at 0; a module `reach` steps away is not read further. In a loop, so that
   * no chain of them, however long, takes the stack; kept with the caches.
   */
  private starSteps(file: string, reach: number): ReadonlyMap<string, number> {
    const key = file + "\0" + reach;
    let steps = this.starStepsCache.get(key);
    if (steps) return steps;
    const found = new Map<string, number>([[file, 0]]);
    for (let queue = [file], i = 0; i < queue.length; i++) {
      const at = found.get(queue[i])!;
      if (at >= reach) continue;
      for (const target of this.starsOf(queue[i]).targets) if (target !== undefined && !found.has(target)) { found.set(target, at + 1); queue.push(target); }
    }
    steps = found;
    this.starStepsCache.set(key, steps);
    return steps;
  }

  /**
   * The modules of `starSteps` in their order, and where in it lie those that export each name and
   * those open to any name (a module that cannot be read, or one with a `module.exports`): what
   * `exportLookup` reads instead of every module. Kept with the caches, by module and reach.
   */
  private starIndex(file: string, reach: number): { order: [string, number][]; open: number[]; byName: Map<string, number[]> } {
    const key = file + "\0" + reach;
    let index = this.starIndexCache.get(key);
    if (index) return index;
    index = { order: [...this.starSteps(file, reach)], open: [], byName: new Map() };
    for (let pos = 0; pos < index.order.length; pos++) {
      const facts = this.starsOf(index.order[pos][0]).facts;
      if (!facts || facts.exports.has("module.exports")) index.open.push(pos);
      for (const name of facts?.exports.keys() ?? []) {
        const at = index.byName.get(name);
        if (at) at.push(pos); else index.byName.set(name, [pos]);
      }
    }
    this.starIndexCache.set(key, index);
    return index;
  }

  /**
   * One named export of a module (hops counted from this module), or undefined when the module
   * does not export it. `reach`: how many more module-to-module steps from this module stay within
   * MAX_HOPS of the data file asking (MAX_HOPS - 1 for the module it imports); what lies past it is
   * not read (`PAST_REACH`), so a lookup goes at most MAX_HOPS modules deep whatever the chain of
   * re-exports, and a chain thousands of modules long is no deeper a recursion than a short one.
   * Answers are kept by module, name and reach.
   */
  private exportOf(file: string, name: string, reach: number): ModuleValue | undefined {
    const key = file + "\0" + name + "\0" + reach;
    if (this.exportCache.has(key)) return this.exportCache.get(key);
    // Back round a cycle of re-exports to a lookup of this name in this module under way (at any
    // reach): not exported here (the lookup under way goes on with its other re-exports). Nothing
    // that depended on this cut is kept for good.
    const under = lookups.get(file + "\0" + name);
    if (under !== undefined) { cutTo = Math.min(cutTo, under); return undefined; }
    const earlier = lookedUp.get(key);
    if (earlier) { cutTo = Math.min(cutTo, earlier.cutTo); return earlier.value; }
    const depth = lookups.size;
    lookups.set(file + "\0" + name, depth);
    let r: { value: ModuleValue | undefined; settled: boolean; cutTo: number };
    try {
      r = settled(depth, () => this.exportLookup(file, name, reach));
    } finally {
      lookups.delete(file + "\0" + name);
      if (lookups.size === 0) lookedUp.clear();
    }
    if (r.settled) this.exportCache.set(key, r.value);
    else lookedUp.set(key, { value: r.value, cutTo: r.cutTo });
    return r.value;
  }

  /**
   * A name through `export *`: the nearest module that has it (its own export, or a member of its
   * `module.exports`; a module that cannot be read may hold any), breadth first, so that a name
   * resolves at its fewest hops whatever was asked before it (depth first, a cycle of `export *`
   * was walked the long way round, or cut, by the order of the lookups); of two as near, the
   * first met (the `export *`s of a module in their order).
   */
  private exportLookup(file: string, name: string, reach: number): ModuleValue | undefined {
    const { order, open, byName } = this.starIndex(file, reach);
    // The modules that may have it, in the walk's order: those that export it, and those open to
    // any name (`open`), merged (not a scan of every module: a name per module of an index that
    // re-exports thousands would make a namespace's names quadratic).
    const named = byName.get(name) ?? [];
    for (let i = 0, j = 0; i < named.length || j < open.length;) {
      const pos = j >= open.length || (i < named.length && named[i] < open[j]) ? named[i++] : open[j++];
      if (i < named.length && named[i] === pos) i++; // (one module in both)
      const [module, at] = order[pos];
      let v: ModuleValue | undefined;
      if (module === file) v = this.ownExport(module, name, reach);
      else {
        // Its own export looked up as this module's is (`exportOf`): under way while it is read,
        // and cut where a cycle of re-exports comes back to it.
        const key = module + "\0" + name;
        const under = lookups.get(key);
        if (under !== undefined) { cutTo = Math.min(cutTo, under); continue; }
        lookups.set(key, lookups.size);
        try { v = this.ownExport(module, name, reach - at); } finally { lookups.delete(key); }
      }
      if (v !== undefined) return further(v, at);
    }
    return undefined;
  }

  /** A name as one module has it: its own export, or a member of its `module.exports`; unknown in a module that cannot be read. */
  private ownExport(file: string, name: string, reach: number): ModuleValue | undefined {
    const facts = this.starsOf(file).facts;
    if (!facts) return this.unknownIn(file);
    const ref = facts.exports.get(name);
    if (ref) return this.valueOf(file, facts, ref, 0, reach);
    const cjs = facts.exports.get("module.exports");
    if (cjs) {
      const v = this.valueOf(file, facts, cjs, 0, reach);
      if (v.kind === "object") return v.members.get(name)?.();
    }
    return undefined;
  }

  /** What a reference inside `file` holds; `steps` bounds the steps that stay inside the file, `reach` (`exportOf`'s) those out of it. */
  private valueOf(file: string, facts: FileFacts, ref: Ref, steps: number, reach: number): ModuleValue {
    if (steps > MAX_LOCAL_STEPS) return OTHER;
    switch (ref.kind) {
      case "spec": {
        // (A module with syntax errors does not load, and its spec was read from a tree the parser
        // made up around them: a schema cut short lacked fields it had. Its types are unknown.)
        if (facts.syntaxErrors) return this.unknownIn(file);
        const spec = facts.specs[ref.spec];
        return spec ? { kind: "type", type: this.typeOf(file, spec), hops: 0 } : OTHER;
      }
      case "local": {
        const local = facts.locals.get(ref.name);
        if (local && !(local.kind === "local" && local.name === ref.name)) return this.valueOf(file, facts, local, steps + 1, reach);
        const b = facts.bindings.get(ref.name);
        if (b) return this.valueOf(file, facts, { kind: "import", source: b.source, imported: b.imported }, steps + 1, reach);
        return OTHER;
      }
      case "import": {
        const target = this.resolveModule(file, ref.source);
        if (!target) return this.unresolvedValue(ref.source, file);
        return this.imported(target, ref.imported, reach) ?? openFartherBy(this.absent(target, reach - 1), 1) ?? OTHER;
      }
      case "member": {
        // `ns.default` of a namespace import (tsc's `__importDefault(require("m")).default`,
        // esbuild's `__toESM(require("m")).default`): the default export, as a default import takes it.
        const star = ref.member === "default" ? namespaceImportOf(facts, ref.base) : undefined;
        if (star !== undefined) return this.valueOf(file, facts, { kind: "import", source: star, imported: "default" }, steps + 1, reach);
        const base = this.valueOf(file, facts, ref.base, steps + 1, reach);
        if (base.kind === "unknown") return base;
        if (base.kind !== "object") return OTHER;
        return base.members.get(ref.member)?.() ?? base.open ?? OTHER;
      }
      case "unknown":
        return this.unknownIn(file);
      case "object": {
        const members = new Map<string, () => ModuleValue>();
        let open: Open | undefined = ref.open ? this.unknownIn(file) : undefined;
        // `{ ...compute, machine }`: the members of a spread object this reading knows, then the
        // object's own (a spread of anything else leaves the object open).
        for (const spread of ref.spreads ?? []) {
          const v = this.valueOf(file, facts, spread, steps + 1, reach);
          if (v.kind !== "object") { open = moreOpen(open, v.kind === "unknown" ? v : this.unknownIn(file)); continue; }
          for (const [k, m] of v.members) members.set(k, m);
          open = moreOpen(open, v.open);
        }
        for (const [k, v] of ref.props) members.set(k, lazy(() => this.valueOf(file, facts, v, steps + 1, reach)));
        return { kind: "object", members, definesTypes: () => definesTypes(members), open };
      }
      default:
        return OTHER;
    }
  }

  private readonly typeObjects = new Map<ResourceSpecFact, ResourceType>();
  private typeOf(file: string, spec: ResourceSpecFact): ResourceType {
    let t = this.typeObjects.get(spec);
    if (!t) {
      const id = `${spec.vendor ?? "?"}.${spec.type ?? "?"}`;
      t = { id, vendor: spec.vendor, type: spec.type, spec, file, contracts: contractsOf(spec, new Set(), id) };
      this.typeObjects.set(spec, t);
    }
    return t;
  }
}

/** The module a reference is a namespace import of (`import * as ns`, `const ns = require("m")`, through consts), or undefined. */
function namespaceImportOf(facts: FileFacts, ref: Ref): string | undefined {
  for (let steps = 0; steps < MAX_LOCAL_STEPS; steps++) {
    if (ref.kind === "import") return ref.imported === "*" ? ref.source : undefined;
    if (ref.kind !== "local") return undefined;
    const local = facts.locals.get(ref.name);
    if (local && !(local.kind === "local" && local.name === ref.name)) { ref = local; continue; }
    const b = facts.bindings.get(ref.name);
    return b?.imported === "*" ? b.source : undefined;
  }
  return undefined;
}

function definesTypes(members: Map<string, () => ModuleValue>): boolean {
  for (const m of members.values()) if (withinReach(m())?.kind === "type") return true;
  return false;
}

/**
 * A value computed once, when first asked. Asked while export lookups are under way, it keeps its
 * answer only when that answer did not come from a cycle cut back to one of them (`settled`): the
 * same value asked on its own may reach further.
 */
function lazy<T>(f: () => T): () => T {
  let done = false, value: T;
  return () => {
    if (done) return value;
    const r = settled(lookups.size, f);
    if (r.settled) { value = r.value; done = true; }
    return r.value;
  };
}

/**
 * The export lookups under way (`exportOf`), by module and name (whatever their reach), each with
 * its depth, as Node's ResolveExport keeps its resolveSet: a lookup that comes back round a cycle
 * of re-exports to one under way is cut there ("not exported here"), and `cutTo` keeps the lowest
 * depth a cut went back to. Module-level but answer-neutral: lookups run to their end
 * synchronously, and this is empty between them.
 */
const lookups = new Map<string, number>();
/** What lookups found while an outer one was under way (by module, name and reach), each with the depth its cuts went back to: an outer lookup asks each once (a mesh of `export *` is not walked path by path). */
const lookedUp = new Map<string, { value: ModuleValue | undefined; cutTo: number }>();
let cutTo = Infinity;

/** Runs `f`, saying whether its answer is its own: no cycle was cut back to a lookup at a depth below `depth`. */
function settled<T>(depth: number, f: () => T): { value: T; settled: boolean; cutTo: number } {
  const outer = cutTo;
  cutTo = Infinity;
  try {
    const value = f();
    return { value, settled: cutTo >= depth, cutTo };
  } finally {
    cutTo = Math.min(outer, cutTo);
  }
}

/** The target of `exports` for a subpath, with the conditions of A4 in their order. */
export function exportsTarget(exp: unknown, subpath: string): string | undefined {
  if (typeof exp === "string" || Array.isArray(exp)) return subpath === "." ? pickTarget(exp) : undefined;
  if (!exp || typeof exp !== "object") return undefined;
  const isSubpathMap = Object.keys(exp).some((k) => k.startsWith("."));
  if (!isSubpathMap) return subpath === "." ? pickTarget(exp) : undefined;
  return subpathTarget(exp as Record<string, unknown>, subpath);
}

/** A subpath (`./x` of `exports`, `#x` of `imports`) in a map of them, with its patterns (A4). */
function subpathTarget(map: Record<string, unknown>, subpath: string): string | undefined {
  const keys = Object.keys(map);
  if (Object.hasOwn(map, subpath)) return pickTarget(map[subpath]);
  // Patterns: the most specific match wins, as in Node (the longest prefix before the `*`, then
  // the longest key), not the first written.
  let best: { key: string; prefix: string; suffix: string } | undefined;
  for (const k of keys) {
    const star = k.indexOf("*");
    if (star < 0) continue;
    const prefix = k.slice(0, star), suffix = k.slice(star + 1);
    if (!(subpath.startsWith(prefix) && subpath.endsWith(suffix) && subpath.length >= prefix.length + suffix.length)) continue;
    if (!best || prefix.length > best.prefix.length || (prefix.length === best.prefix.length && k.length > best.key.length)) best = { key: k, prefix, suffix };
  }
  if (!best) return undefined;
  const t = pickTarget(map[best.key]);
  return t?.split("*").join(subpath.slice(best.prefix.length, subpath.length - best.suffix.length));
}

/** A target: a string, the first of an array that gives one, or the first condition of A4's order that does. */
function pickTarget(v: unknown): string | undefined {
  if (typeof v === "string") return v;
  if (Array.isArray(v)) { for (const x of v) { const t = pickTarget(x); if (t) return t; } return undefined; }
  if (v && typeof v === "object") {
    for (const c of CONDITIONS) if (c in (v as Record<string, unknown>)) { const t = pickTarget((v as Record<string, unknown>)[c]); if (t) return t; }
  }
  return undefined;
}

export type { Range };

/** A bare specifier of a package (`@fake/fly`, `fly/sub`): not a path, not `#imports`, not Node's own module. */
function isPackageSpecifier(specifier: string): boolean {
  return !specifier.startsWith(".") && !specifier.startsWith("/") && !specifier.startsWith("#") && !isBuiltin(specifier);
}
