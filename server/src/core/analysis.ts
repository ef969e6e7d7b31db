/**
 * What the company-wide rules look at: a company's facts joined up (declarations with their
 * resolved types, collections by scope, the config's secret bindings, the lockfile's bindings).
 * Built from facts alone, and kept between checks: a check re-derives only the files changed
 * since the last one.
 */
import { loadFailure, type ChangeTracker, type CompanyFile, type Company } from "./model.ts";
import { type ConnectorResolver, type Resolution, type ResourceType, contractsOf } from "./connectors.ts";
import { isFrameworkModule, type CollectionFact, type DeclarationFact, type SecretBindingFact } from "./facts.ts";
import type { LockFacts } from "./lockfile-read.ts";
import { STEP, type Steps } from "./steps.ts";
import type { Range } from "./types.ts";

export interface Declaration {
  file: CompanyFile;
  fact: DeclarationFact;
  /** `<file>#<export>` (A3). */
  id: string;
  resolution: Resolution;
  /** The resolved type, with the company-wide `source` contract when it meets it. */
  type?: ResourceType;
  /** The type as the connector defines it, and the host sources `type` was computed against. */
  baseType?: ResourceType;
  hostKey?: string;
}

export interface Collection {
  file: CompanyFile;
  fact: CollectionFact;
  name: string;
  scope: string | null;
  /** Where its name is written: the `name` literal, else the export's name. */
  nameRange: Range;
}

export const COLLECTION_OPS = ["get", "list", "count", "save", "saveMany", "delete"] as const;
/** Batch operations: a policy decides their entries, so a permission grid has no row for them. */
export const BATCH_OPS = new Set(["saveMany"]);

export interface Analysis {
  company: Company;
  resolver: ConnectorResolver;
  /** The company's files (a fresh array on each read: prefer `company.files` in loops). */
  readonly files: CompanyFile[];
  /** Every declaration, in file order (built on first read). */
  readonly declarations: Declaration[];
  declarationsById: ReadonlyMap<string, Declaration>;
  /** Every collection, in file and source order. */
  collections: Collection[];
  /** scope (null for root) → name → collections. */
  collectionsByScope: Map<string | null, Map<string, Collection[]>>;
  /** Changes whenever any collection's facts change. */
  collectionsVersion: number;
  /** Changes only when what op references are judged against changes: names, scopes and where they are written. */
  collectionNamesVersion: number;
  /** The declarations whose type wakes the instance, or is its sandbox (a new array when the set changes). */
  holders: { wakeup: Declaration[]; sandbox: Declaration[] };
  /** undefined: the config declares no bindings; null: they cannot be read statically. */
  secretBindings: SecretBindingFact[] | null | undefined;
  /** Other names than `secretBindings`' may be bound too (a spread, a computed name): see `ConfigFact`. */
  secretBindingsOpen: boolean;
  hasConfigFacts: boolean;
  lock?: LockFacts;
  /** Data files that exist but failed to load (syntax errors or unreadable): their lock bindings are not judged. */
  failedFiles: ReadonlySet<string>;
  /** The files set or removed since the previous analysis of the company, or `all` after a rebuild. */
  changed: ReadonlySet<string> | "all";
  /** Which build of the company's analysis tables this is of: a new one when the resolver's caches were dropped (a reader that keeps judgements of its own judges anew then). */
  build: number;
  /** What one data file declares. */
  declarationsOf(file: CompanyFile): Declaration[];
  /** The collections a file of `scope` sees (A8): the root scope's, and its own app's. Do not mutate. */
  visibleCollections(scope: string | null): Map<string, Collection[]>;
}

export function declarationId(rel: string, exportName: string): string {
  return `${rel}#${exportName}`;
}

export function resolveDeclaration(resolver: ConnectorResolver, file: CompanyFile, fact: DeclarationFact): Resolution {
  const binding = file.facts?.bindings.get(fact.callee.base);
  if (!binding || isFrameworkModule(binding.source)) return { kind: "none" };
  const { member, via } = fact.callee;
  return resolver.resolveImport(file.path, binding.source, binding.imported, member === undefined ? [] : via ? [...via, member] : [member]);
}

/** What one data file declares, from its facts and the resolver. */
interface Derived { file: CompanyFile; declarations: Declaration[]; collections: Collection[]; failed: boolean }

function derive(file: CompanyFile, resolver: ConnectorResolver): Derived {
  const declarations: Declaration[] = [];
  const collections: Collection[] = [];
  // A data file that fails to load (A11: a syntax error) or could not be read declares nothing:
  // what the parser's recovery made of it is not what Sanoma would load.
  const failed = !!file.skipped || loadFailure(file) !== undefined;
  const facts = failed ? undefined : file.facts;
  if (facts) {
    for (const fact of facts.declarations) {
      const resolution = resolveDeclaration(resolver, file, fact);
      if (resolution.kind === "none") continue;
      const type = resolution.kind === "type" ? resolution.type : undefined;
      declarations.push({ file, fact, id: declarationId(file.rel, fact.exportName), resolution, type, baseType: type });
    }
  }
  if (facts && file.role.isCollectionsFile) {
    for (const fact of facts.collections) {
      if (!fact.exported || !fact.exportName || !fact.nameRange) continue;
      const name = fact.nameLiteral?.value ?? fact.exportName;
      collections.push({ file, fact, name, scope: file.role.scope, nameRange: fact.nameLiteral?.range ?? fact.nameRange });
    }
  }
  return { file, declarations, collections, failed };
}

let nextVersion = 1;

/**
 * A company's analysis, kept between checks and updated one changed file at a time: what each
 * data file declares, and the company-wide tables over that (declarations by id, the `source`
 * contract's host types, the holders of one-per-instance contracts, collections). A changed
 * resolver generation (a connector or a file's existence changed) rebuilds it whole.
 */
class AnalysisTables {
  readonly derived = new Map<string, Derived>();
  readonly declarationsById = new Map<string, Declaration>();
  readonly failedFiles = new Set<string>();
  private readonly hostSourceCounts = new Map<string, number>();
  private readonly holderSets = { wakeup: new Set<Declaration>(), sandbox: new Set<Declaration>() };
  private readonly collectionFiles = new Map<string, Collection[]>();
  holders: Analysis["holders"] = { wakeup: [], sandbox: [] };
  collections: Collection[] = [];
  collectionsByScope = new Map<string | null, Map<string, Collection[]>>();
  // Versions are unique across tables: a file's cached findings name the version they were judged against.
  collectionsVersion = nextVersion++;
  collectionNamesVersion = nextVersion++;
  private collectionNamesKey = "";
  private hostKey = "";
  private declarationList: Declaration[] | undefined;
  // What the last update touched.
  private readonly holdersTouched = { wakeup: false, sandbox: false };
  private collectionsTouched = false;
  private hostSourcesTouched = false;
  private readonly added: Declaration[] = [];

  constructor(readonly resolver: ConnectorResolver, readonly generation: number) {}

  /** Re-reads one path: forgets what its old entry declared and takes its current entry, if any. */
  update(path: string, file: CompanyFile | undefined): void {
    const old = this.derived.get(path);
    if (old && old.file === file) return;
    if (old) this.forget(old);
    if (file?.role.isDataFile) this.take(derive(file, this.resolver));
  }

  private take(d: Derived): void {
    this.derived.set(d.file.path, d);
    this.declarationList = undefined;
    if (d.failed) this.failedFiles.add(d.file.rel);
    for (const decl of d.declarations) {
      this.declarationsById.set(decl.id, decl);
      const source = decl.baseType?.spec.hostSource;
      if (source) { this.hostSourceCounts.set(source, (this.hostSourceCounts.get(source) ?? 0) + 1); this.hostSourcesTouched = true; }
      for (const c of ["wakeup", "sandbox"] as const) if (decl.baseType?.spec[c] && decl.baseType.spec[c]!.value !== false) { this.holderSets[c].add(decl); this.holdersTouched[c] = true; }
      this.added.push(decl);
    }
    if (d.collections.length) { this.collectionFiles.set(d.file.path, d.collections); this.collectionsTouched = true; }
  }

  private forget(d: Derived): void {
    this.derived.delete(d.file.path);
    this.declarationList = undefined;
    this.failedFiles.delete(d.file.rel);
    for (const decl of d.declarations) {
      if (this.declarationsById.get(decl.id) === decl) this.declarationsById.delete(decl.id);
      const source = decl.baseType?.spec.hostSource;
      if (source) {
        const n = (this.hostSourceCounts.get(source) ?? 1) - 1;
        if (n > 0) this.hostSourceCounts.set(source, n); else this.hostSourceCounts.delete(source);
        this.hostSourcesTouched = true;
      }
      for (const c of ["wakeup", "sandbox"] as const) if (this.holderSets[c].delete(decl)) this.holdersTouched[c] = true;
    }
    if (this.collectionFiles.delete(d.file.path)) this.collectionsTouched = true;
  }

  /** Brings the company-wide tables up to date with the updates since the last call. */
  settle(): void {
    // The `source` contract: a host spec names this type's id. A declaration's type is recomputed
    // when it is new or the set of host sources changed.
    let retype = this.added;
    if (this.hostSourcesTouched) {
      const key = [...this.hostSourceCounts.keys()].sort().join("\n");
      if (key !== this.hostKey) { this.hostKey = key; retype = this.declarations; }
    }
    const hostSources = new Set(this.hostSourceCounts.keys());
    for (const d of retype) {
      if (!d.baseType || d.hostKey === this.hostKey) continue;
      d.type = hostSources.size ? { ...d.baseType, contracts: contractsOf(d.baseType.spec, hostSources, d.baseType.id) } : d.baseType;
      d.hostKey = this.hostKey;
    }
    // A new array only for a contract whose holders changed: the rules compare them by identity.
    for (const c of ["wakeup", "sandbox"] as const) {
      if (this.holdersTouched[c]) this.holders = { ...this.holders, [c]: sortedById(this.holderSets[c]) };
      this.holdersTouched[c] = false;
    }
    if (this.collectionsTouched) this.tableCollections();
    this.added.length = 0;
    this.hostSourcesTouched = this.collectionsTouched = false;
  }

  private tableCollections(): void {
    this.collectionsVersion = nextVersion++;
    // File order, then source order: the same whatever order the files were read or changed in.
    const paths = [...this.collectionFiles.keys()].sort();
    this.collections = paths.flatMap((p) => this.collectionFiles.get(p)!);
    this.collectionsByScope = new Map();
    for (const c of this.collections) {
      let byName = this.collectionsByScope.get(c.scope);
      if (!byName) this.collectionsByScope.set(c.scope, (byName = new Map()));
      const list = byName.get(c.name);
      if (list) list.push(c); else byName.set(c.name, [c]);
    }
    const key = this.collections.map((c) => `${c.scope}\t${c.name}\t${c.file.path}\t${c.nameRange.start.line}:${c.nameRange.start.character}`).join("\n");
    if (key !== this.collectionNamesKey) { this.collectionNamesKey = key; this.collectionNamesVersion = nextVersion++; }
  }

  private visibleBy: { of: Map<string | null, Map<string, Collection[]>>; byScope: Map<string | null, Map<string, Collection[]>> } | undefined;

  /** The collections a file of `scope` sees (A8), computed once per set of collections. */
  visible(scope: string | null): Map<string, Collection[]> {
    if (this.visibleBy?.of !== this.collectionsByScope) this.visibleBy = { of: this.collectionsByScope, byScope: new Map() };
    let visible = this.visibleBy.byScope.get(scope);
    if (!visible) {
      visible = new Map<string, Collection[]>(this.collectionsByScope.get(null) ?? []);
      if (scope !== null) for (const [k, v] of this.collectionsByScope.get(scope) ?? []) visible.set(k, [...(visible.get(k) ?? []), ...v]);
      this.visibleBy.byScope.set(scope, visible);
    }
    return visible;
  }

  /** Every declaration, in the order of its files' paths. */
  get declarations(): Declaration[] {
    if (!this.declarationList) {
      const paths = [...this.derived.keys()].sort();
      this.declarationList = paths.flatMap((p) => this.derived.get(p)!.declarations);
    }
    return this.declarationList;
  }
}

function sortedById(set: Set<Declaration>): Declaration[] {
  return [...set].sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0));
}

/**
 * A company's analysis, kept between checks: its tables, and the record of the files changed since
 * the last analysis (its own: no other reader takes them from it). One per company, owned by the
 * `Workspace`; nothing of it lives at module level.
 */
export class CompanyAnalyzer {
  private tables: AnalysisTables | undefined;
  private builds = 0;
  private readonly changes: ChangeTracker;

  constructor(readonly company: Company, readonly resolver: ConnectorResolver) {
    this.changes = company.trackChanges();
  }

  /**
   * The company's analysis, brought up to date with the files changed since the last one: the
   * changed files are re-derived, nothing else is visited (unless the resolver's caches were
   * dropped, which rebuilds it). Yields every `STEP` files (see `steps.ts`).
   */
  *steps(): Steps<Analysis> {
    try {
      return yield* this.bringUpToDate();
    } catch (e) {
      // (It took the changes it was to apply, and may have applied some: the next analysis is built anew.)
      this.tables = undefined;
      throw e;
    }
  }

  private *bringUpToDate(): Steps<Analysis> {
    const { company, resolver } = this;
    let tables = this.tables;
    const changes = this.changes.take();
    let changed: Analysis["changed"];
    let n = 0;
    if (!tables || tables.generation !== resolver.generation) {
      tables = this.tables = new AnalysisTables(resolver, resolver.generation);
      this.builds++;
      for (const file of company.files.values()) {
        tables.update(file.path, file);
        if (++n % STEP === 0) yield;
      }
      changed = "all";
    } else {
      for (const p of changes) {
        tables.update(p, company.files.get(p));
        if (++n % STEP === 0) yield;
      }
      changed = changes;
    }
    tables.settle();
    const lock = yield* company.lockSteps();
    // A config that fails to load (A11) binds nothing that can be known.
    const configFile = company.configFile;
    const config = configFile && !loadFailure(configFile) ? configFile : undefined;
    const idx = tables;
    return {
      company, resolver,
      get files() { return [...company.files.values()]; },
      get declarations() { return idx.declarations; },
      declarationsById: idx.declarationsById,
      collections: idx.collections,
      collectionsByScope: idx.collectionsByScope,
      collectionsVersion: idx.collectionsVersion,
      collectionNamesVersion: idx.collectionNamesVersion,
      holders: idx.holders,
      secretBindings: config?.facts?.config?.secretBindings,
      secretBindingsOpen: config?.facts?.config?.secretBindingsOpen === true,
      hasConfigFacts: !!config?.facts?.config,
      lock,
      failedFiles: idx.failedFiles,
      changed,
      build: this.builds,
      declarationsOf: (file) => idx.derived.get(file.path)?.declarations ?? [],
      visibleCollections: (scope) => idx.visible(scope),
    };
  }

  /** Stops recording the company's changes (the company is let go). */
  dispose(): void {
    this.changes.stop();
  }
}

/** What one data file declares, as the company's analysis holds it. */
export function declarationsOf(a: Analysis, file: CompanyFile): Declaration[] {
  return a.declarationsOf(file);
}

/** The collections a file of `scope` sees (A8): the root scope's, and its own app's. Do not mutate. */
export function visibleCollections(a: Analysis, scope: string | null): Map<string, Collection[]> {
  return a.visibleCollections(scope);
}
