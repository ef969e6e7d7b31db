/**
 * One file's text → its facts: imports, exports, resource declarations, resource type specs,
 * collections, operation references, secret calls, the config's secret bindings, workflows.
 * The main user of the TypeScript parser (`cursor.ts` reads a cursor's place with it, `lockfile.ts`
 * places lockfile problems with its JSON reader). The syntax tree is dropped as soon as
 * the facts are read: the index keeps facts, never trees (a 10,000-file company stays small).
 * Broken code is not an error: a file with syntax errors yields what can still be read plus the
 * count of errors.
 */
import ts from "typescript";
import { LineMap } from "./text.ts";
import { hasBackslash, scannable, scanText, type Span, type TextSite, type TextString } from "./scan.ts";
import type { Range } from "./types.ts";

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

/** Where a name of this module comes from, as far as it can be told without running it. */
export type Ref =
  | { kind: "local"; name: string }
  | { kind: "import"; source: string; imported: string }
  | { kind: "member"; base: Ref; member: string }
  | { kind: "spec"; spec: number }
  /** `spreads`: what `...x` spreads into it; `open`: a computed key makes more members than `props` possible. */
  | { kind: "object"; props: Map<string, Ref>; spreads?: Ref[]; open?: boolean }
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

export interface DesiredKey { name: string; range: Range }

export interface DeclarationFact {
  exportName: string;
  nameRange: Range;
  /**
   * The callee as written: `machine`, `fly.machine`, or `ns.fly.machine` (`via`: the members
   * between the base and the last one, `["fly"]`). Parentheses and `x["machine"]` read alike.
   */
  callee: { base: string; member?: string; range: Range; memberRange?: Range; via?: string[] };
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
  bindings: Map<string, { source: string; imported: string; typeOnly: boolean }>;
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

import { isFrameworkModule } from "./company.ts";
export { isFrameworkModule };

/**
 * What only a syntax tree says of a file beyond its import sites and its string literals: a
 * resource spec needs a call of `defineResource`, a collection or a secret call a local bound to
 * `collection` or `secret`. A text without these words holds none of them.
 */
const BEYOND_TEXT = /defineResource|secret|collection/;

/**
 * A file's facts, read without a syntax tree where its text allows (the index reads most files of
 * a big company this way, and parsing is most of its cost). When the text holds no word of
 * `BEYOND_TEXT`, what the rules read of it at once is its import sites and its operation
 * references, and the text scanner (`scan.ts`, exact or refusing) reads both: the sites, and the
 * string literals starting with `data.` that are no import's specifier. It holds no specs,
 * collections or secret calls. Everything else (exports, locals, declarations, workflows, syntax
 * errors) is read from the syntax tree the first time it is asked for, which the resolver,
 * navigation and symbols do for a few files only. `test/rules/light-facts.test.ts` holds both
 * readings to the same facts.
 */
export function readFactsLightly(fileName: string, text: string): FileFacts {
  // The whole text is tokenized, not just its imports: an unbalanced bracket or an unterminated
  // literal anywhere (a file being typed) makes the scanner refuse, and the parser's recovery
  // reads the file, as before.
  if (scannable(fileName) && !BEYOND_TEXT.test(text)) {
    const scanned = scanText(text, "data.");
    if (scanned !== undefined) return new LightFacts(fileName, text, scanned.sites, scanned.strings);
  }
  return readFacts(fileName, text);
}

/**
 * Whether the facts only a syntax tree gives (exports, declarations, workflows, …) are read yet:
 * false for a file read lightly whose tree nothing has asked for. (The server reads the workflows
 * of such files ahead of a symbol search, and says how many it read.)
 */
export function treeRead(facts: FileFacts): boolean {
  return !(facts instanceof LightFacts) || facts.treeRead;
}

/**
 * The text of a file read without a syntax tree whose syntax is not known yet (nothing has parsed
 * it), or undefined: what a caller can parse elsewhere (another thread) and tell the facts with
 * `knowSyntax`, so that no later question parses it here.
 */
export function textAwaitingSyntax(facts: FileFacts): string | undefined {
  return facts instanceof LightFacts && !facts.syntaxKnown ? facts.pendingText : undefined;
}

/** Tells facts read without a syntax tree whether their text parses (see `textAwaitingSyntax`); other facts know it already. */
export function knowSyntax(facts: FileFacts, verdict: SyntaxVerdict): void {
  if (facts instanceof LightFacts) facts.knowSyntax(verdict);
}

/** Shared by every light file: frozen, so that a push into it would fail loudly. */
const NONE = Object.freeze([]) as unknown as never[];

class LightFacts implements FileFacts {
  readonly imports: ImportFact[];
  readonly specs: ResourceSpecFact[] = NONE;
  readonly collections: CollectionFact[] = NONE;
  readonly opRefs: OpRefFact[] = NONE;
  readonly secretCalls: SecretCallFact[] = NONE;
  private text: string | undefined;
  private tree: FileFacts | undefined;
  private verdict: SyntaxVerdict | undefined;

  /** `strings`: the text's string literals starting with `data.`, in order. */
  constructor(private readonly fileName: string, text: string, sites: TextSite[], strings: TextString[]) {
    const lines = new LineMap(text);
    const range = (s: Span): Range => lines.range(s.range[0], s.range[1]);
    this.imports = sites.map((site) => ({ specifier: site.specifier, range: range(site.specifierRange), names: site.names.map((n) => ({ imported: n.imported, range: range(n.range) })) }));
    if (strings.length > 0) {
      const specifiers = new Set(sites.map((site) => site.specifierRange.range[0]));
      const opRefs: OpRefFact[] = [];
      for (const s of strings) {
        const op = specifiers.has(s.range[0]) ? undefined : parseOpId(s.value);
        if (op) opRefs.push({ collection: op.collection, op: op.op, range: lines.range(s.range[0], s.range[1]) });
      }
      if (opRefs.length > 0) this.opRefs = opRefs;
    }
    this.text = text;
  }

  get treeRead(): boolean {
    return this.tree !== undefined;
  }

  /** The facts read from the syntax tree, once; the text is let go then. */
  private full(): FileFacts {
    if (this.tree === undefined) {
      this.tree = readFacts(this.fileName, this.text!);
      this.text = undefined;
    }
    return this.tree;
  }

  /**
   * Whether the text parses, known without a syntax tree kept: told (`knowSyntax`, from a parse
   * made elsewhere: another thread, another host's tree), read from the tree once it is read, or
   * parsed for this alone (the tree dropped at once: the file stays light).
   */
  private syntax(): SyntaxVerdict {
    if (this.verdict === undefined) this.verdict = this.tree ? { errors: this.tree.syntaxErrors, first: this.tree.firstSyntaxError } : syntaxVerdict(this.fileName, this.text!);
    return this.verdict;
  }

  /** Whether `syntax()` would parse. */
  get syntaxKnown(): boolean {
    return this.verdict !== undefined || this.tree !== undefined;
  }

  /** Takes a verdict on this text's syntax computed elsewhere (the same text: the caller's to know). */
  knowSyntax(verdict: SyntaxVerdict): void {
    if (!this.syntaxKnown) this.verdict = verdict;
  }

  /** The text, while the tree is not read (after, it is let go). */
  get pendingText(): string | undefined {
    return this.text;
  }

  get syntaxErrors(): number { return this.syntax().errors; }
  get firstSyntaxError(): FileFacts["firstSyntaxError"] { return this.syntax().first; }
  get bindings(): FileFacts["bindings"] { return this.full().bindings; }
  get locals(): FileFacts["locals"] { return this.full().locals; }
  get exports(): FileFacts["exports"] { return this.full().exports; }
  get starExports(): string[] { return this.full().starExports; }
  get declarations(): DeclarationFact[] { return this.full().declarations; }
  get workflows(): WorkflowFact[] { return this.full().workflows; }
  get config(): ConfigFact | undefined { return this.full().config; }
}

/** `(("x"))` → `"x"`: Node loads the module either way, and ESTree (the lint plugin's hosts) keeps no parentheses. */
function withoutParentheses(node: ts.Expression | undefined): ts.Expression | undefined {
  while (node && ts.isParenthesizedExpression(node)) node = node.expression;
  return node;
}

/** The start of the identifier that holds the `\u` at `at` (`re\u0071uire` → the `r`). */
function identifierStart(text: string, at: number): number {
  let i = at;
  while (i > 0 && /[\w$\\]/.test(text[i - 1])) i--;
  return i;
}

/**
 * Where calls that matter may start: `require(`, `import(`, `defineResource(`, and any `\u` (an
 * escaped `require`). A match is only where to look: the syntax tree decides, so `import`
 * followed by a comment, `...require(` and `x.require` (no call of `require`) are all looked at.
 * (`x.defineResource` is looked at by its own loop.)
 */
const CALL_PATTERN = /(?<![\w$.])defineResource(?![\w$])|(?<![\w$])(?:require|import)(?![\w$])|\\u/g;

/**
 * Whether a string literal names a module where it stands: an import's or export's specifier (at
 * any depth: inside `declare module "m" { }` too), `import x = require("m")`'s, an import type's,
 * an ambient module's name. (The calls `import("m")` and `require("m")` are import sites.)
 */
export function isModuleName(node: ts.Node, parent: ts.Node | undefined, grandparent: ts.Node | undefined): boolean {
  if (!parent) return false;
  return ((ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent)) && parent.moduleSpecifier === node)
    || ts.isExternalModuleReference(parent)
    || (ts.isLiteralTypeNode(parent) && grandparent !== undefined && ts.isImportTypeNode(grandparent))
    || (ts.isModuleDeclaration(parent) && parent.name === node);
}

/** `data.<a>.<b>`, `<a>` and `<b>` identifiers: letters (any script's), digits, `_`, `$` (A8). */
const OP_ID = /^data\.([\p{L}\p{Nd}_$]+)\.([\p{L}\p{Nd}_$]+)$/u;

export function parseOpId(text: string): { collection: string; op: string } | undefined {
  const m = OP_ID.exec(text);
  return m ? { collection: m[1], op: m[2] } : undefined;
}

export function scriptKind(fileName: string): ts.ScriptKind {
  if (fileName.endsWith(".tsx")) return ts.ScriptKind.TSX;
  if (fileName.endsWith(".jsx")) return ts.ScriptKind.JSX;
  if (/\.[cm]?js$/.test(fileName)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

interface Options { isConfig?: boolean }

/** What a file nested too deeply to parse is read as: nothing, not even whether it parses (`unread` says why). */
export const TOO_DEEP = "nested too deeply to be read (the parser ran out of stack)";

const PARSE_OPTIONS: ts.CreateSourceFileOptions = { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone };

/** The parser's syntax errors of a source file: how many, and the first. */
function verdictOf(sf: ts.SourceFile, lines: LineMap): SyntaxVerdict {
  const parseDiagnostics: readonly ts.DiagnosticWithLocation[] = (sf as unknown as { parseDiagnostics?: ts.DiagnosticWithLocation[] }).parseDiagnostics ?? [];
  if (parseDiagnostics.length === 0) return { errors: 0 };
  const d = parseDiagnostics[0];
  return { errors: parseDiagnostics.length, first: { message: ts.flattenDiagnosticMessageText(d.messageText, "\n"), range: lines.range(d.start, d.start + (d.length || 0)) } };
}

/**
 * Whether a text nested deeper than the parser's stack parses is not known: no error is claimed
 * (a runtime with a deeper stack may load it), as nothing else is read of it.
 */
const TOO_DEEP_VERDICT: SyntaxVerdict = Object.freeze({ errors: 0 });

/**
 * Whether a text parses (the same verdict as its facts' `syntaxErrors` and `firstSyntaxError`),
 * the tree dropped at once. Never throws on bad code.
 */
export function syntaxVerdict(fileName: string, text: string): SyntaxVerdict {
  try {
    return verdictOf(ts.createSourceFile(fileName, text, PARSE_OPTIONS, false, scriptKind(fileName)), new LineMap(text));
  } catch (e) {
    if (!(e instanceof RangeError && /call stack/i.test(e.message))) throw e;
    return TOO_DEEP_VERDICT;
  }
}

/**
 * Reads a file's facts. Never throws on bad code: a text nested deeper than the parser's stack
 * (`((((…1…))))` a thousand deep) is read as holding nothing, with `unread` saying why.
 */
export function readFacts(fileName: string, text: string, options: Options = {}): FileFacts {
  try {
    return readTreeFacts(fileName, text, options);
  } catch (e) {
    if (!(e instanceof RangeError && /call stack/i.test(e.message))) throw e;
    return {
      unread: TOO_DEEP, syntaxErrors: TOO_DEEP_VERDICT.errors,
      imports: [], bindings: new Map(), locals: new Map(), exports: new Map(), starExports: [], specs: [],
      declarations: [], collections: [], opRefs: [], secretCalls: [], workflows: [],
    };
  }
}

function readTreeFacts(fileName: string, text: string, options: Options): FileFacts {
  // JSDoc is never read: skipping it makes parsing cheaper.
  const sf = ts.createSourceFile(fileName, text, PARSE_OPTIONS, false, scriptKind(fileName));
  const lines = new LineMap(text);
  const r = (node: ts.Node): Range => lines.range(node.getStart(sf), node.end);
  const facts: FileFacts = {
    syntaxErrors: 0, imports: [], bindings: new Map(), locals: new Map(), exports: new Map(), starExports: [], specs: [],
    declarations: [], collections: [], opRefs: [], secretCalls: [], workflows: [],
  };
  const verdict = verdictOf(sf, lines);
  facts.syntaxErrors = verdict.errors;
  if (verdict.first) facts.firstSyntaxError = verdict.first;
  const specifierNodes = new Set<ts.Node>();
  /** The file's top-level consts by name, with their statement (built on first use). */
  let topConsts: Map<string, { init: ts.Expression; statement: ts.VariableStatement; exported: boolean }> | undefined;
  const constsByName = () => {
    if (topConsts === undefined) {
      topConsts = new Map();
      for (const st of sf.statements) {
        if (!ts.isVariableStatement(st) || !(st.declarationList.flags & ts.NodeFlags.Const)) continue;
        const exported = hasModifier(st, ts.SyntaxKind.ExportKeyword);
        for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name) && d.initializer) topConsts.set(d.name.text, { init: d.initializer, statement: st, exported });
      }
    }
    return topConsts;
  };
  /** `export { a, b as c }` (no `from`) of a top-level const that is not exported itself: its const and the exported name. */
  const constsExportedByName = (): { local: { init: ts.Expression; statement: ts.VariableStatement }; exported: ts.Identifier }[] => {
    const out: { local: { init: ts.Expression; statement: ts.VariableStatement }; exported: ts.Identifier }[] = [];
    for (const st of sf.statements) {
      if (!ts.isExportDeclaration(st) || st.moduleSpecifier || st.isTypeOnly || !st.exportClause || !ts.isNamedExports(st.exportClause)) continue;
      for (const el of st.exportClause.elements) {
        const local = constsByName().get((el.propertyName ?? el.name).text);
        if (local && !local.exported && ts.isIdentifier(el.name) && !el.isTypeOnly) out.push({ local, exported: el.name });
      }
    }
    return out;
  };
  const nameText = (n: ts.PropertyName | ts.ModuleExportName): string | undefined =>
    ts.isIdentifier(n) || ts.isStringLiteral(n) || ts.isNumericLiteral(n) || ts.isPrivateIdentifier(n) ? n.text : undefined;

  // ---- Imports, exports and top-level bindings -------------------------------------------------
  const addImport = (spec: ts.StringLiteralLike, names: ImportedName[]) => {
    specifierNodes.add(spec);
    facts.imports.push({ specifier: spec.text, range: r(spec), names });
  };

  /** What an expression holds, as a Ref. */
  const refOf = (e: ts.Expression): Ref => {
    while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isNonNullExpression(e) || ts.isTypeAssertionExpression(e)) e = e.expression;
    if (ts.isIdentifier(e)) return { kind: "local", name: e.text };
    if (ts.isPropertyAccessExpression(e)) return { kind: "member", base: refOf(e.expression), member: e.name.text };
    if (ts.isCallExpression(e)) {
      const spec = specOfCall(e);
      if (spec !== undefined) return { kind: "spec", spec };
      const req = requireSpecifier(e);
      if (req !== undefined) return { kind: "import", source: req, imported: "*" };
      return { kind: "other" };
    }
    if (ts.isObjectLiteralExpression(e)) {
      const props = new Map<string, Ref>();
      const spreads: Ref[] = [];
      let open = false;
      for (const p of e.properties) {
        if (ts.isPropertyAssignment(p)) { const k = nameText(p.name); if (k !== undefined) props.set(k, refOf(p.initializer)); else open = true; }
        else if (ts.isShorthandPropertyAssignment(p)) props.set(p.name.text, { kind: "local", name: p.name.text });
        else if (ts.isSpreadAssignment(p)) spreads.push(refOf(p.expression));
        else if (p.name && nameText(p.name) !== undefined) props.set(nameText(p.name)!, { kind: "other" }); // a method or an accessor
        else open = true;
      }
      return { kind: "object", props, ...(spreads.length > 0 ? { spreads } : {}), ...(open ? { open } : {}) };
    }
    return { kind: "other" };
  };

  const requireSpecifier = (call: ts.CallExpression): string | undefined =>
    ts.isIdentifier(call.expression) && call.expression.text === "require" && call.arguments.length === 1 && ts.isStringLiteralLike(call.arguments[0])
      ? call.arguments[0].text : undefined;

  const isDefineResourceCallee = (e: ts.Expression): boolean => {
    e = unwrap(e);
    // `(0, workflows_1.defineResource)(…)`: how tsc compiles a call of an import to CommonJS.
    if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.CommaToken) e = unwrap(e.right);
    if (ts.isPropertyAccessExpression(e)) return e.name.text === "defineResource";
    if (!ts.isIdentifier(e)) return false;
    if (e.text === "defineResource") return true;
    // `import { defineResource as define } from "@sanoma-ai/workflows"`
    const b = facts.bindings.get(e.text);
    return b !== undefined && b.imported === "defineResource" && isFrameworkModule(b.source);
  };

  const specIndex = new Map<ts.Node, number>();
  const specOfCall = (call: ts.CallExpression): number | undefined => {
    if (!isDefineResourceCallee(call.expression)) return undefined;
    const known = specIndex.get(call);
    if (known !== undefined) return known;
    const arg = call.arguments[0] && unwrap(call.arguments[0]);
    const spec: ResourceSpecFact = { range: r(call) };
    if (arg && ts.isObjectLiteralExpression(arg)) {
      for (const p of arg.properties) {
        if (!ts.isPropertyAssignment(p) && !ts.isShorthandPropertyAssignment(p)) continue;
        const key = nameText(p.name);
        if (key === undefined) continue;
        const value = ts.isPropertyAssignment(p) ? p.initializer : undefined;
        // A flag held in a top-level const (`sandbox: spec`, `{ sandbox }`) is read as its value.
        const flag = (): SpecFlag => {
          const held = throughConsts(value === undefined ? (p.name as ts.Identifier) : unwrap(value));
          return { value: held === undefined ? "unknown" : literalTruth(held), keyRange: r(p.name) };
        };
        switch (key) {
          case "vendor": case "type": case "title":
            if (value && ts.isStringLiteralLike(value)) spec[key] = value.text;
            break;
          case "writable": case "stateless": case "vendorless": case "database": case "wakeup": case "sandbox":
            spec[key] = flag();
            break;
          case "host":
            spec.host = flag();
            if (value && ts.isObjectLiteralExpression(value)) {
              for (const hp of value.properties) {
                if (ts.isPropertyAssignment(hp) && nameText(hp.name) === "source" && ts.isStringLiteralLike(hp.initializer)) spec.hostSource = hp.initializer.text;
              }
            }
            break;
          case "schema":
            if (value) readSchema(value, spec);
            break;
        }
      }
    }
    const index = facts.specs.push(spec) - 1;
    specIndex.set(call, index);
    return index;
  };

  const bindLocal = (name: string, ref: Ref) => { facts.locals.set(name, ref); };

  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteralLike(st.moduleSpecifier)) {
      const source = st.moduleSpecifier.text;
      const clause = st.importClause;
      const names: ImportedName[] = [];
      const typeOnly = !!clause?.isTypeOnly;
      const bind = (local: string, imported: string, range: Range, elementTypeOnly: boolean) => {
        names.push({ imported, range });
        facts.bindings.set(local, { source, imported, typeOnly: typeOnly || elementTypeOnly });
      };
      if (clause?.name) bind(clause.name.text, "default", r(clause.name), false);
      const nb = clause?.namedBindings;
      if (nb && ts.isNamespaceImport(nb)) bind(nb.name.text, "*", r(nb.name), false);
      if (nb && ts.isNamedImports(nb)) {
        for (const el of nb.elements) {
          const imported = el.propertyName ? nameText(el.propertyName) ?? el.name.text : el.name.text;
          bind(el.name.text, imported, r(el.propertyName ?? el.name), el.isTypeOnly);
        }
      }
      addImport(st.moduleSpecifier, names);
      continue;
    }
    if (ts.isExportDeclaration(st)) {
      const source = st.moduleSpecifier && ts.isStringLiteralLike(st.moduleSpecifier) ? st.moduleSpecifier.text : undefined;
      const names: ImportedName[] = [];
      if (st.exportClause && ts.isNamedExports(st.exportClause)) {
        for (const el of st.exportClause.elements) {
          const local = el.propertyName ? nameText(el.propertyName) ?? el.name.getText(sf) : nameText(el.name) ?? "";
          const exported = nameText(el.name) ?? local;
          names.push({ imported: local, range: r(el.propertyName ?? el.name) });
          facts.exports.set(exported, source !== undefined ? { kind: "import", source, imported: local } : { kind: "local", name: local });
        }
      } else if (st.exportClause && ts.isNamespaceExport(st.exportClause) && source !== undefined) {
        const exported = nameText(st.exportClause.name) ?? "";
        names.push({ imported: "*", range: r(st.exportClause.name) });
        facts.exports.set(exported, { kind: "import", source, imported: "*" });
      } else if (!st.exportClause && source !== undefined) {
        facts.starExports.push(source);
        names.push({ imported: "*", range: r(st) });
      }
      if (source !== undefined) addImport(st.moduleSpecifier as ts.StringLiteral, names);
      continue;
    }
    if (ts.isImportEqualsDeclaration(st)) {
      const ref = st.moduleReference;
      if (ts.isExternalModuleReference(ref) && ts.isStringLiteralLike(ref.expression)) {
        facts.bindings.set(st.name.text, { source: ref.expression.text, imported: "*", typeOnly: st.isTypeOnly });
        addImport(ref.expression, [{ imported: "*", range: r(st.name) }]);
      }
      continue;
    }
    const exported = hasModifier(st, ts.SyntaxKind.ExportKeyword);
    const isDefault = hasModifier(st, ts.SyntaxKind.DefaultKeyword);
    if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) {
        if (ts.isIdentifier(d.name)) {
          const ref = d.initializer ? refOf(d.initializer) : { kind: "other" as const };
          bindLocal(d.name.text, ref);
          if (exported) facts.exports.set(d.name.text, { kind: "local", name: d.name.text });
          if (d.initializer && ts.isCallExpression(unwrap(d.initializer))) {
            const req = requireSpecifier(unwrap(d.initializer) as ts.CallExpression);
            if (req !== undefined) facts.bindings.set(d.name.text, { source: req, imported: "*", typeOnly: false });
          }
          // A declaration is an exported *const* (A5): `export let web = vm(…)` declares nothing.
          if (exported && d.initializer && st.declarationList.flags & ts.NodeFlags.Const) readDeclaration(d.name, d.initializer, st);
        } else if (ts.isObjectBindingPattern(d.name) && d.initializer && ts.isCallExpression(unwrap(d.initializer))) {
          // const { defineResource, x: y } = require("...")
          const req = requireSpecifier(unwrap(d.initializer) as ts.CallExpression);
          if (req !== undefined) {
            for (const el of d.name.elements) {
              if (!ts.isIdentifier(el.name)) continue;
              const imported = el.propertyName ? nameText(el.propertyName) ?? el.name.text : el.name.text;
              facts.bindings.set(el.name.text, { source: req, imported, typeOnly: false });
            }
          }
        }
      }
      continue;
    }
    if (ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) {
      if (st.name) bindLocal(st.name.text, { kind: "other" });
      if (exported) {
        const name = isDefault ? "default" : st.name?.text;
        if (name) facts.exports.set(name, { kind: "other" });
        if (ts.isFunctionDeclaration(st) && (st.name || isDefault)) facts.workflows.push({ name: name!, range: r(st.name ?? st), declaration: r(st) });
      }
      continue;
    }
    if (ts.isExportAssignment(st)) {
      facts.exports.set(st.isExportEquals ? "module.exports" : "default", refOf(st.expression));
      if (options.isConfig && !st.isExportEquals) facts.config = readConfig(st.expression);
      continue;
    }
    if (ts.isExpressionStatement(st) && ts.isBinaryExpression(st.expression) && st.expression.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
      // CommonJS: exports.x = ..., module.exports.x = ..., module.exports = { ... }
      const { left, right } = st.expression;
      if (ts.isPropertyAccessExpression(left)) {
        const target = left.expression;
        const isExports = ts.isIdentifier(target) && target.text === "exports";
        const isModuleExports = ts.isPropertyAccessExpression(target) && ts.isIdentifier(target.expression) && target.expression.text === "module" && target.name.text === "exports";
        if (isExports || isModuleExports) facts.exports.set(left.name.text, refOf(right));
        else if (ts.isIdentifier(target) && target.text === "module" && left.name.text === "exports") {
          const ref = refOf(right);
          if (ref.kind === "object") for (const [k, v] of ref.props) facts.exports.set(k, v);
          else facts.exports.set("module.exports", ref);
        }
      }
    }
  }

  function readDeclaration(name: ts.Identifier, init: ts.Expression, statement: ts.Node) {
    const call = unwrap(init);
    if (!ts.isCallExpression(call)) return;
    const callee = call.expression;
    // From the last member back to the identifier the chain starts with.
    const members: { name: string; range: Range }[] = [];
    let cur = unwrap(callee);
    for (;;) {
      if (ts.isPropertyAccessExpression(cur) && ts.isIdentifier(cur.name)) members.push({ name: cur.name.text, range: r(cur.name) });
      else if (ts.isElementAccessExpression(cur) && ts.isStringLiteralLike(cur.argumentExpression)) members.push({ name: cur.argumentExpression.text, range: r(cur.argumentExpression) });
      else break;
      cur = unwrap(cur.expression);
    }
    if (!ts.isIdentifier(cur)) return;
    const base = cur.text;
    const member = members[0]?.name, memberRange = members[0]?.range;
    const via = members.length > 1 ? members.slice(1).reverse().map((m) => m.name) : undefined;
    // (`{ … } as const`, `({ … })`, `{ … } satisfies T`: the same desired object.)
    const first = call.arguments[0] && unwrap(call.arguments[0]);
    let desired: DeclarationFact["desired"];
    if (first && ts.isObjectLiteralExpression(first)) {
      const keys: DesiredKey[] = [];
      let hasSpread = false;
      for (const p of first.properties) {
        if (ts.isSpreadAssignment(p)) { hasSpread = true; continue; }
        if (!p.name) continue;
        const key = nameText(p.name);
        if (key === undefined) { hasSpread = true; continue; } // a computed key: fields cannot be checked
        keys.push({ name: key, range: r(p.name) });
      }
      desired = { keys, hasSpread, range: r(first) };
    } else if (call.arguments.length === 0) {
      desired = { keys: [], hasSpread: false, range: r(call) }; // `vm()`: every required field is missing
    }
    facts.declarations.push({ exportName: name.text, nameRange: r(name), callee: { base, member, range: r(callee), memberRange, via }, desired, range: r(statement) });
  }

  function readSchema(value: ts.Expression, spec: ResourceSpecFact) {
    const e = unwrap(value);
    if (!ts.isCallExpression(e) || !ts.isPropertyAccessExpression(e.expression)) return;
    const method = e.expression.name.text;
    if (method !== "object" && method !== "strictObject") return;
    const shape = e.arguments[0] && unwrap(e.arguments[0]);
    if (!shape || !ts.isObjectLiteralExpression(shape)) return;
    // No prototype: a field may be named `constructor` or `__proto__`.
    const fields: Record<string, boolean> = Object.create(null);
    for (const p of shape.properties) {
      if (ts.isSpreadAssignment(p)) return; // spreads make the field list unknowable
      if (!p.name) continue;
      const key = nameText(p.name);
      if (key === undefined) return;
      fields[key] = ts.isPropertyAssignment(p) ? chainIsOptional(p.initializer) : false;
    }
    spec.fields = fields;
    spec.strict = method === "strictObject";
  }

  /**
   * A top-level `const`'s value, for an identifier that names one (followed a few times, so
   * `const bindings = {…}; const config = defineConfig({ secrets: { bindings } }); export default config`
   * reads as the literal would); anything else as it is.
   */
  function throughConsts(e: ts.Expression | undefined): ts.Expression | undefined {
    for (let hops = 0; e !== undefined && ts.isIdentifier(e) && hops < 8; hops++) {
      const init = constsByName().get(e.text)?.init;
      if (init === undefined) break;
      e = unwrap(init);
    }
    return e;
  }

  function readConfig(e: ts.Expression): ConfigFact {
    const config: ConfigFact = {};
    let obj = throughConsts(unwrap(e))!;
    if (ts.isCallExpression(obj) && obj.arguments[0]) obj = throughConsts(unwrap(obj.arguments[0]))!;
    if (!ts.isObjectLiteralExpression(obj)) return { secretBindings: null };
    const nameProp = throughConsts(prop(obj, "name"));
    if (nameProp && ts.isStringLiteralLike(nameProp)) config.name = nameProp.text;
    const secrets = throughConsts(prop(obj, "secrets"));
    if (secrets === undefined) return config;
    if (!ts.isObjectLiteralExpression(secrets)) { config.secretBindings = null; return config; }
    const bindings = throughConsts(prop(secrets, "bindings"));
    if (bindings === undefined) return config;
    if (!ts.isObjectLiteralExpression(bindings)) { config.secretBindings = null; return config; }
    config.secretBindings = [];
    for (const p of bindings.properties) {
      // A spread may bind any name, and override what precedes it: read on from there.
      if (ts.isSpreadAssignment(p)) { config.secretBindingsOpen = true; config.secretBindings = []; continue; }
      // `{ CLOUD_KEY }` binds CLOUD_KEY to the const of that name; `["KEY"]: …` binds KEY.
      let key: ts.PropertyName, value: ts.Expression | undefined;
      if (ts.isShorthandPropertyAssignment(p)) { key = p.name; value = throughConsts(p.name); }
      else if (ts.isPropertyAssignment(p)) { key = p.name; value = throughConsts(unwrap(p.initializer)); }
      else continue;
      const name = ts.isComputedPropertyName(key) ? (ts.isStringLiteralLike(unwrap(key.expression)) ? (unwrap(key.expression) as ts.StringLiteralLike).text : undefined) : nameText(key);
      // A computed name that cannot be read binds who knows what, as a spread does.
      if (name === undefined) { config.secretBindingsOpen = true; config.secretBindings = []; continue; }
      const b: SecretBindingFact = { name, nameRange: r(key) };
      const v = value;
      if (v !== undefined && ts.isObjectLiteralExpression(v)) {
        const env = throughConsts(prop(v, "env"));
        // (`env: undefined` or `env: null` gives no variable: no env.)
        if (env !== undefined && !(env.kind === ts.SyntaxKind.NullKeyword || (ts.isIdentifier(env) && env.text === "undefined") || ts.isVoidExpression(env))) {
          if (ts.isStringLiteralLike(env)) b.env = { value: env.text, range: r(env) };
          else b.envUnknown = true;
        }
        const bootstrap = prop(v, "bootstrap");
        if (bootstrap !== undefined) b.bootstrap = literalTruth(bootstrap) === true;
        const host = prop(v, "host");
        if (host !== undefined) b.host = literalTruth(host);
      } else {
        b.envUnknown = true;
      }
      // A name written twice is one binding, the last (as the object holds it).
      const twice = config.secretBindings.findIndex((x) => x.name === name);
      if (twice >= 0) config.secretBindings.splice(twice, 1);
      config.secretBindings.push(b);
    }
    return config;
  }

  // `const web = vm({…}); export { web }` (or `export { web as api }`) declares as `export const` does;
  // the same for a collection (below).
  const exportedByName = constsExportedByName();
  for (const { local, exported } of exportedByName) readDeclaration(exported, local.init, local.statement);

  // ---- The whole tree: calls, string literals, dynamic imports ---------------------------------
  const collectionLocals = new Set<string>();
  const secretLocals = new Set<string>();
  /** Namespaces of the framework's modules (`import * as d from "@sanoma-ai/workflows/data"`): `d.collection(…)`, `d.secret(…)`. */
  const frameworkNamespaces = new Set<string>();
  /** Namespaces of any module: `h.secret(…)` is `secret` taken from there (A7: "wherever `secret` was imported from"). */
  const namespaces = new Set<string>();
  for (const [local, b] of facts.bindings) {
    if (b.imported === "collection" && isFrameworkModule(b.source)) collectionLocals.add(local);
    if (b.imported === "secret") secretLocals.add(local);
    if (b.imported === "*") { namespaces.add(local); if (isFrameworkModule(b.source)) frameworkNamespaces.add(local); }
  }
  const exportedCollectionCalls = new Map<ts.Node, { name: ts.Identifier; statement: ts.Node }>();
  for (const st of sf.statements) {
    if (ts.isVariableStatement(st) && hasModifier(st, ts.SyntaxKind.ExportKeyword)) {
      for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name) && d.initializer) exportedCollectionCalls.set(unwrap(d.initializer), { name: d.name, statement: st });
    }
  }
  for (const { local, exported } of exportedByName) {
    const call = unwrap(local.init);
    if (!exportedCollectionCalls.has(call)) exportedCollectionCalls.set(call, { name: exported, statement: local.statement });
  }

  // Rather than visiting every node (as costly as parsing again), find the few places that can
  // matter by their text, then descend to the node at each: the deepest node containing an
  // offset, with its ancestors. Sibling ranges do not overlap, so the descent from any ancestor
  // that contains the offset is the descent from the root: the last chain's ancestors that still
  // contain the next offset are kept (the offsets of a scan come in order, often close together).
  // The chain is shared: a caller reads it before asking for the next one.
  const shared: ts.Node[] = [sf];
  let target = 0;
  const containsTarget = (c: ts.Node): ts.Node | undefined => (c.pos <= target && target < c.end ? c : undefined);
  const chainAt = (offset: number): ts.Node[] => {
    while (shared.length > 1) {
      const last = shared[shared.length - 1];
      if (last.pos <= offset && offset < last.end) break;
      shared.pop();
    }
    target = offset;
    for (let node = shared[shared.length - 1]; ;) {
      const next: ts.Node | undefined = ts.forEachChild(node, containsTarget);
      if (!next) return shared;
      shared.push(next);
      node = next;
    }
  };
  const startsAt = (node: ts.Node, offset: number) => node.getStart(sf) === offset;

  /** Calls and dynamic imports, by the identifier (or keyword) that starts their callee. */
  const callAt = (offset: number): void => {
    const chain = chainAt(offset);
    const node = chain[chain.length - 1];
    const parent = chain[chain.length - 2];
    if (node.kind === ts.SyntaxKind.ImportType) {
      const t = node as ts.ImportTypeNode;
      if (ts.isLiteralTypeNode(t.argument) && ts.isStringLiteral(t.argument.literal) && !specifierNodes.has(t.argument.literal)) {
        addImport(t.argument.literal, [{ imported: "*", range: r(t.argument.literal) }]);
      }
      return;
    }
    if (!parent || !startsAt(node, offset)) return;
    if (node.kind === ts.SyntaxKind.ImportKeyword && ts.isCallExpression(parent) && parent.expression === node) {
      const a = withoutParentheses(parent.arguments[0]);
      if (a && ts.isStringLiteralLike(a) && !specifierNodes.has(a)) addImport(a, [{ imported: "*", range: r(a) }]);
      return;
    }
    if (!ts.isIdentifier(node)) return;
    const name = node.text;
    if (ts.isCallExpression(parent) && parent.expression === node) {
      if (name === "require") {
        const a = withoutParentheses(parent.arguments[0]);
        if (parent.arguments.length === 1 && a && ts.isStringLiteralLike(a) && !specifierNodes.has(a)) addImport(a, requiredNames(chain) ?? [{ imported: "*", range: r(a) }]);
      } else if (collectionLocals.has(name) && !shadowed(chain, name)) readCollection(parent);
      else if (secretLocals.has(name) && !shadowed(chain, name)) secretCall(parent);
      else if (name === "defineResource") specOfCall(parent);
    } else if (ts.isPropertyAccessExpression(parent) && parent.name === node) {
      const call = chain[chain.length - 3];
      if (!call || !ts.isCallExpression(call) || call.expression !== parent) return;
      if (name === "defineResource") specOfCall(call);
      else if (ts.isIdentifier(parent.expression) && namespaces.has(parent.expression.text) && !shadowed(chain, parent.expression.text)) {
        if (name === "collection" && frameworkNamespaces.has(parent.expression.text)) readCollection(call);
        else if (name === "secret") secretCall(call);
      }
    }
  };

  /**
   * `const { secret, x: y } = require("m")`: the names the declaration takes, at their keys (a rest
   * element or a computed key takes `*` there), as an import clause's; undefined for any other use
   * of the call. The declaration's whole initializer must be the call (parentheses aside: ESTree
   * keeps none), as `sites.ts` reads it.
   */
  const requiredNames = (chain: ts.Node[]): ImportedName[] | undefined => {
    // (The tree has no parent links: `chain` ends with `require` and its call.)
    const call = chain[chain.length - 2];
    let i = chain.length - 3;
    while (i >= 0 && ts.isParenthesizedExpression(chain[i])) i--;
    const up = chain[i];
    if (!up || !ts.isVariableDeclaration(up) || !ts.isObjectBindingPattern(up.name) || up.initializer === undefined || withoutParentheses(up.initializer) !== call) return undefined;
    return up.name.elements.map((e): ImportedName => {
      if (e.dotDotDotToken) return { imported: "*", range: r(e.name) };
      const key = e.propertyName ?? e.name;
      if (ts.isComputedPropertyName(key)) return { imported: "*", range: r(key.expression) }; // (ESTree's key: no brackets)
      const text = ts.isIdentifier(key) || ts.isStringLiteral(key) || ts.isNumericLiteral(key) ? key.text : undefined;
      return { imported: text ?? "*", range: r(key) };
    });
  };

  const secretCall = (call: ts.CallExpression): void => {
    const a = call.arguments[0];
    if (a && ts.isStringLiteralLike(a)) facts.secretCalls.push({ name: a.text, range: r(a) });
  };

  /**
   * Whether `name` at the end of `chain` names something declared inside the file (a parameter,
   * a local `const`, a function) rather than the top-level import: `(secret) => secret("x")`.
   */
  const shadowed = (chain: ts.Node[], name: string): boolean => {
    const declares = (n: ts.BindingName | undefined): boolean =>
      n !== undefined && (ts.isIdentifier(n) ? n.text === name : n.elements.some((e) => !ts.isOmittedExpression(e) && declares(e.name)));
    const inStatements = (statements: readonly ts.Statement[]): boolean => statements.some((st) =>
      (ts.isVariableStatement(st) && st.declarationList.declarations.some((d) => declares(d.name))) ||
      ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st)) && st.name?.text === name));
    for (let i = chain.length - 2; i >= 1; i--) {
      const n = chain[i];
      if (ts.isFunctionLike(n) && (n.parameters.some((p) => declares(p.name)) || (ts.isFunctionExpression(n) && n.name?.text === name))) return true;
      if ((ts.isBlock(n) || ts.isModuleBlock(n) || ts.isCaseClause(n) || ts.isDefaultClause(n)) && inStatements(n.statements)) return true;
      if ((ts.isForStatement(n) || ts.isForOfStatement(n) || ts.isForInStatement(n)) && n.initializer && ts.isVariableDeclarationList(n.initializer) && n.initializer.declarations.some((d) => declares(d.name))) return true;
      if (ts.isCatchClause(n) && declares(n.variableDeclaration?.name)) return true;
    }
    return false;
  };

  /** A string literal that starts with `data.` at `offset - 1` (its quote). */
  const opRefAt = (offset: number): void => {
    const chain = chainAt(offset);
    const node = chain[chain.length - 1];
    if ((node.kind !== ts.SyntaxKind.StringLiteral && node.kind !== ts.SyntaxKind.NoSubstitutionTemplateLiteral) || !startsAt(node, offset - 1) || specifierNodes.has(node)) return;
    // Module specifiers are no operation references (A8), nested in `declare module "m" { … }` too.
    if (isModuleName(node, chain[chain.length - 2], chain[chain.length - 3])) return;
    const op = parseOpId((node as ts.StringLiteralLike).text);
    if (op) facts.opRefs.push({ collection: op.collection, op: op.op, range: r(node) });
  };

  // Static imports were read above: only `import(` (a dynamic import or an import type) is looked for.
  const callNames = ["defineResource", ...collectionLocals, ...secretLocals];
  const callPattern = collectionLocals.size || secretLocals.size
    ? new RegExp(`(?<![\\w$.])(?:${callNames.map((n) => n.replace(/\$/g, "\\$")).join("|")})(?![\\w$])|(?<![\\w$])(?:require|import)(?![\\w$])|\\\\u`, "g")
    : CALL_PATTERN;
  callPattern.lastIndex = 0;
  let escaped = -1; // the last identifier looked at for a `\u` in it: one with two is looked at once
  for (let m = callPattern.exec(text); m; m = callPattern.exec(text)) {
    if (m[0] !== "\\u") { callAt(m.index); continue; }
    const start = identifierStart(text, m.index);
    if (start !== escaped) callAt((escaped = start));
  }
  // `x.defineResource(...)`: the member form; `d.collection(...)` on a framework namespace, `d.secret(...)` on any.
  for (let i = text.indexOf(".defineResource"); i >= 0; i = text.indexOf(".defineResource", i + 1)) callAt(i + 1);
  if (namespaces.size > 0) {
    for (const member of [".collection", ".secret"]) for (let i = text.indexOf(member); i >= 0; i = text.indexOf(member, i + 1)) callAt(i + 1);
  }
  for (let i = text.indexOf("data."); i >= 0; i = text.indexOf("data.", i + 5)) {
    const q = text.charCodeAt(i - 1);
    if (q === 34 || q === 39 || q === 96) opRefAt(i); // " ' `
  }
  // A string's text is its value (A8): `"\x64ata.orders.get"` is an operation reference too. The
  // strings written with an escape, which the search above cannot see, are read from the tree.
  if (text.includes("\\")) {
    const before = facts.opRefs.length;
    const visit = (node: ts.Node, parent: ts.Node | undefined, grandparent: ts.Node | undefined): void => {
      if (node.kind === ts.SyntaxKind.StringLiteral || node.kind === ts.SyntaxKind.NoSubstitutionTemplateLiteral) {
        const start = node.getStart(sf);
        if (text.startsWith("data.", start + 1) || !hasBackslash(text, start, node.end) || specifierNodes.has(node) || isModuleName(node, parent, grandparent)) return;
        const op = parseOpId((node as ts.StringLiteralLike).text);
        if (op) facts.opRefs.push({ collection: op.collection, op: op.op, range: r(node) });
        return;
      }
      ts.forEachChild(node, (child) => visit(child, node, parent));
    };
    visit(sf, undefined, undefined);
    // In the text's order, as the text scan gives them.
    if (facts.opRefs.length > before) facts.opRefs.sort((x, y) => x.range.start.line - y.range.start.line || x.range.start.character - y.range.start.character);
  }

  function readCollection(call: ts.CallExpression) {
    const exported = exportedCollectionCalls.get(call);
    const name = exported?.name;
    const c: CollectionFact = { callRange: r(call.expression), exported: !!name, exportName: name?.text, nameRange: name ? r(name) : undefined };
    if (exported) c.statementRange = r(exported.statement);
    const a = call.arguments[0] && unwrap(call.arguments[0]);
    if (a && ts.isObjectLiteralExpression(a)) {
      c.options = { range: r(a), ...(a.properties.length > 0 ? { first: r(a.properties[0]) } : {}) };
      const n = prop(a, "name");
      if (n && ts.isStringLiteralLike(n)) c.nameLiteral = { value: n.text, range: r(n) };
      else if (n) c.nameNotLiteral = true;
      const k = prop(a, "key");
      if (k && ts.isStringLiteralLike(k)) c.key = { value: k.text, range: r(k) };
      const f = prop(a, "fields");
      if (f && ts.isObjectLiteralExpression(f)) {
        const fields: { name: string; range: Range }[] = [];
        let known = true;
        for (const p of f.properties) {
          if (ts.isSpreadAssignment(p) || !p.name) { known = false; break; }
          const key = nameText(p.name);
          if (key === undefined) { known = false; break; }
          fields.push({ name: key, range: r(p.name) });
        }
        if (known) c.fields = fields;
      }
    }
    facts.collections.push(c);
  }


  // Exported consts whose initialiser is a function (or a call) are workflows of a workflow source.
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st) || !hasModifier(st, ts.SyntaxKind.ExportKeyword)) continue;
    for (const d of st.declarationList.declarations) {
      if (!ts.isIdentifier(d.name) || !d.initializer) continue;
      const init = unwrap(d.initializer);
      if (ts.isArrowFunction(init) || ts.isFunctionExpression(init) || ts.isCallExpression(init)) facts.workflows.push({ name: d.name.text, range: r(d.name), declaration: r(st) });
    }
  }
  // So are those exported by name (`const run = async (ctx) => …; export { run as nightly }`), and
  // functions exported so (`async function run(ctx) {…}; export { run }`), by their exported name,
  // with the lens at the local's name, where the workflow is written.
  for (const { local, exported } of exportedByName) {
    const init = unwrap(local.init);
    const decl = local.statement.declarationList.declarations.find((d) => d.initializer === local.init);
    if (decl && (ts.isArrowFunction(init) || ts.isFunctionExpression(init) || ts.isCallExpression(init))) facts.workflows.push({ name: exported.text, range: r(decl.name), declaration: r(local.statement) });
  }
  for (const st of sf.statements) {
    if (!ts.isExportDeclaration(st) || st.moduleSpecifier || st.isTypeOnly || !st.exportClause || !ts.isNamedExports(st.exportClause)) continue;
    for (const el of st.exportClause.elements) {
      if (el.isTypeOnly || !ts.isIdentifier(el.name)) continue;
      const local = (el.propertyName ?? el.name).text;
      const fn = sf.statements.find((f): f is ts.FunctionDeclaration => ts.isFunctionDeclaration(f) && f.name?.text === local && !!f.body && !hasModifier(f, ts.SyntaxKind.ExportKeyword));
      if (fn) facts.workflows.push({ name: el.name.text, range: r(fn.name!), declaration: r(fn) });
    }
  }

  return facts;
}

function unwrap(e: ts.Expression): ts.Expression {
  while (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) || ts.isNonNullExpression(e) || ts.isTypeAssertionExpression(e)) e = e.expression;
  return e;
}

function hasModifier(node: ts.Node, kind: ts.SyntaxKind): boolean {
  const mods = (node as { modifiers?: ts.NodeArray<ts.ModifierLike> }).modifiers;
  return !!mods?.some((m) => m.kind === kind);
}

function prop(obj: ts.ObjectLiteralExpression, name: string): ts.Expression | undefined {
  for (const p of obj.properties) {
    if (ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) && p.name.text === name) return unwrap(p.initializer);
    if (ts.isShorthandPropertyAssignment(p) && p.name.text === name) return p.name;
  }
  return undefined;
}

/** A contract property "is present and not false or undefined" (A4). */
function literalTruth(e: ts.Expression): boolean | "unknown" {
  e = unwrap(e);
  if (e.kind === ts.SyntaxKind.FalseKeyword) return false;
  if ((ts.isIdentifier(e) && e.text === "undefined") || ts.isVoidExpression(e)) return false;
  if (e.kind === ts.SyntaxKind.TrueKeyword || ts.isObjectLiteralExpression(e) || ts.isStringLiteralLike(e) || ts.isNumericLiteral(e) || ts.isArrayLiteralExpression(e) || ts.isArrowFunction(e) || ts.isFunctionExpression(e)) return true;
  if (e.kind === ts.SyntaxKind.NullKeyword) return true; // present, and neither false nor undefined (A4)
  return "unknown";
}

/** Whether a zod chain marks its field optional: `.optional()`, `.nullish()` or `.default(...)` anywhere in it. */
function chainIsOptional(e: ts.Expression): boolean {
  let cur: ts.Expression = unwrap(e);
  while (ts.isCallExpression(cur) || ts.isPropertyAccessExpression(cur)) {
    if (ts.isCallExpression(cur)) {
      const callee = cur.expression;
      if (ts.isPropertyAccessExpression(callee) && ["optional", "nullish", "default"].includes(callee.name.text)) return true;
      cur = callee;
    } else cur = cur.expression;
  }
  return false;
}
