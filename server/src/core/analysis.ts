/**
 * What the company-wide rules look at: a company's facts joined up (declarations with their
 * resolved types, collections by scope, the config's secret bindings, the lockfile's bindings).
 * Built from facts alone, in one pass, each time the company is checked.
 */
import type { CompanyFile, Company } from "./model.ts";
import { type ConnectorResolver, type Resolution, type ResourceType, contractsOf } from "./connectors.ts";
import { isFrameworkModule, type CollectionFact, type DeclarationFact, type SecretBindingFact } from "./facts.ts";
import type { LockFacts } from "./lockfile.ts";
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
  files: CompanyFile[];
  declarations: Declaration[];
  declarationsById: Map<string, Declaration>;
  collections: Collection[];
  /** scope (null for root) → name → collections. */
  collectionsByScope: Map<string | null, Map<string, Collection[]>>;
  /** undefined: the config declares no bindings; null: they cannot be read statically. */
  secretBindings: SecretBindingFact[] | null | undefined;
  hasConfigFacts: boolean;
  lock?: LockFacts;
  /** Data files that exist but failed to load (syntax errors or unreadable): their lock bindings are not judged. */
  failedFiles: Set<string>;
}

export function declarationId(rel: string, exportName: string): string {
  return `${rel}#${exportName}`;
}

export function resolveDeclaration(resolver: ConnectorResolver, file: CompanyFile, fact: DeclarationFact): Resolution {
  const binding = file.facts?.bindings.get(fact.callee.base);
  if (!binding || isFrameworkModule(binding.source)) return { kind: "none" };
  return resolver.resolveImport(file.path, binding.source, binding.imported, fact.callee.member);
}

/** What a file declares, kept on its entry while its facts and the resolver's caches stay the same. */
interface Derived { generation: number; declarations: Declaration[]; collections: Collection[] }
const derivedOf = new WeakMap<CompanyFile, Derived>();

function derive(file: CompanyFile, resolver: ConnectorResolver): Derived {
  const cached = derivedOf.get(file);
  if (cached && cached.generation === resolver.generation) return cached;
  const declarations: Declaration[] = [];
  const collections: Collection[] = [];
  const facts = file.facts;
  if (facts && file.role.isDataFile) {
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
  const derived = { generation: resolver.generation, declarations, collections };
  derivedOf.set(file, derived);
  return derived;
}

export function analyse(company: Company, resolver: ConnectorResolver): Analysis {
  const files = [...company.files.values()];
  const declarations: Declaration[] = [];
  const collections: Collection[] = [];
  const failedFiles = new Set<string>();
  for (const file of files) {
    const role = file.role;
    if (!role.isDataFile) continue; // collections files are data files too
    if (file.skipped || (file.facts && file.facts.syntaxErrors > 0)) failedFiles.add(file.rel);
    const derived = derive(file, resolver);
    for (const d of derived.declarations) declarations.push(d);
    for (const c of derived.collections) collections.push(c);
  }
  // The `source` contract: a host spec names this type's id. Each declaration keeps its type for
  // the set of sources it was computed against, so a check makes no new objects while it holds.
  const hostSources = new Set<string>();
  for (const d of declarations) if (d.baseType?.spec.hostSource) hostSources.add(d.baseType.spec.hostSource);
  const hostKey = [...hostSources].sort().join("\n");
  for (const d of declarations) {
    if (!d.baseType || d.hostKey === hostKey) continue;
    d.type = hostSources.size ? { ...d.baseType, contracts: contractsOf(d.baseType.spec, hostSources, d.baseType.id) } : d.baseType;
    d.hostKey = hostKey;
  }

  const collectionsByScope = new Map<string | null, Map<string, Collection[]>>();
  for (const c of collections) {
    let byName = collectionsByScope.get(c.scope);
    if (!byName) collectionsByScope.set(c.scope, (byName = new Map()));
    const list = byName.get(c.name);
    if (list) list.push(c); else byName.set(c.name, [c]);
  }
  const config = company.configFile;
  const declarationsById = new Map<string, Declaration>();
  for (const d of declarations) declarationsById.set(d.id, d);
  return {
    company, resolver, files, declarations, declarationsById, collections, collectionsByScope,
    secretBindings: config?.facts?.config?.secretBindings,
    hasConfigFacts: !!config?.facts?.config && config.facts.syntaxErrors === 0,
    lock: company.lock(),
    failedFiles,
  };
}

/** The collections a file of `scope` sees (A8): the root scope's, and its own app's. */
export function visibleCollections(a: Analysis, scope: string | null): Map<string, Collection[]> {
  const out = new Map<string, Collection[]>(a.collectionsByScope.get(null) ?? []);
  if (scope !== null) for (const [k, v] of a.collectionsByScope.get(scope) ?? []) out.set(k, [...(out.get(k) ?? []), ...v]);
  return out;
}
