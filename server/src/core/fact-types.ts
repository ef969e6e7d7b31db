/**
 * What a file's facts are: its imports, exports, resource declarations, resource type specs,
 * collections, operation references, secret calls, the config's secret bindings, its workflows,
 * and whether it parses (`facts.ts` reads them). The bottom of the facts: types, and the grammar
 * of an operation id.
 */
import type { Range } from "./types.ts";
import { intern } from "./intern.ts";

export interface ImportedName {
  /** The exported name it takes: an identifier, `default`, or `*` for a namespace. */
  imported: string;
  range: Range;
}

/** An import site: what the import rules judge (the same shape as the text scanner's sites). */
export interface ImportFact {
  specifier: string;
  /** The specifier's string literal, quotes included. */
  range: Range;
  names: ImportedName[];
}

/** A local name bound by an import: its module and the name it takes there. */
export interface ImportBinding {
  source: string;
  imported: string;
  typeOnly: boolean;
  /**
   * Its element in `import { … }` as written, `type` left out: `vm`, or `vm as machine` (where a
   * fix that changes the imported name edits it, so the local name stays). Named imports only.
   */
  element?: Range;
}

/** Where a name of this module comes from, as far as it can be told without running it. */
export type Ref =
  | { kind: "local"; name: string }
  | { kind: "import"; source: string; imported: string }
  | { kind: "member"; base: Ref; member: string }
  | { kind: "spec"; spec: number }
  /** `spreads`: what `...x` spreads into it; `open`: a computed key makes more members than `props` possible. */
  | { kind: "object"; props: Map<string, Ref>; spreads?: Ref[]; open?: boolean }
  /**
   * What this reading cannot know, where a module's exports are concerned: a CommonJS
   * `module.exports` assigned a call (`__toCommonJS(x)` of an unknown `x`) or a value it cannot
   * follow, an export only a bundler's annotation names. Whatever is asked of it is unknown, never
   * absent (a declaration of an unknown type, not "no declaration").
   */
  | { kind: "unknown" }
  | { kind: "other" };

export interface SpecFlag {
  /** true/false when a literal says so, "unknown" when the value is an expression. */
  value: boolean | "unknown";
  keyRange: Range;
}

/** A `defineResource({...})` call. */
export interface ResourceSpecFact {
  range: Range;
  vendor?: string;
  type?: string;
  title?: string;
  writable?: SpecFlag;
  stateless?: SpecFlag;
  vendorless?: SpecFlag;
  host?: SpecFlag;
  database?: SpecFlag;
  wakeup?: SpecFlag;
  sandbox?: SpecFlag;
  /** The type id a host spec names as its `source`. */
  hostSource?: string;
  /** Field name → optional; undefined when the schema is not a `z.object` literal. */
  fields?: Record<string, boolean>;
  strict?: boolean;
}

/** A key of a desired object; `shorthand`: written `{ name }`, the key a variable's name too (a fix that renames the key keeps the value: `{ name: nam }`). */
export interface DesiredKey { name: string; range: Range; shorthand?: true }

export interface DeclarationFact {
  exportName: string;
  nameRange: Range;
  /**
   * The callee as written: `machine`, `fly.machine`, or `ns.fly.machine` (`via`: the members
   * between the base and the last one, `["fly"]`). Parentheses and `x["machine"]` read alike.
   */
  callee: { base: string; member?: string; range: Range; memberRange?: Range; via?: string[]; /** The last member is written `x["machine"]`: `memberRange` holds the string literal. */ memberQuoted?: true };
  desired?: { keys: DesiredKey[]; hasSpread: boolean; range: Range };
  range: Range;
}

export interface CollectionFact {
  exportName?: string;
  nameRange?: Range;
  callRange: Range;
  /** The `name` property when it is a string literal. */
  nameLiteral?: { value: string; range: Range };
  /** A `name` property that is no string literal (`name: NAME`): the collection is named by its export (A8), and a rename cannot add one. */
  nameNotLiteral?: boolean;
  key?: { value: string; range: Range };
  fields?: { name: string; range: Range }[];
  /** The whole statement that declares it (`export const x = collection(…);`), when it is exported. */
  statementRange?: Range;
  /** Its options when they are an object literal: the object, and its first property if any (where a rename adds a `name`). */
  options?: { range: Range; first?: Range };
  /** Whether it is `export const x = collection(...)`, i.e. declares a collection. */
  exported: boolean;
}

export interface OpRefFact { collection: string; op: string; range: Range }
export interface SecretCallFact { name: string; range: Range }

export interface SecretBindingFact {
  name: string;
  nameRange: Range;
  env?: { value: string; range: Range };
  /** `env` present but not a string literal. */
  envUnknown?: boolean;
  bootstrap?: boolean;
  host?: boolean | "unknown";
}

export interface ConfigFact {
  name?: string;
  /** undefined: no `secrets.bindings` section; null: a section that is not an object literal. */
  secretBindings?: SecretBindingFact[] | null;
  /**
   * Other names may be bound too: the object holds a spread or a computed name that cannot be
   * read, and `secretBindings` holds only what is written after the last of them (what comes
   * before may be overridden by it).
   */
  secretBindingsOpen?: boolean;
}

/** `range`: its name (where a code lens goes); `declaration`: the whole statement that defines it. */
export interface WorkflowFact { name: string; range: Range; declaration: Range }

/** Whether a text parses: its count of syntax errors, and the first one (the parser's message, where). */
export interface SyntaxVerdict {
  errors: number;
  first?: { message: string; range: Range };
}

export interface FileFacts {
  /** Why nothing of the text could be read (it nests deeper than the parser's stack), if so. */
  unread?: string;
  syntaxErrors: number;
  firstSyntaxError?: SyntaxVerdict["first"];
  imports: ImportFact[];
  /** Local name → the import it binds. */
  bindings: Map<string, ImportBinding>;
  /** Top-level `const`/`let`/`var`/function/class names → what they hold. */
  locals: Map<string, Ref>;
  /** Exported name → what it is (ES exports and CommonJS `exports.x` / `module.exports`). */
  exports: Map<string, Ref>;
  /** `export * from "..."` sources. */
  starExports: string[];
  specs: ResourceSpecFact[];
  declarations: DeclarationFact[];
  collections: CollectionFact[];
  opRefs: OpRefFact[];
  secretCalls: SecretCallFact[];
  workflows: WorkflowFact[];
  config?: ConfigFact;
}

/** `data.<a>.<b>`, `<a>` and `<b>` identifiers: letters (any script's), digits, `_`, `$` (A8). */
const OP_ID = /^data\.([\p{L}\p{Nd}_$]+)\.([\p{L}\p{Nd}_$]+)$/u;

export function parseOpId(text: string): { collection: string; op: string } | undefined {
  const m = OP_ID.exec(text);
  return m ? { collection: m[1], op: m[2] } : undefined;
}

/**
 * `parseOpId`, its answer held once for each text (frozen, its names interned: `intern.ts`): a
 * company's files name the same few hundred op ids thousands of times, and facts keep the names.
 * Forgets everything past `OP_IDS_HELD` texts, as `intern` does.
 */
export function heldOpId(text: string): Readonly<{ collection: string; op: string }> | undefined {
  const held = opIds.get(text);
  if (held !== undefined) return held ?? undefined;
  if (opIds.size >= OP_IDS_HELD) opIds = new Map();
  const op = parseOpId(text);
  const made = op ? Object.freeze({ collection: intern(op.collection), op: intern(op.op) }) : null;
  opIds.set(intern(text), made);
  return made ?? undefined;
}

const OP_IDS_HELD = 50_000;
let opIds = new Map<string, Readonly<{ collection: string; op: string }> | null>();
